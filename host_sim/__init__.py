"""Host simulator: runs the unmodified firmware on CPython.

Importing this package puts the MicroPython stubs (``host_sim/stubs``) and the
firmware tree (``firmware/``) on ``sys.path``, so ``import micropython`` and
``import connect4`` resolve exactly as they do on the board, and adds
MicroPython's ``time.ticks_*``/``sleep_ms`` to CPython's ``time`` and its
``sys.print_exception`` to ``sys``.
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
    if not hasattr(sys, "print_exception"):
        sys.print_exception = _print_exception


def _print_exception(exc, file=None):
    """MicroPython's sys.print_exception on CPython (the firmware's error log uses it)."""
    import traceback
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=file or sys.stdout)


install()
