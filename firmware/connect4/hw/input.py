"""Controls: debounced buttons and a quadrature encoder, as one event queue.

Implementation notes
- Everything is polled from the main loop (`Input.poll(now)` every couple of
  milliseconds), in the style of Peter Hinch's micropython-async switches:
  no interrupt handlers, so nothing runs at interrupt level and nothing can
  race the main loop. (On the ESP32 pin IRQs are soft anyway and never run
  while the viper search is inside native code.)
- A button change is accepted at once and further changes are ignored for
  `debounce_ms` (contact bounce). A LEFT/RIGHT button acts when pressed (and
  repeats every `repeat_ms` while held, if set); the SELECT button gives
  SELECT when released before `long_ms`, or LONG_SELECT as soon as it has
  been held that long (its release then gives nothing).
- A button already held when created (or when `flush()` is called) gives no
  event until it has been released.
- The encoder uses a full-step state table (after Ben Buxton's decoder): a
  step counts only after the complete four-transition cycle back to the
  detent, so contact bounce, which flips between two neighbouring states,
  never counts, and a missed transition loses a step instead of reversing.
- `pressed()` reads the SELECT pin directly (no queue, no allocation): the AI
  search's poll hook uses it to notice a press within a few milliseconds.
- Times are `time.ticks_ms()` values, compared with ticks_diff only.
"""
from micropython import const
from time import ticks_add, ticks_diff

NONE = const(0)
LEFT = const(1)
RIGHT = const(2)
SELECT = const(3)
LONG_SELECT = const(4)

# Button.update() results (bit flags)
PRESS = const(1)
RELEASE = const(2)
LONG = const(4)
REPEAT = const(8)

_QUEUE = const(16)

# Full-step quadrature table: state * 4 + (b << 1 | a) -> next state | direction.
# States: 0 rest, 1-3 clockwise cycle, 4-6 counter-clockwise cycle.
_CW = const(0x10)
_CCW = const(0x20)
_TABLE = bytes((
    0, 2, 4, 0,          # rest
    3, 0, 1, 0x10,       # cw final
    3, 2, 0, 0,          # cw begin
    3, 2, 1, 0,          # cw next
    6, 0, 4, 0,          # ccw begin
    6, 5, 0, 0x20,       # ccw final
    6, 5, 4, 0,          # ccw next
))


class Button:
    """One push button read through `read()` (a pin's `value`)."""

    def __init__(self, read, active_low=True, debounce_ms=50, long_ms=800, repeat_ms=0):
        self.read = read
        self.active = 0 if active_low else 1
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_ms = repeat_ms
        self.down = self.is_down()
        self.settled = True  # False for debounce_ms after an accepted change
        self.changed = 0
        self.pressed_at = 0
        self.next_repeat = 0
        self.long_done = False
        self.ignore = self.down  # held at start: wait for a release

    def is_down(self):
        return self.read() == self.active

    def update(self, now):
        events = 0
        if not self.settled and ticks_diff(now, self.changed) >= self.debounce_ms:
            self.settled = True
        if self.settled:
            down = self.is_down()
            if down != self.down:
                self.down = down
                self.changed = now
                self.settled = False
                if down:
                    self.pressed_at = now
                    self.next_repeat = ticks_add(now, 2 * self.repeat_ms)  # the first repeat waits longer
                    self.long_done = False
                    if not self.ignore:
                        events |= PRESS
                else:
                    if not self.ignore:
                        events |= RELEASE
                    self.ignore = False
        if self.down and not self.ignore:
            if not self.long_done and ticks_diff(now, self.pressed_at) >= self.long_ms:
                self.long_done = True
                events |= LONG
            if self.repeat_ms and ticks_diff(now, self.next_repeat) >= 0:
                self.next_repeat = ticks_add(now, self.repeat_ms)
                events |= REPEAT
        return events

    def hold_off(self):
        """Ignore the current press, if any, until it is released."""
        if self.down:
            self.ignore = True


class Encoder:
    """A quadrature encoder read through `read_a()` / `read_b()`."""

    def __init__(self, read_a, read_b, reverse=False):
        self.read_a = read_a
        self.read_b = read_b
        self.reverse = reverse
        self.state = 0

    def update(self):
        """Sample both pins: +1 for a finished step clockwise, -1 counter, else 0."""
        s = _TABLE[((self.state & 7) << 2) | (self.read_b() << 1) | self.read_a()]
        self.state = s
        if s & _CW:
            return -1 if self.reverse else 1
        if s & _CCW:
            return 1 if self.reverse else -1
        return 0


class Input:
    """The controls as one queue of LEFT / RIGHT / SELECT / LONG_SELECT events."""

    def __init__(self, select, left=None, right=None, encoder=None):
        self.select = select
        self.left = left
        self.right = right
        self.encoder = encoder
        self.queue = bytearray(_QUEUE)
        self.head = 0
        self.count = 0

    def _push(self, event):
        if self.count < _QUEUE:  # a full queue drops new events (mashing)
            self.queue[(self.head + self.count) % _QUEUE] = event
            self.count += 1

    def poll(self, now):
        """Sample every control once; call every few milliseconds."""
        if self.encoder is not None:
            step = self.encoder.update()
            if step > 0:
                self._push(RIGHT)
            elif step < 0:
                self._push(LEFT)
        if self.left is not None and self.left.update(now) & (PRESS | REPEAT):
            self._push(LEFT)
        if self.right is not None and self.right.update(now) & (PRESS | REPEAT):
            self._push(RIGHT)
        e = self.select.update(now)
        if e & LONG:
            self._push(LONG_SELECT)
        elif e & RELEASE and not self.select.long_done:
            self._push(SELECT)

    def get(self):
        """The next event, or NONE."""
        if not self.count:
            return NONE
        event = self.queue[self.head]
        self.head = (self.head + 1) % _QUEUE
        self.count -= 1
        return event

    def pressed(self):
        """Is the SELECT button down right now? Cheap enough for the search's poll hook."""
        return self.select.is_down()

    def busy(self):
        """Is any button held (debounced)?"""
        for button in (self.select, self.left, self.right):
            if button is not None and button.down:
                return True
        return False

    def flush(self):
        """Drop queued events; buttons held now give nothing until released."""
        self.count = 0
        for button in (self.select, self.left, self.right):
            if button is not None:
                button.hold_off()
