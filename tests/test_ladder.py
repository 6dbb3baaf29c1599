"""The rating ladder (tools/bench/ladder.py) and its threat-aware reference AI
(tools/bench/threat_ai.py): the fit recovers known ratings, the references
play what their descriptions say, and a small round robin is reproducible."""
import random

import pytest
from hypothesis import given, settings, strategies as st

import host_sim  # noqa: F401
from connect4.engine.board import Board
from tools.bench import ladder, threat_ai


class SerialPool:
    def map(self, fn, jobs, chunksize=1):
        return [fn(job) for job in jobs]


@given(st.lists(st.integers(-600, 600), min_size=3, max_size=6))
@settings(max_examples=25, deadline=None)
def test_fit_recovers_ratings_from_their_expected_scores(true):
    n, games = len(true), 1000
    points = [[0.0] * n for _ in range(n)]
    played = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                played[i][j] = games
                points[i][j] = games * ladder.expected(true[i], true[j])
    fitted = ladder.fit_elo(points, played, anchor=0, prior_draws=0)
    for k in range(n):
        assert fitted[k] == pytest.approx(true[k] - true[0], abs=0.5)


def test_an_unbeaten_player_gets_a_finite_rating_above_the_rest():
    # player 2 beat everyone, player 1 beat player 0 two games in three
    points = [[0, 1, 0], [2, 0, 0], [3, 3, 0]]
    played = [[0, 3, 3], [3, 0, 3], [3, 3, 0]]
    r = ladder.fit_elo(points, played, anchor=0)
    assert r[0] == 0
    assert 0 < r[1] < r[2] < 2000


def test_the_prior_only_shrinks_gaps():
    points = [[0, 1], [3, 0]]
    played = [[0, 4], [4, 0]]
    plain = ladder.fit_elo(points, played, prior_draws=0)[1]
    shrunk = ladder.fit_elo(points, played, prior_draws=1)[1]
    assert plain == pytest.approx(400 * __import__("math").log10(3), abs=0.01)
    assert 0 < shrunk < plain


def test_threat_ai_takes_a_win_and_blocks_one():
    ai = threat_ai.ThreatAI()
    assert ai.choose(Board("445566")) in (2, 6)  # red: three in a row, both ends open
    assert ai.choose(Board("12121")) == 0  # yellow blocks red's column of three
    assert ai.choose(Board("")) == 3  # the centre first


def _bottom_row(cols):
    grid, heights = [0] * 42, [0] * 7
    for col in cols:
        grid[col] = 1
        heights[col] = 1
    return grid, heights


def test_threat_ai_evaluation_counts_the_notes_terms():
    # red on columns 1-3 of the bottom row: a playable threat at column 4
    # (window 1-4) and two-with-two-empty in window 2-5; nothing else scores
    assert threat_ai.side_value(*_bottom_row((0, 1, 2)), 1) == threat_ai.PLAYABLE + threat_ai.TWO
    # columns 1, 2, 3 and 5: both windows 1-4 and 2-5 need column 4: one threat cell, no fork
    assert threat_ai.side_value(*_bottom_row((0, 1, 2, 4)), 1) == threat_ai.PLAYABLE + threat_ai.TWO
    # a threat whose cell is not playable yet is floating
    # (only the terms matter here, not whether the discs could stand so):
    # the diagonal from column 1 to column 4 without its top, and the
    # two-with-two-empty window of the diagonal one step up
    grid, heights = _bottom_row((0,))
    for row in (1, 2):
        grid[row * 7 + row] = 1
    assert threat_ai.side_value(grid, heights, 1) == threat_ai.FLOATING + threat_ai.TWO


def test_threat_ai_fork_bonus():
    # red on columns 2-4 of the bottom row: playable threats at columns 1 and 5
    # (a fork), two-with-two-empty in window 3-6, a centre disc
    value = threat_ai.side_value(*_bottom_row((1, 2, 3)), 1)
    assert value == 2 * threat_ai.PLAYABLE + threat_ai.FORK + threat_ai.TWO + threat_ai.CENTRE


def test_a_small_round_robin_is_reproducible():
    players = ("L1", "L3", "random")
    first = ladder.ladder(SerialPool(), 4, players)
    again = ladder.ladder(SerialPool(), 4, players)
    assert first == again
    names, ratings, points, played = first
    assert all(played[i][j] == 4 for i in range(3) for j in range(3) if i != j)
    assert ratings[names.index("random")] == 0
    assert ratings[names.index("L3")] > 0  # level 3 (20% blunders, depth 3) beats a random mover


def test_every_player_of_the_ladder_plays_legal_moves():
    rng = random.Random(5)
    board = Board("4453")
    for name in ladder.PLAYERS:
        if name == "perfect":
            pytest.importorskip("bitbully")
        if name in ("L7", "L8"):
            continue  # the search is tested elsewhere; keep this test quick
        col = ladder.make_player(name, rng.randrange(1000))(board)
        assert board.can_play(col), name


def test_adjacent_credits_each_pair_to_the_higher_level(monkeypatch):
    def higher_wins(job):  # the higher level wins every game, first or second
        first, second, opening, seed = job
        return first, second, 1.0 if first > second else 0.0

    def first_wins(job):
        first, second, opening, seed = job
        return first, second, 1.0

    monkeypatch.setattr(ladder, "play", higher_wins)
    assert ladder.adjacent(SerialPool(), 4, top=4) == [(2, 4.0), (3, 4.0), (4, 4.0)]
    monkeypatch.setattr(ladder, "play", first_wins)  # each side first in half the games
    assert ladder.adjacent(SerialPool(), 4, top=3) == [(2, 2.0), (3, 2.0)]


def test_adjacent_games_are_real_and_reproducible():
    rows = ladder.adjacent(SerialPool(), 2, top=3)
    assert [level for level, _ in rows] == [2, 3]
    assert all(0 <= p <= 2 for _, p in rows)
    assert rows == ladder.adjacent(SerialPool(), 2, top=3)
