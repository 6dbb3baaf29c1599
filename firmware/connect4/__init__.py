"""Connect 4 for an ESP32-C3 with a NeoPixel matrix.

Packages:
  engine  rules, search, evaluation and the AI player; knows nothing of LEDs or buttons.
  (hw)    thin hardware drivers built from one config module (added with the board).
  (app)   the game flow wiring engine and hardware together (added with the board).
"""

VERSION = "0.1.0"
