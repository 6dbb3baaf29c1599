"""Firmware code stays inside what MicroPython runs.

A static check over firmware/: no CPython-only modules, no f-string `=`, no
`int.bit_count`, no dataclasses or run-time typing, no match statements, no
generators in the engine's hot module. The MicroPython VM tests catch the rest.
"""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
FORBIDDEN_MODULES = {"dataclasses", "functools", "typing", "abc", "enum", "itertools",
                     "pathlib", "threading", "subprocess", "logging", "contextlib", "copy"}
FORBIDDEN_ATTRS = {"bit_count", "bit_length", "to_bytes_signed", "removeprefix", "removesuffix"}


def sources():
    for folder, _, files in os.walk(FIRMWARE):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(folder, f)


@pytest.mark.parametrize("path", list(sources()), ids=lambda p: os.path.relpath(p, FIRMWARE))
def test_uses_only_the_micropython_subset(path):
    text = open(path).read()
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
        elif isinstance(node, ast.FormattedValue) and node.conversion == -1 and node.format_spec is None:
            pass
        elif isinstance(node, (ast.AnnAssign,)) and not path.endswith("core.py"):
            problems.append("annotated assignment")
    if "=}" in text:
        problems.append("f-string '=' specifier")
    if path.endswith(os.path.join("engine", "core.py")):
        problems += ["generator in the hot path" for node in ast.walk(tree)
                     if isinstance(node, (ast.Yield, ast.YieldFrom, ast.GeneratorExp))]
    assert not problems, problems
