"""Ambush Fire by standing order: the reveal of either side's concealed units, casualties
first, return fire at -10 and the ambusher's retreat (issue 14; RULES-SPEC BMF-R07, R09,
R11, R12, R13, A08, A11, A13, BMF-T05, T07)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.state import Level
from ghillie.view import view

from .test_challenge import SECOND_TANK, column_move, pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
SCOUTS = {
    "key": "scouts",
    "side": "soviets",
    "name": "Scouts",
    "class": "infantry",
    "diet": "omnivore",
    "concealed": True,
}


IDS: dict[str, str] = {}


def ambushed(seed: int) -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK, SCOUTS]}, seed=seed)
    IDS.update({p.public["key"]: p.id for p in game.state.pieces.values()})
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [
                {"unit": "pak", "at": [1000, 300]},
                {"unit": "grenadiers", "at": [1000, 820]},
            ],
        },
    )
    order: dict[str, Any] = {
        "unit": "grenadiers",
        "reaction": "ambush",
        "trigger": {"within": 150},
        "chance": 40,
    }
    game.command(GERMANS, {"type": "ready", "orders": [order]})
    game.command(SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": [1100, 900]}]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    return game


@pytest.mark.spec("BMF-R09")
@pytest.mark.spec("BMF-A08")
@pytest.mark.spec("BMF-T05")
def test_bmf_a08_an_ambush_reveals_the_concealed_units_of_either_side_near_the_firer() -> None:
    game = ambushed(seed=1)
    lines = said(game, SOVIETS)
    ambush = next(line for line in lines if line.startswith("Ambush Fire from hiding:"))
    # Infantry: a circle 250 m across. The Scouts, 128 m away... are outside: only the
    # grenadiers themselves; the PaK, 520 m off, stays hidden.
    assert "Grenadiers at T-34 (1)!" in ambush
    grenadiers, scouts, pak = pid(game, "grenadiers"), pid(game, "scouts"), pid(game, "pak")
    assert game.state.known(SOVIETS, grenadiers).level is Level.IDENTIFIED
    assert game.state.known(SOVIETS, pak).level is Level.UNKNOWN
    assert game.state.known(GERMANS, scouts).level is Level.UNKNOWN


@pytest.mark.spec("BMF-R11")
@pytest.mark.spec("BMF-R12")
@pytest.mark.spec("BMF-R13")
@pytest.mark.spec("BMF-A13")
@pytest.mark.spec("BMF-T07")
def test_bmf_r11_a13_t07_casualties_first_then_return_fire_then_the_retreat() -> None:
    for seed in range(60):
        game = ambushed(seed)
        lead = IDS["t34_1"]
        window = game.state.window
        assert window is not None
        if lead not in game.state.pieces:
            # Destroyed: removed at once, no return fire from it; the ambusher may retreat.
            assert window.name == "retreat"
            continue
        assert window.name == "return_fire"
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 50})
        back = [line for line in said(game, GERMANS) if "at the ambusher (" in line]
        assert back[0].startswith("Return fire from T-34 (1) at the ambusher (40%, 10 less")
        if game.state.window is None:
            continue  # the ambusher was destroyed
        assert game.state.window.name == "retreat"
        too_far = {"type": "retreat", "path": [[1000, 950]]}  # 130 m
        with pytest.raises(Refusal) as refused:
            game.command(GERMANS, too_far)
        assert refused.value.code == "bad_retreat"
        game.command(GERMANS, {"type": "retreat", "path": [[1000, 860]]})  # 40 m, away
        grenadiers = game.state.pieces[pid(game, "grenadiers")]
        assert grenadiers.public["at"] == [1000, 860]
        lines = said(game, SOVIETS)
        assert "Grenadiers: a retreat to 1000, 860." in lines
        # ... and the move it interrupted goes on to its end.
        assert lines[-2:] == ["T-34 (1): moved to 900, 700.", "T-34 (2): moved to 950, 700."]
        assert game.state.window is None
        return
    pytest.fail("no seed let the lead tank and the ambusher both survive")


def test_the_movers_see_nothing_before_the_ambush_fires() -> None:
    game = ambushed(seed=1)
    assert "Grenadiers" not in str(view(game, SOVIETS)["log"][:-1])


@pytest.mark.spec("BMF-A13")
def test_bmf_a13_only_a_target_that_survived_may_return_fire() -> None:
    asked = set()
    for seed in range(40):
        game = ambushed(seed)
        window = game.state.window
        assert window is not None
        lead_lives = IDS["t34_1"] in game.state.pieces
        # The lead tank was the target: asked for its return fire only if it survived; the
        # second tank, no target, is never asked on its own account.
        assert window.name == ("return_fire" if lead_lives else "retreat")
        asked.add(window.name)
    assert asked == {"return_fire", "retreat"}
