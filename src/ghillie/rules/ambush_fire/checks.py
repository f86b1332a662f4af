"""The d100 rolls of ambush-fire (the Bunkermeister's Special and Ambush Fire), each a check
with its exact odds.

Every shot is a "Percentage Chance to Hit" (RULES-SPEC §2.1) rolled on one d100: a hit when
the die shows the percent or less. The special fire only lowers that chance: Challenge Fire
10% lower (BMF-R03), the target's reply 20% lower (R04), return fire after an Ambush 10%
lower (R12), the defence against an Ambush Close Combat 10% lower (R17, A02), and nothing
for the fire at an attacker who failed to make contact (R19). How "10% lower" reads is the
switch ``bmf.penalty_mode`` (A01). Every function here takes plain numbers: the ruleset
decides what they are, and whether a shot is allowed at all (R02, R05, R07, A10, A12).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final

from ghillie.dice.check import Check
from ghillie.dice.steps import Die

D100 = Die(100)
TO_HIT = "to hit"  # the roll's label, as the odds and the log name it

HIT = "hit"
MISS = "miss"


class PenaltyMode(StrEnum):
    """RULES-SPEC BMF-A01 (``bmf.penalty_mode``): what "10% lower" takes off a chance."""

    # DEFAULT: percentage points, as the author's other fire rules add theirs ("add 5% to
    # hit"): 60% 10% lower is 50%, and never below 0%.
    ADDITIVE = "additive"
    # A share of the chance: 60% 10% lower is 60 x 0.9 = 54%, 20% lower is x 0.8. A d100
    # needs a whole percent, so the product is rounded half up (55 x 0.9 = 49.5 -> 50).
    MULTIPLICATIVE = "multiplicative"


class CloseCombatReading(StrEnum):
    """RULES-SPEC BMF-A02 (``bmf.close_combat``): what the host's close combat rolls, and so
    what "a 10% reduction in strength" takes off the defence (BMF-R17)."""

    # DEFAULT: a percent chance, 10 lower as ``bmf.penalty_mode`` reads it (50% -> 40%).
    PERCENT = "percent"
    # A strength number: nine tenths of it, rounded with the host's rule
    # (``bmf.strength_rounding``): 50 -> 45, 55 -> 49.5 -> 50 (half up). ghillie rolls a
    # strength as it rolls every number of the text, on a d100, at or under it.
    STRENGTH = "strength"


class Rounding(StrEnum):
    """The host's rule for rounding a strength × 0.9 to a whole number (BMF-A02)."""

    HALF_UP = "half_up"  # DEFAULT: 49.5 -> 50, 49.4 -> 49
    DOWN = "down"  # 49.9 -> 49
    UP = "up"  # 49.1 -> 50


def surprised(strength: int, rounding: Rounding) -> int:
    """BMF-R17, A02 read as a strength number: ``strength`` × 0.9, rounded with the host's
    rule (integer arithmetic: no float decides a roll).

    >>> surprised(50, Rounding.HALF_UP), surprised(55, Rounding.HALF_UP)
    (45, 50)
    >>> surprised(55, Rounding.DOWN), surprised(51, Rounding.UP), surprised(0, Rounding.UP)
    (49, 46, 0)
    """
    _percent(strength, "a strength")
    tenths = strength * 9
    extra = {Rounding.HALF_UP: 5, Rounding.DOWN: 0, Rounding.UP: 9}[Rounding(rounding)]
    return (tenths + extra) // 10


def defence(base: int, mode: PenaltyMode, reading: CloseCombatReading, rounding: Rounding) -> int:
    """The defence's number after the surprise (BMF-R17): 10 lower as a percent chance
    (A01's reading), or nine tenths of a strength (A02's other reading).

    >>> defence(50, PenaltyMode.ADDITIVE, CloseCombatReading.PERCENT, Rounding.HALF_UP)
    40
    >>> defence(50, PenaltyMode.ADDITIVE, CloseCombatReading.STRENGTH, Rounding.HALF_UP)
    45
    """
    if CloseCombatReading(reading) is CloseCombatReading.STRENGTH:
        return surprised(base, rounding)
    return chance(base, Penalty.DEFENCE, mode)


class Penalty:
    """How many percent lower than normal each shot of the text is (BMF-A01 reads them)."""

    CHALLENGE: Final = 10  # BMF-R03: "The fire is taken 10% lower than normal."
    # BMF-R04: "The target may fire back, even if he is destroyed, but must reduce his
    # chance to hit by 20%."
    RETURN_CHALLENGE: Final = 20
    AMBUSH: Final = 0  # BMF-R07..R11: the text gives Ambush Fire itself no modifier
    # BMF-R12: "Since the return fire is at a target that was concealed the return fire is
    # 10% lower than normal."
    RETURN_AMBUSH: Final = 10
    # BMF-R17, A02: "a 10% reduction in strength due to surprise", read as a percent chance.
    DEFENCE: Final = 10
    # BMF-R19: the attacker who failed to make contact is fired on at the full chance, "the
    # fire is not subject to a 10% reduction because the defender is not surprised".
    FAILED_CONTACT: Final = 0


# The kinds of shot, as the odds queries name them (``challenge --chance 60``).
CHALLENGE = "challenge"
RETURN_CHALLENGE = "return-challenge"
AMBUSH = "ambush"
RETURN_AMBUSH = "return-ambush"
DEFENCE = "defence"
FAILED_CONTACT = "failed-contact"

PENALTIES: dict[str, int] = {
    CHALLENGE: Penalty.CHALLENGE,  # BMF-R03: the challenging firer
    RETURN_CHALLENGE: Penalty.RETURN_CHALLENGE,  # BMF-R04, A05: the challenged target's reply
    AMBUSH: Penalty.AMBUSH,  # BMF-R07: the ambusher, at its normal chance
    RETURN_AMBUSH: Penalty.RETURN_AMBUSH,  # BMF-R12: a surviving target at the ambusher
    DEFENCE: Penalty.DEFENCE,  # BMF-R17, A02: the defence in an Ambush Close Combat
    FAILED_CONTACT: Penalty.FAILED_CONTACT,  # BMF-R19: fire at a failed close-combat attacker
}


def _percent(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise ValueError(f"{what} is a whole percent from 0 to 100, not {value!r}")
    return value


def chance(base: int, penalty: int, mode: PenaltyMode) -> int:
    """The percent chance to hit of a shot ``penalty`` percent lower than ``base`` (BMF-A01).

    Additive (the DEFAULT) takes ``penalty`` points off, never going below 0; multiplicative
    keeps ``100 - penalty`` hundredths of ``base``, rounded half up to a whole percent.
    Raises ``ValueError`` unless ``base`` and ``penalty`` are whole percents from 0 to 100.

    >>> chance(60, Penalty.CHALLENGE, PenaltyMode.ADDITIVE)
    50
    >>> chance(55, Penalty.RETURN_CHALLENGE, PenaltyMode.ADDITIVE)
    35
    >>> chance(5, Penalty.CHALLENGE, PenaltyMode.ADDITIVE)
    0
    >>> chance(60, Penalty.CHALLENGE, PenaltyMode.MULTIPLICATIVE)
    54
    >>> chance(55, Penalty.CHALLENGE, PenaltyMode.MULTIPLICATIVE)
    50
    """
    _percent(base, "a base chance")
    _percent(penalty, "a penalty")
    if PenaltyMode(mode) is PenaltyMode.ADDITIVE:
        return max(0, base - penalty)
    # Integer arithmetic: half a percent rounds up, and no float decides a roll.
    return (base * (100 - penalty) + 50) // 100


def _shot(values: Mapping[str, int], percent: int) -> str:
    # d100 faces are 1..100: 0% never hits, 100% always does.
    return HIT if values[TO_HIT] <= percent else MISS


def shot(percent: int) -> Check[str]:
    """One shot: a d100 (labelled ``to hit``, 1..100), a hit when it shows ``percent`` or less.
    Outcomes ``("hit", "miss")``. Raises ``ValueError`` unless ``percent`` is 0..100.

    >>> [str(p) for p in shot(35).odds().values()]
    ['7/20', '13/20']
    >>> shot(0).odds()["hit"], shot(100).odds()["miss"]
    (Fraction(0, 1), Fraction(0, 1))
    """
    return Check(((TO_HIT, D100),), _shot, (HIT, MISS), (_percent(percent, "a chance"),))


def check_for(kind: str, base: int, mode: PenaltyMode) -> Check[str]:
    """The shot of a ``kind`` of fire (a key of ``PENALTIES``) at the base chance ``base``.
    Raises ``ValueError`` for an unknown kind or a base outside 0..100.

    >>> str(check_for("challenge", 60, PenaltyMode.ADDITIVE).odds()["hit"])
    '1/2'
    >>> str(check_for("return-challenge", 55, PenaltyMode.ADDITIVE).odds()["hit"])
    '7/20'
    >>> str(check_for("return-ambush", 60, PenaltyMode.ADDITIVE).odds()["hit"])
    '1/2'
    """
    if kind not in PENALTIES:
        raise ValueError(f"{kind!r} is not a kind of fire: use {', '.join(PENALTIES)}")
    return shot(chance(base, PENALTIES[kind], mode))


# --- Challenge Fire and its reply (BMF-R04, A05) -----------------------------------------------

# (the challenge shot hits, the return shot hits), in the order players read them.
ExchangeOutcome = tuple[bool, bool]
EXCHANGE_OUTCOMES: tuple[ExchangeOutcome, ...] = (
    (True, True),
    (True, False),
    (False, True),
    (False, False),
)


def _exchange(
    values: Mapping[str, int], firer_percent: int, target_percent: int
) -> ExchangeOutcome:
    # Simultaneous (A05): the reply is judged whatever the challenge die shows, so a target
    # the challenge destroys still hits back ("even if he is destroyed").
    return values["challenge"] <= firer_percent, values["return"] <= target_percent


def _unanswered(values: Mapping[str, int], firer_percent: int) -> ExchangeOutcome:
    return values["challenge"] <= firer_percent, False


def challenge_exchange(
    firer_percent: int, target_percent: int, target_facing: bool
) -> Check[ExchangeOutcome]:
    """Challenge Fire and the target's reply, rolled together (BMF-R04, A05).

    Two d100s, ``challenge`` against ``firer_percent`` and ``return`` against
    ``target_percent`` (both percents after their penalties: see :func:`chance`). The
    outcome is (the challenge hits, the return hits); both stand together, casualties come
    off afterwards. A target whose weapon does not face the firer may not fire: then only
    the ``challenge`` die is rolled and the return never hits. The outcomes are always the
    four of ``EXCHANGE_OUTCOMES``. Raises ``ValueError`` unless both percents are 0..100.

    >>> check = challenge_exchange(50, 35, True)
    >>> [label for label, _ in check.dice], str(check.odds()[(True, True)])
    (['challenge', 'return'], '7/40')
    >>> [label for label, _ in challenge_exchange(50, 35, False).dice]
    ['challenge']
    """
    firer = _percent(firer_percent, "the challenge's chance")
    target = _percent(target_percent, "the return's chance")
    if not target_facing:
        return Check((("challenge", D100),), _unanswered, EXCHANGE_OUTCOMES, (firer,))
    return Check(
        (("challenge", D100), ("return", D100)), _exchange, EXCHANGE_OUTCOMES, (firer, target)
    )
