"""The board's side of Improv Wi-Fi (connect4.net.improv): its state, what it is, the networks
it sees, and a home network given from a computer, joined and kept.

"Send Wi-Fi settings" goes the way the page's own Wi-Fi form and the menu go: the network is
kept in wifi.json (connect4.net.netconf, written atomically), and Wi-Fi comes on through the
app's switch (connect4.app.online, saved on as the menu saves it): the link joins it and
serves the page there (connect4.net.link). The board answers with its address as a URL once
joined, then restarts (connect4.net.improv: wifi.json and the switch are on flash by then, so
Wi-Fi comes on again at the start, on the same network: the router's DHCP gives the same
station the same address in practice); if it could not join (the link made its own access
point instead, or the radio failed), the settings it had are put back and Wi-Fi is left as it
was.

Loaded with connect4.net.improv for one frame (and kept while a join runs). It is the one
module beside connect4.net.wifi that touches `network`, for the scan: rare work whose code
need not stay on the heap while Wi-Fi is on.
"""
import network
from time import ticks_diff

from connect4 import VERSION
from connect4.modules import use
from connect4.net import wifi

FIRMWARE = "connect4"  # the install page's manifest names it so (make site)
CHIP = "ESP32-C3"
JOIN_MS = 30000  # beyond the link's own give-up (connect4.net.link.JOIN_MS): a safety net


class Board:
    def __init__(self, app):
        self.app = app
        self.before = ("", "")  # (ssid, password) kept before a join, put back if it fails
        self.was_on = False
        self.since = 0
        self.kept = True  # the switch saved on (joined): the board may restart into Wi-Fi on

    def url(self):
        """The board's address on its home network, if it is on it (Improv's PROVISIONED)."""
        link = self.app.link
        if link is not None and link.address is not None and link.home and link.ssid == link.home:
            return "http://%s/" % link.address
        return None

    def info(self):
        """Improv's device info; the board's name is its access point's (as wifi.start_ap
        names it: the last two bytes of its MAC)."""
        mac = network.WLAN(network.AP_IF).config("mac")
        return FIRMWARE, VERSION, CHIP, wifi.AP_PREFIX + "%02X%02X" % (mac[-2], mac[-1])

    def scan(self):
        """The networks in reach, each name once at its strongest: [(ssid bytes, rssi,
        secured)] (hidden ones left out); the station on for it, off after if it was off."""
        sta = network.WLAN(network.STA_IF)
        was = sta.active()
        sta.active(True)
        try:
            found = sta.scan()  # (ssid, bssid, channel, rssi, authmode, hidden)
        finally:
            if not was:
                sta.active(False)
        best = {}  # type: dict
        for n in found:
            if n[0] and (n[0] not in best or n[3] > best[n[0]][1]):
                best[n[0]] = (n[0], n[3], n[4] != network.AUTH_OPEN)
        return list(best.values())

    def _conf(self):
        return use("connect4.net.netconf").NetConf(self.app.cfg["flash_dir"]).load()

    def join(self, ssid, password, now):
        """Keep the network and start joining it; False if the flash refused it."""
        app = self.app
        conf = self._conf()
        before = conf.ssid, conf.password
        if not conf.set_network(ssid, password):
            return False
        self.before = before
        self.was_on = app.wifi_on
        self.since = now
        if app.wifi_on:  # on another network, or its own access point: off, then on anew
            app.wifi(now, False)
        app.wifi(now, True)
        return True

    def joined(self, now):
        """None while joining; then the URL, or "" if the board could not join."""
        app = self.app
        link = app.link
        if link is None or link.error is not None or not app.wifi_on:
            return ""
        if link.address is None:
            return None if ticks_diff(now, self.since) < JOIN_MS else ""
        url = self.url()
        if url is None:  # its own access point: the home network was not there
            return ""
        if not app.settings["wifi"]:  # on again at the next start, as the menu's switch
            app.settings["wifi"] = True
            self.kept = app.store.save()
        return url

    def undo(self, now):
        """The join failed: the settings put back, Wi-Fi as it was."""
        self._conf().set_network(*self.before)
        app = self.app
        app.wifi(now, False)
        if self.was_on:
            app.wifi(now, True)
