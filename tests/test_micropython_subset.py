"""Firmware code stays inside what MicroPython runs.

A static check over firmware/: no CPython-only modules, no f-string `=`, no
`int.bit_count`, no dataclasses or run-time typing, no match statements, no
generators in the engine's hot module, no sorting (MicroPython's
list.sort and sorted() are a quicksort, not stable: equal keys come out in
another order than on CPython, so the board would play another game), and no
`-x` or `~x` of a variable in viper code (MicroPython 1.28's native emitter
overwrites x itself when x sits in a register, fixed in 1.29 by commit
2210d28792; tools/chip/levers.py shows it on the chip: write `0 - x`). The
MicroPython VM tests catch the rest. The checker itself is tested on snippets
below, so each rule is known to fire.
"""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
FORBIDDEN_MODULES = {"dataclasses", "functools", "typing", "abc", "enum", "itertools",
                     "pathlib", "threading", "subprocess", "logging", "contextlib", "copy"}
FORBIDDEN_ATTRS = {"bit_count", "bit_length", "to_bytes_signed", "removeprefix", "removesuffix"}
# Sorting allowed only here: names joined into an error message, where order
# cannot change a game. (file relative to firmware/, the text of the call)
SORT_ALLOWED = {
    ("config.py", "sorted(PRESETS)"),
    ("connect4/hardware_setup.py", "sorted(COLOR_ORDERS)"),
}


def sources():
    for folder, _, files in os.walk(FIRMWARE):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(folder, f)


def _offset(lines, lineno, col):
    """Character offset in the source of a node position (1-based line, 0-based col)."""
    return sum(len(line) for line in lines[:lineno - 1]) + col


def fstring_debug_fields(text, tree):
    """The f-string fields written with the `=` specifier (f"{x=}"), which
    MicroPython does not have. ast keeps no trace of the `=` itself (it turns
    f"{x=}" into the text "x=" and a repr field, just as f"x={x!r}"), so the
    source is read: the first non-blank character after the field's expression
    is `=` only for that specifier (a comparison `==` is inside the expression;
    closing brackets of a parenthesised expression are skipped)."""
    lines = text.splitlines(keepends=True)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue):
            value = node.value
            i = _offset(lines, value.end_lineno, value.end_col_offset)
            while i < len(text) and text[i] in " \t\r\n)":  # blanks, closing brackets
                i += 1
            if text[i:i + 1] == "=":
                found.append("f-string '=' specifier: {%s=}" % ast.get_source_segment(text, value))
    return found


def sort_calls(tree, text):
    """Every .sort(...) and sorted(...) call, as (line, source text)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == "sort") or \
                    (isinstance(f, ast.Name) and f.id == "sorted"):
                out.append((node.lineno, ast.get_source_segment(text, node)))
    return out


def viper_unary_ops(tree, text):
    """`-x` and `~x` of anything but a constant inside @micropython.viper functions."""
    out = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and any(
                ast.get_source_segment(text, d) == "micropython.viper" for d in fn.decorator_list):
            for node in ast.walk(fn):
                if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert)) \
                        and not isinstance(node.operand, ast.Constant):
                    out.append("viper unary operator (1.28 overwrites its operand: write 0 - x), "
                               "line %d: %s" % (node.lineno, ast.get_source_segment(text, node)))
    return out


def problems_in(text, rel):
    """What in `text` (the firmware file `rel`, relative to firmware/) MicroPython lacks."""
    tree = ast.parse(text)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            problems += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in FORBIDDEN_MODULES:
                problems.append(node.module)
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRS:
            problems.append(node.attr)
        elif isinstance(node, ast.Match):
            problems.append("match statement")
        elif isinstance(node, ast.AnnAssign) and rel != "connect4/engine/core.py":
            problems.append("annotated assignment")
    problems += fstring_debug_fields(text, tree)
    problems += viper_unary_ops(tree, text)
    problems += ["unstable sort on MicroPython, line %d: %s" % (line, call)
                 for line, call in sort_calls(tree, text) if (rel, call) not in SORT_ALLOWED]
    if rel == "connect4/engine/core.py":
        problems += ["generator in the hot path" for node in ast.walk(tree)
                     if isinstance(node, (ast.Yield, ast.YieldFrom, ast.GeneratorExp))]
    return problems


@pytest.mark.parametrize("path", list(sources()), ids=lambda p: os.path.relpath(p, FIRMWARE))
def test_uses_only_the_micropython_subset(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rel = os.path.relpath(path, FIRMWARE).replace(os.sep, "/")
    assert not problems_in(text, rel)


def test_the_allowed_sorts_are_still_there():
    """An allow-list entry that no longer matches anything is removed, not kept."""
    for rel, call in SORT_ALLOWED:
        with open(os.path.join(FIRMWARE, rel), encoding="utf-8") as f:
            text = f.read()
        assert call in [c for _, c in sort_calls(ast.parse(text), text)], (rel, call)


@pytest.mark.parametrize("source, expected", [
    ('x = f"{a=}"', ["f-string '=' specifier: {a=}"]),
    ('x = f"{a.b = }"', ["f-string '=' specifier: {a.b=}"]),
    ('x = f"{a=!s} {b=:>5}"', ["f-string '=' specifier: {a=}", "f-string '=' specifier: {b=}"]),
    ('x = f"""{(a ==\n b)=}"""', ["f-string '=' specifier: {a ==\n b=}"]),
    ('x = f"{f(a)=} {(a)=}"', ["f-string '=' specifier: {f(a)=}", "f-string '=' specifier: {a=}"]),
    ('x = f"a={a} {a!r} {a == b} {a:=^5} {a>=b}"', []),
    ('x = "{a=}"', []),
    ('moves.sort(key=lambda c: -scores[c])', ["unstable sort on MicroPython, line 1: "
                                              "moves.sort(key=lambda c: -scores[c])"]),
    ('order = sorted(moves)', ["unstable sort on MicroPython, line 1: sorted(moves)"]),
    ('import functools', ["functools"]),
    ('n = x.bit_count()', ["bit_count"]),
    ('@micropython.viper\ndef f(x: int) -> int:\n    y = -x\n    return ~y + -1 + (0 - x)',
     ["viper unary operator (1.28 overwrites its operand: write 0 - x), line 3: -x",
      "viper unary operator (1.28 overwrites its operand: write 0 - x), line 4: ~y"]),
    ('def f(x):\n    return -x', []),
])
def test_the_checker_fires_on_what_micropython_lacks(source, expected):
    assert problems_in(source, "connect4/app/example.py") == expected


def test_the_sort_allow_list_is_per_file():
    text = 'raise ValueError(", ".join(sorted(PRESETS)))'
    assert problems_in(text, "config.py") == []
    assert problems_in(text, "connect4/engine/search.py") == [
        "unstable sort on MicroPython, line 1: sorted(PRESETS)"]
