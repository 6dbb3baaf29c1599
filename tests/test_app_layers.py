"""The app speaks columns and rows: the engine's padded board layout stays in the engine.

A static check over firmware/connect4/app/: no reading of `Board.cells` or
`Board.tops`, no import of the layout's helpers or constants. The app uses
`play(col)` (the row it landed in), `get(col, row)`, `height(col)` and
`winning_line()`. The checker is shown firing on snippets.
"""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = os.path.join(ROOT, "firmware", "connect4", "app")
LAYOUT_ATTRS = {"cells", "tops"}
LAYOUT_NAMES = {"cell_index", "new_cells", "run_length", "completes_four", "STRIDE", "CELLS",
                "BORDER", "TOP_ROW_END", "DIRECTIONS"}


def layout_uses(source):
    """(line, what) for each place `source` reaches into the padded layout."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in LAYOUT_ATTRS:
            found.append((node.lineno, "." + node.attr))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("connect4.engine"):
            found.extend((node.lineno, a.name) for a in node.names if a.name in LAYOUT_NAMES)
    return found


def test_the_checker_fires():
    assert layout_uses("p = board.cells[(row + 1) * 8 + col]") == [(1, ".cells")]
    assert layout_uses("i = self.board.tops[3]") == [(1, ".tops")]
    assert layout_uses("from connect4.engine.board import WIDTH, cell_index") == [(1, "cell_index")]
    assert layout_uses("p = board.get(col, row)\nrow = board.play(col)") == []


def test_the_app_uses_only_columns_and_rows():
    found = {}
    for name in sorted(os.listdir(APP)):
        if name.endswith(".py"):
            with open(os.path.join(APP, name)) as f:
                uses = layout_uses(f.read())
            if uses:
                found[name] = uses
    assert found == {}


def _imports(folder):
    """{module file: the connect4 modules it imports (at the top or inside a function)}."""
    out = {}
    base = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware", "connect4", folder)
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            with open(os.path.join(base, name)) as f:
                tree = ast.parse(f.read())
            got = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("connect4"):
                    got.add(node.module)
                elif isinstance(node, ast.Import):
                    got.update(a.name for a in node.names if a.name.startswith("connect4"))
            out[name] = got
    return out


def test_no_import_loop_between_the_app_and_the_network():
    """The app reaches connect4.net only through the factory it is handed (connect4.boot's
    wifi_link); connect4.net reaches the game only through the face it is handed
    (connect4.app.face.Face), and of the app imports only the flash file helpers."""
    for name, mods in _imports("app").items():
        assert not [m for m in mods if m.startswith("connect4.net")], name
    for name, mods in _imports("net").items():
        assert {m for m in mods if m.startswith("connect4.app")} <= {"connect4.app.store"}, (name, mods)
