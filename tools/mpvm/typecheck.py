"""Type-check firmware/ against the ESP32-C3 MicroPython stubs (part of `make test`).

    python tools/mpvm/typecheck.py [--install] [FILE_OR_DIR ...]

The pinned stubs of requirements-stubs.txt go into build/c3stubs with
`pip install --target`, apart from the venv, and serve as mypy's typeshed
(mypy.ini): the firmware sees the chip's `machine`, `time`, `sys`, ... and
not CPython's, so calling what the chip lacks is an error. typings/viper.pyi,
the viper casts (`ptr8` ...), is appended to the stubs' builtins.
The port's modules are moved into the typeshed's stdlib folder.
--install only (re)installs the stubs; paths replace firmware/ as the files checked.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.common import ROOT  # noqa: E402

STUBS = os.path.join(ROOT, "build", "c3stubs")
REQUIREMENTS = os.path.join(ROOT, "requirements-stubs.txt")
SHIM = os.path.join(ROOT, "typings", "viper.pyi")
STAMP = os.path.join(STUBS, ".installed")


def _read(path):
    with open(path) as f:
        return f.read()


def installed():
    """True when build/c3stubs holds exactly the pinned stubs and the current shim."""
    return os.path.exists(STAMP) and _read(STAMP) == _read(REQUIREMENTS) + _read(SHIM)


def install():
    if installed():
        return
    shutil.rmtree(STUBS, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--no-compile", "--target", STUBS, "-r", REQUIREMENTS], check=True)
    stdlib = os.path.join(STUBS, "stdlib")
    # The port's modules join the stdlib folder (a port module wins over a
    # stdlib one of the same name): mypy then treats them all as the standard
    # library, and reports findings in the firmware only, not in the stubs.
    added = []
    for name in sorted(os.listdir(STUBS)):
        if name in ("stdlib", "stubs", "bin") or name.endswith(".dist-info") or name.startswith("."):
            continue
        module = name[:-4] if name.endswith(".pyi") else name
        if not (name.endswith(".pyi") or os.path.isdir(os.path.join(STUBS, name))):
            continue
        for old in (module, module + ".pyi"):
            old = os.path.join(stdlib, old)
            if os.path.isdir(old):
                shutil.rmtree(old)
            elif os.path.exists(old):
                os.remove(old)
        os.rename(os.path.join(STUBS, name), os.path.join(stdlib, name))
        added.append(module)
    with open(os.path.join(stdlib, "VERSIONS"), "a") as f:
        f.write("\n" + "".join("%s: 3.0-\n" % m for m in added))
    with open(os.path.join(stdlib, "builtins.pyi"), "a") as f:
        f.write("\n\n" + _read(SHIM))
    with open(STAMP, "w") as f:
        f.write(_read(REQUIREMENTS) + _read(SHIM))


def check(paths=()):
    """mypy's CompletedProcess (text output) over firmware/, or over `paths` instead."""
    install()
    cmd = [sys.executable, "-m", "mypy", "--config-file", os.path.join(ROOT, "mypy.ini")]
    cmd += list(paths)
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def main(argv):
    if "--install" in argv:
        install()
        return 0
    r = check(argv)
    sys.stdout.write(r.stdout + r.stderr)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
