"""Put the repo root on sys.path (for `host_sim`, `tools.mpvm`); host_sim then
makes `micropython` and the firmware importable on CPython."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the portable tests' helpers (checks, fakes) serve the host-only tests too
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "portable"))

import host_sim  # noqa: F401,E402
