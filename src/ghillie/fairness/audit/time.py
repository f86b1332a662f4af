"""The audit's check of the time a side had to answer (protocol 4), from what its page kept.

The host keeps the time, so a host that bends a timed window does it with its own clock:
it can date the event that opened a window back (the page is shown less time than the
limit), or hold a side's answer back until its own time-out (the answer is then refused as
late, or never carried out). The record alone cannot show either: its times are the host's.
What shows them is the page's own account, kept beside its receipts: each timed window as it
reached the page (how long the host said was left, and when it came by the page's clock) and
each order it sent (when, by the same clock). The network and the host's own work get an
allowance (:data:`ALLOWANCE_MS`); past it, the page's account is a finding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.events import Event
from ghillie.fairness.audit.report import Report, fail

ALLOWANCE_MS = 3000  # the pages' allowance too (fairplay.js): the network and the host's work


def check(report: Report, side: str, kept: Mapping[str, Any], events: Sequence[Event]) -> None:
    """Hold the record to what ``side``'s page kept of its timed windows and its orders."""
    carried = {(e.fair or {}).get("order") for e in events}
    timed_out = {
        (e.command or {}).get("window"): e.seq
        for e in events
        if e.side is None and e.seq > 0 and (e.command or {}).get("type") == "time_out"
    }
    for window in kept.get("windows") or []:
        seq, limit, left = window["seq"], window["limit"], window["left"]
        if window["live"] and window["asked"] and left < limit * 1000 - ALLOWANCE_MS:
            fail(
                report,
                "time",
                seq,
                f"the window this event opened reached {side}'s page with {left / 1000:.1f} s "
                f"of its {limit} s left",
            )
        ends = window["received"] + left  # the window's end, by the page's clock
        for order in kept.get("orders") or []:
            sent_in_time = ends - order["sent"] > ALLOWANCE_MS and order["k"] > seq
            if (
                sent_in_time
                and order["digest"] not in carried
                and seq in timed_out
                and order["k"] <= timed_out[seq]
            ):
                fail(
                    report,
                    "time",
                    timed_out[seq],
                    f"{side}'s page sent an order with {(ends - order['sent']) / 1000:.1f} s "
                    f"of its {limit} s left, yet the host answered for it when its time ran out",
                )
