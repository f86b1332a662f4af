"""Commands, ruled on fairly: a side's (or the host's) command tried, its roll asked for,
and its answer given once its event is committed.

Every event is ruled on fairly (:mod:`ghillie.fairness`): the host and each side give their
chain element for the event's roll, and the event is ruled on only once all are in. A side
whose page holds its own chain ("clients" games) answers over its websocket or the API;
until it does, the command waits and every side sees whom it waits for.

A command is first checked against its side's seat key (:mod:`~ghillie.server.orders`), then
tried (so a refusal never asks anyone for anything). The rest of the roll protocol is
:class:`Commands`' collaborators', each in its own module: claiming the roll's request in
the store before any page is shown it (:mod:`~ghillie.server.claims`), what the pages give
(:mod:`~ghillie.server.contributions`), ruling on a roll once it is complete
(:mod:`~ghillie.server.resolving`), and committing its event before the state advances and
anyone is answered (:mod:`~ghillie.server.committing`).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from typing import Any

from ghillie import clock, engine, host
from ghillie.errors import NOT_STARTED, UNKNOWN_SIDE, Refusal
from ghillie.events import Event
from ghillie.fairness import referee
from ghillie.fairness.hashlog import order_digest
from ghillie.fairness.ledger import Ledger, Order, RandomBytes
from ghillie.ids import IdSource
from ghillie.server import orders, rolls
from ghillie.server.claims import Claims
from ghillie.server.committing import Committing
from ghillie.server.contributions import Contributions
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games
from ghillie.server.live import LiveGame, Watcher, refuse_archived, spoken_answer
from ghillie.server.orders import Signed
from ghillie.server.problems import NOT_FOUND, Problem
from ghillie.server.resolving import Resolving
from ghillie.server.rolls import Pending
from ghillie.server.rulings import rule_off_loop
from ghillie.server.sync import Sync
from ghillie.state import GameState
from ghillie.store.base import EventStore

__all__ = ["Commands", "Signed"]


class Commands:
    def __init__(
        self,
        store: EventStore,
        games: Games,
        fanout: FanOut,
        sync: Sync,
        ids: IdSource,
        random_bytes: RandomBytes = secrets.token_bytes,
    ) -> None:
        self.games = games
        self.sync = sync
        self.ids = ids
        self.committing = Committing(store, games, fanout)
        self.resolving = Resolving(games, fanout, sync, ids, self.committing)
        self.claims = Claims(store, self.resolving)
        self.contributions = Contributions(store, games, fanout, self.resolving, random_bytes)

    def close(self) -> None:
        self.committing.close()

    async def command(
        self,
        game_id: str,
        observer: str,
        command_id: str,
        raw: Mapping[str, Any],
        origin: Watcher | None = None,
        lang: str = "en",
        signed: Signed | None = None,
    ) -> dict[str, Any]:
        """Rule on a command and return its answer once it is durable. A command id already
        answered for this side returns the first answer, whatever the command now says.
        ``signed`` is the roll the side's seat key signed it for and the signature: a side
        that has a seat key must sign every command (docs/fairness.md, "Orders").
        With ``origin`` (the connection the command came by), the answer also rides in the
        update that connection is sent, marked ``answered``: one frame instead of two.

        The command is first tried (so a refusal never asks anyone for anything), then its
        roll is asked for; it is ruled on when every party's element is in, which may be at
        once (host-held chains) or when the sides' pages answer."""
        game = await self.games.live(game_id)
        if observer not in game.state.sides:
            # The referee and the spectator give no orders: refused alike whatever the game's
            # state (a roll waiting or not), before anything is tried or asked for.
            raise Refusal(UNKNOWN_SIDE, "There is no such side in this game.")
        refuse_archived(game)
        return await self._give(game, observer, command_id, raw, origin, lang, signed)

    async def time_out(self, game_id: str, window: int) -> None:
        """The host's time-out for the reaction window event ``window`` opened (its
        deadline timer, ghillie.server.deadlines): given like a side's command, with no
        side; refused unless that window is open and its time is up."""
        game = await self.games.live(game_id)
        raw = host.TimeOut(window=window).model_dump(mode="json")
        await self._give(game, None, f"time-out/{window}", raw, None, "en")

    async def extend(self, game_id: str, window: int, since: str) -> None:
        """The host's extension of the window event ``window`` opened, for its outage from
        ``since`` (ghillie.server.outages); refused unless that window is open and was
        running then."""
        game = await self.games.live(game_id)
        raw = host.Extend(window=window, since=since).model_dump(mode="json")
        await self._give(game, None, f"extend/{window}/{since}", raw, None, "en")

    async def _give(
        self,
        game: LiveGame,
        observer: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        origin: Watcher | None,
        lang: str,
        signed: Signed | None = None,
    ) -> dict[str, Any]:
        async with game.lock:
            if game.pending is not None:
                # A retry of the waiting command, or another command: either way, another
                # process may have resolved this roll (or asked for the next) meanwhile.
                await self.resolving.pull(game)
            known = await game.answers.find(observer, command_id) if observer is not None else None
            if known is not None:
                return spoken_answer(known, game.scenario, lang)
            pending = game.pending
            if pending is None:
                pending = await self._ask(game, observer, command_id, raw, origin, signed)
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
        signed: Signed | None = None,
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
            try:
                pending, ruled = await self._try(game, ledger, observer, command_id, raw, signed)
            except Refusal:
                # Another process may have moved this game on: try again on the latest.
                if await self.sync.catch_up(game):
                    continue
                raise
            pending.origin = origin
            if ruled is not None:
                game.pending = pending
                await self.committing.commit(game, pending, *ruled)
                return pending
            asked = await self.claims.claim(game, pending, ledger)
            if asked is None:
                continue  # rule again on the latest
            if asked.is_for(observer, command_id):
                return asked
            raise rolls.busy(asked, ledger, game.scenario, observer)

    async def _try(
        self,
        game: LiveGame,
        ledger: Ledger,
        observer: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        signed: Signed | None,
    ) -> tuple[Pending, tuple[Event, GameState[Any, Any]] | None]:
        """The command tried on the game as it stands (refused as the rules refuse it), and
        the roll to ask for it; with every chain the host's, the command ruled on already."""
        held = rolls.held(ledger, ledger.next_k)
        # While a timed reaction window is open (and for the host's time-out) a command is
        # ruled at the time the host had it, not when its dice are all in: its event records
        # that time and an answer after the window's end is refused.
        window = game.state.window
        at = clock.now() if observer is None or (window and window.ends) else None
        order = await self._order(ledger, observer, command_id, raw, signed)
        digest = order_digest(order.sig) if order is not None else ""
        # Parsed once here, and passed down typed to the trial and the ruling.
        command = engine.parse(game.state, observer, raw)
        payload = referee.command_payload(game.state, command, observer)
        ruled = None
        if len(held) == len(ledger.parties):
            # Every chain is the host's: nobody is asked anything, so the command is ruled
            # on at once (a refusal changes nothing) and the request unsigned.
            request = ledger.request(observer, payload, sign=False, order=digest)
            ruling = await rule_off_loop(
                referee.rule,
                ledger,
                game.state,
                observer,
                command,
                self.ids,
                request,
                held,
                None,
                at,
            )
            ruled = referee.seal(ledger, game.state, request, ruling, order=order, sign=False)
        else:
            await rule_off_loop(
                referee.trial, ledger, game.state, observer, command, self.ids, None, at
            )
            request = ledger.request(observer, payload, order=digest)
        pending = Pending(
            request, observer, command_id, dict(raw), held, order=order, at=at, command=command
        )
        if observer is None and window is not None and raw.get("type") == "time_out":
            # The host's time-out never waits for the sides whose time ran out: a page that
            # did not answer in time may be one that is away. (Its extension after an
            # outage waits for every page, as any command: the audit excuses none.)
            pending.excused = {s for s in window.asks if s not in window.answers}
        return pending, ruled

    async def _order(
        self,
        ledger: Ledger,
        side: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        signed: Signed | None,
    ) -> Order | None:
        """The command as its side's seat key signed it (:func:`orders.signed_order`); a
        method, so that a test's dishonest host can stand in for it."""
        return await orders.signed_order(ledger, side, command_id, raw, signed)

    async def answer_of(
        self, game_id: str, observer: str, command_id: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """The answer to ``observer``'s command ``command_id``; None while its roll waits.
        Refused (404) for a command id this side never gave, or gave and was refused."""
        game = await self.games.live(game_id)
        async with game.lock:
            if game.pending is not None:
                await self.resolving.pull(game)
            known = await game.answers.find(observer, command_id)
            if known is not None:
                return spoken_answer(known, game.scenario, lang)
            if game.pending is not None and game.pending.is_for(observer, command_id):
                return None
        raise Problem(NOT_FOUND, "This side gave no command with that id that was taken.")

    # --- what the pages give, and the roll that waited long enough: their own modules' ----

    async def anchor(
        self, game_id: str, observer: str, anchor: Any, key: Any = None
    ) -> dict[str, Any]:
        return await self.contributions.anchor(game_id, observer, anchor, key)

    async def renew(self, game_id: str, observer: str, anchor: Any) -> dict[str, Any]:
        return await self.contributions.renew(game_id, observer, anchor)

    async def contribute(self, game_id: str, observer: str, k: Any, element: Any) -> dict[str, Any]:
        return await self.contributions.contribute(game_id, observer, k, element)

    async def give_up(self, game_id: str, k: int) -> None:
        await self.resolving.give_up(game_id, k)
