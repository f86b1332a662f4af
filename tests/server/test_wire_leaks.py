"""The leak contract over the wire (TRUST.md S1, S3).

Random games are played through the HTTP API and the websockets, one client per side and
one for the table screen (the spectator, which is refused every order and odds request it
tries). Every secret a side records carries a unique canary. Everything each client
receives — every HTTP body, every websocket frame — is kept, and no canary of another side
may ever appear in it; none at all in the spectator's.
The error oracle: naming a piece a side cannot see is answered with the same status and the
same bytes as naming nothing at all.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from ghillie import examples
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.state import SPECTATOR
from ghillie.store import MemoryStore

from ..contract.harness import strings, substitute, with_canary

STATS: Counter[str] = Counter()
_tokens = itertools.count()
STEPS = 60


class Player:
    """One side's client: everything it receives is kept in ``received``."""

    def __init__(self, client: TestClient, game: str, side: str, token: str) -> None:
        self.client, self.game, self.side, self.token = client, game, side, token
        self.received: list[str] = []
        self.socket: WebSocketTestSession | None = None

    def connect(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        socket.send_json({"type": "auth", "token": self.token})
        # The seat (ghillie.server.seats: free for a side nobody took, none for the
        # spectator) comes before the whole view.
        while self.frame()["type"] != "view":
            pass

    def frame(self) -> dict[str, Any]:
        assert self.socket is not None
        text = self.socket.receive_text()
        self.received.append(text)
        return json.loads(text)  # type: ignore[no-any-return]

    def command(self, command: Any, command_id: str, over_socket: bool) -> bool:
        if over_socket and self.socket is not None:
            self.socket.send_json({"type": "command", "command_id": command_id, "command": command})
            # Accepted: the update it made, with the answer in it; refused: an answer alone.
            message = self.frame()
            if message["type"] == "update":
                assert message["answer"]["command_id"] == command_id
                self.pending_updates -= 1
                return True
            assert message["type"] == "answer"
            return "answer" in message
        answer = self.client.post(
            f"/api/games/{self.game}/commands",
            json={"command_id": command_id, "command": command},
            headers={"Authorization": f"Bearer {self.token}"},
        )
        self.received.append(answer.text)
        return answer.status_code == 200

    pending_updates = 0

    def odds(self, command: Any) -> None:
        answer = self.client.post(
            f"/api/games/{self.game}/odds",
            json={"command": command},
            headers={"Authorization": f"Bearer {self.token}"},
        )
        self.received.append(answer.text)

    def view(self) -> None:
        answer = self.client.get(
            f"/api/games/{self.game}/view", headers={"Authorization": f"Bearer {self.token}"}
        )
        self.received.append(answer.text)

    def drain(self, count: int) -> None:
        for _ in range(count):
            message = self.frame()
            assert message["type"] == "update"


@pytest.mark.parametrize("scenario", sorted(examples.names()))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_no_canary_of_one_side_reaches_the_other_over_the_wire(scenario: str, seed: int) -> None:
    rng = random.Random(seed)
    hub = Hub(MemoryStore())
    with TestClient(create_app(MemoryStore(), hub=hub)) as client:
        created = client.post("/api/games", json={"scenario": scenario}).json()
        game = created["game_id"]
        tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
        live = client.portal.call(hub.games.live, game)  # type: ignore[union-attr]
        ruleset = live.state.ruleset
        sides = list(live.state.sides)
        players = {side: Player(client, game, side, tokens[side]) for side in sides}
        # The table screen's link: the spectator sees no side's secrets and orders nothing.
        spectator = Player(client, game, SPECTATOR, tokens[SPECTATOR])
        watchers = [*players.values(), spectator]
        canaries: dict[str, set[str]] = {side: set() for side in sides}
        with (
            client.websocket_connect(f"/api/games/{game}/ws") as a,
            client.websocket_connect(f"/api/games/{game}/ws") as b,
            client.websocket_connect(f"/api/games/{game}/ws") as c,
        ):
            players[sides[0]].connect(a)
            players[sides[1]].connect(b)
            spectator.connect(c)
            for step in range(STEPS):
                side = rng.choice(sides)
                candidates = ruleset.candidates(live.state, side)
                if not candidates:
                    continue
                token = f"CANARY{next(_tokens):08d}{side.upper()}"
                command, secret = with_canary(rng.choice(candidates), token)
                player = players[side]
                player.odds(command)  # what a page asks while a form is being filled
                # The spectator giving the same command, or asking its odds: refused alike.
                if rng.random() < 0.5:
                    refused = spectator.command(command, f"s{seed}-{step}", rng.random() < 0.5)
                    assert not refused
                    assert '"unknown_side"' in spectator.received[-1]
                    spectator.odds(command)
                    assert '"unknown_side"' in spectator.received[-1]
                player.pending_updates = 1
                accepted = player.command(command, f"{seed}-{step}", over_socket=rng.random() < 0.5)
                if accepted:
                    STATS["commands accepted over the wire"] += 1
                    if secret:
                        canaries[side].add(token)
                    for other in watchers:
                        # Every watcher gets one update per event (the sender may have had it).
                        other.drain(max(0, other.pending_updates) if other is player else 1)
                        other.pending_updates = 0
                for other in watchers:
                    other.view()
                    for owner, secrets in canaries.items():
                        if owner == other.side:
                            continue
                        for received in other.received:
                            for canary in secrets:
                                assert canary not in received, (
                                    f"{owner}'s secret reached {other.side}"
                                )
                    other.received.clear()
                STATS["wire canary steps"] += 1


def test_an_unseen_piece_gets_the_same_bytes_as_no_piece_over_http() -> None:
    data = examples.data("grid-ambush-table")
    data["switches"] = {"dwv.roster_public": False}
    hub = Hub(MemoryStore())
    compared = 0
    with TestClient(create_app(MemoryStore(), hub=hub)) as client:
        created = client.post("/api/games", json={"scenario_data": data}).json()
        game = created["game_id"]
        tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
        live = client.portal.call(hub.games.live, game)  # type: ignore[union-attr]
        ruleset = live.state.ruleset

        def post(side: str, command: Any, command_id: str) -> tuple[int, bytes]:
            answer = client.post(
                f"/api/games/{game}/commands",
                json={"command_id": command_id, "command": command},
                headers={"Authorization": f"Bearer {tokens[side]}"},
            )
            return answer.status_code, answer.content

        post(
            "jungle",
            {"type": "record_ambushes", "orders": [{"unit": "graw", "square": "D2"}]},
            "r1",
        )
        post("jungle", {"type": "ready"}, "r2")
        post("orks", {"type": "ready"}, "r3")
        hidden = [p.id for p in live.state.pieces.values() if not live.state.can_see("orks", p.id)]
        assert hidden, "with a private roster the ambushers are unseen"
        n = itertools.count()
        for _ in range(6):
            for command in [
                *ruleset.candidates(live.state, "orks"),
                {"type": "fire", "unit": "x", "weapon": "heavy"},
                {"type": "scan", "unit": "x", "model": 0, "square": "A1"},
                {"type": "move", "unit": "x"},
            ]:
                for ref in [s for s in strings(command) if s in live.state.pieces or s == "x"]:
                    with_hidden = post("orks", substitute(command, ref, hidden[0]), f"h{next(n)}")
                    with_nothing = post("orks", substitute(command, ref, "f" * 32), f"h{next(n)}")
                    if with_hidden[0] == 200 or with_nothing[0] == 200:
                        continue
                    assert with_hidden == with_nothing
                    compared += 1
            post("jungle", {"type": "end_phase"}, f"e{next(n)}")
            post("orks", {"type": "end_phase"}, f"e{next(n)}")
    assert compared >= 10
    STATS["wire error-oracle pairs"] += compared
