"""docs/benchmarks.md kept by `make bench`: each part of a run between its two markers.

`make bench BENCH_ARGS="--only speed --out docs/benchmarks.md"` measures one
section and rewrites only the text between that section's markers, stamped with
the date and the command; the other sections, and the notes written by hand
outside the markers, stay as they are. So the page is regenerated, never edited
by hand, and a partial run keeps what it did not measure.

A run's report is cut into parts (bench.py calls `Say.part(name)` as each one
begins): speed, stack, memory, web, accuracy, levels, perfect, sets, ladder, sizes, people. A file
with no marker at all (any other --out) is overwritten with the parts.
"""
import os
import time

BEGIN = "<!-- make bench: %s (written by tools/bench/bench.py; edit the notes outside the markers only) -->"
END = "<!-- end of make bench: %s -->"
_BEGIN_HEAD = BEGIN.split("%s")[0]


def command(argv):
    """The `make bench` command line of `argv`, without --out (where the report went)."""
    args, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--out":
            skip = True
        elif not a.startswith("--out="):
            args.append(a)
    return "make bench" + (' BENCH_ARGS="%s"' % " ".join(args) if args else "")


def stamp(cmd, seconds, date=None):
    """The line under a part: when, by which command, how long that part took."""
    return "Measured %s by `%s` (this section: %d s)." % (
        date or time.strftime("%Y-%m-%d"), cmd, seconds)


def block(name, lines, stamp_line):
    """A part between its markers: its lines (trailing blank lines dropped), then the stamp."""
    lines = list(lines)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join([BEGIN % name] + lines + ["", stamp_line, END % name])


def update(text, parts):
    """`text` with each (name, block) of `parts` in place of its markers' old block;
    a part the text has no markers for is added at the end."""
    for name, new in parts:
        begin, end = BEGIN % name, END % name
        i = text.find(begin)
        j = text.find(end, i) if i >= 0 else -1
        if i >= 0 and j >= 0:
            text = text[:i] + new + text[j + len(end):]
        else:
            text = (text.rstrip("\n") + "\n\n" if text.strip() else "") + new + "\n"
    return text


def split(lines, marks, finished):
    """[(name, its lines, its seconds)] of a report: `marks` are (name, first line, start time)."""
    out = []
    for k, (name, first, started) in enumerate(marks):
        last, ended = (marks[k + 1][1], marks[k + 1][2]) if k + 1 < len(marks) else (len(lines), finished)
        out.append((name, lines[first:last], ended - started))
    return out


def write(path, lines, marks, finished, argv, date=None):
    """Put this run's parts into the file at `path` (see the module's docstring)."""
    cmd = command(argv)
    parts = [(name, block(name, body, stamp(cmd, seconds, date)))
             for name, body, seconds in split(lines, marks, finished)]
    old = ""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    text = update(old if _BEGIN_HEAD in old else "", parts)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
