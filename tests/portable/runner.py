"""Mini test runner for tests that run on both CPython and MicroPython.

    runner.py module [module ...]

Calls every top-level callable named test_* of each module (sorted by name:
MicroPython dicts are unordered), prints PASS/FAIL lines, then the summary
'mp: N passed, M failed', and exits 1 if any failed. Under tools/mpvm each
test runs as its own VM step, because that port only garbage-collects
between top-level calls; a long run would otherwise exhaust its capped heap.
"""
import gc
import sys


def _print_exc(e):
    if hasattr(sys, "print_exception"):
        sys.print_exception(e)
    else:  # CPython
        import traceback
        traceback.print_exception(type(e), e, e.__traceback__, file=sys.stdout)


def _load(name):
    mod = __import__(name)
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    return mod


def steps(names):
    """Generator: runs one test per next(), then prints the summary."""
    passed = failed = 0
    for name in names:
        try:
            mod = _load(name)
        except Exception as e:
            print("FAIL %s (import): %r" % (name, e))
            _print_exc(e)
            failed += 1
            yield
            continue
        for attr in sorted(dir(mod)):
            fn = getattr(mod, attr)
            if not attr.startswith("test_") or not callable(fn):
                continue
            err = None
            try:
                fn()
            except Exception as e:
                err = e
            fn = None
            gc.collect()  # under mpvm: marks a collection due at the step's end
            yield  # report after the step: a test may leave the heap full
            label = name + "." + attr
            if err is None:
                print("PASS " + label)
                passed += 1
            else:
                print("FAIL %s: %r" % (label, err))
                _print_exc(err)
                failed += 1
    print("mp: %d passed, %d failed" % (passed, failed))
    if failed:
        sys.exit(1)


def main(argv):
    if not argv:
        print("usage: runner.py module [module ...]")
        sys.exit(2)
    try:
        from _mpvm import run_steps  # provided by tools/mpvm/run.mjs
    except ImportError:
        def run_steps(it):
            for _ in it:
                pass
    run_steps(steps(argv))


if __name__ == "__main__":
    main(sys.argv[1:])
