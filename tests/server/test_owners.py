"""Several ``ghillie serve`` processes on one PostgreSQL: each game is ruled by one process,
its owner; a request or a websocket that reaches another process is relayed to the owner;
and when the owner is killed (kill -9) while commands flow, another process takes its games
over, with every acknowledged command in the log exactly once and the games going on."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import threading
import time
from typing import Any

from sqlalchemy import text
from websockets.sync.client import connect

from ghillie.store.sql import SqlStore

from .test_durability import Player, Server, request


def _create(server: Server, owner: Server | None = None) -> tuple[str, dict[str, str]]:
    """A game made on ``server``, and first asked for at ``owner``, which then rules it."""
    status, created = request(server.port, "POST", "/api/games", {"scenario": "grid-ambush-table"})
    assert status == 201, created
    tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
    if owner is not None:
        path = f"/api/games/{created['game_id']}/view"
        assert request(owner.port, "GET", path, token=tokens["referee"])[0] == 200
    return created["game_id"], tokens


def _owner(url: str, game: str) -> str | None:
    """The internal address of the process that owns ``game``, from the database."""
    store = SqlStore(url)
    try:
        with store.engine.connect() as conn:
            return conn.execute(
                text(
                    "SELECT p.address FROM owners o JOIN processes p ON p.id = o.process "
                    "WHERE o.game_id = :game"
                ),
                {"game": game},
            ).scalar()
    finally:
        store.close()


def play(port: int, game: str, tokens: dict[str, str], commands: int) -> None:
    """Play a new game's first ``commands`` commands through the server at ``port``: the
    jungle's by HTTP, the orks' by their websocket, whose updates show every one."""
    player = Player(game, tokens)
    with connect(f"ws://127.0.0.1:{port}/api/games/{game}/ws") as orks:
        orks.send(json.dumps({"type": "auth", "token": tokens["orks"]}))
        assert json.loads(orks.recv(timeout=10))["view"]["seq"] == 0
        for seq in range(1, commands + 1):
            side, command = player.next()
            if side == "jungle":
                body = {"command_id": f"j{seq}", "command": command}
                path = f"/api/games/{game}/commands"
                status, answer = request(port, "POST", path, body, tokens[side])
                assert (status, answer["seq"]) == (200, seq), answer
                update = json.loads(orks.recv(timeout=10))
            else:  # the update that shows the orks' own command carries its answer
                frame = {"type": "command", "command_id": f"o{seq}", "command": command}
                orks.send(json.dumps(frame))
                update = json.loads(orks.recv(timeout=10))
                assert update["answer"]["seq"] == seq, update
            assert update["type"] == "update"
            assert [entry["seq"] for entry in update["view"]["log"]] == [seq]
            player.given += 1


def test_a_game_is_ruled_by_its_owner_and_served_through_any_process(
    postgres_url: str, two_servers: tuple[Server, Server]
) -> None:
    url = postgres_url
    a, b = two_servers
    game, tokens = _create(b)
    assert _owner(url, game) is None  # ruled by the first process asked for it: A
    status, view = request(a.port, "GET", f"/api/games/{game}/view", token=tokens["referee"])
    assert (status, view["seq"]) == (200, 0)
    assert _owner(url, game) == f"http://127.0.0.1:{a.port}"
    # The orks' page on B, the other process: its websocket is relayed to A, both ways;
    # the jungle's commands by HTTP, through B too.
    play(b.port, game, tokens, 9)
    # Still A's, and every process shows the same game.
    assert _owner(url, game) == f"http://127.0.0.1:{a.port}"
    for server in (a, b):
        status, view = request(server.port, "GET", f"/api/games/{game}/view", token=tokens["orks"])
        assert (status, view["seq"]) == (200, 9)
    status, problem = request(b.port, "GET", f"/api/games/{game}/view", token="wrong")
    assert (status, problem["code"]) == (404, "unknown_game")


class Client(threading.Thread):
    """Plays one game as fast as it goes, each command through one of the servers at
    random; a command that gets no answer (its server or the game's owner killed) is sent
    again with the same id, to the other server, until it is answered."""

    def __init__(self, game: str, tokens: dict[str, str], ports: list[int], seed: int) -> None:
        super().__init__(daemon=True)
        self.game, self.tokens, self.ports = game, tokens, ports
        self.player = Player(game, tokens)
        self.rng = random.Random(seed)
        self.acknowledged: dict[str, int] = {}
        self.retries = 0
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def give(self, command_id: str, side: str, command: dict[str, Any]) -> None:
        ports = list(self.ports)
        self.rng.shuffle(ports)
        for attempt in range(600):
            port = ports[attempt % len(ports)]
            with contextlib.suppress(OSError, http.client.HTTPException):
                status, answer = request(
                    port,
                    "POST",
                    f"/api/games/{self.game}/commands",
                    {"command_id": command_id, "command": command},
                    self.tokens[side],
                )
                if status == 200:
                    # A retry of an acknowledged command gets its first answer.
                    assert self.acknowledged.setdefault(command_id, answer["seq"]) == answer["seq"]
                    return
                assert (status, answer["code"]) == (503, "unavailable"), answer
            self.retries += 1
            time.sleep(0.05)
        raise AssertionError("a command was never answered")

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                side, command = self.player.next()
                self.give(f"{self.game[:8]}-{self.player.given}", side, command)
                self.player.given += 1
        except BaseException as exc:
            self.failure = exc


def test_kill_9_of_an_owner_hands_its_games_over_with_nothing_lost_or_doubled(
    postgres_url: str, two_servers: tuple[Server, Server]
) -> None:
    url = postgres_url
    a, b = two_servers
    try:
        games = [_create(server, a) for server in (a, b, a, b)]  # A rules them all
        assert {_owner(url, game) for game, _ in games} == {f"http://127.0.0.1:{a.port}"}
        clients = [
            Client(game, tokens, [a.port, b.port], seed)
            for seed, (game, tokens) in enumerate(games)
        ]
        for client in clients:
            client.start()
        while min(len(c.acknowledged) for c in clients) < 10:
            time.sleep(0.05)
        before = [len(c.acknowledged) for c in clients]
        killed = time.perf_counter()
        a.kill()  # commands in flight through A and relayed from B to A
        # The games go on, through B now: each gives ten more commands.
        while any(
            len(c.acknowledged) < n + 10 and c.failure is None
            for c, n in zip(clients, before, strict=True)
        ):
            time.sleep(0.05)
        moved = time.perf_counter() - killed
        for client in clients:
            client.stop.set()
        for client in clients:
            client.join(timeout=60)
            assert client.failure is None, client.failure
        assert {_owner(url, game) for game, _ in games} == {f"http://127.0.0.1:{b.port}"}
        retries = sum(c.retries for c in clients)
        print(
            f"\nowner killed: 10 more commands in every game {moved:.1f} s later "
            f"({retries} retries)"
        )
    finally:
        a.kill()
        b.kill()
    store = SqlStore(url)
    try:
        for client in clients:
            events = store.events(client.game)
            answers = {a.command_id: a.seq for a in store.answers(client.game)}
            assert [e.seq for e in events] == list(range(len(events)))  # no gap, no fork
            for command_id, seq in client.acknowledged.items():
                assert answers[command_id] == seq, "an acknowledged command is missing or moved"
            # Each command applied once: as many events (after the set-up) as commands
            # given, the one in flight when the client stopped at most.
            assert len(client.acknowledged) == len(answers) == len(events) - 1
    finally:
        store.close()
