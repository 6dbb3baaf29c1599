"""Property: random input over thousands of steps (mashing, holding, encoder bounce)
never crashes the firmware, never plays an illegal move, and never leaves the
matrix showing something other than the game."""
import tempfile

from hypothesis import given, settings, strategies as st, HealthCheck

from connect4.engine.board import Board
from connect4.app import menu as menu_mod
from connect4.app.game import PLAY, THINK, CHOSEN, HELD, OVER, MENU
from host_sim.world import Sim, now_ms
from fakes import hue, assert_board_shown
from checks import ai_plays_every_size

AI_SIZES = ai_plays_every_size()  # until the engine plays every size, the runs keep to 7x6

KINDS = ["left", "right", "bounce-left", "bounce-right", "left", "right",
         "press", "bounce-press", "press", "press",
         "long", "hold",  # holding across the long-press time
         "hint",  # SELECT held while turning
         "mash",  # presses 30 ms apart
         "spin"]  # encoder steps 2 ms apart (faster than it is sampled)


def _with_arg(kind):
    if kind == "hold":
        return st.tuples(st.just(kind), st.integers(100, 2500))
    if kind in ("mash", "spin"):
        return st.tuples(st.just(kind), st.integers(2, 12))
    return st.tuples(st.just(kind), st.just(0))


ACTION = st.sampled_from(KINDS).flatmap(_with_arg)
STEP = st.tuples(ACTION, st.sampled_from([0, 5, 40, 150, 600, 2500]))


def check(s):
    app = s.app
    board = app.board
    # the game is a legal game: replaying its moves gives the same position
    replay = Board(board.moves_string(), board.cols, board.rows)
    assert bytes(replay.cells) == bytes(board.cells)
    assert board.winner == replay.winner
    if app.banner is not None:  # Wi-Fi's address scrolls over every state until done or input
        return  # (what it shows is tested in tests/portable/test_app_scroll.py)
    if app.state == MENU:
        assert any(hue(s.panel.rgb(x, 0)) != "off" for x in range(7))
    if app.state not in (PLAY, THINK, CHOSEN, HELD, OVER):
        return
    assert_board_shown(app, s.panel.rgb)
    if app.state == PLAY and not app.ai_to_move():
        assert board.can_play(app.cursor)
        side = "red" if app.side_to_move() == 0 else "yellow"
        if app.cursor == app.hint_col:  # a hint blinks on and off (off: dark, or the hover row's glow)
            assert hue(s.panel.rgb(app.cursor, app.layout.hover_y)) not in ({"red", "yellow"} - {side})
        else:
            assert hue(s.panel.rgb(app.cursor, app.layout.hover_y)) == side


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(STEP, min_size=150, max_size=300), st.sampled_from(["encoder", "buttons"]),
       st.sampled_from(["ai", "two"]))
def test_random_input_keeps_the_board_sane(steps, preset, mode):
    sizes = menu_mod.sizes
    if not AI_SIZES:  # (the hint and the demo search too)
        menu_mod.sizes = lambda width, height: ["7x6"]
    with tempfile.TemporaryDirectory() as flash:
        s = Sim(flash, preset=preset, seed=len(steps),
                overrides={"idle_dim_ms": 20000, "demo_idle_ms": 30000})
        try:
            s.store.settings.update({"mode": mode, "level": 1 + len(steps) % 3})
            s.run_for(1500)
            for (action, arg), gap in steps:
                if action == "mash":
                    end = now_ms()
                    for k in range(arg):
                        end = s.act("press", 20, delay=30 * k)
                elif action == "spin":
                    end = now_ms()
                    for k in range(arg):
                        end = s.act("right" if k % 3 else "left", delay=2 * k)
                else:
                    end = s.act(action, arg)
                s.run_for(max(0, end - now_ms()) + gap + 4)
                check(s)
            # every finished game was reported once, and counted once in the statistics
            assert s.app.games == len(s.games)
            stats = s.store.stats
            tables = [stats] + list(stats["sizes"].values())  # 7x6 and each other size played
            recorded = sum(sum(sum(t) for t in k["ai"]) + sum(k["two"]) for k in tables)
            assert recorded == len([g for g in s.games if g["mode"] != "demo"]), (stats, s.games)
        finally:
            s.close()
            menu_mod.sizes = sizes
