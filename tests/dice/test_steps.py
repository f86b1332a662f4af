"""Step dice: the chain d4..d12, the die after d12 (SW-A01), parsing and printing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from ghillie.dice.steps import STEP_DICE, Die, Overflow, StepDie, game_die, step_die, step_of


def test_the_chain_from_step_one() -> None:
    assert [str(step_die(s)) for s in range(1, 6)] == ["d4", "d6", "d8", "d10", "d12"]


def test_steps_below_one_count_as_d4() -> None:
    assert step_die(0) == step_die(-3) == Die(4)


@pytest.mark.parametrize(
    ("overflow", "expected"),
    [
        (Overflow.D12_PLUS, ["d12+1", "d12+2", "d12+3"]),
        (Overflow.D20_THEN_PLUS, ["d20", "d20+1", "d20+2"]),
        (Overflow.CAP_D12, ["d12", "d12", "d12"]),
    ],
)
def test_beyond_d12(overflow: Overflow, expected: list[str]) -> None:
    assert [str(step_die(s, overflow)) for s in (6, 7, 8)] == expected


@given(st.integers(1, 40), st.sampled_from([Overflow.D12_PLUS, Overflow.D20_THEN_PLUS]))
def test_step_of_undoes_step_die(step: int, overflow: Overflow) -> None:
    assert step_of(step_die(step, overflow), overflow) == step


@given(st.integers(2, 100), st.integers(0, 20))
def test_parse_and_print_round_trip(faces: int, plus: int) -> None:
    die = Die(faces, plus)
    assert Die.parse(str(die)) == die
    assert eval(repr(die), {"Die": Die}) == die  # the repr can be pasted back


def test_parse_accepts_the_russian_letter_and_spaces() -> None:
    assert Die.parse("к8") == Die(8)
    assert Die.parse(" D12 + 2 ") == Die(12, 2)


@pytest.mark.parametrize("text", ["", "8", "d", "d1", "2d6", "d6-1", "dx"])
def test_parse_refuses_what_is_not_one_die(text: str) -> None:
    with pytest.raises(ValueError, match="not a die"):
        Die.parse(text)


def test_a_die_off_the_chain_has_no_step() -> None:
    with pytest.raises(ValueError, match="not on the step chain"):
        step_of(Die(20), Overflow.D12_PLUS)
    assert (Die(12, 2).lowest, Die(12, 2).highest) == (3, 14)


# --- the dice a player gives: the five on the chain, and nothing else --------------------------

NOT_A_DIE = "is not a die in this game: use d4, d6, d8, d10 or d12"


@pytest.mark.spec("SW-R11", "SW-R13")
def test_a_players_die_is_one_of_the_five_on_the_chain_however_it_is_written() -> None:
    assert [game_die(d) for d in STEP_DICE] == ["d4", "d6", "d8", "d10", "d12"]
    assert game_die("к8") == game_die(" D8 ") == "d8"  # the Russian text writes к8


@pytest.mark.spec("SW-R11", "SW-R13")
@pytest.mark.parametrize("given", ["d7", "d9", "d3", "d20", "d12+1", "d100", "8", "eight", ""])
def test_a_die_the_game_does_not_have_is_refused_with_the_dice_it_has(given: str) -> None:
    with pytest.raises(ValueError, match="not a die") as refused:
        game_die(given)
    assert str(refused.value) == f"{given} {NOT_A_DIE}"


def test_a_step_die_field_refuses_a_d7_and_its_schema_lists_the_five() -> None:
    adapter = TypeAdapter(StepDie)
    assert adapter.validate_python("к10") == "d10"
    with pytest.raises(ValidationError) as refused:
        adapter.validate_python("d7")
    [error] = refused.value.errors()
    assert error["type"] == "not_a_die"
    assert error["msg"] == f"d7 {NOT_A_DIE}"
    assert adapter.json_schema()["enum"] == ["d4", "d6", "d8", "d10", "d12"]
    with pytest.raises(ValidationError, match="8 is not a die"):
        adapter.validate_python(8)  # a number is not a die either
