#!/usr/bin/env node
// Run a script in the real MicroPython VM (WebAssembly build) under Node, so
// tests exercise MicroPython semantics (31-bit small ints, no native emitter,
// a fixed-size GC heap) instead of CPython's.
//
//   node tools/mpvm/run.mjs [--heap 256k] [--grow] [--pystack WORDS] [--path DIR=VMDIR ...]
//                           [--strip-native] [--cwd VMDIR] script.py [args...]
//
// --heap caps the GC heap (MemoryError past it, as on the board); --grow lets
// it grow like the stock build (then only --heap's first area is fixed).
// --pystack sets the stack of Python frames in 4-byte words (default 65536):
// a small one fails like the chip's 15,360-byte stack (tools/mpvm/__init__.py
// CHIP_PYSTACK_WORDS), with `RuntimeError: pystack exhausted`.
//
// Exit status: the script's sys.exit() code, 1 on an uncaught exception, else 0.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const COPY_EXT = new Set([".py", ".mpy", ".json", ".txt", ".csv", ".bin", ".gz"]);
const NATIVE_LINE = /^\s*@micropython\.(native|viper)\s*(#.*)?$/;
// The port's gc.mem_free() adds this constant "max new split" (port main.c);
// with the heap capped no split can happen, so it is subtracted back.
const MAX_NEW_SPLIT = 128 * 1024 * 1024;

function usage(msg) {
  process.stderr.write(`mpvm: ${msg}\nusage: run.mjs [--heap 256k] [--grow] [--pystack WORDS] [--path DIR=VMDIR ...] ` +
    `[--strip-native] [--cwd VMDIR] script.py [args...]\n`);
  process.exit(2);
}

function parseSize(s) {
  const m = /^(\d+)([kKmM]?)$/.exec(s || "");
  if (!m) usage(`bad size: ${s}`);
  return Number(m[1]) * ({ k: 1024, m: 1048576 }[m[2].toLowerCase()] || 1);
}

function parseArgs(argv) {
  const o = { heap: 256 * 1024, pystack: 64 * 1024, paths: [], strip: false, grow: false, cwd: null,
    script: null, args: [] };
  let i = 0;
  for (; i < argv.length && argv[i].startsWith("--"); i++) {
    const a = argv[i];
    if (a === "--strip-native") o.strip = true;
    else if (a === "--grow") o.grow = true;
    else if (a === "--heap") o.heap = parseSize(argv[++i]);
    else if (a === "--pystack") o.pystack = parseSize(argv[++i]);
    else if (a === "--cwd") o.cwd = argv[++i];
    else if (a === "--path") {
      const [host, vm] = (argv[++i] || "").split("=");
      if (!host || !vm || !vm.startsWith("/")) usage(`bad --path: ${argv[i]}`);
      o.paths.push([path.resolve(host), vm.replace(/\/+$/, "") || "/"]);
    } else usage(`unknown option ${a}`);
  }
  if (i >= argv.length) usage("no script");
  o.script = argv[i];
  o.args = argv.slice(i + 1);
  return o;
}

function fileText(hostFile, strip) {
  const data = fs.readFileSync(hostFile);
  if (!strip || !hostFile.endsWith(".py")) return data;
  // Blank the decorator line (not delete it) so tracebacks keep line numbers.
  return data.toString("utf8").split("\n").map((l) => (NATIVE_LINE.test(l) ? "" : l)).join("\n");
}

function copyTree(FS, hostDir, vmDir, strip) {
  FS.mkdirTree(vmDir);
  for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (ent.name.startsWith(".") || ent.name === "__pycache__") continue;
    const h = path.join(hostDir, ent.name);
    const v = path.posix.join(vmDir, ent.name);
    if (ent.isDirectory()) copyTree(FS, h, v, strip);
    else if (ent.isFile() && COPY_EXT.has(path.extname(ent.name))) FS.writeFile(v, fileText(h, strip));
  }
}

function vmExists(FS, p) {
  try { FS.stat(p); return true; } catch { return false; }
}

// Resolve the script: a path already in the VM, a host file under a mapped DIR
// (use the mapped copy), or any other host file (copied under /tmp/mpvm, so it
// stays out of a board's filesystem mapped at /).
function placeScript(FS, o) {
  if (o.script.startsWith("/") && vmExists(FS, o.script) && !fs.existsSync(o.script)) return o.script;
  const host = path.resolve(o.script);
  if (!fs.existsSync(host)) usage(`script not found: ${o.script}`);
  for (const [dir, vm] of o.paths) {
    if (host.startsWith(dir + path.sep)) return path.posix.join(vm, path.relative(dir, host).split(path.sep).join("/"));
  }
  const vm = path.posix.join("/tmp/mpvm", host.split(path.sep).join("/"));
  FS.mkdirTree(path.posix.dirname(vm));
  FS.writeFile(vm, fileText(host, o.strip));
  return vm;
}

// Stdout/stderr: line-buffered per stream, flushed at exit.
function lineSink(stream) {
  let buf = [];
  const flush = () => { if (buf.length) { stream.write(Buffer.from(buf)); buf = []; } };
  return { put: (c) => { buf.push(c); if (c === 10) flush(); }, flush };
}

// Stdin: blocking reads of fd 0; a non-blocking pipe's EAGAIN waits 5 ms and retries.
// Output is flushed before each wait, so a prompt without a newline is seen.
function stdinReader(flush) {
  const chunk = Buffer.alloc(4096);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let pos = 0, end = 0;
  return () => {
    if (pos === end) flush();
    while (pos === end) {
      try { end = fs.readSync(0, chunk, 0, chunk.length, null); pos = 0; } catch (e) {
        if (e.code === "EAGAIN") { Atomics.wait(nap, 0, 0, 5); continue; }
        if (e.code === "EOF") return null;
        throw e;
      }
      if (!end) return null;
    }
    return chunk[pos++];
  };
}

// The port's GC heap grows by malloc'ing new "split" areas, so without help
// the VM never raises MemoryError. Freeze wasm memory growth and fill the
// malloc arena, keeping a small reserve (smaller than the GC heap, so no new
// split area ever fits) for the JS glue's own tiny mallocs.
let frozen = false;
const realGrow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (frozen) throw new RangeError("mpvm: wasm memory frozen");
  return realGrow.call(this, pages);
};
const realError = console.error;
console.error = (...a) => {
  if (!/^(growMemory:|Failed to grow the heap|Cannot enlarge memory)/.test(String(a[0]))) realError(...a);
};

function exhaustMalloc(M, heap) {
  frozen = true;
  const reserve = M._malloc(Math.min(64 * 1024, heap >> 1));
  for (let size = 1 << 30; size >= 8;) if (!M._malloc(size)) size >>= 1;
  M._free(reserve);
}

const o = parseArgs(process.argv.slice(2));
const out = lineSink(process.stdout), err = lineSink(process.stderr);
const mp = await loadMicroPython({
  heapsize: o.heap, pystack: o.pystack, linebuffer: false,
  stdout: (b) => out.put(b[0]), stderr: (b) => err.put(b[0]),
  stdin: stdinReader(() => { out.flush(); err.flush(); }),
});
for (const [dir, vm] of o.paths) copyTree(mp.FS, dir, vm, o.strip);
const script = placeScript(mp.FS, o);
if (!o.grow) exhaustMalloc(mp._module, o.heap);

// Bootstrap. This port only garbage-collects when control is back in JS
// (between top-level calls: wasm locals can't be scanned), so a script may hand
// an iterator to `_mpvm.run_steps()`; each next() then runs as its own
// top-level call and the heap is collected in between.
const J = JSON.stringify;
const boot = `
def _mpvm_boot(script, argv, paths, cwd, strip, split):
    import sys, gc
    sys.argv[:] = argv
    sys.path[:0] = [script.rsplit('/', 1)[0] or '/'] + paths
    class _gc:
        pass
    for k in dir(gc):
        if k[0] != '_':
            setattr(_gc, k, getattr(gc, k))
    _gc.mem_free = lambda: gc.mem_free() - split
    sys.modules['gc'] = _gc
    if strip:
        import builtins
        ident = lambda x: x
        builtins.ptr8 = builtins.ptr16 = builtins.ptr32 = builtins.uint = ident
    if cwd:
        import os
        os.chdir(cwd)
    state = [None]
    class host:
        def run_steps(steps):
            state[0] = iter(steps)
    sys.modules['_mpvm'] = host
    g = globals()
    del g['_mpvm_boot']
    g['__file__'] = script
    # Pre-made slots: setting them later allocates nothing, even on a full heap.
    g['_mpvm_rc'] = None
    g['_mpvm_step'] = lambda: run(next, state[0])
    def run(fn, *args):
        try:
            fn(*args)
            gc.collect()  # only marks a collection due: it runs when control is back in JS
            if state[0] is None:
                g['_mpvm_rc'] = 0
            return
        except StopIteration:
            rc = 0
        except SystemExit as e:
            rc = e.args[0] if e.args else 0
            if rc is None:
                rc = 0
            elif not isinstance(rc, int):
                try:
                    print(rc, file=sys.stderr)
                except BaseException:
                    pass
                rc = 1
        except BaseException as e:
            try:
                sys.print_exception(e, sys.stderr)
            except BaseException:
                pass
            rc = 1
        state[0] = None
        g['_mpvm_rc'] = rc
    run(execfile, script, g)
_mpvm_boot(${J(script)}, ${J([script, ...o.args])}, ${J(o.paths.map((p) => p[1]))}, ${J(o.cwd || "")}, ${o.strip ? "True" : "False"}, ${o.grow ? 0 : MAX_NEW_SPLIT})
`;
let rc;
try {
  mp.runPython(boot);
  while ((rc = mp.globals.get("_mpvm_rc")) == null) mp.runPython("_mpvm_step()");
} catch (e) {
  out.flush();
  process.stderr.write(`mpvm: VM error: ${(e && e.stack) || e}\n`);
  rc = 1;
}
out.flush();
err.flush();
process.exitCode = typeof rc === "number" ? rc & 0xff : 1;
