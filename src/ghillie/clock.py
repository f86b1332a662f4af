"""Wall-clock times as the record keeps them: ISO 8601 in UTC, to the millisecond.

The engine never reads a clock. A ruling that needs the time (a reaction window with a time
limit opens, or its time runs out) is given it, like its dice, and its event records it
(``Event.at``), so that a replay and the audit rule with the very time the host ruled at.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now() -> str:
    """The host's time now, as an event records it."""
    return stamp(datetime.now(UTC))


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def parse(at: str) -> datetime:
    """A recorded time. Raises ValueError for anything but an ISO 8601 time with its zone."""
    moment = datetime.fromisoformat(at)
    if moment.tzinfo is None:
        raise ValueError("a recorded time names its zone")
    return moment


def later(at: str, seconds: float) -> str:
    """The time ``seconds`` after ``at``."""
    return stamp(parse(at) + timedelta(seconds=seconds))
