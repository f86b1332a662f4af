"""The audit's check of the time a side had to answer (protocol 4), from what its page kept.

The host keeps the time, so a host that bends a timed window does it with its own clock:
it can date the event that opened a window back (the page is shown less time than the
limit), or hold a side's answer back until its own time-out (the answer is then refused as
late, or never carried out). The record alone cannot show either: its times are the host's.
What shows them is the page's own account, kept beside its receipts: each timed window as it
reached the page (how long the host said was left, and when it came by the page's clock) and
each order it sent (when, by the same clock, and the refusal's code if one came back). The
network and the host's own work get an allowance (:data:`ALLOWANCE_MS`); past it, the page's
account is a finding.

An order is one command id: a page that is told its order is stale signs it again for the
next roll under the same id (another roll, another digest), so the attempts of one id stand
or fall together. An order the host carried out (any attempt) was not held back; nor was
one the rules refused for anything but the time, as the page kept it (``refused``): a player
who gives something else while the window waits, the end of the game say, has given no
answer the host could hold back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ghillie import clock
from ghillie.errors import STALE_ORDER, TIME_UP, WINDOW_CLOSED
from ghillie.events import Event
from ghillie.fairness.audit.report import Report, fail

# The pages' allowance too (fairplay.js): a message may spend a second or two on a phone's
# network and in the host's queue, each way; an honest host is never accused unless the
# network held a message longer than this, and a host gains at most this much unseen.
ALLOWANCE_MS = 3000

# Refusals that say the time was up (or the order must be signed again for a later roll):
# the ones a host that held an answer back would give it. Any other code is the rules'.
_NOT_THE_RULES = frozenset({TIME_UP, WINDOW_CLOSED, STALE_ORDER})


def check(
    report: Report, side: str | None, kept: Mapping[str, Any], events: Sequence[Event]
) -> None:
    """Hold the record to what ``side``'s page kept of its timed windows and its orders
    (``side`` None: receipts of no known side)."""
    carried_digests = {(e.fair or {}).get("order") for e in events}
    carried_ids = {_signed_id(e) for e in events if side is None or e.side == side} - {None}
    timed_out = {
        (e.command or {}).get("window"): e.seq
        for e in events
        if e.side is None and e.seq > 0 and (e.command or {}).get("type") == "time_out"
    }
    attempts: dict[str, list[Mapping[str, Any]]] = {}
    for order in kept.get("orders") or []:
        attempts.setdefault(order["id"], []).append(order)
    waiting = [
        order
        for command_id, tries in attempts.items()
        if command_id not in carried_ids
        and not any(o["digest"] in carried_digests for o in tries)
        and not any(o.get("refused") not in (None, *_NOT_THE_RULES) for o in tries)
        for order in tries
    ]
    name = side or "a side"
    for window in kept.get("windows") or []:
        seq, limit, left = window["seq"], window["limit"], window["left"]
        if window["live"] and window["asked"] and left < limit * 1000 - ALLOWANCE_MS:
            fail(
                report,
                "time",
                seq,
                f"the window this event opened reached {name}'s page with {left / 1000:.1f} s "
                f"of its {limit} s left",
            )
        ends = window["received"] + left  # the window's end, by the page's clock
        for order in waiting:
            sent_in_time = ends - order["sent"] > ALLOWANCE_MS and order["k"] > seq
            if sent_in_time and seq in timed_out and order["k"] <= timed_out[seq]:
                fail(
                    report,
                    "time",
                    timed_out[seq],
                    f"{name}'s page sent an order with {(ends - order['sent']) / 1000:.1f} s "
                    f"of its {limit} s left, yet the host answered for it when its time ran out",
                )


def outages(report: Report, events: Sequence[Event]) -> None:
    """Each extension of a timed window (ghillie.host) claims the host was down from its
    ``since`` until it ruled the extension, and moves the window's end on by that much (the
    replay checks the arithmetic). The claim is held to the record: a host that ruled an
    event after ``since`` was not down then, and would have given the awaited side time it
    never lost."""
    last: datetime | None = None
    for event in events:
        command = event.command or {}
        if event.side is None and event.seq > 0 and command.get("type") == "extend":
            try:
                since = clock.parse(command["since"])
            except (KeyError, TypeError, ValueError):
                since = None  # not a command the host gives: the replay names it
            if since is not None and last is not None and since < last:
                fail(
                    report,
                    "time",
                    event.seq,
                    f"it extends a window for an outage from {clock.stamp(since)}, yet the "
                    f"host ruled an event at {clock.stamp(last)}",
                )
        if event.at is not None:
            with contextlib.suppress(ValueError):
                at = clock.parse(event.at)
                last = at if last is None else max(last, at)


def _signed_id(event: Event) -> str | None:
    """The command id of the signed order ``event`` carried out (None: none)."""
    order = ((event.fair or {}).get("private") or {}).get("order")
    return order["id"] if isinstance(order, Mapping) else None
