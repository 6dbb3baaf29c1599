// The page around the board: draws the LED frames the firmware writes, turns mouse, touch and
// keys into the levels of its buttons, keeps its flash in localStorage, and shows the words the
// worker sends (lib/words.py: the status line, the menu beside the LEDs, the live region, the
// AI's speed line). The firmware itself runs in worker.js. window.c4 is what the tests read.
const CLICK_MS = 80; // a press is held at least this long (the firmware debounces 50 ms), as host_sim's CLICK_MS
const LONG_MS = 1000; // the L key: a long press (the firmware's long_press_ms is 800)
const FLASH_KEY = "c4.flash";
const BUILD_KEY = "c4.build";
const $ = (id) => document.getElementById(id);

const c4 = window.c4 = {
  errors: [], frames: 0, state: {}, games: [], lastFrame: "", searches: [], said: [], ready: false, shared: false,
  panel: null, log: [],
  drawn: () => [...$("matrix").children].map((el) => el.dataset.duty),
};

function showError(text) {
  c4.errors.push(String(text));
  const box = $("errors");
  box.hidden = false;
  box.textContent = c4.errors.slice(-5).join("\n\n");
}
window.addEventListener("error", (e) => showError(`page: ${e.message} (${e.filename}:${e.lineno})`));
window.addEventListener("unhandledrejection", (e) => showError(`page: ${(e.reason && e.reason.stack) || e.reason}`));

let site = null;
let worker = null;
let shared = null;
let levels = new Int32Array(4);
let pins = {};
let pixels = [];
let drawPending = false;

const build = () => Object.assign({ preset: "encoder", size: "8x8", wiring: "progressive", rotation: "0" },
  JSON.parse(localStorage.getItem(BUILD_KEY) || "{}"));
const flash = () => JSON.parse(localStorage.getItem(FLASH_KEY) || "{}");

function overrides(b) {
  const [w, h] = b.size.split("x").map(Number);
  return { width: w, height: h, serpentine: b.wiring === "serpentine", rotation: Number(b.rotation) };
}

// ---- the matrix
function color(duty) {
  const c = site.curve;
  return `rgb(${c[duty[0]]}, ${c[duty[1]]}, ${c[duty[2]]})`;
}

function layoutMatrix(panel) {
  const m = $("matrix");
  m.style.gridTemplateColumns = `repeat(${panel.width}, 1fr)`;
  m.style.setProperty("--aspect", `${panel.width} / ${panel.height}`);
  m.replaceChildren();
  for (let i = 0; i < panel.width * panel.height; i++) {
    const led = document.createElement("div");
    led.className = "led";
    led.dataset.duty = "0,0,0";
    m.appendChild(led);
  }
  pixels = new Array(panel.width * panel.height).fill("0,0,0");
}

function receiveFrame(hex) {
  const p = c4.panel;
  if (!p) return;
  c4.frames++;
  c4.lastFrame = hex;
  const o = p.order;
  for (let led = 0; led < p.cells.length; led++) {
    const base = 6 * led;
    if (base + 6 > hex.length) break;
    const b = [0, 1, 2].map((k) => parseInt(hex.substr(base + 2 * k, 2), 16));
    pixels[p.cells[led]] = `${b[o[0]]},${b[o[1]]},${b[o[2]]}`;
  }
  if (!drawPending) { drawPending = true; requestAnimationFrame(draw); }
}

function draw() {
  drawPending = false;
  const leds = $("matrix").children;
  const hole = `rgb(${site.hole.join(", ")})`;
  for (let i = 0; i < pixels.length && i < leds.length; i++) {
    if (leds[i].dataset.duty === pixels[i]) continue;
    const duty = pixels[i].split(",").map(Number);
    leds[i].dataset.duty = pixels[i];
    leds[i].style.background = duty.some((d) => d) ? color(duty) : hole;
  }
}

// ---- the controls
const INDEX = { select: 0, left: 1, right: 2 };
const downAt = {};

function setLevel(name, down) {
  const i = INDEX[name];
  if (shared) Atomics.store(levels, i, down ? 1 : 0);
  else { levels[i] = down ? 1 : 0; worker && worker.postMessage({ type: "levels", levels: [...levels] }); }
  $(name).classList.toggle("down", down);
}

function press(name) {
  downAt[name] = performance.now();
  if ((name === "left" || name === "right") && pins.a !== undefined) {
    worker.postMessage({ type: "turn", dir: name === "right" ? 1 : -1 }); // the encoder: one detent
    $(name).classList.add("down");
    return;
  }
  setLevel(name, true);
}

function release(name) {
  if (downAt[name] === undefined) return;
  const held = performance.now() - downAt[name];
  delete downAt[name];
  const up = () => {
    if (downAt[name] !== undefined) return; // pressed again meanwhile
    if ((name === "left" || name === "right") && pins.a !== undefined) $(name).classList.remove("down");
    else setLevel(name, false);
  };
  if (held < CLICK_MS) setTimeout(up, CLICK_MS - held); else up();
}

const ACTIVATE = { " ": true, Enter: true }; // a focused control's own keys

function wireButton(name) {
  const el = $(name);
  el.addEventListener("pointerdown", (e) => { e.preventDefault(); el.setPointerCapture?.(e.pointerId); press(name); });
  for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) el.addEventListener(ev, () => release(name));
  el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is a long press, not a menu
  // by keyboard, a focused control is pressed by Space or Enter, held as long as the key is
  el.addEventListener("keydown", (e) => {
    if (!ACTIVATE[e.key] || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (!e.repeat) press(name);
  });
  el.addEventListener("keyup", (e) => { if (ACTIVATE[e.key]) { e.preventDefault(); release(name); } });
  el.addEventListener("blur", () => release(name));
}

const KEYS = { ArrowLeft: "left", a: "left", A: "left", ArrowRight: "right", d: "right", D: "right",
  " ": "select", Enter: "select" };

// The board's keys work while the board, or nothing, has the focus: every other control
// (a button, a list, a link, Build's summary) keeps its own keys.
function boardHasFocus() {
  const el = document.activeElement;
  return !el || el === document.body || el === document.documentElement || el === $("board");
}

function wireKeys() {
  const held = {}; // the board's keys down now, so that their release goes where their press went
  document.addEventListener("keydown", (e) => {
    // (an open list's own Escape closes it: the page hears no key while a list is open)
    if (e.key === "Escape" && !boardHasFocus()) { $("board").focus(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey || !boardHasFocus()) return;
    const name = KEYS[e.key];
    if (name) { e.preventDefault(); if (!e.repeat) { held[e.key] = name; press(name); } return; }
    if (e.repeat) return;
    if (e.key === "l" || e.key === "L") { press("select"); setTimeout(() => release("select"), LONG_MS); }
    if (e.key === "h" || e.key === "H") { // the hint: SELECT held while turning right
      press("select");
      setTimeout(() => { press("right"); setTimeout(() => release("right"), CLICK_MS); }, 100);
      setTimeout(() => release("select"), 400);
    }
  });
  document.addEventListener("keyup", (e) => {
    const name = held[e.key];
    if (name) { delete held[e.key]; release(name); }
  });
}

// ---- the worker
function say(text) { $("status").textContent = text; }

function showMenu(text) {
  const box = $("menu-words");
  box.hidden = !text;
  box.textContent = text || "";
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function onMessage(ev) {
  const m = ev.data;
  if (m.type === "frame") receiveFrame(m.hex);
  else if (m.type === "pins") pins = m.pins;
  else if (m.type === "panel") { c4.panel = m.panel; layoutMatrix(m.panel); }
  else if (m.type === "state") {
    Object.assign(c4.state = c4.state || {}, m.state);
    if (m.state.stats) c4.boot = m.state;
    $("status").dataset.state = m.state.state;
    $("status").dataset.moves = m.state.moves;
    if (m.state.status) say(m.state.status);
    showMenu(m.state.menu);
    if (m.state.said) { c4.said.push(m.state.said); $("said").textContent = m.state.said; }
  } else if (m.type === "game") {
    c4.games = (c4.games || []).concat([m.game]);
  } else if (m.type === "search") { c4.searches.push(m.result); $("speed").textContent = m.result.words; }
  else if (m.type === "flash") {
    const f = flash();
    for (const [name, b64] of Object.entries(m.changes)) { if (b64 === null) delete f[name]; else f[name] = b64; }
    try { localStorage.setItem(FLASH_KEY, JSON.stringify(f)); } catch (e) { showError(`flash not kept: ${e}`); }
    c4.flashWrites = (c4.flashWrites || 0) + 1;
  } else if (m.type === "ready") {
    c4.ready = true;
    const b = build();
    $("build-line").textContent = `Build: ${b.preset === "encoder" ? "a rotary encoder" : "three buttons"}, ` +
      `${b.size} panel; ${plural(Object.keys(flash()).length, "file", "files")} of its flash kept in this browser.`;
  } else if (m.type === "halted") say("stopped after five crashes in a row (the red cross): reload the page");
  else if (m.type === "log") {
    c4.log.push(m.text);
    const con = $("console");
    con.textContent = c4.log.slice(-200).join("\n");
    con.scrollTop = con.scrollHeight;
  } else if (m.type === "error") showError(m.text);
}

function start() {
  if (worker) worker.terminate();
  c4.ready = false;
  c4.state = {};
  c4.boot = null;
  for (const id of ["speed", "said", "build-line"]) $(id).textContent = ""; // they spoke of the last build
  showMenu("");
  levels = shared ? new Int32Array(shared, 0, 4) : new Int32Array(4);
  levels.fill(0);
  worker = new Worker("worker.js", { type: "module" });
  worker.onmessage = onMessage;
  worker.onerror = (e) => showError(`worker: ${e.message || "failed to start"} (${e.filename || ""}:${e.lineno || ""})`);
  const b = build();
  const seed = Number(new URLSearchParams(location.search).get("seed")) || 0;
  worker.postMessage({ type: "boot", preset: b.preset, overrides: overrides(b), seed, flash: flash(), shared,
    rate: site.chip_nodes_per_second });
  say("starting MicroPython…");
}

// Engine protocol lines answered by the page's MicroPython (a worker of its own): the tests
// compare them with `python -m host_sim.engine --no-book`. c4.engineTimed gives {out, ms: per line}.
c4.engine = (lines) => c4.engineTimed(lines).then((r) => r.out);
c4.engineTimed = (lines) => new Promise((resolve, reject) => {
  const w = new Worker("worker.js", { type: "module" });
  w.onmessage = (ev) => {
    if (ev.data.type === "engine") { w.terminate(); resolve(ev.data); }
    else if (ev.data.type === "error") { w.terminate(); reject(new Error(ev.data.text)); }
  };
  w.postMessage({ type: "engine", lines });
});

function wireSetup() {
  const b = build();
  for (const key of ["preset", "size", "wiring", "rotation"]) {
    $(key).value = b[key];
    $(key).addEventListener("change", () => {
      const nb = build();
      nb[key] = $(key).value;
      localStorage.setItem(BUILD_KEY, JSON.stringify(nb));
      start(); // a power cycle with the new build; the flash is kept
    });
  }
  $("erase").addEventListener("click", () => {
    if (!confirm("Erase the board's flash (settings, statistics, records)?")) return;
    localStorage.removeItem(FLASH_KEY);
    start();
  });
}

async function main() {
  site = await (await fetch("site.json")).json();
  if (window.crossOriginIsolated && typeof SharedArrayBuffer === "function") shared = new SharedArrayBuffer(32);
  c4.shared = !!shared;
  if (!shared) { // said where it is seen: a press during a long search will wait
    $("isolation").hidden = false;
    $("isolation").textContent = "This host does not send the cross-origin isolation headers (COOP/COEP): " +
      "the buttons reach the firmware between its loop steps only, so a press during a long search waits " +
      "for its end.";
  }
  const d = site.download; // tools/site/build.py's download(), as `make site` prints it
  const kb = (n) => `${Math.round(n / 1024).toLocaleString("en")} KB`;
  $("size-note").textContent = `This page downloads ${kb(d.total)}: MicroPython ${kb(d.micropython)}, ` +
    `the firmware ${kb(d.firmware)}, its opening book ${kb(d.book)} and the page itself ${kb(d.page)}.`;
  for (const name of ["left", "select", "right"]) wireButton(name);
  wireKeys();
  wireSetup();
  start();
}

main().catch((e) => showError(`page: ${e.stack || e}`));
