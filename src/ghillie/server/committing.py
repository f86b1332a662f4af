"""Committing a ruled, sealed event: written with its answer through the group committer,
and only once that transaction has committed is the state advanced, the command
acknowledged and the update pushed to the sides watching.

A write that fails leaves the ledger ahead of the store (it sealed an event that is not
stored): the game is forgotten here and loaded again from the store when next asked for.
"""

from __future__ import annotations

import logging
from typing import Any

from ghillie.events import Event
from ghillie.server.committer import GroupCommitter
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games
from ghillie.server.live import LiveGame
from ghillie.server.problems import UNAVAILABLE, Problem, unknown_game, where
from ghillie.server.rolls import Pending
from ghillie.state import GameState
from ghillie.store.base import Answer, Append, Conflict, EventStore, UnknownGame

log = logging.getLogger("ghillie.hub")


def _ends(state: GameState[Any, Any]) -> str | None:
    """When the state's open timed reaction window ends (None: none is open)."""
    window = state.window
    return window.ends if window is not None and window.awaiting is not None else None


class Committing:
    def __init__(self, store: EventStore, games: Games, fanout: FanOut) -> None:
        self.store = store
        self.games = games
        self.fanout = fanout
        self.committer = GroupCommitter(store)

    def close(self) -> None:
        self.committer.close()

    async def commit(
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
            game.answers.add(pending.side, pending.command_id, event.seq, answer)
        self.fanout.publish(game, before, pending.origin, answer)
        pending.done.set_result(answer or {})
