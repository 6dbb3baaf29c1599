"""Input driver: debounce, click and long press, repeat, encoder decoding with bounce."""
from connect4.hw.input import (Button, Encoder, Input, LEFT, RIGHT, SELECT, LONG_SELECT,
                               PRESS, RELEASE, LONG)
from fakes import FakePin

BASE = (1 << 30) - 100  # times near the ticks wrap-around


def t(ms):
    return (BASE + ms) % (1 << 30)


def events(inp):
    out = []
    e = inp.get()
    while e:
        out.append(e)
        e = inp.get()
    return out


def drive(inp, pin, levels, start=0, step=1):
    """Set pin to each level in turn, polling every `step` ms; returns the time reached."""
    now = start
    for level in levels:
        pin.level = level
        inp.poll(t(now))
        now += step
    return now


def test_button_bounce_gives_one_click():
    pin = FakePin()
    b = Button(pin.value, debounce_ms=50)
    inp = Input(b)
    # contact bounce on press (1 ms apart), held 100 ms, bounce on release
    now = drive(inp, pin, [0, 1, 0, 1, 0] + [0] * 100 + [1, 0, 1, 0, 1] + [1] * 100)
    assert events(inp) == [SELECT], now


def test_long_press_fires_while_held_and_release_gives_nothing():
    pin = FakePin()
    inp = Input(Button(pin.value, long_ms=800))
    drive(inp, pin, [0] * 790, step=1)
    assert events(inp) == []
    drive(inp, pin, [0] * 20, start=790)
    assert events(inp) == [LONG_SELECT]
    drive(inp, pin, [1] * 100, start=810)
    assert events(inp) == []
    drive(inp, pin, [0] * 100 + [1] * 60, start=910)  # the next click works again
    assert events(inp) == [SELECT]


def test_button_held_at_start_is_ignored_until_released():
    pin = FakePin(0)
    inp = Input(Button(pin.value))
    drive(inp, pin, [0] * 1500)
    assert events(inp) == [] and inp.pressed()
    drive(inp, pin, [1] * 60 + [0] * 80 + [1] * 60, start=1500)
    assert events(inp) == [SELECT]


def test_flush_holds_off_the_current_press():
    pin = FakePin()
    inp = Input(Button(pin.value))
    drive(inp, pin, [0] * 60)
    inp.flush()
    drive(inp, pin, [0] * 40 + [1] * 60, start=60)
    assert events(inp) == []


def test_left_right_buttons_act_on_press_and_repeat():
    sel, left, right = FakePin(), FakePin(), FakePin()
    inp = Input(Button(sel.value), left=Button(left.value, repeat_ms=100),
                right=Button(right.value))
    drive(inp, right, [0] * 5)
    assert events(inp) == [RIGHT]  # at once, not on release
    drive(inp, right, [1] * 60, start=5)
    drive(inp, left, [0] * 450, start=65)  # held: first repeat after 200 ms, then every 100
    assert events(inp) == [LEFT, LEFT, LEFT, LEFT]
    assert events(inp) == []


def test_button_update_flags():
    pin = FakePin()
    b = Button(pin.value, debounce_ms=10, long_ms=50)
    pin.level = 0
    assert b.update(t(0)) == PRESS
    assert b.update(t(5)) == 0
    assert b.update(t(50)) == LONG
    pin.level = 1
    assert b.update(t(60)) == RELEASE


CW = [(1, 0), (0, 0), (0, 1), (1, 1)]  # (a, b) after each transition from rest (1, 1)
CCW = [(0, 1), (0, 0), (1, 0), (1, 1)]


def turn(enc, seq, bounce=False):
    """Feed (a, b) levels, each sampled twice; with bounce, each change chatters first."""
    states = []
    prev = (1, 1)
    for s in seq:
        if bounce:
            states += [s, prev, s, prev]
        states += [s, s]
        prev = s
    out = 0
    for a, b in states:
        enc.read_a = lambda v=a: v
        enc.read_b = lambda v=b: v
        out += enc.update()
    return out


def test_encoder_counts_full_cycles_each_way():
    enc = Encoder(lambda: 1, lambda: 1)
    assert turn(enc, CW) == 1
    assert turn(enc, CW * 3) == 3
    assert turn(enc, CCW * 2) == -2
    rev = Encoder(lambda: 1, lambda: 1, reverse=True)
    assert turn(rev, CW) == -1


def test_encoder_ignores_bounce_and_half_turns():
    enc = Encoder(lambda: 1, lambda: 1)
    # one contact chattering at rest, forever: never a step
    for _ in range(20):
        assert turn(enc, [(1, 0), (1, 1)]) == 0
    # half a detent and back
    assert turn(enc, [(1, 0), (0, 0), (1, 0), (1, 1)]) == 0
    # bounce on every transition of a real step still counts exactly once
    assert turn(enc, CW, bounce=True) == 1
    assert turn(enc, CCW, bounce=True) == -1


def test_encoder_through_input_gives_left_and_right():
    a, b, sel = FakePin(), FakePin(), FakePin()
    inp = Input(Button(sel.value), encoder=Encoder(a.value, b.value))
    now = 0
    for seq in (CW, CW, CCW):
        for la, lb in seq:
            a.level, b.level = la, lb
            inp.poll(t(now))
            now += 2
    assert events(inp) == [RIGHT, RIGHT, LEFT]


def test_queue_drops_events_when_full_and_pressed_is_raw():
    a, b, sel = FakePin(), FakePin(), FakePin()
    inp = Input(Button(sel.value), encoder=Encoder(a.value, b.value))
    for _ in range(40):
        for la, lb in CW:
            a.level, b.level = la, lb
            inp.poll(t(0))
    assert len(events(inp)) == 16
    assert not inp.pressed()
    sel.level = 0
    assert inp.pressed() and not inp.busy()  # raw level at once; debounced state on the next poll
    inp.poll(t(100))
    assert inp.busy()
