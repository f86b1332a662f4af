"""Facing and turrets (BMF-R02, R04, A18, A20): which way each unit and its turret point,
the order that turns them, and whether a unit's weapon faces another.

A unit's facing is part of what a side sees of it, like its class: on every unit, in its
public part. A concealed unit is known to no other side (BMF S1), so its facing is as
secret as the unit: no other side receives anything of it, or of its turning, until the
unit is revealed — and then, like a model put on the table, it shows which way it faces.

Set-up: a side gives its units' facings, free. In its movement: a hull turn (a vehicle's
hull, an infantry figure's front) is movement for the eligibility rules (``Did.FACED``:
BMF-R02, R07, R14) but does not stop the unit from moving this turn; a turret turn is the
"turn his turret" of BMF-R02 (``Did.TURNED``: A20), and nothing else. A hull turn carries
the turret round with it, as a model's turret turns with the model (its bearing on the
hull kept), unless the same order gives the turret its own facing.
"""

from __future__ import annotations

from typing import Any

from ghillie.state import Piece
from ghillie.words import N_, Say, say

from . import geometry

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
    value = round(float(degrees) % 360.0, 1)
    return int(value) if value.is_integer() else value


def way(degrees: float) -> Say:
    """A facing in words: "270° (toward the left edge)"."""
    toward = say(WAYS[round(degrees / 45) % 8])
    return say("{degrees}° ({way})", degrees=number(degrees), way=toward)


def hull(piece: Piece) -> float:
    return float(piece.public.get("facing", 0))


def weapon(piece: Piece) -> float:
    """Which way its weapon points: its turret's facing if it has a turret, else its own
    (BMF-A18: a vehicle's turret or weapon, an infantry figure's front)."""
    if piece.public.get("turret"):
        return float(piece.public.get("turret_facing", hull(piece)))
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


def start(public: dict[str, Any], facing: float, turret: bool, turret_facing: float | None) -> None:
    """A unit's facing as the scenario gives it, into its public part (set-up)."""
    public["facing"] = number(facing)
    if turret:
        public["turret_facing"] = number(facing if turret_facing is None else turret_facing)


def details(piece: Piece) -> list[tuple[str, Any]]:
    """What a reader of the unit sees of its facing (a piece's details)."""
    if "facing" not in piece.public:
        return []
    out: list[tuple[str, Any]] = [(N_("Faces"), way(hull(piece)))]
    if piece.public.get("turret"):
        out.append((N_("Turret faces"), way(weapon(piece))))
    return out
