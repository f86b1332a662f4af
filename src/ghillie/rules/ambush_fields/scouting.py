"""Scouts and electronic warfare around ambush fields (RULES-SPEC §1, BSG-R08, R23–R25).

Pure functions over plain data. The ruleset turns a ``refused`` reason into a Refusal and
a success into reveals (:mod:`.fields`).

Decisions this module settles:

* BSG-A03: R08 counts scout points applied **to** the ship; under
  ``bsg.count_emitted_points`` the points the ship itself emits count too. Enemy EW is never
  on a hidden ship (only a seen unit can be targeted, BSG-R20), so every record on a hidden
  ship is friendly and :func:`points_on` needs no sides.
* BSG-A04: "exceeds" is strictly greater.
* BSG-A13: points committed to Identify or Mass Identify are consumed whether or not they
  work; a **refused** attempt spends nothing (it never happened).
* BSG-R24: the answer is identified or not, and never carries R (:class:`IdentifyResult`
  has no field for it).
* BSG-A20: Mass Identify's normal EWE is measured to the field's nearest hex (as A01).

Anti-leak (RULES-SPEC §6): to the scout's player, "that target is hidden" must be
indistinguishable from "there is no such target" — a hidden unit is not on their board. The
``not_detected`` reason is for the referee's log; **the ruleset must refuse an Identify at a
hidden unit with the very code and message it uses for an unknown piece**, never with
something that says a unit is there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ghillie.measure.hexes import Hex, distance, nearest_distance_to_disc
from ghillie.rules.ambush_fields.detection import RATINGS
from ghillie.rules.ambush_fields.fields import Field, Visibility

# Refusal reasons (stable codes; see the module note on how to show ``not_detected``).
NOT_DETECTED = "not_detected"  # BSG-R24: "a ship not detected cannot be identified"
OUT_OF_RANGE = "out_of_range"  # BSG-R24: beyond the Identify EWE (20 hexes)
ALREADY_IDENTIFIED = "already_identified"  # BSG-R24: nothing left to learn
NOT_LOCATED = "not_located"  # BSG-R25: "the ambush field must have been located first"


def _check_rating(rating: int) -> None:
    if rating not in RATINGS:
        raise ValueError(f"a field's rating is 1, 2 or 3, not {rating} (BSG-R03)")


def _check_points(points: int, least: int) -> None:
    if points < least:
        raise ValueError(f"scout points committed are at least {least}, not {points}")


# --- BSG-R08: the EW limit inside a field ---------------------------------------------------


@dataclass(frozen=True)
class EWAssignment:
    """One EW record of the host game: ``source`` spends ``points`` scout points on
    ``target`` this turn (ECM lent, ECCM, ...)."""

    source: str
    target: str
    points: int

    def __post_init__(self) -> None:
        _check_points(self.points, 0)


def points_on(ship: str, assignments: Iterable[EWAssignment], count_emitted: bool = False) -> int:
    """The scout points that count as "modifiers on" ``ship`` this turn (BSG-R08, A03).

    DEFAULT: the points applied to it, from any source (itself included). Under
    ``bsg.count_emitted_points`` also the points it spends on others.

    >>> records = [EWAssignment("eye", "cl", 2), EWAssignment("owl", "cl", 1),
    ...            EWAssignment("cl", "basestar", 2)]
    >>> points_on("cl", records), points_on("cl", records, count_emitted=True)
    (3, 5)
    """
    # A record from the ship to itself counts once.
    return sum(
        r.points for r in assignments if r.target == ship or (count_emitted and r.source == ship)
    )


def ew_gives_away(points_on_ship: int, rating: int) -> bool:
    """Whether EW on a ship inside a field makes it detected: strictly more points than the
    field's rating (BSG-R08, A04). T01: 3 on a CL in an R=2 field → detected; T02: 2 → not.

    >>> ew_gives_away(3, 2), ew_gives_away(2, 2)
    (True, False)
    """
    _check_rating(rating)
    _check_points(points_on_ship, 0)
    return points_on_ship > rating


# --- BSG-R24: Identify (target effect) ------------------------------------------------------


@dataclass(frozen=True)
class IdentifyResult:
    """The outcome of an Identify: refused (with a reason, nothing spent), or attempted
    (``points_spent`` consumed, BSG-A13) and identified or not. Deliberately no rating."""

    refused: str | None
    identified: bool
    points_spent: int


def identify(
    points: int,
    rating: int,
    target_visibility: Visibility,
    scout: Hex,
    target: Hex,
    identify_ewe: int = 20,
) -> IdentifyResult:
    """A scout commits ``points`` to Identify a unit at ``target`` in a field of ``rating``
    (BSG-R24, T08).

    Refused, spending nothing: the target is hidden (``not_detected`` — see the module note:
    shown as an unknown piece), already identified, or more than ``identify_ewe`` hexes away
    (``out_of_range``). The field need not be located. Otherwise the points are consumed
    (A13) and the target is identified iff ``points >= rating``; more does nothing extra.

    >>> identify(1, 2, Visibility.DETECTED, Hex(0, 0), Hex(5, 0))
    IdentifyResult(refused=None, identified=False, points_spent=1)
    >>> identify(2, 2, Visibility.HIDDEN, Hex(0, 0), Hex(5, 0)).refused
    'not_detected'
    """
    _check_rating(rating)
    _check_points(points, 1)
    if target_visibility is Visibility.HIDDEN:
        return IdentifyResult(NOT_DETECTED, False, 0)
    if target_visibility is Visibility.IDENTIFIED:
        return IdentifyResult(ALREADY_IDENTIFIED, False, 0)
    if distance(scout, target) > identify_ewe:
        return IdentifyResult(OUT_OF_RANGE, False, 0)
    return IdentifyResult(None, points >= rating, points)


# --- BSG-R25: Mass Identify (area effect) ---------------------------------------------------


@dataclass(frozen=True)
class MassIdentifyResult:
    """Refused (nothing spent), or attempted: every ship in the field raised to ``outcome``
    (None: no effect), ``points_spent`` consumed (BSG-A13)."""

    refused: str | None
    outcome: Visibility | None
    points_spent: int


def mass_identify(pooled_points: int, rating: int, located: bool) -> MassIdentifyResult:
    """Scouts pool ``pooled_points`` against a field of ``rating`` (BSG-R25, T09).

    Refused (``not_located``) unless the pooling side has located the field. 3R or more:
    every ship in it detected and identified; 2R: detected (a no-op for ships already
    detected by R17, BSG-A12, kept literally); less: nothing. The points are consumed.

    >>> [mass_identify(p, 2, True).outcome for p in (3, 4, 6)]
    [None, <Visibility.DETECTED: 'detected'>, <Visibility.IDENTIFIED: 'identified'>]
    """
    _check_rating(rating)
    _check_points(pooled_points, 1)
    if not located:
        return MassIdentifyResult(NOT_LOCATED, None, 0)
    if pooled_points >= 3 * rating:
        outcome: Visibility | None = Visibility.IDENTIFIED
    elif pooled_points >= 2 * rating:
        outcome = Visibility.DETECTED
    else:
        outcome = None
    return MassIdentifyResult(None, outcome, pooled_points)


def mass_identify_range(scout: Hex, field: Field) -> int:
    """Range from a scout to a field for Mass Identify: to its nearest hex, 0 inside
    (BSG-A20, the same measure as A01)."""
    return nearest_distance_to_disc(scout, field.centre, field.radius)


def mass_identify_reaches(scout: Hex, field: Field, normal_ewe: int) -> bool:
    """Whether a scout's points may join a Mass Identify: within the host's normal EWE of
    the field's nearest hex (BSG-R25, A20). The ruleset refuses (``out_of_range``) a
    contribution that does not reach; a located field is on the board, so this leaks nothing.

    >>> veil = Field("veil", "cylons", Hex(0, 0), radius=3, rating=2)
    >>> mass_identify_reaches(Hex(18, 0), veil, 15), mass_identify_reaches(Hex(19, 0), veil, 15)
    (True, False)
    """
    return mass_identify_range(scout, field) <= normal_ewe


__all__ = [
    "ALREADY_IDENTIFIED",
    "NOT_DETECTED",
    "NOT_LOCATED",
    "OUT_OF_RANGE",
    "EWAssignment",
    "IdentifyResult",
    "MassIdentifyResult",
    "ew_gives_away",
    "identify",
    "mass_identify",
    "mass_identify_range",
    "mass_identify_reaches",
    "points_on",
]
