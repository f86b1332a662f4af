"""Red team: a player reading the other side's secrets from what ghillie sends it (issue 14;
RULES-SPEC BMF S1..S3, TRUST.md §3.2, §3.5, §6 S2, S3, R2).

Each test is named after what a player would notice. Two worlds differ only in one side's
secret; the other side's views are compared by their pattern of repeats
(tests/contract/harness.py), as in test_two_worlds.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.view import view
from tests.contract.harness import comparable, first_difference

from . import test_ambush as ambush
from .test_challenge import GAP, SECOND_TANK, column_move, pid
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
SCOUTS = {**ambush.SCOUTS, "running": {"open": 100}}
SAPPERS = {**SCOUTS, "key": "sappers", "name": "Sappers"}
COPSE = {
    "name": "the copse",
    "kind": "woods",
    "outline": [[1050, 850], [1200, 850], [1200, 1000], [1050, 1000]],
    "conceals": True,
}


def same_to(side: str, one: Game, other: Game) -> None:
    a, b = comparable(view(one, side)), comparable(view(other, side))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), first_difference(a, b)


def snapshot(game: Game) -> str:
    return json.dumps(view(game, "referee"), sort_keys=True, default=str)


# --- found and fixed -------------------------------------------------------------------------


def _column(with_scouts: bool, seed: int) -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SCOUTS]}, seed=seed)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    order = {"unit": "pak", "reaction": "challenge", "chance": 60}
    game.command(GERMANS, {"type": "ready", "orders": [{**order, "trigger": GAP}]})
    game.command(SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": [300, 150]}]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    movers = [{"unit": "t34_1", "path": [[900, 700]]}]
    if with_scouts:  # a concealed unit in the same move, in the wood all the way
        movers.append({"unit": "scouts", "path": [[350, 200]]})
    game.command(SOVIETS, {"type": "move", "units": movers})
    game.command(SOVIETS, {"type": "return_fire", "fire": False})
    return game


@pytest.mark.spec("BMF-R06")
@pytest.mark.parametrize("seed", [0, 3, 4])  # seeds where the challenge destroys the tank
def test_the_rest_of_the_column_stopping_tells_of_a_concealed_unit_in_the_move(seed: int) -> None:
    """BMF-R06, S1: the lead tank destroyed, "The rest of the column stops." was told to the
    Germans when the only rest of the move was a concealed unit moving in a wood — so they
    learned it exists and moved. Now the Soviets alone are told that."""
    alone, with_scouts = _column(False, seed), _column(True, seed)
    assert all(p.public["key"] != "t34_1" for p in alone.state.pieces.values())  # destroyed
    same_to(GERMANS, alone, with_scouts)
    told = [line["text"] for e in view(with_scouts, SOVIETS)["log"] for line in e["said"]]
    assert "The rest of the column stops." in told


def _history(scouts_moved: bool) -> Game:
    units = [*SCENARIO["units"], SECOND_TANK, SCOUTS, SAPPERS]
    game = Game.create(
        {**SCENARIO, "terrain": [*SCENARIO["terrain"], COPSE], "units": units}, seed=1
    )
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
    order = {
        "unit": "grenadiers",
        "reaction": "ambush",
        "trigger": {"within": 150, "target_class": "vehicle"},
        "chance": 40,
    }
    game.command(GERMANS, {"type": "ready", "orders": [order]})
    scouts_at = [1150, 950] if scouts_moved else [1080, 880]
    game.command(
        SOVIETS,
        {
            "type": "conceal",
            "units": [{"unit": "scouts", "at": scouts_at}, {"unit": "sappers", "at": [300, 150]}],
        },
    )
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    # Turn 1: one concealed unit moves inside its cover; which one is the Soviets' secret.
    mover = (
        {"unit": "scouts", "path": [[1080, 880]]}
        if scouts_moved
        else {"unit": "sappers", "path": [[350, 200]]}
    )
    game.command(SOVIETS, {"type": "move", "units": [mover]})
    for side in (SOVIETS, SOVIETS, GERMANS, GERMANS):  # the fire phase; turn 2, Germans move
        game.command(side, {"type": "end_step"})
    game.command(SOVIETS, column_move())  # the ambush reveals the scouts (A08)
    return game


@pytest.mark.spec("BMF-A08")
def test_a_unit_revealed_by_an_ambush_shows_when_it_moved_while_concealed() -> None:
    """BMF S3 shows a revealed unit's place and type. Its public history showed, too, the
    turns in which it had moved unseen in cover (board.py promised that history was
    secret): the Germans learned the scouts had crept in turn 1. Now what a unit does
    while concealed is its owner's secret, read by the eligibility rules alike."""
    moved, still = _history(True), _history(False)
    scouts = pid(moved, "scouts")
    assert moved.state.known(GERMANS, scouts).level.name == "IDENTIFIED"
    same_to(GERMANS, moved, still)
    # The rules still know it moved (BMF-R07: no ambush from it next turn).
    assert "moved" in moved.state.pieces[scouts].secret["history"]["1"]


def _germans_set(order: dict[str, Any]) -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}, seed=3)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    return game


@pytest.mark.parametrize("reaction", ["challenge", "ambush", "close_combat"])
@pytest.mark.parametrize(
    "zone",
    [
        {"zone": [[1000, 700], [1000, 700]]},  # a gap from a place to itself
        {"zone": [[1000, 700]] * 20},  # a street of one place
        {"zone": [[1000, 700], [1000, 700]], "radius": 3},
    ],
)
def test_a_zone_of_one_place_given_twice_is_refused_not_a_crash_of_every_enemy_move(
    reaction: str, zone: dict[str, Any]
) -> None:
    """TRUST.md §6 R2, S3: a standing order whose zone was a "gap" of one place twice was
    accepted; every Soviet move after it then raised a ValueError — the Soviets could not
    move at all, and learned that the Germans held such an order. Now it is a clean
    refusal when it is given, the state unchanged."""
    game = _germans_set({})
    before = snapshot(game)
    unit = "grenadiers" if reaction == "close_combat" else "pak"
    order = {"unit": unit, "reaction": reaction, "chance": 50}
    with pytest.raises(Refusal) as refused:
        game.command(GERMANS, {"type": "ready", "orders": [{**order, "trigger": zone}]})
    assert refused.value.code == "bad_zone"
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("far", "code", "field"),
    [
        # Past any table (ghillie.bounds: a coordinate is at most a million in size): the
        # command is malformed, whatever the ruleset.
        (1e16, "malformed_command", "trigger.zone.0.0"),
        (1e20, "malformed_command", "trigger.zone.0.0"),
        (1e308, "malformed_command", "trigger.zone.0.0"),
        (-5.0, "bad_place", "trigger.zone.0"),
        (5000.0, "bad_place", "trigger.zone.0"),
    ],
)
def test_a_zone_off_the_table_is_a_clean_refusal(far: float, code: str, field: str) -> None:
    """TRUST.md §6 R2: a zone's point of 1e16 metres or more raised an IntegerDomainError
    from the record's canonical JSON, not a refusal. A zone point is on the ground."""
    game = _germans_set({})
    before = snapshot(game)
    order = {"unit": "pak", "reaction": "ambush", "chance": 5}
    with pytest.raises(Refusal) as refused:
        game.command(
            GERMANS, {"type": "ready", "orders": [{**order, "trigger": {"zone": [[far, 1]]}}]}
        )
    assert refused.value.code == code
    assert refused.value.field == "orders.0." + field
    assert snapshot(game) == before


def test_a_unit_named_twice_in_one_move_is_refused() -> None:
    """TRUST.md §6 R2: one move naming the same unit twice was taken (the second path won,
    the first was checked and forgotten). It is refused as a unit that has moved."""
    game = _germans_set({})
    for command in ({"type": "ready"},):
        game.command(GERMANS, command)
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    before = snapshot(game)
    twice = [{"unit": "t34_1", "path": [[1000, 700]]}, {"unit": "t34_1", "path": [[900, 700]]}]
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "move", "units": twice})
    assert refused.value.code == "already_moved"
    assert refused.value.field == "units.1.unit"
    assert snapshot(game) == before


def _unseen_shot(firer: str) -> Game:
    from .test_challenge import ready

    game = ready(order=None, seed=4, **{"bmf.fire_reveals": False})
    game.command(SOVIETS, {"type": "end_step"})  # no move: the fire phase, Soviets first
    game.command(SOVIETS, {"type": "end_step"})
    game.command(GERMANS, {"type": "fire", "unit": firer, "target": "t34_1", "chance": 30})
    return game


@pytest.mark.spec("BMF-A22")
def test_a_shot_from_a_firer_that_stays_concealed_named_it_and_its_chance() -> None:
    """BMF-A22 with ``bmf.fire_reveals`` off: the firer is not revealed, yet the Soviets
    were told "Fire from PaK 40 at T-34 (1) (30%)" — which hidden unit fired, its type and
    its chance. Now they are told they were fired at by an unseen unit; the Germans, all."""
    pak, grenadiers = _unseen_shot("pak"), _unseen_shot("grenadiers")
    assert pak.state.known(SOVIETS, pid(pak, "pak")).level.name == "UNKNOWN"
    same_to(SOVIETS, pak, grenadiers)
    told = [line["text"] for e in view(pak, GERMANS)["log"] for line in e["said"]]
    assert told[-1].startswith("Fire from PaK 40 at T-34 (1) (30%): ")


def _unseen_challenge(firer: str) -> Game:
    """A Challenge Fire with ``bmf.fire_reveals`` off, its order given to ``firer``."""
    game = Game.create(
        {
            **SCENARIO,
            "units": [*SCENARIO["units"], SECOND_TANK],
            "switches": {"bmf.fire_reveals": False},
        },
        seed=3,
    )
    concealed = [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}]
    game.command(GERMANS, {"type": "conceal", "units": concealed})
    order = {"unit": firer, "reaction": "challenge", "trigger": GAP, "chance": 60}
    game.command(GERMANS, {"type": "ready", "orders": [order]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    return game


@pytest.mark.spec("BMF-A22")
def test_an_unseen_challenge_tells_the_soviets_nothing_of_which_unit_fired() -> None:
    """Issue 25, BMF-A22 with ``bmf.fire_reveals`` off, two worlds: the same Challenge Fire
    from the PaK or from the Grenadiers. What the Soviets receive (the view, its log, its
    proofs, compared with nothing masked) is the same; only the Germans' own log differs."""
    pak, grenadiers = _unseen_challenge("pak"), _unseen_challenge("grenadiers")
    assert [r.label for r in pak.events()[-1].rolls] == ["challenge"]
    same_to(SOVIETS, pak, grenadiers)
    same_to("spectator", pak, grenadiers)
    mine = [line["text"] for e in view(grenadiers, GERMANS)["log"] for line in e["said"]]
    assert any(line.startswith("Challenge Fire from Grenadiers at T-34 (1)") for line in mine)


def test_the_roster_bound_counts_every_secret_a_standing_order_can_hold() -> None:
    """TRUST.md §1.2, fairness/capacity.py: the roster's size is public and fixed from the
    scenario's bound. A standing order holds seven secret facts at most — its unit,
    reaction, trigger, words (``order``), chance, note and a missile in flight — but the
    bound counted six (the words were left out), so a side of sixteen units holding eight
    orders with notes could overflow its roster in the middle of the enemy's move, when a
    missile is launched. A concealed unit now holds five: its place, note, running table,
    route and what it did while concealed."""
    from ghillie.rules.ambush_fire.commands import MAX_ORDERS
    from ghillie.rules.ambush_fire.ruleset import AmbushFire
    from ghillie.rules.ambush_fire.scenario import AmbushFireScenario

    game = _germans_set({})
    order = {"unit": "pak", "reaction": "ambush", "chance": 5}
    game.command(
        GERMANS,
        {
            "type": "ready",
            "orders": [{**order, "trigger": {"within": 100}, "note": "the far hedge"}],
        },
    )
    held = next(p for p in game.state.pieces.values() if p.kind == "order").secret
    per_order = len(held) + 1  # and "flight", when its missile is launched unseen
    assert per_order == 7
    units = [
        {**SCOUTS, "key": f"s{i}", "name": f"Scouts {i}", "side": "germans"} for i in range(16)
    ]
    scenario = AmbushFireScenario.model_validate(
        {**SCENARIO, "units": [*SCENARIO["units"], *units]}
    )
    most = max(sum(1 for u in scenario.units if u.side == side) for side in ("germans", "soviets"))
    assert AmbushFire().secret_facts(scenario) >= 5 * most + per_order * MAX_ORDERS


# --- tried and not found: they stay as guards --------------------------------------------------


def _playing() -> Game:
    game = _germans_set({})
    game.command(GERMANS, {"type": "ready"})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    return game


@pytest.mark.parametrize(
    "command",
    [
        {"type": "move", "units": [{"unit": "pak", "path": [[900, 700]]}]},
        {"type": "move", "units": [{"unit": "grenadiers", "path": [[900, 700]]}]},
    ],
)
def test_naming_a_concealed_enemy_by_its_key_or_id_is_answered_as_no_such_piece(
    command: dict[str, Any],
) -> None:
    """TRUST.md §6 S3, §3.2 (MegaMek #1444): the key or the id of a concealed enemy unit is
    refused exactly as a key that names nothing."""
    game = _playing()
    nothing = {"type": "move", "units": [{"unit": "no_such_unit", "path": [[900, 700]]}]}
    by_id = {
        "type": "move",
        "units": [{"unit": pid(game, command["units"][0]["unit"]), "path": [[900, 700]]}],
    }
    answers = []
    for given in (command, by_id, nothing):
        with pytest.raises(Refusal) as refused:
            game.command(SOVIETS, given)
        answers.append((refused.value.code, str(refused.value), refused.value.field))
    assert answers[0] == answers[1] == answers[2]


@pytest.mark.parametrize(
    "command",
    [
        {"type": "conceal", "units": [{"unit": "pak", "at": [float("nan"), 1]}]},
        {"type": "conceal", "units": [{"unit": "pak", "at": [float("inf"), 1]}]},
        {"type": "conceal", "units": [{"unit": "pak", "at": [1e308, 1]}]},
        {"type": "conceal", "units": [{"unit": "t34_1", "at": [1, 1]}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
         "trigger": {"zone": None, "radius": None, "within": None, "target_class": None}}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
         "trigger": {"radius": -1}}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
         "trigger": {"within": float("nan")}}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
         "trigger": {"zone": [[float("nan"), 1]]}}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
         "trigger": {"zone": [[1, 1]] * 21}}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 101,
         "trigger": {}}]},
        {"type": "ready", "orders": [{"unit": "t34_1", "reaction": "ambush", "chance": 5,
         "trigger": {}}]},
        {"type": "ready", "orders": [{"unit": "pak", "reaction": "ambush", "chance": 5,
         "trigger": {}}] * 9},
    ],
)  # fmt: skip
def test_malformed_set_up_commands_are_clean_refusals(command: dict[str, Any]) -> None:
    """TRUST.md §6 R2, S5: every malformed set-up command is a Refusal, the state as it was."""
    game = _germans_set({})
    before = snapshot(game)
    with pytest.raises(Refusal):
        game.command(GERMANS, command)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "command",
    [
        {"type": "move", "units": []},
        {"type": "move", "units": [{"unit": "t34_1", "path": []}]},
        {"type": "move", "units": [{"unit": "t34_1", "path": [[float("nan"), 1]]}]},
        {"type": "move", "units": [{"unit": "t34_1", "path": [[1e308, 1]]}]},
        {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]] * 41}]},
        {"type": "move", "units": [{"unit": "t34_1", "path": [[600, 600]]}]},  # the marsh
        {"type": "retreat", "path": []},
        {"type": "return_fire", "fire": True},
        {"type": "fire", "unit": "t34_1", "target": "pak", "chance": 5},
    ],
)
def test_malformed_or_untimely_moves_are_clean_refusals(command: dict[str, Any]) -> None:
    """TRUST.md §6 R2: the same for the commands of play."""
    game = _playing()
    before = snapshot(game)
    with pytest.raises(Refusal):
        game.command(SOVIETS, command)
    assert snapshot(game) == before


def test_forty_waypoints_on_the_spot_are_a_move_that_ends_where_it_began() -> None:
    """TRUST.md §6 R2: the longest path allowed, all on one place, is no error."""
    game = _playing()
    game.command(
        SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[1800, 700]] * 40}]}
    )
    assert game.state.pieces[pid(game, "t34_1")].public["at"] == [1800, 700]


# --- found and not fixed ---------------------------------------------------------------------


def _interrupted(start: list[float], seed: int = 1) -> Game:
    from .test_transit import WOODS

    units = [*SCENARIO["units"], SCOUTS]
    game = Game.create(
        {**SCENARIO, "terrain": [*SCENARIO["terrain"], *WOODS], "units": units}, seed=seed
    )
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}],
        },
    )
    near = {"zone": [[1700, 600], [1700, 800]]}  # the tank reaches it 100 m on
    order = {"unit": "pak", "reaction": "challenge", "chance": 60}
    game.command(GERMANS, {"type": "ready", "orders": [{**order, "trigger": near}]})
    game.command(SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": start}]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    # The scouts cross the same open ground, from the west wood to the east wood; only how
    # far inside the west wood they started differs (50 m or 20 m).
    scouts = {"unit": "scouts", "path": [[300, 1050], [500, 1050], [700, 1000]]}
    game.command(
        SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}, scouts]}
    )
    return game


def test_a_challenge_at_a_tank_does_not_show_how_far_a_concealed_unit_walked_in_the_wood() -> None:
    """BMF S2, TRUST.md §6 S2: the challenge at the tank, 100 m into its move, cuts the
    scouts' crossing line at the place they are then ("from 300, 1050 to 350, 1050" or
    "... to 380, 1050"): the Germans learn the scouts had walked 50 m (or 20 m) in the west
    wood before coming out — where they went inside cover."""
    same_to(GERMANS, _interrupted([250, 1050]), _interrupted([280, 1050]))


# --- more tried and not found ------------------------------------------------------------------


def _retreating(scouts_at: list[float]) -> Game | None:
    """The grenadiers' ambush at the lead tank, hit, and their retreat window open; the
    Soviets' concealed scouts at ``scouts_at``."""
    units = [*SCENARIO["units"], SECOND_TANK, SCOUTS]
    for seed in range(40):
        game = Game.create({**SCENARIO, "units": units}, seed=seed)
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
        order = {"unit": "grenadiers", "reaction": "ambush"}
        game.command(
            GERMANS,
            {"type": "ready", "orders": [{**order, "trigger": {"within": 150}, "chance": 40}]},
        )
        game.command(SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": scouts_at}]})
        game.command(SOVIETS, {"type": "ready"})
        game.command(GERMANS, {"type": "end_step"})
        game.command(SOVIETS, column_move())
        if game.state.window is not None and game.state.window.name == "retreat":
            return game
    return None


@pytest.mark.spec("BMF-A21")
def test_a_retreat_toward_a_concealed_enemy_is_answered_as_toward_empty_ground() -> None:
    """BMF-A21 (DEFAULT), TRUST.md §6 S3: the grenadiers' retreat 40 m south, toward where
    the Soviet scouts wait unseen (or with the scouts far off), is taken alike: the refusal
    is no oracle for a concealed unit."""
    # 140 m from the grenadiers (outside their 125 m reveal), 100 m from where they go.
    near, far = _retreating([1000, 960]), _retreating([1900, 100])
    assert near is not None
    assert far is not None
    assert near.state.known(GERMANS, pid(near, "scouts")).level.name == "UNKNOWN"
    for game in (near, far):
        game.command(GERMANS, {"type": "retreat", "path": [[1000, 860]]})
    same_to(GERMANS, near, far)


def test_firing_at_a_concealed_enemy_by_its_id_is_answered_as_no_such_piece() -> None:
    """TRUST.md §6 S3, §3.2 (MegaMek #1444): in the fire phase, a shot at the id or the key
    of a concealed enemy unit gets the very refusal a made-up id gets."""
    game = _playing()
    game.command(SOVIETS, {"type": "end_step"})  # the fire phase: the Soviets fire first
    assert game.state.board.moving == SOVIETS
    answers = []
    for target in (pid(game, "pak"), "pak", "0" * 32):
        shot = {"type": "fire", "unit": "t34_1", "target": target, "chance": 50}
        with pytest.raises(Refusal) as refused:
            game.command(SOVIETS, shot)
        answers.append((refused.value.code, str(refused.value), refused.value.field))
    assert answers[0] == answers[1] == answers[2]


def _through(scouts_at: list[float]) -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SCOUTS]}, seed=2)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 150]}],
        },
    )
    game.command(GERMANS, {"type": "ready"})
    game.command(SOVIETS, {"type": "conceal", "units": [{"unit": "scouts", "at": scouts_at}]})
    game.command(SOVIETS, {"type": "ready"})
    # The Germans move first: the grenadiers through the wood, over the scouts' place.
    game.command(GERMANS, {"type": "move", "units": [{"unit": "grenadiers", "path": [[350, 150]]}]})
    game.command(GERMANS, {"type": "move", "units": [{"unit": "pak", "path": [[250, 150]]}]})
    return game


def test_moving_onto_or_through_a_concealed_enemy_is_taken_as_over_empty_ground() -> None:
    """TRUST.md §6 S3: a move through, or onto, the very place where an enemy unit waits
    concealed is neither refused nor told otherwise than one over empty ground."""
    same_to(GERMANS, _through([250, 150]), _through([1900, 100]))


def _unseen_missile(gap: list[list[float]], seed: int) -> Game:
    from .test_atgm import AT_1250, ATGM

    switches = {"bmf.atgm_reveal_at": "arrival"}
    units = [*SCENARIO["units"], ATGM]
    game = Game.create({**SCENARIO, "units": units, "switches": switches}, seed=seed)
    places = [[1000, 300], [1900, 100], AT_1250]
    rows = [
        {"unit": u, "at": at} for u, at in zip(("pak", "grenadiers", "atgm"), places, strict=True)
    ]
    game.command(GERMANS, {"type": "conceal", "units": rows})
    atgm = {"unit": "atgm", "reaction": "ambush", "trigger": {"zone": gap}, "chance": 70}
    challenge = {"zone": [[1000, 600], [1000, 800]]}
    pak = {"unit": "pak", "reaction": "challenge", "trigger": challenge, "chance": 90}
    game.command(GERMANS, {"type": "ready", "orders": [atgm, pak]})
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
    game.command(SOVIETS, {"type": "return_fire", "fire": False})
    return game


@pytest.mark.spec("BMF-A23")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])  # seeds where the challenge destroys the tank
def test_a_missile_launched_unseen_at_a_tank_destroyed_before_it_lands_leaves_no_trace(
    seed: int,
) -> None:
    """BMF-A10, A23 (``arrival``): the ATGM's missile, launched unseen at 1250 m, finds its
    tank destroyed by the PaK's challenge before it lands. The Soviets see what they see
    with the ATGM's order watching elsewhere: the launch, the secret flight, the firer's
    "fired" are nowhere in their view."""
    launched = _unseen_missile([[1700, 600], [1700, 800]], seed)
    assert all(p.public.get("key") != "t34_1" for p in launched.state.pieces.values())
    same_to(SOVIETS, launched, _unseen_missile([[300, 1400], [310, 1400]], seed))
