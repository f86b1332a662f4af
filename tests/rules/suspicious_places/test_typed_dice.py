"""Typed dice in suspicious-places (issue 24, finding 5): the acting side types in only its
own dice — its quality die and its means or weapon die; the range die is the target owner's
(SW-R12, A13), which ghillie rolls and no shooter may type, whether the target is a marker
or a unit on the table — and every side reads who typed which."""

from __future__ import annotations

import pytest

from ghillie import Game, Refusal
from ghillie.state import SPECTATOR
from ghillie.view import view

from .helpers import KENO, LIANRA, QueuedDice, activate, at_table, setup_table, table_data

CLOSE = at_table(6)


def _game() -> tuple[Game, QueuedDice]:
    dice = QueuedDice()
    none = {"cover": "none", "open": False}
    game = setup_table(table_data(), dice, markers=[none] * 3)
    return game, dice


def _refused(game: Game, side: str, command: dict[str, object]) -> Refusal:
    before, log = game.state, game.events()
    with pytest.raises(Refusal) as caught:
        game.command(side, command)
    assert game.state == before
    assert game.events() == log
    return caught.value


@pytest.mark.spec("SW-R12", "SW-A13")
def test_the_target_owners_range_die_typed_by_the_shooter_is_refused() -> None:
    game, _dice = _game()
    activate(game, KENO, "sergeant")
    at_marker = {"type": "fire", "target": "M1", "measured": CLOSE, "rolls": {"target": 1}}
    marker = _refused(game, KENO, at_marker)
    assert marker.code == "not_your_die"
    # The same refusal against a unit on the table: it says nothing of what a marker hides.
    game.command(KENO, {"type": "end_activation"})
    activate(game, LIANRA, "sniper")
    at_unit = {
        "type": "fire",
        "target": "sergeant",
        "measured": at_table(24, cover="none"),
        "rolls": {"target": 1, "quality": 5},
    }
    unit = _refused(game, LIANRA, at_unit)
    assert (unit.code, unit.detail) == (marker.code, marker.detail)


@pytest.mark.spec("SW-R13")
def test_the_shooters_own_dice_are_taken_and_every_side_reads_who_typed_them() -> None:
    game, dice = _game()
    activate(game, KENO, "sergeant")
    dice.queue(4)  # the target's die: ghillie's
    event = game.command(
        KENO,
        {"type": "fire", "target": "M1", "measured": CLOSE, "rolls": {"quality": 5, "weapon": 3}},
    )
    assert dice.empty
    assert {r.label: (r.face, r.by) for r in event.rolls} == {
        "target": (4, None),
        "quality": (5, KENO),
        "weapon": (3, KENO),
    }
    typed = "Keno army typed in 2 dice rolled at the table: 5, 3."
    for observer in (KENO, LIANRA, SPECTATOR):
        said = [line["text"] for line in view(game, observer)["log"][-1]["said"]]
        assert said[-1] == typed, observer


@pytest.mark.spec("SW-R36")
def test_a_sniper_types_in_his_own_covert_move_dice() -> None:
    game, dice = _game()
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "sniper")
    event = game.command(LIANRA, {"type": "covert_move", "rolls": {"quality": 2, "leadership": 5}})
    assert dice.empty
    assert {(r.label, r.by) for r in event.rolls} == {("quality", LIANRA), ("leadership", LIANRA)}
    said = [line["text"] for line in view(game, KENO)["log"][-1]["said"]]
    assert said[-1] == "Lianra defenders typed in 2 dice rolled at the table: 2, 5."
