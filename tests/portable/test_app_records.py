"""Game records on flash: the line format, the bound, atomic writes, bad lines set aside,
and a power cut at any point of a write losing no older record."""
import os

from connect4.app.records import Record
from connect4.app.recordfile import parse
from connect4.app.recordfile import Records
from connect4.app.store import Files
from fakes import tmpdir
from test_app_store import exists

LIMIT = Records("games.txt").limit  # the records kept


def write(path, data):
    f = open(path, "wb")
    f.write(data)
    f.close()


def read(path):
    f = open(path, "rb")
    try:
        return f.read()
    finally:
        f.close()


def game(i, result=0):
    """A small legal game, different for each i."""
    moves = "4453"[:1 + i % 4] + str(1 + i % 7)
    return Record("ai", i % 2, (0, 1 + i % 8), result, (i % 3, 0), moves, "?" * (len(moves) - 1) + "W")


def moves_newest_first(records):
    return [r.moves for r in records.recent()]


def test_a_line_round_trips_and_says_what_the_readme_says():
    r = Record("two", 1, (0, 0), 2, (3, 1), "4453", "??WL", 12)
    assert r.line() == "12 two y 0/0 d 3/1 4453 ??WL"
    back = parse(r.line() + "\n")
    assert back.line() == r.line()
    assert (back.number, back.mode, back.first, back.levels, back.result, back.hints, back.moves,
            back.marks) == (12, "two", 1, (0, 0), 2, (3, 1), "4453", "??WL")
    assert parse(b"3 demo r 5/2 a 0/0 - -").moves == ""  # an abandoned empty game reads too
    assert Record("ai", 0, (0, 4), 3).line() == "0 ai r 0/4 a 0/0 - -"


def test_lines_that_are_not_records_parse_to_none():
    good = "7 ai r 0/4 y 0/0 4453 ??WL"
    assert parse(good) is not None
    bad = ["", "\n", "7 ai r 0/4 y 0/0 4453", good + " x", good.replace("ai", "chess"),
           good.replace(" r ", " b "), good.replace("0/4", "0/9"), good.replace("0/4", "4"),
           good.replace(" y ", " w "), good.replace("4453", "4458"), good.replace("4453", "1111111"),
           good.replace("??WL", "??W"), good.replace("??WL", "??WX"), good.replace("7 ", "-7 ", 1),
           good.replace("7 ", "x ", 1), b"\xff\xfe 1 2 3 4 5 6 7", good.replace(" ", "  ")]
    for line in bad:
        assert parse(line) is None, line


def test_appends_number_the_games_and_read_back_newest_first():
    path = tmpdir("rec1") + "games.txt"
    records = Records(path)
    assert records.count() == 0 and records.get(0) is None
    assert moves_newest_first(records) == []
    for i in range(5):
        assert records.append(game(i))
    assert [r.number for r in records.recent()] == [5, 4, 3, 2, 1]
    assert records.get(0).moves == game(4).moves and records.get(4).moves == game(0).moves
    assert records.get(5) is None and records.get(-1) is None
    assert Records(path).count() == 5
    assert read(path).count(b"\n") == 5 and not exists(path + ".tmp")


def test_the_file_keeps_the_last_games_and_drops_the_oldest():
    path = tmpdir("rec2") + "games.txt"
    records = Records(path, limit=4)
    for i in range(7):
        records.append(game(i))
        want = [game(k).moves for k in range(i, max(-1, i - 4), -1)]
        assert moves_newest_first(records) == want
    assert [r.number for r in records.recent()] == [7, 6, 5, 4]  # numbers go on counting
    assert LIMIT == 100


def test_bad_lines_are_set_aside_and_the_rest_kept():
    folder = tmpdir("rec3")
    path = folder + "games.txt"
    records = Records(path)
    for i in range(3):
        records.append(game(i))
    good = read(path)
    lines = good.split(b"\n")
    damaged = lines[0] + b"\n" + b"\xff\xfe garbage\n" + b"9" * 400 + b"\n" + lines[1] + b"\n" + lines[2][:-3]
    write(path, damaged)
    assert [r.number for r in records.recent()] == [2, 1]  # what is readable reads
    assert records.append(game(9))  # the next write sets the damaged file aside
    assert read(path + ".bad") == damaged  # as it was
    assert read(path) == lines[0] + b"\n" + lines[1] + b"\n" + game(9).line().replace("0 ", "3 ", 1).encode() + b"\n"
    assert [r.number for r in records.recent()] == [3, 2, 1]


def test_a_last_line_without_its_newline_still_counts():
    path = tmpdir("rec4") + "games.txt"
    write(path, b"1 two r 0/0 r 0/0 4 W\n2 two y 0/0 a 0/0 45 ??")
    records = Records(path)
    assert moves_newest_first(records) == ["45", "4"]
    records.append(game(0))
    assert read(path).endswith(b"??\n3 ai r 0/1 r 0/0 41 ?W\n")


def test_a_leftover_temporary_file_is_used_only_when_the_file_is_missing():
    folder = tmpdir("rec5")
    path = folder + "games.txt"
    write(path + ".tmp", b"1 two r 0/0 r 0/0 4 W\n")
    assert moves_newest_first(Records(path)) == ["4"] and not exists(path + ".tmp")
    write(path + ".tmp", b"2 two r 0/0 r 0/0 5 W\n")  # a write cut short: the file is the truth
    assert moves_newest_first(Records(path)) == ["4"] and not exists(path + ".tmp")


class PowerCut(Exception):
    """The board loses power: nothing after it runs (not even the clean-up of a failed write)."""


class DyingFiles(Files):
    """The flash as the board sees it, until the power goes after `budget` bytes or renames."""

    def __init__(self, budget, renames=99):
        self.budget = budget
        self.renames = renames

    def open(self, path, mode):
        f = open(path, mode)
        return _DyingFile(self, f) if "w" in mode else f

    def rename(self, old, new):
        if self.renames == 0:
            self.budget = -1
            raise PowerCut()
        self.renames -= 1
        os.rename(old, new)

    def remove(self, path):
        if self.budget < 0:
            raise PowerCut()
        os.remove(path)


class _DyingFile:
    def __init__(self, fs, f):
        self.fs = fs
        self.f = f

    def write(self, data):
        n = min(len(data), max(0, self.fs.budget))
        self.f.write(data[:n])
        self.fs.budget -= len(data)
        if self.fs.budget < 0:
            self.f.close()  # what reached the flash stays there
            raise PowerCut()
        return n

    def close(self):
        self.f.close()


def _cut(records, record):
    """Append until the power goes; True if it went (the write's clean-up may have caught
    the PowerCut: what it did before the cut is on the flash, nothing after)."""
    try:
        records.append(record)
    except PowerCut:
        pass
    return records.fs.budget < 0


def test_a_power_cut_at_any_byte_of_a_write_loses_no_older_record():
    folder = tmpdir("rec6")
    path = folder + "games.txt"
    base = Records(path, limit=3)
    for i in range(3):
        base.append(game(i))
    before = read(path)
    size = len(before)
    for budget in range(0, size + 30, 7):
        write(path, before)
        cut = _cut(Records(path, fs=DyingFiles(budget), limit=3), game(8))
        after = Records(path, limit=3)  # power back: the board starts again
        got = moves_newest_first(after)
        if cut:
            assert got == [game(2).moves, game(1).moves, game(0).moves], budget
        else:  # the write went through: the oldest dropped, no other lost
            assert got == [game(8).moves, game(2).moves, game(1).moves], budget
        assert not exists(path + ".tmp")


def test_a_power_cut_between_the_renames_of_a_repair_keeps_the_records():
    folder = tmpdir("rec7")
    path = folder + "games.txt"
    write(path, b"1 two r 0/0 r 0/0 4 W\nnot a record\n2 two r 0/0 y 0/0 45 ?W\n")
    for renames in (0, 1):  # before the bad file is set aside, or after it
        write(path, b"1 two r 0/0 r 0/0 4 W\nnot a record\n2 two r 0/0 y 0/0 45 ?W\n")
        assert _cut(Records(path, fs=DyingFiles(10000, renames)), game(0))
        after = Records(path)
        got = moves_newest_first(after)
        assert got in (["45", "4"], [game(0).moves, "45", "4"]), (renames, got)  # the new one may be in
    assert got[0] == game(0).moves  # cut after the set-aside: the new file was complete


def test_a_refused_write_keeps_the_old_file_and_says_why_once():
    folder = tmpdir("rec8")
    path = folder + "games.txt"
    Records(path).append(game(0))
    before = read(path)

    class FullFlash(Files):
        def open(self, path, mode):
            if "w" in mode:
                raise OSError(28)
            return open(path, mode)
    records = Records(path, fs=FullFlash())
    assert not records.append(game(1)) and not records.append(game(2))
    assert "not saved" in records.save_error and read(path) == before
    assert not exists(path + ".tmp")


def test_a_failed_rename_after_the_set_aside_keeps_the_new_file_for_the_next_start():
    folder = tmpdir("rec9")
    path = folder + "games.txt"
    write(path, b"1 two r 0/0 r 0/0 4 W\nnot a record\n")

    class BadRename(Files):
        def rename(self, old, new):
            if old.endswith(".tmp"):
                raise OSError(5)  # the flash fails: the clean-up runs
            os.rename(old, new)
    assert not Records(path, fs=BadRename()).append(game(0))
    after = Records(path)
    assert moves_newest_first(after) == [game(0).moves, "4"]


def test_a_reader_that_pages_reads_the_offsets_once():
    path = tmpdir("rec10") + "games.txt"
    records = Records(path)
    for i in range(4):
        records.append(game(i))
    offsets = records.offsets()
    assert len(offsets) == 4 and offsets[0] == 0
    assert [records.get(i, offsets).number for i in range(4)] == [4, 3, 2, 1]
    assert records.get(4, offsets) is None and Records(tmpdir("rec11") + "none.txt").offsets() == []
