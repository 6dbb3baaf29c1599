"""Host simulator: runs the unmodified firmware on CPython.

Importing this package puts the MicroPython stubs (``host_sim/stubs``) and the
firmware tree (``firmware/``) on ``sys.path``, so ``import micropython`` and
``import connect4`` resolve exactly as they do on the board, and adds
MicroPython's ``time.ticks_*``/``sleep_ms`` to CPython's ``time``.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STUBS = os.path.join(HERE, "stubs")
FIRMWARE = os.path.join(ROOT, "firmware")


def install():
    """Make the stubs and the firmware importable (idempotent)."""
    for path in (FIRMWARE, STUBS):
        if path not in sys.path:
            sys.path.insert(0, path)
    import micropython  # noqa: F401  (installs the viper shims into builtins)
    from host_sim import clock
    clock.install()


install()
