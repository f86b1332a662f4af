"""What the audit found: its report, and how a check stops it at the first problem."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn


@dataclass(frozen=True)
class Finding:
    check: str
    seq: int | None
    message: str

    def __str__(self) -> str:
        where = f"event {self.seq}: " if self.seq is not None else ""
        return f"{self.check}: {where}{self.message}"


@dataclass
class Report:
    game: str = ""
    ruleset: str = ""
    version: int = 0  # the protocol version the record was written under
    events: int = 0
    rolls: int = 0
    openings: int = 0
    receipts: int = 0
    held: list[str] = field(default_factory=list)
    # (side, event): from that event on, the side's rolls use a new dice chain.
    new_chains: list[tuple[str, int]] = field(default_factory=list)
    # (event, side, faces): dice a side typed in, rolled at the table, not drawn from the
    # chains. A record with them passes; the audit says whose word each rests on.
    typed: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    # side -> the events whose command the host gave in its name: the side had no seat key
    # then (played over the bare API without one), so nothing proves the side gave it.
    host_acted: dict[str, list[int]] = field(default_factory=dict)
    # (event, side): rolls drawn without a side's element (its page did not give it in
    # time, or its time ran out): the host and the other sides could have known them.
    missing: list[tuple[int, str]] = field(default_factory=list)
    # (side, event): from that event on, the side's orders are signed with a new seat key
    # (its seat was moved or taken over, or first taken after the game began).
    new_keys: list[tuple[str, int]] = field(default_factory=list)
    # side -> how many of its commands its seat key signed.
    signed: dict[str, int] = field(default_factory=dict)
    over: bool = False
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


class Stop(Exception):
    """The first problem was found: the audit goes no further."""


def fail(report: Report, check: str, seq: int | None, message: str) -> NoReturn:
    report.findings.append(Finding(check, seq, message))
    raise Stop


def cannot_read(exc: Exception) -> str:
    """The finding for a record the audit could not read, naming why."""
    if isinstance(exc, RecursionError):
        why = "it is nested too deeply"
    elif isinstance(exc, OverflowError):
        why = "a number in it is too large"
    else:
        why = type(exc).__name__
    detail = str(exc).splitlines()[0][:200] if str(exc) and type(exc) is ValueError else ""
    return f"the record cannot be read: {why}" + (f" ({detail})" if detail else "")
