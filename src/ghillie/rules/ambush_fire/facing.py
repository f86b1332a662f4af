"""Facing and turrets (BMF-R02, R04, A18, A20): which way each unit and its turret point,
and whether a unit's weapon faces another (the ``turn`` order that turns them: ``turning``).

A unit in view shows which way it faces, as a model on the table does: its facing is in
its public part. A concealed unit's facing is as secret as the unit (BMF S1): it is in its
owner's secret, like its place, so no other side receives anything of it or of its
turning, and the worlds in which it faces one way or another look alike to them. When the
unit is revealed, wherever in the rules that happens, its facing is shown with it
(:func:`show_revealed`, once each command is ruled).

Set-up: a side gives its units' facings, free. In its movement: a hull turn (a vehicle's
hull, an infantry figure's front) is movement for the eligibility rules (``Did.FACED``:
BMF-R02, R07, R14) but does not stop the unit from moving this turn; a turret turn is the
"turn his turret" of BMF-R02 (``Did.TURNED``: A20), and nothing else. A hull turn carries
the turret round with it, as a model's turret turns with the model (its bearing on the
hull kept), unless the same order gives the turret its own facing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ghillie.state import Piece
from ghillie.words import N_, Say, say

from . import geometry
from .board import UNIT, Rules

# The eight ways a facing is read, from the table's top edge clockwise.
WAYS = (
    N_("toward the top edge"),
    N_("toward the top right corner"),
    N_("toward the right edge"),
    N_("toward the bottom right corner"),
    N_("toward the bottom edge"),
    N_("toward the bottom left corner"),
    N_("toward the left edge"),
    N_("toward the top left corner"),
)


def number(degrees: float) -> int | float:
    """Degrees as the record writes them: whole degrees as ints, else to a tenth."""
    value = round(float(degrees), 1) % 360.0
    return int(value) if value.is_integer() else value


def way(degrees: float) -> Say:
    """A facing in words: "270° (toward the left edge)"."""
    toward = say(WAYS[round(degrees / 45) % 8])
    return say("{degrees}° ({way})", degrees=number(degrees), way=toward)


KEYS = ("facing", "turret_facing")


def held(piece: Piece) -> Mapping[str, Any]:
    """Where its facing is kept: in view, its public part; concealed, its owner's secret.
    (A unit revealed shows it in public; the secret copy left behind is never read again.)"""
    return piece.secret if piece.public.get("concealed") else piece.public


def hull(piece: Piece) -> float:
    return float(held(piece).get("facing", 0))


def weapon(piece: Piece) -> float:
    """Which way its weapon points: its turret's facing if it has a turret, else its own
    (BMF-A18: a vehicle's turret or weapon, an infantry figure's front)."""
    if piece.public.get("turret"):
        return float(held(piece).get("turret_facing", hull(piece)))
    return hull(piece)


def faces(piece: Piece, other: tuple[float, float]) -> bool:
    """BMF-R04, A18: is ``other`` inside the unit's weapon arc? (Its arc, centred on its
    weapon's facing; a unit on the very spot faces it.)"""
    at = piece.public.get("at") or piece.secret.get("at")
    assert at is not None, "a unit on the ground has a place"
    here = (float(at[0]), float(at[1]))
    if here == other:
        return True
    return geometry.faces(here, weapon(piece), float(piece.public["arc"]), other)


def start(facing: float, turret: bool, turret_facing: float | None) -> dict[str, Any]:
    """A unit's facing as the scenario gives it (set-up): for its public part if it is in
    view, its secret if it is concealed."""
    out: dict[str, Any] = {"facing": number(facing)}
    if turret:
        out["turret_facing"] = number(facing if turret_facing is None else turret_facing)
    return out


def show_revealed(ruling: Rules) -> None:
    """Every unit revealed by the command just ruled shows which way it faces, as the model
    put on the table would. Done here, once, rather than at each of the rules' reveals
    (an ambush's area, a challenge, a stop in the open, fire, a dash)."""
    for piece in ruling.state.pieces.values():
        if piece.kind != UNIT or piece.public.get("concealed") or "facing" in piece.public:
            continue
        ruling.update(piece.id, public={k: piece.secret[k] for k in KEYS if k in piece.secret})


def details(piece: Piece, shown: bool) -> list[tuple[str, Any]]:
    """What a reader of the unit sees of its facing (a piece's details); ``shown``: the
    reader may see its owner's secrets (its owner, the referee)."""
    if "facing" not in (held(piece) if shown else piece.public):
        return []
    out: list[tuple[str, Any]] = [(N_("Faces"), way(hull(piece)))]
    if piece.public.get("turret"):
        out.append((N_("Turret faces"), way(weapon(piece))))
    return out
