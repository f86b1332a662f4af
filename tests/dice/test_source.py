"""Dice sources: scripted dice refuse to be misused, seeded dice repeat, fair dice are fair."""

from __future__ import annotations

from collections import Counter

import pytest

from ghillie.dice.source import RandomDice, ScriptedDice, SeededDice


def test_scripted_dice_roll_in_order_and_run_out() -> None:
    dice = ScriptedDice([6, 1, 7])
    assert [dice.roll(10), dice.roll(4), dice.roll(8)] == [6, 1, 7]
    assert dice.remaining == 0
    with pytest.raises(LookupError, match="ran out"):
        dice.roll(6)


def test_scripted_dice_refuse_a_value_the_die_cannot_show() -> None:
    dice = ScriptedDice([7])
    with pytest.raises(ValueError, match="cannot show on a d6"):
        dice.roll(6)
    assert dice.remaining == 1


def test_seeded_dice_repeat_and_stay_on_the_die() -> None:
    first = [SeededDice(42).roll(6) for _ in range(1)]
    a, b = SeededDice(42), SeededDice(42)
    rolls = [a.roll(12) for _ in range(200)]
    assert rolls == [b.roll(12) for _ in range(200)]
    assert set(rolls) <= set(range(1, 13))
    assert first[0] in range(1, 7)


@pytest.mark.parametrize("faces", [4, 6, 8, 10, 12, 20])
def test_random_dice_are_uniform(faces: int) -> None:
    """Chi-square over 12,000 rolls at the 0.1% level (critical values for df = faces-1)."""
    critical = {4: 16.27, 6: 20.52, 8: 24.32, 10: 27.88, 12: 31.26, 20: 43.82}
    dice = RandomDice()
    n = 12_000
    counts = Counter(dice.roll(faces) for _ in range(n))
    assert set(counts) == set(range(1, faces + 1))
    expected = n / faces
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, faces + 1))
    assert chi2 < critical[faces]
