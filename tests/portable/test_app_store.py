"""Settings file: defaults, round trip, corrupt files kept aside, failed and interrupted writes."""
import os

from connect4.app import store
from connect4.app.store import Store, DEFAULTS, Files
from connect4.app.storeload import load
from fakes import tmpdir
from checks import said


def write(path, text):
    f = open(path, "w")
    f.write(text)
    f.close()


def read(path):
    f = open(path)
    try:
        return f.read()
    finally:
        f.close()


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def test_missing_file_gives_defaults_and_save_round_trips():
    path = tmpdir("store1") + "c4.json"
    s = Store(path)
    assert load(s) == "missing" and s.settings == DEFAULTS
    s.settings["level"] = 7
    s.settings["mode"] = "two"
    s.record_ai(7, 0)
    s.record_ai(7, 2)
    s.record_two(1)
    assert s.save()
    t = Store(path)
    assert load(t) == "ok"
    assert t.settings["level"] == 7 and t.settings["mode"] == "two"
    assert t.stats["ai"][6] == [1, 0, 1] and t.stats["two"] == [0, 1, 0]
    assert not exists(path + ".tmp")


def test_corrupt_truncated_or_unknown_files_give_defaults_and_are_kept_aside():
    folder = tmpdir("store2")
    good = Store(folder + "good.json")
    load(good)
    good.settings["level"] = 2
    good.save()
    text = read(folder + "good.json")
    cases = [text[:len(text) // 2], "", "not json at all", "[1, 2, 3]",
             text.replace('"version": 1', '"version": 99'), "\xff\xfe{"]
    for i, bad in enumerate(cases):
        path = folder + "bad%d.json" % i
        write(path, bad)
        s = Store(path)
        assert load(s) == "corrupt", bad
        assert s.settings == DEFAULTS
        assert read(path + ".bad") == bad
        assert not exists(path)
        assert s.save() and load(Store(path)) == "ok"


def test_defaults_from_the_config():
    path = tmpdir("store7") + "c4.json"
    s = Store(path, defaults={"brightness": 6, "level": 99})
    assert load(s) == "missing"
    assert s.settings["brightness"] == 6 and s.settings["level"] == DEFAULTS["level"]


def test_bad_values_fall_back_one_by_one():
    path = tmpdir("store3") + "c4.json"
    write(path, '{"version": 1, "settings": {"level": 99, "mode": "ai", "brightness": 2, '
                '"first": "nobody", "blunder": 7, "extra": 1, "wifi": "on"}, '
                '"stats": {"ai": [[1, 2, 3], "x", [-1, 0, 0]], "two": [4, 5]}}')
    s = Store(path)
    assert load(s) == "ok"
    assert s.settings == {"mode": "ai", "level": DEFAULTS["level"], "first": DEFAULTS["first"],
                          "blunder": DEFAULTS["blunder"], "brightness": 2, "size": "7x6",
                          "wifi": False}
    assert s.stats["ai"][0] == [1, 2, 3] and s.stats["ai"][1] == [0, 0, 0]
    assert s.stats["ai"][2] == [0, 0, 0] and s.stats["two"] == [0, 0, 0]


class FlakyFiles(Files):
    """Files that fail: a write that runs out of space, or a power cut before the rename."""

    def __init__(self, fail_write=False, fail_rename=False):
        self.fail_write = fail_write
        self.fail_rename = fail_rename

    def open(self, path, mode):
        f = open(path, mode)
        if "w" in mode and self.fail_write:
            return FullFile(f)
        return f

    def rename(self, old, new):
        if self.fail_rename:
            raise OSError(5)  # the power went before the rename
        os.rename(old, new)


class FullFile:
    def __init__(self, f):
        self.f = f

    def write(self, text):
        self.f.write(text[:10])
        raise OSError(28)  # ENOSPC

    def close(self):
        self.f.close()


def saved(path, level):
    s = Store(path)
    load(s)
    s.settings["level"] = level
    assert s.save()
    return read(path)


def test_a_failed_write_keeps_the_old_file():
    path = tmpdir("store4") + "c4.json"
    before = saved(path, 3)
    s = Store(path, FlakyFiles(fail_write=True))
    assert load(s) == "ok"
    s.settings["level"] = 8
    assert s.save() is False
    assert read(path) == before and not exists(path + ".tmp")
    t = Store(path)
    assert load(t) == "ok" and t.settings["level"] == 3


def test_a_write_interrupted_between_temp_file_and_rename_loses_nothing():
    path = tmpdir("store5") + "c4.json"
    before = saved(path, 5)
    s = Store(path, FlakyFiles(fail_rename=True))
    load(s)
    s.settings["level"] = 6
    assert s.save() is False
    # the power was cut: the next boot finds the old file intact
    t = Store(path)
    assert load(t) == "ok" and t.settings["level"] == 5 and read(path) == before
    # a power cut after the temp file was complete, on the very first save
    path2 = tmpdir("store6") + "c4.json"
    write(path2 + ".tmp", before)
    u = Store(path2)
    assert load(u) == "recovered" and u.settings["level"] == 5
    assert exists(path2) and not exists(path2 + ".tmp")
    # a half-written temp file next to a good file is just removed
    write(path + ".tmp", before[:7])
    v = Store(path)
    assert load(v) == "ok" and not exists(path + ".tmp") and v.settings["level"] == 5


class ReadOnlyFiles(Files):
    def open(self, path, mode):
        if "w" in mode:
            raise OSError(30)  # EROFS
        return open(path, mode)


def test_a_read_only_flash_is_said_once_and_nothing_is_lost():
    path = tmpdir("store_ro") + "c4.json"
    saved(path, 2)
    s = Store(path, ReadOnlyFiles())
    assert load(s) == "ok" and s.save_error is None
    s.record_ai(2, 0)
    assert s.save() is False
    said = s.save_error
    assert said is not None and "read-only" in said and path in said
    s.record_ai(2, 0)
    assert s.save() is False and s.save_error is said  # said once, not again
    assert s.stats["ai"][1][0] == 2  # the statistics stay in memory


def test_a_folder_in_place_of_the_file_is_said():
    path = tmpdir("store_dir") + "c4.json"
    os.mkdir(path)
    write(path + "/kept", "x")  # not empty: no filesystem renames a file over it
    s = Store(path)
    assert s.save() is False and s.save_error is not None and path in s.save_error
    assert exists(path) and not exists(path + ".tmp")


def test_a_corrupt_or_unsupported_size_falls_back_to_7x6_with_a_logged_line():
    for bad in ('"9x9"', '"3x4"', '"8x8"', '"7x6x1"', '"big"', '76', '"07x6"', 'null', '[8, 7]'):
        path = tmpdir("store_size") + "c4.json"
        write(path, '{"version": 1, "settings": {"size": %s, "level": 2}, "stats": {}}' % bad)
        s = Store(path)
        lines = said(lambda: load(s))
        assert s.status == "ok" and s.settings["size"] == "7x6" and s.settings["level"] == 2, bad
        assert len(lines) == 1 and lines[0].startswith("settings: bad size ") and "'7x6' instead" in lines[0], lines
    for good in ("4x4", "8x7", "5x4", "7x6"):
        path = tmpdir("store_size") + "c4.json"
        write(path, '{"version": 1, "settings": {"size": "%s"}}' % good)
        s = Store(path)
        assert said(lambda: load(s)) == [] and s.settings["size"] == good


def test_statistics_are_kept_per_board_size():
    path = tmpdir("store_sizes") + "c4.json"
    s = Store(path)
    load(s)
    s.record_ai(3, 0)  # 7x6: the top level, as before sizes
    s.record_ai(3, 1, "5x4")
    s.record_ai(3, 1, "5x4")
    s.record_two(2, "8x7")
    assert s.stats["ai"][2] == [1, 0, 0] and s.stats["two"] == [0, 0, 0]
    assert store.table(s.stats, "5x4")["ai"][2] == [0, 2, 0]
    assert store.table(s.stats, "8x7")["two"] == [0, 0, 1]
    assert store.table(s.stats, "7x6") is s.stats
    assert s.save()
    t = Store(path)
    assert load(t) == "ok"
    assert t.stats["ai"][2] == [1, 0, 0] and store.table(t.stats, "5x4")["ai"][2] == [0, 2, 0]
    assert store.table(t.stats, "8x7")["two"] == [0, 0, 1]
    # a bad size's or a bad table's entry is dropped, the rest kept
    write(path, '{"version": 1, "stats": {"sizes": {"9x9": {"two": [1, 1, 1]}, "5x4": [1], '
                '"4x4": {"two": [1, 2, 3], "ai": "x"}}}}')
    u = Store(path)
    assert load(u) == "ok"
    assert sorted(u.stats["sizes"]) == ["4x4"] and u.stats["sizes"]["4x4"]["two"] == [1, 2, 3]
    assert u.stats["sizes"]["4x4"]["ai"][0] == [0, 0, 0]


class PieceFiles(Files):
    """Files that note the length of every write to the settings' temporary file."""

    def __init__(self):
        self.writes = []

    def open(self, path, mode):
        f = open(path, mode)
        if "w" not in mode:
            return f
        writes = self.writes

        class Noted:
            def write(self, data):
                writes.append(len(data))
                return f.write(data)

            def close(self):
                f.close()
        return Noted()


def test_the_file_goes_out_in_pieces_however_many_sizes_were_played():
    """Issue 36: the statistics grow a table a board size played; the file is written a piece at
    a time (none over 256 bytes), never as one string of it all, and reads back the same."""
    path = tmpdir("store_pieces") + "c4.json"
    fs = PieceFiles()
    s = Store(path, fs)
    load(s)
    for cols in range(4, 9):
        for rows in range(4, 8):
            s.record_ai(3, 1, "%dx%d" % (cols, rows))
            s.record_two(2, "%dx%d" % (cols, rows))
    assert s.save()
    again = Store(path)
    assert load(again) == "ok" and again.stats == s.stats and again.settings == s.settings
    assert sum(fs.writes) > 2000 and max(fs.writes) <= 256, (sum(fs.writes), max(fs.writes))
