# Connect 4 board: one Makefile for the simulator, the tests and the benchmarks.
# Every target installs what it needs itself: a virtual environment with the
# pinned tools of requirements-dev.txt, and the Node packages of package.json.

# Variables you may set (`make help` lists them; tests/test_tools.py checks it does).
PYTHON ?= python3
SIM_ARGS ?=
BENCH_ARGS ?=
PORT ?=
WEB_PORT ?=
FIRMWARE ?=
QEMU ?=
DRY_RUN ?=

VENV := .venv
VENV_BIN := $(VENV)/bin
# Windows (make from Git Bash or MSYS2): the venv keeps its programs in Scripts/.
ifeq ($(OS),Windows_NT)
VENV_BIN := $(VENV)/Scripts
ifeq ($(origin PYTHON),file)
PYTHON := python
endif
endif
PY := $(VENV_BIN)/python
VENV_STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
STUBS_STAMP := build/c3stubs/.installed

.PHONY: help sim test chip-test quick typecheck bench engine engine-vm picture clean deploy flash image flash-image repl bench-device memory book site web-sim

help:
	@echo "Targets (each installs what it needs: .venv, node_modules):"
	@echo "  make sim           the board simulator in the terminal (SIM_ARGS=--help for options)"
	@echo "  make test          every check: CPython, MicroPython VM, mpy-cross, chip stubs"
	@echo "  make chip-test     the firmware on an emulated ESP32-C3 (QEMU, FIRMWARE): tests/chip/"
	@echo "  make quick         the inner loop: the CPython-only tests, under a minute"
	@echo "  make typecheck     firmware/ against the ESP32-C3 MicroPython stubs (mypy)"
	@echo "  make bench         speed and strength figures, docs/benchmarks.md (BENCH_ARGS)"
	@echo "  make memory        heap figures of the firmware in the MicroPython VM"
	@echo "  make book          rebuild firmware/book.bin, the opening book, from the perfect solver"
	@echo "  make site          the board in a browser and its install page: a static site in build/site/"
	@echo "                     (FIRMWARE: the install page gets make image's image)"
	@echo "  make web-sim       serve build/site/ on 127.0.0.1 (WEB_PORT=... or a free one)"
	@echo "  make engine        the engine line protocol on stdin/stdout"
	@echo "  make engine-vm     the same, the board's engine_main.py in the MicroPython VM"
	@echo "  make picture       the pictures of the board (docs/), from the simulator"
	@echo "  make flash         erase the board, write a MicroPython image (PORT, FIRMWARE)"
	@echo "  make deploy        compile firmware/ for the chip, copy it, reset (PORT)"
	@echo "  make image         build/connect4-esp32c3.bin: MicroPython and the deployed files (FIRMWARE)"
	@echo "  make flash-image   write that image to a new board, whole (PORT; FIRMWARE builds it first)"
	@echo "  make repl          the board's REPL (PORT)"
	@echo "  make bench-device  the engine benchmark on the board (PORT)"
	@echo "  make clean         remove .venv, node_modules, build/ and the test caches"
	@echo "  make help          this list"
	@echo "Variables (make TARGET NAME=value):"
	@echo "  PORT=...           the board's serial port: /dev/ttyACM0 (Linux),"
	@echo "                     /dev/cu.usbmodem1101 (macOS), COM3 (Windows)"
	@echo "  WEB_PORT=...       make web-sim: the port on 127.0.0.1 (default: a free one)"
	@echo "  FIRMWARE=...       make flash/image/site/chip-test, bench --only chip: the ESP32_GENERIC_C3 .bin"
	@echo "                     from micropython.org"
	@echo "  QEMU=...           make chip-test, bench --only chip: the emulator (default"
	@echo "                     build/emulator/qemu-system-riscv32)"
	@echo "  DRY_RUN=1          flash/flash-image/deploy/repl/bench-device print their commands, run nothing"
	@echo "  SIM_ARGS=...       options of make sim, e.g. SIM_ARGS=\"--preset buttons\""
	@echo "  BENCH_ARGS=...     options of make bench: --quick, --micropython PATH, --out FILE"
	@echo "                     (--out docs/benchmarks.md rewrites the sections run, keeps the rest),"
	@echo "                     --only chip|speed|web|accuracy|levels|perfect|sets|ladder|sizes|people"
	@echo "                     (chip: the emulated chip's speed, FIRMWARE and QEMU), --games N (vs the"
	@echo "                     perfect player), --ladder-games N (per pair of the rating ladder),"
	@echo "                     --people-games N (a side per opponent), --jobs N (processes)"
	@echo "  PYTHON=...         the Python that creates .venv (default python3; python on Windows)"

$(VENV_STAMP): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The chip's stubs as mypy's typeshed, apart from the venv (tools/mpvm/typecheck.py).
$(STUBS_STAMP): requirements-stubs.txt typings/viper.pyi $(VENV_STAMP)
	$(PY) tools/mpvm/typecheck.py --install
	touch $@

sim: $(VENV_STAMP)
	$(PY) -m host_sim.sim $(SIM_ARGS)

# Each picture a scripted run of the simulator on a flash of its own (tools/docs/pictures.py).
picture: $(VENV_STAMP)
	$(PY) tools/docs/pictures.py

# The board in a browser: the firmware in MicroPython's WebAssembly build (tools/site/build.py).
site: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) tools/site/build.py $(if $(FIRMWARE),--firmware "$(FIRMWARE)")

web-sim: site
	@$(PY) tools/site/serve.py $(if $(WEB_PORT),--port $(WEB_PORT))

engine: $(VENV_STAMP)
	$(PY) -m host_sim.engine

# The board's own engine_main.py in the MicroPython VM: the twin of `make engine`
# (run in /firmware, where book.bin lies beside it as on the board).
engine-vm: $(NODE_STAMP)
	@node tools/mpvm/run.mjs --grow --strip-native --path firmware=/firmware --cwd /firmware firmware/engine_main.py

test: $(VENV_STAMP) $(NODE_STAMP) $(STUBS_STAMP)
	$(PY) -m pytest tests -q -n 2

# The inner loop: no MicroPython VM (marker vm) and no slow end-to-end runs
# (marker slow); tests/conftest.py sets both markers.
quick: $(VENV_STAMP) $(STUBS_STAMP)
	$(PY) -m pytest tests -q -m "not vm and not slow"

# The chip in the loop (tests/chip/): the flashable image booted in an emulated ESP32-C3
# (QEMU=..., or build/emulator/: docs/developer.md#the-chip-in-the-loop) on FIRMWARE=...;
# the Node package too: the Wi-Fi test compares the chip with make memory's model (the VM)
chip-test: $(VENV_STAMP) $(NODE_STAMP)
	CHIP_TEST=1 QEMU="$(QEMU)" FIRMWARE="$(FIRMWARE)" $(PY) -m pytest tests/chip -v -rA -n 2 --maxschedchunk=1

typecheck: $(STUBS_STAMP)
	$(PY) tools/mpvm/typecheck.py

bench: $(VENV_STAMP) $(NODE_STAMP)
	QEMU="$(QEMU)" FIRMWARE="$(FIRMWARE)" $(PY) tools/bench/bench.py $(BENCH_ARGS)

# Board commands: tools/board/device.py holds the logic (DRY_RUN=1 prints the commands).
DEVICE := $(PY) tools/board/device.py $(if $(DRY_RUN),--dry-run) --port "$(PORT)"

deploy: $(VENV_STAMP)
	$(DEVICE) deploy

flash: $(VENV_STAMP)
	$(DEVICE) --firmware "$(FIRMWARE)" flash

# One 4 MB image for a new board: MicroPython with its filesystem already holding
# what deploy copies (tools/board/image.py); flash-image writes it in one go.
image: $(VENV_STAMP)
	$(PY) tools/board/image.py --firmware "$(FIRMWARE)"

flash-image: $(VENV_STAMP) $(if $(FIRMWARE),image)
	$(DEVICE) flash-image

repl: $(VENV_STAMP)
	$(DEVICE) repl

bench-device: $(VENV_STAMP)
	$(DEVICE) bench

memory: $(VENV_STAMP) $(NODE_STAMP)
	$(PY) tools/mpvm/memory.py

# The opening book, deterministic; solver answers cached in build/book/ (resumable).
book: $(VENV_STAMP)
	$(PY) tools/book/build.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build
