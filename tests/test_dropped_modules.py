"""A module the board loads for one job and drops again leaves nothing of its own loaded behind.

The firmware drops rare code from the heap once it has run: `use("connect4.app.takeback")`
(connect4.modules) loads a module and takes it out of sys.modules at once, `forget(...)`
drops modules the app is done with (the menu's, a game of two boards'). Whatever such a
module imports by a plain `import` goes into sys.modules too, and stays there, loaded for
good, unless some module that stays needs it anyway or the app forgets it by name. On the
chip with Wi-Fi on every such byte is the network's: the records file's reader (1.9 KB of
.mpy) stayed loaded for good because the start's game-taking-back imported it (found
2026-11-28). Read statically with ast, like tests/test_import_graph.py; the checker is
shown firing on small synthetic sources.
"""
import ast

from tests.test_import_graph import sources

_DROPPERS = ("use", "forget", "__import__")
# what a dropped module may leave loaded, and why
_HELD = {
    "connect4.app.assemble -> connect4.app.game": "the builder's App: the app itself",
    "connect4.app.assemble -> connect4.engine.book": "the builder's AI reads its book all along",
    "connect4.app.boardhold -> connect4.app.boardcheck": "a game of two boards ends in a restart",
    "connect4.poweron -> connect4.app.hwtest": "the hardware test ends the app (the REPL follows)",
    "connect4.net.linkup -> connect4.net.server": "the web server it starts serves while Wi-Fi is on",
    "connect4.net.linkup -> connect4.net.pairing": "the phones' pairing, the server's, all along",
    "connect4.net.netconf -> connect4.net.pairing": "read as Wi-Fi comes on (the server's pairing "
                                                    "follows) or for an Improv join (a restart follows)",
    "connect4.net.peer -> connect4.net.server": "a game of two boards runs with Wi-Fi on: the server's",
}


def _named(source):
    """{dropper: the module names passed to it as string constants} of one module's source."""
    out = {d: set() for d in _DROPPERS}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            fn = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if fn in out:
                out[fn].update(a.value for a in node.args
                               if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return out


def _imports(source, known):
    """The modules of `known` that `source` imports by a plain import statement, anywhere."""
    got = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            got.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                got.add(node.module + "." + a.name if node.module + "." + a.name in known else node.module)
    return got & known


def left_behind(modules, packages=()):
    """["dropped -> what it leaves loaded"] for {name: source}: a module loaded for one use or
    forgotten whose plain imports are neither imported by a module that stays nor forgotten
    (a package, loaded all along, counts as neither)."""
    dropped, forgotten = set(), set()
    for source in modules.values():
        named = _named(source)
        dropped |= named["use"] | named["forget"] | named["__import__"]
        forgotten |= named["forget"]
    known = set(modules)
    kept_imports = set()
    for name, source in modules.items():
        if name not in dropped:
            kept_imports |= _imports(source, known)
    found = []
    for name in sorted(dropped & known):
        for target in sorted(_imports(modules[name], known) - kept_imports - forgotten - {name}
                             - set(packages)):
            found.append("%s -> %s" % (name, target))
    return found


def test_the_checker_names_a_module_left_loaded_by_a_dropped_one():
    modules = {
        "app": "from mods import use, forget\nimport keep\n\ndef start():\n    use('once').go()\n"
               "    forget('page')\n",
        "mods": "", "keep": "import shared\n", "shared": "",
        "once": "import shared\nfrom reader import parse\nfrom store import Files\n",
        "reader": "", "store": "",
        "page": "def show():\n    import host\n", "host": "",
    }
    assert left_behind(modules) == ["once -> reader", "once -> store", "page -> host"]
    modules["keep"] += "from store import Files\n"  # a module that stays needs it anyway
    modules["app"] += "    forget('host')\n"  # the app drops it by name
    modules["once"] = modules["once"].replace("from reader import parse\n", "")
    assert left_behind(modules) == []


def test_no_dropped_module_leaves_one_of_its_own_loaded():
    found = sources()
    firmware = {name: source for name, (source, _) in found.items() if name.startswith("connect4")}
    packages = [name for name in firmware if found[name][1]]
    assert "connect4.app.takeback" in firmware and "connect4.app" in packages
    found = [f for f in left_behind(firmware, packages) if f not in _HELD]
    assert found == [], "modules left loaded for good by a dropped one: " + "; ".join(found)
