"""The audit's check of the commitments (check 5): every opening shown at a reveal checks
against the root it names, one of a fact the rules fix once written against the root of the
event that wrote it too; and facts are written as ghillie writes them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ghillie.events import Event
from ghillie.fairness.audit.report import Report, fail
from ghillie.fairness.facts import Facts


def opening(
    report: Report,
    game_id: str,
    events: list[Event],
    seq: int,
    to: str,
    opening: dict[str, Any],
    size: int,
    facts: Facts,
    check_opening: Callable[..., bool],
) -> None:
    """One opening shown at event ``seq`` checks against the root it names, and one of a
    fixed fact against the root of the event that wrote it too (which only such an opening
    names, and which is no later than the first)."""

    def root(at: Any) -> str:
        fair = events[at].fair if type(at) is int and 0 <= at < len(events) else None
        return str(fair["roots"].get(opening["side"], "")) if fair else ""

    written = opening.get("written")
    if not check_opening(
        game_id,
        {k: v for k, v in opening.items() if k != "written"},
        root(opening["root_seq"]),
        size,
    ):
        fail(
            report, "commitments", seq, f"an opening shown to {to} does not check against its root"
        )
    fixed = opening["key"] in facts.fixed
    if written is None and fixed:
        fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} does not say when its fact, which never changes, "
            "was written",
        )
    if written is None:
        return
    if not fixed:
        fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} says when a fact was written that the rules may change",
        )
    # (Its form, an int, is the strict check's: a record of another form never gets here.)
    if written["seq"] > opening["root_seq"]:
        fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} says its fact was written after the root it opens against",
        )
    if not check_opening(game_id, opening, root(opening["root_seq"]), size, root(written["seq"])):
        fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} does not check against the root of the event that "
            "wrote its fact",
        )


def slots(report: Report, facts: Facts, event: Event) -> None:
    """Facts are written as ghillie writes them: with seq 0, a rewrite in its own slot, a new
    fact in a free one, and a fact the rules fix once written never again. A fact moved
    elsewhere would leave its old commitment behind as a leaf nobody can tell from the
    rest, a second commitment to the same fact."""
    # Each written side's slots, read where it is first written: most events write none.
    where: dict[str, dict[tuple[str, str], int]] = {}
    for fact in (event.fair or {})["private"]["facts"]:
        if fact["seq"] != 0:
            fail(report, "record", event.seq, "a fact is committed with a seq other than 0")
        roster = facts.rosters.get(fact["side"])
        if roster is None:
            continue  # not a side: restore names it
        if fact["side"] not in where:
            where[fact["side"]] = {name: w.slot for name, w in roster.slots.items()}
        mine = where[fact["side"]]
        name, slot = (fact["piece"], fact["key"]), fact["slot"]
        if name in mine and fact["key"] in facts.fixed:
            fail(
                report,
                "commitments",
                event.seq,
                "a fact the rules fix once written is written again",
            )
        if name in mine:
            if mine[name] != slot:
                fail(report, "commitments", event.seq, "a rewritten fact moves to another slot")
        elif slot in mine.values():
            fail(report, "commitments", event.seq, "two facts are committed in one slot")
        mine[name] = slot
