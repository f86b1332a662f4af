"""A whole game of camouflage over the JSON API: the bundled example as the demo script plays
it (the Caliban's surprise attack with a delayed ARO and one that was not delayed, a
Fireteam, a failed Discover and its lock-out, a Discover that finds a marker, the Caliban
going back into the state), each side seeing only
what it may — the reactive side asked after every skill — and the record passing the audit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie.fairness.audit import audit
from ghillie.rules.camouflage.demo import SCRIPT

from .api_game import Api, seeded_client
from .api_game import read as _read

NOMADS, PANO = "nomads", "panoceania"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with seeded_client(SCRIPT.seed) as client:
        yield client


def _zondbots_marker(api: Api) -> str:
    """The label of the Zondbot's marker in this game (the demo's ids made it "M3")."""
    pieces = api.view("referee")["pieces"]
    zondbot = next(p["id"] for p in pieces if p["public"].get("key") == "zondbot")
    return next(p["public"]["label"] for p in pieces if p["secret"].get("hides") == zondbot)


def _in_this_game(command: Mapping[str, Any], label: str) -> dict[str, Any]:
    return json.loads(json.dumps(command).replace('"M3"', json.dumps(label)))


def test_a_camouflage_game_over_the_api(client: TestClient) -> None:
    api = Api(client, SCRIPT.scenario)
    revealed: set[str] = set()
    label = ""
    for number, step in enumerate(SCRIPT.steps, 1):
        status, body = api.answer(step.side, _in_this_game(step.command, label))
        if step.command["type"] == "deploy":
            label = _zondbots_marker(api)
        if "tries again at once" in step.caption:
            # The lock-out (INF-R10): refused with its reason, and nothing changed.
            assert status == 409, body
            assert body["code"] == "discover_locked"
            continue
        if "a delay must be declared" in step.caption:
            # INF-R12, the N3 FAQ: a trooper that declared no delay does not react now.
            assert status == 409, body
            assert body["code"] == "aro_not_delayed"
            continue
        assert status == 200, f"step {number}: {step.command} was refused: {body}"
        pano, nomads = api.view(PANO), api.view(NOMADS)
        read = _read(pano)
        for name in ("Caliban", "Zondbot", "Antipersonnel Mine"):
            if f"is {name}, revealed" in read or f"stood for {name}" in read:
                revealed.add(name)
            elif name not in revealed:
                assert name not in read, f"step {number}: PanOceania reads {name}"
        assert "Croc Man" not in _read(nomads) or "stood for Croc Man" in _read(nomads)
        if step.command["type"] in ("first_skill", "second_skill"):
            # The reactive side is asked, every time, and everyone sees whom the game awaits.
            other = PANO if step.side == NOMADS else NOMADS
            for view in (pano, nomads):
                assert view["reaction"] == {"by": step.side, "waiting_for": other}
                assert view["waiting_for"] == [other]
            asked = pano if other == PANO else nomads
            assert asked["your_move"] is True
            assert next(c["type"] for c in asked["commands"]) == "aros"
    assert revealed == {"Caliban", "Zondbot", "Antipersonnel Mine"}
    assert api.view(PANO)["phase"] == "over"

    record = client.get(f"/api/games/{api.game}/record", headers=api.headers(PANO))
    assert record.status_code == 200, record.text
    report = audit(record.json())
    assert report.ok, [str(f) for f in report.findings]
    assert report.rolls > 0


def test_the_odds_of_a_discover_while_it_is_declared(client: TestClient) -> None:
    """The page shows a Discover's exact odds while the order is being given."""
    api = Api(client, SCRIPT.scenario)
    for step in SCRIPT.steps:  # up to PanOceania's Player Turn, leaving out the slips
        if not step.caption.startswith("A slip"):
            api.give(step.side, step.command)
        if step.command["type"] == "end_turn":
            break
    marker = _zondbots_marker(api)
    discover = {
        "type": "first_skill",
        "piece": "fusilier_2",
        "skill": {
            "skill": "discover",
            "target": marker,
            "measured": {"range": 14, "cover": "soft"},
        },
    }
    answer = client.post(
        f"/api/games/{api.game}/odds", json={"command": discover}, headers=api.headers(PANO)
    )
    assert answer.status_code == 200, answer.text
    odds = answer.json()
    # WIP 13, 8-16" +0, Mimetism 0, soft cover -3: d20 10 or less.
    assert [(o["label"], o["probability"]) for o in odds["outcomes"]] == [
        ("Discovered", "1/2"),
        ("failed", "1/2"),
    ]
    # The other side, which may not give it now, is told so and shown no odds.
    answer = client.post(
        f"/api/games/{api.game}/odds", json={"command": discover}, headers=api.headers(NOMADS)
    )
    assert answer.json()["refused"]["code"] == "not_your_turn"
    assert answer.json()["outcomes"] == []
