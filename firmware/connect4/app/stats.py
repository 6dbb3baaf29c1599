"""The menu's statistics pages (connect4.app.menu), loaded when first opened: a board
whose player never looks at them never holds this code. The menu imports this
module, never the other way: it is handed the Menu.

A page per AI level (its dot lit on the top row), then two players (a red and a
yellow dot), then the hints (white); each shows its numbers in turn, SHOW_MS
each: wins, losses, draws (two players: red wins, yellow wins, draws), of the
board size chosen (Menu.table).
"""
from micropython import const
from time import ticks_diff

from connect4.app.store import MAX_LEVEL
from connect4.app.glyphs import draw_number, WHITE, DIM, RED, YELLOW, GREEN, BLUE

PAGES = MAX_LEVEL + 2  # one per level, then two players, then hints (the last)
SHOW_MS = const(1500)

AI_COLORS = (GREEN, RED, BLUE)  # wins, losses, draws against the AI
TWO_COLORS = (RED, YELLOW, BLUE)  # red wins, yellow wins, draws


def shown(menu):
    """(kind 0-2, value) that the menu's statistics page shows now."""
    page = menu.page
    if page == PAGES - 1:
        return 0, menu.stats.get("hints", 0)
    kind = (ticks_diff(menu.now, menu.page_since) // SHOW_MS) % 3
    if page < MAX_LEVEL:
        return kind, menu.table()["ai"][page][kind]
    return kind, menu.table()["two"][kind]


def render(menu, display, gy):
    page = menu.page
    kind, value = shown(menu)
    if page == PAGES - 1:  # hints
        for x in range(3):
            display.set(x, 0, WHITE)
        draw_number(display, value, 0, gy, WHITE)
        return
    if page < MAX_LEVEL:
        for x in range(min(display.width, MAX_LEVEL)):
            display.set(x, 0, WHITE if x == min(page, display.width - 1) else DIM)
        colors = AI_COLORS
    else:
        display.set(0, 0, RED)
        display.set(1, 0, YELLOW)
        colors = TWO_COLORS
    if gy > 1:
        for i in range(3):
            display.set(i, 1, colors[i] if i == kind else DIM)
    draw_number(display, value, 0, gy, colors[kind])
