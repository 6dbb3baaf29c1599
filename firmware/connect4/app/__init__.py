"""The game app: flow, menu, pictures, settings storage.

It receives driver objects (connect4.hw) and never touches pins itself.
"""
