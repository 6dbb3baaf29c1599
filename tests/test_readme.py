"""The README and the guides in docs/ say only what the repository has.

- every `make TARGET` they show is a target of the Makefile;
- every relative link, and every repository path they name (firmware/...,
  tools/..., tests/..., docs/..., host_sim/...), exists in the repository,
  and every #anchor names a heading of the file it points into;
- each has a contents list whose entries are its `##` headings, in order;
- the README starts with the two commands, `make sim` and `make test`;
- nothing points outside the repository (a clone has nothing beside it): no document,
  and no code, test or comment either.

The checkers take text, so the last tests show each of them failing on a
document with the mistake in it.
"""
import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))

# Top-level folders and files whose paths the documents may name: a path
# starting with one of these must exist.
REPO_DIRS = ("firmware", "host_sim", "tools", "tests", "docs", "typings")
# Made by the tools, not kept in the repository: links there are allowed.
BUILD_OUTPUTS = ("build/", "sim_flash/", ".venv/", "node_modules/")

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w./\\:-])((?:%s)[/\\][\w./\\*%%-]*)" % "|".join(REPO_DIRS))


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def makefile_targets(text):
    """The targets of a Makefile, with $(VAR)s expanded from its assignments."""
    variables = {}
    for m in re.finditer(r"^([A-Za-z_][A-Za-z0-9_]*)\s*[:?]?=\s*(.*)$", text, re.M):
        variables.setdefault(m.group(1), m.group(2).strip())

    def expand(s):
        for _ in range(5):
            s = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), ""), s)
        return s

    targets = set()
    for m in re.finditer(r"^([^\s#=:][^=:\n]*?)\s*::?(?!=)", text, re.M):
        targets.update(expand(m.group(1)).split())
    return targets


def code_texts(text):
    """The contents of the fenced blocks (line by line) and of the code spans."""
    out = []
    for block in FENCE.findall(text):
        out.extend(block.split("\n")[1:-1])
    out.extend(SPAN.findall(FENCE.sub("", text)))
    return out


def make_targets_named(text):
    """Every target a `make ...` command in code names."""
    named = []
    for code in code_texts(text):
        for m in re.finditer(r"(?<![\w.-])make\s+(.*)", code):
            words = [w for w in m.group(1).split() if not w.startswith("-") and "=" not in w]
            if words:
                named.append(words[0].rstrip(":,.;)"))
    return named


def missing_make_targets(text, targets):
    bad = []
    for name in make_targets_named(text):
        # `make deploy/flash/repl` names three targets.
        if name not in targets and not all(p in targets for p in name.split("/")):
            bad.append(name)
    return bad


def slug(heading):
    """GitHub's anchor for a heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def headings(text, level=None):
    body = FENCE.sub("", text)
    pattern = r"^(#{1,6})\s+(.*?)\s*#*\s*$"
    return [(len(m.group(1)), m.group(2)) for m in re.finditer(pattern, body, re.M)
            if level is None or len(m.group(1)) == level]


def anchors(text):
    seen, out = {}, set()
    for _, h in headings(text):
        base = slug(h)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def broken_links(text, doc_dir, root=ROOT, read_file=None):
    """Relative links whose file, or whose #anchor, does not exist."""
    read_file = read_file or (lambda p: open(p, encoding="utf-8").read())
    bad = []
    for target in LINK.findall(FENCE.sub("", text)):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        if path:
            full = os.path.normpath(os.path.join(root, doc_dir, path))
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if rel.startswith(".."):
                bad.append(target + " (outside the repository)")
                continue
            if any(rel.startswith(b) for b in BUILD_OUTPUTS):
                continue
            if not os.path.exists(full):
                bad.append(target)
                continue
            if anchor and full.endswith(".md") and anchor not in anchors(read_file(full)):
                bad.append(target + " (no such heading)")
        elif anchor and anchor not in anchors(text):
            bad.append(target + " (no such heading)")
    return bad


def missing_paths(text, root=ROOT):
    """Repository paths named anywhere in the text that do not exist."""
    bad = []
    for m in PATH.finditer(text):
        path = m.group(1).replace("\\", "/").rstrip(".,;:)'\"")
        if "*" in path:
            if not glob.glob(os.path.join(root, path)):
                bad.append(path)
        elif not os.path.exists(os.path.join(root, path)):
            bad.append(path)
    return bad


def contents_problems(text):
    """The `## Contents` list must link every other `##` heading, in order."""
    h2 = [h for _, h in headings(text, 2)]
    if "Contents" not in h2:
        return ["no '## Contents' section"]
    section = text.split("## Contents", 1)[1].split("\n## ", 1)[0]
    entries = re.findall(r"^\s*[-*]\s+\[([^\]]+)\]\(#([^)]+)\)", section, re.M)
    want = [h for h in h2 if h != "Contents"]
    problems = []
    if [t for t, _ in entries] != want:
        problems.append("contents %s != headings %s" % ([t for t, _ in entries], want))
    for title, anchor in entries:
        if anchor != slug(title):
            problems.append("entry %r links #%s, the heading's anchor is #%s"
                            % (title, anchor, slug(title)))
    return problems


def starts_with_the_two_commands(text):
    """After the title, the first thing is a code block: `make sim`, then `make test`."""
    lines = text.split("\n")
    assert lines[0].startswith("# "), "the README starts with its title"
    rest = [ln for ln in lines[1:] if ln.strip()]
    if not rest or not rest[0].startswith("```"):
        return False
    commands = [ln.strip() for ln in rest[1:3]]
    return commands[0].startswith("make sim") and commands[1].startswith("make test")


def outside_references(text):
    """Paths into the folder beside the clone that the project was developed in: written out
    (../shared/..., shared/...), or joined in code ("shared", ...)."""
    return (re.findall(r"\.\./shared\S*", text) + re.findall(r"(?<![\w./])shared/\S*", text)
            + re.findall(r"""["']shared["']\s*,""", text))


def code_files(root=ROOT):
    """Every text file of the repository's own (no build output, no installed package)."""
    out = [os.path.join(root, name) for name in ("Makefile", "package.json")]
    for top in REPO_DIRS + (".ci",):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            out += [os.path.join(folder, f) for f in files
                    if f.endswith((".py", ".mjs", ".js", ".html", ".css", ".md", ".txt", ".json", ".pyi"))
                    or "." not in f]
    return sorted(p for p in out if os.path.isfile(p))


# ---------------------------------------------------------------- the documents

@pytest.mark.parametrize("doc", DOCS)
def test_every_make_target_named_exists(doc):
    targets = makefile_targets(read("Makefile"))
    assert make_targets_named(read(doc)), "a guide that names no make command?"
    assert missing_make_targets(read(doc), targets) == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_relative_link_exists(doc):
    assert broken_links(read(doc), os.path.dirname(doc)) == []


@pytest.mark.parametrize("doc", DOCS)
def test_every_repository_path_named_exists(doc):
    assert missing_paths(read(doc)) == []


@pytest.mark.parametrize("doc", DOCS)
def test_contents_list_matches_the_headings(doc):
    assert contents_problems(read(doc)) == []


@pytest.mark.parametrize("doc", DOCS)
def test_nothing_points_outside_the_repository(doc):
    assert outside_references(read(doc)) == []


def test_no_code_test_or_comment_points_outside_the_repository():
    # (this file names such paths as the checkers' examples: the last tests)
    files = [p for p in code_files() if os.path.abspath(p) != os.path.abspath(__file__)]
    assert any(p.endswith(os.path.join("engine", "core.py")) for p in files)
    assert any(p.endswith(os.path.join("chip", "emulator.py")) for p in files)
    found = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            found += ["%s: %s" % (os.path.relpath(path, ROOT), ref) for ref in outside_references(f.read())]
    assert found == []


def test_readme_starts_with_the_two_commands():
    assert starts_with_the_two_commands(read("README.md"))


def test_readme_links_the_guides():
    links = LINK.findall(read("README.md"))
    for guide in DOCS[1:]:
        assert any(t.split("#")[0] == guide for t in links), guide


# ---------------------------------------------------------------- the checkers can fail

BAD_DOC = """# Title

Some words first.

```
make test
make sim
```

## Contents

- [Second](#second)
- [First](#first)

## First

Run `make simulate`, `make deploy/flashh`, then read `tools\\no_such_tool.py`
and `firmware\\nothing.py`; see [the guide](docs/missing.md),
[a heading](#nowhere) and [the README](README.md#no-such-section).
The sets come from `../SHARED/bench`.

## Second
""".replace("SHARED", "shared")


def test_the_checkers_catch_each_mistake():
    targets = makefile_targets(read("Makefile"))
    assert {"sim", "test", "deploy", "flash", "quick"} <= targets
    assert missing_make_targets(BAD_DOC, targets) == ["simulate", "deploy/flashh"]
    assert missing_paths(BAD_DOC) == ["tools" "/no_such_tool.py", "firmware/nothing.py", "docs/missing.md"]
    assert broken_links(BAD_DOC, "") == [
        "docs/missing.md", "#nowhere (no such heading)", "README.md#no-such-section (no such heading)"]
    assert contents_problems(BAD_DOC)
    assert contents_problems(BAD_DOC.replace("## Contents", "## Index")) == ["no '## Contents' section"]
    assert not starts_with_the_two_commands(BAD_DOC)
    assert outside_references(BAD_DOC) == ["../shared/bench`."]
    assert outside_references('see shared/CHIP.md and os.path.join(ROOT, "shared", "bench")') == [
        "shared/CHIP.md", '"shared",']


def test_slugs_follow_github():
    assert slug("Tests: what runs where") == "tests-what-runs-where"
    assert slug("Accuracy at the top level (8), judged by the perfect solver") == \
        "accuracy-at-the-top-level-8-judged-by-the-perfect-solver"
    assert anchors("## A\n## A\n") == {"a", "a-1"}
