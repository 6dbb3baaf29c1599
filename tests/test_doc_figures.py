"""The docs' figures held to their one source (issue 32, item 10).

- The chip's search speed: every "N nodes/s" in the README and docs/*.md is
  tools.common.chip_nodes_per_second() (tools/data/chip.txt's record, counted
  on the emulated chip, at the slow end of the cycles an instruction assumed
  in tools/common.py), exactly or rounded to the zeros it ends in (16,700
  states 16,694); a range "A-B nodes/s" is the record's at both ends
  (tools.common.chip_speed_range()), as docs/benchmarks.md's chip section
  gives it. A `make bench` section of docs/benchmarks.md stamped before the
  record's date keeps the speed of its day (its date says which; the page's
  note says which sections). The instructions per node, where a doc gives the
  record's figure ("N instructions per node (tools/data/chip.txt"), and `make
  bench`'s speed row are the record's; the poll period and the answer time
  docs/web.md derives from the speed, and the chip column of the browser
  bench's table, follow from it.
- What the browser page downloads: docs/browser.md's "about" figures within
  10% of tools/site/build.py's download(), the count the page shows and
  `make site` prints.

When tools/data/chip.txt is recorded again, these fail until the docs say the
new figures (`make bench FIRMWARE=... BENCH_ARGS="--only chip"` records it and
rewrites its section, `--only speed` its own table; `python
tools/site/bench.py` prints the browser table).
"""
import glob
import os
import re
import tempfile

import pytest

from tools.bench import page
from tools.common import CHIP_IPS, chip_instructions_per_node, chip_nodes_per_second, chip_record, chip_speed_range

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+)"
SPEED = re.compile(NUMBER + r"(?:\s*-\s*" + NUMBER + r")? nodes/s")


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def number(text):
    return int(text.replace(",", ""))


def agrees(stated, exact):
    """`stated` is `exact`, or `exact` rounded to the trailing zeros of `stated`, keeping two
    significant digits at least (17,000 states 16,694; 20,000 does not)."""
    if stated == exact:
        return True
    digits = str(stated)
    zeros = len(digits) - len(digits.rstrip("0"))
    unit = 10 ** zeros
    return 0 < zeros <= len(digits) - 2 and (exact + unit // 2) // unit * unit == stated


def places(pattern):
    """(doc, line number, match) of every match of `pattern` in the docs (a line break
    counts as a space: a figure and its words may stand on two lines)."""
    for rel in DOCS:
        text = read(rel)
        for m in re.finditer(pattern, text.replace("\n", " ")):
            yield rel, text.count("\n", 0, m.start()) + 1, m


def record_date():
    return re.search(r"(20\d\d-\d\d-\d\d)$", chip_record()["source"]).group(1)


def older_sections(rel):
    """The line spans (first, last) of the `make bench` sections of `rel` stamped before the
    record's date: they keep the chip's speed of their day."""
    text = read(rel)
    out = []
    for m in re.finditer(re.escape(page.BEGIN % "X").replace("X", r"(\w+)"), text):
        end = text.index(page.END % m.group(1), m.end())
        stamp = re.search(r"Measured (20\d\d-\d\d-\d\d) by", text[m.end():end])
        if stamp and stamp.group(1) < record_date():
            out.append((text.count("\n", 0, m.start()) + 1, text.count("\n", 0, end) + 1))
    return out


def in_older_section(rel, line):
    return any(first <= line <= last for first, last in older_sections(rel))


def test_agrees_accepts_the_figure_and_its_roundings_only():
    assert agrees(16694, 16694) and agrees(16690, 16694) and agrees(16700, 16694) and agrees(17000, 16694)
    assert not agrees(16753, 16694) and not agrees(16750, 16694) and not agrees(15035, 16694)
    assert not agrees(20000, 16694) and not agrees(16000, 16694)


def test_every_chip_speed_in_the_docs_is_the_records():
    rate = chip_nodes_per_second()
    real = chip_speed_range()
    wrong = []
    found = 0
    for rel, line, m in places(SPEED):
        found += 1
        if in_older_section(rel, line):
            continue
        if m.group(2):
            if (number(m.group(1)), number(m.group(2))) != real:
                wrong.append("%s:%d: %s (the record gives %d-%d: tools.common.chip_speed_range())" % (
                    rel, line, m.group(0), real[0], real[1]))
        elif not agrees(number(m.group(1)), rate):
            wrong.append("%s:%d: %s (tools/data/chip.txt gives %s nodes/s)" % (rel, line, m.group(0),
                                                                              format(rate, ",")))
    assert found >= 5
    assert not wrong, "\n".join(wrong)


def test_the_records_instructions_per_node_where_the_docs_give_it():
    ipn = chip_instructions_per_node()
    stated = list(places(NUMBER + r" instructions per node \(tools/data/chip\.txt"))
    rows = list(places(r"(\d+) M instructions/s / (\d+) instructions per node \| (\d+) \|"))
    assert stated and rows
    for rel, line, m in stated:
        assert number(m.group(1)) == ipn, "%s:%d says %s, tools/data/chip.txt %d" % (rel, line, m.group(0), ipn)
    for rel, line, m in rows:  # make bench's speed table
        assert (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (
            round(CHIP_IPS / 1e6), ipn, chip_nodes_per_second()), \
            "%s:%d: %s (run make bench BENCH_ARGS=\"--only speed\")" % (rel, line, m.group(0))


def test_what_docs_web_md_derives_from_the_speed():
    rate = chip_nodes_per_second()
    text = " ".join(read("docs/web.md").split())
    poll = re.search(r"every (\d+) nodes, about (\d+) ms at the chip estimate of " + NUMBER + " nodes/s", text)
    assert poll, "docs/web.md no longer says the poll period"
    nodes, ms = int(poll.group(1)), int(poll.group(2))
    assert abs(ms - nodes * 1000.0 / rate) < 1, poll.group(0)
    # the answer time: a count of polls and its time at the speed, or none (the poll that takes
    # a connection answers it: the project's own server)
    answer = re.search(r"at most (\d+) polls[^.]*?about (\d+) ms on the chip estimate", text)
    if answer is None:
        assert "none, the answer comes in the poll that takes it" in text, \
            "docs/web.md no longer says the answer time"
    else:
        assert abs(int(answer.group(2)) - int(answer.group(1)) * nodes * 1000.0 / rate) < 1, answer.group(0)


def test_the_browser_benchs_chip_column_is_its_nodes_at_the_records_speed():
    text = read("docs/benchmarks.md")
    section = text[text.index("### Level 8 in the browser"):]
    nodes = number(re.search(NUMBER + " nodes a move on average", section).group(1))
    row = re.search(r"\| ESP32-C3 estimate \(" + NUMBER + r" nodes/s, tools/data/chip\.txt\) \| (\d+) \|", section)
    assert row, "the browser table has no chip row"
    assert agrees(number(row.group(1)), chip_nodes_per_second())
    assert abs(int(row.group(2)) - nodes * 1000.0 / chip_nodes_per_second()) < 1, row.group(0)


def test_docs_browser_md_says_what_make_site_counts():
    from tools.site import build
    if not os.path.isdir(build.WASM_DIR):
        pytest.skip("node_modules' MicroPython (npm ci) is not installed: make site needs it")
    with tempfile.TemporaryDirectory(prefix="site-") as folder:
        parts = build.build(folder)
    text = " ".join(read("docs/browser.md").split())
    section = text[text.index("## What the page downloads"):text.index("## How it runs")]
    stated = {
        "total": re.search(r"About ([\d.]+) MB", section),
        "micropython": re.search(r"MicroPython \([^)]*?about " + NUMBER + " KB", section),
        "firmware": re.search(r"the firmware \(about " + NUMBER + " KB", section),
        "book": re.search(r"the opening book \([^)]*?about " + NUMBER + " KB", section),
    }
    missing = [k for k, m in stated.items() if m is None]
    assert not missing, "docs/browser.md does not say: %s" % missing
    for part, m in stated.items():
        kb = float(m.group(1)) * 1024 if part == "total" else number(m.group(1))
        exact = parts[part] / 1024.0
        assert abs(kb - exact) <= 0.1 * exact, "docs/browser.md: %s, make site counts %.0f KB" % (m.group(0), exact)


def test_a_section_older_than_the_record_is_the_only_exception():
    """The people section (measured 2026-11-25, before the record of 2026-11-26) keeps its
    day's speed; the chip's own section, stamped with the record, does not."""
    spans = older_sections("docs/benchmarks.md")
    text = read("docs/benchmarks.md")
    line = lambda s: text.count("\n", 0, text.index(s)) + 1  # noqa: E731
    assert any(a <= line(page.BEGIN % "people") <= b for a, b in spans)
    assert not any(a <= line(page.BEGIN % "chip") <= b for a, b in spans)
    assert not older_sections("README.md")
