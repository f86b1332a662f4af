"""Complete games of every bundled scenario, played by random sensible commands, as records:
host-held ones through :class:`ghillie.Game`, and page-held ones as the server plays them."""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from ghillie import Game, examples
from ghillie.errors import Refusal
from ghillie.events import Event
from ghillie.fairness import referee
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.chains import Chain
from ghillie.fairness.ledger import Ledger, Request, Secrets, head_receipt, seeded_bytes
from ghillie.fairness.record import make_record
from ghillie.ids import SeededIds
from ghillie.state import GameState, Phase


class Playable(Protocol):
    state: GameState[Any, Any]

    def command(self, side: str, command: Mapping[str, Any]) -> Any: ...


def play_random(scenario: str, seed: int, steps: int = 80) -> Game:
    game = Game.create(examples.load(scenario), seed=seed)
    _drive(game, seed, steps)
    return game


def drive_some(game: Playable, seed: int, steps: int) -> None:
    """``steps`` random sensible commands, the game left going."""
    ruleset = game.state.ruleset
    rng = random.Random(seed)
    for _ in range(steps):
        side = rng.choice(game.state.sides)
        candidates = [
            c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"
        ]
        if candidates:
            with contextlib.suppress(Refusal):
                game.command(side, rng.choice(candidates))


def _drive(game: Playable, seed: int, steps: int) -> None:
    ruleset = game.state.ruleset
    rng = random.Random(seed)
    for _ in range(steps):
        if game.state.phase is Phase.OVER:
            break
        side = rng.choice(game.state.sides)
        # End the game only near the end, so that most games are long.
        candidates = [
            c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"
        ]
        if not candidates:
            continue
        with contextlib.suppress(Refusal):
            game.command(side, rng.choice(candidates))
    # Then play on until a side may end the game (not during set-up, say), and end it.
    for _ in range(500):
        if game.state.phase is Phase.OVER:
            break
        side = rng.choice(game.state.sides)
        try:
            game.command(side, {"type": "end_game"})
        except Refusal:
            options = ruleset.candidates(game.state, side)
            if options:
                with contextlib.suppress(Refusal):
                    game.command(side, rng.choice(options))
    assert game.state.phase is Phase.OVER, "the random game never ended"


class PagesGame:
    """A game whose sides' chains are held by their pages (``chains: "clients"``), played
    the way the hub plays one: every request is signed, each side's element comes from its
    page's chain, and each page keeps what it is shown as its receipts (the host's key from
    event 0, every head and every request), as fairplay.js does."""

    def __init__(
        self,
        scenario: str,
        chains: Mapping[str, Chain],
        host: int,
        game_id: str,
        key: bytes | None = None,
    ) -> None:
        self.scenario = examples.load(scenario)
        self.chains = chains
        self.game_id = game_id
        self.ids = SeededIds(host)
        sides = self.scenario.side_ids()
        draw = seeded_bytes(host)
        anchors = {side: chains[side].anchor.hex() for side in sides}
        kept = Secrets.new([], draw)
        if key is not None:  # a host that keeps its signing key but draws all else anew
            kept.key = key
        size = roster_size(self.scenario)
        fixed = fixed_secrets(self.scenario)
        self.ledger = Ledger(game_id, sides, kept, anchors, draw, size=size, fixed=fixed)
        self.receipts: dict[str, dict[str, Any]] = {
            side: {"key": self.ledger.key.public, "heads": [], "requests": []} for side in sides
        }
        self.events: list[Event] = []
        self.fresh: dict[str, tuple[Chain, int]] = {}  # side -> its new chain, from roll k
        request = self._ask(None, referee.scenario_payload(self.scenario))
        first, self.state = referee.create(
            self.ledger, self.scenario, self.ids, self._elements(0), request=request
        )
        self._keep(first)

    def command(self, side: str, command: Mapping[str, Any]) -> Event:
        # Tried first, as the hub does: a refused command asks nobody for anything.
        referee.trial(self.ledger, self.state, side, command, self.ids)
        request = self._ask(side, referee.command_payload(self.state, command))
        event, self.state = referee.apply(
            self.ledger,
            self.state,
            side,
            command,
            self.ids,
            self._elements(request.k),
            request=request,
        )
        self._keep(event)
        return event

    def _ask(self, side: str | None, payload: Any) -> Request:
        request = self.ledger.request(side, payload)  # signed: the pages are asked
        for kept in self.receipts.values():
            kept["requests"].append(request.public(self.game_id))
        return request

    def _elements(self, k: int) -> dict[str, bytes]:
        out = {}
        for side, chain in self.chains.items():
            new, start = self.fresh.get(side, (None, 0))
            # A side's new chain gives its element for roll k as its (k - start)th.
            out[side] = (
                new.element(k - start) if new is not None and k >= start else chain.element(k)
            )
        return out

    def new_chain(self, side: str, chain: Chain, from_k: int) -> None:
        """From roll ``from_k`` on, ``side``'s page gives its elements from ``chain``, as a
        page that took the seat over does (docs/fairness.md, "Seats")."""
        self.ledger.new_chain(side, chain.anchor.hex(), from_k)
        self.fresh[side] = (chain, from_k)

    def _keep(self, event: Event) -> None:
        self.events.append(event)
        fair = event.fair or {}
        for kept in self.receipts.values():
            kept["heads"].append(head_receipt(event.seq, fair, self.state.sides))

    def record(self, *, with_receipts: bool = True) -> dict[str, Any]:
        header = {
            "ruleset": self.scenario.ruleset,
            "scenario": self.scenario.model_dump(mode="json", by_alias=True),
            "fair": self.ledger.header(),
        }
        out = make_record(self.game_id, header, self.events)
        if with_receipts:
            out["receipts"] = copy.deepcopy(self.receipts)
        return out


def play_pages(
    scenario: str,
    seed: int,
    chains: Mapping[str, Chain],
    host: int,
    game_id: str,
    key: bytes | None = None,
) -> PagesGame:
    """A complete page-held game: commands chosen by ``seed``, the host's secrets (seed,
    signing key unless ``key`` is given, roster key, ids) by ``host``, the sides' elements
    from ``chains``."""
    game = PagesGame(scenario, chains, host, game_id, key)
    _drive(game, seed, 80)
    return game


KEYS: dict[str, str] = {}  # game id -> the host's signing key (never in a record)


@cache
def records(per_scenario: int = 3) -> tuple[tuple[str, dict[str, Any]], ...]:
    out = []
    for name in examples.names():
        for seed in range(per_scenario):
            game = play_random(name, seed)
            KEYS[game.id] = game.store.header(game.id)["fair"]["key"]
            out.append((f"{name}#{seed}", game.record()))
    return tuple(out)
