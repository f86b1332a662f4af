"""What the sides' pages give the roll protocol: each page's chain anchor before the game
starts (and the seat key it will sign its orders with), the anchor of the chain that
follows one running out, and its chain element for each roll asked for.

A game whose pages hold their chains starts only once every page has given its anchor; a
roll is ruled on once every party's element is in (:mod:`ghillie.server.resolving`).
"""

from __future__ import annotations

import re
from typing import Any

from ghillie.errors import ANCHOR_FIXED, BAD_CONTRIBUTION, NO_ROLL_PENDING, UNKNOWN_SIDE, Refusal
from ghillie.fairness import referee
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.ledger import Ledger, RandomBytes, Secrets
from ghillie.server import calls, rolls
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games
from ghillie.server.live import LiveGame, refuse_archived, status
from ghillie.server.problems import Problem
from ghillie.server.resolving import Resolving
from ghillie.server.rolls import Pending
from ghillie.server.seats import signing_key
from ghillie.store.base import EventStore

_HEX32 = re.compile("[0-9a-f]{64}")


def _chain_of(game: LiveGame, observer: str) -> None:
    """Refuse a chain's anchor or element of anyone but a side of a game this server goes
    on with."""
    if observer not in game.state.sides:
        raise Refusal(UNKNOWN_SIDE, "Only a side has a roll chain.")
    refuse_archived(game)


def _anchor_hex(anchor: Any) -> None:
    if not isinstance(anchor, str) or not _HEX32.fullmatch(anchor):
        raise Refusal(BAD_CONTRIBUTION, "An anchor is 32 bytes in lowercase hex.")


class Contributions:
    def __init__(
        self,
        store: EventStore,
        games: Games,
        fanout: FanOut,
        resolving: Resolving,
        random_bytes: RandomBytes,
    ) -> None:
        self.store = store
        self.games = games
        self.fanout = fanout
        self.resolving = resolving
        self.random_bytes = random_bytes

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
                self._begin(game)
            self.fanout.push_status(game)
            return status(game)

    def _begin(self, game: LiveGame) -> None:
        """Every page has given its anchor: the game's ledger is made, and roll 0 (the
        game's creation) asked for."""
        kept = Secrets.from_json(game.header["fair"])
        ledger = Ledger(
            game.game_id,
            game.state.sides,
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
        # Roll 0 is not stored (ghillie.server.rolls): its request is the same whoever asks,
        # and the anchors are given again after a restart.
        game.pending = Pending(request, None, None, None, rolls.held(ledger, request.k))

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
                # Another process may have asked for (or ruled on) it.
                await self.resolving.pull(game)
                pending = game.pending
            if pending is None or game.ledger is None or pending.request.k != k:
                raise Refusal(NO_ROLL_PENDING, "No roll is waiting for that contribution.")
            if not isinstance(element, str) or not _HEX32.fullmatch(element):
                raise _not_the_next_link()
            given = bytes.fromhex(element)
            if observer in pending.elements:
                if pending.elements[observer] == given:
                    return status(game)
                raise _not_the_next_link()
            if not game.ledger.accepts(observer, k, given):
                raise _not_the_next_link()
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
                        await self.resolving.pull(game)
                        return status(game)
                    rolls.merge(pending, stored, game.ledger)
            await self.resolving.settle(game)
            return status(game)


def _not_the_next_link() -> Refusal:
    # The detail is written out where it is raised: the catalogue's extraction reads the
    # words of a Refusal from its call (ghillie.words.extract), not from a constant.
    return Refusal(BAD_CONTRIBUTION, "That is not the next link of your roll chain.")
