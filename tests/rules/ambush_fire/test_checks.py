"""The d100 rolls of ambush-fire (RULES-SPEC BMF-A01, A02, A05, R03, R04, R12, R17, R19,
BMF-T03): chances after each penalty under both readings of "10% lower", and exact odds
against a brute-force oracle that lists every face of the d100 with itertools.product and
reads it by the rule's own words."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from ghillie.dice.check import Check
from ghillie.rules.ambush_fire import checks as bmf
from ghillie.rules.ambush_fire.checks import Penalty, PenaltyMode

D100 = range(1, 101)
ADDITIVE, MULTIPLICATIVE = PenaltyMode.ADDITIVE, PenaltyMode.MULTIPLICATIVE
BOTH = [ADDITIVE, MULTIPLICATIVE]


def nonzero(check: Check[Any]) -> dict[Any, Fraction]:
    return {outcome: p for outcome, p in check.odds().items() if p}


def as_fractions(counts: Counter[Hashable]) -> dict[Hashable, Fraction]:
    total = sum(counts.values())
    return {key: Fraction(n, total) for key, n in counts.items() if n}


def shot_oracle(percent: int) -> dict[Hashable, Fraction]:
    """Every face of one d100: a hit at the percent or under."""
    return as_fractions(Counter("hit" if die <= percent else "miss" for die in D100))


def exchange_oracle(firer: int, target: int, facing: bool) -> dict[Hashable, Fraction]:
    """Both dice, every pair of faces: each shot read on its own die, neither waiting for
    the other (the target fires back even if the challenge destroys it). A target not
    facing the firer rolls nothing and hits nothing."""
    if not facing:
        return as_fractions(Counter((die <= firer, False) for die in D100))
    pairs = itertools.product(D100, D100)
    return as_fractions(Counter((c <= firer, r <= target) for c, r in pairs))


def multiplied(base: int, penalty: int) -> int:
    """The multiplicative reading by hand: base x (1 - penalty/100), half a percent up."""
    return math.floor(Fraction(base) * (1 - Fraction(penalty, 100)) + Fraction(1, 2))


# --- BMF-A01: "10% lower" (one test per reading) ----------------------------------------------


@pytest.mark.spec("BMF-A01")
def test_the_default_reading_is_percentage_points() -> None:
    assert next(iter(PenaltyMode)) is ADDITIVE  # the DEFAULT comes first
    assert [mode.value for mode in PenaltyMode] == ["additive", "multiplicative"]
    assert bmf.chance(60, 10, ADDITIVE) == 50
    assert bmf.chance(60, 20, ADDITIVE) == 40
    for base, penalty in itertools.product(range(101), (0, 10, 20)):
        assert bmf.chance(base, penalty, ADDITIVE) == max(0, base - penalty), (base, penalty)


@pytest.mark.spec("BMF-A01")
def test_percentage_points_stop_at_zero() -> None:
    assert bmf.chance(5, 10, ADDITIVE) == 0
    assert bmf.chance(10, 10, ADDITIVE) == 0
    assert bmf.chance(15, 20, ADDITIVE) == 0
    assert bmf.chance(0, 20, ADDITIVE) == 0
    assert nonzero(bmf.shot(bmf.chance(5, 10, ADDITIVE))) == {"miss": Fraction(1)}


@pytest.mark.spec("BMF-A01")
def test_the_multiplicative_reading_keeps_a_share_of_the_chance() -> None:
    assert bmf.chance(60, 10, MULTIPLICATIVE) == 54  # 60 x 0.9
    assert bmf.chance(60, 20, MULTIPLICATIVE) == 48  # 60 x 0.8
    assert bmf.chance(55, 20, MULTIPLICATIVE) == 44  # 55 x 0.8
    assert bmf.chance(100, 20, MULTIPLICATIVE) == 80
    assert bmf.chance(0, 10, MULTIPLICATIVE) == 0
    for base, penalty in itertools.product(range(101), (0, 10, 20)):
        got = bmf.chance(base, penalty, MULTIPLICATIVE)
        assert got == multiplied(base, penalty), (base, penalty)
        assert 0 <= got <= base


@pytest.mark.spec("BMF-A01")
@pytest.mark.parametrize(
    ("base", "penalty", "expected"),
    [
        (55, 10, 50),  # 49.5: half a percent rounds up
        (45, 10, 41),  # 40.5
        (5, 10, 5),  # 4.5
        (15, 10, 14),  # 13.5 -> 14
        (33, 10, 30),  # 29.7
        (3, 20, 2),  # 2.4 rounds down
        (1, 20, 1),  # 0.8 rounds up: a small chance is not lost to rounding
        (1, 50, 1),  # 0.5
        (1, 60, 0),  # 0.4
    ],
)
def test_a_multiplied_chance_is_rounded_half_up_to_a_whole_percent(
    base: int, penalty: int, expected: int
) -> None:
    assert bmf.chance(base, penalty, MULTIPLICATIVE) == expected
    assert nonzero(bmf.shot(expected)) == shot_oracle(expected)


@pytest.mark.spec("BMF-A01")
@pytest.mark.parametrize("mode", BOTH)
def test_a_chance_and_a_penalty_are_whole_percents(mode: PenaltyMode) -> None:
    for bad in (-1, 101, 50.0, True, "50"):
        with pytest.raises(ValueError, match="whole percent"):
            bmf.chance(bad, 10, mode)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="whole percent"):
            bmf.chance(50, bad, mode)  # type: ignore[arg-type]
    assert bmf.chance(100, 0, mode) == 100
    assert bmf.chance(100, 100, mode) == 0
    assert bmf.chance(60, 10, mode.value) == bmf.chance(60, 10, mode)  # type: ignore[arg-type]


# --- the penalties of the text ------------------------------------------------------------------


@pytest.mark.spec("BMF-R03", "BMF-R04", "BMF-R12", "BMF-R17", "BMF-R19")
def test_bmf_r17_the_penalty_table_is_the_texts() -> None:
    assert bmf.PENALTIES == {
        "challenge": 10,
        "return-challenge": 20,
        "ambush": 0,
        "return-ambush": 10,
        "defence": 10,
        "failed-contact": 0,
    }
    assert (Penalty.CHALLENGE, Penalty.RETURN_CHALLENGE, Penalty.RETURN_AMBUSH) == (10, 20, 10)
    assert (Penalty.AMBUSH, Penalty.DEFENCE, Penalty.FAILED_CONTACT) == (0, 10, 0)


@pytest.mark.spec("BMF-R03")
def test_bmf_r03_challenge_fire_is_ten_lower() -> None:
    assert bmf.chance(60, Penalty.CHALLENGE, ADDITIVE) == 50
    assert bmf.chance(60, Penalty.CHALLENGE, MULTIPLICATIVE) == 54
    for base in range(101):
        check = bmf.check_for("challenge", base, ADDITIVE)
        assert nonzero(check) == shot_oracle(max(0, base - 10)), base


@pytest.mark.spec("BMF-R04")
def test_bmf_r04_the_reply_to_challenge_fire_is_twenty_lower() -> None:
    assert bmf.chance(55, Penalty.RETURN_CHALLENGE, ADDITIVE) == 35
    assert bmf.chance(55, Penalty.RETURN_CHALLENGE, MULTIPLICATIVE) == 44
    for base in range(101):
        check = bmf.check_for("return-challenge", base, ADDITIVE)
        assert nonzero(check) == shot_oracle(max(0, base - 20)), base


@pytest.mark.spec("BMF-R12")
def test_bmf_r12_return_fire_after_an_ambush_is_ten_lower_and_the_ambush_itself_is_not() -> None:
    assert bmf.chance(60, Penalty.RETURN_AMBUSH, ADDITIVE) == 50
    assert nonzero(bmf.check_for("return-ambush", 60, ADDITIVE)) == shot_oracle(50)
    assert nonzero(bmf.check_for("return-ambush", 60, MULTIPLICATIVE)) == shot_oracle(54)
    for mode in BOTH:  # the ambusher fires at its normal chance
        assert nonzero(bmf.check_for("ambush", 60, mode)) == shot_oracle(60)


@pytest.mark.spec("BMF-R17", "BMF-A02")
def test_bmf_a02_the_defence_in_an_ambush_close_combat_is_ten_lower() -> None:
    assert bmf.chance(50, Penalty.DEFENCE, ADDITIVE) == 40  # A02: a % chance, -10 points
    assert bmf.chance(50, Penalty.DEFENCE, MULTIPLICATIVE) == 45
    assert bmf.chance(8, Penalty.DEFENCE, ADDITIVE) == 0
    assert nonzero(bmf.check_for("defence", 50, ADDITIVE)) == shot_oracle(40)


@pytest.mark.spec("BMF-R19")
def test_the_defenders_of_a_failed_contact_fire_at_their_full_chance() -> None:
    for base, mode in itertools.product(range(101), BOTH):
        assert bmf.chance(base, Penalty.FAILED_CONTACT, mode) == base
    assert nonzero(bmf.check_for("failed-contact", 55, ADDITIVE)) == {
        "hit": Fraction(11, 20),
        "miss": Fraction(9, 20),
    }


def test_an_unknown_kind_of_fire_is_refused_with_the_kinds() -> None:
    with pytest.raises(ValueError, match="return-challenge"):
        bmf.check_for("snap", 60, ADDITIVE)


# --- the shot: one d100 ---------------------------------------------------------------------


@pytest.mark.spec("BMF-R03", "BMF-R12")
def test_a_shot_matches_brute_force_for_every_percent() -> None:
    for percent in range(101):
        check = bmf.shot(percent)
        assert check.outcomes == ("hit", "miss")
        assert [(label, str(die)) for label, die in check.dice] == [("to hit", "d100")]
        assert nonzero(check) == shot_oracle(percent), percent
        for die in D100:  # every face is read as the oracle reads it
            assert check.judge_values({"to hit": die}) == ("hit" if die <= percent else "miss")
    assert bmf.shot(0).odds() == {"hit": Fraction(0), "miss": Fraction(1)}
    assert bmf.shot(100).odds() == {"hit": Fraction(1), "miss": Fraction(0)}
    assert bmf.shot(50).roll(lambda label, die: 50) == ({"to hit": 50}, "hit")
    assert bmf.shot(50).roll(lambda label, die: 51) == ({"to hit": 51}, "miss")
    for bad in (-1, 101):
        with pytest.raises(ValueError, match="whole percent"):
            bmf.shot(bad)


# --- the odds queries of the issue -------------------------------------------------------------


@pytest.mark.spec("BMF-R03", "BMF-R04", "BMF-R12", "BMF-T03")
@pytest.mark.parametrize(
    ("kind", "base", "hit"),
    [
        ("challenge", 60, Fraction(1, 2)),
        ("return-challenge", 55, Fraction(7, 20)),
        ("return-ambush", 60, Fraction(1, 2)),
    ],
)
def test_the_odds_queries_are_exact(kind: str, base: int, hit: Fraction) -> None:
    after = {"challenge": 50, "return-challenge": 35, "return-ambush": 50}[kind]
    counted = Fraction(sum(1 for die in D100 if die <= after), len(D100))
    assert counted == hit
    odds = bmf.check_for(kind, base, ADDITIVE).odds()
    assert odds == {"hit": hit, "miss": 1 - hit}


# --- BMF-A05: Challenge Fire and the reply, simultaneous -----------------------------------------


@pytest.mark.spec("BMF-A05", "BMF-R04")
@pytest.mark.parametrize(
    ("firer", "target"), [(50, 35), (0, 0), (100, 100), (100, 0), (1, 99), (54, 44)]
)
def test_the_exchange_matches_brute_force(firer: int, target: int) -> None:
    check = bmf.challenge_exchange(firer, target, True)
    assert [label for label, _ in check.dice] == ["challenge", "return"]
    assert check.outcomes == ((True, True), (True, False), (False, True), (False, False))
    assert nonzero(check) == exchange_oracle(firer, target, True)


@pytest.mark.spec("BMF-A05", "BMF-R04")
def test_the_target_fires_back_even_if_the_challenge_destroys_it() -> None:
    check = bmf.challenge_exchange(50, 35, True)
    # The reply does not wait on the challenge: both hit with the product of the chances.
    assert check.odds()[(True, True)] == Fraction(50, 100) * Fraction(35, 100)
    for c, r in itertools.product(D100, D100):
        assert check.judge_values({"challenge": c, "return": r}) == (c <= 50, r <= 35)


@pytest.mark.spec("BMF-A05", "BMF-R04")
@pytest.mark.parametrize("firer", [0, 1, 50, 100])
def test_a_target_not_facing_the_firer_rolls_no_return_die(firer: int) -> None:
    check = bmf.challenge_exchange(firer, 35, False)
    assert [label for label, _ in check.dice] == ["challenge"]
    assert check.outcomes == bmf.challenge_exchange(firer, 35, True).outcomes
    assert nonzero(check) == exchange_oracle(firer, 35, False)
    assert check.odds()[(True, True)] == check.odds()[(False, True)] == 0
    for c in D100:
        assert check.judge_values({"challenge": c}) == (c <= firer, False)


@pytest.mark.spec("BMF-A05")
def test_the_exchange_refuses_a_chance_outside_a_percent() -> None:
    for facing in (True, False):
        with pytest.raises(ValueError, match="challenge"):
            bmf.challenge_exchange(101, 35, facing)
        with pytest.raises(ValueError, match="return"):
            bmf.challenge_exchange(50, -1, facing)


# --- BMF-T03: the worked Challenge Fire ---------------------------------------------------------


@pytest.mark.spec("BMF-T03")
def test_the_worked_challenge_fire() -> None:
    firer = bmf.chance(60, Penalty.CHALLENGE, ADDITIVE)
    target = bmf.chance(55, Penalty.RETURN_CHALLENGE, ADDITIVE)
    assert (firer, target) == (50, 35)

    check = bmf.challenge_exchange(firer, target, True)
    drawn: list[str] = []

    def draw(label: str, die: object) -> int:
        drawn.append(label)
        return {"challenge": 12, "return": 30}[label]

    # The 50% shot kills the target, and its 35% reply still hits.
    assert check.roll(draw) == ({"challenge": 12, "return": 30}, (True, True))
    assert drawn == ["challenge", "return"]
    assert nonzero(check) == exchange_oracle(50, 35, True)
    assert check.odds()[(True, True)] == Fraction(7, 40)

    # The turret faces away: no return die is drawn, and no return shot.
    drawn.clear()
    away = bmf.challenge_exchange(firer, target, False)
    assert away.roll(draw) == ({"challenge": 12}, (True, False))
    assert drawn == ["challenge"]
    assert nonzero(away) == {(True, False): Fraction(1, 2), (False, False): Fraction(1, 2)}
