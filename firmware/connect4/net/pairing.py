"""Pairing: a short code shown on the matrix buys a session token for writes.

Reads are open to the network the board is on; every write needs
`Authorization: Bearer <token>`, a token that `pair(code)` hands out for the
code the board shows. Wrong codes are counted: after MAX_TRIES in a row the
pairing is locked for LOCK_MS (10,000 codes at 5 tries a minute would take
days), and a new code is drawn. At most MAX_TOKENS sessions are kept; the
oldest goes first.
"""
from micropython import const
from time import ticks_ms, ticks_diff

CODE_DIGITS = const(4)
TOKEN_BYTES = const(12)
MAX_TOKENS = const(4)
MAX_TRIES = const(5)
LOCK_MS = const(60000)


def random_bytes(n):
    """n random bytes: os.urandom (the ESP32's hardware RNG); ports without it (the test
    VM) use `random`, which MicroPython seeds from the hardware where there is one."""
    try:
        import os
        return os.urandom(n)
    except Exception:
        import random
        return bytes([random.getrandbits(8) for _ in range(n)])


class Pairing:
    def __init__(self, randbytes=None, clock_ms=None):
        self.randbytes = randbytes or random_bytes
        self.clock_ms = clock_ms or ticks_ms
        self.tokens = []
        self.misses = 0
        self.locked_at = None
        self.code = self.new_code()

    def new_code(self):
        """A fresh code of CODE_DIGITS digits (what the matrix shows)."""
        b = self.randbytes(4)
        n = (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24) % (10 ** CODE_DIGITS)
        self.code = "%04d" % n
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
        self.tokens.append(token)
        if len(self.tokens) > MAX_TOKENS:
            self.tokens.pop(0)
        return token

    def check(self, header):
        """Is `header` (the Authorization header, or None) a valid session?"""
        if not isinstance(header, str) or not header.startswith("Bearer "):
            return False
        token = header[7:].strip()
        ok = False
        for t in self.tokens:  # compare with every token: no early exit on a match
            if len(t) == len(token) and _same(t, token):
                ok = True
        return ok


def _same(a, b):
    diff = 0
    for i in range(len(a)):
        diff |= ord(a[i]) ^ ord(b[i])
    return diff == 0
