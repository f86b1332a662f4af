"""The dice of suspicious-places: range dice, and each check with its exact odds.

Every roll the rules make is one of these checks; ``ghillie odds suspicious-places ...``
prints the same checks' odds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum

from ghillie.dice.check import Check
from ghillie.dice.steps import Die, Overflow, step_die
from ghillie.measure.tabletop import Cover

from .scenario import FireZone, LeadershipDie, SuspiciousPlacesSwitches, ZoneBoundary

OBSERVATION_ZONE = 12.0
D6 = Die(6)  # SW-R11: "Каждые 12 дюймов" (every 12 inches)


def zone(distance: float, zone_length: float, boundary: ZoneBoundary = ZoneBoundary.CEIL) -> int:
    """The range zone, from 1 (RULES-SPEC SW-R11, SW-A03).

    >>> zone(30, 12), zone(12, 12), zone(12, 12, ZoneBoundary.FLOOR_PLUS_ONE)
    (3, 1, 2)
    """
    if boundary is ZoneBoundary.CEIL:
        return max(1, math.ceil(distance / zone_length - 1e-9))
    return math.floor(distance / zone_length + 1e-9) + 1


def range_die(
    distance: float,
    cover: Cover,
    *,
    zone_length: float = OBSERVATION_ZONE,
    lone: bool = False,
    boundary: ZoneBoundary = ZoneBoundary.CEIL,
    overflow: Overflow = Overflow.D12_PLUS,
) -> Die:
    """The target's range die: a step per zone, +1 soft / +2 hard cover (SW-R11), +1 for a
    lone figure outside a squad when fired at (SW-R21).

    >>> str(range_die(30, Cover.SOFT)), str(range_die(60, Cover.HARD))
    ('d10', 'd12+2')
    """
    step = zone(distance, zone_length, boundary) + cover.steps + (1 if lone else 0)
    return step_die(step, overflow)


def fire_zone_length(quality: Die, *, sniper: bool, rule: FireZone = FireZone.QUALITY_DIE) -> float:
    """Shooting zones: the shooter's quality die in inches (SW-A17), doubled for a sniper
    (SW-R30): a d8 sniper has 16" zones."""
    length = float(quality.faces) if rule is FireZone.QUALITY_DIE else OBSERVATION_ZONE
    return 2 * length if sniper else length


class Observation(StrEnum):
    """RULES-SPEC SW-R14, by how many observer dice beat the target's: 0, 1 or 2."""

    NOTHING = "nothing"  # h = 0
    FLIPPED = "flipped"  # h = 1
    REVEALED = "revealed"  # h = 2
    # A hidden sniper observing gives itself away when its quality die shows 1 (SW-R35b);
    # that die cannot beat the target, so at most the means die does.
    BETRAYED_NOTHING = "betrayed_nothing"
    BETRAYED_FLIPPED = "betrayed_flipped"

    @property
    def higher(self) -> int:
        return {"nothing": 0, "flipped": 1, "revealed": 2}[self.value.removeprefix("betrayed_")]

    @property
    def betrayed(self) -> bool:
        return self.value.startswith("betrayed")


def higher(values: Mapping[str, int], a: str, b: str) -> int:
    """How many of dice ``a`` and ``b`` are strictly higher than the target (a tie is not)."""
    return int(values[a] > values["target"]) + int(values[b] > values["target"])


def _observe(values: Mapping[str, int], sniper: bool) -> Observation:
    h = higher(values, "quality", "means")
    if sniper and values["quality"] == 1:
        return Observation.BETRAYED_FLIPPED if h else Observation.BETRAYED_NOTHING
    return (Observation.NOTHING, Observation.FLIPPED, Observation.REVEALED)[h]


def observation(
    target: Die, quality: Die, means: Die, *, sniper: bool = False
) -> Check[Observation]:
    """The observation test (SW-R10..R14): the target's range die against quality + means."""
    outcomes = tuple(Observation) if sniper else tuple(Observation)[:3]
    return Check(
        (("target", target), ("quality", quality), ("means", means)), _observe, outcomes, (sniper,)
    )


class Shot(StrEnum):
    """Shooting under the general rules: how many of the shooter's dice beat the target's."""

    MISS = "miss"  # h = 0
    PARTIAL = "partial"  # h = 1
    FULL = "full"  # h = 2
    # A sniper whose quality die shows 1 gives himself away (SW-R35b); that die cannot beat
    # the target, so at most the weapon die does.
    BETRAYED_MISS = "betrayed_miss"
    BETRAYED_PARTIAL = "betrayed_partial"

    @property
    def hits(self) -> int:
        return {"miss": 0, "partial": 1, "full": 2, "betrayed_miss": 0, "betrayed_partial": 1}[
            self.value
        ]

    @property
    def betrayed(self) -> bool:
        return self.value.startswith("betrayed")


def _shoot(values: Mapping[str, int], sniper: bool) -> Shot:
    h = higher(values, "quality", "weapon")
    if sniper and values["quality"] == 1:
        return Shot.BETRAYED_PARTIAL if h else Shot.BETRAYED_MISS
    return (Shot.MISS, Shot.PARTIAL, Shot.FULL)[h]


def shot(target: Die, quality: Die, weapon: Die, *, sniper: bool = False) -> Check[Shot]:
    outcomes = tuple(Shot) if sniper else (Shot.MISS, Shot.PARTIAL, Shot.FULL)
    return Check(
        (("target", target), ("quality", quality), ("weapon", weapon)), _shoot, outcomes, (sniper,)
    )


class CovertMove(StrEnum):
    """RULES-SPEC SW-R36: roll the quality die higher than the sniper's own leadership."""

    SUCCESS = "success"
    FAILURE = "failure"
    BETRAYED = "betrayed"  # the quality die showed 1 (SW-R35b)


def _covert(values: Mapping[str, int], leadership: int | None) -> CovertMove:
    if values["quality"] == 1:
        return CovertMove.BETRAYED
    against = values["leadership"] if leadership is None else leadership
    return CovertMove.SUCCESS if values["quality"] > against else CovertMove.FAILURE


def covert_move(
    quality: Die, leadership: int | Die, rule: LeadershipDie = LeadershipDie.OPPOSED
) -> Check[CovertMove]:
    """SW-A11: against a number L, success if the roll > L; against a die, roll it opposed
    (or, under ``sw.leadership_die = faces``, count the die as its number of faces)."""
    if isinstance(leadership, Die) and rule is LeadershipDie.OPPOSED:
        return Check(
            (("quality", quality), ("leadership", leadership)), _covert, tuple(CovertMove), (None,)
        )
    number = leadership.highest if isinstance(leadership, Die) else leadership
    return Check((("quality", quality),), _covert, tuple(CovertMove), (number,))


def _total(values: Mapping[str, int]) -> int:
    return sum(values.values())


def marker_count(units: int, die: Die = D6) -> Check[int]:
    """SW-R02: d6 suspicious-place markers for each camouflaged unit, pooled (SW-A04)."""
    dice = tuple((f"unit{i + 1}", die) for i in range(units))
    return Check(dice, _total, tuple(range(units * die.lowest, units * die.highest + 1)))


def observation_die(
    distance: float, cover: Cover, switches: SuspiciousPlacesSwitches, *, lone: bool = False
) -> Die:
    """The range die for an observation: 12" zones; a lone figure's +1 only under
    ``sw.lone_bonus_on_observation`` (SW-A09)."""
    return range_die(
        distance,
        cover,
        lone=lone and switches.lone_bonus_on_observation,
        boundary=switches.zone_boundary,
        overflow=switches.overflow,
    )


def fire_die(
    distance: float,
    cover: Cover,
    quality: Die,
    switches: SuspiciousPlacesSwitches,
    *,
    sniper: bool = False,
    lone: bool = False,
) -> Die:
    """The range die for a shot: the shooter's zones (SW-A17, SW-R30), cover, lone (SW-R21)."""
    return range_die(
        distance,
        cover,
        zone_length=fire_zone_length(quality, sniper=sniper, rule=switches.fire_zone),
        lone=lone,
        boundary=switches.zone_boundary,
        overflow=switches.overflow,
    )
