"""The hub: live games in this process, their commands, and who is watching them.

Each game loaded here keeps its state and log in memory and a lock of its own, so commands
to different games never wait for one another (there is no lock across games). A command is
ruled on the in-memory state, written with its answer through the group committer, and only
once that transaction has committed is the state advanced, the command acknowledged and the
update pushed to the sides watching. Pushes go through a small queue per connection: a slow
or vanished client loses its connection (and resynchronises when it comes back) instead of
holding anyone up.

Several server processes may share one PostgreSQL database. A process whose copy of a game
is behind finds out when its write clashes (optimistic concurrency), catches up from the
database and rules again; it learns of other processes' events for the games its clients
watch from PostgreSQL's NOTIFY (a wake-up only: events are always read from the database)
and from a poll every few seconds as a safety net.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ghillie import engine, registry
from ghillie.dice.source import DiceSource, RandomDice
from ghillie.errors import Refusal
from ghillie.events import Event
from ghillie.fold import fold
from ghillie.game import load_scenario
from ghillie.ids import IdSource, RandomIds
from ghillie.scenario import Scenario
from ghillie.server.committer import GroupCommitter
from ghillie.server.problems import UNAVAILABLE, Problem, unknown_game, where
from ghillie.server.tokens import new_token, token_hash
from ghillie.state import REFEREE, GameState
from ghillie.store.base import Answer, Append, Conflict, EventStore, UnknownGame
from ghillie.view import project, project_update

log = logging.getLogger("ghillie.hub")

QUEUE_SIZE = 64  # updates a connection may fall behind by before it is dropped
COMMAND_ID_LENGTH = 80


@dataclass(eq=False)  # each connection is its own watcher, compared by identity
class Watcher:
    """One connection watching a game as one observer."""

    observer: str
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_SIZE)
    )
    dropped: bool = False
    answered: set[str] = field(default_factory=set)  # command ids answered in an update


@dataclass
class LiveGame:
    game_id: str
    scenario: Scenario
    state: GameState[Any]
    events: list[Event]
    answers: dict[tuple[str, str], dict[str, Any]]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    writing: int = -1  # the seq being committed now: its NOTIFY may come back before it is done
    # The view (without its log) that every watcher of each observer now holds: updates
    # carry only what differs from it.
    shown: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Created:
    game_id: str
    ruleset: str
    title: str
    tokens: Mapping[str, str]  # observer -> token


class Hub:
    def __init__(
        self,
        store: EventStore,
        *,
        dice: DiceSource | None = None,
        ids: IdSource | None = None,
    ) -> None:
        self.store = store
        self.dice = dice or RandomDice()
        self.ids = ids or RandomIds()
        self.committer = GroupCommitter(store)
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tokens: dict[tuple[str, str], str] = {}

    def close(self) -> None:
        self.committer.close()

    # --- games --------------------------------------------------------------------------------

    async def create(self, scenario: Scenario) -> Created:
        first, state = engine.create(scenario, self.dice, self.ids)
        game_id = self.ids.new_id()
        observers = (*state.sides, REFEREE)
        tokens = {observer: new_token() for observer in observers}
        header = {
            "ruleset": scenario.ruleset,
            "scenario": scenario.model_dump(mode="json", by_alias=True),
        }
        hashes = {token_hash(t): observer for observer, t in tokens.items()}
        await self._io(self.store.create_game, game_id, header, first, hashes)
        self._games[game_id] = LiveGame(game_id, scenario, state, [first], {})
        return Created(game_id, scenario.ruleset, scenario.title, tokens)

    async def observer(self, game_id: str, token: str | None) -> str:
        """The observer a token grants in this game. A wrong token, a token of another game
        and a game that does not exist all get the same answer."""
        if not token or len(token) > 200:
            raise unknown_game()
        key = (game_id, token_hash(token))
        observer = self._tokens.get(key)
        if observer is None:
            observer = await self._io(self.store.observer_for, *key)
            if observer is None:
                raise unknown_game()
            self._tokens[key] = observer
        return observer

    async def live(self, game_id: str) -> LiveGame:
        game = self._games.get(game_id)
        if game is not None:
            return game
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            if game_id not in self._games:
                self._games[game_id] = await self._io(self._load, game_id)
        return self._games[game_id]

    def _load(self, game_id: str) -> LiveGame:
        try:
            header = self.store.header(game_id)
        except UnknownGame:
            raise unknown_game() from None
        scenario = load_scenario(header["scenario"])
        events = self.store.events(game_id)
        state = engine.replay(scenario, events)
        answers = {(a.observer, a.command_id): dict(a.body) for a in self.store.answers(game_id)}
        return LiveGame(game_id, scenario, state, events, answers)

    # --- views -------------------------------------------------------------------------------

    async def view(self, game_id: str, observer: str, after: int = -1) -> dict[str, Any]:
        game = await self.live(game_id)
        return project(game.state, game.events[after + 1 :], observer)

    # --- commands -----------------------------------------------------------------------------

    async def command(
        self,
        game_id: str,
        observer: str,
        command_id: str,
        raw: Mapping[str, Any],
        origin: Watcher | None = None,
    ) -> dict[str, Any]:
        """Rule on a command and return its answer once it is durable. A command id already
        answered for this side returns the first answer, whatever the command now says.
        With ``origin`` (the connection the command came by), the answer also rides in the
        update that connection is sent, marked ``answered``: one frame instead of two."""
        game = await self.live(game_id)
        async with game.lock:
            while True:
                known = game.answers.get((observer, command_id))
                if known is not None:
                    return known
                try:
                    event, state = engine.apply(game.state, observer, raw, self.dice, self.ids)
                except Refusal:
                    # Another process may have moved this game on: rule again on the latest.
                    if await self._catch_up(game):
                        continue
                    raise
                answer = {
                    "command_id": command_id,
                    "seq": event.seq,
                    "lines": list(event.told.get(observer, ())),
                }
                append = Append(
                    game_id,
                    game.state.seq,
                    [event],
                    Answer(observer, command_id, event.seq, answer),
                )
                game.writing = event.seq
                try:
                    await self.committer.commit(append)
                except Conflict:
                    await self._catch_up(game)
                    continue
                except UnknownGame:
                    raise unknown_game() from None
                except Exception as exc:
                    log.error("commit failed: %s", where(exc))
                    raise Problem(UNAVAILABLE, "The game could not be saved; try again.") from None
                finally:
                    game.writing = -1
                before = game.state.seq
                game.state = state
                game.events.append(event)
                game.answers[(observer, command_id)] = answer
                self._publish(game, before, origin, answer)
                return answer

    async def _catch_up(self, game: LiveGame) -> bool:
        """Read what other processes wrote to this game; True if there was anything."""
        newer = await self._io(self.store.events, game.game_id, game.state.seq)
        if not newer:
            return False
        answers = await self._io(self.store.answers, game.game_id, game.state.seq)
        before = game.state.seq
        ruleset = registry.get(game.state.ruleset)
        for event in newer:
            if event.seq == game.state.seq + 1:
                game.state = fold(game.state, event, ruleset)
                game.events.append(event)
        for answer in answers:
            game.answers[(answer.observer, answer.command_id)] = dict(answer.body)
        self._publish(game, before)
        return True

    async def refresh(self, game_id: str) -> None:
        """Another process wrote to this game (NOTIFY, or the poll): catch up if it is here."""
        game = self._games.get(game_id)
        if game is None or not game.watchers:
            return
        async with game.lock:
            await self._catch_up(game)

    def behind(self, game_id: str, seq: int) -> bool:
        """Is this process's copy of a game someone is watching older than ``seq``?"""
        game = self._games.get(game_id)
        if game is None or not game.watchers:
            return False
        return max(game.state.seq, game.writing) < seq

    def watched(self) -> list[str]:
        return [g.game_id for g in self._games.values() if g.watchers]

    # --- watching ------------------------------------------------------------------------------

    def watch(self, game: LiveGame, observer: str) -> Watcher:
        watcher = Watcher(observer)
        game.watchers.add(watcher)
        return watcher

    def unwatch(self, game: LiveGame, watcher: Watcher) -> None:
        game.watchers.discard(watcher)

    async def watch_view(self, game: LiveGame, watcher: Watcher, after: int = -1) -> dict[str, Any]:
        """The whole view a new or resynchronising watcher starts from (log after ``after``)."""
        async with game.lock:
            view = project(game.state, game.events[after + 1 :], watcher.observer)
            game.shown[watcher.observer] = {k: v for k, v in view.items() if k != "log"}
            return view

    def _publish(
        self,
        game: LiveGame,
        before: int,
        origin: Watcher | None = None,
        answer: dict[str, Any] | None = None,
    ) -> None:
        """Push each watcher what changed for its observer since ``before``: the new log
        entries and the other parts of the view that differ from what it holds."""
        if game.state.seq == before:
            return
        new = game.events[before + 1 :]
        updates: dict[str, dict[str, Any]] = {}
        for watcher in list(game.watchers):
            observer = watcher.observer
            if observer not in updates:
                held = game.shown.get(observer, {})
                changed, game.shown[observer] = project_update(game.state, new, observer, held)
                updates[observer] = {"type": "update", "view": changed}
            message = updates[observer]
            if watcher is origin and answer is not None:
                message = {**message, "answer": answer}
                origin.answered.add(answer["command_id"])
            try:
                watcher.queue.put_nowait(message)
            except asyncio.QueueFull:
                # Too far behind: drop it; the client reconnects and gets the whole view.
                watcher.dropped = True
                game.watchers.discard(watcher)
                watcher.queue.get_nowait()
                watcher.queue.put_nowait(None)

    async def _io(self, function: Any, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)
