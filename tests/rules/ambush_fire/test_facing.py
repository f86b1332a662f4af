"""Facing and turrets (issue 25): a side gives its units' facing at set-up and turns units
and turrets in its movement, at the rules' costs; return fire after Challenge Fire needs
the target's weapon facing the firer — its turret's if it has one (RULES-SPEC BMF-R02,
R04, R07, A18, A20, T03)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.view import view

from .test_challenge import PAK_AT_THE_GAP, SECOND_TANK, column_move, pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
HIDDEN = {
    "type": "conceal",
    "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
}
# The PaK at (1000, 300) fires as the lead tank crosses the gap at (1000, 700): due north
# of the tank, a bearing of 0°.


def game_with(
    changes: dict[str, dict[str, Any]],
    soviet_turns: list[dict[str, Any]] = (),  # type: ignore[assignment]
    orders: list[dict[str, Any]] | None = None,
    extra: list[dict[str, Any]] = (),  # type: ignore[assignment]
) -> Game:
    units = [{**u, **changes.get(u["key"], {})} for u in [*SCENARIO["units"], *extra]]
    game = Game.create({**SCENARIO, "units": [*units, SECOND_TANK]}, seed=3)
    game.command(GERMANS, HIDDEN)
    game.command(
        GERMANS, {"type": "ready", "orders": [PAK_AT_THE_GAP] if orders is None else orders}
    )
    if soviet_turns:
        game.command(SOVIETS, {"type": "turn", "units": soviet_turns})
    game.command(SOVIETS, {"type": "ready"})
    return game


def fire_back(game: Game) -> str | None:
    """The column drives through the gap, the PaK challenges; the lead tank fires back.
    The refusal's code, or None if it fired."""
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    try:
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
    except Refusal as refused:
        return refused.code
    assert [r.label for r in game.events()[-1].rolls][:2] == ["challenge", "return"]
    return None


# The lead tank's hull faces west (270°), away from the PaK to its north; its gun covers 60°.
TANK = {"t34_1": {"facing": 270, "arc": 60}}


@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-A18")
@pytest.mark.spec("BMF-T03")
def test_bmf_a18_a_turret_turned_toward_the_firer_fires_back_though_the_hull_faces_away() -> None:
    # Its turret turned north at set-up: the firer is in the turret's arc.
    game = game_with(TANK, [{"unit": "t34_1", "turret": 0}])
    assert fire_back(game) is None


@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-A18")
@pytest.mark.spec("BMF-T03")
def test_bmf_t03_a_turret_turned_away_may_not_fire_back_whatever_the_hull_faces() -> None:
    # The hull faces the PaK, but the turret (and its gun) points south, away from it.
    game = game_with(TANK, [{"unit": "t34_1", "facing": 0, "turret": 180}])
    assert fire_back(game) == "not_facing"
    # The scenario's own turret facing counts the same way.
    game = game_with({"t34_1": {"facing": 0, "arc": 60, "turret_facing": 180}})
    assert fire_back(game) == "not_facing"


@pytest.mark.spec("BMF-A18")
def test_bmf_a18_a_hull_turn_carries_the_turret_round_with_it() -> None:
    # Hull and turret west; the hull turned to face north takes the turret with it.
    game = game_with(TANK, [{"unit": "t34_1", "facing": 0}])
    tank = game.state.pieces[pid(game, "t34_1")]
    assert (tank.public["facing"], tank.public["turret_facing"]) == (0, 0)
    assert fire_back(game) is None


@pytest.mark.spec("BMF-R04")
@pytest.mark.spec("BMF-A18")
@pytest.mark.spec("BMF-T03")
@pytest.mark.parametrize(("front", "fires"), [(300, True), (150, False), (0, True), (180, False)])
def test_bmf_a18_infantry_fire_back_only_at_a_firer_in_their_front_180(
    front: int, fires: bool
) -> None:
    """Infantry without a turret: the firer must be inside the figures' front 180°."""
    riflemen = {
        "key": "riflemen",
        "side": "soviets",
        "name": "Riflemen",
        "class": "infantry",
        "diet": "omnivore",
        "at": [1800, 700],
    }
    gap_for_anyone = {**PAK_AT_THE_GAP, "trigger": {"zone": [[1000, 600], [1000, 800]]}}
    game = game_with({}, [{"unit": "riflemen", "facing": front}], [gap_for_anyone], [riflemen])
    game.command(GERMANS, {"type": "end_step"})
    move = {"type": "move", "units": [{"unit": "riflemen", "path": [[900, 700]]}]}
    game.command(SOVIETS, move)
    if fires:
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
        assert [r.label for r in game.events()[-1].rolls][:2] == ["challenge", "return"]
    else:
        with pytest.raises(Refusal) as refused:
            game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
        assert refused.value.code == "not_facing"
        assert "does not face the firer" in str(refused.value)


PANZER = {
    "key": "panzer",
    "side": "germans",
    "name": "Panzer IV",
    "class": "vehicle",
    "turret": True,
    "arc": 60,
    "facing": 90,
    "concealed": True,
}
PANZER_AT_THE_GAP = {**PAK_AT_THE_GAP, "unit": "panzer"}


def panzer_game() -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], PANZER, SECOND_TANK]}, seed=3)
    hidden = [*HIDDEN["units"], {"unit": "panzer", "at": [1000, 320]}]  # type: ignore[misc]
    game.command(GERMANS, {"type": "conceal", "units": hidden})
    game.command(GERMANS, {"type": "ready", "orders": [PANZER_AT_THE_GAP]})
    game.command(SOVIETS, {"type": "ready"})
    return game


def next_turn(game: Game) -> None:
    """The rest of the turn: both sides end their movement and their fire."""
    while game.state.board.turn == (turn := game.state.board.turn) and game.state.window is None:
        game.command(game.state.board.moving, {"type": "end_step"})
        if game.state.board.turn != turn:
            return


@pytest.mark.spec("BMF-R02")
@pytest.mark.spec("BMF-A20")
def test_bmf_a20_a_turret_turn_spoils_challenge_fire_this_turn_and_next() -> None:
    # Left alone, its turret stationary, the Panzer challenges the column at the gap.
    game = panzer_game()
    game.command(GERMANS, {"type": "end_step"})
    seen = len(game.events())
    game.command(SOVIETS, column_move())
    assert any("Challenge Fire from Panzer IV" in line for line in said(game, SOVIETS, seen))
    # Its turret turned in turn 1, it is not stationary this turn nor the next.
    game = panzer_game()
    game.command(GERMANS, {"type": "turn", "units": [{"unit": "panzer", "turret": 120}]})
    game.command(GERMANS, {"type": "end_step"})
    seen = len(game.events())
    game.command(SOVIETS, column_move())
    # Not stationary this turn: the column drives through the gap unchallenged.
    assert not any("Challenge Fire" in line for line in said(game, SOVIETS, seen))
    assert game.state.window is None
    next_turn(game)
    assert game.state.board.turn == 2
    # Turn 2: it turned its turret last turn, still not "stationary for one or more turns".
    game.command(GERMANS, {"type": "end_step"})
    seen = len(game.events())
    back = {"type": "move", "units": [{"unit": "t34_2", "path": [[1100, 700]]}]}
    game.command(SOVIETS, back)
    assert not any("Challenge Fire" in line for line in said(game, SOVIETS, seen))


@pytest.mark.spec("BMF-R07")
def test_bmf_r07_turning_a_unit_is_moving_it_for_ambush_fire_but_it_may_still_move() -> None:
    ambush = {"unit": "grenadiers", "reaction": "ambush", "trigger": {"within": 300}, "chance": 50}
    for turned in (False, True):
        game = game_with({}, orders=[ambush])
        if turned:
            game.command(
                GERMANS, {"type": "turn", "units": [{"unit": "grenadiers", "facing": 180}]}
            )
        game.command(GERMANS, {"type": "end_step"})
        seen = len(game.events())
        game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[450, 300]]}]})
        fired = any("Ambush Fire" in line for line in said(game, SOVIETS, seen))
        assert fired is not turned


def test_a_unit_turned_in_its_movement_may_still_move_and_turn_again() -> None:
    game = game_with({})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, {"type": "turn", "units": [{"unit": "t34_1", "facing": 90}]})
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_2", "path": [[1900, 650]]}]})
    game.command(SOVIETS, {"type": "turn", "units": [{"unit": "t34_1", "facing": 45}]})
    assert game.state.pieces[pid(game, "t34_1")].public["facing"] == 45


def test_a_unit_in_view_turns_in_everyones_sight_and_its_map_token_shows_it() -> None:
    game = game_with(TANK)
    game.command(GERMANS, {"type": "end_step"})
    seen = len(game.events())
    game.command(SOVIETS, {"type": "turn", "units": [{"unit": "t34_1", "turret": 0}]})
    line = "T-34 (1) turns its turret 0° (toward the top edge)."
    assert said(game, GERMANS, seen) == [line]
    assert said(game, SOVIETS, seen) == [line]
    token = next(t for t in view(game, GERMANS)["map"]["tokens"] if t["label"] == "T1")
    assert (token["facing"], token["arc"]) == (270, [0, 60])
    tank = next(k for k in view(game, GERMANS)["known"] if k["name"] == "T-34 (1)")
    details = {d["label"]: d["value"] for d in tank["details"]}
    assert details["Faces"] == "270° (toward the left edge)"
    assert details["Turret faces"] == "0° (toward the top edge)"


@pytest.mark.parametrize("given_by", ["conceal", "turn"])
def test_a_concealed_units_facing_is_as_secret_as_the_unit(given_by: str) -> None:
    """Two set-ups that differ only in which way the concealed PaK faces — given with its
    place, or turned after: the Soviets receive the same pieces, map and words, of the same
    size, until it is revealed; then they see which way it faces."""
    seen: list[tuple[Any, ...]] = []
    for way in (90, 200):
        game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}, seed=3)
        if given_by == "conceal":
            pak, grenadiers = HIDDEN["units"]  # type: ignore[misc]
            game.command(GERMANS, {"type": "conceal", "units": [pak | {"facing": way}, grenadiers]})
            assert game.state.pieces[pid(game, "pak")].secret["facing"] == way
        else:
            game.command(GERMANS, HIDDEN)
            game.command(GERMANS, {"type": "turn", "units": [{"unit": "pak", "facing": way}]})
            toward = "toward the right edge" if way == 90 else "toward the bottom edge"
            assert said(game, GERMANS)[-1] == f"PaK 40 now faces {way}° ({toward})."
        assert "facing" not in game.state.pieces[pid(game, "pak")].public
        theirs = view(game, SOVIETS)
        seen.append(
            (
                theirs["known"],
                theirs["map"],
                said(game, SOVIETS),
                [len(e["lines"]) for e in theirs["log"]],
            )
        )
        assert "Germans gave an order." in said(game, SOVIETS)
        game.command(GERMANS, {"type": "ready", "orders": [PAK_AT_THE_GAP]})
        game.command(SOVIETS, {"type": "ready"})
        game.command(GERMANS, {"type": "end_step"})
        game.command(SOVIETS, column_move())  # the PaK challenges, and is revealed
        pak = next(k for k in view(game, SOVIETS)["known"] if k["name"] == "PaK 40")
        faces = {d["label"]: d["value"] for d in pak["details"]}["Faces"]
        assert faces.startswith(f"{way}°")
    assert seen[0] == seen[1]


@pytest.mark.parametrize(
    ("turn", "code", "field"),
    [
        ({"unit": "t34_1"}, "nothing_to_turn", "units.0.facing"),
        ({"unit": "riflemen", "turret": 10}, "no_turret", "units.0.turret"),
        ({"unit": "pak", "facing": 10}, "unknown_piece", "units.0.unit"),
        ({"unit": "scouts", "at": [10, 10], "turret": 10}, "no_turret", "units.0.turret"),
    ],
)
def test_a_turn_the_rules_cannot_carry_out_is_refused_in_words(
    turn: dict[str, Any], code: str, field: str
) -> None:
    riflemen = {
        "key": "riflemen",
        "side": "soviets",
        "name": "Riflemen",
        "class": "infantry",
        "at": [1800, 900],
    }
    scouts = {**riflemen, "key": "scouts", "name": "Scouts", "at": None, "concealed": True}
    units = [*SCENARIO["units"], SECOND_TANK, riflemen, scouts]
    game = Game.create({**SCENARIO, "units": units}, seed=3)
    before = len(game.events())
    kind = "conceal" if "at" in turn else "turn"  # a concealed unit's, with its place
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": kind, "units": [turn]})
    assert (refused.value.code, refused.value.field) == (code, field)
    assert len(game.events()) == before


def test_each_unit_is_turned_once_an_order_and_only_in_its_sides_movement() -> None:
    game = game_with({})
    twice = [{"unit": "t34_1", "facing": 0}, {"unit": "t34_1", "facing": 90}]
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "turn", "units": twice})
    # The Germans move first: it is not the Soviets' movement yet.
    assert refused.value.code != "turned_twice"
    game.command(GERMANS, {"type": "end_step"})
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "turn", "units": twice})
    assert refused.value.code == "turned_twice"


@pytest.mark.spec("BMF-A08")
def test_a_unit_revealed_by_an_ambushs_area_shows_the_way_it_faces() -> None:
    """Any reveal shows the facing with the place: here the Soviet scouts, concealed in the
    wood facing the top right corner, are caught in the grenadiers' reveal area."""
    scouts = {
        "key": "scouts",
        "side": "soviets",
        "name": "Scouts",
        "class": "infantry",
        "diet": "omnivore",
        "concealed": True,
    }
    ambush = {"unit": "grenadiers", "reaction": "ambush", "trigger": {"within": 300}, "chance": 50}
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], scouts]}, seed=3)
    game.command(GERMANS, HIDDEN)
    game.command(GERMANS, {"type": "ready", "orders": [ambush]})
    hidden = {"type": "conceal", "units": [{"unit": "scouts", "at": [250, 250], "facing": 45}]}
    game.command(SOVIETS, hidden)
    game.command(SOVIETS, {"type": "ready"})
    assert not [k for k in view(game, GERMANS)["known"] if k["name"] == "Scouts"]
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[450, 300]]}]})
    (seen,) = [k for k in view(game, GERMANS)["known"] if k["name"] == "Scouts"]
    details = {d["label"]: d["value"] for d in seen["details"]}
    assert details["Faces"] == "45° (toward the top right corner)"
    token = next(t for t in view(game, GERMANS)["map"]["tokens"] if t["label"] == "S")
    assert (token["facing"], token["arc"]) == (45, [45, 180])
