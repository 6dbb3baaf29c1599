"""The docs' figures of the chip, each said once and held to its one source (issues 32 and 40).

Every chip speed, chip time and size (instructions a node, nodes/s, seconds
and milliseconds on the chip, the KB of a download, an image or the book)
that README.md and docs/*.md give, outside code blocks, is one of:

- in a `make bench` section of docs/benchmarks.md, written there by the
  command from its source. The chip section is the one place of
  tools/data/chip.txt's figures, and held to the record here; a section
  stamped before the record's date gives its chip times at the record of its
  own day (history, as the page says), and one stamped since is held to the
  record too; the opening book's section is held to the file and
  tools/data/book.txt;
- held here to its source (HELD: the browser page's download to `make
  site`'s count, the phone page to its .gz, the book's limit to
  tools/book/build.py, the image to tools/board/image.py, the chip's assumed
  instructions a second to tools/common.py);
- history: the paragraph, list item or table row that gives it says
  "history" and a date.

Anything else fails, naming the place: a figure said twice, or derived from
the record by hand, goes stale when the record changes; link to its one
place instead. So a new record (`make bench FIRMWARE=...
BENCH_ARGS="--only chip --out docs/benchmarks.md"`, which writes the record
and its section together) touches nothing else; tests/test_chip_record.py
holds the section to the record.
"""
import functools
import glob
import os
import re
import tempfile

import pytest

from tools.bench import opening_book, page
from tools.board import image
from tools.book import build as book_build, lookup_cost
from tools.common import CHIP_IPS, CHIP_IPS_RANGE, chip_instructions_per_node, chip_nodes_per_second, \
    chip_record
from tools.web import page as web_page
import test_sizes
from chip import test_buttons_on_chip as buttons_test

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
DATE = re.compile(r"20\d\d-\d\d-\d\d")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)

# What the sweep finds: a chip figure of one of these kinds.
KINDS = {
    "instructions a node": re.compile(NUMBER + r"(?: x86)? instructions (?:a|per) (?:search )?node"),
    "nodes a second": re.compile(NUMBER + r"(?:\s*-\s*" + NUMBER + r")? nodes(?:/s| a second| per second)"),
    "instructions a lookup": re.compile(r"lookup[^.|]*?\b" + NUMBER + r" instructions"),
    "time on the chip": re.compile(NUMBER + r"(?:\s*(?:-|/)\s*" + NUMBER + r")? (?:s|ms)\b"),
    "size": re.compile(NUMBER + r"[ -](?:KB|MB|KiB|MiB|bytes)\b"),
}
# the words near a time that make it a chip time, and near a size that make it one of a
# download, an image or the book (within NEAR characters of the figure)
CHIP_WORDS = re.compile(r"\bchip\b|ESP32-C3|\bC3\b", re.I)
SIZE_WORDS = re.compile(r"\bbook\b|download|\bimage\b|(?<![\w])\.bin\b|filesystem|gzip", re.I)
NEAR = 50


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def number(text):
    return float(text.replace(",", ""))


def units(text):
    """(first line, text) of each paragraph, list item and table row of `text`, code blocks
    blanked (their commands and output are tests/test_examples.py's)."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out, start, lines = [], None, []
    for n, line in enumerate(text.split("\n") + [""], 1):
        new_unit = (not line.strip() or line.lstrip().startswith(("|", "- ", "* "))
                    or re.match(r"\s*\d+\. ", line) or line.startswith("#"))
        if new_unit and lines:
            out.append((start, " ".join(lines)))
            lines = []
        if line.strip():
            if not lines:
                start = n
            lines.append(line.strip())
            if line.lstrip().startswith("|") or line.startswith("#"):
                out.append((start, " ".join(lines)))
                lines = []
    return out


def is_history(unit):
    return "history" in unit.lower() and DATE.search(unit) is not None


def record_date():
    return DATE.search(chip_record()["source"]).group(0)


def bench_sections(rel):
    """[(name, first line, last line, stamp date)] of the `make bench` sections of `rel`."""
    text = read(rel)
    out = []
    for m in re.finditer(re.escape(page.BEGIN % "X").replace("X", r"([\w-]+)"), text):
        end = text.index(page.END % m.group(1), m.end())
        stamp = re.search(r"Measured (20\d\d-\d\d-\d\d) by", text[m.end():end])
        out.append((m.group(1), text.count("\n", 0, m.start()) + 1, text.count("\n", 0, end) + 1,
                    stamp.group(1) if stamp else None))
    return out


def section_of(rel, line):
    return next((s for s in bench_sections(rel) if s[1] <= line <= s[2]), None)


def chip_figures(text):
    """[(line, kind, figure, unit)] of every chip figure of a document's text (the sweep)."""
    found = []
    for line, unit in units(text):
        for kind, pattern in KINDS.items():
            words = {"time on the chip": CHIP_WORDS, "size": SIZE_WORDS}.get(kind)
            for m in pattern.finditer(unit):
                if words is None or words.search(unit[max(0, m.start() - NEAR):m.end() + NEAR]):
                    found.append((line, kind, m.group(0), unit))
    return found


# ---------------------------------------------------------------- held to their source

@functools.lru_cache(maxsize=None)
def site_download():
    """make site's count of what the page downloads, by part (tools/site/build.py), built once."""
    from tools.site import build
    if not os.path.isdir(build.WASM_DIR):
        pytest.skip("node_modules' MicroPython (npm ci) is not installed: make site needs it")
    with tempfile.TemporaryDirectory(prefix="site-") as folder:
        return build.build(folder)


def held_browser_downloads():
    """docs/browser.md's "about" figures of what the page downloads: within 5% of `make site`'s
    count (tools/site/build.py's download(), which the page says and `make site` prints)."""
    parts = site_download()
    patterns = {"total": r"About ([\d.]+) MB", "micropython": r"MicroPython \([^)]*?about " + NUMBER + " KB",
                "firmware": r"the firmware \(about " + NUMBER + " KB",
                "book": r"the opening book \([^)]*?about " + NUMBER + " KB"}
    out = []
    for part, pattern in patterns.items():
        exact = parts[part] / (1024.0 * 1024 if part == "total" else 1024.0)
        out.append(("docs/browser.md", pattern, lambda m, exact=exact: abs(number(m.group(1)) - exact) <= 0.05 * exact,
                    "make site counts %.2f" % exact))
    return out


def held_sizes():
    """(doc, pattern, check(match) -> bool, the source's figure) of every figure held to a source."""
    gz = os.path.getsize(web_page.PAGE_GZ)
    fs_mib = (image.FLASH_SIZE - image.FS_OFFSET) // (1 << 20)
    ipl, _ = lookup_cost.recorded()
    facts = opening_book.facts()
    return [
        ("docs/benchmarks.md", r"one HTML file, " + NUMBER + r" bytes gzip-compressed",
         lambda m: number(m.group(1)) == gz, "%d bytes (firmware/connect4/net/page.html.gz)" % gz),
        ("docs/ai.md", r"under ([\d.]+) MB", lambda m: number(m.group(1)) * 1e6 == book_build.LIMIT,
         "tools/book/build.py's LIMIT, %d bytes" % book_build.LIMIT),
        (None, r"(\d+) MB (?:file|image|of flash|flash|layout)\b|(?:whole|to) (\d+) MB\b",
         lambda m: int(m.group(1) or m.group(2)) << 20 == image.FLASH_SIZE, "tools/board/image.py's FLASH_SIZE"),
        (None, r"(?:press|search)[^.]*within (\d+) ms", lambda m: int(m.group(1)) == buttons_test.LATENCY_MS,
         "tests/chip/test_buttons_on_chip.py's LATENCY_MS"),
        (None, r"(\d+) s limit|longest move against (\d+) s\b",
         lambda m: int(m.group(1) or m.group(2)) == test_sizes.LONGEST_S, "tests/test_sizes.py's LONGEST_S"),
        (None, r"(\d+) MiB (?:filesystem|LittleFS)", lambda m: int(m.group(1)) == fs_mib,
         "the filesystem of tools/board/image.py, %d MiB" % fs_mib),
        (None, r"(\d+) blocks of (\d+) KB|blocks of (\d+) KB",
         lambda m: (m.group(1) is None or int(m.group(1)) == image.BLOCK_COUNT)
         and int(m.group(2) or m.group(3)) * 1024 == image.BLOCK_SIZE, "BLOCK_COUNT, BLOCK_SIZE"),
        ("docs/benchmarks.md", r"\| size \| " + NUMBER + r" bytes \|", lambda m: number(m.group(1)) == facts["bytes"],
         "firmware/book.bin's %d bytes" % facts["bytes"]),
        ("docs/benchmarks.md", r"\| positions \(mirror images stored once\) \| " + NUMBER + r" \|",
         lambda m: number(m.group(1)) == facts["positions"], "the book's header"),
        ("docs/benchmarks.md", r"\| a lookup \(x86[^|]*\| " + NUMBER + r" instructions \|",
         lambda m: number(m.group(1)) == ipl, "tools/data/book.txt's %d" % ipl),
        ("docs/benchmarks.md", r"\| a lookup on the chip estimate[^|]*\| ([\d.]+) ms \|",
         lambda m: abs(number(m.group(1)) - ipl * 1000.0 / CHIP_IPS) < 0.006, "tools/data/book.txt at CHIP_IPS"),
        (None, r"(\d+)(?:-(\d+))? M instructions(?:/s| a second| per second)",
         lambda m: (int(m.group(1)), int(m.group(2) or 0)) in (
             (round(CHIP_IPS / 1e6), 0), (round(CHIP_IPS_RANGE[0] / 1e6), round(CHIP_IPS_RANGE[1] / 1e6))),
         "tools/common.py's CHIP_IPS_RANGE"),
    ]


def held_places(held):
    """({(doc, unit's first line): [matched text]} of every match of `held` in the docs, and the
    mismatches). A match inside a history unit is left alone (the figures of its day)."""
    places, wrong = {}, []
    for doc, pattern, check, source in held:
        for rel in ([doc] if doc else DOCS):
            for line, unit in units(read(rel)):
                section = section_of(rel, line)
                if (section and section[3] < record_date()) or (is_history(unit) and not section):
                    continue  # the figures of their day
                for m in re.finditer(pattern, unit):
                    places.setdefault((rel, line), []).append(m.group(0))
                    if not check(m):
                        wrong.append("%s:%d: %s (its source: %s)" % (rel, line, m.group(0), source))
    return places, wrong


def test_the_figures_held_here_are_their_sources():
    places, wrong = held_places(held_sizes())
    assert not wrong, "\n".join(wrong)
    docs = {rel for rel, _ in places}
    assert {"README.md", "docs/ai.md", "docs/benchmarks.md", "docs/hardware.md", "docs/chip.md"} <= docs, docs


def test_docs_browser_md_says_what_make_site_counts():
    places, wrong = held_places(held_browser_downloads())
    assert sum(len(v) for v in places.values()) == 4, "docs/browser.md no longer says what the page downloads"
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- the chip section and the record

def chip_section_rows():
    text = read("docs/benchmarks.md")
    begin, end = page.BEGIN % "chip", page.END % "chip"
    section = text[text.index(begin):text.index(end)]
    return dict(re.findall(r"^\| (.+?) \| (.+?) \|$", section, re.M)), section


def test_the_chip_sections_times_follow_from_the_record():
    """Level 8's whole budget and the search's poll, in seconds and ms at both ends of the
    assumed speed: what every chip time of the project comes from."""
    rows, _ = chip_section_rows()
    ipn = chip_instructions_per_node()
    full = next(k for k in rows if k.startswith("level 8 at its full budget"))
    nodes = number(re.search(NUMBER + " nodes", full).group(1))
    assert rows[full] == "%.2f-%.2f s" % (nodes * ipn / CHIP_IPS_RANGE[1], nodes * ipn / CHIP_IPS_RANGE[0])
    poll = next(k for k in rows if k.startswith("the search's poll"))
    every = number(re.search(r"every (\d+) nodes", poll).group(1))
    assert rows[poll] == "%.1f-%.1f ms" % (every * ipn * 1000.0 / CHIP_IPS_RANGE[1],
                                          every * ipn * 1000.0 / CHIP_IPS_RANGE[0])
    # the one speed every chip time takes
    assert "%s nodes/s" % format(chip_nodes_per_second(), ",") in _


def chip_times_wrong(table_text, ipn_of):
    """The rows of a `make bench` table whose "est. chip s/... (mean / max)" does not follow from
    its "mean nodes..." column at the record (ipn_of(row) -> instructions a node)."""
    lines = [ln for ln in table_text.split("\n") if ln.startswith("|")]
    if len(lines) < 3:
        return []
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    mean = next((i for i, c in enumerate(head) if c.startswith("mean nodes")), None)
    chip = next((i for i, c in enumerate(head) if c.startswith("est. chip s")), None)
    if mean is None or chip is None:
        return []
    wrong = []
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        stated = number(cells[chip].split("/")[0])
        expected = number(cells[mean]) * ipn_of(cells) / CHIP_IPS
        if abs(stated - expected) > 0.006:
            wrong.append("%s (%.3f s at the record)" % (ln, expected))
    return wrong


def test_a_section_measured_since_the_record_gives_its_chip_times_at_the_record():
    text = read("docs/benchmarks.md")
    lines = text.split("\n")
    wrong = []
    for name, first, last, stamp in bench_sections("docs/benchmarks.md"):
        if stamp is None or stamp < record_date():
            continue
        sizes = lambda cells: chip_instructions_per_node(cells[0]) if re.fullmatch(r"\dx\d", cells[0]) \
            else chip_instructions_per_node()  # noqa: E731  (the sizes table: each size's own)
        wrong += chip_times_wrong("\n".join(lines[first - 1:last]), sizes)
    assert not wrong, "\n".join(wrong)


def test_the_chip_time_check_can_fail():
    ipn = chip_instructions_per_node()
    good = 20000 * ipn / CHIP_IPS
    table = ("| level | mean nodes/move | est. chip s/move (mean / max) |\n|---:|---:|---:|\n"
             "| 8 | 20000 | %.2f / 2.54 |\n| 7 | 20000 | %.2f / 2.54 |" % (good, good + 0.2))
    assert len(chip_times_wrong(table, lambda cells: ipn)) == 1


def test_every_section_older_than_the_record_is_said_to_be_history():
    """The page says, once, that a section measured before the record gives the chip times of
    its day; the record's own section is never older than the record."""
    sections = bench_sections("docs/benchmarks.md")
    chip = next(s for s in sections if s[0] == "chip")
    assert chip[3] == record_date(), "the chip section and tools/data/chip.txt are of different days"
    text = " ".join(read("docs/benchmarks.md").split())
    assert "give their chip times at the record of their own date: a section measured before the record " \
           "is history" in text


# ---------------------------------------------------------------- the sweep

def unplaced_chip_figures():
    """Every chip figure of the docs that is neither in a `make bench` section, nor held here,
    nor history: ["doc:line: figure (kind) in: ..."]."""
    held = held_sizes()
    try:
        held += held_browser_downloads()
    except pytest.skip.Exception:  # (no node_modules: the page's sizes are held when it is there)
        held += [("docs/browser.md", r"\babout " + NUMBER + r" [KM]B|About [\d.]+ MB", lambda m: True, "")]
    places, _ = held_places(held)
    bad = []
    for rel in DOCS:
        for line, kind, figure, unit in chip_figures(read(rel)):
            if section_of(rel, line) or is_history(unit):
                continue
            lead = re.match(NUMBER, figure).group(1)
            if any(lead in text for text in places.get((rel, line), [])):
                continue
            bad.append("%s:%d: %s (%s) in: %s" % (rel, line, figure, kind, unit[:160]))
    return bad


def test_every_chip_figure_of_the_docs_is_generated_held_or_history():
    bad = unplaced_chip_figures()
    assert not bad, ("a chip figure said where no source holds it: link to its one place "
                     "(docs/benchmarks.md), or mark it history with its date:\n" + "\n".join(bad))


def test_the_sweep_finds_a_stale_figure():
    found = chip_figures("The search took 5,653 instructions a node: 18,869-28,303 nodes/s "
                         "(level 8 on the chip: 1.66-2.49 s). The book is 1,032,764 bytes.\n\n"
                         "On 2026-11-22 it took 5,500 instructions a node (history).\n")
    kinds = sorted(k for line, k, f, u in found if line == 1)
    assert kinds == ["instructions a node", "nodes a second", "size", "time on the chip"], found
    assert [is_history(u) for line, k, f, u in found if line == 3] == [True]
