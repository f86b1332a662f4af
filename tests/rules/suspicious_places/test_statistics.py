"""SW-T09 by sampling: the rolls the rules make follow the exact odds the players are shown.

The exact odds are checked against brute force in test_odds.py; here the roll path itself
(dice source → Check.roll → the same judge) is sampled and compared with those odds by a
chi-square test at the 0.1% level. ``--run-slow`` runs a million observations.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ghillie.dice.check import Check
from ghillie.dice.source import DiceSource, RandomDice, SeededDice
from ghillie.dice.steps import Die
from ghillie.rules.suspicious_places.checks import observation, shot

CRITICAL_DF2 = 13.82  # chi-square, 2 degrees of freedom, p = 0.001


def _chi_square(check: Check[object], rolls: int, dice: DiceSource) -> float:
    def draw(_label: str, die: Die) -> int:
        return dice.roll(die.faces) + die.plus

    counts = Counter(check.roll(draw)[1] for _ in range(rolls))
    expected = {o: rolls * float(p) for o, p in check.odds().items() if p}
    return sum((counts[o] - e) ** 2 / e for o, e in expected.items())


@pytest.mark.spec("SW-T09")
def test_sampled_observations_follow_the_exact_odds() -> None:
    check = observation(Die(10), Die(8), Die(4))
    assert _chi_square(check, 60_000, RandomDice()) < CRITICAL_DF2


@pytest.mark.spec("SW-T09")
def test_sampled_shots_with_an_overflow_die_follow_the_exact_odds() -> None:
    check = shot(Die(12, 2), Die(10), Die(8))
    assert _chi_square(check, 60_000, SeededDice(2026)) < CRITICAL_DF2


@pytest.mark.slow
@pytest.mark.spec("SW-T09")
def test_a_million_observations_follow_the_exact_odds() -> None:
    check = observation(Die(10), Die(8), Die(4))
    chi2 = _chi_square(check, 1_000_000, RandomDice())
    print(f"\n10^6 observations d10 vs d8+d4: chi-square {chi2:.2f} (critical {CRITICAL_DF2})")
    assert chi2 < CRITICAL_DF2
