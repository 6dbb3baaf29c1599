"""`python -m host_sim`: the board simulator (the same as `make sim`)."""
import sys

from host_sim.sim import main

sys.exit(main(prog="python -m host_sim"))
