"""The Connect 4 engine: rules (board), hot search core (core), search driver
(search), levels, the AI player, a deterministic PRNG and a line protocol.

Nothing here touches hardware; the app passes a poll callable in instead.
"""
