"""Checks: exact odds from icepool equal brute-force enumeration; rolls use the same judge."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.dice.check import Check, percent
from ghillie.dice.steps import Die


def brute_force(check: Check[object]) -> dict[object, Fraction]:
    """The oracle: every joint face of every die, counted."""
    labels = [label for label, _ in check.dice]
    faces = [range(die.lowest, die.highest + 1) for _, die in check.dice]
    total = 0
    counts: dict[object, int] = dict.fromkeys(check.outcomes, 0)
    for values in itertools.product(*faces):
        counts[check.judge_values(dict(zip(labels, values, strict=True)))] += 1
        total += 1
    return {o: Fraction(c, total) for o, c in counts.items()}


def beaten(values: Mapping[str, int]) -> int:
    return sum(values[k] > values["target"] for k in values if k != "target")


def total(values: Mapping[str, int], bonus: int) -> int:
    return sum(values.values()) + bonus


dice = st.builds(Die, st.sampled_from([4, 6, 8, 10, 12, 20]), st.integers(0, 3))


@settings(max_examples=60, deadline=None)
@given(st.lists(dice, min_size=2, max_size=3))
def test_odds_of_beating_a_target_equal_brute_force(rolled: list[Die]) -> None:
    check = Check(
        (("target", rolled[0]), *((f"d{i}", d) for i, d in enumerate(rolled[1:]))),
        beaten,
        tuple(range(len(rolled))),
    )
    assert check.odds() == brute_force(check)
    assert sum(check.odds().values()) == 1


@settings(max_examples=30, deadline=None)
@given(st.lists(dice, min_size=1, max_size=3), st.integers(-3, 3))
def test_odds_of_a_total_with_extra_arguments_equal_brute_force(
    rolled: list[Die], bonus: int
) -> None:
    low = sum(d.lowest for d in rolled) + bonus
    high = sum(d.highest for d in rolled) + bonus
    check = Check(
        tuple((f"d{i}", d) for i, d in enumerate(rolled)),
        total,
        tuple(range(low, high + 1)),
        (bonus,),
    )
    assert check.odds() == brute_force(check)


def test_impossible_outcomes_are_kept_as_zero() -> None:
    check = Check((("target", Die(4)), ("a", Die(4))), beaten, (0, 1, 2))
    assert check.odds()[2] == 0
    assert list(check.odds()) == [0, 1, 2]


def test_an_outcome_the_check_did_not_declare_is_an_error() -> None:
    check = Check((("target", Die(6)), ("a", Die(6)), ("b", Die(6))), beaten, (0, 1))
    with pytest.raises(ValueError, match="outcome not among"):
        check.odds()


def test_a_roll_draws_each_die_in_order_and_judges_with_the_same_function() -> None:
    check = Check((("target", Die(10)), ("quality", Die(8)), ("means", Die(4))), beaten, (0, 1, 2))
    asked = []

    def draw(label: str, die: Die) -> int:
        asked.append((label, str(die)))
        return {"target": 6, "quality": 7, "means": 1}[label]

    values, outcome = check.roll(draw)
    assert asked == [("target", "d10"), ("quality", "d8"), ("means", "d4")]
    assert (values, outcome) == ({"target": 6, "quality": 7, "means": 1}, 1)


def test_percent_is_only_for_display() -> None:
    assert percent(Fraction(99, 160)) == "61.88%"
    assert percent(Fraction(1, 3), 1) == "33.3%"
