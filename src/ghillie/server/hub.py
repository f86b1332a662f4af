"""The hub: the live games in this process, and everything the server's routes ask of them.

The hub is the one object the routes (``app.py``, ``socket.py``, ``seats.py``) and the
cross-process listener hold. It makes new games and answers for whole games (views, the
record, the story), and hands each other concern to a collaborator of its own, each in its
own module with one-way imports (``live`` ← ``fanout`` ← ``games`` ← ``sync`` ← ``commands``
← ``hub``):

- :mod:`~ghillie.server.live`: a live game's data, its lock, its watchers, and where its
  roll protocol stands;
- :mod:`~ghillie.server.fanout`: who watches each game and what each is pushed;
- :mod:`~ghillie.server.games`: the games held in memory, loaded from the store and dropped
  when idle;
- :mod:`~ghillie.server.sync`: catching up with other processes on the same PostgreSQL;
- :mod:`~ghillie.server.commands`: commands ruled on fairly (the roll protocol) and
  committed through the group committer before they are acknowledged; it composes the
  roll protocol's parts, one to a module (``committing`` ← ``resolving`` ← ``claims``,
  ``contributions`` ← ``commands``; ``orders`` checks a side's signed order).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ghillie import engine, registry
from ghillie.errors import GAME_NOT_OVER, Refusal
from ghillie.events import Event
from ghillie.fairness import referee
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.ledger import Ledger, RandomBytes, Secrets
from ghillie.fairness.record import make_record
from ghillie.ids import IdSource, RandomIds
from ghillie.scenario import Scenario
from ghillie.server.answered import stored_answers
from ghillie.server.calls import io
from ghillie.server.commands import Commands
from ghillie.server.deadlines import Deadlines
from ghillie.server.eventlog import stored_log
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games, shared_scenario
from ghillie.server.limits import Limits
from ghillie.server.live import QUEUE_SIZE, LiveGame, Watcher, status, with_status
from ghillie.server.outages import Outages, outage_start
from ghillie.server.owners import Owners
from ghillie.server.problems import BUSY, Problem, where
from ghillie.server.seats import Seats
from ghillie.server.sync import Sync
from ghillie.server.tokens import new_token, token_hash
from ghillie.server.waits import Waits
from ghillie.state import REFEREE, SPECTATOR, GameState, Phase
from ghillie.store.base import EventStore
from ghillie.view import project

log = logging.getLogger("ghillie.hub")

# How long a roll waits for a page by default: a phone at a table that went to sleep is
# woken, or its player told, well within half a minute; a roll must not stall for ever.
WAIT = 30
__all__ = ["QUEUE_SIZE", "Created", "Hub", "LiveGame", "Watcher", "status"]


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
        ids: IdSource | None = None,
        random_bytes: RandomBytes = secrets.token_bytes,
        limits: Limits | None = None,
        owners: Owners | None = None,
    ) -> None:
        """``ids`` and ``random_bytes`` are the sources of a new game's piece ids and secrets
        (seeds, keys, salts); tests give seeded ones to replay a game exactly, as
        ``Game.create(seed=...)`` does. ``limits`` bound the games kept in memory.
        ``owners``: which games this process rules, when several share a PostgreSQL
        database (ghillie.server.owners); None rules every game (a SQLite file)."""
        self.store = store
        self.owners = owners
        self.limits = limits or Limits()
        self.ids = ids or RandomIds()
        self.random_bytes = random_bytes
        self.deadlines = Deadlines(self.time_out)  # timed reaction windows' timers
        self.waits = Waits(self.give_up)  # how long a roll waits for the pages
        self.outages = Outages(store, self.deadlines)  # windows' clocks stop while it is down
        self._extending: set[asyncio.Task[None]] = set()
        self.fanout = FanOut(self.deadlines, self.waits)
        self.games = Games(store, self.limits, self.fanout, self.deadlines)
        self.sync = Sync(store, self.games, self.fanout)
        self.commands = Commands(store, self.games, self.fanout, self.sync, self.ids, random_bytes)
        self.seats = Seats(store, self.games, self.fanout)

    def close(self) -> None:
        for task in self._extending:
            task.cancel()
        self.commands.close()
        self.deadlines.close()
        self.waits.close()

    async def resume_timers(self, only: set[str] | None = None) -> int:
        """At start-up: load every game something is timed in (a timed reaction window
        open, a roll waiting for the pages), so that its time-out comes when it is due and
        not when someone next opens the game; a window that was running when the host went
        down is first extended by the time it was down (ghillie.server.outages). The number
        of games loaded. ``only``: of these games (those of a process found dead); with
        several processes, only the games this one owns or can claim."""
        loaded = 0
        timed = [g for g in await io(self.store.timed) if only is None or g in only]
        if self.owners is not None:
            timed = [g for g in timed if await self.owners.where(g) is None]
        beats = await self.outages.last_beats(timed)
        for game_id in timed:
            self.deadlines.hold(game_id)
            try:
                game = await self.games.live(game_id)
            except Exception as exc:  # one game that cannot load must not stop the others
                self.deadlines.release(game_id)
                log.warning("a timed game could not be loaded: %s", where(exc))
                continue
            loaded += 1
            since = outage_start(game, beats.get(game_id))
            if since is None or game.state.window is None:
                self.deadlines.release(game_id)
                continue
            extending = self.outages.extend(game_id, game.state.window.opened, since, self.extend)
            task = asyncio.create_task(extending)
            self._extending.add(task)
            task.add_done_callback(self._extending.discard)
        return loaded

    async def extend(self, game_id: str, window: int, since: str) -> None:
        """The host was down from ``since`` while the window event ``window`` opened ran."""
        await self.commands.extend(game_id, window, since)

    async def give_up(self, game_id: str, k: int) -> None:
        """A roll waited for the pages as long as the game allows (its timer,
        ghillie.server.waits): it goes on without the elements still missing."""
        await self.commands.give_up(game_id, k)

    async def time_out(self, game_id: str, window: int) -> None:
        """A reaction window's time ran out (its timer, ghillie.server.deadlines)."""
        await self.commands.time_out(game_id, window)

    # --- games --------------------------------------------------------------------------------

    async def create(
        self, scenario: Scenario, *, clients: bool = False, wait: int | None = WAIT
    ) -> Created:
        """A new game. With ``clients``, each side's page holds its own roll chain and the
        game starts once every page has given its anchor; otherwise the host holds them.
        ``wait``: how many seconds a roll waits for a page's element before it goes on
        without it (None: for ever)."""
        if not self.games.make_room():
            raise Problem(BUSY, "The server holds as many games as it can; try again later.")
        game_id = self.ids.new_id()
        sides = scenario.side_ids()
        kept = Secrets.new([] if clients else list(sides), self.random_bytes)
        made: dict[str, Any] = {
            "ruleset": scenario.ruleset,
            "scenario": scenario.model_dump(mode="json", by_alias=True),
            "fair": {**kept.to_json(), "anchors": {}, "wait": wait if clients else None},
        }
        scenario, header = shared_scenario(made)
        # The spectator's token opens the table screen: public facts only, and no orders.
        tokens = {observer: new_token() for observer in (*sides, REFEREE, SPECTATOR)}
        hashes = {token_hash(t): observer for observer, t in tokens.items()}
        if clients:
            await io(self.store.create_game, game_id, header, None, hashes)
            game = LiveGame(
                game_id,
                scenario,
                engine.empty(registry.of(scenario), scenario),
                stored_log(self.store, game_id),
                stored_answers(self.store, game_id),
                header,
                None,
            )
        else:

            def first_event() -> tuple[Ledger, Event, GameState[Any, Any]]:
                size, fixed = roster_size(scenario), fixed_secrets(scenario)
                ledger = Ledger(game_id, sides, kept, {}, self.random_bytes, size=size, fixed=fixed)
                return ledger, *referee.create(ledger, scenario, self.ids)

            # Hashing the chains and sealing the first event take ~50 ms: not on the loop.
            ledger, first, state = await asyncio.to_thread(first_event)
            await io(self.store.create_game, game_id, header, first, hashes)
            log = stored_log(self.store, game_id, [first])
            answers = stored_answers(self.store, game_id)
            game = LiveGame(game_id, scenario, state, log, answers, header, ledger)
        if self.owners is None:
            self.games.add(game)
        # else: ruled by the first process asked for it (a front hashing on the game's id
        # sends its players to one process, which may not be this one): loaded there.
        return Created(game_id, scenario.ruleset, scenario.title, tokens)

    async def record(self, game_id: str) -> dict[str, Any]:
        """The complete record, every secret in it, once the game is over."""
        game = await self.games.live(game_id)
        # A game of an earlier protocol never goes on here: its record is as final as it gets.
        if game.state.phase is not Phase.OVER and game.archived is None:
            raise Refusal(GAME_NOT_OVER, "The record is published when the game is over.")
        return make_record(game.game_id, game.header, await game.events.after())

    async def story(self, game_id: str, seq: int, lang: str = "en") -> dict[str, Any]:
        """Once the game is over, the game as it stood after event ``seq``: what each side's
        page showed then and the whole truth beside it (every secret is public by now)."""
        game = await self.games.live(game_id)
        if game.state.phase is not Phase.OVER:
            raise Refusal(GAME_NOT_OVER, "The game can be stepped through once it is over.")
        last = game.state.seq
        seq = max(0, min(seq, last))
        events = await game.events.upto(seq)
        state = engine.replay(registry.of(game.scenario), game.scenario, events)
        observers = [*state.sides, REFEREE]
        views = {o: project(state, events, o, lang) for o in observers}
        for side in state.sides:
            views[side]["commands"] = []  # a past view: nothing to give from it
            views[side]["your_move"] = False
        return {"seq": seq, "last": last, "views": views}

    # --- views -------------------------------------------------------------------------------

    async def view(
        self, game_id: str, observer: str, after: int = -1, lang: str = "en"
    ) -> dict[str, Any]:
        game = await self.games.live(game_id)
        events = await game.events.after(after)
        return with_status(game, project(game.state, events, observer, lang))
