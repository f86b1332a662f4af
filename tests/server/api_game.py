"""A whole game over the JSON API, for the tests that play one: a seeded server in the
test (its ids and host randomness from one seed) and a game's links, one per observer."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from ghillie.fairness.ledger import seeded_bytes
from ghillie.ids import SeededIds
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore


@contextmanager
def seeded_client(seed: int) -> Iterator[TestClient]:
    store = MemoryStore()
    hub = Hub(store, ids=SeededIds(seed), random_bytes=seeded_bytes(seed))
    with TestClient(create_app(store, hub=hub)) as client:
        yield client
    hub.close()


class Api:
    """A game of ``scenario`` (the host holds every chain), played by its links' tokens."""

    def __init__(self, client: TestClient, scenario: str) -> None:
        self.client = client
        answer = client.post("/api/games", json={"scenario": scenario, "chains": "host"})
        assert answer.status_code == 201, answer.text
        body = answer.json()
        self.game = body["game_id"]
        self.tokens = {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}

    def headers(self, observer: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[observer]}"}

    def answer(self, side: str, command: Mapping[str, Any]) -> tuple[int, Any]:
        """Give a command; the status and the body the server answered."""
        answer = self.client.post(
            f"/api/games/{self.game}/commands",
            json={"command_id": str(uuid.uuid4()), "command": command},
            headers=self.headers(side),
        )
        return answer.status_code, answer.json()

    def give(self, side: str, command: Mapping[str, Any]) -> Any:
        """Give a command the rules accept; its answer."""
        status, body = self.answer(side, command)
        assert status == 200, f"{command} was refused: {body}"
        return body

    def view(self, observer: str) -> dict[str, Any]:
        answer = self.client.get(f"/api/games/{self.game}/view", headers=self.headers(observer))
        assert answer.status_code == 200, answer.text
        return dict(answer.json())


def read(view: Mapping[str, Any]) -> str:
    """What a side reads: its status, its log's words, the pieces as it knows them."""
    words = [*view["status"]]
    words += [line["text"] for entry in view["log"] for line in entry["said"]]
    words += [json.dumps(p) for p in view.get("known", [])]
    return "\n".join(words)
