"""Wi-Fi stays on (issue 30): the menu's switch is saved in the settings file, and a board
that stopped with Wi-Fi on (a power cut, a crash, the watchdog) turns it on again at its
start, the menu's way (App.wifi and the factory; off: nothing of it loaded). The radio itself
is a fake here: host_sim's network stub is in tests/test_web_link.py."""
import json

from connect4.app import menu as menu_mod
from connect4.app.game import MENU, PLAY
from fakes import Rig
from test_app_store import read, write
from checks import said


class FakeLink:
    """connect4.net.link.Link as the app uses it: on(now), off(), error."""

    def __init__(self, fails=False):
        self.fails = fails
        self.ons = 0
        self.offs = 0
        self.error = None

    def on(self, now):
        self.ons += 1
        if self.fails:  # the radio did not start: Link says so on the matrix, its error set
            self.error = "OSError(-1)"

    def off(self):
        self.offs += 1
        self.error = None


class Radio:
    """build_app's Wi-Fi factory: counts the links it made (one an app at most)."""

    def __init__(self, fails=False):
        self.fails = fails
        self.links = []

    def __call__(self, app, cfg):
        link = FakeLink(self.fails)
        self.links.append(link)
        return link


def board(name, radio, flash=None, after_crash=False):
    cfg = {"flash_dir": flash} if flash else None
    return Rig(name, cfg=cfg, wifi=radio, after_crash=after_crash)


def saved(rig):
    """The Wi-Fi switch as the settings file on flash has it (None: not there)."""
    return json.loads(read(rig.path))["settings"].get("wifi")


def switch(rig):
    """In the menu, on its Wi-Fi item: press, turn once (on <-> off), press."""
    if rig.app.state != MENU:
        rig.long_press()
        assert rig.app.state == MENU
        rig.turn(menu_mod.ITEMS.index("wifi") - rig.app.menu.item)
    assert menu_mod.ITEMS[rig.app.menu.item] == "wifi"
    rig.press()
    rig.turn(1)
    rig.press()


def test_the_switch_is_saved_and_wifi_comes_back_on_after_a_restart():
    radio = Radio()
    rig = board("wifi1", radio)
    rig.run_for(1600)
    assert radio.links == [] and not rig.app.settings["wifi"]
    switch(rig)
    assert rig.app.wifi_on and radio.links[0].ons == 1
    assert saved(rig) is True  # at once, not when the menu closes
    flash = rig.cfg["flash_dir"]
    for name, after_crash in (("wifi1b", False), ("wifi1c", True)):  # a power cut, a crash
        again = board(name, radio, flash, after_crash)
        link = radio.links[-1]
        assert len(radio.links) == (2 if name == "wifi1b" else 3)  # made at the start
        assert link.ons == 1 and again.app.link is link and again.app.wifi_on
        again.run_for(1600)
        assert again.app.state == PLAY
    switch(again)  # off in the menu: saved off
    assert not again.app.wifi_on and link.offs == 1 and saved(again) is False
    last = board("wifi1d", radio, flash)
    last.run_for(1600)
    assert len(radio.links) == 3 and last.app.link is None and not last.app.wifi_on


def test_off_stays_off():
    radio = Radio()
    rig = board("wifi2", radio)
    rig.run_for(1600)
    switch(rig)
    switch(rig)  # on, then off again
    assert saved(rig) is False and len(radio.links) == 1
    again = board("wifi2b", radio, rig.cfg["flash_dir"], after_crash=True)
    again.run_for(1600)
    assert len(radio.links) == 1 and again.app.link is None and not again.app.wifi_on


def test_a_missing_or_bad_switch_is_off():
    radio = Radio()
    rig = board("wifi3", radio)
    flash = rig.cfg["flash_dir"]
    settings = '{"version": 1, "settings": {"mode": "two"%s}}'
    for i, value in enumerate(("", ', "wifi": "on"', ', "wifi": 1', ', "wifi": null', ', "wifi": [true]')):
        write(rig.path, settings % value)  # "": a file from before the switch was saved
        lines = said(lambda: board("wifi3%d" % i, radio, flash))
        assert radio.links == [], value
        assert (lines != []) == (value != ""), lines  # a bad value is said on the console
    write(rig.path, '{"version": 1, "settings": {"wifi": tr')  # the file cut short
    again = board("wifi3c", radio, flash)
    assert radio.links == [] and again.store.status == "corrupt" and not again.app.settings["wifi"]


def test_wifi_that_does_not_come_on_is_saved_off_from_the_menu_and_kept_on_at_a_start():
    radio = Radio(fails=True)
    rig = board("wifi4", radio)
    rig.run_for(1600)
    rig.store.save()
    switch(rig)  # "on" confirmed
    assert radio.links[0].ons == 1 and not rig.app.wifi_on
    assert saved(rig) is False  # the switch as it ended up: off
    rig.app.settings["wifi"] = True  # on when the board stopped; the radio fails at the start
    rig.store.save()
    again = board("wifi4b", radio, rig.cfg["flash_dir"])
    assert radio.links[-1].ons == 1 and not again.app.wifi_on
    again.run_for(1600)
    assert saved(again) is True  # kept: tried again at the next start
