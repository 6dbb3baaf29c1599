"""Pairing: a short code shown on the matrix buys a session token for writes.

Reads are open to the network the board is on; every write needs
`Authorization: Bearer <token>`, a token that `pair(code)` hands out for the
code the board shows. Wrong codes are counted: after MAX_TRIES in a row the
pairing is locked for LOCK_MS (10,000 codes at 5 tries a minute would take
days), and a new code is drawn.

A paired phone stays paired across restarts and power cuts: the tokens' SHA-256
digests (never the tokens) are kept in FILE beside the settings
(connect4.net.paired), read at the first check, not before; RAM holds only the
digests (32 bytes each). At most MAX_TOKENS: a new one pushes out the oldest. A
corrupt file means no paired phones (said on the console), never a crash.
`forget()` drops them all and draws a new code. `revoked` counts the tokens
dropped since start (forgotten or pushed out): the live state carries it, so a
page re-checks its own token when it changes.
"""
from micropython import const
from time import ticks_ms, ticks_diff

CODE_DIGITS = const(4)
TOKEN_BYTES = const(12)
MAX_TOKENS = const(4)
MAX_TRIES = const(5)
LOCK_MS = const(60000)
FILE = "paired.bin"  # connect4.net.paired reads and writes it


def random_bytes(n):
    """n random bytes: os.urandom (the ESP32's hardware RNG); ports without it (the test
    VM) use `random`, which MicroPython seeds from the hardware where there is one."""
    try:
        import os
        return os.urandom(n)
    except Exception:
        import random
        return bytes([random.getrandbits(8) for _ in range(n)])


def digest(token):
    """What is kept of a token: its SHA-256 (32 bytes)."""
    import hashlib
    return hashlib.sha256(token.encode()).digest()


class Pairing:
    """flash_dir: where FILE is kept (the config's flash_dir); None: in RAM only (tests)."""

    def __init__(self, flash_dir=None, randbytes=None, clock_ms=None):
        self.path = None if flash_dir is None else flash_dir + FILE
        self.randbytes = randbytes or random_bytes
        self.clock_ms = clock_ms or ticks_ms
        self.digests = None  # the paired tokens' digests, oldest first; read at first use
        self.revoked = 0
        self.save_error = None  # why the first refused write was refused (said once)
        self.misses = 0
        self.locked_at = None
        self.shown = None  # shown(code): told of every code drawn after the first (the board shows it)
        self.code = self.new_code()

    def new_code(self):
        """A fresh code of CODE_DIGITS digits (what the matrix shows): a forget's, or the
        lock's after wrong codes; `shown` hears it, so that the board shows the code a
        phone must now read."""
        b = self.randbytes(4)
        n = (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24) % (10 ** CODE_DIGITS)
        self.code = "%04d" % n
        if self.shown is not None:
            self.shown(self.code)
        return self.code

    def locked(self):
        if self.locked_at is None:
            return False
        if ticks_diff(self.clock_ms(), self.locked_at) >= LOCK_MS:
            self.locked_at = None
            self.misses = 0
            return False
        return True

    def pair(self, code):
        """A new token for the right code; None for a wrong one, "locked" while locked."""
        if self.locked():
            return "locked"
        if not isinstance(code, str) or code != self.code:
            self.misses += 1
            if self.misses >= MAX_TRIES:
                self.locked_at = self.clock_ms()
                self.new_code()
            return None
        self.misses = 0
        token = "".join("%02x" % b for b in self.randbytes(TOKEN_BYTES))
        digests = self._digests()
        digests.append(digest(token))
        if len(digests) > MAX_TOKENS:
            digests.pop(0)
            self.revoked += 1
        self._save()  # refused: the token holds until the board restarts (said on the console)
        return token

    def check(self, header):
        """Is `header` (the Authorization header, or None) a valid session?"""
        return self.who(header) is not None

    def who(self, header):
        """The digest of the session `header` holds (which phone or board it is), or None."""
        if not isinstance(header, str) or not header.startswith("Bearer "):
            return None
        token = header[7:].strip()
        if not token:
            return None
        # a plain `in`: a digest's prefix tells nothing of the token, so an early exit leaks nothing
        d = digest(token)
        return d if d in self._digests() else None

    def forget(self):
        """Every paired phone forgotten (the menu's item, POST /api/forget) and a new code:
        a phone that saw the old one must read the matrix again. False if the flash refused
        (then they are forgotten only until the board restarts)."""
        self.digests = []
        self.revoked += 1
        self.new_code()
        return self._save()

    # ---- the file (connect4.net.paired, loaded for each read or write only)
    def _digests(self):
        if self.digests is None:
            self.digests = [] if self.path is None else self._file(False)
        return self.digests

    def _save(self):
        return True if self.path is None else self._file(True)

    def _file(self, write):
        from connect4.net import paired
        from connect4.modules import forget
        try:
            return paired.save(self) if write else paired.load(self.path, MAX_TOKENS)
        finally:
            forget("connect4.net.paired")
