"""Challenge Fire by standing order, during the enemy's move, with no prompt before it fires
(issue 14; RULES-SPEC BMF-R01, R03, R04, R06, A04, A05, A22, BMF-T02, T03)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.state import Level
from ghillie.view import view

from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
SECOND_TANK = {
    "key": "t34_2",
    "side": "soviets",
    "name": "T-34 (2)",
    "class": "vehicle",
    "turret": True,
    "arc": 360,
    "column": "first company",
    "at": [1850, 700],
}
GAP = {"zone": [[1000, 600], [1000, 800]], "target_class": "vehicle"}
PAK_AT_THE_GAP = {"unit": "pak", "reaction": "challenge", "trigger": GAP, "chance": 60}


def ready(order: dict[str, Any] | None = GAP, seed: int = 3, **switches: Any) -> Game:
    units = [*SCENARIO["units"], SECOND_TANK]
    game = Game.create({**SCENARIO, "units": units, "switches": switches}, seed=seed)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    orders = [] if order is None else [PAK_AT_THE_GAP | {"trigger": order}]
    game.command(GERMANS, {"type": "ready", "orders": orders})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})  # the Germans move first: they stay put
    return game


def pid(game: Game, key: str) -> str:
    return next(p.id for p in game.state.pieces.values() if p.public.get("key") == key)


def column_move() -> dict[str, Any]:
    return {
        "type": "move",
        "units": [
            {"unit": "t34_1", "path": [[900, 700]]},
            {"unit": "t34_2", "path": [[950, 700]]},
        ],
    }


def said(game: Game, side: str, since: int = 0) -> list[str]:
    return [line["text"] for entry in view(game, side)["log"][since:] for line in entry["said"]]


@pytest.mark.spec("BMF-R01")
@pytest.mark.spec("BMF-R03")
@pytest.mark.spec("BMF-A04")
@pytest.mark.spec("BMF-A22")
def test_bmf_r01_a_standing_order_fires_at_the_first_vehicle_through_the_gap() -> None:
    game = ready()
    seen = len(game.events())
    game.command(SOVIETS, column_move())
    lines = said(game, SOVIETS, seen)
    assert lines == [
        "Challenge Fire from PaK 40 at T-34 (1) as it crosses the open ground (50% to hit, "
        "10 less than normal)!"
    ]
    pak = pid(game, "pak")
    # BMF-A22: the firer is revealed to the side it fired at; the order is opened to it.
    assert game.state.known(SOVIETS, pak).level is Level.IDENTIFIED
    openings = game.events()[-1].fair["openings"][SOVIETS]  # type: ignore[index]
    # One line opened, in words that state every number of the order as it was given.
    assert [(o["key"], o["value"]) for o in openings] == [
        (
            "order",
            "PaK 40: Challenge Fire at the first vehicle that crosses the gap from 1000, 600 "
            "to 1000, 800, base chance 60%",
        )
    ]
    # The column stopped where it was when the order fired; the Soviets are asked to reply.
    assert game.state.window is not None
    assert view(game, SOVIETS)["reaction"] == {"by": SOVIETS, "waiting_for": SOVIETS}
    assert view(game, GERMANS)["status"][0] == "Soviets are deciding whether to fire back."


@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-A05")
@pytest.mark.spec("BMF-T03")
def test_bmf_a05_both_shots_are_rolled_together_then_casualties_come_off() -> None:
    game = ready()
    game.command(SOVIETS, column_move())
    seen = len(game.events())
    game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
    lines = said(game, GERMANS, seen)
    assert lines[0] in {
        "T-34 (1): destroyed by the Challenge Fire.",
        "T-34 (1): missed by the Challenge Fire.",
    }
    # T03: the target's base 55% is 35% back, 20 less, and it fires even if destroyed.
    assert lines[1].startswith("Return fire from T-34 (1) (35%, 20 less than normal): ")
    assert [r.label for r in game.events()[-1].rolls][:2] == ["challenge", "return"]
    assert game.state.window is None
    assert not [p for p in game.state.pieces.values() if p.kind == "order"]  # used up


@pytest.mark.spec("BMF-T02")
@pytest.mark.spec("BMF-R06")
def test_bmf_t02_the_lead_tank_destroyed_the_rest_of_the_column_stops() -> None:
    for seed in range(40):
        game = ready(seed=seed)
        lead = pid(game, "t34_1")
        game.command(SOVIETS, column_move())
        game.command(SOVIETS, {"type": "return_fire"})
        if lead in game.state.pieces:
            continue  # a miss: the column drives on
        second = game.state.pieces[pid(game, "t34_2")]
        assert second.public["at"][0] == pytest.approx(1050)  # 50 m behind: it stops there
        assert "The rest of the column stops." in said(game, GERMANS)
        return
    pytest.fail("no seed destroyed the lead tank at 50%")


def test_with_no_order_the_move_ends_and_nothing_else_happens() -> None:
    game = ready(order=None)
    seen = len(game.events())
    game.command(SOVIETS, column_move())
    assert said(game, GERMANS, seen) == [
        "T-34 (1): moved to 900, 700.",
        "T-34 (2): moved to 950, 700.",
    ]
    assert game.state.window is None


def test_the_soviets_see_nothing_of_the_order_until_it_fires() -> None:
    game = ready()
    soviets = json.dumps(view(game, SOVIETS))
    order = next(p.id for p in game.state.pieces.values() if p.kind == "order")
    assert order not in soviets
    assert pid(game, "pak") not in soviets


def test_a_unit_moves_once_a_turn_and_never_through_impassable_ground() -> None:
    game = ready(order=None)
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[600, 600]]}]})
    assert refused.value.code == "impassable"  # across the marsh
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[1700, 700]]}]})
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[1600, 700]]}]})
    assert refused.value.code == "already_moved"


@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-T03")
def test_bmf_t03_a_target_whose_weapon_faces_away_may_not_fire_back() -> None:
    units = [
        {**u, "arc": 90, "facing": 270} if u["key"] == "t34_1" else u for u in SCENARIO["units"]
    ]
    game = Game.create({**SCENARIO, "units": [*units, SECOND_TANK]}, seed=3)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    game.command(GERMANS, {"type": "ready", "orders": [PAK_AT_THE_GAP]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    # The hull gun points west, the way it drives; the PaK is to its north.
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
    assert refused.value.code == "not_facing"
    game.command(SOVIETS, {"type": "return_fire"})
    assert [r.label for r in game.events()[-1].rolls] == ["challenge"]  # no return die


@pytest.mark.spec("BMF-A04")
def test_bmf_a04_a_challenge_with_no_zone_fires_only_if_no_zone_is_required() -> None:
    bare = {"within": 500, "target_class": "vehicle"}
    # DEFAULT: a challenge needs its zone; an order without one, which could never fire, is
    # refused when it is given, and nothing is written.
    with pytest.raises(Refusal) as refused:
        ready(order=bare)
    assert refused.value.code == "needs_zone"
    assert refused.value.field == "orders.0.trigger.zone"
    game = ready(order=bare, **{"bmf.challenge_requires_zone": False})
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
    assert game.state.window is not None
    # It stopped at the first point within 500 m of the PaK, at (1000, 300).
    tank = game.state.pieces[pid(game, "t34_1")]
    assert tank.public["at"][0] == pytest.approx(1300, abs=1)
    assert said(game, SOVIETS)[-1].startswith("Challenge Fire from PaK 40 at T-34 (1)")


@pytest.mark.spec("BMF-A22")
def test_bmf_a22_with_fire_reveals_off_a_challenge_leaves_its_firer_concealed() -> None:
    """``bmf.fire_reveals`` off holds for Challenge Fire as for normal fire: the PaK stays
    concealed and unknown to the Soviets (its order's words, which name it, are not opened:
    the audit checks it was given before), so it may still ambush later; the Soviets learn
    they were fired at, not by what nor at what chance, and have no firer to fire back at."""
    game = ready(**{"bmf.fire_reveals": False})
    seen = len(game.events())
    game.command(SOVIETS, column_move())
    pak = pid(game, "pak")
    assert game.state.pieces[pak].public["concealed"] is True
    assert game.state.known(SOVIETS, pak).level is Level.UNKNOWN
    soviets = said(game, SOVIETS, seen)
    assert (
        soviets[0]
        == "Challenge Fire from an unseen unit at T-34 (1) as it crosses the open ground!"
    )
    assert soviets[1] in {
        "T-34 (1): destroyed by the Challenge Fire.",
        "T-34 (1): missed by the Challenge Fire.",
    }
    assert not any("PaK" in line or "%" in line for line in soviets)
    assert said(game, GERMANS, seen)[0].startswith("Challenge Fire from PaK 40 at T-34 (1) as")
    event = game.events()[-1]
    assert event.fair["openings"] == {}  # type: ignore[index]
    # No window to answer: the shot was rolled at once, with no return fire, and used up.
    assert game.state.window is None
    assert [r.label for r in event.rolls] == ["challenge"]
    assert not [p for p in game.state.pieces.values() if p.kind == "order"]
