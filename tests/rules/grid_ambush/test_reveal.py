"""Revealing an ambush and what it may do after (RULES-SPEC DWV-R06, R09, A07, A11, A13;
test case T07). Setting it up (DWV-R08) is test_setting_up.py's."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game

from .helpers import (
    GRAW_IN_D2,
    JUNGLE,
    MARINES,
    end_phases,
    known,
    map_data,
    marines_shooting,
    refused,
    said,
    scan,
    seen,
    started,
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


# --- DWV-R06 when the owner may reveal ---------------------------------------------------------


@pytest.mark.spec("DWV-R06")
def test_dwv_r06_the_owner_reveals_at_the_beginning_of_its_own_turn() -> None:
    game = started(graw="D2", marbo="B2")
    event = _reveal(game, "graw")
    for observer in (MARINES, JUNGLE):
        (line,) = told(event, observer)
        assert line["event"] == "ambush_revealed"
        assert line["square"] == "D2"
        assert "Sgt. Graw's patrol breaks cover in D2" in said(line)
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
    assert said(line) == (
        "Sgt. Graw's patrol opens fire with heavy weapons. Revealed this turn, Sgt. Graw's "
        "patrol counts as not having moved."
    )
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
    assert said(lines[1]) == "Sgt. Graw's patrol was never revealed and counts as destroyed."
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "destroyed"
    assert "square" not in graw["public"]
    assert unit(game, "graw").public["status"] == "destroyed"
