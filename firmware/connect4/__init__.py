"""Connect 4 for an ESP32-C3 with a NeoPixel matrix.

Packages:
  engine  rules, search, evaluation and the AI player; knows nothing of LEDs or buttons.
  hw      thin drivers: the LED matrix and the controls; know nothing of the game.
  app     the game flow, menu, pictures and settings file, wiring engine and drivers.
Modules: hardware_setup builds every Pin and the NeoPixel from config.py;
boot runs the app (safe mode, error log, restarts).
"""

VERSION = "0.1.0"
