// The install page: says in words whether this browser can install the board (Web Serial, and
// a page served over https or from localhost), whatever ESP Web Tools' button shows.
const check = document.getElementById("browser-check");
const serial = "serial" in navigator;
const secure = window.isSecureContext;
if (serial && secure) {
  check.textContent = "This browser has Web Serial: it can install the board.";
} else if (!serial) {
  check.textContent = "This browser has no Web Serial, so it cannot install the board: open this " +
    "page in Chrome or Edge on a computer.";
  check.className = "warning";
} else {
  check.textContent = "This page is served over plain http (not https, not localhost), so the " +
    "browser gives it no serial port: it cannot install the board from here.";
  check.className = "warning";
}
window.c4install = { serial, secure, said: check.textContent };
