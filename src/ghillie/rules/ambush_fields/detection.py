"""The detection roll against an ambush field (RULES-SPEC BSG-R14), with its exact odds.

A ship rolls 2d6, adds the field's rating and the other modifiers, and locates the field if
the total is at most the base number for its range; missing by exactly one gives partial
information. The roll ghillie makes and the odds it shows come from one :class:`Check`, and
``ghillie odds ambush-fields detect ...`` will print them once the ruleset is registered
(:data:`ODDS`).

Decisions this module settles:

* BSG-A02: the modifiers go on the dice, ``M = 2d6 + R + mods``; located if ``M ≤ N``.
* BSG-A08: no ±3 cap on detection. Under ``bsg.cap_detection_mods`` the cap applies to the
  **whole** sum of modifiers, the field's rating included: the rating is one of the listed
  modifiers ("+ The rating of the ambush field"), so the cap treats it like the others.
* BSG-A09: scout points help only the spending scout's own roll; a ship that is not a scout
  spending points is refused with ``ValueError`` (not silently ignored: points spent are a
  record the referee keeps, and a typo should not vanish).
* BSG-A10: every vessel that is not a fighter or shuttle (patrol boats, scouts, civilians)
  reads the capital row.
* BSG-A11 and §6: where no roll is possible ('–' and beyond 20 hexes) the result is
  :attr:`Outcome.NO_CONTACT`, the very value a failed roll gives.
* BSG-A18: the speed is the controller's plotted speed this turn; 0 gives no modifier.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path

from pydantic import Field, model_validator

from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.ruleset import OddsQuery, Params, param_error
from ghillie.scenario import Switches

D6 = Die(6)
DICE = (("first", D6), ("second", D6))  # BSG-R14: "rolled (or less) on 2d6"

# RULES-SPEC BSG-R14, the range table as printed: (from hex, to hex, capital row,
# fighter/shuttle row). None is the text's "-": no roll (BSG-A11).
BASE_NUMBERS: tuple[tuple[int, int, int, int | None], ...] = (
    (1, 1, 7, 5),
    (2, 2, 6, 4),
    (3, 5, 5, 2),
    (6, 15, 4, None),
    (16, 20, 2, None),
)
# BSG-A11: "the maximum detection range of ambush fields" is 20 hexes; beyond it, no roll.
MAX_RANGE = 20
FIGHTER_RANGE = 5  # BSG-R14: the fighter/shuttle row has a number up to 5 hexes, then "-"
RATINGS = (1, 2, 3)  # BSG-R03: a field's rating runs from +1 to +3
CAP = 3  # BSG-A08, under bsg.cap_detection_mods: the host game's "maximum modifiers of ±3"


class Outcome(StrEnum):
    """What a detection attempt shows the detecting side (BSG-R14, R18, §6)."""

    LOCATED = "located"  # M ≤ N (BSG-R17)
    PARTIAL = "partial"  # M = N + 1: failed by exactly one (BSG-R15)
    NO_CONTACT = "no_contact"  # failed by two or more, or no roll possible (BSG-A11)


class DetectionSwitches(Switches):
    """The switches the detection roll reads; the ruleset's switches will extend these."""

    cap_detection_mods: bool = Field(False, alias="bsg.cap_detection_mods")  # BSG-A08


def base_number(range_hexes: int, fighter: bool) -> int | None:
    """The base number N for a range (BSG-R14), or None where no roll is possible (A11).

    ``range_hexes`` is the range to the nearest hex of the field (BSG-A01), at least 1: a ship
    inside the field does not roll (BSG-R26). ``fighter`` is true for a fighter flight or a
    shuttle; every other vessel reads the capital row (BSG-A10).

    >>> base_number(4, fighter=False), base_number(4, fighter=True)
    (5, 2)
    >>> base_number(6, fighter=True), base_number(21, fighter=False)
    (None, None)

    Raises ``ValueError`` for a range below 1.
    """
    if range_hexes < 1:
        raise ValueError(f"a detection range is at least 1 hex, not {range_hexes} (BSG-A01)")
    for first, last, capital, small in BASE_NUMBERS:
        if first <= range_hexes <= last:
            return small if fighter else capital
    return None


def speed_modifier(speed: int) -> int:
    """The controller's speed this turn (BSG-R14, A18): 0 → 0, 1–2 → −1, 3 or more → −2.

    >>> [speed_modifier(s) for s in range(5)]
    [0, -1, -1, -2, -2]
    """
    if speed < 0:
        raise ValueError(f"a speed is not negative: {speed}")
    if speed == 0:
        return 0
    return -1 if speed <= 2 else -2


def modifiers(
    rating: int,
    *,
    flag: bool = False,
    scout: bool = False,
    scout_points: int = 0,
    partial: bool = False,
    speed: int = 0,
) -> dict[str, int]:
    """Every modifier to the dice by name, in the text's terms (BSG-R14, A02), uncapped.

    ``scout_points`` are points a scout spends on its own roll: only a scout may (BSG-A09).

    >>> modifiers(2, flag=True, partial=True, speed=2)
    {'rating': 2, 'flag': -1, 'scout_points': 0, 'partial': -1, 'speed': -1}

    Raises ``ValueError`` for a rating outside 1..3, negative points or speed, or points
    spent by a ship that is not a scout.
    """
    if rating not in RATINGS:
        raise ValueError(f"a field's rating is 1, 2 or 3, not {rating} (BSG-R03)")
    if scout_points < 0:
        raise ValueError(f"scout points spent are not negative: {scout_points}")
    if scout_points and not scout:
        raise ValueError("only a scout may spend scout points on its own detection roll (BSG-A09)")
    return {
        "rating": rating,
        "flag": -1 if flag else 0,
        "scout_points": -scout_points,
        "partial": -1 if partial else 0,
        "speed": speed_modifier(speed),
    }


def total_modifier(
    rating: int,
    *,
    flag: bool = False,
    scout: bool = False,
    scout_points: int = 0,
    partial: bool = False,
    speed: int = 0,
    cap_detection_mods: bool = False,
) -> int:
    """The sum added to 2d6; under ``cap_detection_mods`` the whole sum, rating included, is
    held within ±3 (BSG-A08).

    >>> total_modifier(1, scout=True, scout_points=5), total_modifier(
    ...     1, scout=True, scout_points=5, cap_detection_mods=True)
    (-4, -3)
    """
    total = sum(
        modifiers(
            rating, flag=flag, scout=scout, scout_points=scout_points, partial=partial, speed=speed
        ).values()
    )
    return max(-CAP, min(CAP, total)) if cap_detection_mods else total


def outcome_of(modified: int, base: int) -> Outcome:
    """Judge a modified roll M against the base number N (BSG-R14).

    >>> [outcome_of(m, 5).value for m in (5, 6, 7)]
    ['located', 'partial', 'no_contact']
    """
    if modified <= base:
        return Outcome.LOCATED
    if modified == base + 1:
        return Outcome.PARTIAL
    return Outcome.NO_CONTACT


def _detect(values: Mapping[str, int], base: int, modifier: int) -> Outcome:
    return outcome_of(values["first"] + values["second"] + modifier, base)


def _no_roll(values: Mapping[str, int]) -> Outcome:
    return Outcome.NO_CONTACT


# BSG-A11: no dice, and the one outcome a failed roll also gives. Its odds are 0, 0, 1.
NO_ROLL: Check[Outcome] = Check((), _no_roll, tuple(Outcome))


def detection_check(
    range_hexes: int,
    rating: int,
    *,
    fighter: bool = False,
    flag: bool = False,
    scout: bool = False,
    scout_points: int = 0,
    partial: bool = False,
    speed: int = 0,
    cap_detection_mods: bool = False,
) -> Check[Outcome] | None:
    """The detection roll as a :class:`Check` (two named d6), or None if no roll is possible.

    BSG-T03: a flagship at 4 hexes, R=2, the side holds partial information, speed 2.

    >>> check = detection_check(4, 2, flag=True, partial=True, speed=2)
    >>> [str(p) for p in check.odds().values()]
    ['5/12', '1/6', '5/12']
    >>> check.judge_values({"first": 3, "second": 4}).value
    'partial'
    >>> detection_check(6, 2, fighter=True) is None
    True

    Raises ``ValueError`` as :func:`base_number` and :func:`modifiers` do.
    """
    modifier = total_modifier(
        rating,
        flag=flag,
        scout=scout,
        scout_points=scout_points,
        partial=partial,
        speed=speed,
        cap_detection_mods=cap_detection_mods,
    )
    base = base_number(range_hexes, fighter)
    if base is None:
        return None
    return Check(DICE, _detect, tuple(Outcome), (base, modifier))


@dataclass(frozen=True)
class DetectionOdds:
    """Exact odds of one detection attempt, and the base number (None: no roll possible)."""

    located: Fraction
    partial: Fraction
    no_contact: Fraction
    base_number: int | None


def odds(
    range_hexes: int,
    rating: int,
    *,
    fighter: bool = False,
    flag: bool = False,
    scout: bool = False,
    scout_points: int = 0,
    partial: bool = False,
    speed: int = 0,
    cap_detection_mods: bool = False,
) -> DetectionOdds:
    """Exact odds of located / partial / no contact (BSG-R14), from :func:`detection_check`.

    >>> attempt = odds(4, 2, flag=True, partial=True, speed=2)  # BSG-T03
    >>> attempt.located, attempt.partial, attempt.base_number
    (Fraction(5, 12), Fraction(1, 6), 5)
    >>> attempt = odds(21, 1)  # BSG-T05: beyond 20 hexes
    >>> attempt.no_contact, attempt.base_number
    (Fraction(1, 1), None)
    """
    check = detection_check(
        range_hexes,
        rating,
        fighter=fighter,
        flag=flag,
        scout=scout,
        scout_points=scout_points,
        partial=partial,
        speed=speed,
        cap_detection_mods=cap_detection_mods,
    )
    by_outcome = (check or NO_ROLL).odds()
    return DetectionOdds(
        located=by_outcome[Outcome.LOCATED],
        partial=by_outcome[Outcome.PARTIAL],
        no_contact=by_outcome[Outcome.NO_CONTACT],
        base_number=base_number(range_hexes, fighter),
    )


# --- the odds query: ghillie odds ambush-fields detect --range 4 --rating 2 ... --------------


class DetectParams(Params):
    range: int = Field(
        description="hexes from the detecting ship to the field's nearest hex: 1 to 20 "
        "(a fighter or shuttle: 1 to 5)"
    )
    rating: int = Field(ge=1, le=3, description="the field's rating R, 1 to 3")
    fighter: bool = Field(False, description="the detecting unit is a fighter flight or shuttle")
    flag: bool = Field(False, description="the detecting ship has a Flag rating (-1)")
    partial: bool = Field(False, description="the side holds partial information on the field")
    # The host game's speed scale and scout-point allotments (RULES-SPEC §1.1): bounded as
    # the Plot and AssignEW commands bound them.
    speed: int = Field(0, ge=0, le=99, description="the field controller's speed this turn")
    scout_points: int = Field(
        0, ge=0, le=99, description="points the detecting scout spends on its own roll (-1 each)"
    )

    @model_validator(mode="after")
    def _a_roll_that_can_be_made(self) -> DetectParams:
        # Where the table has no number (BSG-A11) no roll is made: there are no odds to give,
        # and the range that does exist is what a player needs to hear.
        if self.range < 1:
            raise param_error(
                self,
                "range",
                "out_of_range",
                "the range is counted to the field's nearest hex, so it is at least 1: a ship "
                "inside the field makes no roll, it finds everything there (BSG-R26)",
            )
        if self.fighter and self.range > FIGHTER_RANGE:
            raise param_error(
                self,
                "range",
                "out_of_range",
                "a fighter or shuttle detects a field at most {most} hexes away (BSG-R14); "
                "farther, it makes no roll and the attempt shows as no contact",
                most=FIGHTER_RANGE,
            )
        if self.range > MAX_RANGE:
            raise param_error(
                self,
                "range",
                "out_of_range",
                "the longest detection range is {most} hexes (BSG-A11); farther, no roll is "
                "made and the attempt shows as no contact",
                most=MAX_RANGE,
            )
        if self.fighter and self.scout_points:
            raise param_error(
                self,
                "scout_points",
                "not_a_scout",
                "a fighter or shuttle is no scout: it has no scout points to spend (BSG-A09)",
            )
        return self


def _detect_query(p: DetectParams, switches: DetectionSwitches) -> Check[Outcome]:
    # Only a scout has scout points to spend (BSG-A09), so spending them names a scout.
    check = detection_check(
        p.range,
        p.rating,
        fighter=p.fighter,
        flag=p.flag,
        scout=p.scout_points > 0,
        scout_points=p.scout_points,
        partial=p.partial,
        speed=p.speed,
        cap_detection_mods=switches.cap_detection_mods,
    )
    return check or NO_ROLL


def detector(fighter: bool, scout_points: int) -> str:
    """Who rolls, in players' words."""
    if fighter:
        return "a fighter or shuttle"
    if scout_points:
        return f"a scout spending {scout_points} scout point{'s' if scout_points > 1 else ''}"
    return "a capital ship"


def conditions(*, flag: bool, partial: bool, speed: int, cap_detection_mods: bool) -> list[str]:
    """The modifiers other than the rating and scout points, in players' words."""
    return [
        w
        for w in (
            "with a Flag rating" if flag else "",
            "holding partial information" if partial else "",
            f"the field's controller at speed {speed}" if speed else "",
            "modifiers capped at ±3" if cap_detection_mods else "",
        )
        if w
    ]


def _detect_title(p: DetectParams, check: Check[Outcome]) -> str:
    uncapped = total_modifier(
        p.rating,
        flag=p.flag,
        scout=p.scout_points > 0,
        scout_points=p.scout_points,
        partial=p.partial,
        speed=p.speed,
    )
    # bsg.cap_detection_mods is the scenario's; the check shows whether it held the sum back.
    capped = check is not NO_ROLL and check.args[1] != uncapped
    situation = ", ".join(
        [
            f"Detection by {detector(p.fighter, p.scout_points)} {p.range} "
            f"hex{'es' if p.range > 1 else ''} from a rating {p.rating} field",
            *conditions(flag=p.flag, partial=p.partial, speed=p.speed, cap_detection_mods=capped),
        ]
    )
    if check is NO_ROLL:
        return f"{situation}: no roll is possible, the attempt shows as no contact"
    base, modifier = check.args
    roll = "2d6" if modifier == 0 else f"2d6 {'+' if modifier > 0 else '-'} {abs(modifier)}"
    return f"{situation}: {roll}, located on {base} or less, partial information on {base + 1}"


def _plot_query(path: Path, params: DetectParams, switches: DetectionSwitches) -> Path:
    from .plot import plot_detection

    # The chart sweeps the range; everything else is as the player gave it.
    return plot_detection(
        path,
        ratings=(params.rating,),
        fighters=(params.fighter,),
        flag=params.flag,
        partial=params.partial,
        speed=params.speed,
        scout_points=params.scout_points,
        cap_detection_mods=switches.cap_detection_mods,
        mark=params.range,
    )


ODDS = OddsQuery(
    "detect",
    "A detection roll against an ambush field (BSG-R14): 2d6 + R + mods against the range's "
    "base number.",
    DetectParams,
    _detect_query,
    {
        "located": "located",
        "partial": "partial information (missed by 1)",
        "no_contact": "no contact",
    },
    plot=_plot_query,
    title=_detect_title,
    rules="BSG-R14, BSG-R15, BSG-A02, BSG-A08, BSG-A11",
)

__all__ = [
    "BASE_NUMBERS",
    "FIGHTER_RANGE",
    "MAX_RANGE",
    "NO_ROLL",
    "ODDS",
    "DetectParams",
    "DetectionOdds",
    "DetectionSwitches",
    "Outcome",
    "base_number",
    "detection_check",
    "modifiers",
    "odds",
    "outcome_of",
    "speed_modifier",
    "total_modifier",
]
