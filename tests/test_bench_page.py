"""docs/benchmarks.md is written by `make bench --out`, a section at a time (tools/bench/page.py).

A partial run rewrites its own sections between their markers, with the date and
the command, and keeps the others and the notes written outside the markers; the
page carries the markers of every section bench.py writes, each with a date and a
command. No benchmark runs here: the report is made up, the writing is real.
"""
import os
import re

from tools.bench import page
from tools.common import ROOT

PAGE = os.path.join(ROOT, "docs", "benchmarks.md")
BENCH = os.path.join(ROOT, "tools", "bench", "bench.py")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def parts_bench_writes():
    return set(re.findall(r"""say\.part\("(\w+)"\)""", read(BENCH)))


OLD = """# Benchmarks

## Speed

%s
old speed table
%s

A note by hand about speed.

## Ladder

%s
old ladder table
%s
""" % (page.BEGIN % "speed", page.END % "speed", page.BEGIN % "ladder", page.END % "ladder")


def test_a_partial_run_rewrites_its_sections_and_keeps_the_others(tmp_path):
    path = tmp_path / "benchmarks.md"
    path.write_text(OLD)
    lines = ["### Speed", "", "| where | nodes per second |", "", "### Stack", "| a | 1 |", ""]
    marks = [("speed", 0, 100.0), ("stack", 4, 130.0)]
    page.write(str(path), lines, marks, 142.0, ["--only", "speed", "--out", str(path)], date="2026-01-02")
    text = path.read_text()
    assert "old speed table" not in text and "| where | nodes per second |" in text
    assert "old ladder table" in text and "A note by hand about speed." in text
    assert 'Measured 2026-01-02 by `make bench BENCH_ARGS="--only speed"` (this section: 30 s).' in text
    assert "(this section: 12 s)" in text  # the stack: from its mark to the end of the run
    assert text.index("## Speed") < text.index("| where |") < text.index("A note by hand")
    assert text.count(page.BEGIN % "stack") == 1 and text.rstrip().endswith(page.END % "stack")
    again = page.update(text, [("speed", page.block("speed", ["new"], "stamp"))])
    assert "| where |" not in again and "\nnew\n" in again and "old ladder table" in again


def test_a_file_without_markers_gets_the_report_alone(tmp_path):
    path = tmp_path / "report.md"
    path.write_text("an old report\n")
    page.write(str(path), ["### Levels", "| 1 |"], [("levels", 0, 0.0)], 5.0, ["--only", "levels"],
               date="2026-01-02")
    text = path.read_text()
    assert "an old report" not in text and text.startswith(page.BEGIN % "levels")


def test_the_command_leaves_out_where_the_report_went():
    assert page.command([]) == "make bench"
    assert page.command(["--only", "sets", "--out", "docs/benchmarks.md"]) == 'make bench BENCH_ARGS="--only sets"'
    assert page.command(["--quick", "--out=x.md"]) == 'make bench BENCH_ARGS="--quick"'


def test_the_page_has_every_section_bench_writes_each_dated_with_its_command():
    text = read(PAGE)
    names = parts_bench_writes()
    assert {"speed", "stack", "memory", "accuracy", "levels", "perfect", "sets", "ladder"} <= names
    for name in names:
        begin, end = page.BEGIN % name, page.END % name
        assert text.count(begin) == 1 and text.count(end) == 1, name
        body = text[text.index(begin):text.index(end)]
        if "Not yet on this page" in body:
            continue
        assert re.search(r"20\d\d-\d\d-\d\d", body), name
        assert "make bench" in body or "make memory" in body, name
