// The board's chip: MicroPython (WebAssembly) running the unmodified firmware, in a Web Worker
// so that a search of many seconds never freezes the page.
//
// Messages in:  {type: "boot", preset, overrides, seed, rate, flash: {name: base64}, shared: SharedArrayBuffer|null}
//               (rate: the chip's nodes a second, for the speed line)
//               {type: "turn", dir: +1|-1}       an encoder detent, played one transition per loop step
//               {type: "levels", levels: [...]}  the buttons, when no SharedArrayBuffer can be shared
//               {type: "engine", lines: [...]}   engine protocol lines (an engine-only worker)
// Messages out: ready, frame {hex}, pins, panel, state {...}, game {...}, search {...}, flash {changes},
//               log {text}, error {text}, halted, engine {out}
//
// The buttons: the page holds them in a SharedArrayBuffer (Int32 per control, 1 = held down), read
// here at every Pin.value(); the search's poll hook reads SELECT every 256 nodes, so a press during
// a long search is seen at once. Between loop steps the worker sleeps with Atomics.wait.
import { loadMicroPython } from "./micropython.mjs";

const CONTROLS = ["select", "left", "right"]; // index in the shared levels
const LOOP_SLICE_MS = 25; // run loop steps this long, then let messages in
const FLASH_SYNC_MS = 300;

let mp = null;
let board = null;
let levels = new Int32Array(4); // replaced by the shared one
let nap = null; // Int32Array for Atomics.wait between steps
let gpioName = {}; // gpio -> control name
let enc = { a: 1, b: 1, queue: [] }; // the encoder's contacts (1 = open) and pending transitions
let manifest = new Set();
let flashSeen = new Map(); // name -> "size:mtime"
let loopMs = 2;

const post = (msg) => postMessage(msg);
const fail = (where, e) => post({ type: "error", text: `${where}: ${(e && (e.stack || e.message)) || e}` });

function b64ToBytes(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesToB64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// jsboard: what browser_board.py calls.
const jsboard = {
  pin(gpio) {
    const name = gpioName[gpio];
    if (name === "a" || name === "b") return enc[name] ? null : 0;
    const i = CONTROLS.indexOf(name);
    if (i < 0) return null;
    return Atomics.load(levels, i) ? 0 : null;
  },
  frame(hex) { post({ type: "frame", hex }); },
  pins(json) {
    gpioName = {};
    for (const [name, gpio] of Object.entries(JSON.parse(json))) gpioName[gpio] = name;
    post({ type: "pins", pins: JSON.parse(json) });
  },
  panel(json) { post({ type: "panel", panel: JSON.parse(json) }); },
  state(json) { post({ type: "state", state: JSON.parse(json) }); },
  game(json) { post({ type: "game", game: JSON.parse(json) }); },
  search(json) { post({ type: "search", result: JSON.parse(json) }); },
  error(text) { post({ type: "error", text }); },
};

// world.Controls._turn: clockwise (right) closes B then A, then opens B then A.
function queueTurn(dir) {
  const [first, second] = dir > 0 ? ["b", "a"] : ["a", "b"];
  enc.queue.push([first, 0], [second, 0], [first, 1], [second, 1]);
}

async function loadVM(stdout) {
  const vm = await loadMicroPython({ heapsize: 512 * 1024, pystack: 64 * 1024, linebuffer: true, stdout, stderr: stdout });
  vm.registerJsModule("jsboard", jsboard);
  const toc = await (await fetch("files.json")).json();
  const blob = new Uint8Array(await (await fetch("firmware.pack")).arrayBuffer());
  for (const f of toc.files) {
    const dir = f.path.split("/").slice(0, -1).join("/");
    if (dir) vm.FS.mkdirTree("/" + dir);
    vm.FS.writeFile("/" + f.path, blob.subarray(f.offset, f.offset + f.size));
    manifest.add(f.path);
  }
  vm.FS.mkdirTree("/lib");
  for (const p of toc.lib) vm.FS.writeFile("/" + p, new Uint8Array(await (await fetch(p)).arrayBuffer()));
  // As tools/mpvm/run.mjs --strip-native: viper's casts become plain functions (the blanked
  // decorators leave bytecode, which has no such builtins).
  vm.runPython("import sys, os, builtins\nsys.path[:] = ['', '/', '/lib']\nos.chdir('/')\n" +
    "builtins.ptr8 = builtins.ptr16 = builtins.ptr32 = builtins.uint = lambda x: x");
  return vm;
}

// The flash: files at the root that are not firmware, mirrored to the page (which keeps them).
function restoreFlash(files) {
  for (const [name, b64] of Object.entries(files || {})) {
    if (manifest.has(name) || name.includes("/")) continue;
    mp.FS.writeFile("/" + name, b64ToBytes(b64));
  }
  flashSeen = scanFlash();
}

function scanFlash() {
  const seen = new Map();
  for (const name of mp.FS.readdir("/")) {
    if (name === "." || name === ".." || manifest.has(name)) continue;
    const st = mp.FS.stat("/" + name);
    if (mp.FS.isFile(st.mode)) seen.set(name, `${st.size}:${st.mtime.getTime()}`);
  }
  return seen;
}

function syncFlash() {
  const now = scanFlash();
  const changes = {};
  let any = false;
  for (const [name, sig] of now) {
    if (flashSeen.get(name) !== sig) { changes[name] = bytesToB64(mp.FS.readFile("/" + name)); any = true; }
  }
  for (const name of flashSeen.keys()) if (!now.has(name)) { changes[name] = null; any = true; }
  flashSeen = now;
  if (any) post({ type: "flash", changes });
}

const yieldTask = () => new Promise((resolve) => {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => resolve();
  ch.port2.postMessage(null);
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function runBoard() {
  const step = board.step;
  let lastSync = performance.now();
  for (;;) {
    const until = performance.now() + LOOP_SLICE_MS;
    do {
      if (enc.queue.length) { const [name, level] = enc.queue.shift(); enc[name] = level; }
      let alive;
      try { alive = step(); } catch (e) { fail("firmware step", e); return; }
      if (!alive) { syncFlash(); post({ type: "halted" }); return; }
      if (nap) Atomics.wait(nap, 0, 0, loopMs);
    } while (nap && performance.now() < until);
    if (performance.now() - lastSync >= FLASH_SYNC_MS) { syncFlash(); lastSync = performance.now(); }
    await (nap ? yieldTask() : sleep(loopMs));
  }
}

async function boot(m) {
  const out = (text) => post({ type: "log", text });
  mp = await loadVM(out);
  restoreFlash(m.flash);
  if (m.shared) { levels = new Int32Array(m.shared, 0, 4); nap = new Int32Array(m.shared, 16, 1); }
  mp.globals.set("_boot_args", JSON.stringify({ preset: m.preset, overrides: m.overrides || {}, seed: m.seed || 0,
    rate: m.rate }));
  mp.runPython(
    "import json, browser_board\n" +
    "_a = json.loads(_boot_args)\n" +
    "_board = browser_board.Board(_a['preset'], json.dumps(_a['overrides']), _a['seed'], _a['rate'])\n" +
    "_loop_ms = _board.cfg['loop_ms']\n");
  loopMs = mp.globals.get("_loop_ms");
  board = { step: mp.globals.get("_board").step };
  post({ type: "ready", shared: !!nap });
  await runBoard();
}

async function engine(lines) {
  if (!mp) {
    mp = await loadVM((text) => post({ type: "log", text }));
    mp.runPython("import browser_board\n_engine = browser_board.Engine()");
  }
  const handle = mp.globals.get("_engine").handle;
  const out = [];
  const ms = [];
  for (const line of lines) {
    const t0 = performance.now();
    const text = handle(line); // each line its own top-level call: the heap is collected between
    ms.push(performance.now() - t0);
    if (text) out.push(...text.split("\n"));
  }
  post({ type: "engine", out, ms });
}

onmessage = (ev) => {
  const m = ev.data;
  try {
    if (m.type === "boot") boot(m).catch((e) => fail("boot", e));
    else if (m.type === "turn") queueTurn(m.dir);
    else if (m.type === "levels") levels.set(m.levels);
    else if (m.type === "engine") engine(m.lines).catch((e) => fail("engine", e));
  } catch (e) {
    fail("worker", e);
  }
};
self.addEventListener("error", (e) => fail("worker", e.error || e.message));
self.addEventListener("unhandledrejection", (e) => fail("worker", e.reason));
