"""Wi-Fi settings on flash: the access point's password and the home network.

File `wifi.json` beside the settings: {"ap_password": "...", "ssid": "...",
"password": "..."}. The access point's password is drawn at first start
(12 capitals and digits without look-alikes, about 59 bits) and kept.
Written atomically (temp file + rename); `load()` never raises: a missing or
corrupt file gives a fresh access point password and no home network, and a
corrupt one is kept aside as `wifi.json.bad` first (as the settings file is).
The API never returns the SSID or either password (connect4.net.api).
"""
import json
import os

from connect4.app.store import Files, set_aside
from connect4.net.pairing import random_bytes

FILE = "wifi.json"
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no I/L/1, O/0: it is read off the matrix
AP_PASSWORD_LEN = 12  # about 59 bits
MAX_SSID = 32  # 802.11 limits
MIN_PASSWORD = 8  # WPA2
MAX_PASSWORD = 63


def valid_ssid(ssid):
    return isinstance(ssid, str) and 1 <= len(ssid.encode()) <= MAX_SSID


def valid_password(password):
    """WPA2's 8-63 characters, or "" for an open network."""
    return isinstance(password, str) and (password == "" or MIN_PASSWORD <= len(password) <= MAX_PASSWORD)


class NetConf:
    def __init__(self, flash_dir="", randbytes=None):
        self.path = flash_dir + FILE
        self.randbytes = randbytes or random_bytes
        self.ap_password = ""
        self.ssid = ""
        self.password = ""

    def load(self):
        """Read the file (never raises); draws and saves an access point password if none."""
        data = None
        found = False
        try:
            with open(self.path) as f:
                text = f.read()
            found = True
            data = json.loads(text)
        except Exception:
            pass
        if not isinstance(data, dict):
            data = {}
        ap = data.get("ap_password")
        self.ap_password = str(ap) if valid_password(ap) and ap else ""
        ssid, password = data.get("ssid"), data.get("password")
        network = valid_ssid(ssid) and valid_password(password)
        if network:
            self.ssid, self.password = str(ssid), str(password)
        good = self.ap_password and (network or (ssid == "" and password == ""))
        if found and not good:
            set_aside(Files(), self.path)  # not what save() writes: kept for a look
        if not self.ap_password:
            self.ap_password = "".join(ALPHABET[b % len(ALPHABET)]
                                       for b in self.randbytes(AP_PASSWORD_LEN))
        if not good:
            self.save()  # what was good of it, and a fresh key if it had none
        return self

    def configured(self):
        """Is a home network set (else the board makes its own access point)?"""
        return bool(self.ssid)

    def set_network(self, ssid, password):
        """Keep a home network ("" forgets it); False if the values are bad or not saved."""
        if ssid == "":
            self.ssid = self.password = ""
            return self.save()
        if not (valid_ssid(ssid) and valid_password(password)):
            return False
        self.ssid, self.password = ssid, password
        return self.save()

    def save(self):
        tmp = self.path + ".tmp"
        try:
            with open(tmp, "w") as f:
                f.write(json.dumps({"ap_password": self.ap_password, "ssid": self.ssid,
                                    "password": self.password}))
            os.rename(tmp, self.path)
            return True
        except Exception:
            try:
                os.remove(tmp)
            except OSError:
                pass
            return False
