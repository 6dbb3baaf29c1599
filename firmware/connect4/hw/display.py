"""The LED matrix: a frame of RGB cells shown through a NeoPixel-like strip.

Implementation notes
- The frame is `width` x `height` cells as the player sees them, (0, 0) top
  left, one 0xRRGGBB int per cell in a preallocated array; drawing never
  touches the LEDs. Only `show()` does: it maps cells to LED indexes (a table
  built once from the panel's wiring, rotation and flips), applies the gamma
  table and the global brightness, estimates the current and scales the whole
  frame down to the budget, then writes the strip's buffer (the `buf`,
  `ORDER` and `bpp` of MicroPython's NeoPixel driver) and sends it.
- Colours are perceptual (what you would pick on a screen); the gamma table
  turns them into PWM duty. Brightness scales the duty; a lit channel never
  rounds down to off, so dim pixels stay visible.
- Current: about `ma_per_channel` mA per channel at full duty, plus
  `idle_ma_per_led` for every LED. The last estimate is `milliamps`.
"""
from micropython import const

_GAMMA = 2.2
_FULL = const(255)


BRIGHTNESS = (8, 16, 28, 48, 80, 128, 200)  # duty out of 255 for brightness levels 1..7


def brightness_for(level):
    """Global brightness (duty out of 255) of a 1-based brightness level."""
    return BRIGHTNESS[max(1, min(len(BRIGHTNESS), level)) - 1]


def led_map(width, height, serpentine=False, rotation=0, flip_x=False, flip_y=False):
    """A bytearray: LED index of cell x + y * width (as seen by the player).

    The chain starts at the top left of the panel as mounted before rotation
    and runs along rows (serpentine: odd rows backwards). `rotation` turns the
    panel clockwise by 0/90/180/270 degrees; flips mirror the view first.
    """
    if rotation not in (0, 90, 180, 270):
        raise ValueError("rotation must be 0, 90, 180 or 270")
    n = width * height
    if n > 256:
        raise ValueError("at most 256 LEDs")
    pw, ph = (height, width) if rotation in (90, 270) else (width, height)
    table = bytearray(n)
    for y in range(height):
        for x in range(width):
            vx = width - 1 - x if flip_x else x
            vy = height - 1 - y if flip_y else y
            # where the view's cell sits on the panel's own (unrotated) grid
            if rotation == 0:
                px, py = vx, vy
            elif rotation == 90:  # panel's top row became the view's right column
                px, py = vy, width - 1 - vx
            elif rotation == 180:
                px, py = width - 1 - vx, height - 1 - vy
            else:
                px, py = height - 1 - vy, vx
            if serpentine and py & 1:
                px = pw - 1 - px
            table[x + y * width] = py * pw + px
    return table


def gamma_table(gamma=_GAMMA):
    table = bytearray(256)
    for v in range(1, 256):
        table[v] = max(1, int(_FULL * (v / _FULL) ** gamma + 0.5))
    return table


def scale(color, num, den=255):
    """0xRRGGBB scaled by num/den (a dimmed or faded colour)."""
    if num >= den:
        return color
    r = ((color >> 16) & 255) * num // den
    g = ((color >> 8) & 255) * num // den
    b = (color & 255) * num // den
    return (r << 16) | (g << 8) | b


def mix(a, b, num, den=255):
    """The colour num/den of the way from a to b."""
    out = 0
    for shift in (16, 8, 0):
        ca = (a >> shift) & 255
        cb = (b >> shift) & 255
        out |= (ca + (cb - ca) * num // den) << shift
    return out


class Display:
    def __init__(self, strip, width=8, height=8, mapping=None, brightness=48,
                 budget_ma=400, ma_per_channel=20, idle_ma_per_led=1):
        self.strip = strip
        self.width = width
        self.height = height
        self.n = width * height
        if len(strip) < self.n:
            raise ValueError("the strip has %d LEDs, the panel needs %d" % (len(strip), self.n))
        self.mapping = mapping or led_map(width, height)
        self.frame = [0] * self.n
        self.out = bytearray(3 * self.n)
        self.gamma = gamma_table()
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.ma_per_channel = ma_per_channel
        self.idle_ma = idle_ma_per_led * len(strip)
        self.milliamps = 0
        self.limited = False

    def set_brightness(self, value):
        self.brightness = max(1, min(_FULL, int(value)))

    def clear(self, color=0):
        frame = self.frame
        for i in range(self.n):
            frame[i] = color

    def set(self, x, y, color):
        if 0 <= x < self.width and 0 <= y < self.height:
            self.frame[x + y * self.width] = color

    def show(self):
        """Gamma, brightness, current limit, then write the strip."""
        frame = self.frame
        out = self.out
        gamma = self.gamma
        bright = self.brightness
        total = 0
        j = 0
        for i in range(self.n):
            c = frame[i]
            r = c >> 16
            g = (c >> 8) & 255
            b = c & 255
            if r:
                r = gamma[r] * bright // _FULL or 1
            if g:
                g = gamma[g] * bright // _FULL or 1
            if b:
                b = gamma[b] * bright // _FULL or 1
            out[j] = r
            out[j + 1] = g
            out[j + 2] = b
            total += r + g + b
            j += 3
        # units of duty the budget affords: (budget - idle) mA at ma_per_channel a full channel
        allowed = (self.budget_ma - self.idle_ma) * _FULL // self.ma_per_channel
        if allowed < 0:
            allowed = 0
        self.limited = total > allowed
        if self.limited:
            for k in range(3 * self.n):
                out[k] = out[k] * allowed // total
            total = allowed
        self.milliamps = self.idle_ma + total * self.ma_per_channel // _FULL
        # Straight into the driver's buffer (`np[i] = (r, g, b)` would make a
        # tuple per LED: 2 KB of garbage a frame), in its ORDER and bytes per LED.
        strip = self.strip
        buf = strip.buf
        order = strip.ORDER
        o_r = order[0]
        o_g = order[1]
        o_b = order[2]
        bpp = strip.bpp
        mapping = self.mapping
        for i in range(self.n):
            k = 3 * i
            base = mapping[i] * bpp
            buf[base + o_r] = out[k]
            buf[base + o_g] = out[k + 1]
            buf[base + o_b] = out[k + 2]
        strip.write()
