"""The hub: live games in this process, their commands, and who is watching them.

Each game loaded here keeps its state and log in memory and a lock of its own, so commands
to different games never wait for one another (there is no lock across games). A command is
ruled on the in-memory state, written with its answer through the group committer, and only
once that transaction has committed is the state advanced, the command acknowledged and the
update pushed to the sides watching. Pushes go through a small queue per connection: a slow
or vanished client loses its connection (and resynchronises when it comes back) instead of
holding anyone up.

Every event is ruled on fairly (:mod:`ghillie.fairness`): the hub asks every party — the
host and each side — for its chain element for the event's roll, and rules only once all
are in. A side whose page holds its own chain ("clients" games) answers over its websocket
or the API; until it does, the command waits and every side sees whom it waits for. A game
whose pages hold their chains starts only once every page has given its chain's anchor. A
request the pages are asked to answer is stored before any page sees it and resumed after a
restart (:mod:`ghillie.server.rolls`): an honest host never asks twice for one roll.

Several server processes may share one PostgreSQL database. A process whose copy of a game
is behind finds out when its write clashes (optimistic concurrency), catches up from the
database and rules again; it learns of other processes' events for the games its clients
watch from PostgreSQL's NOTIFY (a wake-up only: events are always read from the database)
and from a poll every few seconds as a safety net.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from ghillie import engine, registry
from ghillie.errors import (
    ANCHOR_FIXED,
    BAD_CONTRIBUTION,
    GAME_NOT_OVER,
    NO_ROLL_PENDING,
    NOT_STARTED,
    UNKNOWN_SIDE,
    Refusal,
)
from ghillie.events import Event
from ghillie.fairness import referee
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.hashlog import HostKey
from ghillie.fairness.ledger import Ledger, RandomBytes, Secrets
from ghillie.fairness.record import make_record
from ghillie.fold import fold
from ghillie.game import load_scenario, restore
from ghillie.ids import IdSource, RandomIds
from ghillie.scenario import Scenario
from ghillie.server import rolls, seats
from ghillie.server.committer import GroupCommitter
from ghillie.server.deadlines import Deadlines
from ghillie.server.limits import Limits
from ghillie.server.problems import BUSY, UNAVAILABLE, Problem, unknown_game, where
from ghillie.server.rolls import Pending
from ghillie.server.tokens import new_token, token_hash
from ghillie.state import REFEREE, SPECTATOR, GameState, Phase
from ghillie.store.base import Answer, Append, Conflict, EventStore, Seat, StoredRoll, UnknownGame
from ghillie.view import project, project_update, spoken
from ghillie.words import speaker

log = logging.getLogger("ghillie.hub")
_T = TypeVar("_T")

_HEX32 = re.compile("[0-9a-f]{64}")
QUEUE_SIZE = 64  # updates a connection may fall behind by before it is dropped
COMMAND_ID_LENGTH = 80


@dataclass(eq=False)  # each connection is its own watcher, compared by identity
class Watcher:
    """One connection watching a game as one observer."""

    observer: str
    lang: str = "en"  # the language its views are spoken in (ghillie.words)
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_SIZE)
    )
    dropped: bool = False
    answered: set[str] = field(default_factory=set)  # command ids answered in an update
    device: str | None = None  # the hash of the seat key it came with (ghillie.server.seats)


class GameLock(asyncio.Lock):
    """A game's lock that counts who holds it or waits for it: a game is never dropped from
    memory while anyone does (a waiter would go on with a copy nobody else sees)."""

    users = 0

    async def acquire(self) -> Literal[True]:
        self.users += 1
        try:
            return await super().acquire()
        except BaseException:
            self.users -= 1
            raise

    def release(self) -> None:
        super().release()
        self.users -= 1


@dataclass
class LiveGame:
    game_id: str
    scenario: Scenario
    state: GameState[Any]
    events: list[Event]
    answers: dict[tuple[str, str], dict[str, Any]]
    header: Mapping[str, Any]
    ledger: Ledger | None  # None until every side's page has given its anchor
    anchors: dict[str, str] = field(default_factory=dict)  # given so far, before the start
    pending: Pending | None = None
    lock: GameLock = field(default_factory=GameLock)
    used: float = field(default_factory=time.monotonic)  # last asked for: the LRU order
    watchers: set[Watcher] = field(default_factory=set)
    writing: int = -1  # the seq being committed now: its NOTIFY may come back before it is done
    # The view (without its log) that every watcher of each observer now holds: updates
    # carry only what differs from it.
    # What each (observer, language) was last shown, without its log: updates are diffs.
    shown: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    seats: dict[str, Seat] = field(default_factory=dict)  # taken seats, by side
    visits: dict[str, list[str]] = field(default_factory=dict)  # others opening a taken seat


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
    ) -> None:
        """``ids`` and ``random_bytes`` are the sources of a new game's piece ids and secrets
        (seeds, keys, salts); tests give seeded ones to replay a game exactly, as
        ``Game.create(seed=...)`` does. ``limits`` bound the games kept in memory."""
        self.store = store
        self.limits = limits or Limits()
        self.ids = ids or RandomIds()
        self.random_bytes = random_bytes
        self.committer = GroupCommitter(store)
        self._games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tokens: dict[str, dict[str, str]] = {}  # game -> token hash -> observer
        self.deadlines = Deadlines(self.time_out)  # timed reaction windows' timers

    def close(self) -> None:
        self.committer.close()
        self.deadlines.close()

    # --- games --------------------------------------------------------------------------------

    async def create(self, scenario: Scenario, *, clients: bool = False) -> Created:
        """A new game. With ``clients``, each side's page holds its own roll chain and the
        game starts once every page has given its anchor; otherwise the host holds them."""
        if not self._make_room():
            raise Problem(BUSY, "The server holds as many games as it can; try again later.")
        game_id = self.ids.new_id()
        sides = scenario.side_ids()
        kept = Secrets.new([] if clients else list(sides), self.random_bytes)
        header = {
            "ruleset": scenario.ruleset,
            "scenario": scenario.model_dump(mode="json", by_alias=True),
            "fair": {**kept.to_json(), "anchors": {}},
        }
        # The spectator's token opens the table screen: public facts only, and no orders.
        tokens = {observer: new_token() for observer in (*sides, REFEREE, SPECTATOR)}
        hashes = {token_hash(t): observer for observer, t in tokens.items()}
        if clients:
            await self._io(self.store.create_game, game_id, header, None, hashes)
            game = LiveGame(game_id, scenario, engine.replay(scenario, []), [], {}, header, None)
        else:

            def first_event() -> tuple[Ledger, Event, GameState[Any]]:
                size, fixed = roster_size(scenario), fixed_secrets(scenario)
                ledger = Ledger(game_id, sides, kept, {}, self.random_bytes, size=size, fixed=fixed)
                return ledger, *referee.create(ledger, scenario, self.ids)

            # Hashing the chains and sealing the first event take ~50 ms: not on the loop.
            ledger, first, state = await asyncio.to_thread(first_event)
            await self._io(self.store.create_game, game_id, header, first, hashes)
            game = LiveGame(game_id, scenario, state, [first], {}, header, ledger)
        self._games[game_id] = game
        return Created(game_id, scenario.ruleset, scenario.title, tokens)

    async def observer(self, game_id: str, token: str | None) -> str:
        """The observer a token grants in this game. A wrong token, a token of another game
        and a game that does not exist all get the same answer."""
        if not token or len(token) > 200:
            raise unknown_game()
        hashed = token_hash(token)
        observer = self._tokens.get(game_id, {}).get(hashed)
        if observer is None:
            observer = await self._io(self.store.observer_for, game_id, hashed)
            if observer is None:
                raise unknown_game()
            self._tokens.setdefault(game_id, {})[hashed] = observer
        return observer

    async def live(self, game_id: str) -> LiveGame:
        game = self._games.get(game_id)
        if game is None:
            lock = self._loading.setdefault(game_id, asyncio.Lock())
            async with lock:
                if game_id not in self._games:
                    # A game dropped from memory comes back exactly as after a restart.
                    self._make_room()  # never refused: its players must be able to go on
                    game, stored = await self._io(self._load, game_id)
                    if stored is not None and game.ledger is not None:
                        # The roll this game was waiting on when the process stopped: the
                        # same signed request is shown again, with the elements already in.
                        game.pending = rolls.resume(stored, game.ledger)
                    self._games[game_id] = game
                    self.deadlines.follow(game_id, game.state.window)
            if not lock.locked():
                self._loading.pop(game_id, None)
            game = self._games[game_id]
        game.used = time.monotonic()
        return game

    def _load(self, game_id: str) -> tuple[LiveGame, StoredRoll | None]:
        try:
            header = self.store.header(game_id)
        except UnknownGame:
            raise unknown_game() from None
        scenario = load_scenario(header["scenario"])
        events = self.store.events(game_id)
        answers = {(a.observer, a.command_id): dict(a.body) for a in self.store.answers(game_id)}
        taken = self.store.seats(game_id)
        if not events:  # its sides' pages have not all given their anchors yet
            empty = engine.replay(scenario, [])
            game = LiveGame(game_id, scenario, empty, [], answers, header, None, seats=taken)
            return game, None
        state, ledger = restore(game_id, scenario, header, events)
        stored = self.store.pending_roll(game_id)
        game = LiveGame(game_id, scenario, state, events, answers, header, ledger, seats=taken)
        seats.restore(game)
        return game, stored

    def _evict(self, game: LiveGame) -> None:
        """Forget a game whose copy here can no longer be trusted (its ledger moved on but
        its event was not stored): the next request reloads it; watchers resynchronise."""
        if self._games.get(game.game_id) is game:
            del self._games[game.game_id]
        for watcher in list(game.watchers):
            watcher.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                watcher.queue.put_nowait(None)
        game.watchers.clear()

    # --- memory: idle games are dropped, and reload from the store when asked for ----------

    def idle(self, game: LiveGame) -> bool:
        """May ``game`` be dropped from memory now? Not while anyone watches it, a roll waits
        for contributions, a command holds or waits for its lock, or a write is under way."""
        return (
            not game.watchers
            and game.pending is None
            and game.lock.users == 0
            and not game.lock.locked()
            and game.writing == -1
        )

    def sweep(self, now: float | None = None) -> int:
        """Drop the idle games unused for ``limits.idle_seconds``, then the least recently
        used idle ones beyond ``limits.max_games``; the number dropped."""
        now = time.monotonic() if now is None else now
        before = len(self._games)
        for game in list(self._games.values()):
            if now - game.used >= self.limits.idle_seconds and self.idle(game):
                self._forget(game)
        self._make_room(spare=0)
        for game_id in [g for g in self._tokens if g not in self._games]:
            del self._tokens[game_id]  # a token checked for a game never loaded
        return before - len(self._games)

    def _make_room(self, spare: int = 1) -> bool:
        """Drop least recently used idle games until ``spare`` more fit under
        ``limits.max_games``; False if they cannot (every game in memory is in use)."""
        excess = len(self._games) + spare - self.limits.max_games
        if excess > 0:
            for game in sorted(self._games.values(), key=lambda g: g.used):
                if excess <= 0:
                    break
                if self.idle(game):
                    self._forget(game)
                    excess -= 1
        return excess <= 0

    def _forget(self, game: LiveGame) -> None:
        if self._games.get(game.game_id) is game:
            del self._games[game.game_id]
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

    async def record(self, game_id: str) -> dict[str, Any]:
        """The complete record, every secret in it, once the game is over."""
        game = await self.live(game_id)
        if game.state.phase is not Phase.OVER:
            raise Refusal(GAME_NOT_OVER, "The record is published when the game is over.")
        return make_record(game.game_id, game.header, game.events)

    def ruleset_of(self, game_id: str) -> str | None:
        """The ruleset of a game in memory (to word a refusal about it), or None."""
        game = self._games.get(game_id)
        return game.scenario.ruleset if game is not None else None

    async def story(self, game_id: str, seq: int, lang: str = "en") -> dict[str, Any]:
        """Once the game is over, the game as it stood after event ``seq``: what each side's
        page showed then and the whole truth beside it (every secret is public by now)."""
        game = await self.live(game_id)
        if game.state.phase is not Phase.OVER:
            raise Refusal(GAME_NOT_OVER, "The game can be stepped through once it is over.")
        last = game.state.seq
        seq = max(0, min(seq, last))
        events = game.events[: seq + 1]
        state = engine.replay(game.scenario, events)
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
        game = await self.live(game_id)
        return _with_status(game, project(game.state, game.events[after + 1 :], observer, lang))

    # --- commands -----------------------------------------------------------------------------

    async def command(
        self,
        game_id: str,
        observer: str,
        command_id: str,
        raw: Mapping[str, Any],
        origin: Watcher | None = None,
        lang: str = "en",
    ) -> dict[str, Any]:
        """Rule on a command and return its answer once it is durable. A command id already
        answered for this side returns the first answer, whatever the command now says.
        With ``origin`` (the connection the command came by), the answer also rides in the
        update that connection is sent, marked ``answered``: one frame instead of two.

        The command is first tried (so a refusal never asks anyone for anything), then its
        roll is asked for; it is ruled on when every party's element is in, which may be at
        once (host-held chains) or when the sides' pages answer."""
        game = await self.live(game_id)
        if observer not in game.state.sides:
            # The referee and the spectator give no orders: refused alike whatever the game's
            # state (a roll waiting or not), before anything is tried or asked for.
            raise Refusal(UNKNOWN_SIDE, "There is no such side in this game.")
        return await self._give(game, observer, command_id, raw, origin, lang)

    async def time_out(self, game_id: str, window: int) -> None:
        """The host's time-out for the reaction window event ``window`` opened (its
        deadline timer, ghillie.server.deadlines): given like a side's command, with no
        side; refused unless that window is open and its time is up."""
        game = await self.live(game_id)
        raw = engine.TimeOut(window=window).model_dump(mode="json")
        await self._give(game, None, f"time-out/{window}", raw, None, "en")

    async def _give(
        self,
        game: LiveGame,
        observer: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        origin: Watcher | None,
        lang: str,
    ) -> dict[str, Any]:
        async with game.lock:
            if game.pending is not None:
                # A retry of the waiting command, or another command: either way, another
                # process may have resolved this roll (or asked for the next) meanwhile.
                await self._sync(game)
            known = game.answers.get((observer, command_id)) if observer is not None else None
            if known is not None:
                return spoken_answer(known, game.scenario, lang)
            pending = game.pending
            if pending is None:
                pending = await self._ask(game, observer, command_id, raw, origin)
            elif not pending.is_for(observer, command_id):
                assert game.ledger is not None
                raise rolls.busy(pending, game.ledger, game.scenario, observer)
        answer = await asyncio.shield(pending.done)
        return answer if observer is None else spoken_answer(answer, game.scenario, lang)

    async def _ask(
        self,
        game: LiveGame,
        observer: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        origin: Watcher | None,
    ) -> Pending:
        """Try the command and, if the rules accept it, ask every party for its roll.

        A request that pages will answer is first claimed in the store, the one place every
        process (and this one after a restart) agrees on: if a request for this roll is
        stored already, that one stands and this command is refused (or, if it is the
        command that request is for, waits for it). Only then is any page shown it."""
        while True:
            if game.ledger is None:
                if observer not in game.state.sides:
                    raise Refusal(UNKNOWN_SIDE, "There is no such side in this game.")
                raise Refusal(NOT_STARTED, "The game starts when every side's page has joined.")
            ledger = game.ledger
            held = rolls.held(ledger, ledger.next_k)
            ruled = None
            try:
                if len(held) == len(ledger.parties):
                    # Every chain is the host's: nobody is asked anything, so the command is
                    # ruled on at once (a refusal changes nothing) and the request unsigned.
                    payload = referee.command_payload(game.state, raw, observer)
                    request = ledger.request(observer, payload, sign=False)
                    ruled = referee.apply(
                        ledger, game.state, observer, raw, self.ids, held, request=request
                    )
                else:
                    referee.trial(ledger, game.state, observer, raw, self.ids)
                    payload = referee.command_payload(game.state, raw, observer)
                    request = ledger.request(observer, payload)
            except Refusal:
                # Another process may have moved this game on: try again on the latest.
                if await self._catch_up(game):
                    continue
                raise
            pending = Pending(request, observer, command_id, dict(raw), held, origin=origin)
            if ruled is not None:
                game.pending = pending
                await self._commit(game, pending, *ruled)
                return pending
            mine = rolls.to_store(pending)
            try:
                stored = await self._stored(self.store.claim_roll, game.game_id, mine)
            except Conflict:
                moved = await self._sync(game)  # behind: another process ruled on this roll
                if game.pending is None:
                    if not moved:  # a store that contradicts itself: never loop on it
                        raise Problem(
                            UNAVAILABLE, "The game could not be saved; try again."
                        ) from None
                    continue  # rule again on the latest
                asked = game.pending
            else:
                if (stored.side, stored.command_id, stored.request) == (
                    observer,
                    command_id,
                    mine.request,
                ):
                    pending.stored = True
                    rolls.merge(pending, stored, ledger)  # claimed before by another process
                    asked = pending
                else:
                    # Asked for already, by another process or before a restart: that
                    # request stands; this one was never shown to anyone and is dropped.
                    resumed = rolls.resume(stored, ledger)
                    if resumed is None:
                        raise Problem(UNAVAILABLE, "The game could not be saved; try again.")
                    asked = resumed
                game.pending = asked
                if not await self._resolve(game):
                    self._push_status(game)
            if asked.is_for(observer, command_id):
                return asked
            raise rolls.busy(asked, ledger, game.scenario, observer)

    async def anchor(self, game_id: str, observer: str, anchor: Any) -> dict[str, Any]:
        """A side's page gives the anchor of its roll chain, before the game starts."""
        game = await self.live(game_id)
        async with game.lock:
            if observer not in game.state.sides:
                raise Refusal(UNKNOWN_SIDE, "Only a side has a roll chain.")
            if not isinstance(anchor, str) or not _HEX32.fullmatch(anchor):
                raise Refusal(BAD_CONTRIBUTION, "An anchor is 32 bytes in lowercase hex.")
            if game.ledger is not None:
                if game.ledger.anchors.get(observer) == anchor:
                    return status(game)
                raise Refusal(ANCHOR_FIXED, "This side's roll chain was fixed when the game began.")
            if game.header["fair"]["held"]:
                raise Refusal(ANCHOR_FIXED, "The host holds this game's roll chains.")
            # Until every side has given one, a page that lost its seed may give another.
            game.anchors[observer] = anchor
            if all(side in game.anchors for side in game.state.sides):
                sides = game.state.sides
                kept = Secrets.from_json(game.header["fair"])
                ledger = Ledger(
                    game.game_id,
                    sides,
                    kept,
                    game.anchors,
                    self.random_bytes,
                    size=roster_size(game.scenario),
                    fixed=fixed_secrets(game.scenario),
                )
                game.ledger = ledger
                request = ledger.request(None, referee.scenario_payload(game.scenario))
                # Roll 0 is not stored (ghillie.server.rolls): its request is the same
                # whoever asks, and the anchors are given again after a restart.
                game.pending = Pending(request, None, None, None, rolls.held(ledger, request.k))
            self._push_status(game)
            return status(game)

    async def contribute(self, game_id: str, observer: str, k: Any, element: Any) -> dict[str, Any]:
        """A side's page gives its chain element for the roll asked for."""
        game = await self.live(game_id)
        async with game.lock:
            if observer not in game.state.sides:
                raise Refusal(UNKNOWN_SIDE, "Only a side has a roll chain.")
            pending = game.pending
            if game.ledger is not None and (pending is None or pending.request.k != k):
                await self._sync(game)  # another process may have asked for (or ruled on) it
                pending = game.pending
            if pending is None or game.ledger is None or pending.request.k != k:
                raise Refusal(NO_ROLL_PENDING, "No roll is waiting for that contribution.")
            if not isinstance(element, str) or not _HEX32.fullmatch(element):
                raise Refusal(BAD_CONTRIBUTION, "That is not the next link of your roll chain.")
            given = bytes.fromhex(element)
            if observer in pending.elements:
                if pending.elements[observer] == given:
                    return status(game)
                raise Refusal(BAD_CONTRIBUTION, "That is not the next link of your roll chain.")
            if not game.ledger.accepts(observer, k, given):
                raise Refusal(BAD_CONTRIBUTION, "That is not the next link of your roll chain.")
            pending.elements[observer] = given
            if pending.stored and not rolls.complete(pending, game.ledger):
                # Kept, so that after a restart (or through another process) the roll does
                # not wait for a page that already gave its element and may have gone. The
                # element that completes a roll needs no row: its event is written next.
                try:
                    stored = await self._stored(
                        self.store.add_element, game.game_id, k, observer, element
                    )
                except Problem:
                    stored = None  # still in memory; after a restart the page gives it again
                else:
                    if stored is None:  # another process resolved this roll meanwhile
                        await self._sync(game)
                        return status(game)
                    rolls.merge(pending, stored, game.ledger)
            if not await self._resolve(game):
                self._push_status(game)
            return status(game)

    async def _resolve(self, game: LiveGame) -> bool:
        """Rule on the pending roll if every party's element is in (the lock is held)."""
        pending, ledger = game.pending, game.ledger
        if pending is None or ledger is None:
            return False
        if any(party not in pending.elements for party in ledger.parties):
            return False
        game.pending = None
        try:
            if pending.raw is None:  # the game's creation (a time-out has no side either)
                event, state = referee.create(
                    ledger, game.scenario, self.ids, pending.elements, request=pending.request
                )
            else:
                event, state = referee.apply(
                    ledger,
                    game.state,
                    pending.side,
                    pending.raw or {},
                    self.ids,
                    pending.elements,
                    request=pending.request,
                )
        except Refusal as refusal:
            # The trial accepted it; only dice could change that, and no rule refuses on
            # dice. The ledger is untouched (only sealing changes it), but the pages have
            # given their elements for this roll and will not give them for another: a
            # stored request stays stored (asking anew would be asking twice).
            log.error("a tried command was refused when ruled on: %s", refusal.code)
            pending.done.set_exception(refusal)
            return True
        await self._commit(game, pending, event, state)
        return True

    async def _commit(
        self, game: LiveGame, pending: Pending, event: Event, state: GameState[Any]
    ) -> None:
        """Store a ruled, sealed event; then acknowledge and push it (the lock is held)."""
        game.pending = None
        answer = None
        said = None
        if pending.side is not None and pending.command_id is not None:
            answer = {
                "command_id": pending.command_id,
                "seq": event.seq,
                "lines": list(event.told.get(pending.side, ())),
            }
            said = Answer(pending.side, pending.command_id, event.seq, answer)
        append = Append(game.game_id, game.state.seq, [event], said, resolves=pending.stored)
        game.writing = event.seq
        try:
            await self.committer.commit(append)
        except Exception as exc:
            # The ledger has sealed an event that is not stored: start again from the store.
            if isinstance(exc, UnknownGame):
                failure: Exception = unknown_game()
            else:
                if not isinstance(exc, Conflict):
                    log.error("commit failed: %s", where(exc))
                failure = Problem(UNAVAILABLE, "The game could not be saved; try again.")
            self._evict(game)
            pending.done.set_exception(failure)
            return
        finally:
            game.writing = -1
        before = game.state.seq
        game.state = state
        game.events.append(event)
        if answer is not None and pending.side is not None and pending.command_id is not None:
            game.answers[(pending.side, pending.command_id)] = answer
        self._publish(game, before, pending.origin, answer)
        pending.done.set_result(answer or {})

    async def _catch_up(self, game: LiveGame) -> bool:
        """Read what other processes wrote to this game; True if there was anything."""
        newer = await self._io(self.store.events, game.game_id, game.state.seq)
        if not newer:
            return False
        answers = await self._io(self.store.answers, game.game_id, game.state.seq)
        before = game.state.seq
        ruleset = registry.get(game.state.ruleset)
        pending = game.pending
        if pending is not None:
            # Another process ruled on this roll: it was this very request (it is stored,
            # so every process asks with the same one), so its answer is in the store.
            game.pending = None
            said = None
            if pending.side is not None and pending.command_id is not None:
                said = next(
                    (
                        a
                        for a in answers
                        if (a.observer, a.command_id) == (pending.side, pending.command_id)
                    ),
                    None,
                )
            if said is not None:
                pending.done.set_result(dict(said.body))
            else:
                pending.done.set_exception(
                    Problem(UNAVAILABLE, "The game moved on; send the command again.")
                )
        for event in newer:
            if event.seq == game.state.seq + 1:
                if game.ledger is None:
                    game.ledger = Ledger.from_header(
                        game.game_id,
                        game.state.sides,
                        game.header,
                        event,
                        size=roster_size(game.scenario),
                        fixed=fixed_secrets(game.scenario),
                    )
                game.ledger.restore(game.state, event)
                game.state = fold(game.state, event, ruleset)
                game.events.append(event)
        for answer in answers:
            game.answers[(answer.observer, answer.command_id)] = dict(answer.body)
        self._publish(game, before)
        return True

    async def _sync(self, game: LiveGame) -> bool:
        """Catch up with the store: other processes' events, and the roll request one of
        them (or this one before a restart) is waiting on, with the elements in so far.
        True if there were new events."""
        moved = await self._catch_up(game)
        ledger = game.ledger
        if ledger is None or (game.pending is not None and not game.pending.stored):
            return moved  # roll 0, or a roll ruled at once: never stored
        stored = await self._stored(self.store.pending_roll, game.game_id)
        if stored is None or stored.k != ledger.next_k:
            return moved
        if game.pending is None:
            game.pending = rolls.resume(stored, ledger)
        elif game.pending.request.k == stored.k:
            rolls.merge(game.pending, stored, ledger)
        if game.pending is not None and not await self._resolve(game):
            self._push_status(game)
        return moved

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

    def watch(self, game: LiveGame, observer: str, lang: str = "en") -> Watcher:
        watcher = Watcher(observer, lang)
        game.watchers.add(watcher)
        return watcher

    def unwatch(self, game: LiveGame, watcher: Watcher) -> None:
        game.watchers.discard(watcher)

    async def watch_view(self, game: LiveGame, watcher: Watcher, after: int = -1) -> dict[str, Any]:
        """The whole view a new or resynchronising watcher starts from (log after ``after``)."""
        async with game.lock:
            view = _with_status(
                game,
                project(game.state, game.events[after + 1 :], watcher.observer, watcher.lang),
            )
            game.shown[watcher.observer, watcher.lang] = {
                k: v for k, v in view.items() if k != "log"
            }
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
        self.deadlines.follow(game.game_id, game.state.window)
        new = game.events[before + 1 :]
        fairness = status(game)
        updates: dict[tuple[str, str], dict[str, Any]] = {}
        for watcher in list(game.watchers):
            reader = (watcher.observer, watcher.lang)
            if reader not in updates:
                held = game.shown.get(reader, {})
                changed, now = project_update(game.state, new, *reader[:1], held, reader[1])
                now["fairness"] = fairness
                if held.get("fairness") != fairness:
                    changed["fairness"] = fairness
                game.shown[reader] = now
                updates[reader] = {"type": "update", "view": changed}
            message = updates[reader]
            if watcher is origin and answer is not None:
                message = {**message, "answer": spoken_answer(answer, game.scenario, watcher.lang)}
                origin.answered.add(answer["command_id"])
            # Too far behind: dropped; the client reconnects and gets the whole view.
            self.send(game, watcher, message)

    def _push_status(self, game: LiveGame) -> None:
        """Tell every watcher that the roll protocol moved (a request, an element in)."""
        fairness = status(game)
        for watcher in list(game.watchers):
            shown = game.shown.setdefault((watcher.observer, watcher.lang), {})
            shown["fairness"] = fairness
            self.send(game, watcher, {"type": "update", "view": {"fairness": fairness, "log": []}})

    push_status = _push_status

    def send(self, game: LiveGame, watcher: Watcher, message: dict[str, Any]) -> None:
        """Queue a message for one watcher; one too far behind is dropped (it resyncs)."""
        try:
            watcher.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.let_go(game, watcher)

    def let_go(self, game: LiveGame, watcher: Watcher) -> None:
        """Stop sending to a watcher: its socket closes once it has what was queued."""
        watcher.dropped = True
        game.watchers.discard(watcher)
        with contextlib.suppress(asyncio.QueueFull):
            watcher.queue.put_nowait(None)
            return
        watcher.queue.get_nowait()
        watcher.queue.put_nowait(None)

    async def _io(self, function: Any, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)

    async def _stored(self, function: Callable[..., _T], *args: Any) -> _T:
        """A store call of the roll protocol. A conflict is the caller's to handle; any
        other failure is the player's "try again", never a 500."""
        try:
            result: _T = await asyncio.to_thread(function, *args)
        except Conflict:
            raise
        except UnknownGame:
            raise unknown_game() from None
        except Exception as exc:
            log.error("a roll request could not be stored: %s", where(exc))
            raise Problem(UNAVAILABLE, "The game could not be saved; try again.") from None
        return result


def status(game: LiveGame) -> dict[str, Any]:
    """Where the roll protocol stands, the same for every observer: who holds each side's
    chain, who has still to join, and the roll asked for with the parties it waits for."""
    held = game.header["fair"]["held"]
    out: dict[str, Any] = {
        "chains": {side: "host" if side in held else "client" for side in game.state.sides},
        # The key that signs every head and request, also before event 0 (which records it)
        # exists: a page checks the signature of the request for roll 0 with it.
        "key": _public_key(game.header["fair"]["key"]),
        "request": None,
        "waiting": [],
    }
    if game.ledger is None:
        out["joining"] = [side for side in game.state.sides if side not in game.anchors]
    if game.ledger is not None and game.ledger.fresh:
        # A side's new dice chain (its seat moved, or its device was lost), from roll k on:
        # every page is told before that roll is given.
        out["new_chains"] = [{"side": s, "from": k} for s, (_, k) in game.ledger.fresh.items()]
    if game.pending is not None and game.ledger is not None:
        out["request"] = game.pending.request.public(game.game_id)
        out["waiting"] = [p for p in game.ledger.parties if p not in game.pending.elements]
    return out


@functools.lru_cache(maxsize=1024)
def _public_key(private: str) -> str:
    return HostKey.from_bytes(bytes.fromhex(private)).public


def spoken_answer(answer: dict[str, Any], scenario: Scenario, lang: str) -> dict[str, Any]:
    """A command's answer (kept as data, with the acting side's own lines) in words."""
    words = speaker(scenario.ruleset, lang)
    return {**answer, "said": [spoken(line, words, scenario) for line in answer["lines"]]}


def _with_status(game: LiveGame, view: dict[str, Any]) -> dict[str, Any]:
    view["fairness"] = status(game)
    if game.ledger is None and "commands" in view:
        view["commands"] = []  # nothing can be given before the game starts
        view["your_move"] = False
    return view
