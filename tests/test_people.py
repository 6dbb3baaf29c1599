"""The people section of `make bench` (tools/bench/people.py): what it counts,
its cache, and one real game judged move by move."""
import pytest

from tools.bench import people


def game(result, held, drops, first=True):
    return {"opp": "random", "first": first, "seed": 1, "result": result, "held": held,
            "drops": drops, "book": 2, "searched": [100, 2000, 30000], "moves": ""}


def test_a_game_is_kept_only_if_it_ends_at_least_as_well_as_the_best_held():
    rows = [game("W", 1, []), game("W", 1, [6, 10]), game("D", 1, [8]), game("D", 0, []),
            game("L", 0, [13]), game("L", -1, [])]
    w, d, lost, given, kept, clean, drops, booked, searched = people.tally(rows)
    assert (w, d, lost) == (2, 2, 2)
    assert (given, kept, clean) == (5, 3, 2)  # never held a draw: not counted; a win regained counts kept
    assert drops == [6, 8, 10, 13] and (booked, len(searched)) == (12, 18)
    assert people.seconds(searched, 10000) == "1.07 / 3.00" and people.seconds([], 1) == "-"
    assert people.plies([2, 2, 6, 14, 14, 14]) == "2 x2, 6, 14 x3" and people.plies([]) == "none"


def test_seeds_differ_between_opponents_sides_and_games():
    seeds = {people.seed_of(o, f, g) for o in people.OPPONENTS for f in (True, False) for g in range(300)}
    assert len(seeds) == len(people.OPPONENTS) * 2 * 300


def test_a_cut_line_of_the_cache_is_played_again(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"opp": "random", "first": true, "seed": 5, "result": "W"}\n{"opp": "ran')
    assert list(people.load(str(path))) == [("random", True, 5)]


def test_a_real_game_against_the_random_mover_is_judged_and_cached(tmp_path):
    pytest.importorskip("bitbully")
    by = people.run(1, ("random",), cache=str(tmp_path), say=lambda text: None)
    first, second = by[("random", True)][0], by[("random", False)][0]
    assert first["moves"].startswith("4") and first["book"] >= 1 and first["held"] == 1
    nodes = first["searched"] + second["searched"]  # each search's nodes (0: a win at once, no search)
    assert nodes and all(n >= 0 for n in nodes) and max(nodes) > 0
    assert {first["result"], second["result"]} <= {"W", "D", "L"}
    if first["result"] == "W":
        assert len(first["moves"]) % 2 == 1  # the first player's disc ended it
    again = people.run(1, ("random",), cache=str(tmp_path), say=lambda text: pytest.fail(text))
    assert again == by  # read from the cache: nothing played
    second = people.run(1, ("random",), cache=str(tmp_path), say=lambda text: pytest.fail(text),
                        sides=(False,))
    assert second == {("random", False): by[("random", False)]}  # one side only, from the cache


def test_corrections_take_the_positions_of_every_drop_and_keep_the_rounds(tmp_path):
    from tools.book import correct
    by = {("random", True): [dict(game("W", 1, [2, 6]), moves="4343355"), game("W", 1, [])],
          ("L3", False): [dict(game("L", 0, [5], first=False), moves="4444123"),
                          dict(game("D", 0, [5], first=False), moves="4444122")]}
    assert correct.drops(by) == {"43": 1, "434335": 1, "44441": 2}
    path = str(tmp_path / "c.txt")
    correct.write(path, {"434333", "43", ""}, ["# round 1: 4 games, 4 drops at 3 positions, 3 new"])
    assert correct.read(path) == ({"", "43", "434333"}, 1)
    assert open(path).read().splitlines()[-3:] == ["-", "43", "434333"]


def test_opponents_are_named_by_a_comma_list_and_an_unknown_one_is_refused():
    import argparse
    parser = argparse.ArgumentParser()
    assert people.opponents_of(None, parser) == people.OPPONENTS
    assert people.opponents_of("perfect2,L5", parser) == ("perfect2", "L5")
    with pytest.raises(SystemExit):
        people.opponents_of("perfect2,L9", parser)


def test_a_correction_rounds_note_says_which_games_it_played():
    from tools.book import correct
    assert correct.played(people.OPPONENTS, (True, False)) == ""
    assert correct.played(("perfect2", "L5"), (False,)) == " against perfect2,L5 as second player"
    assert correct.ROUND_LINE.match("# round 8: 900 games against perfect2 as second player, 3 drops")
