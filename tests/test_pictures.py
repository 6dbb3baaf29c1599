"""The README's pictures show what their captions say: `make picture`'s runs
(tools/docs/pictures.py) made afresh, their frames read back LED by LED, and the
final position compared with the game the run recorded (or left on the board); a
replay must be seen to replay, a menu to open. The committed pictures are the
ones these runs make."""
import glob
import os
import re

import pytest
from PIL import Image, ImageChops, ImageSequence

from connect4.app.render import Layout
from connect4.engine.board import Board, parse_size
from host_sim.record import read_leds
from tools.docs import pictures

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PANEL = 8  # the encoder preset's 8x8 panel
LAST_MS = 1500  # the final position: what the last 1.5 s show (a winning four blinks)


def hue(rgb):
    r, g, b = rgb
    if max(rgb) < 80:  # a hole (26, 26, 30); the dimmest lit channel is 96
        return None
    if b > max(r, g) / 2:
        return "blue"
    return "yellow" if g > r / 2 else "red"


def board_of(size):
    """(cols, rows, Layout) of a board size on the panel."""
    cols, rows = parse_size(size)
    return cols, rows, Layout(PANEL, PANEL, cols, rows)


def frames(path):
    """[(duration ms, [colour of each LED])] of a picture, in order."""
    out = []
    with Image.open(path) as im:
        for frame in ImageSequence.Iterator(im):
            out.append((frame.info.get("duration", 0), [hue(c) for c in read_leds(frame, PANEL, PANEL)]))
    return out


def position(leds, size="7x6"):
    """{(col, row): colour} of the discs on the board of `size` (at the panel's bottom left)."""
    cols, rows, layout = board_of(size)
    return {(c, r): leds[c + layout.cell_y(r) * PANEL] for c in range(cols) for r in range(rows)
            if leds[c + layout.cell_y(r) * PANEL] in ("red", "yellow")}


def final_position(shown, size="7x6"):
    """The discs lit at any time in the last LAST_MS (a blinking disc counts)."""
    seen, t = {}, 0
    for duration, leds in reversed(shown):
        for cell, colour in position(leds, size).items():
            assert seen.setdefault(cell, colour) == colour, (cell, colour)
        t += duration
        if t >= LAST_MS:
            break
    return seen


def same_game(discs, moves, size="7x6"):
    """Do the discs show the position after `moves` (one colour per player, either way round)?"""
    cols, rows, _ = board_of(size)
    board = Board(moves, cols, rows)
    want = {(c, r): board.get(c, r) for c in range(cols) for r in range(rows) if board.get(c, r)}
    if set(want) != set(discs):
        return False
    colours = {}
    return all(colours.setdefault(p, discs[cell]) == discs[cell] for cell, p in want.items()) \
        and len(set(colours.values())) == 2


def is_menu(leds):
    """The menu, its statistics or its games list: three or more LEDs lit on the top row
    (a game lights two there at most: the cursor and whose turn it is)."""
    return sum(1 for c in leds[:PANEL] if c) >= 3


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("pictures"))
    return {name: pictures.make(name, out) for name, _, _ in pictures.PICTURES}


@pytest.mark.parametrize("name, caption, shows", pictures.PICTURES)
def test_each_picture_shows_what_its_caption_says(made, name, caption, shows):
    got = made[name]
    size = pictures.size_of(name)
    shown = frames(got["path"])
    final = final_position(shown, size)
    if "unfinished" in shows:
        assert got["unfinished"] and same_game(final, got["unfinished"], size), (got, final)
    else:  # the game the run recorded
        assert len(got["records"]) == 1 and same_game(final, got["records"][0]), (got, final)
    menus = [i for i, (_, leds) in enumerate(shown) if is_menu(leds)]
    if "menu" in shows:
        assert menus and menus[-1] < len(shown) - 1, "no menu, or it never closed"
    if "replay" in shows:  # after the games list: the discs again one by one from none
        counts = [len(position(leds)) for _, leds in shown[menus[-1] + 1:]]
        n = len(got["records"][0])
        assert n in counts, counts
        rise = counts[:counts.index(n) + 1]  # (then the winning four blinks)
        assert rise[0] == 0 and all(b - a in (0, 1) for a, b in zip(rise, rise[1:])), counts


def test_the_captions_are_the_documents_and_the_committed_pictures_are_made_so(made):
    """Each picture is shown under its caption, and docs/ holds what `make picture` makes."""
    texts = "".join(open(p, encoding="utf-8").read()
                    for p in [os.path.join(ROOT, "README.md")] + glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for name, caption, _ in pictures.PICTURES:
        assert re.search(r"!\[%s\]\([\w./]*docs/%s\)" % (re.escape(caption), re.escape(name)), texts), name
        with Image.open(os.path.join(ROOT, "docs", name)) as old, Image.open(made[name]["path"]) as new:
            assert old.size == new.size and getattr(old, "n_frames", 1) == getattr(new, "n_frames", 1), name
            for a, b in zip(ImageSequence.Iterator(old), ImageSequence.Iterator(new)):
                assert ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None, name


def test_a_picture_of_something_else_fails_the_check():
    """The checks can fail: the old replay script walked to the statistics, not the games."""
    assert not same_game({(3, 0): "red"}, "45")
    assert same_game({(3, 0): "red", (4, 0): "yellow"}, "45")
    assert not same_game({(3, 0): "red", (4, 0): "red"}, "45")
    assert same_game({(3, 0): "red", (7, 0): "yellow"}, "48", "8x7")  # the eighth column
    assert not same_game({(3, 0): "red", (7, 0): "yellow"}, "47", "8x7")
