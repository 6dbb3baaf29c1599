"""Issue 39, item 1: the install page of `make site` (tools/site/install.py), in headless Chromium,
served as `make web-sim` serves the site.

With an image: the page loads ESP Web Tools from the site's own files and requests nothing from
outside the site, nor once Install is pressed; its manifest is valid for ESP Web Tools (a chip family it knows, ESP32-C3, one
part at offset 0) and names a 4 MB image that the browser fetches beside it; it says what the
browser needs and that installing erases the board, `make deploy` keeping records and settings;
and a browser without Web Serial (Chromium with it turned off) is told in words that it cannot
install, in place of the Install button (a Chromium with Web Serial gets the button). Without
an image, it says where MicroPython's .bin comes from and which command builds the image. The
board's page links to it.

The image here is `make image`'s 4 MB layout (tools/board/image.py) around a stand-in for
MicroPython's .bin (a header the image builder accepts, not a firmware: this checks the page
and its manifest, the emulated chip boots the real one: tests/chip/). Skipped, saying so,
without a browser or node_modules.
"""
import json
import os
import re
import shutil
import tempfile
import time

import pytest

from chromium import MISSING, phone, requested
from tools import mpvm
from tools.board import image
from tools.site import install

pytestmark = [
    pytest.mark.skipif(MISSING is not None, reason=MISSING or ""),
    pytest.mark.skipif(not os.path.isdir(install.BROWSER_BUILD) or not mpvm.available(),
                       reason="MicroPython VM (node_modules) not installed: make site needs it and ESP Web Tools"),
]


def stand_in_firmware():
    """A header image.firmware_problem() takes for MicroPython's: 0xE9, the ESP32-C3's chip id."""
    data = bytearray(b"\x00" * 4096)
    data[0] = image.ESP_MAGIC
    data[12] = image.CHIP_ID_C3
    return bytes(data)


def _site(with_image):
    from tools.site import build, serve
    folder = tempfile.mkdtemp(prefix="site-install-")
    try:
        build.build(folder, book=False)
        if with_image:
            install.build(folder, image_bytes=image.image(stand_in_firmware(), [("/main.py", b"pass\n")]))
        server, url = serve.start(directory=folder)
        try:
            yield folder, url
        finally:
            server.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def site():
    yield from _site(True)


@pytest.fixture(scope="module")
def site_without_image():
    yield from _site(False)


@pytest.fixture
def browser():
    with phone(390, 844, log=True, network=True) as driver:
        yield driver


@pytest.fixture
def browser_without_web_serial():
    """Chromium with Web Serial turned off, as Firefox, Safari and phones' browsers are (this
    headless Chromium has it: a page on 127.0.0.1 may ask for a port)."""
    with phone(390, 844, flags=("--disable-blink-features=Serial",)) as driver:
        yield driver


def js(driver, expr):
    return driver.execute_script("return " + expr)


def visible_text(driver):
    return driver.find_element("tag name", "main").text


def open_page(driver, url):
    driver.get(url + "install/")
    end = 50
    while not js(driver, "window.c4install !== undefined") and end:
        driver.implicitly_wait(0.1)
        end -= 1
    assert js(driver, "window.c4install !== undefined"), "install.js did not run"


def test_the_page_loads_esp_web_tools_from_the_site_and_requests_nothing_outside_it(site, browser):
    _, url = site
    requested(browser)  # (what came before)
    open_page(browser, url)
    assert js(browser, "customElements.get('esp-web-install-button') !== undefined")
    urls = requested(browser)
    assert url + "install/esp-web-tools/install-button.js" in urls
    assert url + "install/install.js" in urls and url + "style.css" in urls
    # Install pressed: ESP Web Tools loads its dialog's code (the port chooser then waits)
    browser.find_element("id", "install-button").click()
    end = time.time() + 10
    while not any("install-dialog" in u for u in urls) and time.time() < end:
        time.sleep(0.1)
        urls += requested(browser)
    assert any(u.startswith(url + "install/esp-web-tools/install-dialog") for u in urls), urls
    outside = [u for u in urls if not u.startswith(url) and not u.startswith("data:")]
    assert outside == [], outside
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def test_the_manifest_is_valid_and_names_a_4_mb_image_beside_it(site, browser):
    folder, url = site
    with open(os.path.join(folder, install.FOLDER, install.MANIFEST)) as f:
        manifest = json.load(f)
    # the chip families ESP Web Tools knows (its Build type), read from the pinned package
    with open(os.path.join(install.ESP_WEB_TOOLS, "dist", "const.d.ts")) as f:
        known = re.findall(r'"(ESP[\w-]+)"', f.read().split("chipFamily")[1].split(";")[0])
    assert "ESP32-C3" in known
    from tools.board import device
    assert manifest["name"] == "connect4" and manifest["version"] == device.PACKAGE_VERSION
    build, = manifest["builds"]
    assert build["chipFamily"] == "ESP32-C3" and build["chipFamily"] in known
    part, = build["parts"]
    assert part == {"path": install.IMAGE_NAME, "offset": 0}
    # fetched by the browser as ESP Web Tools fetches them: the part relative to the manifest
    open_page(browser, url)
    got = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const where = new URL('manifest.json', location.href);
          const m = await (await fetch(where)).json();
          const part = new URL(m.builds[0].parts[0].path, where);
          const data = new Uint8Array(await (await fetch(part)).arrayBuffer());
          done({bytes: data.length, first: data[0], chip: data[12]});
        })().catch(e => done({error: String(e)}));""")
    assert got == {"bytes": 4 * 1024 * 1024, "first": 0xE9, "chip": 5}, got


def test_the_page_says_what_the_browser_needs_and_that_installing_erases_the_board(site, browser):
    _, url = site
    open_page(browser, url)
    text = visible_text(browser)
    for words in ("Chrome or Edge on a computer", "Web Serial", "served over https, or from localhost",
                  "Installing erases the board", "records and settings included",
                  "make deploy PORT=...", "update", "4 MB"):
        assert words in text, words


def test_a_browser_with_web_serial_gets_the_install_button(site, browser):
    _, url = site
    open_page(browser, url)
    assert js(browser, "'serial' in navigator && window.isSecureContext")
    assert browser.find_element("id", "browser-check").text == (
        "This browser has Web Serial: it can install the board.")
    assert browser.find_element("id", "install-button").is_displayed()
    assert not browser.find_element("css selector", "esp-web-install-button p[slot=unsupported]").is_displayed()


def test_a_browser_without_web_serial_is_told_so_in_words(site, browser_without_web_serial):
    _, url = site
    browser = browser_without_web_serial
    open_page(browser, url)
    assert js(browser, "'serial' in navigator") is False
    said = browser.find_element("id", "browser-check").text
    assert said.startswith("This browser has no Web Serial, so it cannot install the board")
    assert "Chrome or Edge on a computer" in said
    # ESP Web Tools' button gives way to the page's own words
    unsupported = browser.find_element("css selector", "esp-web-install-button p[slot=unsupported]")
    assert unsupported.is_displayed() and "it has no Web Serial" in unsupported.text
    assert not browser.find_element("id", "install-button").is_displayed()


def test_without_an_image_the_page_says_where_to_get_micropython_and_which_command_builds_it(
        site_without_image, browser):
    folder, url = site_without_image
    assert not os.path.exists(os.path.join(folder, install.FOLDER, install.MANIFEST))
    requested(browser)
    open_page(browser, url)
    text = browser.find_element("id", "no-image").text
    assert "https://micropython.org/download/ESP32_GENERIC_C3/" in browser.find_element(
        "css selector", "#no-image a").get_attribute("href")
    assert "make site FIRMWARE=ESP32_GENERIC_C3-<date>-v1.28.0.bin" in text
    assert "make image FIRMWARE=" in text
    assert not browser.find_elements("tag name", "esp-web-install-button")
    assert not [u for u in requested(browser) if "esp-web-tools" in u or not u.startswith((url, "data:"))]


def test_the_board_page_links_to_the_install_page(site):
    folder, _ = site
    with open(os.path.join(folder, "index.html"), encoding="utf-8") as f:
        assert '<a id="install" href="install/">' in f.read()


def test_make_site_with_firmware_builds_make_images_image(tmp_path, monkeypatch):
    """`make site FIRMWARE=...`: the image is built as `make image` builds it, at its place too."""
    from tools.board import device
    fw = tmp_path / "fw.bin"
    fw.write_bytes(stand_in_firmware())
    made = []
    monkeypatch.setattr(image, "deploy_files", lambda: [("/main.py", b"pass\n")])
    monkeypatch.setattr(image, "write", lambda path, data: made.append((path, len(data))))
    written = install.build(str(tmp_path), firmware=str(fw))
    assert "install/" + install.IMAGE_NAME in written and "install/manifest.json" in written
    assert made == [(os.path.join(mpvm.ROOT, device.IMAGE), 4 * 1024 * 1024)]
    assert os.path.getsize(tmp_path / "install" / install.IMAGE_NAME) == 4 * 1024 * 1024
