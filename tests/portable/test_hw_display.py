"""Display driver: LED mapping, gamma, brightness, current limit, writes only in show()."""
from connect4.hw.display import Display, led_map, gamma_table, scale, mix, brightness_for, BRIGHTNESS
from fakes import FakeStrip
from checks import raises


def test_progressive_and_serpentine_maps():
    m = led_map(8, 8)
    assert list(m[:9]) == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    s = led_map(8, 8, serpentine=True)
    assert s[0] == 0 and s[7] == 7 and s[8] == 15 and s[15] == 8 and s[16] == 16
    strip = led_map(7, 6, serpentine=True)  # a bare 7x6 strip
    assert strip[7] == 13 and strip[13] == 7


def test_every_map_is_a_permutation():
    for w, h in ((8, 8), (7, 7), (7, 6)):
        for rot in (0, 90, 180, 270):
            for serp in (False, True):
                for fx in (False, True):
                    m = led_map(w, h, serp, rot, fx, not fx)
                    assert sorted(m) == list(range(w * h)), (w, h, rot, serp, fx)


def test_rotation_and_flips():
    # turned 90 degrees clockwise: the chain's first row is the view's right column
    m = led_map(8, 8, rotation=90)
    assert m[7 + 0 * 8] == 0 and m[7 + 1 * 8] == 1 and m[6 + 0 * 8] == 8
    m = led_map(8, 8, rotation=180)
    assert m[63] == 0 and m[0] == 63
    m = led_map(8, 8, rotation=270)
    assert m[0 + 7 * 8] == 0 and m[0 + 6 * 8] == 1
    assert led_map(8, 8, flip_x=True)[7] == 0
    assert led_map(8, 8, flip_y=True)[56] == 0
    m = led_map(7, 6, rotation=90)  # a 6x7 panel turned on its side
    assert m[6] == 0 and m[6 + 7] == 1 and m[5] == 6
    raises(ValueError, led_map, 8, 8, False, 45)


def test_gamma_keeps_lit_channels_lit():
    g = gamma_table()
    assert g[0] == 0 and g[255] == 255 and g[1] == 1
    assert all(g[i] <= g[i + 1] for i in range(255))
    assert 50 < g[128] < 64  # 2.2: half brightness is about 22% duty


def test_colour_helpers():
    assert scale(0xFF8040, 128) == (0x80 << 16) | (0x40 << 8) | 0x20
    assert scale(0x123456, 255) == 0x123456
    assert mix(0x000000, 0xFF0000, 255) == 0xFF0000 and mix(0x0000FF, 0xFF0000, 0) == 0x0000FF
    assert brightness_for(0) == BRIGHTNESS[0] and brightness_for(99) == BRIGHTNESS[-1]


def test_only_show_touches_the_strip():
    strip = FakeStrip(64)
    d = Display(strip, brightness=255)
    d.set(0, 0, 0xFF0000)
    d.clear(0x00FF00)
    d.set(99, 99, 0xFFFFFF)  # outside: ignored
    assert strip.writes == 0 and strip.pixels[0] == (0, 0, 0)
    d.clear()
    d.set(2, 1, 0xFF0000)
    d.show()
    assert strip.writes == 1
    assert strip.shown[2 + 8] == (255, 0, 0)
    assert strip.shown[0] == (0, 0, 0)


def test_brightness_scales_and_dim_pixels_stay_on():
    strip = FakeStrip(64)
    d = Display(strip, brightness=64)
    d.set(0, 0, 0xFF0000)
    d.set(1, 0, 0x010000)
    d.show()
    assert strip.shown[0] == (64, 0, 0)
    assert strip.shown[1] == (1, 0, 0)


def test_current_limiter_scales_a_white_frame_to_the_budget():
    strip = FakeStrip(64)
    d = Display(strip, brightness=255, budget_ma=400, ma_per_channel=20, idle_ma_per_led=1)
    d.clear(0xFFFFFF)  # 64 x 60 mA: almost 4 A unlimited
    d.show()
    assert d.limited
    assert d.milliamps <= 400
    level = strip.shown[0][0]
    assert level == strip.shown[63][2] and 0 < level < 40
    total = sum(sum(p) for p in strip.shown)
    assert 64 + total * 20 // 255 <= 400
    # a modest frame is left alone
    d.clear()
    d.set(3, 3, 0xFF0000)
    d.show()
    assert not d.limited and strip.shown[3 + 24] == (255, 0, 0) and d.milliamps == 64 + 20


def test_show_writes_the_drivers_buffer_in_its_order():
    strip = FakeStrip(64)  # GRB, MicroPython's default ORDER
    d = Display(strip, brightness=255)
    d.set(1, 0, 0x102030)
    d.show()
    g = gamma_table()
    assert bytes(strip.buf[3:6]) == bytes((g[0x20], g[0x10], g[0x30]))
    rgbw = FakeStrip(64, bpp=4)  # an RGBW strip: the white byte stays dark
    rgbw.ORDER = (0, 1, 2, 3)
    d = Display(rgbw, brightness=255, mapping=led_map(8, 8, serpentine=True))
    d.set(0, 1, 0xFF0000)  # row 1 runs backwards: LED 15
    d.show()
    assert bytes(rgbw.buf[60:64]) == bytes((255, 0, 0, 0)) and not any(rgbw.buf[:60])


def test_a_frame_allocates_nothing():
    """Drawing and showing a frame with the heap locked (a no-op on CPython)."""
    import micropython
    strip = FakeStrip(64)
    d = Display(strip, brightness=48)
    micropython.heap_lock()
    try:
        d.clear(0x00FF00)
        d.set(3, 4, 0xFF0000)
        d.show()
    finally:
        micropython.heap_unlock()
    assert strip.writes == 1
