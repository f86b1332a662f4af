"""Commands, ruled on fairly: the roll protocol of every event, and the commit.

Every event is ruled on fairly (:mod:`ghillie.fairness`): the host and each side give their
chain element for the event's roll, and the event is ruled on only once all are in. A side
whose page holds its own chain ("clients" games) answers over its websocket or the API;
until it does, the command waits and every side sees whom it waits for. A game whose pages
hold their chains starts only once every page has given its chain's anchor. A request the
pages are asked to answer is stored before any page sees it and resumed after a restart
(:mod:`ghillie.server.rolls`): an honest host never asks twice for one roll.

A command is first tried (so a refusal never asks anyone for anything), ruled on the
in-memory state, written with its answer through the group committer, and only once that
transaction has committed is the state advanced, the command acknowledged and the update
pushed to the sides watching.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Mapping
from typing import Any

from ghillie import clock, engine, host
from ghillie.errors import (
    ANCHOR_FIXED,
    BAD_CONTRIBUTION,
    BAD_ORDER_SIGNATURE,
    MALFORMED_COMMAND,
    NO_ROLL_PENDING,
    NOT_STARTED,
    OLD_PROTOCOL,
    STALE_ORDER,
    UNKNOWN_SIDE,
    Refusal,
)
from ghillie.events import Event
from ghillie.fairness import referee
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.hashlog import SIGNATURE, order_digest, order_message, verify
from ghillie.fairness.ledger import Ledger, Order, RandomBytes, Secrets
from ghillie.ids import IdSource
from ghillie.server import calls, rolls
from ghillie.server.committer import GroupCommitter
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games
from ghillie.server.live import LiveGame, Watcher, spoken_answer, status
from ghillie.server.problems import NOT_FOUND, UNAVAILABLE, Problem, unknown_game, where
from ghillie.server.rolls import Pending
from ghillie.server.rulings import rule_off_loop
from ghillie.server.seats import signing_key
from ghillie.server.sync import Sync
from ghillie.state import GameState
from ghillie.store.base import Answer, Append, Conflict, EventStore, UnknownGame
from ghillie.words import say

log = logging.getLogger("ghillie.hub")

_HEX32 = re.compile("[0-9a-f]{64}")
# A signed command: the roll its side's seat key signed it for, and the signature.
Signed = tuple[Any, Any]


def _ends(state: GameState[Any, Any]) -> str | None:
    """When the state's open timed reaction window ends (None: none is open)."""
    window = state.window
    return window.ends if window is not None and window.awaiting is not None else None


def _chain_of(game: LiveGame, observer: str) -> None:
    """Refuse a chain's anchor or element of anyone but a side of a game this server goes
    on with."""
    if observer not in game.state.sides:
        raise Refusal(UNKNOWN_SIDE, "Only a side has a roll chain.")
    refuse_archived(game)


def _anchor_hex(anchor: Any) -> None:
    if not isinstance(anchor, str) or not _HEX32.fullmatch(anchor):
        raise Refusal(BAD_CONTRIBUTION, "An anchor is 32 bytes in lowercase hex.")


def refuse_archived(game: LiveGame) -> None:
    """A game set up under an earlier fairness protocol goes no further here: every order,
    anchor and element is refused, with what its players can still do."""
    if game.archived is not None:
        raise Refusal(
            OLD_PROTOCOL,
            say(
                "This game was started under an earlier version of ghillie's fairness rules "
                "(protocol {protocol}), which this version cannot go on with. Each page can "
                "still download its record, to check with ghillie audit (add --unfinished if "
                "the game had not ended).",
                protocol=str(game.archived),
            ),
        )


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
        self.store = store
        self.games = games
        self.fanout = fanout
        self.sync = sync
        self.ids = ids
        self.random_bytes = random_bytes
        self.committer = GroupCommitter(store)

    def close(self) -> None:
        self.committer.close()

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
                await self._pull(game)
            known = game.answers.get((observer, command_id)) if observer is not None else None
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
                await self._commit(game, pending, *ruled)
                return pending
            asked = await self._claim(game, pending, ledger)
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

    async def _claim(self, game: LiveGame, pending: Pending, ledger: Ledger) -> Pending | None:
        """Claim ``pending``'s request in the store: the roll asked for now, this one or one
        stored before it (None: this process was behind, rule again on the latest)."""
        mine = rolls.to_store(pending)
        try:
            stored = await calls.stored(self.store.claim_roll, game.game_id, mine)
        except Conflict:
            moved = await self._pull(game)  # behind: another process ruled on this roll
            if game.pending is None:
                if not moved:  # a store that contradicts itself: never loop on it
                    raise Problem(UNAVAILABLE, "The game could not be saved; try again.") from None
                return None
            return game.pending
        if (stored.side, stored.command_id, stored.request) == (
            pending.side,
            pending.command_id,
            mine.request,
        ):
            pending.stored = True
            rolls.merge(pending, stored, ledger)  # claimed before by another process
            asked = pending
        else:
            # Asked for already, by another process or before a restart: that request
            # stands; this one was never shown to anyone and is dropped.
            resumed = rolls.resume(stored, ledger)
            if resumed is None:
                raise Problem(UNAVAILABLE, "The game could not be saved; try again.")
            asked = resumed
        game.pending = asked
        if not await self._resolve(game):
            self.fanout.push_status(game)
        return asked

    async def _order(
        self,
        ledger: Ledger,
        side: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        signed: Signed | None,
    ) -> Order | None:
        """The command as its side's seat key signed it, for the roll asked for now; None for
        the host's own commands and for a side with no seat key (its commands are the
        host's: "host-acted"). Refused if it is not signed so: nothing is asked or ruled."""
        if side is None:
            return None
        key = ledger.key_for(side, ledger.next_k)
        if key is None:
            return None
        if signed is None:
            raise Refusal(
                BAD_ORDER_SIGNATURE,
                "This side's orders are signed by the device that holds its seat; this one "
                "is not signed.",
            )
        k, sig = signed
        if type(k) is not int or k != ledger.next_k:
            raise Refusal(
                STALE_ORDER,
                say(
                    "The game moved on (to roll {k}) while this order was on its way, so it "
                    "was not given: look at the game again and give it anew.",
                    k=str(ledger.next_k),
                ),
            )
        try:
            message = order_message(ledger.game_id, k, side, command_id, raw)
        except (TypeError, ValueError, OverflowError, UnicodeEncodeError):
            raise Refusal(MALFORMED_COMMAND, "That command is not well-formed.") from None
        # Checked off the loop: OpenSSL lets go of the GIL while it verifies. One spelling only
        # (lowercase hex): the record keeps the order as it was signed.
        spelled = isinstance(sig, str) and SIGNATURE.fullmatch(sig) is not None
        if not spelled or not await asyncio.to_thread(verify, key, message, sig):
            raise Refusal(
                BAD_ORDER_SIGNATURE,
                "This order is not signed by the device that holds this side's seat.",
            )
        return Order(command_id, dict(raw), sig)

    async def answer_of(
        self, game_id: str, observer: str, command_id: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """The answer to ``observer``'s command ``command_id``; None while its roll waits.
        Refused (404) for a command id this side never gave, or gave and was refused."""
        game = await self.games.live(game_id)
        async with game.lock:
            if game.pending is not None:
                await self._pull(game)
            known = game.answers.get((observer, command_id))
            if known is not None:
                return spoken_answer(known, game.scenario, lang)
            if game.pending is not None and game.pending.is_for(observer, command_id):
                return None
        raise Problem(NOT_FOUND, "This side gave no command with that id that was taken.")

    async def give_up(self, game_id: str, k: int) -> None:
        """Roll ``k`` has waited for the sides' pages as long as the game allows: it goes on
        without the elements still missing (ghillie.server.waits)."""
        game = await self.games.live(game_id)
        async with game.lock:
            pending, ledger = game.pending, game.ledger
            if pending is None or ledger is None or pending.request.k != k:
                return
            late = {s for s in ledger.sides if s not in pending.elements}
            if not late or late <= pending.excused:
                return
            pending.excused |= late
            if not await self._resolve(game):
                self.fanout.push_status(game)

    async def anchor(
        self, game_id: str, observer: str, anchor: Any, key: Any = None
    ) -> dict[str, Any]:
        """A side's page gives the anchor of its roll chain before the game starts, and the
        public key it will sign its orders with (``key``; none: the host gives them)."""
        game = await self.games.live(game_id)
        async with game.lock:
            _chain_of(game, observer)
            _anchor_hex(anchor)
            public = signing_key(key)
            if game.ledger is not None:
                if game.ledger.anchors.get(observer) == anchor:
                    return status(game)
                raise Refusal(ANCHOR_FIXED, "This side's roll chain was fixed when the game began.")
            if game.header["fair"]["held"]:
                raise Refusal(ANCHOR_FIXED, "The host holds this game's roll chains.")
            # Until every side has given one, a page that lost its seed may give another.
            game.anchors[observer] = anchor
            if public is not None:
                game.keys[observer] = public
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
                    keys=game.keys,
                    wait=game.header["fair"].get("wait"),
                )
                game.ledger = ledger
                request = ledger.request(None, referee.scenario_payload(game.scenario))
                # Roll 0 is not stored (ghillie.server.rolls): its request is the same
                # whoever asks, and the anchors are given again after a restart.
                game.pending = Pending(request, None, None, None, rolls.held(ledger, request.k))
            self.fanout.push_status(game)
            return status(game)

    async def renew(self, game_id: str, observer: str, anchor: Any) -> dict[str, Any]:
        """A side's page gives the anchor of the chain that follows its chain in use, which
        is running out (every 4,096 rolls): a game of any length rolls on. Every page is
        told (``fairness.new_chains``) and the event of its first roll records it."""
        game = await self.games.live(game_id)
        async with game.lock:
            _chain_of(game, observer)
            ledger = game.ledger
            _anchor_hex(anchor)
            if ledger is None or observer in ledger.secrets.held:
                raise Refusal(ANCHOR_FIXED, "This side's roll chain is not its page's to renew.")
            fresh = ledger.fresh.get(observer)
            start = ledger.chain_start[observer] + ledger.chain_length
            if fresh is not None and fresh != (anchor, start):
                raise Refusal(ANCHOR_FIXED, "This side's next roll chain is given already.")
            if start < ledger.next_k:
                # Its first element would be for a roll already drawn: too late to renew.
                raise Refusal(
                    ANCHOR_FIXED, "This side's dice chain ran out before its next one was given."
                )
            ledger.renew(observer, anchor)
            self.fanout.push_status(game)
            return status(game)

    async def contribute(self, game_id: str, observer: str, k: Any, element: Any) -> dict[str, Any]:
        """A side's page gives its chain element for the roll asked for."""
        game = await self.games.live(game_id)
        async with game.lock:
            _chain_of(game, observer)
            pending = game.pending
            if game.ledger is not None and (pending is None or pending.request.k != k):
                await self._pull(game)  # another process may have asked for (or ruled on) it
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
                    stored = await calls.stored(
                        self.store.add_element, game.game_id, k, observer, element
                    )
                except Problem:
                    stored = None  # still in memory; after a restart the page gives it again
                else:
                    if stored is None:  # another process resolved this roll meanwhile
                        await self._pull(game)
                        return status(game)
                    rolls.merge(pending, stored, game.ledger)
            if not await self._resolve(game):
                self.fanout.push_status(game)
            return status(game)

    async def _resolve(self, game: LiveGame) -> bool:
        """Rule on the pending roll if every party's element is in (the lock is held)."""
        pending, ledger = game.pending, game.ledger
        if pending is None or ledger is None:
            return False
        if not rolls.complete(pending, ledger):
            return False
        game.pending = None
        try:
            if pending.raw is None:  # the game's creation (a time-out has no side either)
                event, state = referee.create(
                    ledger,
                    game.scenario,
                    self.ids,
                    pending.elements,
                    request=pending.request,
                    sign=False,
                    without=rolls.without(pending),
                )
            else:
                ruling = await rule_off_loop(
                    referee.rule,
                    ledger,
                    game.state,
                    pending.side,
                    pending.command if pending.command is not None else pending.raw or {},
                    self.ids,
                    pending.request,
                    pending.elements,
                    None,
                    pending.at,
                    rolls.without(pending),
                )
                event, state = referee.seal(
                    ledger, game.state, pending.request, ruling, order=pending.order, sign=False
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
        self, game: LiveGame, pending: Pending, event: Event, state: GameState[Any, Any]
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
        seat = None
        if self.store.shared and pending.side is not None:
            # As the command's seat was checked here (ghillie.server.seats.check): another
            # process may have seated a device since, which the write itself finds out.
            held = game.seats.get(pending.side)
            seat = (pending.side, held.holder if held is not None else None)
        ends = _ends(state)
        append = Append(
            game.game_id,
            game.state.seq,
            [event],
            said,
            resolves=pending.stored,
            seat=seat,
            due=(ends,) if ends != _ends(game.state) else None,
        )
        game.writing = event.seq
        ledger = game.ledger
        assert ledger is not None
        try:
            # The event is hashed, digested and signed on the writer thread, just before the
            # write: the event loop pays for none of it.
            await self.committer.commit(append, lambda: ledger.finish(event))
        except Exception as exc:
            # The ledger has sealed an event that is not stored: start again from the store.
            if isinstance(exc, UnknownGame):
                failure: Exception = unknown_game()
            else:
                if not isinstance(exc, Conflict):
                    log.error("commit failed: %s", where(exc))
                failure = Problem(UNAVAILABLE, "The game could not be saved; try again.")
            self.games.evict(game)
            pending.done.set_exception(failure)
            return
        finally:
            game.writing = -1
        before = game.state.seq
        game.state = state
        game.events.append(event)
        if answer is not None and pending.side is not None and pending.command_id is not None:
            game.answers[(pending.side, pending.command_id)] = answer
        self.fanout.publish(game, before, pending.origin, answer)
        pending.done.set_result(answer or {})

    async def _pull(self, game: LiveGame) -> bool:
        """Catch up with the store (ghillie.server.sync), and rule on the roll it was
        waiting on if every element is now in. True if there were new events."""
        moved, resumed = await self.sync.pull(game)
        if resumed and not await self._resolve(game):
            self.fanout.push_status(game)
        return moved
