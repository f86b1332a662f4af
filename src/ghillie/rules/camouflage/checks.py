"""The d20 rolls of camouflage (Infinity N5), each a check with its exact odds.

Discover is a Normal WIP Roll against a Success Value built from the Discover MODs
(RULES-SPEC INF-R10, INF-A01); attacks are Face to Face Rolls (INF-T01(d)) and their hits
are Saving Rolls. Every function here takes plain numbers: the ruleset decides what they are.
"""

from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

from ghillie.dice.check import Check
from ghillie.dice.steps import Die

D20 = Die(20)

# --- Discover MODs (INF-A01) ---------------------------------------------------------------------

# INF-A01, RULES-SPEC §5.1: the Discover range MODs, as (upper edge of the band in inches,
# MOD). These are the N4 values (0-8" +3, 8-16" 0, 16-24" 0, 24-32" 0, 32-40" -3, 40-48" -3,
# 48-96" -6); the N5 text only says "applying MODs listed for Discover".
DISCOVER_RANGE_MODS: tuple[tuple[float, int], ...] = (
    (8.0, +3),
    (16.0, 0),
    (24.0, 0),
    (32.0, 0),
    (40.0, -3),
    (48.0, -3),
    (96.0, -6),
)
# RULES-SPEC §6.6: the N5 Discover MOD list and range values ship as editable data, flagged.
DISCOVER_MODS_SOURCE_UNVERIFIED = True

# A distance this close to a band edge is on the edge: distances worked out from positions
# carry float error (7.9999999999 is 8"), as in suspicious-places' zones.
EDGE_TOLERANCE = 1e-9

MIMETISM_LEVELS = (0, -3, -6)  # INF-R04: what a marker may show
MSV_STEP = 3  # each Multispectral Visor level takes 3 off Mimetism (INF-A08)
COVER_MOD = -3  # the N5 Cover MOD
SENSOR_MOD = +6  # Sensor: a WIP+6 roll, with no Range or Mimetism MODs (§5.1)
# The sum of the MODs on a roll is held to +-12: the N5 "Rolls" page of the Infinity wiki
# says so (N4 did too); RULES-SPEC §5.1 still lists it as to be checked against the PDF.
MOD_CAP = 12


class OutOfRange(ValueError):
    """Discover is not possible: the marker is beyond the last Discover band (96")."""

    code = "out_of_range"


class BandEdge(StrEnum):
    """RULES-SPEC INF-A11 (``inf.band_edge``): the band of a distance exactly on an edge."""

    NEARER = "nearer"  # DEFAULT: 0-8" includes 8"
    FARTHER = "farther"  # 8" is already in 8-16"; exactly 96" is then out of range


def range_mod(distance: float, edge: BandEdge) -> int:
    """The Discover range MOD at ``distance`` inches (INF-A01, INF-A11).

    Raises ``OutOfRange`` past the last band, and ``ValueError`` for a negative or
    non-finite distance.

    >>> range_mod(6, BandEdge.NEARER), range_mod(45, BandEdge.NEARER)
    (3, -3)
    >>> range_mod(8, BandEdge.NEARER), range_mod(8, BandEdge.FARTHER)
    (3, 0)
    """
    if not math.isfinite(distance) or distance < 0:
        raise ValueError(f"not a distance: {distance!r}")
    for upper, mod in DISCOVER_RANGE_MODS:
        if edge is BandEdge.NEARER and distance <= upper + EDGE_TOLERANCE:
            return mod
        if edge is BandEdge.FARTHER and distance < upper - EDGE_TOLERANCE:
            return mod
    raise OutOfRange(f'Discover reaches {DISCOVER_RANGE_MODS[-1][0]:g}", not {distance:g}"')


def effective_mimetism(mimetism: int, msv: int) -> int:
    """The marker's Mimetism MOD once the discoverer's Multispectral Visor level ``msv``
    has reduced it: 3 per level, never above 0 (INF-A08). Raises ``ValueError`` for a
    Mimetism other than 0, -3 or -6, or a negative level.

    >>> effective_mimetism(-3, 1), effective_mimetism(-6, 1), effective_mimetism(-6, 2)
    (0, -3, 0)
    """
    if mimetism not in MIMETISM_LEVELS:
        raise ValueError(f"Mimetism is 0, -3 or -6, not {mimetism}")
    if msv < 0:
        raise ValueError(f"not a Multispectral Visor level: {msv}")
    return min(0, mimetism + MSV_STEP * msv)


@dataclass(frozen=True)
class Mod:
    """One MOD on a Success Value, and why it applies (``range``, ``mimetism``, ``cover``,
    ``sensor``, or ``cap`` for what the +-12 limit took back)."""

    why: str
    value: int


def discover_value(
    wip: int,
    distance: float,
    mimetism: int,
    msv: int,
    cover: bool,
    applies_cover: bool,
    edge: BandEdge,
    sensor: bool = False,
    *,
    mod_cap: int | None = MOD_CAP,
) -> tuple[int, tuple[Mod, ...]]:
    """The Success Value of a Discover roll, and the MODs that made it (INF-R10, INF-A01).

    WIP + the range MOD + the marker's Mimetism (after the discoverer's Multispectral
    Visor) + the Cover MOD -3 when the marker is in cover and ``applies_cover``
    (``inf.discover_applies_cover``). A Sensor roll is WIP+6, with no Range, Mimetism or
    Cover MOD, and ``distance`` is not read (whether the marker is inside the Zone of
    Control is the caller's question). The sum of the MODs is held to +-``mod_cap``; when
    that bites, a ``cap`` MOD says by how much. ``wip`` + the MODs' values is the result.

    The MODs listed: ``range`` always, ``mimetism`` when the marker has Mimetism (at 0 when
    a visor cancels it), ``cover`` when it counts, ``cap`` when it bites.
    Raises ``OutOfRange`` past 96" (not for Sensor), ``ValueError`` for bad arguments.

    >>> discover_value(13, 6, -3, 0, False, True, BandEdge.NEARER)
    (13, (Mod(why='range', value=3), Mod(why='mimetism', value=-3)))
    >>> discover_value(13, 6, -6, 1, False, True, BandEdge.NEARER)[0]
    13
    >>> discover_value(13, 50, -6, 0, False, True, BandEdge.NEARER, sensor=True)
    (19, (Mod(why='sensor', value=6),))
    """
    mimetism_mod = effective_mimetism(mimetism, msv)
    mods: list[Mod] = []
    if sensor:
        mods.append(Mod("sensor", SENSOR_MOD))
    else:
        mods.append(Mod("range", range_mod(distance, edge)))
        if mimetism:
            mods.append(Mod("mimetism", mimetism_mod))
        if cover and applies_cover:
            mods.append(Mod("cover", COVER_MOD))
    total = sum(mod.value for mod in mods)
    if mod_cap is not None and abs(total) > mod_cap:
        mods.append(Mod("cap", (mod_cap if total > 0 else -mod_cap) - total))
    return wip + sum(mod.value for mod in mods), tuple(mods)


# --- Normal Rolls --------------------------------------------------------------------------------

SUCCESS = "success"
FAILURE = "failure"


def _normal(values: Mapping[str, int], value: int) -> str:
    # A Success Value of 0 or less fails on any face; 20 or more succeeds on any.
    return SUCCESS if values["d20"] <= value else FAILURE


def normal_roll(value: int) -> Check[str]:
    """A Normal Roll: one d20, a success when it shows ``value`` or less.

    Only success or failure is reported: Discover needs no more. A Critical (the die equal
    to ``value``) is a success here.

    >>> [str(p) for p in normal_roll(13).odds().values()]
    ['13/20', '7/20']
    >>> normal_roll(0).odds()["failure"]
    Fraction(1, 1)
    """
    return Check((("d20", D20),), _normal, (SUCCESS, FAILURE), (value,))


# --- Face to Face Rolls --------------------------------------------------------------------------

CRITICAL = 20  # the result a Critical counts as, above every non-critical success
FAILED = 0

# (hits of a, criticals of a, hits of b, criticals of b). Hits count the criticals too, so
# criticals <= hits: under N5 each Critical in an Attack adds a Saving Roll, so an attack
# owes hits + criticals saves.
FaceToFaceOutcome = tuple[int, int, int, int]


class CriticalClash(StrEnum):
    """When both sides roll Criticals in one Face to Face Roll."""

    # DEFAULT: every Critical on both sides is cancelled and nothing applies (the Infinity
    # wiki's N5.1.1 "Face to Face Rolls": "the Criticals cancel each other and no effects
    # are applied. Non-critical successes are discarded.").
    CANCEL = "cancel"
    # Both sides' Criticals stand (neither cancels the other's); only the non-critical
    # successes are discarded.
    STAND = "stand"


def die_result(die: int, value: int) -> int:
    """What a d20 showing ``die`` is worth against the Success Value ``value``: ``FAILED``
    (0), a non-critical success 1..19 to compare with the opponent's, or ``CRITICAL`` (20).

    A die equal to the value is a Critical. Above 20, N5 adds the excess to the die and a
    result of 20 or more is a Critical.

    >>> die_result(13, 13), die_result(12, 13), die_result(14, 13), die_result(5, 0)
    (20, 12, 0, 0)
    >>> die_result(16, 23), die_result(17, 23), die_result(1, 23)
    (19, 20, 4)
    """
    if value <= 20:
        if die > value:
            return FAILED
        return CRITICAL if die == value else die
    return min(die + value - 20, CRITICAL)


class _Tally(NamedTuple):
    """A Face to Face Roll being read from the highest result down."""

    leader: str  # "" (no non-critical success yet), "a", "b", or "done"
    a_hits: int  # a's non-critical successes that stand so far
    b_hits: int
    a_crits: int
    b_crits: int


def _compare(tally: _Tally, a_count: int, b_count: int) -> _Tally:
    """The next non-critical result down, shown by ``a_count`` of a's dice and ``b_count``
    of b's. A success cancels every lower or equal success of the opponent (even one that
    is itself cancelled), so only the side showing the best result keeps any: all of its
    successes above the opponent's best."""
    if tally.leader == "done" or not (a_count or b_count):
        return tally
    if (a_count and b_count) or tally.leader == ("b" if a_count else "a"):
        # A tie cancels both results; a side below the leader's best loses these, and its
        # successes here cancel every lower success of the leader.
        return tally._replace(leader="done")
    if a_count:
        return tally._replace(leader="a", a_hits=tally.a_hits + a_count)
    return tally._replace(leader="b", b_hits=tally.b_hits + b_count)


def _outcome(tally: _Tally, criticals: CriticalClash) -> FaceToFaceOutcome:
    a_crits, b_crits = tally.a_crits, tally.b_crits
    if a_crits and b_crits:
        # Each side's Criticals cancel every non-critical success of the other.
        return (
            (a_crits, a_crits, b_crits, b_crits) if criticals is CriticalClash.STAND else (0,) * 4
        )
    if a_crits:
        return (a_crits + tally.a_hits, a_crits, 0, 0)
    if b_crits:
        return (0, 0, b_crits + tally.b_hits, b_crits)
    return (tally.a_hits, 0, tally.b_hits, 0)


def _face_to_face(
    values: Mapping[str, int], a_value: int, b_value: int, criticals: CriticalClash
) -> FaceToFaceOutcome:
    a = Counter(die_result(v, a_value) for label, v in values.items() if label.startswith("a"))
    b = Counter(die_result(v, b_value) for label, v in values.items() if label.startswith("b"))
    tally = _Tally("", 0, 0, a[CRITICAL], b[CRITICAL])
    for level in range(CRITICAL - 1, FAILED, -1):
        tally = _compare(tally, a[level], b[level])
    return _outcome(tally, criticals)


def _faces(value: int) -> Counter[int]:
    """How many of a d20's faces give each result against ``value``."""
    return Counter(die_result(die, value) for die in range(1, 21))


@functools.lru_cache(maxsize=1024)
def _face_to_face_odds(
    a_value: int, a_burst: int, b_value: int, b_burst: int, criticals: CriticalClash
) -> dict[FaceToFaceOutcome, Fraction]:
    """Exact odds without listing the 20^(a_burst + b_burst) rolls: from the Critical down,
    choose how many of each side's dice not yet placed show each result (binomial ways
    times faces), folding the choice into the same tally the judge uses."""
    a_faces, b_faces = _faces(a_value), _faces(b_value)

    def ways(left: int, count: int, faces: int) -> int:
        return math.comb(left, count) * int(faces**count)  # int ** int is typed Any

    # (a's dice left, b's dice left, tally) -> weight, in face combinations
    states: dict[tuple[int, int, _Tally], int] = defaultdict(int)
    for ka in range(a_burst + 1):
        for kb in range(b_burst + 1):
            weight = ways(a_burst, ka, a_faces[CRITICAL]) * ways(b_burst, kb, b_faces[CRITICAL])
            if weight:
                states[(a_burst - ka, b_burst - kb, _Tally("", 0, 0, ka, kb))] += weight
    for level in range(CRITICAL - 1, FAILED, -1):
        a_n, b_n = a_faces[level], b_faces[level]
        if not (a_n or b_n):
            continue
        placed: dict[tuple[int, int, _Tally], int] = defaultdict(int)
        for (a_left, b_left, tally), weight in states.items():
            for ka in range(a_left + 1 if a_n else 1):
                for kb in range(b_left + 1 if b_n else 1):
                    key = (a_left - ka, b_left - kb, _compare(tally, ka, kb))
                    placed[key] += weight * ways(a_left, ka, a_n) * ways(b_left, kb, b_n)
        states = placed
    odds: dict[FaceToFaceOutcome, int] = defaultdict(int)
    for (a_left, b_left, tally), weight in states.items():
        # The dice still unplaced all failed.
        odds[_outcome(tally, criticals)] += (
            weight * a_faces[FAILED] ** a_left * b_faces[FAILED] ** b_left
        )
    total = 20 ** (a_burst + b_burst)
    assert sum(odds.values()) == total
    return {outcome: Fraction(weight, total) for outcome, weight in odds.items()}


class FaceToFace(Check[FaceToFaceOutcome]):
    """A Face to Face Roll: rolled and judged die by die like any check, its odds counted
    by result rather than by roll: a Burst 5 against a Burst 5 takes about 50 ms, not the
    20^10 rolls the generic enumeration would list."""

    def odds(self) -> dict[FaceToFaceOutcome, Fraction]:
        a_value, b_value, criticals = self.args
        a_burst = sum(1 for label, _ in self.dice if label.startswith("a"))
        odds = _face_to_face_odds(a_value, a_burst, b_value, len(self.dice) - a_burst, criticals)
        if not set(odds) <= set(self.outcomes):
            raise ValueError(f"a Face to Face Roll gave an outcome not among {self.outcomes}")
        return {outcome: odds.get(outcome, Fraction(0)) for outcome in self.outcomes}


def face_to_face(
    a_value: int,
    a_burst: int,
    b_value: int,
    b_burst: int,
    *,
    criticals: CriticalClash = CriticalClash.CANCEL,
) -> FaceToFace:
    """A Face to Face Roll between two troopers (INF-T01(d)): ``a_burst`` d20s labelled
    ``a1``, ``a2``, ... against ``a_value`` and ``b_burst`` d20s ``b1``, ... against
    ``b_value``.

    Each die at or under its value is a success, one equal to it a Critical (see
    :func:`die_result` for values above 20). A success cancels every success of the opponent
    with a lower or equal result (a tie cancels both); a Critical cancels every non-critical
    success of the opponent and is cancelled only by the opponent's Criticals
    (``criticals``). The outcome is (hits of a, criticals of a, hits of b, criticals of b),
    the hits counting the criticals. Raises ``ValueError`` for a Burst below 1.

    >>> check = face_to_face(13, 1, 13, 1)
    >>> check.judge_values({"a1": 9, "b1": 7}), check.judge_values({"a1": 9, "b1": 13})
    ((1, 0, 0, 0), (0, 0, 1, 1))
    >>> str(check.odds()[(0, 0, 0, 0)])
    '31/200'
    """
    if a_burst < 1 or b_burst < 1:
        raise ValueError(f"each side rolls at least one die, not {a_burst} and {b_burst}")
    dice = tuple((f"a{i}", D20) for i in range(1, a_burst + 1)) + tuple(
        (f"b{i}", D20) for i in range(1, b_burst + 1)
    )
    outcomes: list[FaceToFaceOutcome] = [(0, 0, 0, 0)]
    outcomes += [(h, c, 0, 0) for h in range(1, a_burst + 1) for c in range(h + 1)]
    outcomes += [(0, 0, h, c) for h in range(1, b_burst + 1) for c in range(h + 1)]
    if criticals is CriticalClash.STAND:
        outcomes += [
            (ca, ca, cb, cb) for ca in range(1, a_burst + 1) for cb in range(1, b_burst + 1)
        ]
    return FaceToFace(dice, _face_to_face, tuple(outcomes), (a_value, b_value, criticals))


# --- Saving Rolls --------------------------------------------------------------------------------


def _failed_saves(values: Mapping[str, int], value: int) -> int:
    return sum(1 for die in values.values() if die > value)


class SavingRolls(Check[int]):
    """Saving Rolls: each die fails on its own, so the odds are binomial."""

    def odds(self) -> dict[int, Fraction]:
        (value,) = self.args
        count = len(self.dice)
        fails = 20 - min(max(value, 0), 20)  # faces of one d20 that fail the save
        return {
            k: Fraction(math.comb(count, k) * fails**k * (20 - fails) ** (count - k), 20**count)
            for k in self.outcomes
        }


def saving_rolls(value: int, count: int) -> SavingRolls:
    """``count`` Saving Rolls (d20s ``save1``, ``save2``, ...), each saved at ``value`` or
    less; the outcome is how many failed (wounds lost). Raises ``ValueError`` for a
    negative count; no dice at all is no failed save.

    >>> [str(p) for p in saving_rolls(15, 2).odds().values()]
    ['9/16', '3/8', '1/16']
    """
    if count < 0:
        raise ValueError(f"not a number of Saving Rolls: {count}")
    dice = tuple((f"save{i}", D20) for i in range(1, count + 1))
    return SavingRolls(dice, _failed_saves, tuple(range(count + 1)), (value,))
