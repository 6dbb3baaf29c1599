"""The chip in the loop: tests run by `make chip-test` on an emulated ESP32-C3."""
