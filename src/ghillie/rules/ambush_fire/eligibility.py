"""Who may take which special fire now, from the unit's own history (RULES-SPEC BMF-R02,
R05, R07, R14, A03, A15, A20). Each answer is a reason a player reads, or None."""

from __future__ import annotations

from collections.abc import Mapping

from ghillie.state import Piece
from ghillie.words import N_

from .board import Did, did
from .scenario import Diet

History = Mapping[str, list[str]]
# A turn of the hull (or of a figure's front) is movement for every rule here (``facing``).
MOVING = (Did.MOVED, Did.FACED)


def challenge(history: History, turn: int) -> str | None:
    """BMF-R02, A20: stationary — no move and no turret turn — in the whole previous turn
    and so far in this one; BMF-R05, A03: a unit that took Challenge Fire this turn may
    not fire again until next turn."""
    if did(history, turn, Did.CHALLENGED):
        return N_("It took Challenge Fire this turn: it may not fire again until next turn.")
    if did(history, turn - 1, *MOVING, Did.TURNED) or did(history, turn, *MOVING, Did.TURNED):
        return N_(
            "Challenge Fire needs a firer that has not moved, nor turned its turret, since "
            "the start of last turn."
        )
    return None


def ambush(concealed: bool, history: History, turn: int) -> str | None:
    """BMF-R07: concealed, did not move or fire in the previous turn, and has not moved or
    taken Challenge Fire in this one (A14: firing normally this turn does not bar it;
    the host's concealment rules decide whether it is still concealed)."""
    if not concealed:
        return N_("Ambush Fire needs a concealed firer.")
    if did(history, turn - 1, *MOVING, Did.FIRED):
        return N_("Ambush Fire needs a firer that neither moved nor fired last turn.")
    if did(history, turn, *MOVING, Did.CHALLENGED):
        return N_("Ambush Fire needs a firer that has not moved or taken Challenge Fire this turn.")
    return None


def close_combat(concealed: bool, diet: Diet, history: History, turn: int) -> str | None:
    """BMF-R14, A15: concealed, a carnivore or an omnivore (people included; no vehicle,
    gun or herbivore), did not move or fire in the previous turn, and has not moved or
    fought a close combat in this one."""
    if diet not in (Diet.CARNIVORE, Diet.OMNIVORE):
        return N_("Only carnivores and omnivores, people included, make Ambush Close Combat.")
    if not concealed:
        return N_("Ambush Close Combat needs a concealed attacker.")
    if did(history, turn - 1, *MOVING, Did.FIRED):
        return N_("Ambush Close Combat needs an attacker that neither moved nor fired last turn.")
    if did(history, turn, *MOVING, Did.CLOSE_COMBAT):
        return N_(
            "Ambush Close Combat needs an attacker that has not moved or fought a close combat "
            "this turn."
        )
    return None


def history(piece: Piece) -> dict[str, list[str]]:
    """What the unit did, turn by turn: what it did in view (public) and what it did while
    concealed (its owner's secret, never opened by a reveal: S3 shows a unit's place and
    type, not when it moved unseen)."""
    out = {k: list(v) for k, v in piece.public.get("history", {}).items()}
    for turn, done in piece.secret.get("history", {}).items():
        out[turn] = sorted({*out.get(turn, []), *done})
    return out


def barred(unit: Piece, reaction: str, turn: int) -> str | None:
    """Why ``unit`` may not take ``reaction`` (challenge, ambush, close_combat) now, or None:
    the same for a standing order that fires and a reaction given live."""
    done = history(unit)
    concealed = bool(unit.public.get("concealed"))
    if reaction == "challenge":
        return challenge(done, turn)
    if reaction == "ambush":
        return ambush(concealed, done, turn)
    return close_combat(concealed, Diet(unit.public["diet"]), done, turn)
