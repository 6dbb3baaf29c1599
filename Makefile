# Connect 4 board: one Makefile for the simulator, the tests and the benchmarks.
# Every target installs what it needs itself: a virtual environment with the
# pinned tools of requirements-dev.txt, and the Node packages of package.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
STUBS_STAMP := build/c3stubs/.installed
SIM_ARGS ?=
BENCH_ARGS ?=

.PHONY: help sim test typecheck bench engine engine-vm picture clean deploy flash repl bench-device memory

help:
	@echo "make sim     the board simulator in the terminal (SIM_ARGS=--help for options)"
	@echo "make test    run every check (CPython, MicroPython VM, mpy-cross, chip stubs)"
	@echo "make typecheck  firmware/ against the ESP32-C3 MicroPython stubs (mypy)"
	@echo "make bench   speed and strength figures for the README"
	@echo "make memory  heap figures of the firmware in the MicroPython VM"
	@echo "make flash PORT=... FIRMWARE=...  erase the board, write a MicroPython image"
	@echo "make deploy PORT=...        compile firmware/ for the chip, copy it, reset"
	@echo "make repl PORT=...          the board's REPL"
	@echo "make bench-device PORT=...  the engine benchmark on the board"
	@echo "make engine  the engine line protocol on stdin/stdout"
	@echo "make engine-vm  the same, the board's engine_main.py in the MicroPython VM"
	@echo "make picture the README's pictures of the board (docs/), from the simulator"

$(VENV_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The chip's stubs as mypy's typeshed, apart from the venv (tools/typecheck.py).
$(STUBS_STAMP): requirements-stubs.txt typings/viper.pyi $(VENV_STAMP)
	$(PY) tools/typecheck.py --install
	touch $@

sim: $(VENV_STAMP)
	$(PY) -m host_sim.sim $(SIM_ARGS)

picture: $(VENV_STAMP)
	rm -rf build/picture_flash
	$(PY) -m host_sim.sim --headless --flash build/picture_flash --mode two --seed 7 \
		--script docs/board.script --record docs/board.gif
	rm -rf build/picture_flash
	$(PY) -m host_sim.sim --headless --flash build/picture_flash --mode two --seed 7 \
		--script docs/layout.script --record docs/layout.png

engine: $(VENV_STAMP)
	$(PY) -m host_sim.engine

# The board's own engine_main.py in the MicroPython VM: the twin of `make engine`.
engine-vm: $(NODE_STAMP)
	@node tools/mpvm/run.mjs --grow --strip-native --path firmware=/firmware firmware/engine_main.py

test: $(VENV_STAMP) $(NODE_STAMP) $(STUBS_STAMP)
	$(PY) -m pytest tests -q

typecheck: $(STUBS_STAMP)
	$(PY) tools/typecheck.py

bench: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) tools/bench.py $(BENCH_ARGS)

# Board commands: tools/device.py holds the logic (DRY_RUN=1 prints the commands).
PORT ?=
FIRMWARE ?=
DEVICE := $(PY) tools/device.py $(if $(DRY_RUN),--dry-run) --port "$(PORT)"

deploy: $(VENV_STAMP)
	$(DEVICE) deploy

flash: $(VENV_STAMP)
	$(DEVICE) --firmware "$(FIRMWARE)" flash

repl: $(VENV_STAMP)
	$(DEVICE) repl

bench-device: $(VENV_STAMP)
	$(DEVICE) bench

memory: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) tools/memory.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build
