"""tools/data/chip.txt, the chip's speed record, and the figures the docs take from it.

The record is counted on the emulated chip (tools/chip/speed.py --record, or
`make bench FIRMWARE=... BENCH_ARGS="--only chip"`, which also writes
docs/benchmarks.md's section); tests/chip/test_speed_on_chip.py counts it
again on the chip. Here, without the chip: the record is whole and says where
it came from, the cycles an instruction are assumed in one place
(tools/common.py), and the page's chip section says the record's figures,
which the README links to.
"""
import os
import re

import pytest

from tools import common
from tools.bench import page

ROOT = common.ROOT


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def chip_section():
    text = read("docs/benchmarks.md")
    begin, end = page.BEGIN % "chip", page.END % "chip"
    assert begin in text and end in text, "docs/benchmarks.md has no chip section"
    return text[text.index(begin):text.index(end)]


def number(text):
    return int(text.replace(",", ""))


def test_the_record_has_every_figure_and_says_where_it_was_counted():
    record = common.chip_record()
    for key in ["instructions_per_node"] + ["instructions_per_node_level%d" % lv for lv in (6, 7, 8)] \
            + ["instructions_per_node_" + s for s in common.board_sizes()]:
        assert record.get(key, "").isdigit() and 1000 < int(record[key]) < 20000, key
    assert re.fullmatch(r"[0-9a-f]{12}", record["engine"])
    assert "emulated ESP32-C3" in record["source"] and "-icount shift=3" in record["source"]
    assert re.search(r"ESP32_GENERIC_C3-\d{8}-v1\.28\.0\.bin", record["source"])
    assert re.search(r"20\d\d-\d\d-\d\d$", record["source"])
    # levels 6-8 together lie between the levels' own figures
    levels = [int(record["instructions_per_node_level%d" % lv]) for lv in (6, 7, 8)]
    assert min(levels) <= common.chip_instructions_per_node() <= max(levels)


def test_the_cycles_an_instruction_are_assumed_once_and_every_estimate_takes_the_slow_end():
    assert common.CHIP_CPI == (1.0, 1.5) and common.CHIP_HZ == 160_000_000
    assert common.CHIP_IPS_RANGE == (106_666_666, 160_000_000)
    assert common.CHIP_IPS == common.CHIP_IPS_RANGE[0]
    ipn = common.chip_instructions_per_node()
    assert common.chip_nodes_per_second() == 106_666_666 // ipn
    assert common.chip_speed_range() == (106_666_666 // ipn, 160_000_000 // ipn)
    assert common.CHIP_IPS_WORDS.startswith("107 M instructions/s")


def test_the_pages_chip_section_says_the_records_figures():
    section = chip_section()
    rows = dict(re.findall(r"^\| (.+?) \| (.+?) \|$", section, re.M))
    record = common.chip_record()
    for lv in (8, 7, 6):
        key = next(k for k in rows if k.startswith("instructions per search node, level %d " % lv))
        assert number(rows[key]) == int(record["instructions_per_node_level%d" % lv]), key
    together = next(v for k, v in rows.items() if "levels 6-8 together" in k)
    assert number(together.strip("*")) == common.chip_instructions_per_node()
    slow, fast = common.chip_speed_range()
    assert rows["search nodes per second"] == "%s-%s" % (format(slow, ","), format(fast, ","))
    sizes = re.findall(r"^\| (\d) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$", section, re.M)
    assert [int(r[0]) for r in sizes] == [4, 5, 6, 7]
    for row in sizes:
        for cols, figure in zip(range(4, 9), row[1:]):
            assert number(figure) == common.chip_instructions_per_node("%dx%s" % (cols, row[0]))
    assert "engine %s" % record["engine"] in section


def test_the_readme_links_the_records_section_and_says_none_of_its_figures():
    """Was: the README restated the record's figures, and a time from another figure beside them
    (issue 40); a new record changes the record and its section, nothing else."""
    text = " ".join(read("README.md").split())
    assert "docs/benchmarks.md#speed-on-the-chip" in text
    slow, fast = common.chip_speed_range()
    for figure in [common.chip_instructions_per_node(), slow, fast] + [
            int(v) for k, v in common.chip_record().items() if k.startswith("instructions_per_node_")]:
        for said in (format(figure, ","), str(figure)):  # a whole number (not "WS2812B"'s 2812)
            assert not re.search(r"(?<![\w,.])%s(?![\w,])" % re.escape(said), text), figure


@pytest.mark.parametrize("qemu, says", [
    (None, "chip: skipped, no emulator (QEMU="),  # a fresh clone: no build/emulator/
    ("/bin/true", "chip: skipped, no MicroPython image (FIRMWARE="),
])
def test_make_bench_skips_the_chip_section_without_the_image_and_says_why(tmp_path, monkeypatch, capsys,
                                                                           qemu, says):
    from tools.bench import bench
    from tools.chip import emulator
    monkeypatch.delenv("FIRMWARE", raising=False)
    monkeypatch.setattr(emulator, "find_qemu", lambda: qemu)
    before = common.chip_record()
    out = tmp_path / "page.md"
    assert bench.main(["--only", "chip", "--jobs", "1", "--out", str(out)]) == 0
    assert says in capsys.readouterr().out
    assert page.BEGIN % "chip" not in out.read_text()
    assert common.chip_record() == before  # the record kept


def test_the_callgrind_cross_check_names_the_port_by_its_word_size_never_its_path(tmp_path):
    """make bench --only chip --micropython BINARY prints callgrind's count beside the chip's; the
    page names the port, not the measurer's own path."""
    from tools.bench.instr_per_node import port_words
    ports = {}
    for name, head in (("mp32", b"\x7fELF\x01"), ("mp64", b"\x7fELF\x02"), ("script", b"#!/bi")):
        (tmp_path / name).write_bytes(head + bytes(59))
        ports[name] = port_words(str(tmp_path / name))
    assert ports == {"mp32": "the 32-bit unix port", "mp64": "the 64-bit unix port",
                     "script": "the MicroPython unix port"}
    assert str(tmp_path) not in " ".join(ports.values())
