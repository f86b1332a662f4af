"""The JSON API and the websocket, as a script or another client uses them."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie import examples
from ghillie.errors import Refusal
from ghillie.server.app import create_app
from ghillie.server.problems import Problem
from ghillie.store import MemoryStore
from ghillie.store.sql import SqlStore
from tests.scenarios import timeless

# The Veterans write their ambush orders (none) before any side is ready (DWV-R04).
NO_AMBUSHES = {"type": "record_ambushes", "orders": []}

# The § tooltip of that line: the rule's name and a line of its text, never its id.
RECORDING = (
    "Recording: Timing: after table edges and deployment zones are fixed, and before either "
    "army sets up."
)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStore())) as client:
        yield client


def new_game(client: TestClient, scenario: str = "grid-ambush-table") -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games", json={"scenario": scenario})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["game_id"], {
        link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]
    }


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def give(
    client: TestClient, game: str, token: str, command: dict[str, Any], command_id: str
) -> Any:
    return client.post(
        f"/api/games/{game}/commands",
        json={"command_id": command_id, "command": command},
        headers=auth(token),
    )


def test_a_new_game_has_a_private_link_and_qr_code_per_side_the_referee_and_the_table(
    client: TestClient,
) -> None:
    body = client.post("/api/games", json={"scenario": "suspicious-places"}).json()
    observers = {link["observer"] for link in body["links"]}
    assert observers == {"keno", "lianra", "referee", "spectator"}
    for link in body["links"]:
        # The spectator's link opens the table screen; every other one a side's page.
        page = "table" if link["observer"] == "spectator" else "play"
        assert link["url"].startswith(f"http://testserver/{page}/{body['game_id']}#")
        assert len(link["url"].split("#", 1)[1]) >= 40  # the token: in the fragment only
        assert link["qr_svg"].startswith("<svg")
    tokens = {link["url"].split("#")[1] for link in body["links"]}
    assert len(tokens) == 4


def test_a_client_that_draws_its_own_qr_codes_may_ask_for_none(client: TestClient) -> None:
    """``ghillie new`` draws each link's code itself: the server makes none (each costs it
    milliseconds of every other game's time), and the links are the same otherwise."""
    body = client.post("/api/games", json={"scenario": "suspicious-places", "qr": False}).json()
    assert [link["qr_svg"] for link in body["links"]] == [None] * 4
    assert all("#" in link["url"] for link in body["links"])
    refused = client.post("/api/games", json={"scenario": "suspicious-places", "qr": "maybe"})
    assert refused.status_code == 400, refused.text


def test_each_link_sees_its_own_side(client: TestClient) -> None:
    game, tokens = new_game(client)
    for observer in ("jungle", "orks", "referee"):
        view = client.get(f"/api/games/{game}/view", headers=auth(tokens[observer])).json()
        assert view["you"] == observer


def test_a_wrong_missing_or_foreign_token_is_answered_like_an_unknown_game(
    client: TestClient,
) -> None:
    game, tokens = new_game(client)
    _other, other_tokens = new_game(client)
    answers = [
        client.get(f"/api/games/{game}/view", headers=auth("not-a-token")),
        client.get(f"/api/games/{game}/view"),
        client.get(f"/api/games/{game}/view", headers=auth(other_tokens["orks"])),
        client.get("/api/games/no-such-game/view", headers=auth(tokens["orks"])),
    ]
    assert {a.status_code for a in answers} == {404}
    assert len({a.text for a in answers}) == 1
    assert answers[0].headers["content-type"] == "application/problem+json"
    assert answers[0].json()["code"] == "unknown_game"


def test_a_command_is_acknowledged_once_saved_and_a_retry_gets_the_first_answer(
    client: TestClient,
) -> None:
    game, tokens = new_game(client)
    order = {"type": "record_ambushes", "orders": [{"unit": "graw", "square": "D2"}]}
    first = give(client, game, tokens["jungle"], order, "c-1")
    assert first.status_code == 200
    assert first.json()["seq"] == 1
    again = give(client, game, tokens["jungle"], {"type": "ready"}, "c-1")
    assert again.json() == first.json()  # the same id: the first answer, not applied twice
    referee = client.get(f"/api/games/{game}/view", headers=auth(tokens["referee"])).json()
    assert referee["seq"] == 1
    # Another side's ids are its own.
    theirs = give(client, game, tokens["orks"], {"type": "ready"}, "c-1")
    assert theirs.json()["seq"] == 2


def test_refusals_are_problem_documents_with_stable_codes(client: TestClient) -> None:
    game, tokens = new_game(client)
    refused = give(client, game, tokens["orks"], {"type": "end_phase"}, "x")
    assert refused.status_code == 409
    assert refused.json() == {
        "type": "/problems/not_now",
        "title": "Refused",
        "status": 409,
        "code": "not_now",
        "detail": "That command cannot be given in this phase of the game.",
    }
    unknown = give(client, game, tokens["orks"], {"type": "waaagh"}, "y")
    assert (unknown.status_code, unknown.json()["code"]) == (422, "unknown_command")


def test_a_refusal_that_names_the_field_it_concerns_says_so_in_its_problem_document() -> None:
    refusal = Refusal("bad_models", "Give a position for every model.", field="models.3")
    assert Problem.of(refusal).body()["field"] == "models.3"
    # A refusal that names no field has none in its document (as every refusal had before).
    assert "field" not in Problem.of(Refusal("not_now", "Not now.")).body()


def test_bad_input_is_refused_without_echoing_it(client: TestClient) -> None:
    game, tokens = new_game(client)
    secret = "GRAW-IS-IN-D2"
    answers = [
        give(client, game, tokens["jungle"], {"type": "record_ambushes", "orders": secret}, "a"),
        client.post(
            f"/api/games/{game}/commands",
            json={"command_id": secret, "command": secret},
            headers=auth(tokens["jungle"]),
        ),
        client.post(
            f"/api/games/{game}/commands",
            content=b"{" + secret.encode(),
            headers={**auth(tokens["jungle"]), "content-type": "application/json"},
        ),
    ]
    for answer in answers:
        assert answer.status_code in (400, 422)
        assert secret not in answer.text


def test_a_grid_ambush_set_up_slip_is_a_problem_naming_the_field_it_concerns(
    client: TestClient,
) -> None:
    game, tokens = new_game(client)  # grid-ambush-table: the players enter the counts
    jungle = tokens["jungle"]
    order = {"type": "record_ambushes", "orders": [{"unit": "graw", "square": "D2"}]}
    give(client, game, jungle, order, "1")
    give(client, game, jungle, {"type": "ready"}, "2")
    give(client, game, tokens["orks"], {"type": "ready"}, "3")
    give(client, game, jungle, {"type": "reveal", "unit": "graw"}, "4")
    slip = give(client, game, jungle, {"type": "set_up", "unit": "graw", "in_square": 4}, "5")
    assert slip.status_code == 409
    assert slip.json()["code"] == "too_few_in_square"
    assert slip.json()["field"] == "in_square"
    assert slip.json()["detail"].startswith("Only 4 of the 10 models set up are in D2")
    listed = {"type": "set_up", "unit": "graw", "in_square": 4, "casualties": [8, 9]}
    assert give(client, game, jungle, listed, "6").status_code == 200


def test_the_view_can_be_fetched_from_a_seq_on(client: TestClient) -> None:
    game, tokens = new_game(client)
    give(client, game, tokens["jungle"], NO_AMBUSHES, "1")
    give(client, game, tokens["orks"], {"type": "ready"}, "2")
    whole = client.get(f"/api/games/{game}/view", headers=auth(tokens["orks"])).json()
    later = client.get(f"/api/games/{game}/view?after=1", headers=auth(tokens["orks"])).json()
    assert [e["seq"] for e in whole["log"]] == [0, 1, 2]
    assert [e["seq"] for e in later["log"]] == [2]
    assert {k: v for k, v in timeless(later).items() if k != "log"} == {
        k: v for k, v in timeless(whole).items() if k != "log"
    }


def test_odds_for_a_command_about_to_be_given(client: TestClient) -> None:
    game, tokens = new_game(client, "suspicious-places-table")
    lianra, keno = tokens["lianra"], tokens["keno"]
    pool = client.get(f"/api/games/{game}/view", headers=auth(lianra)).json()["board"][
        "markers_to_place"
    ]
    markers = [{"cover": "soft", "open": False}] * pool
    give(client, game, lianra, {"type": "place_markers", "markers": markers}, "1")
    give(client, game, lianra, {"type": "hide", "hidings": [{"marker": "M1", "unit": "mg"}]}, "2")
    give(client, game, lianra, {"type": "place_sniper", "sniper": "sniper", "true_marker": 0}, "3")
    give(client, game, keno, {"type": "ready"}, "4")
    give(client, game, lianra, {"type": "ready"}, "5")
    give(client, game, keno, {"type": "activate", "unit": "sergeant"}, "6")
    observe = {"type": "observe", "marker": "M1", "measured": {"range": 30, "line_of_sight": True}}
    odds = client.post(
        f"/api/games/{game}/odds", json={"command": observe}, headers=auth(keno)
    ).json()
    assert odds["dice"] == {"target": "d10", "quality": "d8", "means": "d4"}
    assert [o["probability"] for o in odds["outcomes"]] == ["99/160", "21/80", "19/160"]
    # The other side is not acting: no odds for it, only the refusal the command would get
    # (odds are never built from the acting side's pieces for anyone else).
    assert client.post(
        f"/api/games/{game}/odds", json={"command": observe}, headers=auth(lianra)
    ).json() == {
        "check": None,
        "dice": {},
        "outcomes": [],
        "refused": {"code": "not_your_turn", "detail": "Your side may not give that command now."},
    }
    # An order the rules would refuse gets its refusal at once, with the field it concerns
    # where the rules name one: the form says what to fix before it is sent.
    nowhere = {**observe, "marker": "M99"}
    refused = client.post(
        f"/api/games/{game}/odds", json={"command": nowhere}, headers=auth(keno)
    ).json()["refused"]
    assert refused["code"] == "unknown_piece"
    assert refused["detail"] == "There is no such piece that you can see."
    half = {"type": "observe", "measured": {"range": 30}}
    refused = client.post(
        f"/api/games/{game}/odds", json={"command": half}, headers=auth(keno)
    ).json()["refused"]
    assert refused == {
        "code": "malformed_command",
        "detail": "Fill in this field.",
        "field": "marker",
    }


@pytest.mark.spec("SW-R13")
def test_a_die_the_game_does_not_have_is_a_4xx_problem_never_a_roll(client: TestClient) -> None:
    dice = "d4, d6, d8, d10 or d12"
    data = examples.data("suspicious-places-table")
    data["units"] = [{**u, "quality": "d9"} if u["key"] == "mg" else u for u in data["units"]]
    created = client.post("/api/games", json={"scenario_data": data})
    assert created.status_code == 422
    assert created.json()["code"] == "bad_scenario"
    assert f"units.1.quality: d9 is not a die in this game: use {dice}" in created.json()["detail"]
    # A command's die, to be rolled and to have its odds shown: refused, and said in words that
    # name the field and the dice there are but never echo what was sent.
    game, tokens = new_game(client, "suspicious-places-table")
    keno = auth(tokens["keno"])
    fire = {"type": "fire", "target": "M1", "weapon": "d7"}
    for answer in (
        give(client, game, tokens["keno"], fire, "1"),
        client.post(f"/api/games/{game}/odds", json={"command": fire}, headers=keno),
    ):
        assert answer.status_code == 422
        assert answer.headers["content-type"].startswith("application/problem+json")
        problem = answer.json()
        assert problem["code"] == "bad_die"
        assert problem["detail"] == f"That is not a die in this game: use {dice}."
        assert problem["field"] == "weapon"
    # A d10 is a die: the command goes on to the rules (which say it is not the time to fire).
    assert give(client, game, tokens["keno"], {**fire, "weapon": "d10"}, "2").json()["code"] == (
        "not_now"
    )


def test_games_from_uploaded_scenario_files(client: TestClient) -> None:
    text = examples.file("grid-ambush-table").read_text()
    created = client.post("/api/games", json={"scenario_toml": text})
    assert created.status_code == 201
    broken = client.post(
        "/api/games", json={"scenario_toml": text.replace("width = 60", "width = -6")}
    )
    assert broken.status_code == 422
    assert broken.json()["code"] == "bad_scenario"
    assert "table.width" in broken.json()["detail"]
    assert client.post("/api/games", json={"scenario": "chess"}).json()["code"] == "bad_scenario"
    assert client.post("/api/games", json={}).json()["code"] == "bad_scenario"


def test_a_request_too_large_is_refused(client: TestClient) -> None:
    answer = client.post("/api/games", json={"scenario_data": {"x": "#" * (5 * 1024 * 1024)}})
    assert answer.status_code == 413
    assert answer.json()["code"] == "too_large"


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for answer in (client.get("/api/health"), client.get("/"), client.get("/api/nope")):
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert "'self'" in answer.headers["content-security-policy"]
    assert client.get("/api/health").headers["cache-control"] == "no-store"


def test_the_access_log_holds_no_token_and_no_secret(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    game, tokens = new_game(client)
    note = "CANARY-in-the-order"
    give(
        client,
        game,
        tokens["jungle"],
        {"type": "record_ambushes", "orders": [{"unit": "graw", "square": "D2", "note": note}]},
        "1",
    )
    give(client, game, tokens["jungle"], {"type": "record_ambushes", "orders": note}, "2")
    client.get(f"/api/games/{game}/view", headers=auth(tokens["jungle"]))
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "POST /api/games/{game_id}/commands 200" in logged
    for secret in (*tokens.values(), note, "D2"):
        assert secret not in logged


def test_the_websocket_sends_the_view_then_every_update_and_takes_commands(
    client: TestClient,
) -> None:
    game, tokens = new_game(client)
    with (
        client.websocket_connect(f"/api/games/{game}/ws") as orks,
        client.websocket_connect(f"/api/games/{game}/ws") as jungle,
    ):
        orks.send_json({"type": "auth", "token": tokens["orks"]})
        jungle.send_json({"type": "auth", "token": tokens["jungle"]})
        assert orks.receive_json()["view"]["you"] == "orks"
        assert jungle.receive_json()["view"]["you"] == "jungle"
        jungle.send_json(
            {
                "type": "command",
                "command_id": "w1",
                "command": {
                    "type": "record_ambushes",
                    "orders": [{"unit": "graw", "square": "D2", "note": "CANARY"}],
                },
            }
        )
        # Accepted: the answer rides in the update the command made (one frame).
        update = jungle.receive_json()
        assert update["type"] == "update"
        assert update["answer"]["seq"] == 1
        assert update["answer"]["command_id"] == "w1"
        assert update["view"]["log"][0]["seq"] == 1
        pushed = orks.receive_json()
        assert pushed["type"] == "update"
        # Every entry carries its signed head and the host's signature on what this side
        # was shown (the side's receipts) and every side's commitment root; the orks are
        # shown no opening, for nothing was revealed.
        proof = pushed["view"]["log"][0].pop("proof")
        assert set(proof) == {"hash", "sig", "shown", "roots", "contributions", "openings"}
        assert set(proof["roots"]) == {"orks", "jungle"}
        assert proof["openings"] == []
        assert pushed["view"]["log"] == [
            {
                "seq": 1,
                "lines": [
                    {
                        "event": "ambushes_recorded",
                        "text": {
                            "say": "{side} write down their ambush orders in secret.",
                            "args": {"side": "Deathworld Veterans"},
                            "rules": ["DWV-R04"],
                        },
                    }
                ],
                "said": [
                    {
                        "text": "Deathworld Veterans write down their ambush orders in secret.",
                        "rules": ["DWV-R04"],
                        "rule_lines": [RECORDING],
                    }
                ],
            }
        ]
        assert "CANARY" not in json.dumps(pushed)
        # Only what changed travels (now the orks may get ready, and the host's time in the
        # status); not their pieces, not the scenario, not the table.
        assert set(pushed["view"]) == {
            "seq",
            "fairness",
            "log",
            "commands",
            "your_move",
            "waiting_for",
            "status",
        }
        orks.send_json({"type": "command", "command_id": "w2", "command": {"type": "end_phase"}})
        refused = orks.receive_json()
        assert refused["type"] == "answer"
        assert refused["problem"]["code"] == "not_now"
        # A retry of the same id: the first answer, alone, and nothing applied twice.
        jungle.send_json({"type": "command", "command_id": "w1", "command": {"type": "ready"}})
        retried = jungle.receive_json()
        assert (retried["type"], retried["answer"]["seq"]) == ("answer", 1)
        orks.send_json({"type": "resync", "after": 0})
        assert [e["seq"] for e in orks.receive_json()["view"]["log"]] == [1]


def test_a_reconnecting_page_is_sent_the_log_after_the_seq_it_holds_and_pings_are_answered(
    client: TestClient,
) -> None:
    game, tokens = new_game(client)
    give(client, game, tokens["jungle"], NO_AMBUSHES, "1")
    give(client, game, tokens["orks"], {"type": "ready"}, "2")
    for after, logged in ((0, [1, 2]), (2, []), (-1, [0, 1, 2]), (7, [0, 1, 2]), ("x", [0, 1, 2])):
        with client.websocket_connect(f"/api/games/{game}/ws") as socket:
            socket.send_json({"type": "auth", "token": tokens["orks"], "after": after})
            whole = socket.receive_json()
            if whole["type"] == "seat":  # a side's seat comes first (ghillie.server.seats)
                whole = socket.receive_json()
            assert whole["type"] == "view"
            # The rest of the view is whole; only the log is cut to what the page lacks
            # (and a page claiming more than the game has gets all of it).
            assert whole["view"]["seq"] == 2
            assert [entry["seq"] for entry in whole["view"]["log"]] == logged, after
            assert whole["view"]["pieces"]
            socket.send_json({"type": "ping"})
            assert socket.receive_json() == {"type": "pong"}


def test_a_websocket_with_a_bad_token_is_closed_like_an_unknown_game(client: TestClient) -> None:
    game, _ = new_game(client)
    with client.websocket_connect(f"/api/games/{game}/ws") as socket:
        socket.send_json({"type": "auth", "token": "guess"})
        message = socket.receive_json()
        assert message["problem"]["code"] == "unknown_game"


def test_the_server_runs_on_sqlite_and_a_restart_loses_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "ghillie.db")
    with TestClient(create_app(SqlStore(path))) as first:
        game, tokens = new_game(first)
        give(first, game, tokens["jungle"], NO_AMBUSHES, "1")
    with TestClient(create_app(SqlStore(path))) as second:
        view = second.get(f"/api/games/{game}/view", headers=auth(tokens["orks"])).json()
        assert view["seq"] == 1
        again = give(second, game, tokens["jungle"], NO_AMBUSHES, "1")
        assert again.json()["seq"] == 1  # the retry after the restart: the first answer


def test_the_openapi_document_describes_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/commands", "/api/games/{game_id}/view"} <= set(
        spec["paths"]
    )


def test_after_the_game_each_step_shows_every_side_beside_the_truth(client: TestClient) -> None:
    game, tokens = new_game(client, "grid-ambush-table")
    jungle, orks = tokens["jungle"], tokens["orks"]
    orders = [{"unit": "graw", "square": "D2"}, {"unit": "harker", "square": "B2"}]
    early = client.get(f"/api/games/{game}/story?seq=1", headers=auth(orks))
    # While the game goes on, nobody may look back at the other side's secrets.
    assert early.status_code == 409
    assert early.json()["code"] == "game_not_over"
    assert give(client, game, jungle, {"type": "record_ambushes", "orders": orders}, "1").is_success
    assert give(client, game, jungle, {"type": "ready"}, "2").is_success
    assert give(client, game, orks, {"type": "ready"}, "3").is_success
    ended = give(client, game, jungle, {"type": "end_game"}, "4")
    assert ended.is_success, ended.text
    story = client.get(f"/api/games/{game}/story?seq=1", headers=auth(orks)).json()
    assert story["seq"] == 1
    assert story["last"] == 4
    assert set(story["views"]) == {"jungle", "orks", "referee"}
    # The orks' page showed no square then; the truth beside it does.
    orks_then = json.dumps({k: v for k, v in story["views"]["orks"].items() if k != "table"})
    assert "in ambush in square D2" not in orks_then
    truth = json.dumps(story["views"]["referee"]["pieces"])
    assert "in ambush in square D2" in truth
    assert story["views"]["orks"]["commands"] == []
    # Past the end is the end; a link that is not the game's is no game.
    assert client.get(f"/api/games/{game}/story?seq=99", headers=auth(orks)).json()["seq"] == 4
    assert client.get(f"/api/games/{game}/story?seq=1", headers=auth("nope")).status_code == 404
