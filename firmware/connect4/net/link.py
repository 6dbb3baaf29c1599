"""Wi-Fi on and off from the menu: the radio (wifi.py), the server, and what the matrix shows.

On: with a home network set (from the page, kept in wifi.json) the board
joins it; otherwise, or when joining fails within JOIN_MS, it makes its own
access point `Connect4-XXXX` (WPA2, the key drawn at first start). Then the
server starts (or, if one already serves the app, as in the simulator's
--web, that one is used), and the matrix scrolls the address, the access
point's key and the pairing code; `show()` scrolls them again on request.
Nothing here blocks: joining is watched from the app's pump. The menu's
"forget paired phones" comes here too (`forget_phones`), Wi-Fi on or off.

The Wi-Fi settings' code (connect4.net.netconf) is loaded only to read or
write them: the link keeps the home network's name and the access point's key,
and stands for the settings before the API (`configured`, `set_network`). The
rare work (Wi-Fi coming on, the address shown, the settings written, the phones
forgotten) is connect4.net.linkup's, loaded for each use and dropped.

The board's name on the network (`name`, connect4-XXXX: connect4.net.wifi)
scrolls with the address, and the console line and the page carry both. What
reaches another board (a game of two boards: connect4.net.finder, peer) is not
here: loaded for that game only, it costs a board that serves phones nothing.
"""
from time import ticks_ms, ticks_diff

from connect4.modules import use
from connect4.net import wifi

JOIN_MS = 20000


class Link:
    def __init__(self, face, cfg):
        self.face = face  # the game (connect4.app.face.Face)
        self.cfg = cfg
        self.home = ""  # the home network's name ("": none set: our own access point) ...
        self.ap_password = ""  # ... and our own access point's key, as on() read them
        self.server = None  # the one this link started
        self.joining_since = None
        self.ssid = ""
        self.name = None  # the board's name on the network, connect4-XXXX (its hostname)
        self.address = None
        self.error = None

    # ---- the rare work: connect4.net.linkup's, loaded for each
    def on(self, now):
        """Turn Wi-Fi on (or, if on, show the address again)."""
        try:
            rare = _rare()
        except Exception as e:  # (no room even for its code: said as a radio that fails is)
            self._failed(e, now)
            return
        rare.on(self, now)

    def show(self, now):
        """Scroll the address (and the access point's key) and the pairing code."""
        _rare().show(self, now)

    def forget_phones(self, now):
        """The menu's "forget paired phones" (Wi-Fi need not be on)."""
        _rare().forget_phones(self, now)

    # ---- the Wi-Fi settings (connect4.net.netconf's file), as the API sees them
    def set_network(self, ssid, password):
        """Keep a home network ("" forgets it), as NetConf.set_network; used from the next
        time Wi-Fi comes on. False if the values are bad or not saved."""
        return _rare().set_network(self, ssid, password)

    def _failed(self, e, now):
        self.error = repr(e)
        print("connect4: Wi-Fi: %s" % self.error)
        self.off()
        if isinstance(e, MemoryError):  # the server did not fit: said as such, the game untouched
            self.face.short_of_memory(now)
        else:
            self.face.say([("NO WIFI", "red")], now)

    def configured(self):
        """Is a home network set (else the board makes its own access point)?"""
        return bool(self.home)

    def pump(self):
        """While joining: has the home network given an address (or is it time to give up)?"""
        now = ticks_ms()
        try:
            address = wifi.joined()
            if address:
                _rare().up(self, address, now)
            elif ticks_diff(now, self.joining_since) >= JOIN_MS:
                _rare().access_point(self, now)  # the home network is not there: our own
        except Exception as e:
            self._failed(e, now)

    def _new_code(self, code):
        """The page's pairing code changed (a forget, from the page or the menu; the lock
        after wrong codes): the new one on the matrix and the console, where a phone's owner
        reads it."""
        self.face.say([(" CODE " + code, "green")], ticks_ms())
        self._console(code)

    def _console(self, code):
        """The address and the code on the console too (a maker at the serial port; the
        chip tests pair with this line): at each show and after a forget."""
        if self.address is not None:
            print("connect4: web: http://%s/ name %s code %s" % (self.address, self.name, code))

    def off(self):
        face = self.face
        if self.server is not None:
            self.server.stop()
            self.server = None
            face.set_pump(None)
            face.web = None
        elif self.joining_since is not None:
            face.set_pump(None)
        self.joining_since = None
        self.address = None
        try:
            wifi.stop()
        except Exception:
            pass
        self.face.resize_table(self.cfg["tt_entries"])


def _rare():
    return use("connect4.net.linkup")
