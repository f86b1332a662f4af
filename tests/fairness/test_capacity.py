"""A roster's size comes from the scenario (issue 10, finding 5): a side with ~205 ships used
to overflow the fixed 1,024-slot roster mid-game — a 500, a polluted ledger, a game that
could not go on and a record that could never pass the audit. Now a scenario that could
hide more than a roster holds is refused when the game is created, with the numbers; any
scenario accepted plays and audits; and if a ruleset's bound were ever wrong, the command
that would overflow is refused with a reason and changes nothing."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie import Game, Refusal, ScenarioError, examples, load_scenario, registry
from ghillie.errors import SECRETS_FULL
from ghillie.fairness import capacity
from ghillie.fairness.audit import audit
from ghillie.fairness.capacity import MAX_FACTS, MIN_FACTS, roster_size
from ghillie.server.app import create_app
from ghillie.store import MemoryStore

SHIP_FACTS = 11  # ghillie.rules.ambush_fields.pieces: what one ship can hide


def fleet(cylons: int) -> dict[str, Any]:
    """The bundled ambush-fields map, widened, with ``cylons`` Cylon ships, one Colonial."""
    data = copy.deepcopy(examples.data("ambush-fields"))
    data["map"] = {"columns": 60, "rows": 60}
    data["fields"] = []
    data["ships"] = [
        {
            "key": f"raider-{i}",
            "side": "cylons",
            "name": f"Raider {i}",
            "at": f"{i % 50 + 1:02d}{i // 50 + 1:02d}",
        }
        for i in range(cylons)
    ] + [{"key": "galactica", "side": "colonials", "name": "Galactica", "at": "3050"}]
    return data


def test_every_bundled_scenario_has_rosters_of_one_size() -> None:
    # The size is public: it must not tell how many pieces a side hides.
    assert {roster_size(examples.load(name)) for name in examples.names()} == {MIN_FACTS}


@pytest.mark.spec("BSG-A06")
def test_the_roster_size_does_not_tell_how_many_fields_or_ships_hide() -> None:
    # Red team: sized by the exact bound, the table example had 60 slots with one Cylon
    # field and 65 with two, and 11 slots a ship told the Colonials the Cylon fleet's size.
    data = examples.data("ambush-fields-table")
    sizes = set()
    for fields in (data["fields"][:1], data["fields"]):
        for ships in ([s for s in data["ships"] if s["key"] != "heavy-raider"], data["ships"]):
            sizes.add(roster_size(load_scenario({**data, "fields": fields, "ships": ships})))
    assert sizes == {MIN_FACTS}
    assert roster_size(load_scenario(fleet(11))) == MIN_FACTS  # 121 facts
    assert roster_size(load_scenario(fleet(12))) == 2 * MIN_FACTS  # 132 facts: the next size


def test_a_scenario_hiding_more_than_a_roster_holds_is_refused_with_the_numbers() -> None:
    most = MAX_FACTS // SHIP_FACTS
    with pytest.raises(ScenarioError, match=f"up to {(most + 1) * SHIP_FACTS} secret facts"):
        load_scenario(fleet(most + 1))
    with pytest.raises(ScenarioError, match=f"at most {MAX_FACTS}"):
        load_scenario(fleet(300))


def test_the_largest_scenario_allowed_plays_and_audits() -> None:
    most = MAX_FACTS // SHIP_FACTS
    scenario = load_scenario(fleet(most))
    assert roster_size(scenario) == MAX_FACTS
    game = Game.create(scenario, seed=7)
    game.command("cylons", {"type": "end_game"})
    game.command("colonials", {"type": "end_game"})  # before play begins: both must agree
    report = audit(game.record())
    assert report.ok, report.findings
    opening_size = max(len(r.slots) for r in game.ledger.rosters.values())
    assert opening_size <= roster_size(scenario)


def test_over_the_api_such_a_scenario_is_a_422_that_names_the_limit() -> None:
    with TestClient(create_app(MemoryStore())) as client:
        answer = client.post("/api/games", json={"scenario_data": fleet(300)})
        assert answer.status_code == 422
        assert answer.json()["code"] == "bad_scenario"
        assert f"at most {MAX_FACTS}" in answer.json()["detail"]
        assert client.post("/api/games", json={"scenario_data": fleet(10)}).status_code == 201


@pytest.fixture
def tight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rosters of 4 slots whatever the ruleset says: a bound that is wrong (the jungle's two
    ambush orders hide 8 facts)."""
    monkeypatch.setattr(capacity, "MIN_FACTS", 4)
    monkeypatch.setattr(
        capacity.registry.get("grid-ambush"), "secret_facts", lambda scenario: 4, raising=False
    )


def _ambushes(game: Game) -> dict[str, Any]:
    """The jungle's orders for both its units, in squares the rules accept."""
    options = registry.get("grid-ambush").candidates(game.state, "jungle")
    return max(
        (c for c in options if c["type"] == "record_ambushes"), key=lambda c: len(c["orders"])
    )


@pytest.mark.usefixtures("tight")
def test_a_command_that_would_overflow_is_refused_and_the_game_still_audits() -> None:
    game = Game.create(examples.load("grid-ambush-table"), seed=3)
    assert game.ledger.size == 4
    before = game.state
    command = _ambushes(game)
    assert len(command["orders"]) * 4 > 4  # more facts than the roster holds
    with pytest.raises(Refusal) as refused:
        game.command("jungle", command)
    assert refused.value.code == SECRETS_FULL
    assert game.state == before
    game.command("jungle", {**command, "orders": command["orders"][:1]})  # 4 facts fit
    game.command("orks", {"type": "ready"})
    game.command("jungle", {"type": "ready"})
    game.command("orks", {"type": "end_game"})
    report = audit(game.record())
    assert report.ok, report.findings


@pytest.mark.usefixtures("tight")
def test_over_http_and_the_websocket_the_overflow_is_answered_not_a_500() -> None:
    with TestClient(create_app(MemoryStore())) as client:
        body = client.post("/api/games", json={"scenario": "grid-ambush-table"}).json()
        game = body["game_id"]
        tokens = {x["observer"]: x["url"].split("#", 1)[1] for x in body["links"]}
        headers = {"Authorization": f"Bearer {tokens['jungle']}"}
        view = client.get(f"/api/games/{game}/view", headers=headers).json()
        units = [p["id"] for p in view["pieces"]]
        # Two orders in squares the rules accept (A1 and A2: see _ambushes), 8 facts.
        orders = [{"unit": u, "square": sq} for u, sq in zip(units, ("A1", "A2"), strict=True)]
        command = {"type": "record_ambushes", "orders": orders}
        answer = client.post(
            f"/api/games/{game}/commands",
            json={"command_id": "c1", "command": command},
            headers=headers,
        )
        assert answer.status_code == 409
        assert answer.json()["code"] == SECRETS_FULL
        with client.websocket_connect(f"/api/games/{game}/ws") as socket:
            socket.send_json({"type": "auth", "token": tokens["jungle"]})
            assert socket.receive_json()["type"] == "view"
            socket.send_json({"type": "command", "command_id": "c2", "command": command})
            reply = socket.receive_json()
            assert reply["type"] == "answer"
            assert reply["problem"]["code"] == SECRETS_FULL
