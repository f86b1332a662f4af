"""Revealing an ambush, setting it up, and what it may do after (RULES-SPEC DWV-R06, R08,
R09, A07, A08, A09, A11, A13; test case T07)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game

from .helpers import (
    GRAW_IN_D2,
    JUNGLE,
    MARINES,
    ORKS,
    TACTICAL_IN_D2,
    end_phases,
    known,
    map_data,
    marines_shooting,
    refused,
    scan,
    seen,
    started,
    table_data,
    told,
    unit,
)

MARBO_IN_B2 = [[16, 20]]
# Colonel Straken's command squad (deployed normally, x 28-32, y 4-6) steps forward 2".
MOVE_COMMAND_SQUAD = {
    "type": "move",
    "unit": "command",
    "models": [[28, 6], [30, 6], [32, 6], [29, 8], [31, 8]],
}


def _reveal(game: Game, key: str) -> Any:
    return game.command(JUNGLE, {"type": "reveal", "unit": key})


def _set_up(game: Game, key: str, models: list[Any]) -> Any:
    return game.command(JUNGLE, {"type": "set_up", "unit": key, "models": models})


def _moved(models: list[list[float]], dy: float = 0.5) -> list[list[float]]:
    return [[x, y + dy] for x, y in models]


def _jungle_turn_2_with_arvin_in_d2(game: Game) -> None:
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2})
    end_phases(game, MARINES, 3)


# --- DWV-R06 when the owner may reveal ---------------------------------------------------------


@pytest.mark.spec("DWV-R06")
def test_dwv_r06_the_owner_reveals_at_the_beginning_of_its_own_turn() -> None:
    game = started(graw="D2", marbo="B2")
    event = _reveal(game, "graw")
    for observer in (MARINES, JUNGLE):
        (line,) = told(event, observer)
        assert line["event"] == "ambush_revealed"
        assert line["square"] == "D2"
        assert "revealed by its owner" in line["text"]
    _set_up(game, "graw", GRAW_IN_D2)
    # Several ambushes may be revealed at the beginning of the same turn.
    _reveal(game, "marbo")
    _set_up(game, "marbo", MARBO_IN_B2)
    assert known(game, MARINES, "marbo")["public"]["status"] == "on_table"  # type: ignore[index]


@pytest.mark.spec("DWV-R06")
def test_dwv_r06_no_reveal_once_the_turn_is_under_way() -> None:
    game = started(graw="D2", marbo="B2")
    game.command(JUNGLE, MOVE_COMMAND_SQUAD)
    assert refused(game, JUNGLE, {"type": "reveal", "unit": "graw"}).code == "too_late"
    end_phases(game, JUNGLE, 1)
    assert refused(game, JUNGLE, {"type": "reveal", "unit": "graw"}).code == "too_late"


@pytest.mark.spec("DWV-R06")
def test_dwv_r06_no_reveal_in_the_opponents_turn() -> None:
    game = started(graw="D2")
    end_phases(game, JUNGLE, 3)
    assert refused(game, JUNGLE, {"type": "reveal", "unit": "graw"}).code == "not_your_turn"
    end_phases(game, MARINES, 3)
    _reveal(game, "graw")  # the beginning of its next own turn


@pytest.mark.spec("DWV-R06")
def test_dwv_r06_only_a_unit_in_ambush_can_be_revealed() -> None:
    game = started(graw="D2")
    assert refused(game, JUNGLE, {"type": "reveal", "unit": "command"}).code == "not_in_ambush"
    _reveal(game, "graw")
    _set_up(game, "graw", GRAW_IN_D2)
    assert refused(game, JUNGLE, {"type": "reveal", "unit": "graw"}).code == "not_in_ambush"


# --- DWV-A13 reveal on turn 1 -------------------------------------------------------------------


@pytest.mark.spec("DWV-A13")
def test_dwv_a13_a_reveal_on_turn_1_is_allowed_by_default() -> None:
    game = started(graw="D2")
    assert game.view(JUNGLE)["board"]["turn"] == 1
    assert "reveal" in [c["type"] for c in game.view(JUNGLE)["commands"]]
    _reveal(game, "graw")


@pytest.mark.spec("DWV-A13")
def test_dwv_a13_reveal_turn_one_off_waits_for_turn_2() -> None:
    game = started(map_data(reveal_turn_one=False), graw="D2")
    assert refused(game, JUNGLE, {"type": "reveal", "unit": "graw"}).code == "too_late"
    end_phases(game, JUNGLE, 3)
    end_phases(game, MARINES, 3)
    assert game.view(JUNGLE)["board"]["turn"] == 2
    _reveal(game, "graw")


# --- DWV-R08 setting up -----------------------------------------------------------------------


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_only_the_owner_sets_up_and_only_the_unit_revealed() -> None:
    game = started(graw="D2", marbo="B2")
    _reveal(game, "graw")
    assert refused(
        game, MARINES, {"type": "set_up", "unit": "graw", "models": GRAW_IN_D2}
    ).code == ("not_your_turn")
    assert refused(
        game, JUNGLE, {"type": "set_up", "unit": "marbo", "models": MARBO_IN_B2}
    ).code == ("setup_pending")
    assert refused(game, JUNGLE, {"type": "end_phase"}).code == "not_your_turn"
    short = {"type": "set_up", "unit": "graw", "models": GRAW_IN_D2[:9]}
    assert refused(game, JUNGLE, short).code == "bad_models"
    _set_up(game, "graw", GRAW_IN_D2)


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_each_model_breaking_a_condition_is_removed_as_a_casualty() -> None:
    game = started(graw="D2")
    _jungle_turn_2_with_arvin_in_d2(game)  # Sergeant Arvin stands at (42, 21)
    _reveal(game, "graw")
    proposed = [
        [38, 15], [39.5, 15], [41, 15], [38, 13.5], [39.5, 13.5], [41, 13.5],
        [42.5, 9.5],  # open ground south of the jungle: (b) not in jungle or woods
        [42, 22.5],  # 0.5" from Sergeant Arvin's base: (c) within 1" of an enemy model
        [47, 23],  # in the jungle of D2, but 5" from the rest: (a) out of coherency
        None,  # the owner could not place it
    ]  # fmt: skip
    event = _set_up(game, "graw", proposed)
    for observer in (MARINES, JUNGLE):
        (line,) = told(event, observer)
        assert line["placed"] == 6
        assert line["casualties"] == {
            "6": "not in jungle or woods",
            "7": 'within 1" of an enemy model',
            "8": "out of squad coherency",
            "9": "not set up by its owner",
        }
        assert "4 removed as casualties" in line["text"]
    graw = known(game, MARINES, "graw")
    assert graw is not None
    models = graw["public"]["models"]
    assert [m["lost"] for m in models] == [False] * 6 + [True] * 4
    assert [m["at"] for m in models[:6]] == proposed[:6]
    assert all(m["at"] is None for m in models[6:])


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_first_model_must_be_in_the_recorded_square() -> None:
    game = started(graw="D2")
    _reveal(game, "graw")
    # The whole patrol in the jungle just east of D2 (x 48-50 is E2): none in D2.
    east = [[48.6 + (i % 2), 11 + 1.2 * (i // 2)] for i in range(10)]
    event = _set_up(game, "graw", east)
    assert told(event, MARINES)[0]["placed"] == 0
    assert known(game, MARINES, "graw")["public"]["status"] == "destroyed"  # type: ignore[index]


@pytest.mark.spec("DWV-R08")
def test_dwv_r08_the_set_up_is_told_to_spectators_too() -> None:
    game = started(graw="D2")
    _reveal(game, "graw")
    event = _set_up(game, "graw", GRAW_IN_D2)
    assert told(event, "spectator") == told(event, MARINES)
    assert told(event, MARINES)[0]["event"] == "set_up"


# --- DWV-A08 at least half in the square --------------------------------------------------------


def _table_set_up(switches: dict[str, Any], key: str, placed: int, in_square: int) -> Any:
    game = started(table_data(**switches), graw="D2", harker="B2")
    game.command(JUNGLE, {"type": "reveal", "unit": key})
    return game.command(
        JUNGLE, {"type": "set_up", "unit": key, "placed": placed, "in_square": in_square}
    )


@pytest.mark.spec("DWV-A08", "DWV-R08")
def test_dwv_a08_at_least_half_rounded_up_of_the_models_set_up_are_in_the_square() -> None:
    (line,) = told(_table_set_up({}, "graw", 10, 4), ORKS)
    assert line["placed"] == 8  # 4 in the square carry 4 outside it
    assert set(line["casualties"].values()) == {
        "fewer than half the unit would be in the recorded square"
    }
    (line,) = told(_table_set_up({}, "harker", 5, 2), ORKS)
    assert line["placed"] == 4  # ceil(5 / 2) = 3 > 2, so only 4 stand


@pytest.mark.spec("DWV-A08")
def test_dwv_a08_half_rounding_down_switch_lets_an_odd_unit_keep_one_more() -> None:
    assert told(_table_set_up({"half_rounding": "down"}, "graw", 10, 4), ORKS)[0]["placed"] == 9
    assert told(_table_set_up({"half_rounding": "down"}, "harker", 5, 2), ORKS)[0]["placed"] == 5


@pytest.mark.spec("DWV-A08", "DWV-R08")
def test_dwv_a08_table_mode_counts_that_cannot_be_true_are_refused() -> None:
    game = started(table_data(), graw="D2")
    game.command(JUNGLE, {"type": "reveal", "unit": "graw"})
    for placed, in_square in ((11, 5), (4, 5)):
        command = {"type": "set_up", "unit": "graw", "placed": placed, "in_square": in_square}
        assert refused(game, JUNGLE, command).code == "bad_models"
    positions = {"type": "set_up", "unit": "graw", "models": GRAW_IN_D2}
    assert refused(game, JUNGLE, positions).code == "bad_models"


# --- DWV-A09 no first model ----------------------------------------------------------------------

IN_A1_OPEN_GROUND = [[2 + 1.5 * (i % 5), 4 + 1.5 * (i // 5)] for i in range(10)]


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_no_jungle_in_the_square_destroys_the_whole_unit() -> None:
    game = started(graw="A1")
    _reveal(game, "graw")
    event = _set_up(game, "graw", IN_A1_OPEN_GROUND)
    (line,) = told(event, MARINES)
    assert line["placed"] == 0
    assert len(line["casualties"]) == 10
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "destroyed"
    assert all(m["lost"] for m in graw["public"]["models"])


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_first_model_any_terrain_switch_sets_the_unit_up_in_the_open() -> None:
    game = started(map_data(first_model="any_terrain"), graw="A1")
    _reveal(game, "graw")
    event = _set_up(game, "graw", IN_A1_OPEN_GROUND)
    assert told(event, MARINES)[0]["placed"] == 10
    assert known(game, MARINES, "graw")["public"]["status"] == "on_table"  # type: ignore[index]


@pytest.mark.spec("DWV-A09")
def test_dwv_a09_any_terrain_applies_only_when_no_first_model_can_stand_in_jungle() -> None:
    game = started(map_data(first_model="any_terrain"), graw="D2")
    _reveal(game, "graw")
    proposed = [*GRAW_IN_D2[:9], [42.5, 9.5]]  # the last in open ground south of the jungle
    event = _set_up(game, "graw", proposed)
    (line,) = told(event, MARINES)
    assert line["placed"] == 9
    assert line["casualties"] == {"9": "not in jungle or woods"}


# --- DWV-R09 / DWV-T07 after the reveal -----------------------------------------------------------


def _revealed_at_start_of_turn_1() -> Game:
    game = started(graw="D2", marbo="B2")
    _reveal(game, "graw")
    _set_up(game, "graw", GRAW_IN_D2)
    _reveal(game, "marbo")
    _set_up(game, "marbo", MARBO_IN_B2)
    return game


@pytest.mark.spec("DWV-T07", "DWV-R09")
def test_dwv_t07_a_unit_revealed_in_its_own_turn_cannot_move() -> None:
    game = _revealed_at_start_of_turn_1()
    move = {"type": "move", "unit": "graw", "models": _moved(GRAW_IN_D2)}
    assert refused(game, JUNGLE, move).code == "revealed_this_turn"
    assert refused(game, JUNGLE, {"type": "move", "unit": "marbo", "models": [[17, 20]]}).code == (
        "revealed_this_turn"
    )
    # Units that were not revealed move as usual.
    game.command(JUNGLE, MOVE_COMMAND_SQUAD)


@pytest.mark.spec("DWV-T07", "DWV-R09")
def test_dwv_t07_its_heavy_weapons_fire_as_if_it_had_not_moved() -> None:
    game = _revealed_at_start_of_turn_1()
    game.command(JUNGLE, MOVE_COMMAND_SQUAD)
    end_phases(game, JUNGLE, 1)
    event = game.command(JUNGLE, {"type": "fire", "unit": "graw", "weapon": "heavy"})
    (line,) = told(event, MARINES)
    assert line["counts_as_stationary"] is True
    assert "counts as not having moved" in line["text"]
    # Compare a unit that did move this turn.
    moved = refused(game, JUNGLE, {"type": "fire", "unit": "command", "weapon": "heavy"})
    assert moved.code == "moved_heavy_weapon"


@pytest.mark.spec("DWV-T07", "DWV-R09")
def test_dwv_t07_pistols_allow_an_assault_heavy_weapons_do_not() -> None:
    game = _revealed_at_start_of_turn_1()
    end_phases(game, JUNGLE, 1)
    game.command(JUNGLE, {"type": "fire", "unit": "graw", "weapon": "heavy"})
    game.command(JUNGLE, {"type": "fire", "unit": "marbo", "weapon": "pistol"})
    end_phases(game, JUNGLE, 1)
    event = game.command(JUNGLE, {"type": "assault", "unit": "marbo"})
    assert told(event, MARINES)[0]["event"] == "assault"
    assert refused(game, JUNGLE, {"type": "assault", "unit": "graw"}).code == (
        "fired_heavy_or_rapid"
    )


@pytest.mark.spec("DWV-R09")
@pytest.mark.parametrize(("weapon", "may_assault"), [("assault", True), ("rapid_fire", False)])
def test_dwv_r09_assault_weapons_allow_an_assault_rapid_fire_does_not(
    weapon: str, may_assault: bool
) -> None:
    game = _revealed_at_start_of_turn_1()
    end_phases(game, JUNGLE, 1)
    game.command(JUNGLE, {"type": "fire", "unit": "graw", "weapon": weapon})
    end_phases(game, JUNGLE, 1)
    if may_assault:
        game.command(JUNGLE, {"type": "assault", "unit": "graw"})
    else:
        refusal = refused(game, JUNGLE, {"type": "assault", "unit": "graw"})
        assert refusal.code == "fired_heavy_or_rapid"


# --- DWV-A07 revealed in the enemy's turn ---------------------------------------------------------


def _found_in_marines_turn_1(**switches: Any) -> Game:
    game = started(map_data(**switches), graw="D2")
    marines_shooting(game)
    scan(game)
    _set_up(game, "graw", GRAW_IN_D2)
    return game


@pytest.mark.spec("DWV-A07")
def test_dwv_a07_found_in_the_enemy_turn_it_acts_normally_in_its_next_own_turn() -> None:
    game = _found_in_marines_turn_1()
    # No voluntary move in that enemy turn (it is not the Veterans' turn to move anything).
    move = {"type": "move", "unit": "graw", "models": _moved(GRAW_IN_D2)}
    assert refused(game, JUNGLE, move).code == "not_your_turn"
    end_phases(game, MARINES, 2)
    game.command(JUNGLE, move)


@pytest.mark.spec("DWV-A07")
def test_dwv_a07_no_move_next_own_turn_switch_holds_it_one_more_turn() -> None:
    game = _found_in_marines_turn_1(enemy_turn_reveal="no_move_next_own_turn")
    end_phases(game, MARINES, 2)
    move = {"type": "move", "unit": "graw", "models": _moved(GRAW_IN_D2)}
    assert refused(game, JUNGLE, move).code == "revealed_this_turn"
    end_phases(game, JUNGLE, 3)
    end_phases(game, MARINES, 3)
    game.command(JUNGLE, move)


@pytest.mark.spec("DWV-A07")
def test_dwv_a07_a_unit_revealed_in_its_own_turn_moves_freely_in_the_next() -> None:
    for switch in ("no_voluntary_move", "no_move_next_own_turn"):
        game = started(map_data(enemy_turn_reveal=switch), graw="D2")
        _reveal(game, "graw")
        _set_up(game, "graw", GRAW_IN_D2)
        end_phases(game, JUNGLE, 3)
        end_phases(game, MARINES, 3)
        game.command(JUNGLE, {"type": "move", "unit": "graw", "models": _moved(GRAW_IN_D2)})


# --- DWV-A11 never revealed -----------------------------------------------------------------------


def _ended(rule: str | None) -> tuple[Game, Any]:
    data = map_data() if rule is None else map_data(unrevealed_at_end=rule)
    game = started(data, graw="D2")
    return game, game.command(MARINES, {"type": "end_game"})


@pytest.mark.spec("DWV-A11")
def test_dwv_a11_an_ambush_never_revealed_stays_unrevealed_by_default() -> None:
    game, event = _ended(None)
    assert game.view(MARINES)["phase"] == "over"
    assert [line["event"] for line in told(event, MARINES)] == ["game_over"]
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "in_ambush"
    assert "square" not in graw["public"]
    assert "D2" not in seen(game, MARINES).replace('"D2": [36.0, 12.0, 48.0, 24.0]', "")


@pytest.mark.spec("DWV-A11")
def test_dwv_a11_unrevealed_at_end_reveal_shows_the_square() -> None:
    game, event = _ended("reveal")
    lines = told(event, MARINES)
    assert [line["event"] for line in lines] == ["game_over", "unrevealed_at_end"]
    assert lines[1]["square"] == "D2"
    assert known(game, MARINES, "graw")["public"]["square"] == "D2"  # type: ignore[index]


@pytest.mark.spec("DWV-A11")
def test_dwv_a11_unrevealed_at_end_destroyed_counts_it_as_destroyed() -> None:
    game, event = _ended("destroyed")
    lines = told(event, MARINES)
    assert "counts as destroyed" in lines[1]["text"]
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "destroyed"
    assert "square" not in graw["public"]
    assert unit(game, "graw").public["status"] == "destroyed"


# --- DWV-A04 which models count as in the recorded square ---------------------------------------

# Three wholly inside D2, four with their centres just inside D2 but their bases astride the
# D1/D2 line (y = 12), three in the jungle of D1.
ASTRIDE_THE_LINE = [
    [38, 14], [39.5, 14], [41, 14],
    [38, 12.3], [39.5, 12.3], [41, 12.3], [42.5, 12.3],
    [38, 10.8], [39.5, 10.8], [41, 10.8],
]  # fmt: skip


@pytest.mark.spec("DWV-A04", "DWV-R08")
def test_dwv_a04_a_model_whose_base_centre_is_in_the_square_counts_as_in_it() -> None:
    game = started(graw="D2")
    _reveal(game, "graw")
    assert told(_set_up(game, "graw", ASTRIDE_THE_LINE), MARINES)[0]["placed"] == 10  # 7 in


@pytest.mark.spec("DWV-A04", "DWV-R08")
def test_dwv_a04_whole_base_switch_counts_only_bases_wholly_inside() -> None:
    game = started(map_data(square_by="whole_base"), graw="D2")
    _reveal(game, "graw")
    (line,) = told(_set_up(game, "graw", ASTRIDE_THE_LINE), MARINES)
    assert line["placed"] == 6  # 3 in the square carry 3 outside it
    assert set(line["casualties"].values()) == {
        "fewer than half the unit would be in the recorded square"
    }
