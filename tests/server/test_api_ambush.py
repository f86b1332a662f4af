"""A whole game of ambush-fields over the JSON API: the bundled example through three turns
with a scan that gives partial information, one that locates the field, an identification,
fire into and out of the field and the field dropped (``ambush_story``), each side seeing
only what it may, and the finished game's record passing the audit.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie.fairness.audit import audit
from ghillie.fairness.ledger import seeded_bytes
from ghillie.ids import SeededIds
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

from .ambush_story import CHECKS, COLONIALS, SCENARIO, Teller, field_secrets, story_seed


@pytest.fixture
def client() -> Iterator[TestClient]:
    store = MemoryStore()
    seed = story_seed()
    hub = Hub(store, ids=SeededIds(seed), random_bytes=seeded_bytes(seed))
    with TestClient(create_app(store, hub=hub)) as client:
        yield client
    hub.close()


class Api:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        answer = client.post("/api/games", json={"scenario": SCENARIO, "chains": "host"})
        assert answer.status_code == 201, answer.text
        body = answer.json()
        self.game = body["game_id"]
        self.tokens = {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}

    def headers(self, observer: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[observer]}"}

    def give(self, side: str, command: Mapping[str, Any]) -> Any:
        answer = self.client.post(
            f"/api/games/{self.game}/commands",
            json={"command_id": str(uuid.uuid4()), "command": command},
            headers=self.headers(side),
        )
        assert answer.status_code == 200, f"{command} was refused: {answer.text}"
        return answer.json()

    def view(self, observer: str) -> dict[str, Any]:
        answer = self.client.get(f"/api/games/{self.game}/view", headers=self.headers(observer))
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


def test_a_three_turn_ambush_fields_game_over_the_api(client: TestClient) -> None:
    api = Api(client)
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
