"""Issue 37: two emulated boards play one game over Wi-Fi, by their buttons only.

Two emulator processes, each with its own network: each board's page at a port
of its own, forwarded from the host's port of the same number (TCP and UDP),
which the other board reaches through its network's gateway 192.168.4.2
(tools/chip/two_boards.py says how; no broadcast crosses). The holder shows its
"play a board" page, the asker finds it there and types its code, both play
their moves on their own buttons (the three-button preset), a press on the
wrong board plays nothing, and the holder is powered off after four moves and
on again: the asker says so within 5 s of its own clock, and the game goes on
at the same moves to its end, recorded on both. Then the asker hands its side
to its AI (it restarts for the AI's table) and the holder plays a few moves of
the next game against it; the asker's side shows and closes during that game; then the
holder hands its side to its AI too (a restart) and the two boards' AIs play on to the
game's end. A phone watches each board's page all along. Item 1's heap figures, on both boards: the GC heap never past
the app's 127,936 bytes, 20 KB of it free at its fullest, the ESP-IDF heap
24 KB free idle and 12 KB at its lowest. CHIP_PROBE_GROW=1: the probes say at which
step of the web server or the app a GC heap grows.
"""
import json
import os
import re

from tools.chip import two_boards, wifi_load
from tools.chip.probe import reports, gc_heap, parse_fields
from tools.common import CHIP_GC_FREE_MIN

from .helpers import retry_stalls
from .test_app_on_chip import APP_GC_TOTAL, IDF_IDLE_MIN, IDF_LOW_MIN

# the holder's settings: Wi-Fi on (saved), red (the holder's side) starts the game of two boards
HOLDER = json.dumps({"version": 1, "settings": {"wifi": True, "first": "red"}}).encode()


MARK = "\n(the test: %s)\n"  # a moment the test marks in a board's text, judged apart
MARKED = re.compile(r"\n\(the test: ([^)\n]*)\)\n")


def starts(text):
    """A board's UART text cut at each start (a reset's `rst:` line), those with Wi-Fi up."""
    parts = text.split("rst:")
    return [p for p in parts if "connect4: web: " in p and len(gc_heap(p)) > 1]


def heap(text):
    """(the GC heap at its fullest: total, used, free; the idle report; the worst report; the
    largest total) of one start's UART text, its reports after its first (the app built, Wi-Fi
    on)."""
    gcs = gc_heap(text)[1:]
    idle = reports(text[text.index("connect4: web: "):])[0][0]  # the first with Wi-Fi up
    low = min((parse_fields(ln) for ln in text.splitlines() if ln.startswith("probe low")),
              key=lambda r: r["idf_free"])
    return max(gcs, key=lambda g: g[1]), idle, low, max(t for t, _, _ in gcs)


@retry_stalls
def test_two_boards_play_a_game_by_their_buttons_and_one_is_powered_off_and_on(chip):
    hp, ap = two_boards.ports()
    grow = bool(os.environ.get("CHIP_PROBE_GROW"))
    holder = chip(extra=[("/wifi.json", wifi_load.OPEN_NETWORK), ("/connect4.json", HOLDER),
                         two_boards.main_py(hp, ap, grow)], port=hp, mac=0x15)
    asker = chip(extra=[("/wifi.json", wifi_load.OPEN_NETWORK), ("/connect4.json", wifi_load.WIFI_ON),
                        two_boards.main_py(ap, hp, grow)], port=ap, mac=0x25)
    got = two_boards.play(holder, asker)
    hs, as_ = got["states"]
    print("boards %s (holder) and %s (asker); the asker said the holder was lost %d ms after its "
          "power cut; the phones heard %s" % (got["names"] + (got["lost_ms"], got["phones"])))
    assert got["names"][0] != got["names"][1]
    assert hs["moves"] == as_["moves"] == two_boards.GAME and hs["result"] == as_["result"] == "red"
    assert got["while_lost"]["boards"]["lost"] and got["while_lost"]["moves"] == two_boards.GAME[:two_boards.CUT_AFTER]
    assert got["lost_ms"] <= two_boards.LOST_MS
    for games in got["games"]:  # recorded on both
        assert games["games"][0]["moves"] == two_boards.GAME and games["games"][0]["mode"] == "two"
    assert all(events and states for events, states in got["phones"])
    h_ai, a_ai = got["ai_game"]  # the asker's side handed to its AI: the next game against it
    assert h_ai["levels"] == a_ai["levels"] == [0, two_boards.AI_LEVEL] and h_ai["moves"] == a_ai["moves"]
    assert h_ai["moves"][::2] == two_boards.AI_GAME[:len(h_ai["moves"][::2])] and len(h_ai["moves"]) >= 2
    h_demo, a_demo = got["demo"]  # then the holder's side too: the two boards' AIs, to the end
    assert h_demo["levels"] == a_demo["levels"] == [two_boards.AI_LEVEL] * 2
    assert h_demo["moves"] == a_demo["moves"] and h_demo["moves"].startswith(h_ai["moves"])
    assert h_demo["result"] == a_demo["result"] is not None
    # each start judged alone: the first of each board opens its menu (a person at the board,
    # Wi-Fi on, a phone watching), then shows its "play a board" page (and the ask); those after
    # the restart into the game (the holder's power cut, a side handed to its AI) play it, and
    # each moment the test marked in one (its side shown during the game) is judged apart
    short = []
    texts = {"holder": got["texts"][0], "asker": got["texts"][1]}
    for who, marks in got["marks"].items():
        for at, name in sorted(marks, reverse=True):
            texts[who] = texts[who][:at] + MARK % name + texts[who][at:]
    ai_from = {"holder": 3, "asker": 2}  # the first start with the board's side played by its AI
    for who, text in (("holder", got["holder_before"] + "rst:" + texts["holder"]), ("asker", texts["asker"])):
        assert "Traceback" not in text and "crashed" not in text, text[-2000:]
        for i, part in enumerate(starts(text)):
            fullest, idle, low, total = heap(part)
            assert total <= APP_GC_TOTAL, "the GC heap grew into the network's memory: %s, start %d" % (who, i)
            assert idle["idf_free"] >= IDF_IDLE_MIN and low["idf_free"] >= IDF_LOW_MIN, (who, i)
            pieces = MARKED.split(part)  # the start's text, then (name, text) by mark
            if i == 0:  # the menu, then the page: each its own fullest moment
                menu, _, page = pieces[0].partition(two_boards.PAGE_LINE)
                moments = [("its menu", gc_heap(menu)[1:]), ("its page", gc_heap(page))]
            else:
                moments = [("the game (start %d%s)" % (i, ", its side played by its AI" if i >= ai_from[who] else ""),
                            gc_heap(pieces[0])[1:])]
            moments += [(pieces[k], gc_heap(pieces[k + 1])) for k in range(1, len(pieces), 2)]
            for name, gcs in moments:
                if not gcs:  # (no report within it: none to judge)
                    continue
                most = max(gcs, key=lambda g: g[1])
                what = "%s, %s" % (who, name)
                print("%s: GC heap at its fullest %s (total, used, free), idle report %s, worst %s"
                      % (what, most, idle, low))
                if most[2] < CHIP_GC_FREE_MIN:
                    short.append("%s: %d B free at the fullest" % (what, most[2]))
    assert not short, "under 20 KB of the GC heap free: " + "; ".join(short)  # item 1's room
