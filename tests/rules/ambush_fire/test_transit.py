"""A concealed unit moving between concealed positions is seen on its exposed stretches
only: the other side is told where it crossed open ground, it is concealed again where it
ends in cover, revealed where it ends in the open, and Challenge Fire takes it only in the
open (RULES-SPEC BMF S2, S3, BMF-R01)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game
from ghillie.state import SPECTATOR, Level
from ghillie.view import view
from tests.contract.harness import comparable

from .test_challenge import pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
WOODS = [
    {
        "name": "the west wood",
        "kind": "woods",
        "outline": [[0, 900], [300, 900], [300, 1200], [0, 1200]],
        "conceals": True,
    },
    {
        "name": "the east wood",
        "kind": "woods",
        "outline": [[500, 900], [800, 900], [800, 1200], [500, 1200]],
        "conceals": True,
    },
]
# Two routes through the woods with the same open stretch, (300, 1050) to (500, 1050).
ROUTE = [[300, 1050], [500, 1050], [700, 1000]]
OTHER_ROUTE = [[250, 1100], [300, 1050], [500, 1050], [650, 1150]]


def ready(
    start: list[float] = (100, 1000),  # type: ignore[assignment]
    challenge: dict[str, Any] | None = None,
) -> Game:
    game = Game.create({**SCENARIO, "terrain": [*SCENARIO["terrain"], *WOODS]}, seed=5)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": start}],
        },
    )
    game.command(GERMANS, {"type": "ready"})
    orders = []
    if challenge is not None:
        orders.append(
            {"unit": "t34_1", "reaction": "challenge", "trigger": challenge, "chance": 60}
        )
    game.command(SOVIETS, {"type": "ready", "orders": orders})
    return game


def march(game: Game, path: list[list[float]]) -> list[str]:
    seen = len(game.events())
    game.command(GERMANS, {"type": "move", "units": [{"unit": "grenadiers", "path": path}]})
    return said(game, SOVIETS, seen)


@pytest.mark.spec("BMF-R01")
def test_bmf_s2_the_enemy_is_told_only_where_it_crossed_open_ground() -> None:
    game = ready()
    assert march(game, ROUTE) == [
        "Seen crossing open ground: infantry, from 300, 1050 to 500, 1050."
    ]
    # For the map: on the board, and with the line told.
    crossed = {"unit_class": "infantry", "points": [[300, 1050], [500, 1050]]}
    assert game.state.board.crossings == (crossed,)
    assert game.events()[-1].told[SOVIETS][0]["crossed"] == [[300, 1050], [500, 1050]]
    grenadiers = pid(game, "grenadiers")
    # Concealed again where it ends, in the east wood (S2 -> S1).
    assert game.state.known(SOVIETS, grenadiers).level is Level.UNKNOWN
    assert game.state.pieces[grenadiers].secret["at"] == [700, 1000]
    assert "700, 1000" not in json.dumps(view(game, SOVIETS))


def test_bmf_s2_a_move_inside_cover_is_not_seen_at_all() -> None:
    game = ready()
    assert march(game, [[200, 1100]]) == ["Germans gave an order."]
    assert game.state.board.crossings == ()


def test_bmf_s3_a_concealed_unit_that_ends_in_the_open_is_revealed() -> None:
    game = ready()
    lines = march(game, [[300, 1050], [400, 1050]])
    assert lines == [
        "Seen crossing open ground: infantry, from 300, 1050 to 400, 1050.",
        "Grenadiers: stopped in the open at 400, 1050, and revealed.",
    ]
    grenadiers = game.state.pieces[pid(game, "grenadiers")]
    assert game.state.known(SOVIETS, grenadiers.id).level is Level.IDENTIFIED
    assert grenadiers.public["at"] == [400, 1050]
    assert not grenadiers.public["concealed"]


@pytest.mark.spec("BMF-R01")
def test_bmf_r01_challenge_fire_takes_a_concealed_mover_only_in_the_open() -> None:
    # A zone reaching into the west wood: it fires where the path leaves the wood, and
    # reveals the Grenadiers there.
    game = ready(challenge={"zone": [[250, 1050]], "radius": 60})
    lines = march(game, ROUTE)
    assert lines[0].startswith("Challenge Fire from T-34 (1) at Grenadiers as it crosses")
    grenadiers = game.state.pieces[pid(game, "grenadiers")]
    assert grenadiers.public["at"] == [300, 1050]
    assert game.state.known(SOVIETS, grenadiers.id).level is Level.IDENTIFIED
    # A zone wholly inside the wood never fires at it.
    game = ready(challenge={"zone": [[150, 1050]], "radius": 40})
    assert march(game, ROUTE) == [
        "Seen crossing open ground: infantry, from 300, 1050 to 500, 1050."
    ]


def _seen(game: Game) -> str:
    return json.dumps([comparable(game.view(o)) for o in (SOVIETS, SPECTATOR)], sort_keys=True)


def test_bmf_s2_two_routes_with_the_same_open_stretch_look_the_same() -> None:
    one = ready()
    march(one, ROUTE)
    other = ready(start=[150, 1150])
    march(other, OTHER_ROUTE)
    assert _seen(one) == _seen(other)


def test_bmf_s2_the_enemy_sees_what_kind_of_unit_crossed_not_which() -> None:
    pioneers = {
        "key": "pioneers",
        "side": "germans",
        "name": "Pioneers",
        "class": "infantry",
        "diet": "omnivore",
        "concealed": True,
    }

    def world(who: str) -> Game:
        game = Game.create(
            {
                **SCENARIO,
                "terrain": [*SCENARIO["terrain"], *WOODS],
                "units": [*SCENARIO["units"], pioneers],
            },
            seed=5,
        )
        hidden = [
            {"unit": "pak", "at": [1000, 300]},
            {"unit": "grenadiers", "at": [100, 1000]},
            {"unit": "pioneers", "at": [100, 1000]},
        ]
        game.command(GERMANS, {"type": "conceal", "units": hidden})
        game.command(GERMANS, {"type": "ready"})
        game.command(SOVIETS, {"type": "ready"})
        game.command(GERMANS, {"type": "move", "units": [{"unit": who, "path": ROUTE}]})
        return game

    assert _seen(world("grenadiers")) == _seen(world("pioneers"))
