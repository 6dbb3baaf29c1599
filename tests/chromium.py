"""Headless Chromium for the page tests (Debian's chromium and chromium-driver through selenium).

`phone(width, height)` yields a driver that lays pages out like a phone of that
size, in a profile of its own removed afterwards; `MISSING` says what is not
installed (the tests skip, saying so), None when all is there.
"""
import contextlib
import os
import shutil
import tempfile

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver") or (
    "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)

try:
    import selenium  # noqa: F401
    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False

MISSING = None if (CHROMIUM and CHROMEDRIVER and HAVE_SELENIUM) else (
    "no headless browser: needs Debian's chromium and chromium-driver "
    "(apt-get install chromium chromium-driver) and selenium (requirements-dev.txt); "
    "found chromium=%s chromedriver=%s selenium=%s" % (CHROMIUM, CHROMEDRIVER, HAVE_SELENIUM))


@contextlib.contextmanager
def phone(width, height, flags=(), log=False, script_timeout=None, network=False):
    """A headless Chromium laid out as a `width` x `height` phone; `log` keeps the console,
    `network` every request the pages make (requested(driver) reads them)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=390,844") + tuple(flags):
        opts.add_argument(flag)
    prefs = {}
    if log:
        prefs["browser"] = "ALL"
    if network:
        prefs["performance"] = "ALL"
    if prefs:
        opts.set_capability("goog:loggingPrefs", prefs)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    driver.set_page_load_timeout(30)
    if script_timeout is not None:
        driver.set_script_timeout(script_timeout)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def requested(driver):
    """The URLs the pages requested since the last call (a driver made with network=True)."""
    import json
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls
