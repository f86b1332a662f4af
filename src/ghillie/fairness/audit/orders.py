"""The audit's check of who gave each command (protocol 4): a side's command carries its
seat key's signature, over the command exactly as sent, for that roll; the roll request
quoted that signature's digest; and a command a side gave with no seat key is named as the
host's ("host-acted"), never passed off as the side's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.events import Event
from ghillie.fairness.audit.report import Report, fail
from ghillie.fairness.hashlog import order_digest, order_message
from ghillie.fairness.signatures import Signatures


def seats(report: Report, setup: Mapping[str, Any], sides: tuple[str, ...]) -> dict[str, Any]:
    """Each side's seat key at the start of the game (None: none yet)."""
    keys = dict(setup["seats"])
    if sorted(keys) != sorted(sides):
        fail(report, "record", 0, "its set-up does not name one seat for each side")
    return keys


def check(
    report: Report,
    game_id: str,
    event: Event,
    keys: dict[str, Any],
    queued: Signatures,
) -> Mapping[str, Any] | None:
    """Hold ``event``'s command to its side's seat key (``keys``, updated here with the
    event's new keys). Gives the command to rule on again: the one its side signed, exactly
    as sent, so that the replay proves the recorded command is the signed one."""
    fair = event.fair or {}
    for side, key in (fair.get("keys") or {}).items():
        if event.seq == 0 or side not in keys:
            fail(report, "record", event.seq, f"it gives a seat key to {side} here")
        keys[side] = key
        report.new_keys.append((side, event.seq))
    signed = fair["private"].get("order")
    side = event.side
    if side is None or event.seq == 0:
        # The game's creation and the host's time-out are the host's own commands.
        if signed is not None or "order" in fair:
            fail(report, "orders", event.seq, "the host's own command carries a side's order")
        return event.command
    key = keys.get(side)
    if key is None:
        if signed is not None or "order" in fair:
            fail(report, "orders", event.seq, f"{side} has no seat key, yet signed this order")
        report.host_acted.setdefault(side, []).append(event.seq)
        return event.command
    if signed is None:
        fail(
            report,
            "orders",
            event.seq,
            f"{side}'s command was not signed by the device that held its seat: the host gave it",
        )
    if fair.get("order") != order_digest(signed["sig"]):
        fail(report, "orders", event.seq, "the roll was requested for another order than this one")
    queued.check(
        key,
        order_message(game_id, event.seq, side, signed["id"], signed["command"]),
        signed["sig"],
        (
            "orders",
            event.seq,
            f"{side}'s command was not signed by the device that held its seat: the host gave it",
        ),
    )
    report.signed[side] = report.signed.get(side, 0) + 1
    command: Mapping[str, Any] = signed["command"]
    return command
