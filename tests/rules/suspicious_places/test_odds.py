"""Exact odds of the dice checks (RULES-SPEC SW-T09, SW-A01, SW-T10), against a brute-force
oracle that counts every face combination with itertools.product."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from ghillie.dice import Die, Overflow, step_die
from ghillie.dice.check import Check
from ghillie.measure.tabletop import Cover
from ghillie.rules.suspicious_places import checks as sw
from ghillie.rules.suspicious_places.odds import ODDS, ObserveParams
from ghillie.rules.suspicious_places.scenario import SuspiciousPlacesSwitches

# Every die on the chain and past it: d12+k, d20, d20+k (SW-A01's three readings).
CHAIN = [Die(4), Die(6), Die(8), Die(10), Die(12)]
OVERFLOW = [Die(12, 1), Die(12, 2), Die(12, 4), Die(20), Die(20, 1), Die(20, 3)]
TARGETS = CHAIN + OVERFLOW
OBSERVERS = [*CHAIN, Die(12, 1)]
MEANS = [Die(4), Die(6), Die(8), Die(10)]


def faces(die: Die) -> range:
    return range(1 + die.plus, die.faces + die.plus + 1)


def oracle(target: Die, first: Die, second: Die, *, sniper: bool = False) -> Counter[str]:
    """Count, over every face combination, how many of the two dice beat the target
    (strictly), and whether a sniper's quality die (``first``) showed a 1."""
    counts: Counter[str] = Counter()
    for t, a, b in itertools.product(faces(target), faces(first), faces(second)):
        h = (a > t) + (b > t)
        betrayed = sniper and a == 1
        counts[f"{'betrayed_' if betrayed else ''}{h}"] += 1
    return counts


def as_fractions(counts: Counter[str]) -> dict[str, Fraction]:
    total = sum(counts.values())
    return {key: Fraction(n, total) for key, n in counts.items()}


OBSERVATION_KEYS = {
    "nothing": "0",
    "flipped": "1",
    "revealed": "2",
    "betrayed_nothing": "betrayed_0",
    "betrayed_flipped": "betrayed_1",
}
SHOT_KEYS = {
    "miss": "0",
    "partial": "1",
    "full": "2",
    "betrayed_miss": "betrayed_0",
    "betrayed_partial": "betrayed_1",
}


def by_oracle_key(check: Check[Any], keys: dict[str, str]) -> dict[str, Fraction]:
    return {keys[str(outcome)]: p for outcome, p in check.odds().items() if p}


@pytest.mark.spec("SW-T09")
def test_d10_against_d4_and_d8_has_the_exact_odds_99_160_21_80_19_160() -> None:
    check = sw.observation(Die(10), Die(8), Die(4))
    assert [str(p) for p in check.odds().values()] == ["99/160", "21/80", "19/160"]
    assert as_fractions(oracle(Die(10), Die(8), Die(4))) == {
        "0": Fraction(99, 160),
        "1": Fraction(21, 80),
        "2": Fraction(19, 160),
    }


@pytest.mark.spec("SW-T09")
def test_the_sergeants_odds_query_gives_the_same_check() -> None:
    query = ODDS["observe"]
    params = ObserveParams(range=30, cover=Cover.SOFT, quality="к8", means="eyes")
    odds = query.check(params, SuspiciousPlacesSwitches()).odds()
    assert {str(k): v for k, v in odds.items()} == {
        "nothing": Fraction(99, 160),
        "flipped": Fraction(21, 80),
        "revealed": Fraction(19, 160),
    }


@pytest.mark.spec("SW-T09", "SW-R14", "SW-A01")
@pytest.mark.parametrize("target", TARGETS, ids=str)
def test_observation_odds_match_brute_force_for_every_die_combination(target: Die) -> None:
    for quality, means in itertools.product(OBSERVERS, MEANS):
        check = sw.observation(target, quality, means)
        assert by_oracle_key(check, OBSERVATION_KEYS) == as_fractions(
            oracle(target, quality, means)
        ), (target, quality, means)


@pytest.mark.spec("SW-T09", "SW-R15", "SW-A01")
@pytest.mark.parametrize("target", TARGETS, ids=str)
def test_shot_odds_match_brute_force_for_every_die_combination(target: Die) -> None:
    for quality, weapon in itertools.product(OBSERVERS, [*CHAIN, Die(12, 1)]):
        check = sw.shot(target, quality, weapon)
        assert by_oracle_key(check, SHOT_KEYS) == as_fractions(oracle(target, quality, weapon)), (
            target,
            quality,
            weapon,
        )


@pytest.mark.spec("SW-T09", "SW-R35")
@pytest.mark.parametrize("target", [Die(4), Die(10), Die(12, 2), Die(20, 1)], ids=str)
def test_a_hidden_snipers_odds_split_off_every_quality_one(target: Die) -> None:
    for quality, other in itertools.product(CHAIN, MEANS):
        observed = sw.observation(target, quality, other, sniper=True)
        shot = sw.shot(target, quality, other, sniper=True)
        expected = as_fractions(oracle(target, quality, other, sniper=True))
        assert by_oracle_key(observed, OBSERVATION_KEYS) == expected
        assert by_oracle_key(shot, SHOT_KEYS) == expected
        # A 1 on the quality die happens 1 time in its faces, whatever else.
        betrayed = sum(p for k, p in observed.odds().items() if str(k).startswith("betrayed"))
        assert betrayed == Fraction(1, quality.faces)


@pytest.mark.spec("SW-T09", "SW-R36", "SW-A11")
def test_covert_move_odds_match_brute_force() -> None:
    for quality, leadership in itertools.product(CHAIN, CHAIN):
        opposed = Counter(
            "betrayed" if q == 1 else ("success" if q > lead else "failure")
            for q, lead in itertools.product(faces(quality), faces(leadership))
        )
        got = {str(k): p for k, p in sw.covert_move(quality, leadership).odds().items() if p}
        assert got == as_fractions(opposed), (quality, leadership)
    for quality, number in itertools.product(CHAIN, range(13)):
        against = Counter(
            "betrayed" if q == 1 else ("success" if q > number else "failure")
            for q in faces(quality)
        )
        got = {str(k): p for k, p in sw.covert_move(quality, number).odds().items() if p}
        assert got == as_fractions(against), (quality, number)


@pytest.mark.spec("SW-R02", "SW-A04")
def test_marker_pool_odds_are_the_sum_of_a_d6_per_unit() -> None:
    for units in (1, 2, 3):
        totals = Counter(sum(r) for r in itertools.product(range(1, 7), repeat=units))
        got = {k: p for k, p in sw.marker_count(units).odds().items() if p}
        assert got == {k: Fraction(n, 6**units) for k, n in totals.items()}


# --- the step chain and overflow (SW-A01, SW-T10) ------------------------------------------------


@pytest.mark.spec("SW-A01", "SW-T10")
@pytest.mark.parametrize(
    ("overflow", "die"),
    [
        (Overflow.D12_PLUS, "d12+2"),  # DEFAULT: +1 per step past d12
        (Overflow.D20_THEN_PLUS, "d20+1"),
        (Overflow.CAP_D12, "d12"),
    ],
)
def test_sixty_inches_into_hard_cover_is_seven_steps(overflow: Overflow, die: str) -> None:
    switches = SuspiciousPlacesSwitches.model_validate({"sw.overflow": overflow.value})
    assert str(sw.observation_die(60, Cover.HARD, switches)) == die


@pytest.mark.spec("SW-A01")
def test_each_step_past_d12_adds_one_to_the_mean_under_the_default() -> None:
    means = [Fraction(sum(faces(step_die(s))), step_die(s).faces) for s in range(1, 10)]
    assert [m2 - m1 for m1, m2 in itertools.pairwise(means)] == [1] * 8


@pytest.mark.spec("SW-A01", "SW-T10")
def test_the_odds_count_an_overflow_dies_bonus() -> None:
    # A d12+2 shows 3..14: the eyes' d4 beats it only on a 4 against a 3, and the d8 then
    # needs 4..8 — so both dice are higher only 1 x 5 x 1 times in 12 x 8 x 4.
    check = sw.observation(Die(12, 2), Die(8), Die(4))
    assert check.odds()[sw.Observation.REVEALED] == Fraction(1 * 5 * 1, 12 * 8 * 4)
