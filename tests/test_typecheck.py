"""firmware/ type-checks against the ESP32-C3 MicroPython stubs (tools/mpvm/typecheck.py,
mypy.ini): the firmware calls only what the chip's MicroPython has."""
from tools.mpvm import typecheck


def test_firmware_type_checks_against_the_chip_stubs():
    r = typecheck.check()
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success: no issues found" in r.stdout


def test_a_call_the_chip_lacks_fails(tmp_path):
    """The check can fail: a missing method of machine.Pin, and CPython's
    time.perf_counter (the stubs replace CPython's standard library)."""
    probe = tmp_path / "probe_missing.py"
    probe.write_text("import machine\nimport time\n\n\ndef f():\n"
                     "    machine.Pin.nonexistent()\n    time.sleep_ms(1)\n    time.perf_counter()\n")
    r = typecheck.check([str(probe)])
    assert r.returncode == 1, r.stdout + r.stderr
    assert '"type[Pin]" has no attribute "nonexistent"' in r.stdout
    assert 'Module has no attribute "perf_counter"' in r.stdout
    assert "sleep_ms" not in r.stdout


def test_viper_casts_type_check(tmp_path):
    probe = tmp_path / "probe_viper.py"
    probe.write_text("import micropython\n\n\n@micropython.viper\ndef f(buf, n: int) -> int:\n"
                     "    p = ptr8(buf)\n    p[0] = n\n    return int(p[0]) + uint(n)\n")
    r = typecheck.check([str(probe)])
    assert r.returncode == 0, r.stdout + r.stderr
