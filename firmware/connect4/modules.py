"""Modules the board uses once, dropped from the heap again.

Its own module, the lowest of the package, so that boot (the hardware's and the
app's builders) and connect4.net.pairing (the paired phones' file) both import
it downward. Kept tiny: every module loaded costs heap.
"""


def forget(*names):
    """Drop these modules: what nothing else holds of them goes back to the heap (0.3 KB
    in `make memory` for the builders: the Hardware that hardware_setup built keeps that
    module's globals alive), and the next import loads them again. Only for a module
    whose one importer imports it inside a function."""
    import sys
    for name in names:
        if name in sys.modules:
            del sys.modules[name]
        dot = name.rfind(".")
        package = sys.modules.get(name[:dot])
        if package is not None:
            try:
                delattr(package, name[dot + 1:])
            except (AttributeError, KeyError):  # (MicroPython's module raises KeyError)
                pass


def use(name):
    """The module `name` for one use: loaded, and at once out of sys.modules again, so that it
    leaves the heap with its last user (a game's end, the records file: rare work whose code
    need not stay). Each use loads it again (its names are interned already)."""
    module = __import__(name, None, None, ("_",))
    forget(name)
    return module
