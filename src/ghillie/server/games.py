"""The games held in this process's memory: found by id, loaded from the store when first
asked for, and dropped again when idle.

A game dropped from memory comes back exactly as after a restart: its events replayed from
the store, its seats and answers read, and the roll it was waiting on resumed with the same
signed request. Idle games (nobody watching, no roll waiting, no command under way) are
dropped after ``limits.idle_seconds`` unused, and the least recently used idle ones beyond
``limits.max_games``. Each game has its own lock; there is no lock across games.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from ghillie import engine, registry
from ghillie.fairness.ledger import VERSION, protocol_of
from ghillie.game import load_scenario, restore
from ghillie.scenario import Scenario
from ghillie.server import rolls, seats
from ghillie.server.answered import stored_answers
from ghillie.server.calls import io
from ghillie.server.deadlines import Deadlines
from ghillie.server.eventlog import stored_log
from ghillie.server.fanout import FanOut
from ghillie.server.limits import Limits
from ghillie.server.live import LiveGame
from ghillie.server.problems import unknown_game, where
from ghillie.server.tokens import token_hash
from ghillie.store.base import EventStore, StoredRoll, UnknownGame

log = logging.getLogger("ghillie.hub")


class Games:
    def __init__(
        self, store: EventStore, limits: Limits, fanout: FanOut, deadlines: Deadlines
    ) -> None:
        self.store = store
        self.limits = limits
        self.fanout = fanout
        self.deadlines = deadlines
        self.held: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tokens: dict[str, dict[str, str]] = {}  # game -> token hash -> observer

    def get(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory now (nothing is loaded)."""
        return self.held.get(game_id)

    def add(self, game: LiveGame) -> None:
        self.held[game.game_id] = game

    async def observer(self, game_id: str, token: str | None) -> str:
        """The observer a token grants in this game. A wrong token, a token of another game
        and a game that does not exist all get the same answer."""
        if not token or len(token) > 200:
            raise unknown_game()
        hashed = token_hash(token)
        observer = self._tokens.get(game_id, {}).get(hashed)
        if observer is None:
            observer = await io(self.store.observer_for, game_id, hashed)
            if observer is None:
                raise unknown_game()
            self._tokens.setdefault(game_id, {})[hashed] = observer
        return observer

    async def live(self, game_id: str) -> LiveGame:
        game = self.held.get(game_id)
        if game is None:
            lock = self._loading.setdefault(game_id, asyncio.Lock())
            async with lock:
                if game_id not in self.held:
                    # A game dropped from memory comes back exactly as after a restart.
                    self.make_room()  # never refused: its players must be able to go on
                    loaded, stored = await io(self._load, game_id)
                    if stored is not None and loaded.ledger is not None:
                        # The roll this game was waiting on when the process stopped: the
                        # same signed request is shown again, with the elements already in.
                        loaded.pending = rolls.resume(stored, loaded.ledger)
                    self.held[game_id] = loaded
                    self.fanout.follow(loaded)
            if not lock.locked():
                self._loading.pop(game_id, None)
            game = self.held[game_id]
        game.used = time.monotonic()
        return game

    def _load(self, game_id: str) -> tuple[LiveGame, StoredRoll | None]:
        try:
            header = self.store.header(game_id)
        except UnknownGame:
            raise unknown_game() from None
        scenario, header = shared_scenario(header)
        events = self.store.events(game_id)
        answers = stored_answers(self.store, game_id, self.store.answers(game_id))
        taken = self.store.seats(game_id)
        if not events:  # its sides' pages have not all given their anchors yet
            empty = engine.empty(registry.of(scenario), scenario)
            log = stored_log(self.store, game_id)
            game = LiveGame(game_id, scenario, empty, log, answers, header, None, seats=taken)
            return game, None
        version = protocol_of(events[0])
        if version != VERSION:
            # A game set up under another fairness protocol: shown as it stands, its record
            # given out, nothing more (commands.py refuses its orders, old_protocol).
            state = engine.replay(registry.of(scenario), scenario, events)
            log = stored_log(self.store, game_id, events)
            game = LiveGame(game_id, scenario, state, log, answers, header, None, seats=taken)
            game.archived = version
            return game, None
        state, ledger = restore(game_id, scenario, header, events)
        stored = self.store.pending_roll(game_id)
        log = stored_log(self.store, game_id, events)
        game = LiveGame(game_id, scenario, state, log, answers, header, ledger, seats=taken)
        seats.restore(game)
        return game, stored

    def evict(self, game: LiveGame) -> None:
        """Forget a game whose copy here can no longer be trusted (its ledger moved on but
        its event was not stored): the next request reloads it; watchers resynchronise."""
        if self.held.get(game.game_id) is game:
            del self.held[game.game_id]
        self.fanout.drop_all(game)

    def let_go(self, game_ids: Iterable[str]) -> None:
        """Games another process may rule now (ghillie.server.owners): forgotten here, their
        watchers cut off, so that their pages reconnect to the new owner."""
        for game_id in game_ids:
            game = self.held.get(game_id)
            if game is not None:
                self.evict(game)

    def ruleset_of(self, game_id: str) -> str | None:
        """The ruleset of a game in memory (to word a refusal about it), or None."""
        game = self.held.get(game_id)
        return game.scenario.ruleset if game is not None else None

    def watched(self) -> list[str]:
        return [g.game_id for g in self.held.values() if g.watchers]

    # --- memory: idle games are dropped, and reload from the store when asked for ----------

    def sweep(self, now: float | None = None) -> int:
        """Drop the idle games unused for ``limits.idle_seconds``, then the least recently
        used idle ones beyond ``limits.max_games``; the number dropped."""
        now = time.monotonic() if now is None else now
        before = len(self.held)
        for game in list(self.held.values()):
            if now - game.used >= self.limits.idle_seconds and game.idle():
                self._forget(game)
        self.make_room(spare=0)
        for game_id in [g for g in self._tokens if g not in self.held]:
            del self._tokens[game_id]  # a token checked for a game never loaded
        return before - len(self.held)

    def make_room(self, spare: int = 1) -> bool:
        """Drop least recently used idle games until ``spare`` more fit under
        ``limits.max_games``; False if they cannot (every game in memory is in use)."""
        excess = len(self.held) + spare - self.limits.max_games
        if excess > 0:
            for game in sorted(self.held.values(), key=lambda g: g.used):
                if excess <= 0:
                    break
                if game.idle():
                    self._forget(game)
                    excess -= 1
        return excess <= 0

    def _forget(self, game: LiveGame) -> None:
        if self.held.get(game.game_id) is game:
            del self.held[game.game_id]
        self._tokens.pop(game.game_id, None)
        loading = self._loading.get(game.game_id)
        if loading is not None and not loading.locked():
            del self._loading[game.game_id]

    async def sweep_every(self, seconds: float) -> None:
        """Sweep now and then, for as long as the server runs."""
        while True:
            await asyncio.sleep(seconds)
            try:
                dropped = self.sweep()
            except Exception as exc:  # a sweep must never end the loop
                log.error("sweep failed: %s", where(exc))
                continue
            if dropped:
                log.info("dropped %d idle games from memory", dropped)


def shared_scenario(header: Mapping[str, Any]) -> tuple[Scenario, Mapping[str, Any]]:
    """A game's scenario, parsed, and its header with the scenario's data: one of each for
    every game with the same scenario (most games are of a few bundled ones; 15 to 60 KB a
    game otherwise). Both are only read: a scenario is frozen, and a game's header is
    never changed once stored. A new game and the same game loaded again share them too, so
    both read the scenario exactly as it was stored."""
    scenario, data = _scenario(orjson.dumps(header["scenario"]))
    return scenario, {**header, "scenario": data}


@functools.lru_cache(maxsize=256)
def _scenario(data: bytes) -> tuple[Scenario, Mapping[str, Any]]:
    parsed = orjson.loads(data)
    return load_scenario(parsed), parsed
