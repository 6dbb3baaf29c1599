"""Put the repo root on sys.path (for `host_sim`, `tools.mpvm`); host_sim then
makes `micropython` and the firmware importable on CPython.

Markers, for `make quick` (pytest -m "not vm and not slow"):
- vm: the test runs the MicroPython VM (node). A test that needs the VM says so
  by skipping without it, `skipif(not mpvm.available(), reason="MicroPython VM
  ...")`; every such test gets the marker here. Under -m "not vm", a test
  that reaches the VM without that skip fails, naming this rule.
- slow: a run of many seconds that the inner loop can spare (SLOW, by test id;
  tests/test_tools.py checks every id still names a test).
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the portable tests' helpers (checks, fakes) serve the host-only tests too
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "portable"))

import host_sim  # noqa: F401,E402

VM_REASON = "MicroPython VM"
SLOW = {
    # the engine solves the empty 6x4 and 4x6 boards on CPython (~5 s)
    "tests/test_sizes.py::test_the_engine_finds_tromps_value_of_6x4_a_second_player_win_and_4x6_a_draw",
    # `make sim` in a pseudo-terminal: make, the simulator's start-up, key by key
    "tests/test_sim_terminal.py::test_make_sim_in_a_terminal",
    # 237 engine commands searched twice on CPython (~15 s): the both-worlds set's ties
    "tests/test_same_in_both_worlds.py::test_the_command_list_is_large_and_full_of_root_ties",
    # `make sim` in a pseudo-terminal again: --web's line kept in view, a closed terminal
    "tests/test_sim_web.py::test_the_terminal_board_keeps_the_address_and_the_current_code_in_view",
    "tests/test_sim_cli.py::test_temp_flash_is_removed_when_the_terminal_closes",
    # a scripted walk to the menu's Wi-Fi on the real clock (--web), ~7 s
    "tests/test_sim_web.py::test_wifi_from_the_menu_with_web_serves_on_the_web_port_and_loopback_only",
    # the page waits out a silent board (3.5 s) in the browser; the second: twice, and a failed move (4 s)
    "tests/test_web_browser.py::test_a_board_gone_silent_is_said_within_5_s_and_the_page_comes_back_by_itself",
    "tests/test_web_page_use.py::test_the_board_cannot_be_reached_goes_once_it_is_reached_again",
    # the firmware in the browser: a whole game by clicks and a reload (~20 s); a level-8 search (~12 s)
    "tests/test_site.py::test_a_game_against_level_1_played_by_clicking_to_its_end_and_its_statistics_survive_a_reload",
    "tests/test_site.py::test_a_press_during_a_level_8_search_plays_at_once",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "vm: runs the MicroPython VM (node); `make quick` leaves it out")
    config.addinivalue_line("markers", "slow: a long end-to-end run; `make quick` leaves it out")


def needs_vm(item):
    return any(VM_REASON in str(m.kwargs.get("reason", "")) for m in item.iter_markers("skipif"))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if needs_vm(item):
            item.add_marker(pytest.mark.vm)
        if item.nodeid.split("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_unmarked_vm(request, monkeypatch):
    """Under -m "not vm", the VM is out of bounds: a test reaching it unmarked fails."""
    if "not vm" not in (request.config.getoption("-m") or ""):
        return
    from tools import mpvm

    def refuse(*args, **kwargs):
        raise AssertionError("this test runs the MicroPython VM: give it the skipif(not "
                             "mpvm.available(), reason=\"MicroPython VM ...\") that marks it vm "
                             "(tests/conftest.py)")
    monkeypatch.setattr(mpvm, "command", refuse)
    monkeypatch.setattr(mpvm, "run", refuse)


@pytest.fixture(autouse=True)
def _the_server_on_the_real_clock():
    """A fake network's listen() puts connect4.net.server on a test's fake clock
    (tests/portable/fakenet.py; the two-board tests' FakeLink does so for each board). After
    every test it is back on the real one: a later test's server in the same xdist worker ran
    on a fake clock that no longer moved (no live event, no keep-alive, no idle socket closed:
    tests/test_web_server.py failed by the order the worker happened to run them in)."""
    yield
    server = sys.modules.get("connect4.net.server")
    if server is not None:
        import time
        server.ticks_ms = time.ticks_ms
