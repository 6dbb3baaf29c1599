#!/usr/bin/env node
// The protocol's own client, npm improv-wifi-serial-sdk's ImprovSerial (the version ESP Web
// Tools pins: package.json), with this process's stdin and stdout as its serial port: what
// the board wrote comes on stdin, what the client writes goes to stdout. tools/improv/sdk.py
// runs it against the firmware (in CPython, or the emulated chip's UART).
//
//   node tools/improv/client.mjs '[["initialize", 5000], ["scan"], ["provision", "Net", "pw"]]'
//
// Each step's outcome is a line `RESULT {...}` on stderr, in order; the client's own log
// lines are `LOG ...`. Steps:
//   ["initialize", ms]           client.initialize(ms): the state (and URL) then the device info
//   ["state"]                    client.requestCurrentState()
//   ["info"]                     client.requestInfo()
//   ["scan"]                     client.scan()
//   ["provision", ssid, pw, ms]  client.provision(ssid, pw, ms)
//   ["rpc", command, [bytes]]    an RPC of the client's own framing with any command and data
//   ["raw", hex, ms]             these bytes as they are (a bad frame), then the device's error
//                                 state within ms (or none)
// A step that fails says so ({"error": ...}); every result carries the client's state and
// error as the device last set them.
import { register } from "node:module";
import { Readable } from "node:stream";

// The SDK's dist imports "./util/hex-formatter" without its ".js", as a bundler takes it;
// Node's ESM loader does not: add it.
register("data:text/javascript," + encodeURIComponent(
  "export async function resolve(s, c, next) { try { return await next(s, c); } catch (e) {" +
  " if (s.startsWith('.') && !s.endsWith('.js')) return next(s + '.js', c); throw e; } }"));
const { ImprovSerial } = await import("improv-wifi-serial-sdk/dist/serial.js");

const steps = JSON.parse(process.argv[2] || "[]");
const port = {
  readable: Readable.toWeb(process.stdin),
  writable: new WritableStream({ write(chunk) { return new Promise((r) => process.stdout.write(chunk, r)); } }),
};
const say = (kind, obj) => process.stderr.write(kind + " " + JSON.stringify(obj) + "\n");
const logger = {
  log: (...a) => say("LOG", a.map(String).join(" ")),
  error: (...a) => say("LOG", a.map(String).join(" ")),
  debug: () => {},
};
const client = new ImprovSerial(port, logger);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let reading = false;

async function run(step) {
  const [what, ...args] = step;
  if (what === "initialize") {
    reading = true;
    const info = await client.initialize(args[0]);
    return { info, nextUrl: client.nextUrl || null };
  }
  if (!reading) {  // the client reads from its first request on (initialize starts it)
    client._processInput();
    reading = true;
  }
  if (what === "state") {
    client.nextUrl = undefined;
    await client.requestCurrentState();
    return { nextUrl: client.nextUrl || null };
  }
  if (what === "info") {
    await client.requestInfo();
    return { info: client.info };
  }
  if (what === "scan") return { networks: await client.scan() };
  if (what === "provision") {
    await client.provision(args[0], args[1], args[2]);
    return { nextUrl: client.nextUrl || null };
  }
  if (what === "rpc") return { strings: await client._sendRPCWithResponse(args[0], args[1], 3000) };
  if (what === "raw") {
    const changed = new Promise((r) => client.addEventListener("error-changed", () => r(true), { once: true }));
    const writer = port.writable.getWriter();
    await writer.write(Uint8Array.from(Buffer.from(args[0], "hex")));
    writer.releaseLock();
    return { answered: await Promise.race([changed, sleep(args[1]).then(() => false)]) };
  }
  throw new Error("unknown step " + what);
}

for (const step of steps) {
  let out;
  try {
    out = await run(step);
  } catch (e) {
    out = { error: String(e && e.message !== undefined ? e.message : e) };
  }
  say("RESULT", Object.assign({ step: step[0], state: client.state ?? null, deviceError: client.error }, out));
}
await Promise.race([client.close(), sleep(1000)]);
process.exit(0);
