"""docs/playing.md as the site's playing.html: how to play, one link away from the board page.

The site is static and may be hosted anywhere, so the guide goes with it,
rendered by markdown-it-py (CommonMark and tables; pinned in
requirements-dev.txt). Its pictures are copied beside it; links within the
page keep working (headings get GitHub's ids); links to the repository's
other files become their text, since those files are not on the site.
"""
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, "docs", "playing.md")
PAGE = "playing.html"

_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Playing: the Connect 4 board</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="style.css">
</head>
<body>
<main class="doc">
<p><a href="index.html">Back to the board</a> · from docs/playing.md of the board's repository
(links to its other documents are shown as plain text).</p>
%s
</main>
</body>
</html>
"""


def slug(text):
    """GitHub's heading id: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _local(href):
    return not (href.startswith("#") or "://" in href or href.startswith("mailto:"))


def render(out):
    """Write playing.html and its pictures into the folder `out`; returns the files written."""
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark").enable("table")
    with open(SOURCE, encoding="utf-8") as f:
        tokens = md.parse(f.read())
    written = [PAGE]
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            tok.attrSet("id", slug(tokens[i + 1].content))
        for child in tok.children or ():
            if child.type == "image":
                src = str(child.attrGet("src") or "")
                if _local(src):
                    name = os.path.basename(src)
                    shutil.copyfile(os.path.join(os.path.dirname(SOURCE), name), os.path.join(out, name))
                    child.attrSet("src", name)
                    written.append(name)
        if tok.children:  # a link to a file not on the site: its text only
            keep, dropping = [], []
            for child in tok.children:
                if child.type == "link_open" and _local(str(child.attrGet("href") or "")):
                    dropping.append(True)
                    continue
                if child.type == "link_open":
                    dropping.append(False)
                elif child.type == "link_close" and dropping.pop():
                    continue
                keep.append(child)
            tok.children = keep
    with open(os.path.join(out, PAGE), "w", encoding="utf-8") as f:
        f.write(_TEMPLATE % md.renderer.render(tokens, md.options, {}))
    return written
