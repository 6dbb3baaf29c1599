"""Every import points one way: no circle among the modules of firmware/, host_sim/ and tools/.

A circle (a imports b, b imports a, directly or round several modules) means
neither side can be read, tested or loaded without the other, and on the chip a
module loaded for one job drags its importer's in. The graph is read
statically with ast: every `import` and `from ... import` counts as an arrow,
at the top of a module or inside a function (a lazy import is still a
dependency), and so does a module loaded for one use by its name
(connect4.modules.use("connect4.app.ending"), `__import__`). A circle is named module by module; the checker is shown firing on
small synthetic sources.
"""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (folder, the folder its modules are named from): the firmware as the board imports it
# (connect4.boot, config), the simulator and the tools from the repository root
TREES = (("firmware", "firmware"), ("host_sim", ""), ("tools", ""))


def bare_names():
    """{bare name: module} of the modules also imported under a bare name: the simulator's
    stand-ins for the chip's modules (host_sim puts host_sim/stubs on sys.path), and the
    browser page's lib/ (tools/site/build.py's LIB)."""
    from tools.site.build import LIB
    stubs = os.path.join(ROOT, "host_sim", "stubs")
    names = {n[:-3]: "host_sim.stubs." + n[:-3] for n in os.listdir(stubs) if n.endswith(".py")}
    names.update((os.path.basename(lib)[:-3], src[:-3].replace("/", ".")) for src, lib in LIB)
    return names


def sources():
    """{module name: (source, is it a package's __init__)} of every .py file of TREES."""
    found = {}
    for folder, base in TREES:
        for here, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(here, name)
                    parts = os.path.relpath(path, os.path.join(ROOT, base))[:-3].split(os.sep)
                    package = parts[-1] == "__init__"
                    with open(path, encoding="utf-8") as f:
                        found[".".join(parts[:-1] if package else parts)] = (f.read(), package)
    return found


def arrows(modules, bare=None):
    """{module: the modules of `modules` it imports}, from {name: (source, is a package)};
    `bare` maps other names a module is imported by to its name."""
    bare = bare or {}

    def known(name):
        return bare.get(name, name) if bare.get(name, name) in modules else None

    graph = {}
    for name, (source, package) in modules.items():
        here = name if package else name.rpartition(".")[0]
        got = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = alias.name  # `import a.b.c`: the deepest of them that is ours
                    while target and not known(target):
                        target = target.rpartition(".")[0]
                    if target:
                        got.add(known(target))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[:len(here.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for alias in node.names:  # `from p import m`: the module p.m, else p itself
                    target = known(base + "." + alias.name) or known(base)
                    if target:
                        got.add(target)
            elif (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", ""))
                  in ("use", "__import__") and node.args and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str) and known(node.args[0].value)):
                got.add(known(node.args[0].value))  # a module loaded by its name
        got.discard(name)
        graph[name] = got
    return graph


def knots(graph):
    """The groups of modules that import one another, round and round (Tarjan's strongly
    connected parts of more than one module), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            knot = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                knot.append(w)
                if w == v:
                    break
            if len(knot) > 1:
                found.append(sorted(knot))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def circle(graph, knot):
    """The shortest circle [a, b, ..., a] through the knot's first module, inside the knot."""
    start = knot[0]
    paths, seen = [[start]], {start}
    while True:  # breadth first: every module of a knot leads back to start
        path = paths.pop(0)
        nxt = sorted(set(graph[path[-1]]) & set(knot))
        if start in nxt:
            return path + [start]
        for w in nxt:
            if w not in seen:
                seen.add(w)
                paths.append(path + [w])


def circles(graph):
    """A circle of each knot, and the knot's other modules: ["a -> b -> a (and c, d)"]."""
    said = []
    for knot in knots(graph):
        way = circle(graph, knot)
        rest = [m for m in knot if m not in way]
        said.append(" -> ".join(way) + (" (and %s)" % ", ".join(rest) if rest else ""))
    return said


def test_the_checker_names_a_circle_of_top_level_and_function_level_imports():
    modules = {
        "pkg": ("", True),
        "pkg.low": ("import os\n", False),
        "pkg.a": ("from pkg import b\nfrom pkg.low import x\n", False),
        "pkg.b": ("import pkg.low\n\ndef f():\n    from .c import g  # lazy: an arrow all the same\n", False),
        "pkg.c": ("def g():\n    import pkg.a.thing\n", False),
        "top": ("import chip\n", False),
        "stub": ("import top\n", False),
    }
    graph = arrows(modules, {"chip": "stub"})
    assert graph["pkg.b"] == {"pkg.low", "pkg.c"} and graph["pkg.c"] == {"pkg.a"}
    assert circles(graph) == ["pkg.a -> pkg.b -> pkg.c -> pkg.a", "stub -> top -> stub"]
    modules["pkg.d"] = ("import pkg.b\n", False)
    modules["pkg.c"] = ("def g():\n    import pkg.a.thing\n    from pkg import d\n", False)
    assert circles(arrows(modules, {"chip": "stub"}))[0] == "pkg.a -> pkg.b -> pkg.c -> pkg.a (and pkg.d)"
    del modules["pkg.c"]
    assert circles(arrows(modules, {"chip": "stub"})) == ["stub -> top -> stub"]
    assert circles(arrows({"a": ("import b\n", False), "b": ("import os\n", False)})) == []
    by_name = {"a": ("from m import use\n\ndef f():\n    use('b').g()\n", False),
               "b": ("import a\n", False), "m": ("", False)}
    assert circles(arrows(by_name)) == ["a -> b -> a"]  # a module loaded by its name is an arrow too


def test_the_graph_holds_every_tree():
    graph = arrows(sources(), bare_names())
    assert {"connect4.boot", "connect4.modules", "config", "host_sim.sim", "tools.bench.bench",
            "host_sim.stubs.machine"} <= set(graph)
    assert "connect4.modules" in graph["connect4.net.pairing"]  # a lazy import
    assert "connect4.app.ending" in graph["connect4.app.game"]  # a module loaded by its name
    assert "host_sim.stubs.machine" in graph["connect4.hardware_setup"]  # a bare name
    assert {"machine", "micropython", "words"} <= set(bare_names())
    assert set(bare_names().values()) <= set(graph)


def test_no_import_circles():
    found = circles(arrows(sources(), bare_names()))
    assert found == [], "import circles: " + "; ".join(found)
