"""Thin hardware drivers: the LED matrix (display) and the controls (input).

They know nothing of the game. They receive pin-like objects (anything with
`value()`) and a NeoPixel-like object from connect4/hardware_setup.py, the
only module that constructs machine.Pin and neopixel.NeoPixel objects.
"""
