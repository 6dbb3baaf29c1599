"""The one module that touches `network` (as hardware_setup.py is for `machine`).

Two ways onto a network, both without blocking the game: `start_ap` makes
the board's own WPA2 access point `Connect4-XXXX` (the last two bytes of
its MAC); `start_join` starts joining a home network, and `joined()` says
when it has an address. Either way the board's name on the network,
`connect4-XXXX` (`name()`, the same four hex digits), is its hostname, set
before it connects: `http://connect4-XXXX.local/` where mDNS works. `stop()` turns the radio off (Wi-Fi is off by
default: it costs heap and power). `net_free()` says how much memory the
network has left (the server turns new connections away below a floor).
"""
import network

try:
    import esp32  # the chip's: the ESP-IDF heaps
    ON_CHIP = True
except ImportError:  # the simulator: no such heap to watch
    ON_CHIP = False

AP_PREFIX = "Connect4-"
NAME_PREFIX = "connect4-"  # the board's hostname: NAME_PREFIX + the access point's four hex digits


def _off(interface):
    wlan = network.WLAN(interface)
    if wlan.active():
        wlan.active(False)


def _digits():
    """The four hex digits of the board: its access point's MAC's last two bytes."""
    mac = network.WLAN(network.AP_IF).config("mac")
    return "%02X%02X" % (mac[-2], mac[-1])


def name():
    """The board's name on the network (its hostname, set before it connects): connect4-XXXX."""
    return NAME_PREFIX + _digits()


def start_ap(password):
    """Our own access point; returns (ssid, ip address)."""
    _off(network.STA_IF)
    network.hostname(name())
    ap = network.WLAN(network.AP_IF)
    ap.active(True)
    ssid = AP_PREFIX + _digits()
    ap.config(essid=ssid, password=password, authmode=network.AUTH_WPA2_PSK)
    return ssid, ap.ifconfig()[0]


def start_join(ssid, password):
    """Start joining `ssid`, its name set first (DHCP and mDNS take it at the connect);
    `joined()` gives the address once there."""
    _off(network.AP_IF)
    network.hostname(name())
    sta = network.WLAN(network.STA_IF)
    sta.active(True)
    try:  # no modem sleep between beacons: the page's answers are not held a beacon late
        # (and in the emulated C3 a station in modem sleep stalled the board: docs/developer.md)
        sta.config(pm=sta.PM_NONE)
    except (AttributeError, ValueError):  # a port without it (the simulator's stub)
        pass
    sta.connect(ssid, password)


def joined():
    """The station's address once connected, else None."""
    sta = network.WLAN(network.STA_IF)
    if sta.isconnected():
        return sta.ifconfig()[0]
    return None


def stop():
    _off(network.STA_IF)
    _off(network.AP_IF)


def net_free():
    """Bytes free in the ESP-IDF's data heap, where lwIP and the Wi-Fi driver allocate (and
    the GC heap grows into once full), or None off the chip."""
    if not ON_CHIP:
        return None
    free = 0
    for region in esp32.idf_heap_info(esp32.HEAP_DATA):  # (total, free, largest, least free)
        free += region[1]
    return free
