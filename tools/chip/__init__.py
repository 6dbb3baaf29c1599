"""The chip in the loop: the stock MicroPython image in an emulated ESP32-C3 (tools/chip/emulator.py)."""
