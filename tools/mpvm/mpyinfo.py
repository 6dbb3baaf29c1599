"""What a .mpy file puts in the chip's memory (bytecode, native machine code), and its source name.

    python tools/mpvm/mpyinfo.py FILE.mpy [...]

MicroPython loads bytecode into the GC heap but commits native and viper
machine code to the IDF's executable heap (esp32 port: `esp_native_code_commit`),
which the GC heap also grows into. The MicroPython VM used by the tests has no
native emitter, so `tools/mpvm/memory.py` reads the machine code's size here, from
the same `-march=rv32imc` files that `make deploy` copies.

The reader follows MicroPython 1.28's loader (`py/persistentcode.c`, .mpy
version 6): header, qstr table, constant objects, then the tree of raw code.
"""
import sys

KIND_BYTECODE, KIND_NATIVE, KIND_VIPER, KIND_ASM = 0, 1, 2, 3
FLAG_ARCH_FLAGS = 0x40
SCOPE_VIPERRELOC, SCOPE_VIPERRODATA, SCOPE_VIPERBSS = 0x10, 0x20, 0x40
OBJ_STR, OBJ_BYTES, OBJ_TUPLE = 5, 6, 10  # MP_PERSISTENT_OBJ_*; 0-4 carry no data


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        if self.pos >= len(self.data):
            raise ValueError("truncated .mpy at byte %d" % self.pos)
        self.pos += 1
        return self.data[self.pos - 1]

    def bytes(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("truncated .mpy at byte %d" % self.pos)
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def uint(self):
        n = 0
        while True:
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n


def _prelude_scope_flags(code, offset):
    """The scope flags in a bytecode prelude signature (MP_BC_PRELUDE_SIG_DECODE)."""
    z = code[offset]
    flags, n, i = 0, 0, offset + 1
    while z & 0x80:
        z = code[i]
        i += 1
        flags |= ((z & 0x40) >> 6) << n
        n += 1
    return flags


def _object(r):
    kind = r.byte()
    if kind <= 4:
        return
    n = r.uint()
    if kind == OBJ_TUPLE:
        for _ in range(n):
            _object(r)
        return
    r.bytes(n)
    if kind in (OBJ_STR, OBJ_BYTES):
        r.byte()  # NUL


def _relocations(r):
    while True:
        op = r.byte()
        if op == 0xFF:
            return
        if op & 1:
            r.uint()  # new address
        op >>= 1
        if op <= 5 and op & 1:
            r.uint()  # count


def _raw_code(r, totals):
    kind_len = r.uint()
    kind, has_children, size = kind_len & 3, kind_len & 4, kind_len >> 3
    code = r.bytes(size)
    flags = 0
    if kind == KIND_BYTECODE:
        totals["bytecode"] += size
    else:
        totals["native"] += size
        totals["native_functions"] += 1
        if kind == KIND_NATIVE:
            flags = _prelude_scope_flags(code, r.uint())
        else:
            flags = r.uint()
            if kind == KIND_ASM:
                r.uint()
                r.uint()
        if kind == KIND_VIPER:
            rodata = r.uint() if flags & SCOPE_VIPERRODATA else 0
            bss = r.uint() if flags & SCOPE_VIPERBSS else 0
            r.bytes(rodata)
            totals["viper_data"] += rodata + bss  # in the GC heap
    if has_children:
        for _ in range(r.uint()):
            _raw_code(r, totals)
    if kind != KIND_BYTECODE and flags & SCOPE_VIPERRELOC:
        _relocations(r)


def sizes(data):
    """{'bytecode', 'native', 'native_functions', 'viper_data', 'arch'} of one .mpy image."""
    r = Reader(data)
    header = r.bytes(4)
    if header[0:1] != b"M" or header[1] != 6:
        raise ValueError("not a version 6 .mpy file")
    arch = (header[2] >> 2) & 0x2F
    if header[2] & FLAG_ARCH_FLAGS:
        r.uint()
    n_qstr, n_obj = r.uint(), r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if not n & 1:  # not a static qstr: the string follows
            r.bytes((n >> 1) + 1)
    for _ in range(n_obj):
        _object(r)
    totals = {"bytecode": 0, "native": 0, "native_functions": 0, "viper_data": 0, "arch": arch}
    _raw_code(r, totals)
    if r.pos != len(data):
        raise ValueError("%d bytes left after the raw code" % (len(data) - r.pos))
    return totals


def source_name(data):
    """The source file name a .mpy image carries (mpy-cross -s), which tracebacks
    show: the first entry of its qstr table. None if it is a static qstr."""
    r = Reader(data)
    header = r.bytes(4)
    if header[0:1] != b"M" or header[1] != 6:
        raise ValueError("not a version 6 .mpy file")
    if header[2] & FLAG_ARCH_FLAGS:
        r.uint()
    n_qstr = r.uint()
    r.uint()  # n_obj
    if not n_qstr:
        return None
    n = r.uint()
    if n & 1:  # a static qstr: only its index is stored
        return None
    return r.bytes(n >> 1).decode()


def file_sizes(path):
    with open(path, "rb") as f:
        return sizes(f.read())


def main(argv):
    for path in argv:
        s = file_sizes(path)
        with open(path, "rb") as f:
            name = source_name(f.read())
        print("%s: source %s, %d bytes bytecode, %d bytes native code in %d functions, "
              "%d bytes viper data" % (path, name, s["bytecode"], s["native"],
                                       s["native_functions"], s["viper_data"]))


if __name__ == "__main__":
    main(sys.argv[1:])
