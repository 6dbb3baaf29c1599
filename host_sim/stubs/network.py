"""MicroPython's `network` on CPython, for the simulator and the tests: a radio that
comes up at once. The access point has 192.168.4.1 (the ESP32's default); a station
joins any network but `world.NO_SUCH_NETWORK` after `JOIN_POLLS` checks, and its scan
finds `world.networks` (as the ESP32 port's scan() gives them: ssid, bssid, channel,
rssi, authmode, hidden).

`world` holds what happened (tests look): interfaces active, the AP's config, the
network joined, the hostname set. `world.mac` is the radio's MAC: a simulated board
takes one of its own from its flash folder (host_sim.world.board_mac), so that two
simulated boards have two names (connect4-XXXX: connect4.net.wifi.name).
"""
STA_IF = 0
AP_IF = 1
AUTH_OPEN = 0
AUTH_WPA2_PSK = 3
JOIN_POLLS = 3


class _World:
    def __init__(self):
        self.reset()

    def reset(self):
        self.active = {STA_IF: False, AP_IF: False}
        self.ap_config = {}
        self.joined = None
        self.polls = 0
        self.target = None
        self.hostname = "mpy-esp32c3"  # MicroPython's default, until network.hostname(name)
        self.NO_SUCH_NETWORK = "nowhere"
        self.mac = MAC
        self.networks = [(b"HomeNet", b"\x02\x00\x00\x00\x00\x01", 6, -48, AUTH_WPA2_PSK, False),
                         (b"Cafe", b"\x02\x00\x00\x00\x00\x02", 1, -71, AUTH_OPEN, False),
                         (b"HomeNet", b"\x02\x00\x00\x00\x00\x03", 11, -80, AUTH_WPA2_PSK, False),
                         (b"", b"\x02\x00\x00\x00\x00\x04", 11, -60, AUTH_WPA2_PSK, True)]
        self.scans = 0


MAC = bytes([0x34, 0x85, 0x18, 0x00, 0xC4, 0x7E])
world = _World()


def hostname(*name):
    """network.hostname(): the name the board gives DHCP and mDNS (set before connecting)."""
    if name:
        world.hostname = name[0]
        return None
    return world.hostname


class WLAN:
    PM_NONE, PM_PERFORMANCE, PM_POWERSAVE = 0, 1, 2  # the ESP32 port's power-management modes

    def __init__(self, interface=STA_IF):
        self.interface = interface

    def active(self, *value):
        if value:
            world.active[self.interface] = bool(value[0])
            if not value[0] and self.interface == STA_IF:
                world.joined = world.target = None
            return None
        return world.active[self.interface]

    def config(self, *param, **kwargs):
        if param:
            if param[0] == "mac":
                return world.mac
            return world.ap_config.get(param[0])
        world.ap_config.update(kwargs)
        return None

    def scan(self):
        if self.interface != STA_IF or not world.active[STA_IF]:
            raise OSError("STA must be active")  # (the ESP32 port's error, in its words)
        world.scans += 1
        return list(world.networks)

    def connect(self, ssid, password=None):
        world.target = ssid
        world.polls = 0

    def isconnected(self):
        if self.interface == AP_IF:
            return world.active[AP_IF]
        if world.target is None or world.target == world.NO_SUCH_NETWORK:
            return False
        world.polls += 1
        if world.polls >= JOIN_POLLS:
            world.joined = world.target
        return world.joined is not None

    def ifconfig(self):
        if self.interface == AP_IF:
            return ("192.168.4.1", "255.255.255.0", "192.168.4.1", "0.0.0.0")
        return ("192.168.1.57", "255.255.255.0", "192.168.1.1", "192.168.1.1") if world.joined else (
            "0.0.0.0", "0.0.0.0", "0.0.0.0", "0.0.0.0")
