"""A game held in this process: its state, log and answers, its lock, who watches it, and
where its roll protocol stands (the same for every observer).

Everything else in the server reads and changes games through this data; nothing here calls
out (no store, no pushes), so every other part may import it and it imports none of them.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ghillie import clock
from ghillie.errors import OLD_PROTOCOL, Refusal
from ghillie.fairness.hashlog import HostKey
from ghillie.fairness.ledger import Ledger
from ghillie.scenario import Scenario
from ghillie.server.answered import Answered
from ghillie.server.eventlog import EventLog
from ghillie.server.outbox import Outbox
from ghillie.server.rolls import Pending, waiting_for, without
from ghillie.state import GameState
from ghillie.store.base import Seat
from ghillie.view import spoken
from ghillie.words import say, speaker

QUEUE_SIZE = 64  # updates a connection may fall behind by before it is dropped


@dataclass(eq=False, slots=True)  # each connection is its own watcher, compared by identity
class Watcher:
    """One connection watching a game as one observer."""

    observer: str
    lang: str = "en"  # the language its views are spoken in (ghillie.words)
    queue: Outbox[dict[str, Any] | None] = field(default_factory=lambda: Outbox(QUEUE_SIZE))
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
    state: GameState[Any, Any]
    events: EventLog  # the tail in memory, the rest read back from the store
    answers: Answered  # every command id's; the last answers whole, the rest read back
    header: Mapping[str, Any]
    ledger: Ledger | None  # None until every side's page has given its anchor
    anchors: dict[str, str] = field(default_factory=dict)  # given so far, before the start
    keys: dict[str, str] = field(default_factory=dict)  # seat keys given before the start
    pending: Pending | None = None
    lock: GameLock = field(default_factory=GameLock)
    used: float = field(default_factory=time.monotonic)  # last asked for: the LRU order
    watchers: set[Watcher] = field(default_factory=set)
    writing: int = -1  # the seq being committed now: its NOTIFY may come back before it is done
    # What each (observer, language) was last shown, without its log: updates are diffs.
    shown: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    # And the parts of it last put into words, as the rules drew them (view.project_update).
    spoken: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    seats: dict[str, Seat] = field(default_factory=dict)  # taken seats, by side
    # The fairness protocol of a game set up under an earlier one, which this ghillie shows
    # and gives the record of but does not go on with; None for a game of this protocol.
    archived: Any = None
    visits: dict[str, list[str]] = field(default_factory=dict)  # others opening a taken seat

    def idle(self) -> bool:
        """May this game be dropped from memory now? Not while anyone watches it, a roll
        waits for contributions, a command holds or waits for its lock, or a write is under
        way."""
        return (
            not self.watchers
            and self.pending is None
            and self.lock.users == 0
            and not self.lock.locked()
            and self.writing == -1
        )


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
    if game.archived is not None:
        out["archived"] = game.archived
        return out
    # The host's time now, in every status: a page counts a timed window down from how long
    # the host says is left (its own clock may be set otherwise), reckons the host's clock
    # from the least delayed view, and holds a window's start to the host's earlier word that
    # the game had not reached it yet (fairplay.js).
    out["now"] = clock.now()
    if game.ledger is None:
        out["joining"] = [side for side in game.state.sides if side not in game.anchors]
        out["keys"] = {side: game.keys.get(side) for side in game.state.sides}
    else:
        # The key each side's orders must be signed with now (None: the host gives them).
        k = game.ledger.next_k
        out["keys"] = {side: game.ledger.key_for(side, k) for side in game.state.sides}
    if game.ledger is not None and game.ledger.fresh:
        # A side's new dice chain (its seat moved, or its device was lost), from roll k on:
        # every page is told before that roll is given.
        out["new_chains"] = [{"side": s, "from": k} for s, (_, k) in game.ledger.fresh.items()]
    if game.pending is not None and game.ledger is not None:
        out["request"] = game.pending.request.public(game.game_id)
        out["waiting"] = waiting_for(game.pending, game.ledger)
        until = wait_until(game)
        if until is not None and out["waiting"]:
            # When the roll stops waiting for the pages (waits.py): the table screen and the
            # pages say whom to wake, and for how long the game still waits for them.
            out["until"] = until
        gone = without(game.pending)
        if gone:
            # The roll goes on without these sides' elements (their pages were away).
            out["without"] = sorted(gone, key=game.state.sides.index)
    return out


def wait_until(game: LiveGame) -> str | None:
    """The host's time at which the pending roll goes on without the pages' elements still
    missing (its time asked plus the game's ``wait_for_pages``, as :class:`Waits` times it);
    None if no roll waits or the game waits for ever."""
    wait = game.header["fair"].get("wait")
    if game.pending is None or not isinstance(wait, int):
        return None
    return clock.later(game.pending.asked, wait)


@functools.lru_cache(maxsize=1024)
def _public_key(private: str) -> str:
    return HostKey.from_bytes(bytes.fromhex(private)).public


def spoken_answer(
    answer: dict[str, Any], scenario: Scenario, lang: str, log: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """A command's answer (kept as data, with the acting side's own lines) in words. An
    entry of ``log`` (the update the answer rides in, in the same language) with the same
    lines has them in words already."""
    for entry in log:
        if entry.get("seq") == answer["seq"] and entry.get("lines") == answer["lines"]:
            return {**answer, "said": entry["said"]}
    words = speaker(scenario.ruleset, lang)
    return {**answer, "said": [spoken(line, words, scenario) for line in answer["lines"]]}


def with_status(game: LiveGame, view: dict[str, Any]) -> dict[str, Any]:
    """A view with the roll protocol's status; before the game starts, no commands."""
    view["fairness"] = status(game)
    if (game.ledger is None or game.archived is not None) and "commands" in view:
        view["commands"] = []  # nothing can be given before the game starts
        view["your_move"] = False
    return view
