"""Across server processes: catching a game's copy here up with what others wrote.

Several server processes may share one PostgreSQL database. A process whose copy of a game
is behind finds out when its write clashes (optimistic concurrency), catches up from the
database and rules again; it learns of other processes' events for the games its clients
watch from PostgreSQL's NOTIFY (a wake-up only: events are always read from the database,
ghillie.server.notify) and from a poll every few seconds as a safety net.
"""

from __future__ import annotations

from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.ledger import Ledger
from ghillie.fold import fold
from ghillie.server import rolls
from ghillie.server.calls import io, stored
from ghillie.server.fanout import FanOut
from ghillie.server.games import Games
from ghillie.server.live import LiveGame
from ghillie.server.problems import UNAVAILABLE, Problem
from ghillie.store.base import EventStore


class Sync:
    def __init__(self, store: EventStore, games: Games, fanout: FanOut) -> None:
        self.store = store
        self.games = games
        self.fanout = fanout

    async def catch_up(self, game: LiveGame) -> bool:
        """Read what other processes wrote to this game; True if there was anything (the
        game's lock is held)."""
        newer = await io(self.store.events, game.game_id, game.state.seq)
        if not newer:
            return False
        answers = await io(self.store.answers, game.game_id, game.state.seq)
        before = game.state.seq
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
                game.state = fold(game.state, event)
                game.events.append(event)
        for answer in answers:
            game.answers.add(answer.observer, answer.command_id, answer.seq, answer.body)
        self.fanout.publish(game, before)
        return True

    async def pull(self, game: LiveGame) -> tuple[bool, bool]:
        """Catch up with the store: other processes' events, and the roll request one of
        them (or this one before a restart) is waiting on, with the elements in so far, as
        ``game.pending`` (the lock is held). Whether there were new events, and whether a
        stored request now stands as ``game.pending`` (the caller rules on it if every
        element is in)."""
        moved = await self.catch_up(game)
        ledger = game.ledger
        if ledger is None or (game.pending is not None and not game.pending.stored):
            return moved, False  # roll 0, or a roll ruled at once: never stored
        found = await stored(self.store.pending_roll, game.game_id)
        if found is None or found.k != ledger.next_k:
            return moved, False
        if game.pending is None:
            game.pending = rolls.resume(found, ledger)
        elif game.pending.request.k == found.k:
            rolls.merge(game.pending, found, ledger)
        return moved, game.pending is not None

    async def refresh(self, game_id: str) -> None:
        """Another process wrote to this game (NOTIFY, or the poll): catch up if it is here."""
        game = self.games.get(game_id)
        if game is None or not game.watchers:
            return
        async with game.lock:
            await self.catch_up(game)

    def behind(self, game_id: str, seq: int) -> bool:
        """Is this process's copy of a game someone is watching older than ``seq``?"""
        game = self.games.get(game_id)
        if game is None or not game.watchers:
            return False
        return max(game.state.seq, game.writing) < seq
