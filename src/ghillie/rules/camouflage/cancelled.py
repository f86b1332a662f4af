"""Why each die of a Face to Face Roll stands or not, in the players' words (INF-T01 d).

The rules the judge (``checks.face_to_face``) applies, told die by die: a die above its
Success Value fails; a success cancels every success of the opponent that is lower or equal
(so a tie cancels both); a Critical cancels every success of the opponent that is not a
Critical; and Criticals on both sides cancel each other (``inf.critical_clash``: or both
stand). A success of one side stands when it is above every success of the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ghillie.words import Say, say, says

from .checks import CRITICAL, FAILED, CriticalClash, die_result


@dataclass(frozen=True)
class Side:
    """One side of a Face to Face Roll: who rolls, its dice as rolled, its Success Value."""

    name: Say | str
    dice: Sequence[int]
    value: int

    def results(self) -> list[tuple[int, int]]:
        return [(face, die_result(face, self.value)) for face in self.dice]

    def failed(self) -> list[int]:
        return [face for face, result in self.results() if result == FAILED]

    def criticals(self) -> list[int]:
        return [face for face, result in self.results() if result == CRITICAL]

    def successes(self) -> list[tuple[int, int]]:
        """Its successes that are not Criticals: (face, result)."""
        return [(f, r) for f, r in self.results() if r not in (FAILED, CRITICAL)]

    def best(self) -> tuple[int, int] | None:
        """Its highest success that is not a Critical, (face, result), if any."""
        return max(self.successes(), key=lambda fr: fr[1], default=None)


@dataclass(frozen=True)
class Fates:
    """What became of one side's dice: by face, in the order rolled."""

    failed: list[int]
    criticals_stand: list[int]
    criticals_cancelled: list[int]  # by the other side's Criticals
    stand: list[int]
    by_critical: list[int]  # its successes a Critical of the other side cancels
    tied: list[int]  # its best successes, equal to the other side's best: both cancelled
    beaten: list[int]  # its successes the other side's best success cancels

    @property
    def hits(self) -> int:
        return len(self.criticals_stand) + len(self.stand)


def fates(mine: Side, theirs: Side, clash: CriticalClash) -> Fates:
    """What became of ``mine``'s dice against ``theirs``: the same reading as the judge."""
    their_crits = bool(theirs.criticals())
    crits = mine.criticals()
    clashed = their_crits and clash is CriticalClash.CANCEL
    their_best = theirs.best()
    my_best = mine.best()
    top = their_best[1] if their_best else 0
    tie = my_best is not None and their_best is not None and my_best[1] == top
    stand, by_critical, tied, beaten = [], [], [], []
    for face, result in mine.successes():
        if their_crits:
            by_critical.append(face)
        elif result > top:
            stand.append(face)
        elif tie and result == top:
            tied.append(face)
        else:
            beaten.append(face)
    return Fates(
        mine.failed(),
        [] if clashed else crits,
        crits if clashed else [],
        stand,
        by_critical,
        tied,
        beaten,
    )


def _dice(faces: Sequence[int]) -> str:
    return ", ".join(map(str, faces))


def _reasons(mine: Side, theirs: Side, fate: Fates) -> dict[str, Say]:
    """Why ``mine``'s dice came to what they did, a sentence for each kind of reason."""
    out: dict[str, Say] = {}
    if mine.value > 20:
        out["adds"] = say(
            "{who} adds {n} to each die: its Success Value is over 20.",
            who=mine.name,
            n=mine.value - 20,
        )
    if fate.failed:
        out["failed"] = says(
            "{who}'s {dice} fails.",
            "{who}'s {dice} fail.",
            len(fate.failed),
            who=mine.name,
            dice=_dice(fate.failed),
        )
    if fate.criticals_stand:
        out["critical"] = says(
            "{who}'s {dice} is a Critical and stands.",
            "{who}'s {dice} are Criticals and stand.",
            len(fate.criticals_stand),
            who=mine.name,
            dice=_dice(fate.criticals_stand),
        )
    if fate.by_critical:
        out["by_critical"] = say(
            "{other}'s Critical cancels {who}'s {dice}: a Critical cancels every success "
            "that is not one.",
            other=theirs.name,
            who=mine.name,
            dice=_dice(fate.by_critical),
        )
    their_best = theirs.best()
    if fate.beaten and their_best is not None:
        out["beaten"] = say(
            "{other}'s {best} cancels {who}'s {dice}: a success cancels every lower or "
            "equal success of the other side.",
            other=theirs.name,
            best=their_best[0],
            who=mine.name,
            dice=_dice(fate.beaten),
        )
    if fate.stand and their_best is not None:
        out["stand"] = says(
            "{who}'s {dice} beats {other}'s best success, {best}, cancels it and stands.",
            "{who}'s {dice} beat {other}'s best success, {best}, cancel it and stand.",
            len(fate.stand),
            who=mine.name,
            dice=_dice(fate.stand),
            other=theirs.name,
            best=their_best[0],
        )
    elif fate.stand:
        out["stand"] = says(
            "{who}'s {dice} stands: {other} rolls no success to cancel it.",
            "{who}'s {dice} stand: {other} rolls no success to cancel them.",
            len(fate.stand),
            who=mine.name,
            dice=_dice(fate.stand),
            other=theirs.name,
        )
    return out


ORDER = ("adds", "failed", "clash", "critical", "tie", "by_critical", "beaten", "stand")


def explain(a: Side, b: Side, clash: CriticalClash) -> Say:
    """Why a Face to Face Roll came out as it did: every die of both sides, in sentences
    (what failed, what cancelled what, what stands)."""
    fa, fb = fates(a, b, clash), fates(b, a, clash)
    ra, rb = _reasons(a, b, fa), _reasons(b, a, fb)
    # A success that stands says it beat the other side's best: all of theirs are cancelled.
    for stands, other in ((fa, rb), (fb, ra)):
        if stands.stand:
            other.pop("beaten", None)
    both: dict[str, Say] = {}
    if fa.criticals_cancelled:
        both["clash"] = say(
            "{a}'s Critical {a_dice} and {b}'s Critical {b_dice} cancel each other.",
            a=a.name,
            a_dice=_dice(fa.criticals_cancelled),
            b=b.name,
            b_dice=_dice(fb.criticals_cancelled),
        )
    if fa.tied:
        both["tie"] = say(
            "{a}'s {a_dice} and {b}'s {b_dice} are equal: a tie cancels both.",
            a=a.name,
            a_dice=_dice(fa.tied),
            b=b.name,
            b_dice=_dice(fb.tied),
        )
    reasons = [r for kind in ORDER for r in (ra.get(kind), both.get(kind), rb.get(kind)) if r]
    return replace(_sentences(reasons), rules=("INF-T01",))


def _sentences(reasons: list[Say]) -> Say:
    """Sentences one after another, as one line."""
    text = reasons[-1]
    for reason in reversed(reasons[:-1]):
        text = say("{first} {then}", first=reason, then=text)
    return text
