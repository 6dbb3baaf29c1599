"""The install page of `make site` (build/site/install/): ESP Web Tools puts `make image`'s image
on a board from Chrome or Edge, and sets its Wi-Fi in the same dialog (Improv Wi-Fi Serial:
connect4.net.improv on the board).

Everything it loads comes from the site itself: ESP Web Tools' browser build (npm
`esp-web-tools`, pinned in package.json) copied from node_modules, the page, its script and the
site's style sheet. With `FIRMWARE=` (MicroPython's ESP32_GENERIC_C3 .bin), `make site` builds the
4 MB image as `make image` does (tools/board/image.py, into build/connect4-esp32c3.bin too) and
puts it beside the page with its manifest: chipFamily "ESP32-C3", one part at offset 0, named as
the board names itself in Improv's device info (connect4.net.provision.FIRMWARE) and with the
firmware's version, so that ESP Web Tools tells an update from another firmware. Without it the
page says where to get MicroPython's .bin and which command builds the image.
"""
import ast
import json
import os
import re
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = "install"
ESP_WEB_TOOLS = os.path.join(ROOT, "node_modules", "esp-web-tools")
BROWSER_BUILD = os.path.join(ESP_WEB_TOOLS, "dist", "web")  # its install-button.js and chunks
IMAGE_NAME = "connect4-esp32c3.bin"
MANIFEST = "manifest.json"
CHIP_FAMILY = "ESP32-C3"
# after the write, the first start takes MicroPython's boot, the safe-mode window and the app's
# import: the board gets longer than ESP Web Tools' own 10 s to answer Improv
IMPROV_WAIT_S = 30


def esp_web_tools_version():
    with open(os.path.join(ESP_WEB_TOOLS, "package.json")) as f:
        return json.load(f)["version"]


def firmware_name():
    """The name the board gives in Improv's device info: connect4.net.provision.FIRMWARE."""
    path = os.path.join(ROOT, "firmware", "connect4", "net", "provision.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["FIRMWARE"]:
            return ast.literal_eval(node.value)
    raise RuntimeError("no FIRMWARE in %s" % path)


def manifest():
    """ESP Web Tools' manifest for the image beside it."""
    from tools.board import device
    return {"name": firmware_name(), "version": device.PACKAGE_VERSION,
            "new_install_improv_wait_time": IMPROV_WAIT_S,
            "builds": [{"chipFamily": CHIP_FAMILY, "parts": [{"path": IMAGE_NAME, "offset": 0}]}]}


def page(image_size=None):
    """The page's HTML: with the image (its size in bytes), or saying how to build it."""
    from tools.board import device
    with open(os.path.join(HERE, "static", "install.html"), encoding="utf-8") as f:
        text = f.read()
    drop, keep = ("without-image", "with-image") if image_size else ("with-image", "without-image")
    text = re.sub(r"\s*<!--%s-->.*?<!--/%s-->" % (drop, drop), "", text, flags=re.S)
    text = text.replace("<!--%s-->" % keep, "").replace("<!--/%s-->" % keep, "")
    return (text.replace("IMAGE_NAME", IMAGE_NAME).replace("IMAGE_SIZE", format(image_size or 0, ","))
            .replace("VERSION", device.PACKAGE_VERSION))


def build_image(firmware):
    """`make image`'s image from MicroPython's .bin at `firmware` (written to its place,
    build/connect4-esp32c3.bin, too); its bytes."""
    from tools.board import device, image
    data = image.image(image.read_firmware(firmware), image.deploy_files())
    image.write(os.path.join(ROOT, device.IMAGE), data)
    return data


def build(out, firmware=None, image_bytes=None):
    """Write the install page into `out`/install/ (`out` is the site's folder): with the image
    built from `firmware` (or these `image_bytes`), or without one. Returns the files written,
    relative to `out`."""
    if not os.path.isdir(BROWSER_BUILD):
        raise SystemExit("error: %s is missing: run `npm ci` (make site does)" % BROWSER_BUILD)
    folder = os.path.join(out, FOLDER)
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    shutil.copytree(BROWSER_BUILD, os.path.join(folder, "esp-web-tools"))
    shutil.copyfile(os.path.join(HERE, "static", "install.js"), os.path.join(folder, "install.js"))
    if firmware and image_bytes is None:
        image_bytes = build_image(firmware)
    if image_bytes is not None:
        with open(os.path.join(folder, IMAGE_NAME), "wb") as f:
            f.write(image_bytes)
        with open(os.path.join(folder, MANIFEST), "w") as f:
            json.dump(manifest(), f, indent=2)
    with open(os.path.join(folder, "index.html"), "w", encoding="utf-8") as f:
        f.write(page(len(image_bytes) if image_bytes is not None else None))
    written = []
    for base, _, files in os.walk(folder):
        written += [os.path.relpath(os.path.join(base, name), out).replace(os.sep, "/") for name in files]
    return sorted(written)
