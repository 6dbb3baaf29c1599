"""The board on the network: pairing, the JSON API, the web server, Wi-Fi.

api.py and pairing.py are plain logic (tested in the MicroPython VM too);
server.py serves them over HTTP (the project's own: small, pumped by the game
loop); wifi.py is the only module that imports `network` (as
hardware_setup.py is for `machine`); paired.py is the paired phones' file.
None of it is imported until Wi-Fi is turned on (or the simulator's --web, or
the menu forgets the paired phones), so it costs nothing otherwise.
"""
