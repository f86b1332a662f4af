"""A whole game of ambush-fire over the JSON API: the bundled example as the demo script
plays it — a Challenge Fire by standing order that stops a tank column, an Ambush Fire that
reveals units of both sides and is answered by return fire and a retreat, an Ambush Close
Combat that fails to make contact — with fair rolls the host makes (the seed below gives
the outcomes the story needs), each side reading only what it may, and the record passing
the audit (issue 14)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ghillie.fairness.audit import audit
from ghillie.rules.ambush_fire.demo import SCRIPT

from .api_game import Api, seeded_client
from .api_game import read as _read

GERMANS, SOVIETS = "germans", "soviets"
# A server seed whose fair rolls play the story the script tells (found by trying seeds:
# the lead tank destroyed, the ambush and its reply both missed).
SEED = 13


@pytest.fixture
def client() -> Iterator[TestClient]:
    with seeded_client(SEED) as client:
        yield client


def test_an_ambush_fire_game_over_the_api(client: TestClient) -> None:
    api = Api(client, SCRIPT.scenario)
    seen_by_soviets: set[str] = set()
    for number, step in enumerate(SCRIPT.steps, 1):
        status, body = api.answer(step.side, step.command)
        if "refused" in step.caption:
            # BMF-R05: the PaK took Challenge Fire this turn; refused with the reason.
            assert status == 409, body
            assert body["code"] == "may_not_fire"
            continue
        assert status == 200, f"step {number}: {step.command} was refused: {body}"
        soviets, germans = api.view(SOVIETS), api.view(GERMANS)
        read = _read(soviets)
        for name in ("PaK 40", "Grenadiers", "Pioneers"):
            if name in read:
                seen_by_soviets.add(name)
        # The German units are off the table until their own fire shows them.
        if number < 6:
            assert not seen_by_soviets, f"step {number}: the Soviets read {seen_by_soviets}"
            assert "Scouts" not in _read(germans)
        if step.command["type"] == "move":
            # A standing order fires inside the mover's own event: no one is asked first.
            reaction = germans.get("reaction")
            assert reaction is None or reaction["by"] == SOVIETS
    assert seen_by_soviets == {"PaK 40", "Grenadiers", "Pioneers"}
    told = _read(api.view(GERMANS))
    for line in (
        "Challenge Fire from PaK 40",
        "The rest of the column stops.",
        "Ambush Fire from hiding: Grenadiers",
        "Scouts",  # revealed by the ambush: a unit of the other side
        "Return fire from Riflemen at the ambusher",
        "Grenadiers: a retreat to",
        "impassable ground blocks the way",
    ):
        assert line in told, line
    assert api.view(SOVIETS)["phase"] == "over"

    record = client.get(f"/api/games/{api.game}/record", headers=api.headers(SOVIETS))
    assert record.status_code == 200, record.text
    report = audit(record.json())
    assert report.ok, [str(f) for f in report.findings]
    assert report.rolls > 0
    assert report.openings > 0  # the standing orders, opened as they fired


def test_a_reply_shows_its_odds_to_the_side_giving_it(client: TestClient) -> None:
    api = Api(client, SCRIPT.scenario)
    for step in SCRIPT.steps[:6]:  # up to the Challenge Fire at the gap
        api.give(step.side, step.command)
    reply = {"type": "return_fire", "fire": True, "chance": 55}
    answer = client.post(
        f"/api/games/{api.game}/odds", json={"command": reply}, headers=api.headers(SOVIETS)
    )
    assert answer.status_code == 200, answer.text
    assert [(o["label"], o["probability"]) for o in answer.json()["outcomes"]] == [
        ("hit", "7/20"),
        ("miss", "13/20"),
    ]
    answer = client.post(
        f"/api/games/{api.game}/odds", json={"command": reply}, headers=api.headers(GERMANS)
    )
    assert answer.json()["refused"]["code"] == "not_your_turn"
    assert answer.json()["outcomes"] == []
