"""The firmware's heap in the real MicroPython VM (figures: tools/memory.py).

The chip has about 180 KB of Python heap; the goal (tools.memory.BUDGET) is to
hold at most half of it with the whole firmware imported, a Searcher and a
top-level search under way. Measured: ~111 KB (the VM counts host stubs and
the bytecode of the viper core, which on the chip is native code outside the
GC heap), so that goal is an expected failure for now, and a ceiling guards
against growth while the footprint is brought down."""
import pytest

from tools import memory, mpvm

pytestmark = pytest.mark.skipif(not mpvm.available(), reason="MicroPython VM unavailable (run `npm ci`)")

CEILING = 120 * 1024  # today's footprint plus a little: fails on growth


@pytest.fixture(scope="module")
def figures():
    return memory.measure()


def test_a_search_allocates_nothing_per_node(figures):
    assert figures["per_node"] == 0, figures


def test_footprint_stays_under_the_ceiling(figures):
    assert figures["import"] + figures["searcher"] <= figures["search_peak"] <= CEILING, \
        memory.report(figures)


@pytest.mark.xfail(strict=True, reason="~111 KB in the VM today: the 90 KB budget is not met yet")
def test_footprint_leaves_half_the_heap_free(figures):
    assert figures["search_peak"] <= memory.BUDGET, memory.report(figures)


def test_the_report_prints_every_figure(figures):
    text = memory.report(figures)
    for label in ("firmware imported", "searcher", "search peak", "per search node", "budget"):
        assert label in text
