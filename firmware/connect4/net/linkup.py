"""Wi-Fi coming on, its address shown, the home network kept, the phones forgotten: the rare work
of connect4.net.link's Link.

Loaded for each use and dropped (connect4.modules.use): Wi-Fi comes on once, the
address scrolls on request, a home network is set from the page now and then, and
with Wi-Fi on every resident byte of code is the network's room. What runs all along
(the joining watched, a radio that fails, Wi-Fi off) stays in the Link. Each function
takes the Link.
"""
from connect4.modules import use
from connect4.net import wifi


def on(link, now):
    """Turn Wi-Fi on (or, if on, show the address again)."""
    if link.address is not None or link.joining_since is not None:
        show(link, now)
        return
    try:
        link.face.resize_table(link.cfg["tt_entries_wifi"])  # smaller while Wi-Fi shares the heap
        link.name = wifi.name()
        nc = conf(link)  # read afresh (the password: kept for the join only)
        link.home, link.ap_password = nc.ssid, nc.ap_password
        if link.home:
            wifi.start_join(nc.ssid, nc.password)
            link.ssid = nc.ssid
            link.joining_since = now
            link.face.set_pump(link.pump)  # watch the joining from the game loop
            link.face.say([("WIFI " + nc.ssid, "white")], now)
        else:
            access_point(link, now)
    except Exception as e:  # a radio that will not start: said on the matrix, never a crash
        link._failed(e, now)


def access_point(link, now):
    link.ssid, address = wifi.start_ap(link.ap_password)
    up(link, address, now)


def up(link, address, now):
    link.address = address
    link.joining_since = None
    face = link.face
    web = face.web
    if web is not None:
        face.set_pump(web.pump)
    elif link.cfg["web_port"]:
        from connect4.net.server import Server
        from connect4.net.pairing import Pairing
        cfg = link.cfg
        pairing = Pairing(cfg["flash_dir"])  # the phones paired before: on flash
        web = link.server = Server(face, pairing, link, net_free=wifi.net_free,
                                   min_free=cfg["net_min_free"]).start(cfg["web_host"], cfg["web_port"])
    else:  # web_port 0: no page served (the simulator without --web)
        face.set_pump(None)
    if web is not None:
        web.pairing.shown = link._new_code
    show(link, now)


def conf(link):
    """The Wi-Fi settings, read now (connect4.net.netconf, loaded for this and dropped)."""
    return use("connect4.net.netconf").NetConf(link.cfg["flash_dir"]).load()


def set_network(link, ssid, password):
    """Keep a home network ("" forgets it), as NetConf.set_network; used from the next
    time Wi-Fi comes on. False if the values are bad or not saved."""
    nc = conf(link)
    done = nc.set_network(ssid, password)
    link.home = nc.ssid
    return done


def show(link, now):
    """Scroll the address (and the access point's key) and the pairing code."""
    if link.address is None:
        return
    web = link.server or link.face.web
    parts = [("%s %s" % (link.name, link.address), "white")]
    if link.ssid != link.home:  # our own access point: its name and key
        parts.append((" " + link.ssid + " KEY " + link.ap_password, "orange"))
    if web is not None:
        parts.append((" CODE " + web.pairing.code, "green"))
        link._console(web.pairing.code)
    link.face.say(parts, now)


def forget_phones(link, now):
    """The menu's "forget paired phones": every token dropped, on flash too, and a new
    pairing code (shown, if a page is served). Wi-Fi need not be on."""
    web = link.server or link.face.web
    if web is not None:
        pairing = web.pairing
    else:
        from connect4.net.pairing import Pairing
        pairing = Pairing(link.cfg["flash_dir"])
    if not pairing.forget():
        link.face.say([("NOT SAVED", "red")], now)  # forgotten until a restart only
        return
    parts = [("PHONES FORGOTTEN", "orange")]
    if web is not None:  # (the console has the code already: _new_code)
        parts.append((" CODE " + pairing.code, "green"))
    link.face.say(parts, now)
