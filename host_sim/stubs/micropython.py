"""CPython stand-in for MicroPython's ``micropython`` module.

The code emitters become identity decorators, so ``@micropython.native`` and
``@micropython.viper`` functions run as plain Python. Inside viper code the
names ``ptr8``/``ptr16``/``ptr32``/``uint`` are compiler casts; here they are
installed into ``builtins`` as plain functions that give the same results as
long as integers stay below 2**30 (the firmware keeps them there).
"""
import builtins


def const(value):
    return value


def native(func):
    return func


def viper(func):
    return func


def bytecode(func):
    return func


def _identity(buf):
    return buf


def _uint(value):
    return value & 0xFFFFFFFF


for _name, _func in (("ptr8", _identity), ("ptr16", _identity),
                     ("ptr32", _identity), ("uint", _uint)):
    if not hasattr(builtins, _name):
        setattr(builtins, _name, _func)


def alloc_emergency_exception_buf(size):
    pass


def schedule(func, arg):
    func(arg)
    return True


def heap_lock():
    return 0


def heap_unlock():
    return 0


def kbd_intr(chr_):
    pass


def opt_level(level=None):
    return 0


def mem_info(verbose=False):
    print("mem: (host simulator)")


def stack_use():
    return 0
