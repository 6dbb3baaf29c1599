"""Compress the board's web page: firmware/connect4/net/page.html -> page.html.gz.

    python tools/web/page.py          (rewrite the .gz)
    python tools/web/page.py --check  (exit 1 if the .gz is not the page's)

The board serves the .gz as it is (Content-Encoding: gzip), so the page costs
flash, not heap. Deterministic (no time stamp, no file name in the header):
tests/test_web.py checks the committed .gz is the page's.
"""
import gzip
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(ROOT, "firmware", "connect4", "net", "page.html")
PAGE_GZ = PAGE + ".gz"


def compressed():
    with open(PAGE, "rb") as f:
        return gzip.compress(f.read(), compresslevel=9, mtime=0)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    data = compressed()
    if "--check" in argv:
        try:
            with open(PAGE_GZ, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            print("%s is not the compressed page: run python tools/web/page.py" % PAGE_GZ)
            return 1
        return 0
    with open(PAGE_GZ, "wb") as f:
        f.write(data)
    print("%s: %d bytes (page %d)" % (PAGE_GZ, len(data), os.path.getsize(PAGE)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
