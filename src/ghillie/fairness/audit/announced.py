"""The audit's checks of what each event announces beside its ruling: its fairness data in
the form ghillie writes (one contribution and one root for each side), its request opening
to its command, an answer to a timed window saying when it came, and its ruling exactly what
the rules give again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.events import Event, event_to_json
from ghillie.fairness import strict
from ghillie.fairness.audit.report import Report, fail
from ghillie.fairness.commitment import opens
from ghillie.state import Window


def one_each(report: Report, event: Event, sides: tuple[str, ...], missing: list[str]) -> None:
    """The event names every side once among its contributions (or the sides it was drawn
    without, in the sides' order) and its roots."""
    fair = event.fair or {}
    given = [*fair["contributions"], *missing]
    for name, named in (("contributions", given), ("roots", list(fair["roots"]))):
        if sorted(named) != sorted(sides) or (
            missing and missing != sorted(missing, key=sides.index)
        ):
            fail(
                report,
                "record",
                event.seq,
                f"is not in the form ghillie writes (fair.{name}: not one for each side)",
            )


def request(report: Report, game_id: str, event: Event, payload: Any) -> None:
    """The event's roll request opens to its command (to the scenario, for event 0)."""
    fair = event.fair or {}
    salt = bytes.fromhex(fair["private"]["salt"])
    if not opens(fair["request"], "request", game_id, event.side or "", event.seq, payload, salt):
        fail(report, "randomness", event.seq, "the request does not open to this command")


def said_when(report: Report, event: Event, window: Window | None) -> None:
    """Every command given while a timed window is open says when the host had it (the
    replay then holds an answer to the window's end): without it the host could give a side
    extra time. (Since protocol 4.)"""
    timed = window is not None and window.ends is not None
    if timed and event.side is not None and event.at is None:
        fail(report, "time", event.seq, "an answer to a timed window does not say when it came")


def same(report: Report, recorded: Mapping[str, Any], again: Event) -> None:
    """The recorded event (its JSON, as written) is exactly what the rules give again."""
    b = event_to_json(again)
    a = {k: v for k, v in recorded.items() if k != "fair"}
    if strict.same(a, {k: v for k, v in b.items() if k != "fair"}):
        return  # as nearly every event: then no part of it differs either
    for key in ("side", "command", "rolls", "effects", "told"):
        if recorded.get(key) != b.get(key):
            fail(report, "replay", again.seq, f"the rules give different {key} than announced")
    fail(report, "record", again.seq, "it is not in the form ghillie writes its rulings")
