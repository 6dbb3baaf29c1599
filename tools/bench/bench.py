"""`make bench`: the engine's speed and strength, as Markdown tables for docs/benchmarks.md.

Every figure is measured in this run:
  0. the chip's speed (`--only chip`): instructions per search node counted on the
     emulated ESP32-C3 (tools/chip/speed.py; needs the emulator and FIRMWARE=, else
     skipped, saying why), recorded in tools/data/chip.txt, which every chip time
     below uses (tools.common.chip_nodes_per_second, at tools.common.CHIP_IPS), and
     with --micropython callgrind's count beside it (tools/bench/instr_per_node.py);
     the phone page on the emulated chip (`--only chip-wifi`, and only then: about an
     hour of the emulator; tools/bench/chip_wifi.py): the heaps at each moment and the
     requests answered under the page's load (tools/chip/wifi_load.py) and under a
     hostile network's (tools/chip/mixed_load.py);
  1. nodes per second on CPython and in the MicroPython VM (tools/bench/chipbench.py),
     the chip's from tools/data/chip.txt (with --micropython, callgrind's count on
     that unix-port binary beside it: tools/bench/instr_per_node.py, a cross-check),
     the deepest stack of a search on the chip (tools/bench/stack.py's model),
     and the firmware's heap figures in the MicroPython VM (tools/mpvm/memory.py);
  2. accuracy on Pascal Pons' benchmark sets at the top level, judged by the
     perfect solver (tools/bench/perfect.py; the full sets from the folder
     --sets names, else the 40-position samples in tests/data);
  3. the top level against the classic tutorial AI over varied openings;
  4. per level: nodes per move and the estimated time per move on the chip
     (nodes x instructions per node / tools.common.CHIP_IPS), and the
     level's results against a careless adult and against the tutorial AI;
  5. against a perfect player (tools/bench/perfect.py, bitbully): the top
     level, with the opening book firmware/book.bin (`make book`), as first
     player against the perfect player; as second player
     against a perfect player erring 20% of the time (did the board keep a
     draw or a win once given one?); value kept and best move on the position
     sets of tools/data/positions_*.txt (tools/bench/make_sets.py); `--only sets`
     runs the sets alone (a quarter of an hour), without the games;
     the opening book (`--only book`): its size, positions and depth from the file, its
     lookup's cost from tools/data/book.txt (tools/book/lookup_cost.py's record);
  6. the ladder: Elo of every level and four references from a round robin
     (tools/bench/ladder.py);
  7. board sizes (tools/bench/sizes.py): on every size from 4x4 to 8x7, the
     top level's chip time per move and results against the tutorial AI
     adapted to the size; on the sizes it solves, every move checked by a
     brute-force solver;
  8. the web server (`--only web`): what one request costs in the MicroPython VM
     (tools/web/request_cost.py, and its chip estimate), and, on the simulator,
     the requests answered a second and the slowest answer while a peer holds
     ten idle sockets and four clients poll (tools/web/load.py);
  9. against people (tools/bench/people.py): the top level with its book as
     first and second player against the perfect player erring at 2-50%,
     levels 1-8, the tutorial and threat-aware AIs and the random mover, every
     move judged by bitbully (W-D-L, games that kept a win or a given draw,
     the ply of every drop); cached in build/bench/people/, so it resumes.

With --out docs/benchmarks.md the page gets the sections of this run, each between
its markers with the date and the command, and keeps the others (tools/bench/page.py).

Usage: python tools/bench/bench.py [--quick] [--only SECTION] [--games N]
                                   [--ladder-games N] [--people-games N] [--jobs N]
                                   [--micropython PATH] [--firmware FILE] [--out FILE]
--micropython also runs the people section's engines in that unix port (the same
moves, about a hundred times faster). The chip section takes the image from
FIRMWARE (make bench FIRMWARE=...) or --firmware, the emulator from QEMU or
build/emulator/.
"""
import argparse
import multiprocessing
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import host_sim  # noqa: E402,F401
from connect4.engine import levels  # noqa: E402
from connect4.engine.board import Board  # noqa: E402
from connect4.engine.player import AIPlayer  # noqa: E402
from connect4.engine.rng import Rng  # noqa: E402
from tools import common, mpvm  # noqa: E402
from tools.bench import chipbench, ladder, opening_book, page, people, perfect, sizes, stack  # noqa: E402
from tools.bench.chip_wifi import chip_wifi  # noqa: E402
from tools.book import lookup_cost  # noqa: E402
from tools.bench.make_sets import SETS, set_path  # noqa: E402
from tools.bench.opening_book import BOOK, the_book  # noqa: E402
from tools.bench.solver import read_benchmark  # noqa: E402
from tools.bench.tutorial_ai import TutorialAI  # noqa: E402
from tools.common import CHIP_IPS, CHIP_STACK_LIMIT, CHIP_STACK_MARGIN, ROOT, STACK_BUDGET  # noqa: E402
from tools.common import TOP_LEVEL as TOP, sign  # noqa: E402
from tools.mpvm import memory  # noqa: E402


# ---------------------------------------------------------------- speed

def speed(micropython, quick):
    budget = 5000 if quick else 20000
    nodes, ms = chipbench.run(budget, out=lambda line: None)
    cpython_nps = nodes * 1000 // max(ms, 1)
    vm_nps = None
    if mpvm.available():
        r = mpvm.run(common.path(common.CHIPBENCH), 1000, "/firmware",
                     grow=True, timeout=900)
        m = re.search(r"total nodes (\d+) ms (\d+) nps (\d+)", r.stdout)
        vm_nps = int(m.group(3)) if m else None
    callgrind = None
    if micropython:
        from tools.bench.instr_per_node import measure
        callgrind = measure(micropython)
    ipn, source = recorded_ipn()
    return cpython_nps, vm_nps, ipn, source, callgrind


def recorded_ipn():
    """(the chip's instructions per node, where they come from) of tools/data/chip.txt."""
    fields = common.chip_record()
    source = "recorded in tools/data/chip.txt: " + fields.get("source", "(no source line)")
    if fields.get("engine") != common.engine_fingerprint():
        source += (" (STALE: the engine changed since; `make bench FIRMWARE=... BENCH_ARGS=\"--only chip\"` "
                   "records it again)")
    return common.chip_instructions_per_node(), source


# ---------------------------------------------------------------- the chip

def chip_speed(args, say):
    """The chip's figures, measured on the emulated chip and recorded (tools/chip/speed.py);
    without the emulator or the image, a line saying why (and no section on the page)."""
    from tools.chip import emulator, speed as chip
    qemu, firmware = emulator.find_qemu(), args.firmware or emulator.find_firmware()
    if qemu is None or firmware is None or not os.path.isfile(firmware):
        say.progress("chip: skipped, %s; tools/data/chip.txt keeps its record" % (
            "no emulator (QEMU=path/to/qemu-system-riscv32, or build/emulator/: "
            "docs/developer.md#the-chip-in-the-loop)" if qemu is None else
            "no MicroPython image (FIRMWARE=ESP32_GENERIC_C3-<date>-v1.28.0.bin)"))
        return
    say.part("chip")
    found = chip.measure(firmware, qemu, sizes=common.board_sizes(), say=say.progress)
    with open(common.CHIP_FILE, "w") as f:
        f.write(chip.record_text(found, firmware))
    fig = chip.figures(found)
    ipn = fig["instructions_per_node"]
    slow, fast = common.chip_speed_range(ipn)
    top = levels.nodes(TOP)
    say("### Speed on the chip (the emulated ESP32-C3: instructions counted)")
    say()
    say("| what | on the chip |")
    say("|---|---:|")
    for lv in reversed(chip.LEVELS):
        n, _ = found["levels"][lv]
        say("| instructions per search node, level %d (%s nodes on chipbench's 3 positions) | %s |" % (
            lv, format(n, ","), format(fig["instructions_per_node_level%d" % lv], ",")))
    say("| **levels %d-%d together: the figure every chip time uses** | **%s** |" % (
        chip.LEVELS[0], chip.LEVELS[-1], format(ipn, ",")))
    n, us = found["bench"]
    say("| `make bench-device`'s run (9 positions at 5,000 nodes) | %s |" % format(chip.per_node(n, us), ","))
    say("| search nodes per second | %s-%s |" % (format(slow, ","), format(fast, ",")))
    say("| level %d at its full budget (%s nodes) | %.2f-%.2f s |" % (
        TOP, format(top, ","), top * ipn / common.CHIP_IPS_RANGE[1], top * ipn / common.CHIP_IPS_RANGE[0]))
    if args.micropython:  # the cross-check beside it: callgrind's count, x86 instructions
        from tools.bench.instr_per_node import measure, port_words
        say.progress("chip: callgrind's cross-check on %s" % args.micropython)
        say("| callgrind's cross-check: x86 instructions a node on %s (chipbench's 3 positions, "
            "tools/bench/instr_per_node.py) | %s |" % (port_words(args.micropython),
                                                      format(measure(args.micropython), ",")))
    poll = poll_interval()
    say("| the search's poll, every %d nodes (the button read, the web server's round) | %.1f-%.1f ms |" % (
        poll, poll * ipn * 1000.0 / common.CHIP_IPS_RANGE[1], poll * ipn * 1000.0 / common.CHIP_IPS_RANGE[0]))
    say()
    say("Instructions per node on every board size (chipbench's 7 positions of the size at "
        "%s nodes each):" % format(chip.SIZE_BUDGET, ","))
    say()
    say("| rows / columns | 4 | 5 | 6 | 7 | 8 |")
    say("|---:|---:|---:|---:|---:|---:|")
    for rows in range(4, 8):
        say("| %d | %s |" % (rows, " | ".join(
            format(fig["instructions_per_node_%dx%d" % (cols, rows)], ",") for cols in range(4, 9))))
    say()
    say("Counted on the stock %s in the emulated ESP32-C3 (`-icount shift=3`: one instruction, 8 ns "
        "of emulated time; the board's own `ticks_us` around each search, x 125). Only the cycles an "
        "instruction are assumed, %.1f-%.1f at %d MHz (tools/common.py): the speeds and times above "
        "are at %d-%d M instructions/s, and every chip time estimate of this page, `make sim "
        "SIM_ARGS=--chip-speed` and the browser page at the slow end, %d M, through "
        "tools.common.chip_nodes_per_second(): %s nodes/s (a section of this page measured before "
        "this record gives its chip times at the record of its own date). Recorded in "
        "tools/data/chip.txt (engine %s) by `python tools/chip/speed.py --firmware FIRMWARE "
        "--record`, which this section runs (`make bench FIRMWARE=%s BENCH_ARGS=\"--only chip\"`)." % (
            chip.image_name(firmware), common.CHIP_CPI[0], common.CHIP_CPI[1], common.CHIP_HZ // 10 ** 6,
            round(common.CHIP_IPS_RANGE[0] / 1e6), round(common.CHIP_IPS_RANGE[1] / 1e6),
            round(common.CHIP_IPS / 1e6), format(slow, ","),
            common.engine_fingerprint(), os.path.basename(firmware)))
    say()


def poll_interval():
    """The nodes between two polls of the search (config.py's poll_interval, the board's)."""
    import config
    return config.get()["poll_interval"]


# ---------------------------------------------------------------- accuracy

def bench_file(name, folder=None):
    """(path, what it is) of Pascal Pons' set `name`: the full set in `folder` (--sets), else
    the sample a clone carries."""
    if folder:
        return os.path.join(folder, name), "Pascal Pons' %s" % name
    sample = os.path.join("tests", "data", name + ".sample")
    return os.path.join(ROOT, sample), "Pascal Pons' %s, the sample %s" % (name, sample)


def judge_position(args):
    """(keeps the game value, keeps the exact score, nodes) at the top level."""
    moves, score = args
    ai = AIPlayer(level=TOP, seed=1, blunder=0)
    result = ai.choose(Board(moves))
    scores = perfect.shared().analyze(moves)
    played = scores[result.move]
    return sign(played) == sign(score), played == score, result.nodes


def accuracy(pool, name, limit, folder=None):
    path, what = bench_file(name, folder)
    items = [(moves, score) for _, moves, score in read_benchmark(path)][:limit]
    rows = pool.map(judge_position, items, chunksize=8)
    n = len(rows)
    return {
        "file": what,
        "positions": n,
        "value": sum(r[0] for r in rows) / n,
        "exact": sum(r[1] for r in rows) / n,
        "mean_nodes": sum(r[2] for r in rows) // n,
        "max_nodes": max(r[2] for r in rows),
    }


# ---------------------------------------------------------------- games

class CarelessAdult:
    """A human who looks one move ahead and no further: takes a win, blocks a
    threat it notices (90%), avoids a square that hands over a win when it
    notices (90%), else plays where it lines up most discs, near the middle."""

    def __init__(self, seed):
        self.rng = Rng(seed)

    def choose(self, board):
        moves = board.legal_moves()
        opp = 3 - board.turn
        for c in moves:
            if board.is_winning_move(c):
                return c
        if self.rng.chance(90):
            for c in moves:
                if board.is_winning_move(c, opp):
                    return c
        if self.rng.chance(90):
            safe = [c for c in moves if board.height(c) >= 5
                    or not board.is_winning_move_at(c, board.height(c) + 1, opp)]
            moves = safe or moves
        best, picks = -1, []
        for c in moves:
            value = self._lined_up(board, c) * 4 + 3 - abs(3 - c) + self.rng.below(4)
            if value > best:
                best, picks = value, [c]
            elif value == best:
                picks.append(c)
        return self.rng.choice(picks)

    @staticmethod
    def _lined_up(board, col):
        """Own discs next to the new one, over the four directions."""
        row = board.height(col)
        me = board.turn
        total = 0
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for sgn in (1, -1):
                c, r = col + sgn * dc, row + sgn * dr
                while 0 <= c < 7 and 0 <= r < 6 and board.get(c, r) == me:
                    total += 1
                    c, r = c + sgn * dc, r + sgn * dr
        return total


def play_game(args):
    """One game: (result for the engine 'W'/'D'/'L', engine nodes per searched move)."""
    level, opponent, opening, engine_first, seed = args
    ai = AIPlayer(level=level, seed=seed, book=the_book())  # as the board: the top level's book
    other = TutorialAI(seed=seed) if opponent == "tutorial" else CarelessAdult(seed)
    board = Board(opening)
    ours = 1 if engine_first else 2
    nodes = []
    while not board.is_over():
        if board.turn == ours:
            result = ai.choose(board)
            if result.stopped != "blunder":
                nodes.append(result.nodes)
            board.play(result.move)
        else:
            board.play(other.choose(board))
    outcome = "D" if not board.winner else ("W" if board.winner == ours else "L")
    return outcome, nodes


def match(pool, level, opponent, games):
    jobs = [(level, opponent) + common.game(level, g) for g in range(games)]
    rows = pool.map(play_game, jobs, chunksize=1)
    tally = {"W": 0, "D": 0, "L": 0}
    nodes = []
    for outcome, n in rows:
        tally[outcome] += 1
        nodes += n
    return tally, nodes


# ---------------------------------------------------------------- against a perfect player

ERRING = 20  # percent of random moves of the erring perfect player
STOP_BOOK = "book"  # SearchResult.stopped of a book move (connect4.engine.player)
def vs_perfect(args):
    """One game of the top level, with the opening book as the board has it,
    against a perfect player (seeded; erring `error` percent): (outcome for
    the engine 'W'/'D'/'L', engine nodes per searched move, best value the
    engine was given: 1 win, 0 draw, -1 loss, book moves)."""
    seed, engine_first, error = args
    ai = AIPlayer(level=TOP, seed=seed, book=the_book())
    other = perfect.PerfectPlayer(seed, error=error)
    judge = perfect.shared()
    board = Board()
    ours = 1 if engine_first else 2
    nodes, given, booked = [], -1, 0
    while not board.is_over():
        if board.turn == ours:
            given = max(given, sign(judge.solve(board.moves_string())))
            result = ai.choose(board)
            if result.stopped == STOP_BOOK:
                booked += 1
            elif result.stopped != "blunder":
                nodes.append(result.nodes)
            board.play(result.move)
        else:
            board.play(other.choose(board.moves_string()))
    outcome = "D" if not board.winner else ("W" if board.winner == ours else "L")
    return outcome, nodes, given, booked


def perfect_match(pool, games, engine_first, error):
    rows = pool.map(vs_perfect, [(seed, engine_first, error) for seed in range(1, games + 1)],
                    chunksize=1)
    return tally_perfect(rows)


def tally_perfect(rows):
    """(W/D/L tally, nodes, games given a draw or win, games that kept it,
    book moves) of vs_perfect() rows. Kept: the result is at least the best
    value given."""
    tally = {"W": 0, "D": 0, "L": 0}
    nodes, given, kept, booked = [], 0, 0, 0
    for outcome, n, best, b in rows:
        tally[outcome] += 1
        nodes += n
        booked += b
        if best >= 0:  # given a draw or a win at some move: kept it?
            given += 1
            kept += {"W": 1, "D": 0, "L": -1}[outcome] >= best
    return tally, nodes, given, kept, booked


def judge_set_position(args):
    """(keeps the game value, plays a best move, nodes) at the top level."""
    moves, score = args
    result = AIPlayer(level=TOP, seed=1, blunder=0).choose(Board(moves))
    played = perfect.shared().analyze(moves)[result.move]
    return sign(played) == sign(score), played == score, result.nodes


def set_accuracy(pool, lo, hi, limit):
    path = set_path(lo, hi)
    if not os.path.exists(path):
        return None
    items = [(moves, score) for _, moves, score in read_benchmark(path)][:limit]
    rows = pool.map(judge_set_position, items, chunksize=8)
    n = len(rows)
    return {"file": os.path.relpath(path, ROOT).replace(os.sep, "/"), "positions": n,
            "value": sum(r[0] for r in rows) / n, "best": sum(r[1] for r in rows) / n,
            "mean_nodes": sum(r[2] for r in rows) // n, "max_nodes": max(r[2] for r in rows)}


def against_perfect(pool, say, games, limit, ipn):
    """The games against the perfect player (none if `games` is 0), then the position sets."""
    if games:
        say.part("perfect")
        say("### Against a perfect player (top level %d, judged by bitbully)" % TOP)
        say()
        perfect_games(pool, say, games, ipn)
    say.part("sets")
    say("### Position sets (top level %d, judged by bitbully)" % TOP)
    say()
    position_sets(pool, say, limit, ipn)


def perfect_games(pool, say, games, ipn):
    say("| games | W-D-L | book moves / searched | mean nodes/searched move | "
        "est. chip s/searched move (mean / max) | given a draw or win | kept it |")
    say("|---|---:|---:|---:|---:|---:|---:|")
    for engine_first, error in ((True, 0), (False, ERRING)):
        tally, nodes, given, kept, booked = perfect_match(pool, games, engine_first, error)
        mean = sum(nodes) // max(len(nodes), 1)
        peak = max(nodes) if nodes else 0
        say("| %d as %s player vs perfect%s | %d-%d-%d | %d / %d | %d | %.2f / %.2f | %d | %s |" % (
            games, "first" if engine_first else "second",
            " erring %d%%" % error if error else "", tally["W"], tally["D"], tally["L"],
            booked, len(nodes), mean, chip_ms(mean, ipn) / 1000, chip_ms(peak, ipn) / 1000, given,
            "%.1f%%" % (100.0 * kept / given) if given else "-"))
    say()
    say("Seeds 1..%d; the perfect player picks at random (seeded) among its best-score "
        "moves; \"given a draw or win\": games where the board, at one of its moves, held "
        "a drawn or won position; \"kept it\": of those, the games it ended with at least "
        "that result." % games)
    say()


def position_sets(pool, say, limit, ipn):
    say("| set | positions | keeps the game value | plays a best move | mean nodes | max nodes "
        "| est. chip s/move (mean / max) |")
    say("|---|---:|---:|---:|---:|---:|---:|")
    for lo, hi in SETS:
        a = set_accuracy(pool, lo, hi, limit)
        if a is None:
            say("| %s: missing (make it with tools/bench/make_sets.py) | | | | | | |"
                % os.path.relpath(set_path(lo, hi), ROOT))
            continue
        say("| %s (%d-%d discs) | %d | %.1f%% | %.1f%% | %d | %d | %.2f / %.2f |" % (
            a["file"], lo, hi, a["positions"], 100 * a["value"], 100 * a["best"],
            a["mean_nodes"], a["max_nodes"], chip_ms(a["mean_nodes"], ipn) / 1000,
            chip_ms(a["max_nodes"], ipn) / 1000))
    say()
    say("Each position is judged alone (a fresh Searcher: no table from earlier positions).")
    say()


def book_table(say):
    """The opening book's size and depth (the file) and its lookup's cost (tools/data/book.txt,
    tools/book/lookup_cost.py's record): the one place the page gives them."""
    facts = opening_book.facts()
    if facts is None:
        say("No opening book (%s missing): `make book` builds it." % os.path.relpath(BOOK, ROOT))
        say()
        return
    say("### The opening book (%s, as `make book` built it)" % os.path.relpath(BOOK, ROOT).replace(os.sep, "/"))
    say()
    say("| what | figure |")
    say("|---|---:|")
    say("| size | %s bytes |" % format(facts["bytes"], ","))
    say("| positions (mirror images stored once) | %s |" % format(facts["positions"], ","))
    say("| the deepest | %d discs |" % facts["discs"])
    ipl, source = lookup_cost.recorded()
    if ipl:
        say("| a lookup (x86 instructions of the 32-bit unix port, not the chip's) | %s instructions |"
            % format(ipl, ","))
        say("| a lookup on the chip estimate, at %d M instructions/s (LittleFS's flash reads besides) | %.2f ms |"
            % (round(CHIP_IPS / 1e6), ipl * 1000.0 / CHIP_IPS))
    say()
    say("The lookup's cost: %s, recorded in tools/data/book.txt by `python tools/book/lookup_cost.py "
        "MICROPYTHON --record` (callgrind on the 32-bit unix port, the firmware's own book.py on this "
        "file)." % (source if ipl else "not recorded"))
    say()


# ---------------------------------------------------------------- report

def chip_ms(nodes, ipn):
    return nodes * ipn * 1000 / CHIP_IPS


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and games (a smoke run)")
    parser.add_argument("--micropython", help="a MicroPython unix-port binary to count instructions "
                        "per node (and to run the people section's engines in)")
    parser.add_argument("--out", help="also write the report to this file; a page with make bench's "
                        "markers (docs/benchmarks.md) gets this run's sections and keeps the others")
    parser.add_argument("--only", choices=SECTIONS, help="run only this section")
    parser.add_argument("--games", type=int, help="games against the perfect player, per row "
                        "(default 100; --quick 10)")
    parser.add_argument("--ladder-games", type=int, help="games per pair of the rating ladder "
                        "(default 10; --quick 2)")
    parser.add_argument("--people-games", type=int, help="games a side per opponent of the people "
                        "section (default %d; --quick 4)" % people.GAMES)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--sets", help="a folder holding Pascal Pons' full Test_L3_R1 and Test_L2_R1 "
                        "(http://blog.gamesolver.org); default: the samples in tests/data")
    parser.add_argument("--firmware", help="the chip section's MicroPython image (default: $FIRMWARE)")
    args = parser.parse_args(argv)
    for name in ("games", "ladder_games", "people_games", "jobs"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error("--%s must be at least 1" % name.replace("_", "-"))
    started = time.time()
    say = common.Say()
    run = lambda section: args.only in (None, section)  # noqa: E731
    if run("chip"):
        chip_speed(args, say)
    if args.only == "chip-wifi":  # (an hour of the emulator: only when asked for)
        chip_wifi(args, say)
    if run("speed"):
        say.part("speed")
        ipn = speed_and_memory(args, say)
    else:
        ipn = recorded_ipn()[0]
    if run("web"):
        say.part("web")
        web_table(say, args.quick)
    with multiprocessing.Pool(args.jobs) as pool:
        if run("accuracy"):
            say.part("accuracy")
            pons_accuracy(pool, say, args.quick, args.sets)
        if run("levels"):
            say.part("levels")
            level_table(pool, say, args.quick, ipn)
        if run("perfect") or args.only == "sets":  # "sets": the position sets without the games
            games = 0 if args.only == "sets" else args.games or (10 if args.quick else 100)
            against_perfect(pool, say, games, 100 if args.quick else 10 ** 6, ipn)
        if run("book"):
            say.part("book")
            book_table(say)
        if run("ladder"):
            say.part("ladder")
            games = args.ladder_games or (2 if args.quick else 10)
            ladder.report(say, *ladder.ladder(pool, games), games=games)
        if run("sizes"):
            say.part("sizes")
            ipn_of, source = size_ipn()
            sizes.report(pool, say, args.quick, ipn_of, source)
    given = sys.argv[1:] if argv is None else argv
    if run("people"):
        say.part("people")
        games = args.people_games or (4 if args.quick else people.GAMES)
        by = people.run(games, jobs=args.jobs, micropython=args.micropython, say=say)
        people.report(say, by, games, page.command(given))
    finished = time.time()
    if args.out:
        page.write(args.out, say.lines, say.parts, finished, given)
    say("`%s` took %d s%s." % (page.command(given), finished - started,
                               "; written into %s" % args.out if args.out else ""))
    return 0


SECTIONS = ("chip", "chip-wifi", "speed", "web", "accuracy", "levels", "perfect", "sets", "book", "ladder", "sizes",
            "people")


def size_ipn():
    """(ipn_of(size) -> (instructions per node, how known), source) for the sizes section:
    the chip's figures recorded in tools/data/chip.txt, else (a size not recorded) the
    7x6 figure times levels.node_cost."""
    base, source = recorded_ipn()
    record = common.chip_record()

    def ipn_of(size):
        figure = record.get("instructions_per_node_%dx%d" % size, "")
        if figure.isdigit():
            return int(figure), "recorded"
        return base * levels.node_cost(*size) // 100, "modelled"
    return ipn_of, source


def speed_and_memory(args, say):
    """The speed and memory tables; returns the instructions per node."""
    cpython_nps, vm_nps, ipn, source, callgrind = speed(args.micropython, args.quick)
    say("### Speed")
    say()
    say("| where | nodes per second |")
    say("|---|---:|")
    say("| CPython %d.%d (host simulator, plain-Python path) | %d |" % (
        sys.version_info[0], sys.version_info[1], cpython_nps))
    if vm_nps is not None:
        say("| MicroPython VM (WebAssembly, bytecode, no native emitter) | %d |" % vm_nps)
    say()
    say("The chip's speed: [Speed on the chip](#speed-on-the-chip) (%s)." % source)
    if callgrind is not None:
        from tools.bench.instr_per_node import port_words
        say("Callgrind on %s (tools/bench/instr_per_node.py, x86 instructions of the unix port, "
            "a cross-check): %d instructions per node." % (port_words(args.micropython), callgrind))
    say()
    say.part("stack")
    stack_table(say)

    if mpvm.available():
        say.part("memory")
        memory_table(say)
    return ipn


def memory_table(say):
    """The firmware's heap in the MicroPython VM (tools/mpvm/memory.py), as the page shows it."""
    f = memory.measure()
    kb = lambda n: "%.1f KB" % (n / 1024.0)  # noqa: E731
    say("### Memory (MicroPython VM, heap %s, the firmware as deployed: .mpy)" % kb(f["heap"]))
    say()
    say("| what | heap |")
    say("|---|---:|")
    say("| firmware imported (what main.py imports) | %s |" % kb(f["import"]))
    say("| the app built on it (drivers, store, menu, records, Searcher, %s table) | +%s |" % (
        kb(f["table"]), kb(f["app"])))
    say("| peak of a top-level move (%d nodes; at most) | %s |" % (f["search_nodes"], kb(f["search_peak"])))
    say("| peak of a whole game against level %d, saved to flash and recorded (at most) | %s |" % (
        memory.GAME_LEVEL, kb(f["game_peak"])))
    say("| bytes allocated per search node | %d |" % f["per_node"])
    say("| viper machine code, rv32imc (outside the GC heap; replaces %s of bytecode) | %s |" % (
        kb(f["replaced_bytecode"]), kb(f["native"])))
    say("| **footprint on the chip** (larger peak + machine code - replaced bytecode) | **%s** |"
        % kb(f["footprint"]))
    say("| Wi-Fi on: the link and radio, the web server (its own HTTP layer), API, pairing, scrolling "
        "text, the table shrunk to %s | +%s |" % (kb(f["web_table"]), kb(f["web_with_table"])))
    say("| **footprint with Wi-Fi on** (Python heap) | **%s** |" % kb(f["footprint_web"]))
    say()
    say("Budget (tools/mpvm/memory.py, half the chip's ~180 KB free heap): %s, %s." % (
        kb(f["budget"]), "met" if f["footprint"] <= f["budget"] else "NOT MET"))
    say()


def web_table(say, quick):
    """The web server: a request's cost (the MicroPython VM) and its answers under idle sockets."""
    from tools.web import load, request_cost
    from connect4.net import server
    say("### Web server")
    say()
    say("| what | figure |")
    say("|---|---:|")
    if mpvm.available():
        ms, size = request_cost.measure(50 if quick else 200)
        say("| one `GET /api/state` (%d bytes) taken, read, answered and closed, MicroPython VM | %.2f ms |"
            % (size, ms))
        say("| the same on the chip (estimate: bytecode %d times slower than the VM) | %.1f ms |"
            % (request_cost.CHIP_FACTOR, ms * request_cost.CHIP_FACTOR))
    f = load.measure(2.0 if quick else 10.0)
    say("| %d idle sockets and %d clients polling `GET /api/state` (simulator, this host): requests "
        "answered a second | %.0f |" % (f["idle"], f["pollers"], f["per_second"]))
    say("| the slowest answer under that load | %.0f ms |" % (1000 * f["slowest"]))
    say("| answers other than 200 (503, timeouts, resets) | %d |" % (sum(f["statuses"].values()) - f["answered"]))
    say()
    say("The idle clients open another socket %d ms after the server closes one (tools/web/load.py); a "
        "new connection takes the slot of the oldest one still waiting for its request once that one has "
        "waited %d ms (GRACE_MS in connect4/net/server.py)." % (1000 * load.IDLE_PAUSE, server.GRACE_MS))
    say()


def stack_table(say):
    """The deepest stack of a search on the chip (tools/bench/stack.py's model), beside the budget."""
    cmds = ["position 1547324443323", "go nodes 6000", "position", "level %d" % TOP, "go",
            "position 44232333554665224144", "go nodes 20000"]
    hook, _ = stack.engine_main(cmds)
    say("### Stack (the chip's: %s bytes, %s of them kept free)" % (
        format(CHIP_STACK_LIMIT, ","), format(CHIP_STACK_MARGIN, ",")))
    say()
    say("| where | frames | bytes at most |")
    say("|---|---:|---:|")
    say("| the deepest chain of a search through the engine protocol (its poll hook) | %d | %s |" % (
        len(hook.chain), format(hook.most, ",")))
    say("| the budget: every search, any depth | | %s |" % format(STACK_BUDGET, ","))
    say()
    say("Bytes from tools.common.stack_bytes: the chip's measured figures (460 bytes a "
        "viper frame, 335 a bytecode frame; tools/common.py). The search's plies are records in its arena, so the "
        "chain is the same at every depth; tests/test_stack_depth.py checks it, and the app's AI "
        "turn with a web request on top.")
    say()


def pons_accuracy(pool, say, quick, folder=None):
    say("### Accuracy at the top level (%d), judged by the perfect solver" % TOP)
    say()
    say("| set | positions | keeps the game value | keeps the exact score | mean nodes | max nodes |")
    say("|---|---:|---:|---:|---:|---:|")
    for name in ("Test_L3_R1", "Test_L2_R1"):
        a = accuracy(pool, name, 100 if quick else 10 ** 6, folder)
        say("| %s | %d | %.1f%% | %.1f%% | %d | %d |" % (
            a["file"], a["positions"], 100 * a["value"], 100 * a["exact"],
            a["mean_nodes"], a["max_nodes"]))
    say()


def level_table(pool, say, quick, ipn):
    games_top = 20 if quick else 100
    games_level = 6 if quick else 20
    say("### Levels: node budgets, chip time, strength")
    say()
    say("| level | depth | nodes | blunder | mean nodes/move | est. chip s/move (mean / max) "
        "| vs careless adult W-D-L | vs tutorial AI W-D-L |")
    say("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for level in range(1, TOP + 1):
        adult, n1 = match(pool, level, "adult", 2 * games_level)
        tut, n2 = match(pool, level, "tutorial", games_top if level == TOP else games_level)
        nodes = n1 + n2
        mean = sum(nodes) // max(len(nodes), 1)
        peak = max(nodes) if nodes else 0
        say("| %d | %d | %d | %d%% | %d | %.2f / %.2f | %d-%d-%d | %d-%d-%d |" % (
            level, levels.depth(level), levels.nodes(level), levels.blunder(level), mean,
            chip_ms(mean, ipn) / 1000, chip_ms(peak, ipn) / 1000, adult["W"], adult["D"], adult["L"],
            tut["W"], tut["D"], tut["L"]))
    say()
    say("Games start from the empty board and every two-move opening, the engine "
        "playing first and second in turn.")
    say()


if __name__ == "__main__":
    sys.exit(main())
