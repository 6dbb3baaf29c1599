"""Paired phones kept on flash (issue 32): a token stays valid across restarts, kept only as
its SHA-256, at most MAX_TOKENS of them (the oldest goes), the file read at first use, a
corrupt file gives no paired phones (said, kept aside) and never a crash, and "forget"
drops them all, on flash too. Runs in the MicroPython VM too."""
import os

from connect4.net.pairing import Pairing, MAX_TOKENS, FILE, digest
from checks import said
from fakes import tmpdir
from test_app_store import exists


def read(path):
    with open(path, "rb") as f:
        return f.read()


def paired(flash, n):
    """n tokens from a Pairing on `flash` (each for the code it shows then)."""
    p = Pairing(flash)
    return p, [p.pair(p.code) for _ in range(n)]


def bearer(token):
    return "Bearer " + token


def test_a_token_holds_across_a_restart_and_only_its_hash_is_on_flash():
    flash = tmpdir("pair1")
    p, tokens = paired(flash, 2)
    assert all(p.check(bearer(t)) for t in tokens)
    data = read(flash + FILE)
    for t in tokens:
        assert t.encode() not in data  # never in clear
    assert data == digest(tokens[0]) + digest(tokens[1])  # their SHA-256, oldest first
    again = Pairing(flash)  # the board started again: a new code, the same phones
    assert all(again.check(bearer(t)) for t in tokens)
    assert not again.check(bearer("0" * 24)) and not again.check(None) and not again.check("Bearer ")
    assert not again.check(bearer(tokens[0] + "0")) and not again.check(bearer(tokens[0][:-1]))


def test_at_most_max_tokens_are_kept_the_oldest_goes():
    flash = tmpdir("pair2")
    p, tokens = paired(flash, MAX_TOKENS + 1)
    assert not p.check(bearer(tokens[0])) and p.revoked == 1
    assert all(p.check(bearer(t)) for t in tokens[1:])
    assert read(flash + FILE) == b"".join(digest(t) for t in tokens[1:])
    again = Pairing(flash)
    assert not again.check(bearer(tokens[0])) and all(again.check(bearer(t)) for t in tokens[1:])
    assert again.revoked == 0  # counted since start: the pages' cue to check their token


def test_the_file_is_read_at_first_use_only_and_ram_holds_only_digests_not_its_code():
    flash = tmpdir("pair3")
    _, tokens = paired(flash, 2)
    p = Pairing(flash)
    assert p.digests is None  # not read yet
    assert p.check(bearer(tokens[1]))
    assert p.digests == [digest(tokens[0]), digest(tokens[1])]
    assert all(isinstance(d, bytes) and len(d) == 32 for d in p.digests)
    import sys
    import connect4.net
    assert "connect4.net.paired" not in sys.modules  # the file's code, dropped once used
    assert not hasattr(connect4.net, "paired")


def test_a_corrupt_file_means_no_paired_phones_said_and_kept_aside_never_a_crash():
    flash = tmpdir("pair4")
    _, tokens = paired(flash, 1)
    good = read(flash + FILE)
    for bad in (b"not a digest\n", good[:31], good + b"\n", good * (MAX_TOKENS + 1), b"\x00" * 65):
        with open(flash + FILE, "wb") as f:
            f.write(bad)
        p = Pairing(flash)
        lines = said(lambda: p.check(bearer(tokens[0])))
        assert len(lines) == 1 and "corrupt" in lines[0] and FILE in lines[0], (bad, lines)
        assert p.digests == [] and not p.check(bearer(tokens[0]))
        assert exists(flash + FILE + ".bad") and not exists(flash + FILE)
    token = p.pair(p.code)  # pairing works again, and writes a good file
    assert Pairing(flash).check(bearer(token))


def test_an_empty_or_missing_file_is_no_phones_without_a_word():
    flash = tmpdir("pair5")
    p = Pairing(flash)
    assert said(lambda: p.check(bearer("ab" * 12))) == [] and p.digests == []
    with open(flash + FILE, "w") as f:
        f.write("")
    p = Pairing(flash)
    assert said(lambda: p.check(bearer("ab" * 12))) == [] and p.digests == []


def test_forget_drops_every_phone_on_flash_too_and_draws_a_new_code():
    flash = tmpdir("pair6")
    p, tokens = paired(flash, 3)
    codes = set()
    for _ in range(5):  # a new code each time (4 digits: the same one by chance is rare)
        code = p.code
        assert p.forget() is True
        codes.add(p.code != code)
    assert True in codes
    assert p.revoked == 5 and not any(p.check(bearer(t)) for t in tokens)
    assert read(flash + FILE) == b""
    assert not any(Pairing(flash).check(bearer(t)) for t in tokens)
    token = p.pair(p.code)
    assert Pairing(flash).check(bearer(token))


def test_a_write_cut_short_leaves_the_old_phones_or_the_new_ones():
    flash = tmpdir("pair7")
    _, tokens = paired(flash, 1)
    with open(flash + FILE + ".tmp", "w") as f:  # cut before the rename: the file is the truth
        f.write("half")
    assert Pairing(flash).check(bearer(tokens[0])) and not exists(flash + FILE + ".tmp")
    os.rename(flash + FILE, flash + FILE + ".tmp")  # only the finished temporary file: it is the truth
    assert Pairing(flash).check(bearer(tokens[0])) and exists(flash + FILE)


def test_a_flash_that_refuses_is_said_once_and_the_token_holds_until_the_restart():
    flash = tmpdir("pair8")
    os.mkdir(flash + FILE)  # a folder where the file should be
    with open(flash + FILE + "/kept", "w") as f:  # not empty: no filesystem renames a file over it
        f.write("x")
    try:
        p = Pairing(flash)
        tokens = []
        lines = said(lambda: tokens.append(p.pair(p.code)))
        assert p.check(bearer(tokens[0]))
        # (the VM's filesystem opens a folder, then cannot read it: said too)
        assert 1 <= len(lines) <= 2 and "paired phones not saved" in lines[-1], lines
        assert said(lambda: p.pair(p.code)) == []  # said once
        assert p.forget() is False  # forgotten in RAM only: the caller says so
    finally:
        os.remove(flash + FILE + "/kept")
        os.rmdir(flash + FILE)


def test_without_a_flash_folder_nothing_is_written():
    p = Pairing()
    token = p.pair(p.code)
    assert p.check(bearer(token)) and p.forget() is True and not p.check(bearer(token))
