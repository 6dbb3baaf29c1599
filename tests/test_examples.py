"""Every command example of the README and docs/*.md runs, and prints what the page shows.

The convention (docs/developer.md, "Command examples"): in a fenced block, a line
`$ COMMAND` is an example; the lines after it, up to the next `$ ` line or the
block's end, are its output as shown (stdout and stderr together). In the shown
output a line `...` alone stands for any number of lines, and `...` inside a line
for any text (a temporary folder's name). Examples are found wherever they are, so
text may move between the README and the guides. Each runs in bash from the
repository root, the venv's programs first on the PATH (`python` is the venv's).

Lines of other blocks that start the simulator (`make sim SIM_ARGS=...`, `python -m
host_sim ...`: they draw in a terminal) have their options checked by the
simulator's own parser instead.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
PROMPT = "$ "
ELIDED = "..."


def documents():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def examples(text):
    """[(command, [shown output lines])] of the fenced blocks of `text`."""
    out = []
    for block in FENCE.findall(text):
        current = None
        for line in block.split("\n"):
            if line.startswith(PROMPT):
                current = (line[len(PROMPT):], [])
                out.append(current)
            elif current is not None and line.strip():
                current[1].append(line.rstrip())
    return out


def pattern(shown):
    """The regular expression the output must match in full."""
    parts = []
    for line in shown:
        if line.strip() == ELIDED:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(piece) for piece in line.split(ELIDED)) + r"\n")
    return "".join(parts)


def matches(output, shown):
    text = "".join(line.rstrip() + "\n" for line in output.splitlines() if line.strip())
    return re.fullmatch(pattern(shown), text, re.S) is not None


def all_examples():
    return [pytest.param(cmd, shown, id="%s: %s" % (doc, cmd[:60]))
            for doc in documents() for cmd, shown in examples(read(doc))]


@pytest.fixture(scope="module")
def path_with_venv(tmp_path_factory):
    """The venv's programs first; `make` told that the venv is made (the tests run in it)."""
    shims = tmp_path_factory.mktemp("bin")
    make = shims / "make"
    make.write_text("#!/bin/sh\nexec %s -o .venv/.installed \"$@\"\n" % shlex.quote(
        subprocess.run(["sh", "-c", "command -v make"], capture_output=True, text=True).stdout.strip()))
    make.chmod(0o755)
    return os.pathsep.join([str(shims), os.path.dirname(sys.executable), os.environ.get("PATH", "")])


@pytest.mark.parametrize("command, shown", all_examples())
def test_each_example_prints_what_it_shows(command, shown, path_with_venv):
    env = dict(os.environ, PATH=path_with_venv, TMPDIR="/tmp", PYTHONPATH=ROOT)
    for name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):  # as typed in a shell, not a sub-make of `make test`
        env.pop(name, None)
    r = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=300)
    assert matches(r.stdout, shown), "%s\nprinted:\n%s\nshown:\n%s" % (command, r.stdout, "\n".join(shown))


def simulator_lines(text):
    """The simulator's options of every other line of a block that starts it."""
    out = []
    for block in FENCE.findall(text):
        for line in block.split("\n"):
            if line.startswith(PROMPT):
                continue
            code = line.split("  #", 1)[0]
            m = re.search(r"make sim SIM_ARGS=(\"[^\"]*\"|\S+)", code)
            if m:
                out.append(shlex.split(m.group(1))[0].split())
            elif re.search(r"-m host_sim(\.sim)?\b", code):
                out.append(shlex.split(code.split("-m host_sim", 1)[1].lstrip(".sim")))
    return out


@pytest.mark.parametrize("doc", documents())
def test_the_simulators_listed_options_exist(doc):
    from host_sim import sim
    for args in simulator_lines(read(doc)):
        try:
            sim.parse_args(args)
        except SystemExit as e:
            assert e.code == 0 and "--help" in args, args


def test_the_examples_are_found_and_a_wrong_output_fails():
    text = "Some words.\n\n```\n$ echo one\none\n$ printf 'a\\nb\\nc\\n'\na\n...\nc\n```\n\n```\nmake sim\n```\n"
    found = examples(text)
    assert found == [("echo one", ["one"]), ("printf 'a\\nb\\nc\\n'", ["a", "...", "c"])]
    assert matches("a\nb\nc\n", ["a", "...", "c"]) and matches("a\nc\n", ["a", "...", "c"])
    assert not matches("a\nb\n", ["a", "...", "c"]) and not matches("one\ntwo\n", ["one"])
    assert matches("flash /tmp/sim_flash-x1y2 (temporary)\n", ["flash /tmp/sim_flash-... (temporary)"])
    assert simulator_lines('```\nmake sim SIM_ARGS="--level 8 --chip-speed"   # x\n```\n') == [
        ["--level", "8", "--chip-speed"]]
    assert len(all_examples()) >= 4
