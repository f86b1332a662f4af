"""A whole game of ambush-fields over the JSON API: the bundled example through three turns
with a scan that gives partial information, one that locates the field, an identification,
fire into and out of the field and the field dropped (``ambush_story``), each side seeing
only what it may, and the finished game's record passing the audit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ghillie.fairness.audit import audit

from .ambush_story import CHECKS, COLONIALS, SCENARIO, Teller, field_secrets, story_seed
from .api_game import Api, seeded_client


@pytest.fixture
def client() -> Iterator[TestClient]:
    with seeded_client(story_seed()) as client:
        yield client


def test_a_three_turn_ambush_fields_game_over_the_api(client: TestClient) -> None:
    api = Api(client, SCENARIO)
    referee = api.view("referee")
    field_id, hidden = field_secrets(referee)

    located = False
    for order, views in Teller(api.give, api.view).play():
        if order.expect:
            assert CHECKS[order.expect](views), f"{order.expect}: {order}"
        located = located or order.expect == "located"
        if not located:
            # Until segment 7 of turn 2 the Colonials learn nothing of the field or of the
            # ships in it: not an id, not a hex, not how many.
            text = json.dumps(views[COLONIALS])
            for secret in (field_id, *hidden):
                assert secret not in text, order
            assert views[COLONIALS]["board"]["fields"] == []
        if order.expect == "partial":
            # BSG-R15 partial information: the arc and the base number; never the speed.
            scan = next(
                line
                for entry in views[COLONIALS]["log"]
                for line in entry["lines"]
                if line.get("event") == "scan"
            )
            (result,) = scan["results"]
            assert set(result) >= {"arc", "base_number"}
            assert "speed" not in result
        if order.expect == "located":
            fields = views[COLONIALS]["board"]["fields"]
            assert [(f["id"], f["centre"], f["radius"], f["rating"]) for f in fields] == [
                (field_id, "1206", 3, 2)
            ]
            # A face-down counter for each ship inside: category and hex, no name.
            counters = {p["id"]: p for p in views[COLONIALS]["known"] if p["id"] in hidden}
            assert set(counters) == set(hidden)
            assert all(p["level"] == "detected" and not p.get("facts") for p in counters.values())

    colonials = api.view(COLONIALS)
    assert colonials["phase"] == "over"
    assert colonials["board"]["turn"] >= 3

    record = client.get(f"/api/games/{api.game}/record", headers=api.headers(COLONIALS))
    assert record.status_code == 200, record.text
    report = audit(record.json())
    assert report.ok, [str(f) for f in report.findings]
    assert report.rolls > 0
