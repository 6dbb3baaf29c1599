"""The board page's words (tools/site/words.py, run by the page's MicroPython): on CPython, on the
real App (tests/portable/fakes.Rig) and its connect4.app.face snapshot, so every sentence is
checked against what the firmware does. tests/test_site.py sees the same words in Chromium.
"""
import re

from connect4.app.face import Face
from connect4.app.game import PLAY
from connect4.app.menu import ITEMS, Menu
from connect4.app import store
from connect4.engine.board import Board
from connect4.engine.player import AIPlayer
from connect4.engine.search import SearchResult
from fakes import Rig
from tools.common import chip_nodes_per_second
from tools.site import words

RATE = chip_nodes_per_second()


def snap(**kw):
    base = {"mode": "ai", "levels": [0, 3], "turn": "red", "first": "red", "thinking": False,
            "result": None, "state": "play", "moves": ""}
    base.update(kw)
    return base


def test_the_status_says_who_you_are_whose_turn_the_mode_and_level():
    s = words.status(snap())
    assert "You are red" in s and "the AI is yellow, level 3" in s and "Your turn." in s
    assert "The AI is thinking." in words.status(snap(turn="yellow", thinking=True, state="thinking"))
    assert words.status(snap(mode="two", levels=[0, 0], turn="yellow")) == \
        "Two players: red and yellow take turns. Yellow to move."
    demo = words.status(snap(mode="demo", levels=[2, 7], turn="yellow"))
    assert "red at level 2, yellow at level 7" in demo and "Yellow (level 7) to move." in demo
    assert "Press to start" in words.status(snap(state="intro"))
    assert words.status(snap(state="menu")).startswith("The menu is open")


def test_the_intro_says_the_game_it_starts_at_the_saved_level_on_the_real_app():
    """Was: "You are red; the AI is yellow, level 0. Press to start." at level 4: the
    snapshot gave the app's first values, before any game (connect4.app.face.game)."""
    said = {}
    for mode in ("ai", "two", "demo"):
        rig = Rig("words_intro_" + mode)
        rig.store.settings.update({"mode": mode, "level": 4})
        said[mode] = words.status(Face(rig.app).snapshot())
    assert said == {"ai": "You are red; the AI is yellow, level 4. Press to start.",
                    "two": "Two players: red and yellow take turns. Press to start.",
                    "demo": "Demo: the AI plays itself, at levels drawn for each game. Press to start."}


def test_the_result_is_said_from_your_side():
    assert words.result(snap(result="red")) == "You won."
    assert words.result(snap(result="yellow")) == "You lost."
    assert words.result(snap(result="draw")) == "A draw."
    assert words.result(snap(mode="two", result="yellow")) == "Yellow won."
    assert words.result(snap(mode="demo", levels=[2, 7], result="red")) == "Red (level 2) won."
    assert words.status(snap(state="over", result="yellow")).endswith("You lost. Press for a new game.")


def test_each_move_is_said_with_who_played_it_and_what_comes_next():
    assert words.moved("", snap(moves="4", turn="yellow", first="red")) == "You: column 4. The AI's turn."
    assert words.moved("4", snap(moves="43", turn="red", first="red")) == "The AI: column 3. Your turn."
    assert words.moved("", snap(moves="5", turn="red", first="yellow")) == "The AI: column 5. Your turn."
    assert words.moved("444", snap(moves="4445", turn="red", first="red", result="yellow")) == \
        "The AI: column 5. You lost. Press for a new game."
    assert words.moved("4", snap(moves="4")) == ""
    assert words.moved("4345", snap(moves="")).startswith("A new game. You are red")


def test_a_real_game_on_the_app_is_said_move_by_move_to_its_result():
    rig = Rig("words_game", cfg={"ai_min_think_ms": 0}, seed=3)
    app = rig.app
    app.settings.update({"level": 1, "first": "red"})
    rig.press()  # the intro ends
    face = Face(app)
    said = []
    moves = face.snapshot()["moves"]
    for _ in range(400):
        if app.board.is_over() and app.state == 4:
            break
        if face.snapshot()["human"]:
            rig.press()
        else:
            rig.run_for(20)
        s = face.snapshot()
        line = words.moved(moves, s)
        if line:
            said.append(line)
        moves = s["moves"]
    s = face.snapshot()
    assert s["result"], "the game did not end"
    assert len(said) == len(s["moves"])
    first = s["first"]
    for i, line in enumerate(said):
        who = "You" if (i % 2 == 0) == (first == "red") else "The AI"
        assert line.startswith("%s: column %s." % (who, s["moves"][i])), (i, line)
    want = {"red": "You won.", "yellow": "You lost.", "draw": "A draw."}[s["result"]]
    assert said[-1].endswith(want + " Press for a new game.")
    assert want in words.status(s)
    # and the menu's games list names it
    rig.long_press()
    rig.turn(ITEMS.index("games"))
    rig.press()
    result = {"red": "red won", "yellow": "yellow won", "draw": "a draw"}[s["result"]]
    assert words.menu(app.menu) == (
        "Recorded game 1 (1 of 1, newest first): against the AI at level 1, 7x6, %s, %d moves. "
        "Press to replay it, turn for the others." % (result, len(s["moves"])))


def test_the_menu_says_its_item_and_value():
    rig = Rig("words_items")
    rig.app.open_menu(rig.clock.ticks_ms(), PLAY)
    m = rig.app.menu
    settings = rig.app.settings
    assert words.menu(m) == "Menu, 1 of %d: Mode: against the AI. Press to change it." % len(ITEMS)
    m.item = ITEMS.index("level")
    assert "Level: %d of 8" % settings["level"] in words.menu(m)
    m.editing = True
    assert words.menu(m).endswith("Turn to change it, press to keep it.")
    m.editing = False
    for item in ITEMS:  # every item has its words
        m.item = ITEMS.index(item)
        text = words.menu(m)
        assert text.startswith("Menu, %d of %d: %s" % (m.item + 1, len(ITEMS), words.ITEM_NAMES[item])), text
    m.item = ITEMS.index("stats")
    assert "at level %d, 0 wins, 0 losses, 0 draws" % settings["level"] in words.menu(m)


def test_the_menu_words_follow_the_real_menu_as_it_is_turned():
    rig = Rig("words_menu")
    app = rig.app
    rig.press()
    rig.long_press()
    assert app.state == 5
    assert "Mode: against the AI" in words.menu(app.menu)
    rig.turn(1)
    level = app.settings["level"]
    assert "Level: %d of 8" % level in words.menu(app.menu)
    rig.press()
    rig.turn(1)
    assert "Level: %d of 8. Turn to change it, press to keep it." % min(8, level + 1) in words.menu(app.menu)
    rig.press()  # kept
    rig.turn(ITEMS.index("stats") - ITEMS.index("level"))
    assert words.menu(app.menu).endswith("Statistics: at level %d, 0 wins, 0 losses, 0 draws. Press for the numbers."
                                         % min(8, level + 1))
    rig.press()  # the statistics pages
    assert words.menu(app.menu).startswith("Statistics (7x6 board), against level %d: 0 wins" % min(8, level + 1))
    rig.turn(1)
    assert "against level" in words.menu(app.menu) or "two players" in words.menu(app.menu)


def menu_at(item, label):
    """A board (its Rig, its app) with the menu open at `item`, and the words' start there."""
    rig = Rig("words_" + item)
    rig.press()
    rig.long_press()
    rig.turn(ITEMS.index(item))
    return rig, rig.app, "Menu, %d of %d: %s: " % (ITEMS.index(item) + 1, len(ITEMS), label)


def test_the_phones_item_says_keep_or_forget_as_it_is_turned():
    """The menu's phones item (issue 32): its words follow the LEDs' phone, crossed out when
    turned to "forget"; a page in a browser has no Wi-Fi, so none are paired there."""
    rig, app, n = menu_at("phones", "Paired phones")
    assert words.menu(app.menu) == n + "none (a page in a browser has no Wi-Fi). Press to change it."
    rig.press()
    assert words.menu(app.menu) == n + "keep them. Turn to change it, press to keep it."
    rig.turn(1)
    assert app.menu.forget
    assert words.menu(app.menu) == n + "forget them all. Turn to change it, press to keep it."
    rig.press()  # confirmed: no link in a browser, nothing to forget
    assert not app.menu.editing and words.menu(app.menu).startswith(n + "none")


def test_the_wifi_item_says_on_off_and_set_up_from_a_computer_as_it_is_turned():
    """Issue 39: the Wi-Fi item's third value, the LEDs' computer, in words."""
    rig, app, n = menu_at("wifi", "Wi-Fi")
    assert words.menu(app.menu).startswith(n + "off")
    rig.press()
    rig.turn(1)
    assert words.menu(app.menu) == n + "on. Turn to change it, press to keep it."
    rig.turn(1)
    assert words.menu(app.menu) == n + ("set up from a computer (a page in a browser has no USB serial "
                                        "port: it says so). Turn to change it, press to keep it.")
    rig.turn(1)
    assert words.menu(app.menu).startswith(n + "off")  # round to where it was
    rig.turn(-1)
    assert app.menu.wifi_pick == 2


def test_blunders_book_and_forced_moves_are_named_as_such():
    def kind(moves, ai=None):
        board = Board(moves)
        found = (ai or AIPlayer(level=8, blunder=0)).choose(board)
        return words.search_kind(board, found), found
    k, found = kind("414243")  # red to move: three in column 4, the fourth wins
    assert k == "win" and (found.nodes, found.depth, found.move) == (0, 1, 3)
    k, found = kind("33445")  # yellow to move: red's 3, 4, 5 on the bottom row, open at 2 and 6
    assert k == "lost" and (found.nodes, found.depth) == (0, 1)
    k, found = kind("41424")  # yellow to move: red's three in column 4 must be blocked
    assert k == "forced" and found.move == 3
    k, found = kind("4")
    assert k == "search" and found.nodes > 100
    board = Board("4")
    assert words.search_kind(board, SearchResult(3, 0, 0, 0, "blunder")) == "blunder"
    assert words.search_kind(board, SearchResult(3, 0, 0, 0, "book")) == "book"
    # a blunder is never drawn when a move is forced: level 1 still blocks
    assert kind("41424", AIPlayer(level=1, seed=5))[0] == "forced"


def test_the_speed_line_names_the_move_and_gets_the_plurals_right():
    r = {"level": 1, "kind": "blunder", "blunder": 90, "nodes": 0, "depth": 0, "ms": 1, "stopped": "blunder"}
    line = words.speed(r, RATE)
    assert line == "The AI (level 1) played a random move (its blunder chance, 90%): no search."
    assert words.speed(dict(r, level=8, kind="book", stopped="book"), RATE) == \
        "The AI (level 8) played its opening book's move: no search."
    assert "made four" in words.speed(dict(r, kind="win", depth=1, stopped=""), RATE)
    assert "cannot stop a four" in words.speed(dict(r, kind="lost", depth=1, stopped=""), RATE)
    forced = words.speed(dict(r, kind="forced", nodes=1, depth=1, stopped=""), RATE)
    assert "forced" in forced and "1 node," in forced and "the chip: under 1 ms" in forced
    line = words.speed(dict(r, level=8, kind="search", nodes=31206, depth=14, ms=2644, stopped="poll"), RATE)
    assert line.startswith("The AI (level 8) searched 31,206 nodes, depth 14, 2644 ms here (stopped by your press);")
    assert "the chip: about %d.%d s (%s nodes/s)" % (
        31206 * 1000 // RATE // 1000, 31206 * 1000 // RATE % 1000 // 100, format(RATE, ",")) in line
    assert "about 59 ms" in words.speed(dict(r, kind="search", nodes=RATE * 59 // 1000 + 1), RATE)
    for n in (0, 2, 1000):
        assert "%s nodes" % format(n, ",") in words.speed(dict(r, kind="search", nodes=n), RATE)
    assert not re.search(r"\b1 nodes\b|0\.00 s", line + forced)


def test_a_hints_speed_line_names_its_column_and_what_it_cost():
    """The hint is the top level's search for the person to move (connect4.app.turn.hint)."""
    r = {"hint": True, "level": 8, "move": 3, "kind": "search", "nodes": 60001, "depth": 12, "ms": 5100,
         "stopped": "nodes"}
    line = words.speed(r, RATE)
    assert line.startswith("The hint (level 8's search): column 4, 60,001 nodes, depth 12, 5100 ms here "
                           "(its node budget used up); the chip: about ")
    assert words.speed(dict(r, kind="win", nodes=0, depth=1, stopped=""), RATE) == \
        "The hint: column 4 makes four; a winning move needs no search."
    assert "no move stops a four" in words.speed(dict(r, kind="lost", nodes=0, stopped=""), RATE)
    forced = words.speed(dict(r, kind="forced", nodes=1000, stopped="nodes"), RATE)
    assert forced.startswith("The hint (level 8's search): column 4, the one move that does not lose") \
        and "1,000 nodes" in forced
    assert "(stopped by its time cap)" in words.speed(dict(r, stopped="time"), RATE)
    assert "The AI" not in line + forced


def test_thousands():
    assert [words.thousands(n) for n in (0, 7, 999, 1000, 16694, 1234567, -4500)] == \
        ["0", "7", "999", "1,000", "16,694", "1,234,567", "-4,500"]
