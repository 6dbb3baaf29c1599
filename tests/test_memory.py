"""The firmware's heap in the real MicroPython VM (figures: tools/mpvm/memory.py).

The chip has about 180 KB of Python heap; the budget (tools.mpvm.memory.BUDGET) is
half of it, for everything the board holds at its peak: the firmware loaded
from .mpy as deployed, the app with its Searcher and table, the garbage of a
top-level move or of any main-loop step of a whole game, and the viper
functions' machine code (which the chip keeps outside the GC heap)."""
import os

import pytest

from tools import mpvm
from tools.mpvm import memory, mpyinfo

pytestmark = pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")


@pytest.fixture(scope="module")
def figures():
    return memory.measure()


def test_a_search_allocates_nothing_per_node(figures):
    assert figures["per_node"] == 0, figures


def test_the_probe_ran_the_whole_board(figures):
    from connect4.engine import levels
    assert figures["search_nodes"] >= levels.nodes(levels.MAX_LEVEL)  # the strongest level's budget, used up
    assert figures["game_moves"] >= 7 and figures["game_saved"], figures  # a finished game, on flash
    from connect4.engine.core import TT_ENTRY
    assert figures["table"] == 1024 * TT_ENTRY  # the config's table
    held = figures["import"] + figures["app"]
    assert held < figures["search_peak"] and held < figures["game_peak"], figures


def test_footprint_leaves_half_the_heap_free(figures):
    assert 0 < figures["replaced_bytecode"] < figures["native"], figures
    assert figures["footprint"] <= memory.BUDGET, memory.report(figures)


def test_with_wifi_on_the_chips_gc_heap_stays_the_one_the_app_already_has(figures):
    """The split heap, modelled (issue 31): the chip's GC heap grows into the ESP-IDF heap and
    never gives it back; with Wi-Fi on, that is the memory lwIP and the Wi-Fi driver need. So
    the Wi-Fi-on heap at its fullest must fit the GC heap the app already has, 20 KB kept free
    (issue 36: under a hostile load less room left the page one allocation from dead)."""
    assert figures["gc_web"] <= figures["gc_web_budget"], memory.report(figures)


def test_a_board_that_holds_a_game_of_two_boards_keeps_the_room(figures):
    """Issue 37: the holder's role (connect4.app.twoboards, boardhold: loaded for the game) fits
    the same GC heap with its 20 KB free, the AI's table shrunk meanwhile; none of it is
    resident on a board that serves phones only (gc_web above has none of it)."""
    assert figures["gc_web_hold"] <= figures["gc_web_budget"], memory.report(figures)


def test_the_report_prints_every_figure(figures):
    text = memory.report(figures)
    for label in ("firmware imported", "app built on it", "top-level move peak", "whole game peak",
                  "per search node", "native code", "footprint", "budget", "GC heap with Wi-Fi on",
                  "a game of two boards", "holding a board's game"):
        assert label in text


def test_mpyinfo_reads_native_and_bytecode_files(tmp_path):
    core = os.path.join(mpvm.ROOT, "firmware", "connect4", "engine", "core.py")
    native = tmp_path / "native.mpy"
    memory._mpy_cross(["-march=rv32imc", "-o", str(native), core])
    chip = mpyinfo.file_sizes(native)
    assert chip["native_functions"] >= 2 and chip["native"] > 5000 and chip["bytecode"] > 0  # clear, negamax
    image = tmp_path / "image"
    memory.build_vm_image(str(image))
    plain = mpyinfo.file_sizes(image / "connect4" / "engine" / "core.mpy")
    assert plain["native"] == 0 and plain["bytecode"] > chip["bytecode"]
    assert (image / "main.py").is_file() and (image / "config.py").is_file()  # kept as source
    data = native.read_bytes()
    with pytest.raises(ValueError):
        mpyinfo.sizes(data[:-10])
    with pytest.raises(ValueError):
        mpyinfo.sizes(b"X" + data[1:])
