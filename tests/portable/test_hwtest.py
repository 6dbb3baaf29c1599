"""The hardware test screen: colour cycle at low brightness, a marker per input."""
from connect4.hw.display import Display, led_map
from connect4.hw.input import Button, Encoder, Input
from connect4.app.hwtest import HardwareTest, PHASE_MS
from fakes import FakeClock, FakePin, FakeStrip, hue


class Bench:
    """A panel and an encoder build on fakes, with the test screen started."""

    def __init__(self, buttons=False):
        self.clock = FakeClock()
        self.strip = FakeStrip(64)
        self.display = Display(self.strip, 8, 8, led_map(8, 8), brightness=128)
        self.select, self.a, self.b = FakePin(), FakePin(), FakePin()
        self.left, self.right = FakePin(), FakePin()
        if buttons:
            self.input = Input(Button(self.select.value), left=Button(self.left.value),
                               right=Button(self.right.value))
        else:
            self.input = Input(Button(self.select.value), encoder=Encoder(self.a.value, self.b.value))
        self.test = HardwareTest(self.display, self.input)
        self.test.begin(self.clock.ticks_ms())
        self.running = True

    def run_for(self, ms):
        end = self.clock.elapsed + ms
        while self.clock.elapsed < end and self.running:
            self.running = self.test.step(self.clock.ticks_ms())
            self.clock.sleep_ms(2)

    def pixel(self, x, y):
        return self.strip.shown[self.display.mapping[x + 8 * y]]

    def turn(self, steps):
        first, second = (self.b, self.a) if steps > 0 else (self.a, self.b)
        for k, (pin, level) in enumerate(((first, 0), (second, 0), (first, 1), (second, 1))):
            self.clock.at(4 * k, pin, level)
        self.run_for(24)


def is_mark(rgb):
    return rgb[0] > 0 and rgb[1] == 0 and rgb[2] > 0


def test_every_led_cycles_red_green_blue_white_at_low_brightness():
    bench = Bench()
    seen = []
    for phase in range(5):
        bench.run_for(PHASE_MS // 2)
        shown = [bench.pixel(x, y) for y in range(8) for x in range(8)]
        assert len(set(shown)) == 1, shown  # every LED alike: a dead one would stand out
        r, g, b = shown[0]
        seen.append("white" if r == g == b > 0 else hue(shown[0]))
        assert max(shown[0]) <= 16  # low brightness, whatever the saved setting was
        bench.run_for(PHASE_MS - PHASE_MS // 2)
    assert seen == ["red", "green", "blue", "white", "red"]


def test_each_input_lights_its_own_marker():
    bench = Bench()
    bench.run_for(100)
    assert not any(is_mark(bench.pixel(x, y)) for x in range(8) for y in range(8))
    bench.turn(1)
    bench.run_for(50)
    assert is_mark(bench.pixel(7, 0)) and not is_mark(bench.pixel(0, 0))
    bench.run_for(500)
    assert not is_mark(bench.pixel(7, 0))  # a marker goes out again
    bench.turn(-1)
    bench.run_for(50)
    assert is_mark(bench.pixel(0, 0)) and not is_mark(bench.pixel(7, 0))
    bench.clock.at(0, bench.select, 0)  # hold the button: the centre lights while held
    bench.run_for(300)
    assert all(is_mark(bench.pixel(x, y)) for x in (3, 4) for y in (3, 4))
    bench.clock.at(0, bench.select, 1)
    bench.run_for(100)
    assert not is_mark(bench.pixel(3, 3))
    assert bench.running  # a short press does not leave


def test_buttons_build_markers_and_a_long_press_leaves():
    bench = Bench(buttons=True)
    bench.clock.at(0, bench.right, 0)
    bench.clock.at(80, bench.right, 1)
    bench.run_for(120)
    assert is_mark(bench.pixel(7, 0))
    bench.clock.at(0, bench.left, 0)
    bench.clock.at(80, bench.left, 1)
    bench.run_for(120)
    assert is_mark(bench.pixel(0, 0))
    bench.clock.at(0, bench.select, 0)
    bench.clock.at(1200, bench.select, 1)
    bench.run_for(1500)
    assert not bench.running


def test_run_returns_on_a_long_press_and_leaves_the_panel_dark():
    bench = Bench()
    bench.clock.at(100, bench.select, 0)
    bench.clock.at(1300, bench.select, 1)
    bench.test.run(bench.clock)
    assert bench.clock.elapsed < 2000
    assert all(bench.strip.shown[i] == (0, 0, 0) for i in range(64))
