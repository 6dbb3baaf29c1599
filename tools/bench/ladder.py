"""The rating ladder: every level and four fixed references in a round robin,
rated by a maximum-likelihood Elo fit.

Players: the AI's levels 1..8 (connect4.engine.player.AIPlayer, each with its
own blunder rate; the top level with the opening book firmware/book.bin, as
on the board), a random mover, the classic tutorial depth-5 AI
(tools/bench/tutorial_ai.py), the threat-aware depth-6 AI of the ESP32 notes
(tools/bench/threat_ai.py) and the perfect player (tools/bench/perfect.py,
bitbully; random among its best moves). Every pair plays `games` games: from
the empty board and the two-move openings of tools/common.OPENINGS in turn,
each player first in every other game, every game seeded. The same command
gives the same games and the same table. `--adjacent` plays instead each
level against the one below it only, as many games a pair (`adjacent`).

The fit (`fit_elo`): the Bradley-Terry model, in which player i scores
against j with probability 1 / (1 + 10^((R_j - R_i) / 400)); a draw counts
half a win for each side. The ratings are the maximum-likelihood ones, found
by Hunter's MM iteration (2004). A perfect player never loses, which would
put its maximum-likelihood rating at infinity, so every pair that played
also gets one virtual draw (a prior that pulls the ratings of a pair
slightly together; documented beside the table). The random mover is
anchored at 0.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine import levels  # noqa: E402
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from tools.common import OPENINGS  # noqa: E402

REFERENCES = ("random", "tutorial", "threat", "perfect")
PLAYERS = tuple("L%d" % level for level in range(1, levels.MAX_LEVEL + 1)) + REFERENCES
NAMES = {"random": "random mover", "tutorial": "tutorial AI (depth 5)",
         "threat": "threat-aware AI (depth 6)", "perfect": "perfect player (bitbully)"}
ANCHOR = "random"
PRIOR_DRAWS = 1  # virtual draws added to every pair that played


def label(name):
    return "level %s" % name[1:] if name.startswith("L") else NAMES[name]


def make_player(name, seed):
    """choose(board) -> 0-based column, for player `name`, seeded."""
    if name.startswith("L"):
        from tools.bench.opening_book import the_book  # the top level plays its book, as on the board
        ai = AIPlayer(level=int(name[1:]), seed=seed, book=the_book())
        return lambda board: ai.choose(board).move
    if name == "random":
        rng = Rng(seed)
        return lambda board: rng.choice(board.legal_moves())
    if name == "tutorial":
        from tools.bench.tutorial_ai import TutorialAI
        return TutorialAI(seed=seed).choose
    if name == "threat":
        from tools.bench.threat_ai import ThreatAI
        return ThreatAI().choose
    if name == "perfect":
        from tools.bench.perfect import PerfectPlayer
        player = PerfectPlayer(seed)
        return lambda board: player.choose(board.moves_string())
    raise ValueError("unknown player %r" % name)


def schedule(players, games):
    """Every game of the round robin: (first, second, opening, seed)."""
    jobs = []
    for i, a in enumerate(players):
        for j in range(i + 1, len(players)):
            b = players[j]
            for g in range(games):
                first, second = (a, b) if g % 2 == 0 else (b, a)
                seed = 1 + 100000 * i + 1000 * j + g
                jobs.append((first, second, OPENINGS[(g // 2) % len(OPENINGS)], seed))
    return jobs


def play(job):
    """One game: (first, second, points of the first player: 1, 0.5 or 0)."""
    first, second, opening, seed = job
    movers = {1: make_player(first, seed), 2: make_player(second, seed + 1)}
    board = Board(opening)
    while not board.is_over():
        board.play(movers[board.turn](board))
    points = 0.5 if not board.winner else (1.0 if board.winner == 1 else 0.0)
    return first, second, points


def tally(players, rows):
    """(points[i][j], games[i][j]) from play() rows."""
    index = {name: k for k, name in enumerate(players)}
    n = len(players)
    points = [[0.0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    for first, second, p in rows:
        i, j = index[first], index[second]
        points[i][j] += p
        points[j][i] += 1 - p
        games[i][j] += 1
        games[j][i] += 1
    return points, games


def fit_elo(points, games, anchor=0, prior_draws=PRIOR_DRAWS, iterations=10000):
    """Maximum-likelihood Elo ratings of a results matrix (see the module
    docstring), the player `anchor` at 0. points[i][j]: what i scored
    against j; games[i][j]: games between them."""
    n = len(points)
    w = [[points[i][j] + (0.5 * prior_draws if games[i][j] else 0) for j in range(n)]
         for i in range(n)]
    g = [[games[i][j] + (prior_draws if games[i][j] else 0) for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(iterations):
        biggest = 0.0
        for i in range(n):
            won = sum(w[i])
            denominator = sum(g[i][j] / (strength[i] + strength[j]) for j in range(n) if g[i][j])
            new = won / denominator if denominator else strength[i]
            biggest = max(biggest, abs(math.log(new / strength[i])))
            strength[i] = new
        if biggest < 1e-10:
            break
    base = strength[anchor]
    return [400 * math.log10(s / base) for s in strength]


def expected(r_i, r_j):
    return 1 / (1 + 10 ** ((r_j - r_i) / 400))


def ladder(pool, games, players=PLAYERS):
    """Play the round robin on `pool`; returns (players, ratings, points, games)."""
    rows = pool.map(play, schedule(players, games), chunksize=1)
    points, played = tally(players, rows)
    ratings = fit_elo(points, played, anchor=players.index(ANCHOR) if ANCHOR in players else 0)
    return players, ratings, points, played


def adjacent(pool, games, top=levels.MAX_LEVEL):
    """Each level from 2 to `top` against the level below it, `games` games a
    pair, scheduled as in the round robin; returns [(level, its points)].
    A direct check of the ladder's order: a round robin of a few games a pair
    rates neighbours close in strength less surely than their own match does."""
    jobs = []
    for level in range(2, top + 1):
        jobs += schedule(("L%d" % (level - 1), "L%d" % level), games)
    rows = pool.map(play, jobs, chunksize=1)
    points = {}
    for first, second, p in rows:
        upper = max(first, second)  # "L<n>": the higher level
        points[upper] = points.get(upper, 0.0) + (p if first == upper else 1 - p)
    return [(level, points["L%d" % level]) for level in range(2, top + 1)]


def report_adjacent(say, rows, games):
    say("| level | against the level below | score | Elo difference |")
    say("|---:|---:|---:|---:|")
    for level, p in rows:
        share = p / games
        gap = 400 * math.log10(share / (1 - share)) if 0 < share < 1 else float("inf") * (share - 0.5)
        say("| %d | %s-%s | %.1f%% | %+.0f |" % (level, _points(p), _points(games - p), 100 * share, gap))
    say()
    say("Every pair played %d games (the empty board and the two-move openings, each first "
        "in turn, seeded; a draw half a point); the Elo difference is the one that score "
        "implies (tools/bench/ladder.py --adjacent)." % games)
    say()


def _points(p):
    return ("%d" % p) if p == int(p) else ("%.1f" % p)


def report(say, players, ratings, points, played, games):
    say("### The ladder: Elo from a round robin")
    say()
    say("| player | Elo | score | games |")
    say("|---|---:|---:|---:|")
    order = sorted(range(len(players)), key=lambda k: (-ratings[k], players[k]))
    for k in order:
        total = sum(played[k])
        say("| %s | %d | %.1f%% | %d |" % (label(players[k]), round(ratings[k]),
                                            100.0 * sum(points[k]) / total, total))
    say()
    say("Every pair played %d games (the empty board and the two-move openings, each "
        "first in turn, seeded); Elo by maximum likelihood (Bradley-Terry, a draw half a "
        "win, one virtual draw per pair so that the unbeaten perfect player's rating is "
        "finite), the random mover at 0 (tools/bench/ladder.py)." % games)
    say()


def main(argv=None):
    import argparse
    import multiprocessing
    from tools import common
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per pair (default 10)")
    parser.add_argument("--adjacent", action="store_true",
                        help="instead: each level against the one below (--top for the highest)")
    parser.add_argument("--top", type=int, default=levels.MAX_LEVEL,
                        help="with --adjacent: the highest level (default %d)" % levels.MAX_LEVEL)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.top <= levels.MAX_LEVEL:
        parser.error("--top must be from 2 to %d" % levels.MAX_LEVEL)
    with multiprocessing.Pool(2) as pool:
        if args.adjacent:
            report_adjacent(common.Say(), adjacent(pool, args.games, args.top), args.games)
            return 0
        result = ladder(pool, args.games)
    report(common.Say(), *result, games=args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
