"""The roll request a live game waits on, and how it outlives the process that asked.

A request that asks the sides' pages for their chain elements is stored (``claim_roll``) before
any page is shown it, keyed by (game, k): a restarted process, or another one on the same
PostgreSQL, resumes that very request instead of signing a second one for the same roll —
which every page that kept the first would rightly take for a host trying for another result
("The host asked twice for roll k") and refuse to answer for good. The pages' elements are
stored as they come, and the event that resolves the request clears it in its own write
(``Append.resolves``).

Roll 0's request (a clients game's creation) is not stored: it commits to the scenario and
follows the genesis hash, so it comes out the same whoever asks, however often.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ghillie import clock
from ghillie.errors import ROLL_PENDING, Refusal
from ghillie.fairness.ledger import HOST, Ledger, Order, Request
from ghillie.host import HostCommand
from ghillie.ruleset import Command
from ghillie.scenario import Scenario
from ghillie.store.base import StoredRoll
from ghillie.words import say

log = logging.getLogger("ghillie.rolls")


@dataclass(eq=False)
class Pending:
    """A roll asked for (the game's creation, one side's command, or the host's time-out:
    ``side`` None, ``raw`` its command) and the elements in."""

    request: Request
    side: str | None
    command_id: str | None
    raw: Mapping[str, Any] | None
    elements: dict[str, bytes]
    done: asyncio.Future[dict[str, Any]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    origin: Any = None  # the hub's Watcher the command came by, if any
    stored: bool = False  # claimed in the store: its event's write must clear it
    order: Order | None = None  # the command as its side's seat key signed it
    at: str | None = None  # the host's time it is ruled at, if pinned when it came
    asked: str = field(default_factory=clock.now)  # the host's time it was asked for
    # Sides whose element the roll goes on without: their pages did not give it in time,
    # or (a time-out) their own time ran out.
    excused: set[str] = field(default_factory=set)
    # ``raw`` as the command parsed where it came in (None: resumed from the store, where
    # only ``raw`` is kept, and parsed again when ruled on).
    command: Command | HostCommand | None = None

    def __post_init__(self) -> None:
        # A request resumed after a restart may resolve with nobody waiting for its answer
        # (the command's caller went with the old process): that is no error worth logging.
        self.done.add_done_callback(lambda f: f.cancelled() or f.exception())

    def is_for(self, side: str | None, command_id: str) -> bool:
        return (self.side, self.command_id) == (side, command_id)


def held(ledger: Ledger, k: int) -> dict[str, bytes]:
    """The elements for roll ``k`` the host has at once: its own and any host-held side's."""
    out = {}
    for party in ledger.parties:
        element = ledger.held(party, k)
        if element is not None:
            out[party] = element
    return out


def to_store(pending: Pending) -> StoredRoll:
    """What the store keeps of a request: the pages' elements only (held ones are derived)."""
    return StoredRoll(
        pending.request.k,
        pending.side,
        pending.command_id,
        None if pending.raw is None else dict(pending.raw),
        dataclasses.asdict(pending.request),
        {},
        None if pending.order is None else pending.order.to_json(),
        pending.at,
        pending.asked,
    )


def resume(stored: StoredRoll, ledger: Ledger) -> Pending | None:
    """The pending roll of a stored request, if it is the one this ledger asks for now."""
    request = Request(**stored.request)
    if (
        stored.k != ledger.next_k
        or request.k != stored.k
        or request.prev != ledger.heads.head.hex()
    ):
        # Cleared with its event, a request can never be left behind: this store is not
        # the one the request was made for. Resuming it would ask for the wrong roll.
        log.error("a stored roll request does not follow the game's log")
        return None
    pending = Pending(
        request,
        stored.side,
        stored.command_id,
        stored.command,
        held(ledger, stored.k),
        stored=True,
        order=None if stored.order is None else Order.from_json(stored.order),
        at=stored.at,
        asked=stored.asked or clock.now(),
    )
    merge(pending, stored, ledger)
    return pending


def merge(pending: Pending, stored: StoredRoll, ledger: Ledger) -> None:
    """Take in the elements other processes (or this one before a restart) stored."""
    for party, element in stored.elements.items():
        if party in pending.elements:
            continue
        try:
            given = bytes.fromhex(element)
        except ValueError:
            continue
        if ledger.accepts(party, stored.k, given):  # checked when stored; cheap to redo
            pending.elements[party] = given


def complete(pending: Pending, ledger: Ledger) -> bool:
    return not waiting_for(pending, ledger)


def waiting_for(pending: Pending, ledger: Ledger) -> list[str]:
    """The parties the roll still waits for: not those it goes on without."""
    return [
        party
        for party in ledger.parties
        if party not in pending.elements and party not in pending.excused
    ]


def without(pending: Pending) -> frozenset[str]:
    """The sides the roll is drawn without (excused, and whose element did not come)."""
    return frozenset(pending.excused - set(pending.elements))


def busy(pending: Pending, ledger: Ledger, scenario: Scenario, observer: str | None) -> Refusal:
    """The refusal of a command given while another waits for its dice. It says whose order
    waits and for whom (what every side's status shows anyway), so that a player who gave a
    new order after an outage knows the earlier one is still coming, not lost."""
    names: list[Any] = []
    for party in waiting_for(pending, ledger):
        if party == HOST:
            names.append(say("the host"))
        elif party == observer:
            names.append(say("this side's page ({side})", side=scenario.side_name(party)))
        else:
            names.append(scenario.side_name(party))
    whom: Any = names if names else say("nobody: it is being ruled on")
    k = pending.request.k
    if pending.side == observer:
        return Refusal(
            ROLL_PENDING,
            say(
                "Your earlier order is still waiting for the dice of {whom} (roll {k}); it "
                "goes ahead once they are in. Give this order after it.",
                whom=whom,
                k=k,
            ),
        )
    if pending.side is None and pending.raw is None:
        return Refusal(
            ROLL_PENDING, say("The game's first roll is waiting for the dice of {whom}.", whom=whom)
        )
    if pending.side is None and (pending.raw or {}).get("type") == "extend":
        return Refusal(
            ROLL_PENDING,
            say(
                "Roll {k} is waiting for the dice of {whom}, for the host's extension of the "
                "time to answer after it was down. Give yours once it is through.",
                whom=whom,
                k=k,
            ),
        )
    if pending.side is None:
        return Refusal(
            ROLL_PENDING,
            say(
                "Roll {k} is waiting for the dice of {whom}, for the host's answer for a side "
                "whose time ran out. Give yours once it is through.",
                whom=whom,
                k=k,
            ),
        )
    return Refusal(
        ROLL_PENDING,
        say(
            "Roll {k} is waiting for the dice of {whom}, for an order {side} gave. Give yours "
            "once it is through.",
            whom=whom,
            k=k,
            side=scenario.side_name(pending.side),
        ),
    )
