"""Ambush Close Combat by standing order: the dash, casualties first, the defence at -10,
the retreat, and a failed contact that leaves the attacker in the open (issue 14;
RULES-SPEC BMF-R14..R19, A02, A16, BMF-T01, T08)."""

from __future__ import annotations

import pytest

from ghillie import Game

from .test_challenge import SECOND_TANK, column_move, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
WALL = {
    "name": "the rubble",
    "kind": "rubble",
    "outline": [[1060, 720], [1200, 720], [1200, 735], [1060, 735]],
    "impassable": True,
}


def lying_in_wait(
    at: list[float], seed: int, terrain: list[dict[str, object]] | None = None
) -> tuple[Game, dict[str, str]]:
    data = {**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}
    if terrain is not None:
        data["terrain"] = [*SCENARIO["terrain"], *terrain]
    game = Game.create(data, seed=seed)
    ids = {p.public["key"]: p.id for p in game.state.pieces.values()}
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": at}],
        },
    )
    # Its reach is half its running distance on open ground: 50 m (BMF-T01).
    order = {
        "unit": "grenadiers",
        "reaction": "close_combat",
        "trigger": {},
        "chance": 45,
    }
    game.command(GERMANS, {"type": "ready", "orders": [order]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    return game, ids


@pytest.mark.spec("BMF-R15")
@pytest.mark.spec("BMF-R16")
@pytest.mark.spec("BMF-R17")
@pytest.mark.spec("BMF-A02")
@pytest.mark.spec("BMF-R18")
def test_bmf_r16_r17_the_attack_first_then_the_defence_at_minus_10_then_the_retreat() -> None:
    for seed in range(60):
        game, ids = lying_in_wait([1100, 745], seed)
        lines = said(game, SOVIETS)
        attack = next(line for line in lines if line.startswith("Ambush Close Combat:"))
        assert "Grenadiers out of cover in a dash at T-34" in attack
        window = game.state.window
        assert window is not None
        if ids["t34_1"] not in game.state.pieces and ids["t34_2"] not in game.state.pieces:
            continue
        if window.name == "retreat":
            continue  # its target was destroyed: no defence
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 30})
        back = [line for line in said(game, GERMANS) if "The defence of" in line]
        assert back[0].endswith(("the ambusher is destroyed.", "a miss."))
        assert "(20%, 10 less for the surprise)" in back[0]
        if game.state.window is not None:
            assert game.state.window.name == "retreat"
            game.command(GERMANS, {"type": "retreat"})  # it stays
        assert game.state.window is None
        return
    pytest.fail("no seed let the target survive the attack")


@pytest.mark.spec("BMF-R19")
@pytest.mark.spec("BMF-A16")
@pytest.mark.spec("BMF-T08")
def test_bmf_t08_a_blocked_dash_is_a_failed_contact_in_the_open() -> None:
    # The grenadiers wait behind the rubble: the tank comes within 50 m, but the way is shut.
    game, ids = lying_in_wait([1100, 745], seed=2, terrain=[WALL])
    lines = said(game, SOVIETS)
    failed = next(line for line in lines if "blocks the way" in line)
    assert failed.startswith(
        "Ambush Close Combat: Grenadiers out of cover in a dash at T-34 (1), but impassable "
        "ground blocks the way!"
    )
    assert failed.endswith("no more moving this turn.")
    grenadiers = game.state.pieces[ids["grenadiers"]]
    assert grenadiers.public["concealed"] is False
    assert grenadiers.public["at"][1] == pytest.approx(735, abs=1)  # stopped at the rubble
    assert game.state.window is None  # no close combat: the move went on
    assert "T-34 (1): moved to 900, 700." in lines


@pytest.mark.spec("BMF-R14")
def test_bmf_r14_a_vehicle_makes_no_ambush_close_combat() -> None:
    data = {**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}
    game = Game.create(data, seed=1)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1050, 720]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    order = {
        "unit": "pak",
        "reaction": "close_combat",
        "trigger": {"within": 50},
        "chance": 45,
    }
    game.command(GERMANS, {"type": "ready", "orders": [order]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    # A gun eats nothing: its order never fires (BMF-A15), and the move simply ends.
    assert game.state.window is None
    assert not any("Close Combat" in line for line in said(game, SOVIETS))
