"""The odds of hearing the Scout, against every face of the d6 counted by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ghillie.rules.scout_search.hearing import HEARD, SILENT, hearing
from ghillie.rules.scout_search.scenario import ScoutSwitches

from .play import H, move, new_game


@pytest.mark.parametrize("hear_on", range(1, 7))
def test_the_hearing_odds_are_the_faces_counted(hear_on: int) -> None:
    faces = range(1, 7)
    heard = Fraction(sum(face >= hear_on for face in faces), 6)
    assert hearing(hear_on).odds() == {HEARD: heard, SILENT: 1 - heard}


def test_a_search_prices_the_die_it_rolls_from_the_switches() -> None:
    assert ScoutSwitches().hear_on == 6
    game = new_game(**{"ss.hear_on": 5})
    move(game, "C4")
    command = game.state.ruleset.commands["search"](hunter="hunter", square="A1")
    check = game.state.ruleset.odds(game.state, H, command)
    assert check is not None
    assert check.odds()[HEARD] == Fraction(1, 3)
