"""Dice rolled at the table, typed in (issue 25, "what a player at the table needs"): the
form says, per roll, how many dice and whose; a side types in every one of its own dice or
none — a count short of them is a die forgotten, not one left for ghillie to roll, and is
refused like one too many, naming how many the command rolls of the side's own."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.server.problems import Problem
from ghillie.view import view
from ghillie.words import speaker

from .helpers import (
    NOMADS,
    PANO,
    aros,
    deployed,
    end_turn,
    ghillie_rolls,
    marker_of,
    measured,
    order,
    pid,
    refused,
    second,
)
from .test_typed_dice import face_to_face


def _note(game: Game, side: str, command: str) -> str:
    offer = next(c for c in view(game, side)["commands"] if c["type"] == command)
    return str(offer["notes"]["rolls"])


@pytest.mark.spec("INF-T01")
def test_INF_T01_the_roll_says_how_many_dice_are_whose() -> None:
    game = face_to_face()  # the Caliban's Burst 2 against the Fusilier's Burst 1
    assert _note(game, NOMADS, "resolve_order") == (
        "Your dice, in the order they are rolled: 2 for Caliban's BS Attack. ghillie rolls "
        "the dice of PanOceania: 1 for Fusilier's BS Attack."
    )
    assert "resolve_order" not in [c["type"] for c in view(game, PANO)["commands"]]


@pytest.mark.spec("INF-T01")
def test_INF_T01_one_die_typed_for_two_is_refused_naming_two() -> None:
    game = face_to_face()
    command: dict[str, Any] = {"type": "resolve_order", "rolls": {"dice": [5]}}
    refusal = refused(game, NOMADS, command)
    assert refusal.code == "too_few_dice"
    assert refusal.field == "rolls.dice"
    assert refusal.detail.startswith(
        "This Order rolls 2 dice for your own troopers: type in all 2, in the order"
    )
    with pytest.raises(Refusal) as tried:  # the server's trial, before any page is asked
        game.trial(NOMADS, command)
    assert tried.value.code == "too_few_dice"
    # Three for two: one too many, with the count too.
    refusal = refused(game, NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11, 8]}})
    assert refusal.code == "not_your_die"
    assert "rolls 2 dice for your own troopers" in refusal.detail


@pytest.mark.spec("INF-T01")
def test_INF_T01_three_dice_for_two_saves_are_refused_naming_two() -> None:
    game = face_to_face()
    with ghillie_rolls(game, 3):  # the Fusilier's 3: both the Caliban's 5 and 11 stand
        game.command(NOMADS, {"type": "resolve_order", "rolls": {"dice": [5, 11]}})
    assert _note(game, PANO, "saving_rolls") == (
        "Your dice, in the order they are rolled: 2 for Fusilier, each saving on 7 or less."
    )
    refusal = refused(game, PANO, {"type": "saving_rolls", "rolls": {"dice": [1, 2, 3]}})
    assert refusal.code == "not_your_die"
    assert refusal.detail.startswith("Your saving rolls take 2 dice: type in all 2")
    assert refused(game, PANO, {"type": "saving_rolls", "rolls": {"dice": [1]}}).code == (
        "too_few_dice"
    )
    game.command(PANO, {"type": "saving_rolls", "rolls": {"dice": [1, 2]}})
    assert game.state.board.order is None


def _discover_and_attack() -> tuple[Game, str]:
    """PanOceania's Fusilier declares Discover + BS Attack at the Zondbot's marker."""
    game = deployed()
    end_turn(game, NOMADS)
    marker = marker_of(game, "zondbot")
    fusilier = pid(game, "fusilier")
    attack = {"weapon": "Combi Rifle", "burst": 3, "range_mod": 3, "ps": 5}
    order(game, PANO, fusilier, {"skill": "discover", "target": marker, "measured": measured(6)})
    aros(game, NOMADS)
    second(
        game,
        PANO,
        {"skill": "bs_attack", "target": marker, "measured": measured(6), "attack": attack},
    )
    aros(game, NOMADS)
    return game, marker


@pytest.mark.spec("INF-T07")
def test_INF_T07_an_attack_after_a_discover_is_counted_only_if_the_discover_passes() -> None:
    game, _marker = _discover_and_attack()
    assert _note(game, PANO, "resolve_order") == (
        "Your dice, in the order they are rolled: 1 for Fusilier's Discover and 3 for "
        "Fusilier's BS Attack, if its Discover passes."
    )
    # WIP 13 + 3 (range) - 3 (the Zondbot's Mimetism -3) = 13: a 1 passes, and the three
    # Attack dice are the Fusilier's too; a 20 fails, and the Attack is lost.
    passes = refused(game, PANO, {"type": "resolve_order", "rolls": {"dice": [1]}})
    assert (passes.code, "rolls 4 dice" in passes.detail) == ("too_few_dice", True)
    fails = refused(game, PANO, {"type": "resolve_order", "rolls": {"dice": [20, 1, 1, 1]}})
    assert (fails.code, "rolls 1 die" in fails.detail) == ("not_your_die", True)
    game.command(PANO, {"type": "resolve_order", "rolls": {"dice": [1, 2, 3, 4]}})


def test_the_count_reaches_the_page_in_the_readers_words() -> None:
    """A refusal with a number in it is a sentence, spoken like any other (errors.Refusal)."""
    game = face_to_face()
    refusal = refused(game, NOMADS, {"type": "resolve_order", "rolls": {"dice": [5]}})
    problem = Problem.of(refusal, speaker("camouflage", "en")).body()
    assert problem["code"] == "too_few_dice"
    assert problem["detail"] == refusal.detail
    assert "type in all 2" in problem["detail"]
