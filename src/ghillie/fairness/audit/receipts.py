"""The audit's check of what the pages kept (check 2): every head and request a page was
shown must be signed by the host key the page kept, which must be the record's, and lie on
the record's chain; what a page was shown of each event must be what the record holds; a page
that held its dice chain must find that chain in the record; and a page that signed its
side's orders must find its key holding that side's seat, and no other key given to it
while the page still followed the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ghillie.events import Event
from ghillie.fairness import strict
from ghillie.fairness.audit.report import Report, fail
from ghillie.fairness.hashlog import (
    SIGNATURE,
    genesis,
    shown_message,
    verify,
    verify_head,
    verify_request,
)
from ghillie.fairness.ledger import Secrets


@dataclass(frozen=True)
class Chain:
    """The record's log as the receipts are held to it: each event's hash, and (since
    protocol 4) each side's digest of what it was shown of it, in the game's side order."""

    game_id: str
    public_key: str
    events: Sequence[Event]
    hashes: Sequence[str]
    shown: Sequence[Sequence[str]]  # empty before protocol 4
    form: type[BaseModel]
    sides: tuple[str, ...]


def check(report: Report, chain: Chain, kept: Any) -> None:
    """One page's receipts (``kept``), against the record's chain."""
    # The key first: receipts that do not say which key signed them (kept by an older page)
    # cannot be checked, and a key other than the record's means the record was signed anew.
    if not isinstance(kept, Mapping) or "key" not in kept:
        fail(
            report,
            "receipts",
            None,
            "a side's receipts do not say which host key signed them, so they cannot be checked",
        )
    if kept["key"] != chain.public_key:
        fail(
            report,
            "receipts",
            None,
            "a side's page kept another host key than this record's: the record was signed anew",
        )
    wrong = strict.problem(chain.form, kept)
    if wrong:
        fail(report, "receipts", None, f"are not in the form a page keeps them ({wrong})")
    for head in kept["heads"]:
        _head(report, chain, head)
    for req in kept["requests"]:
        _request(report, chain, req)


def _head(report: Report, chain: Chain, head: Mapping[str, Any]) -> None:
    seq, digest = head["seq"], head["hash"]
    if not verify_head(chain.public_key, chain.game_id, head):
        fail(report, "receipts", seq, "a side kept a head that the host's key did not sign")
    report.receipts += 1
    if seq >= len(chain.hashes):
        fail(report, "receipts", seq, "a side was shown a signed head the record does not reach")
    if chain.hashes[seq] != digest:
        fail(report, "receipts", seq, "a side was shown a different signed head (two histories)")
    if chain.shown and list(head["shown"]) != list(chain.shown[seq]):
        # The head is the record's, yet the host signed with it another account of what the
        # sides were shown: a page was shown a reveal, say, that the record does not hold.
        # (A list of another length does not verify, so the two lists pair up.)
        side = next(
            s
            for s, a, b in zip(chain.sides, head["shown"], chain.shown[seq], strict=True)
            if a != b
        )
        fail(
            report,
            "receipts",
            seq,
            f"{side} was shown something at event {seq} that the record does not hold",
        )


def _request(report: Report, chain: Chain, req: Mapping[str, Any]) -> None:
    k = req["k"]
    if req["game"] != chain.game_id or not verify_request(chain.public_key, chain.game_id, req):
        fail(report, "receipts", k, "a side kept a roll request the host's key did not sign")
    report.receipts += 1
    hashes, events = chain.hashes, chain.events
    prev = bytes.fromhex(hashes[k - 1]) if 0 < k <= len(hashes) else genesis(chain.game_id)
    if k >= len(events):
        fail(report, "receipts", k, "a roll was requested and never resolved")
    fair = events[k].fair or {}
    if (
        fair.get("request") != req["commitment"]
        or req["prev"] != prev.hex()
        or events[k].side != req["side"]
        or req.get("order", "") != fair.get("order", "")
    ):
        fail(
            report,
            "receipts",
            k,
            "a roll was requested for another command, then resolved for this one (superseded)",
        )


def page_anchors(
    report: Report,
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    anchors: Mapping[str, str],
    sides: tuple[str, ...],
    secrets: Secrets,
    events: list[Event],
) -> None:
    """A page keeps the anchor of the chain it held beside its receipts (and, for a new
    chain, the roll it starts at): the record must roll with that very chain for that side,
    from that roll, and say the page held it. Receipts of no known side must name the
    anchor of some page-held side."""
    used = _used(anchors, sides, events)
    for side, kept in receipts:
        anchor = kept.get("anchor")
        if anchor is None:
            continue
        start = kept.get("chain_from") or 0
        if side is None:
            ok = any((s, start, anchor) in used and s not in secrets.held for s in sides)
        else:
            ok = side in sides and (side, start, anchor) in used and side not in secrets.held
        if not ok:
            fail(
                report,
                "receipts",
                0,
                "a side's page gave another chain than the record uses"
                + (f" ({side})" if side is not None else ""),
            )


def views_v3(
    report: Report,
    game_id: str,
    public_key: str,
    side: str | None,
    kept: Mapping[str, Any],
    views: list[dict[str, str]],
    sides: tuple[str, ...],
) -> None:
    """Protocol 3 and before: a page kept the host's signature on what it was shown of each
    event, with the digest it computed of it: each must verify under the record's key (what
    cannot be checked is not skipped), and the digest must be the record's for that side and
    event. Receipts of no known side are taken as the side whose name the signature verifies
    under."""
    for item in kept.get("shown") or []:
        seq, digest, sig = item["seq"], item["digest"], item["sig"]
        # Of a page's JSON numbers, only whole ones it carries exactly name an event.
        signed = [
            s
            for s in (sides if side is None else (side,))
            if 0 <= seq <= 2**53 - 1
            and verify(public_key, shown_message(game_id, seq, s, bytes.fromhex(digest)), sig)
        ]
        if not SIGNATURE.fullmatch(sig) or not signed:
            fail(
                report,
                "receipts",
                seq,
                "a side kept a view of an event that the host's key did not sign",
            )
        report.receipts += 1
        if not any(seq < len(views) and views[seq].get(s) == digest for s in signed):
            fail(
                report,
                "receipts",
                seq,
                f"{signed[0]} was shown something at event {seq} that the record does not hold",
            )


def _used(
    anchors: Mapping[str, str], sides: tuple[str, ...], events: Sequence[Event]
) -> set[tuple[str, int, str]]:
    """Every chain the record rolls with: (side, its first roll, its anchor)."""
    used = {(s, 0, anchors[s]) for s in sides}
    for event in events:
        chains = (event.fair or {}).get("chains") or {}
        used.update((s, event.seq, a) for s, a in chains.items())
    return used


def owners(
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    anchors: Mapping[str, str],
    sides: tuple[str, ...],
    events: Sequence[Event],
) -> list[tuple[str, Mapping[str, Any]]]:
    """Each page's receipts with the side whose page kept them: as labelled, or for receipts
    of no known side, the side whose chain their anchor names (checked by
    :func:`page_anchors`); receipts that name no chain of their own are left out."""
    used = _used(anchors, sides, events)
    out = []
    for side, kept in receipts:
        if side is None:
            start, anchor = kept.get("chain_from") or 0, kept.get("anchor")
            side = next((s for s in sides if (s, start, anchor) in used), None)
        if side in sides:
            out.append((side, kept))
    return out


def seat(
    report: Report,
    side: str,
    kept: Mapping[str, Any],
    setup: Mapping[str, Any],
    events: Sequence[Event],
) -> None:
    """The seat key a page signs its side's orders with (``receipts.seat``, given when it
    joined the game) must be the one the record says that side's seat held: the set-up's
    (``setup.seats``) for a page that has held its chain since the set-up, one that
    ``fair.keys`` gave it for a page that took the seat over. Else the host registered
    another key (or none) in its name, and gave its orders. And once the record gives the
    side another key, the page that held this one was taken over, and is shown nothing
    more: its receipts of any later event prove it never gave the seat up."""
    key = kept.get("seat")
    if key is None:
        return  # the page made no seat key: its orders are the host's, and it says so
    changes = [(0, setup["seats"].get(side))] + [
        (e.seq, (e.fair or {})["keys"][side])
        for e in events
        if side in ((e.fair or {}).get("keys") or {})
    ]
    # The events from which this page's key held the seat, as the record tells it.
    took_over = bool(kept.get("chain_from"))
    held = [seq for seq, k in changes if k == key and (seq > 0) == took_over]
    if not held:
        fail(
            report,
            "receipts",
            None if took_over else 0,
            f"{side}'s page signs its orders with another key than the record gives {side}'s "
            "seat: the host gave its orders with a key of its own"
            + (" (or as its own word)" if changes[0][1] is None else ""),
        )
    last = max(
        [h["seq"] for h in kept["heads"]] + [o["k"] - 1 for o in kept.get("orders") or []],
        default=-1,
    )
    for seq, k in changes:
        if seq > held[0] and k != key and seq <= last:
            fail(
                report,
                "receipts",
                seq,
                f"{side}'s seat key changes here, yet {side}'s page, which signs with the key "
                f"before, followed the game to event {last}: its seat was never taken over",
            )
