"""Portable smoke test: runs under pytest (CPython) and tests/portable/runner.py
(MicroPython VM), so the two-interpreter pipeline is exercised."""
import micropython


def test_const_is_identity():
    assert micropython.const(3) == 3
