"""The web API's logic on the real App (fake hardware), without sockets: runs in the
MicroPython VM too. Pairing, field-by-field validation, writes queued for the app and
applied at a safe point, a new game that stops the AI's search at its next poll."""
import json

from connect4.app.game import PLAY, THINK, CHOSEN, HELD
from connect4.app.face import Face
from connect4.net.api import Api, parse_body, MAX_BODY
from connect4.net.pairing import Pairing, MAX_TRIES
from connect4.net.netconf import NetConf
from fakes import Rig, tmpdir, Counter


def games(api):
    """GET /api/games as the client reads it: (status, the JSON its pieces make)."""
    status, pieces = api.games()
    return status, json.loads(b"".join(pieces))




def setup(name, mode="two", first="red", level=1):
    rig = Rig(name)
    rig.store.settings.update({"mode": mode, "level": level, "first": first})
    rig.run_for(1600)
    pairing = Pairing(randbytes=Counter(), clock_ms=rig.clock.ticks_ms)
    netconf = NetConf(tmpdir(name + "w"), randbytes=Counter()).load()
    api = Api(Face(rig.app), pairing, netconf)
    status, body = api.pair(json.dumps({"code": pairing.code}).encode())
    assert status == 200, body
    return rig, api, "Bearer " + body["token"]


def body(obj):
    return json.dumps(obj).encode()


def test_state_of_a_new_game_has_the_documented_fields():
    rig, api, auth = setup("api1")
    status, s = api.state()
    assert status == 200
    assert s["moves"] == "" and s["mode"] == "two" and s["turn"] == "red" and s["result"] is None
    assert s["thinking"] is False and s["winning"] == [] and s["human"] is True
    assert 1 <= s["level"] <= 8 and s["state"] == "play"
    json.dumps(s)  # all of it is JSON


def test_state_during_the_intro_is_the_game_it_starts_at_the_saved_mode_and_level():
    """Was: "mode": "ai", "level": 0 during the intro whatever the settings (the app's first
    values, before any game): the browser board said "the AI is yellow, level 0"."""
    for mode, levels in (("ai", [0, 4]), ("two", [0, 0]), ("demo", [0, 0])):
        rig = Rig("api_intro_" + mode)
        rig.store.settings.update({"mode": mode, "level": 4, "first": "red"})
        api = Api(Face(rig.app), Pairing(randbytes=Counter(), clock_ms=rig.clock.ticks_ms), None)
        s = api.state()[1]
        assert (s["state"], s["mode"], s["levels"]) == ("intro", mode, levels), s
        if mode != "demo":
            assert s["level"] == 4
        rig.run_for(1600)  # the intro ends: the game it said
        s = api.state()[1]
        assert s["state"] != "intro" and s["mode"] == mode
        if mode != "demo":
            assert s["levels"] == levels and s["level"] == 4
        else:
            assert min(s["levels"]) >= 1  # drawn as the demo started


def test_pairing_wrong_codes_lock_it_and_draw_a_new_code():
    rig, api, auth = setup("api2")
    pairing = api.pairing
    code = pairing.code
    wrong = "0000" if code != "0000" else "1111"
    assert api.pair(body({"code": wrong}))[0] == 403
    assert api.pair(body({"code": 1234}))[0] == 400
    assert api.pair(b"{")[0] == 400
    for _ in range(MAX_TRIES - 1):
        api.pair(body({"code": wrong}))
    assert pairing.code != code  # a new code after too many misses
    assert api.pair(body({"code": pairing.code}))[0] == 429  # locked, even for the right code
    rig.clock.sleep_ms(61000)
    status, got = api.pair(body({"code": pairing.code}))
    assert status == 200 and len(got["token"]) == 24


def test_writes_need_a_session():
    rig, api, auth = setup("api3")
    for bad in (None, "", "Bearer", "Bearer x", "Basic " + auth[7:], auth + "0", auth[:-1]):
        assert api.move(bad, body({"column": 4}))[0] == 401
        assert api.new(bad, b"{}")[0] == 401
        assert api.set_settings(bad, body({"brightness": 2}))[0] == 401
    assert rig.app.commands == [] and rig.app.board.count == 0


def test_a_move_is_validated_field_by_field_and_applied_by_the_app():
    rig, api, auth = setup("api4")
    for bad in (b"", b"{", b"[4]", b'"4"', b"\xff\xfe", body({"column": "4"}), body({"column": 4.0}),
                body({"column": True}), body({"column": 0}), body({"column": 8}), body({"col": 4}),
                body({"column": 4, "x": 1}), body({"column": None}), b"{}"):
        status, err = api.move(auth, bad)
        assert status == 400 and isinstance(err["error"], str), (bad, status, err)
    assert api.move(auth, b"x" * (MAX_BODY + 1))[0] == 413
    assert rig.app.commands == [] and rig.app.board.count == 0  # nothing changed
    assert api.move(auth, body({"column": 4})) == (200, {"queued": "move", "column": 4})
    assert api.move(auth, body({"column": 5}))[0] == 409  # the first is not applied yet
    rig.run_for(10)
    assert rig.app.board.moves_string() == "4"
    assert api.move(auth, body({"column": 5}))[0] == 409  # the disc is still falling
    rig.run_until(lambda: rig.app.state == PLAY)
    assert api.state()[1]["turn"] == "yellow"


def test_a_full_column_and_the_ais_turn_are_409():
    rig, api, auth = setup("api5")
    for _ in range(6):
        assert api.move(auth, body({"column": 1}))[0] == 200
        rig.run_until(lambda: rig.app.state == PLAY and not rig.app.commands)
    status, err = api.move(auth, body({"column": 1}))
    assert status == 409 and "full" in err["error"]
    rig2, api2, auth2 = setup("api5b", mode="ai", first="yellow", level=1)  # the AI starts
    rig2.run_until(lambda: rig2.app.state in (THINK, CHOSEN, HELD))
    assert api2.move(auth2, body({"column": 4}))[0] == 409


def test_a_winning_line_is_reported_one_based():
    rig, api, auth = setup("api6")
    for col in (1, 2, 1, 2, 1, 2, 1):
        assert api.move(auth, body({"column": col}))[0] == 200
        rig.run_until(lambda: not rig.app.commands and rig.app.state != 3)
    s = api.state()[1]
    assert s["result"] == "red" and s["state"] == "over" and not s["human"]
    assert sorted(s["winning"]) == [[1, 1], [1, 2], [1, 3], [1, 4]]
    status, g = games(api)  # the game's record, from the flash
    assert status == 200 and g["records"] is True and len(g["games"]) == 1
    game = g["games"][0]
    assert game["moves"] == "1212121" and game["result"] == "red" and game["mode"] == "two"
    assert game["first"] == "red" and len(game["marks"]) == 7


def test_a_new_game_while_the_ai_thinks_stops_the_search_at_its_next_poll():
    rig, api, auth = setup("api7", mode="ai", first="red", level=8)
    polls = []
    app = rig.app
    assert api.move(auth, body({"column": 4}))[0] == 200  # then the AI thinks

    def pump():  # what the server does at each round: here, a new game arrives at the 3rd poll
        if app.turn.thinking:
            polls.append(app.turn.think_nodes)
            if len(polls) == 3:
                assert api.new(auth, body({"mode": "two", "first": "red"}))[0] == 200
                assert api.settings()[1]["mode"] == "two"  # taken at once: it reads back so
    app.pump = pump
    rig.run_until(lambda: app.mode == 1, 20000)
    assert len(polls) == 3  # the search stopped at the poll that saw the request
    assert app.board.count == 0 and app.mode == 1 and app.state == PLAY and not app.interrupt


def test_bad_new_game_and_settings_fields_change_nothing():
    rig, api, auth = setup("api8")
    before = dict(rig.app.settings)
    for bad in ({"mode": "chess"}, {"level": 9}, {"level": "3"}, {"level": True}, {"first": 1},
                {"blunder": 3}, {"blunder": False}, {"brightness": 5}, {"x": 1}):
        assert api.new(auth, body(bad))[0] == 400, bad
    for bad in ({"brightness": 0}, {"brightness": 8}, {"brightness": 2.0}, {"level": 0},
                {"wifi": "x"}, {"wifi": {"ssid": "a"}}, {"wifi": {"ssid": "a", "password": "short"}},
                {"wifi": {"ssid": "a" * 33, "password": ""}}, {"wifi": {"ssid": 1, "password": ""}},
                {"brightness": 3, "bogus": 1}):
        assert api.set_settings(auth, body(bad))[0] == 400, bad
    rig.run_for(10)
    assert rig.app.settings == before and rig.app.commands == []


def test_settings_apply_and_wifi_credentials_are_never_returned():
    rig, api, auth = setup("api9")
    assert api.set_settings(auth, body({"brightness": 7, "level": 5}))[0] == 200
    rig.run_for(10)
    assert rig.app.settings["brightness"] == 7 and rig.app.settings["level"] == 5
    assert api.set_settings(auth, body({"wifi": {"ssid": "HomeNet", "password": "secret-pass"}}))[0] == 200
    status, s = api.settings()
    text = json.dumps(s)
    assert status == 200 and s["wifi"] == {"configured": True, "name": None}  # (a NetConf: no name)
    assert "HomeNet" not in text and "secret-pass" not in text and api.netconf.ap_password not in text
    assert s["brightness"] == 7 and len(s["stats"]["ai"]) == 8
    again = NetConf(api.netconf.path[:-len("wifi.json")]).load()  # kept on flash
    assert again.ssid == "HomeNet" and again.password == "secret-pass"
    assert again.ap_password == api.netconf.ap_password and len(again.ap_password) == 12


def test_a_setting_written_reads_back_at_once_and_is_on_flash_even_while_the_ai_thinks():
    """Issue 36: after a 200 to POST /api/settings, GET /api/settings and the live state show
    the value, though the app has not stepped since (here: inside the AI's search, where the
    server answers from the poll hook and the app's queue waits for the search's end); a
    power cut right after the answer keeps it."""
    from connect4.app.store import Store
    from connect4.app.storeload import load
    rig, api, auth = setup("api9b", mode="ai", first="red", level=8)
    app = rig.app
    assert api.move(auth, body({"column": 4}))[0] == 200
    seen = []

    def pump():
        if app.turn.thinking and not seen:
            assert api.set_settings(auth, body({"brightness": 2, "first": "yellow"}))[0] == 200
            seen.append((api.settings()[1]["brightness"], api.settings()[1]["first"],
                         api.state()[1]["brightness"]))
            kept = Store(rig.path)
            load(kept)
            seen.append((kept.settings["brightness"], kept.settings["first"]))
    app.pump = pump
    rig.run_until(lambda: seen, 20000)
    assert seen == [(2, "yellow", 2), (2, "yellow")]
    assert app.turn.thinking or app.state != PLAY  # still the AI's turn: the change is no new game


def test_a_setting_the_flash_refuses_is_said_507_and_holds_until_a_restart():
    import os
    rig, api, auth = setup("api9c")
    os.mkdir(rig.path + ".tmp")  # a folder where the temporary file goes: every save refused
    try:
        status, data = api.set_settings(auth, body({"brightness": 6}))
        assert status == 507 and "not saved" in data["error"]
        assert api.settings()[1]["brightness"] == 6  # it holds (as the menu's would)
        assert api.new(auth, body({"level": 3}))[0] == 507
    finally:
        os.rmdir(rig.path + ".tmp")


def test_parse_body_gives_objects_only():
    assert parse_body(b'{"a": 1}') == (None, {"a": 1})
    assert parse_body(b"")[1] == {}
    assert parse_body(b"[]")[0] == 400 and parse_body(b"nul")[0] == 400


def test_an_empty_ssid_forgets_the_network_with_or_without_a_password_field():
    """As the README says: `"ssid": ""` forgets it (was: 400 without a password field)."""
    rig, api, auth = setup("api10")
    for forget in ({"ssid": ""}, {"ssid": "", "password": ""}):
        assert api.set_settings(auth, body({"wifi": {"ssid": "HomeNet", "password": "secret-pass"}}))[0] == 200
        assert api.settings()[1]["wifi"]["configured"] is True
        status, answer = api.set_settings(auth, body({"wifi": forget}))
        assert status == 200, (forget, answer)
        assert api.settings()[1]["wifi"]["configured"] is False
        again = NetConf(api.netconf.path[:-len("wifi.json")]).load()
        assert again.ssid == "" and again.password == ""
    for bad in ({"ssid": "HomeNet"}, {"password": "secret-pass"}, {"ssid": "", "pw": ""}, {}):
        assert api.set_settings(auth, body({"wifi": bad}))[0] == 400, bad


def read_file(path):
    with open(path) as f:
        return f.read()


def test_a_corrupt_wifi_file_is_kept_aside_as_bad_like_the_settings_file():
    import os
    folder = tmpdir("wifibad")
    kept = '{"ap_password": "ABCDEFGHJKMN", "ssid": 5, "password": ""}'  # its key is good
    with open(folder + "wifi.json", "w") as f:
        f.write(kept)
    assert NetConf(folder).load().ap_password == "ABCDEFGHJKMN"
    assert read_file(folder + "wifi.json.bad") == kept
    assert NetConf(folder).load().ap_password == "ABCDEFGHJKMN"  # saved again: the key stays
    for bad in ('{"ap_password": "ABCDEFGHJKMN", "ssid": "Home', "[1, 2]",
                '{"ap_password": "short", "ssid": "HomeNet", "password": "secret-pass"}'):
        with open(folder + "wifi.json", "w") as f:
            f.write(bad)
        nc = NetConf(folder, randbytes=Counter()).load()
        assert len(nc.ap_password) == 12 and read_file(folder + "wifi.json.bad") == bad
        assert json.loads(read_file(folder + "wifi.json"))["ap_password"] == nc.ap_password
    os.remove(folder + "wifi.json.bad")
    good = read_file(folder + "wifi.json")
    assert NetConf(folder).load().ap_password == nc.ap_password  # a good file: kept, nothing aside
    assert read_file(folder + "wifi.json") == good and "wifi.json.bad" not in os.listdir(folder)
    os.remove(folder + "wifi.json")
    NetConf(folder, randbytes=Counter()).load()  # none at all: made, nothing aside
    assert "wifi.json.bad" not in os.listdir(folder)


def two_moves_vs_the_ai(name):
    """A game vs the AI at level 1 with a move each: (rig, api, auth)."""
    rig, api, auth = setup(name, mode="ai", first="red", level=1)
    assert api.move(auth, body({"column": 4}))[0] == 200
    rig.run_until(lambda: rig.app.state == PLAY and rig.app.board.count == 2, 20000)
    return rig, api, auth


def test_a_level_change_from_the_page_during_a_game_vs_the_ai_starts_a_new_game_as_the_menu_does():
    rig, api, auth = two_moves_vs_the_ai("api12")
    app = rig.app
    assert api.set_settings(auth, body({"level": 2}))[0] == 200
    rig.run_for(10)
    s = api.state()[1]
    assert s["moves"] == "" and s["level"] == 2 and s["levels"] == [0, 2]  # a new game, at level 2
    r = app.records().get(0)  # the game left: recorded at the level it was played at
    assert (r.mode, r.levels, r.result, len(r.moves)) == ("ai", (0, 1), 3, 2)


def test_a_brightness_change_from_the_page_leaves_the_game_alone():
    rig, api, auth = two_moves_vs_the_ai("api13")
    app = rig.app
    assert api.set_settings(auth, body({"brightness": 2}))[0] == 200
    rig.run_for(10)
    assert app.board.count == 2 and app.settings["brightness"] == 2


def test_state_names_during_a_hint_and_a_replay():
    rig, api, auth = setup("api14")
    app = rig.app
    seen = []

    def pump():  # the server's round, from the loop and from the search's poll hook
        if app.turn.thinking:
            seen.append(api.state()[1])
    app.pump = pump
    rig.clock.at(0, rig.select, 0)  # the hint's chord: SELECT held while turning
    rig.run_for(100)
    rig.turn(1)
    rig.clock.at(0, rig.select, 1)
    rig.run_for(200)
    app.pump = None
    assert seen and app.hint_col >= 0
    assert seen[0]["state"] == "hint" and seen[0]["thinking"] is True
    from connect4.app import face
    from connect4.app.game import REPLAY
    names = face.STATE_NAMES
    assert names[REPLAY] == "replay" and "?" not in names


def test_the_board_size_from_the_page_columns_rows_and_a_clear_400():
    rig, api, auth = setup("api_size")
    status, s = api.state()
    assert (s["columns"], s["rows"]) == (7, 6)
    status, got = api.settings()
    assert got["size"] == "7x6" and got["stats"]["size"] == "7x6" and got["sizes"][-1] == "8x7"
    for bad in ("9x9", "8x8", "3x4", "7x6 ", "big", 76, None, [8, 7]):
        status, err = api.set_settings(auth, body({"size": bad}))
        assert status == 400 and "'size'" in err["error"], (bad, err)
    status, err = api.set_settings(auth, body({"size": "9x9"}))
    assert "4x4 to 8x7" in err["error"], err
    assert rig.store.settings["size"] == "7x6" and not rig.app.commands
    assert api.move(auth, body({"column": 4}))[0] == 200
    rig.run_for(600)
    assert api.set_settings(auth, body({"size": "8x7"}))[0] == 200
    rig.run_for(50)
    status, s = api.state()
    assert (s["columns"], s["rows"], s["moves"]) == (8, 7, "")  # a new game, of the size
    assert rig.store.settings["size"] == "8x7"
    assert api.move(auth, body({"column": 8}))[0] == 200
    assert api.move(auth, body({"column": 9}))[0] == 400
    rig.run_for(600)
    assert api.state()[1]["moves"] == "8"
    assert api.new(auth, body({"size": "4x5"}))[0] == 200
    rig.run_for(50)
    assert (api.state()[1]["columns"], api.state()[1]["rows"]) == (4, 5)
    status, got = games(api)
    assert [g["size"] for g in got["games"]] == ["8x7", "7x6"]  # the games left, newest first


def test_state_says_whether_the_token_sent_is_paired_and_the_live_state_never_does():
    """Issue 32: a page checks its token at every (re)connect with GET /api/state."""
    rig, api, auth = setup("api_paired")
    assert api.state(auth)[1]["paired"] is True
    for bad in (None, "", "Bearer ", "Bearer " + "0" * 24, auth[:-1], "Basic " + auth[7:]):
        assert api.state(bad)[1]["paired"] is False, bad
    live = api.live()  # the live events': one stream for every page, no token
    assert "paired" not in live and live["revoked"] == 0
    s = api.state(auth)[1]
    del s["paired"]
    assert s == live


def test_forget_needs_a_session_drops_every_phone_and_says_so_in_the_live_state():
    rig, api, auth = setup("api_forget")
    other = "Bearer " + api.pair(body({"code": api.pairing.code}))[1]["token"]
    code = api.pairing.code
    assert api.forget(None, b"{}")[0] == 401 and api.forget("Bearer x", b"{}")[0] == 401
    assert api.forget(auth, body({"all": True}))[0] == 400 and api.forget(auth, b"[")[0] == 400
    assert api.state(other)[1]["paired"] is True and api.live()["revoked"] == 0  # nothing yet
    assert api.forget(other, b"{}") == (200, {"forgotten": True})
    assert api.live()["revoked"] == 1  # the live pages' cue to check their token
    for a in (auth, other):
        assert api.state(a)[1]["paired"] is False
        assert api.move(a, body({"column": 4}))[0] == 401
        assert api.forget(a, b"{}")[0] == 401
    assert api.pairing.code != code  # drawn anew: a phone that saw the old one must look again
    assert api.pair(body({"code": api.pairing.code}))[0] == 200  # the new code pairs
