"""Two boards, one game: the other board's POST /api/board body, checked.

A leaf (it imports nothing of the game), so that the "play a board" page
(connect4.app.boards) checks an ask without the game's code, which it loads
only once the ask is taken, and connect4.app.twoboards_setup checks a request
during the game by the same rule.
"""


def error(data):
    """None if `data` is {"level": 0-8, "name": "connect4-XXXX"} or {"leave": true}, else the
    answer (400, why)."""
    level, name = data.get("level", 0), data.get("name", "")
    if (data.get("leave") is True and len(data) == 1) or (
            len(data) == 2 and isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 8
            and isinstance(name, str) and 0 < len(name) <= 20):
        return None
    return 400, {"error": "expected {\"level\": 0-8, \"name\": \"connect4-XXXX\"} or {\"leave\": true}"}
