"""`make web-sim`: serve build/site/ on 127.0.0.1 with the cross-origin isolation headers.

    python tools/site/serve.py [--port N] [--dir build/site]

The page shares its buttons with the firmware's worker through a
SharedArrayBuffer, which a browser only allows on a cross-origin isolated page:
every answer carries `Cross-Origin-Opener-Policy: same-origin` and
`Cross-Origin-Embedder-Policy: require-corp` (a static host must send them too;
without them the page still runs, with the buttons passed between loop steps).
The address line `web-sim: http://127.0.0.1:PORT/` is printed only once the
server answers a request for the page.
"""
import argparse
import functools
import http.server
import os
import sys
import threading
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE = os.path.join(ROOT, "build", "site")
HEADERS = {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp",
           "Cache-Control": "no-cache"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
                             ".json": "application/json", ".pack": "application/octet-stream"})

    def end_headers(self):
        for name, value in HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, fmt, *args):  # quiet: the address line is what matters
        pass


def make_server(port=0, directory=SITE):
    """A threading server on 127.0.0.1 (port 0: a free one); not yet serving."""
    handler = functools.partial(Handler, directory=directory)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def start(port=0, directory=SITE):
    """Serve in a thread; returns (server, url) once the page answers."""
    server = make_server(port, directory)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % server.server_address[1]
    with urllib.request.urlopen(url, timeout=10) as r:
        r.read()
    return server, url


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    ap.add_argument("--dir", default=SITE, help="the site's folder (default build/site)")
    args = ap.parse_args(argv)
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        sys.exit("error: no %s: run `make site` first" % os.path.join(args.dir, "index.html"))
    try:
        server, url = start(args.port, args.dir)
    except OSError as e:
        sys.exit("error: cannot serve on 127.0.0.1:%s: %s" % (args.port, e))
    print("web-sim: %s" % url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
