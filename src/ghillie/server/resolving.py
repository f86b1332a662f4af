"""Resolving a roll: once every party's element is in (or the game has waited for the pages
as long as it allows), the command it was asked for is ruled on, sealed and committed.

Every caller holds the game's lock. A roll may become complete here (an element given), in
another process on the same database (caught up by :mod:`ghillie.server.sync`) or when its
wait runs out (:mod:`ghillie.server.waits`); each comes through :meth:`Resolving.settle`.
"""

from __future__ import annotations

import logging

from ghillie.errors import Refusal
from ghillie.fairness import referee
from ghillie.ids import IdSource
from ghillie.server import rolls
from ghillie.server.committing import Committing
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games
from ghillie.server.live import LiveGame
from ghillie.server.rulings import rule_off_loop
from ghillie.server.sync import Sync

log = logging.getLogger("ghillie.hub")


class Resolving:
    def __init__(
        self, games: Games, fanout: FanOut, sync: Sync, ids: IdSource, committing: Committing
    ) -> None:
        self.games = games
        self.fanout = fanout
        self.sync = sync
        self.ids = ids
        self.committing = committing

    async def settle(self, game: LiveGame) -> None:
        """Rule on the pending roll if every party's element is in; else every watcher is
        shown whom it still waits for."""
        if not await self.resolve(game):
            self.fanout.push_status(game)

    async def resolve(self, game: LiveGame) -> bool:
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
        await self.committing.commit(game, pending, event, state)
        return True

    async def pull(self, game: LiveGame) -> bool:
        """Catch up with the store (ghillie.server.sync), and rule on the roll it was
        waiting on if every element is now in. True if there were new events."""
        moved, resumed = await self.sync.pull(game)
        if resumed:
            await self.settle(game)
        return moved

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
            await self.settle(game)
