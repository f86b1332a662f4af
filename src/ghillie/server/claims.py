"""Claiming a roll's request in the store before any page is shown it.

The store is the one place every process (and this one after a restart) agrees on: the
request for roll ``k`` is claimed there, one row per (game, k), and the first claim stands.
A process that finds another request stored for its roll drops its own (never shown to
anyone) and resumes the stored one, so an honest host never asks twice for one roll
(:mod:`ghillie.server.rolls`).
"""

from __future__ import annotations

from ghillie.fairness.ledger import Ledger
from ghillie.server import calls, rolls
from ghillie.server.live import LiveGame
from ghillie.server.problems import UNAVAILABLE, Problem
from ghillie.server.resolving import Resolving
from ghillie.server.rolls import Pending
from ghillie.store.base import Conflict, EventStore


class Claims:
    def __init__(self, store: EventStore, resolving: Resolving) -> None:
        self.store = store
        self.resolving = resolving

    async def claim(self, game: LiveGame, pending: Pending, ledger: Ledger) -> Pending | None:
        """Claim ``pending``'s request in the store: the roll asked for now, this one or one
        stored before it (None: this process was behind, rule again on the latest)."""
        mine = rolls.to_store(pending)
        try:
            stored = await calls.stored(self.store.claim_roll, game.game_id, mine)
        except Conflict:
            moved = await self.resolving.pull(game)  # behind: another process ruled on this roll
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
        await self.resolving.settle(game)
        return asked
