"""Staying hidden and being found (RULES-SPEC DWV-R06, R07, A04, A05, A06, A10, A14; test
cases T04 and T05)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal

from .helpers import (
    GRAW_IN_D2,
    JUNGLE,
    MARINES,
    SCOUTS_IN_D2,
    TACTICAL_IN_C2,
    TACTICAL_IN_D2,
    end_phases,
    known,
    map_data,
    marines_shooting,
    refused,
    said,
    scan,
    started,
    told,
    unit,
    watchers,
)


def _fire(game: Game, models: list[int], weapon: str = "rapid_fire") -> Any:
    return game.command(
        MARINES, {"type": "fire", "unit": "tactical", "weapon": weapon, "models": models}
    )


def _pistol_refused(game: Game, model: int) -> Refusal:
    """The refusal of one tactical marine's pistol shot."""
    command = {"type": "fire", "unit": "tactical", "weapon": "pistol", "models": [model]}
    return refused(game, MARINES, command)


def _set_up_graw(game: Game) -> None:
    game.command(JUNGLE, {"type": "set_up", "unit": "graw", "models": GRAW_IN_D2})


# --- DWV-T04 / DWV-R07 ----------------------------------------------------------------------


@pytest.mark.spec("DWV-T04", "DWV-R07")
def test_dwv_t04_an_auspex_in_d2_finds_the_ambusher_who_is_placed_at_once_by_its_owner() -> None:
    game = started(graw="D2", marbo="B2")
    marines_shooting(game)
    event = scan(game)
    for observer in (MARINES, JUNGLE):
        lines = told(event, observer)
        assert [line["event"] for line in lines] == ["scan", "ambush_revealed"]
        assert lines[0]["square"] == "D2"
        assert lines[0]["found"] is True
        assert lines[1]["square"] == "D2"
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "revealed"
    assert graw["public"]["square"] == "D2"
    # "Placed on the table immediately": nothing else happens until its owner sets it up.
    assert [c["type"] for c in game.view(JUNGLE)["commands"]] == ["set_up"]
    assert [c["type"] for c in game.view(MARINES)["commands"]] == []
    assert refused(game, MARINES, {"type": "end_phase"}).code == "not_your_turn"
    _set_up_graw(game)
    assert known(game, MARINES, "graw")["public"]["status"] == "on_table"  # type: ignore[index]
    # The scanning model cannot fire this shooting phase; its squad-mates may.
    assert _pistol_refused(game, 0).code == "scanned_this_phase"
    fired = _fire(game, [1, 2, 3, 4, 5])
    assert told(fired, MARINES)[0]["models"] == [1, 2, 3, 4, 5]
    # Fire without a list of models: the whole unit but the scanner.
    whole = game.command(MARINES, {"type": "fire", "unit": "tactical", "weapon": "pistol"})
    assert 0 not in told(whole, MARINES)[0]["models"]
    assert len(told(whole, MARINES)[0]["models"]) == 9


@pytest.mark.spec("DWV-R07")
def test_dwv_r07_a_scan_rolls_no_dice() -> None:
    game = started(graw="D2")
    marines_shooting(game)
    assert scan(game).rolls == ()


@pytest.mark.spec("DWV-R07")
def test_dwv_r07_the_scanner_must_be_in_the_same_square() -> None:
    game = started(graw="D2")
    marines_shooting(game, TACTICAL_IN_C2)
    event = scan(game)
    (line,) = told(event, MARINES)
    assert line["square"] == "C2"
    assert line["found"] is False
    assert unit(game, "graw").public["status"] == "in_ambush"


@pytest.mark.spec("DWV-R07")
def test_dwv_r07_scans_are_made_at_the_start_of_the_shooting_phase() -> None:
    game = started(graw="D2")
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2})
    # Not in the movement phase...
    assert refused(game, MARINES, {"type": "scan", "unit": "tactical"}).code == "too_late"
    end_phases(game, MARINES, 1)
    # ...and not once anyone has fired.
    game.command(MARINES, {"type": "fire", "unit": "scouts", "weapon": "heavy"})
    assert refused(game, MARINES, {"type": "scan", "unit": "tactical"}).code == "too_late"
    assert unit(game, "graw").public["status"] == "in_ambush"


@pytest.mark.spec("DWV-R07")
def test_dwv_r07_only_a_model_with_a_scanning_device_may_scan() -> None:
    game = started(graw="D2")
    marines_shooting(game)
    refusal = refused(game, MARINES, {"type": "scan", "unit": "tactical", "model": 1})
    assert refusal.code == "no_scanner"
    assert refused(game, MARINES, {"type": "scan", "unit": "tactical", "model": 10}).code == (
        "bad_models"
    )


@pytest.mark.spec("DWV-R07")
def test_dwv_r07_the_table_mode_scanner_enters_its_square() -> None:
    from .helpers import ORKS, table_data

    game = started(table_data(), graw="D2", harker="B2")
    end_phases(game, JUNGLE, 3)
    end_phases(game, ORKS, 1)
    assert refused(game, ORKS, {"type": "scan", "unit": "boyz"}).code == "measurement_required"
    event = game.command(ORKS, {"type": "scan", "unit": "boyz", "model": 0, "square": " d2"})
    assert told(event, ORKS)[0]["found"] is True
    assert told(event, ORKS)[1]["square"] == "D2"


# --- DWV-R06 / DWV-T05: staying hidden --------------------------------------------------------


@pytest.mark.spec("DWV-T05", "DWV-R06")
def test_dwv_t05_a_model_without_a_scanner_walking_through_d2_finds_nothing() -> None:
    game = started(graw="D2")
    end_phases(game, JUNGLE, 3)
    event = game.command(MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2})
    assert [line["event"] for line in told(event, MARINES)] == ["move"]
    end_phases(game, MARINES, 1)
    # The scouts' sergeant has no auspex: he may not scan, in D2 as anywhere.
    assert refused(game, MARINES, {"type": "scan", "unit": "scouts"}).code == "no_scanner"
    end_phases(game, MARINES, 2)
    assert unit(game, "graw").public["status"] == "in_ambush"
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert "square" not in graw["public"]


@pytest.mark.spec("DWV-R06")
def test_dwv_r06_an_auspex_walking_through_without_scanning_finds_nothing() -> None:
    game = started(graw="D2")
    marines_shooting(game)  # Arvin stands in D2 with his auspex
    end_phases(game, MARINES, 2)
    game.command(JUNGLE, {"type": "end_phase"})
    assert unit(game, "graw").public["status"] == "in_ambush"
    assert game.view(MARINES)["board"]["enemy_units_in_ambush"] == 1


# --- DWV-A04 which square a model is in --------------------------------------------------------


def _arvin_at(x: float, y: float) -> list[list[float]]:
    return [[x, y], *TACTICAL_IN_D2[1:]]


@pytest.mark.spec("DWV-A04")
def test_dwv_a04_a_model_is_in_the_square_of_its_base_centre() -> None:
    # Base centre in D2 by 0.3", the base astride the C2/D2 line: in D2.
    game = started(graw="D2")
    marines_shooting(game, _arvin_at(36.3, 21))
    assert told(scan(game), MARINES)[0]["found"] is True


@pytest.mark.spec("DWV-A04")
def test_dwv_a04_a_model_on_a_square_line_belongs_to_exactly_one_square() -> None:
    game = started(graw="D2")
    marines_shooting(game, _arvin_at(36, 12))  # the corner of C1, D1, C2 and D2
    line = told(scan(game), MARINES)[0]
    assert line["square"] == "D2"  # squares are half-open: D2 is [36, 48) × [12, 24)
    assert line["found"] is True


@pytest.mark.spec("DWV-A04")
def test_dwv_a04_whole_base_switch_a_base_astride_a_line_is_in_no_square() -> None:
    game = started(map_data(square_by="whole_base"), graw="D2")
    marines_shooting(game, _arvin_at(36.3, 21))
    assert refused(game, MARINES, {"type": "scan", "unit": "tactical"}).code == "between_squares"
    assert unit(game, "graw").public["status"] == "in_ambush"


@pytest.mark.spec("DWV-A04")
def test_dwv_a04_whole_base_switch_a_base_wholly_inside_is_in_the_square() -> None:
    game = started(map_data(square_by="whole_base"), graw="D2")
    marines_shooting(game, _arvin_at(36.6, 21))
    assert told(scan(game), MARINES)[0]["found"] is True


# --- DWV-A05 whose shooting phase ---------------------------------------------------------------


def _marines_in_d2_jungle_shooting(game: Game) -> None:
    """Marines' turn 1: the tactical squad walks into D2; then the jungle's turn 2 shooting."""
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2})
    end_phases(game, MARINES, 3)
    end_phases(game, JUNGLE, 1)


@pytest.mark.spec("DWV-A05")
def test_dwv_a05_a_model_scans_only_in_its_own_shooting_phase() -> None:
    game = started(graw="D2")
    _marines_in_d2_jungle_shooting(game)
    assert game.view(MARINES)["board"]["step"] == "shooting"
    assert refused(game, MARINES, {"type": "scan", "unit": "tactical"}).code == "not_your_turn"


@pytest.mark.spec("DWV-A05")
def test_dwv_a05_scan_phase_either_lets_it_scan_in_the_enemy_shooting_phase() -> None:
    game = started(map_data(scan_phase="either"), graw="D2")
    _marines_in_d2_jungle_shooting(game)
    event = scan(game)
    assert told(event, MARINES)[0]["found"] is True
    # Found in its own turn: the patrol is set up and may fire as if it had not moved.
    _set_up_graw(game)
    fired = game.command(JUNGLE, {"type": "fire", "unit": "graw", "weapon": "heavy"})
    assert told(fired, MARINES)[0]["counts_as_stationary"] is True


# --- DWV-A06 a scan of an empty square ----------------------------------------------------------


@pytest.mark.spec("DWV-A06")
def test_dwv_a06_a_scan_of_an_empty_square_reports_no_ambushers_found() -> None:
    game = started(graw="B2", marbo="E2")
    marines_shooting(game)
    event = scan(game)
    for observer in (MARINES, JUNGLE):
        (line,) = told(event, observer)
        assert line["found"] is False
        assert said(line) == (
            "Sergeant Arvin (Tactical squad Arvin) scans with the auspex: no ambushers found in D2."
        )
    assert game.view(MARINES)["board"]["found_empty"] == ["D2"]
    assert game.view(JUNGLE)["board"]["found_empty"] == []
    # A scan that finds nothing is still a scan: the scanning model may not fire.
    refusal = _pistol_refused(game, 0)
    assert refusal.code == "scanned_this_phase"


@pytest.mark.spec("DWV-A06")
def test_dwv_a06_report_empty_scan_off_says_only_that_a_scan_was_made() -> None:
    game = started(map_data(report_empty_scan=False), graw="B2")
    marines_shooting(game)
    event = scan(game)
    (line,) = told(event, MARINES)
    assert said(line) == "Sergeant Arvin (Tactical squad Arvin) scans D2 with the auspex."
    assert "found" not in line
    assert game.view(MARINES)["board"]["found_empty"] == []


def _scan_d2(graw: str) -> tuple[Game, Any]:
    game = started(graw=graw)
    marines_shooting(game)
    return game, scan(game)


@pytest.mark.spec("DWV-A06")
def test_dwv_a06_an_empty_and_a_held_square_differ_only_in_what_the_scan_found() -> None:
    held, found = _scan_d2("D2")
    empty, nothing = _scan_d2("C2")
    for observer in watchers(held, JUNGLE):
        hit, miss = told(found, observer)[0], told(nothing, observer)[0]
        assert {k for k in hit if hit[k] != miss.get(k)} == {"found", "text"}
        assert said(hit).removesuffix("ambushers found in D2!") == said(miss).removesuffix(
            "no ambushers found in D2."
        )
    # The held square adds the reveal, and its owner's set-up; nothing else.
    assert [line["event"] for line in told(found, MARINES)] == ["scan", "ambush_revealed"]
    assert [line["event"] for line in told(nothing, MARINES)] == ["scan"]
    _set_up_graw(held)
    # After the scan both worlds answer the Marines' fire the same way.
    for game in (held, empty):
        refusal = _pistol_refused(game, 0)
        assert (refusal.code, refusal.detail) == (
            "scanned_this_phase",
            "A model that scanned cannot fire this shooting phase.",
        )
        _fire(game, [1, 2])


@pytest.mark.spec("DWV-A06")
def test_dwv_a06_refusing_a_scan_says_the_same_whether_or_not_the_square_is_held() -> None:
    answers = []
    for graw in ("D2", "C2"):
        game = started(graw=graw)
        end_phases(game, JUNGLE, 3)
        game.command(MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2})
        game.command(MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2})
        early = refused(game, MARINES, {"type": "scan", "unit": "tactical"})
        end_phases(game, MARINES, 1)
        no_device = refused(game, MARINES, {"type": "scan", "unit": "scouts"})
        answers.append([(r.code, r.detail) for r in (early, no_device)])
    assert answers[0] == answers[1]
    assert [code for code, _ in answers[0]] == ["too_late", "no_scanner"]


# --- DWV-A10 the scanning devices ----------------------------------------------------------------


@pytest.mark.spec("DWV-A10")
def test_dwv_a10_by_default_only_a_literal_auspex_or_scanner_scans() -> None:
    game = started(graw="D2")
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2})
    end_phases(game, MARINES, 1)
    assert refused(game, MARINES, {"type": "scan", "unit": "scouts"}).code == "no_scanner"


def _telion_scans(data: dict[str, Any]) -> Any:
    game = started(data, graw="D2")
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2})
    end_phases(game, MARINES, 1)
    return scan(game, unit="scouts")


@pytest.mark.spec("DWV-A10")
def test_dwv_a10_the_scanning_models_list_adds_models_of_a_race() -> None:
    data = map_data(scanning_models={"space_marines": ["Sergeant Telion"]})
    assert told(_telion_scans(data), MARINES)[0]["found"] is True


@pytest.mark.spec("DWV-A10")
def test_dwv_a10_the_list_is_by_race() -> None:
    data = map_data(scanning_models={"orks": ["Sergeant Telion"]})
    game = started(data, graw="D2")
    end_phases(game, JUNGLE, 3)
    game.command(MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2})
    end_phases(game, MARINES, 1)
    assert refused(game, MARINES, {"type": "scan", "unit": "scouts"}).code == "no_scanner"


@pytest.mark.spec("DWV-A10")
def test_dwv_a10_a_player_may_flag_a_model_as_counting_as_a_scanning_device() -> None:
    data = map_data()
    scouts = next(u for u in data["units"] if u["key"] == "scouts")
    scouts["models"][0]["scanner"] = True
    assert told(_telion_scans(data), MARINES)[0]["found"] is True
    view = json.dumps(known(started(data, graw="D2"), JUNGLE, "scouts"))
    assert '"scanner": true' in view  # the opponent sees which models can scan


# --- DWV-A14 several scanners in one square ------------------------------------------------------


def _two_auspexes(**switches: Any) -> Game:
    data = map_data(**switches)
    tactical = next(u for u in data["units"] if u["key"] == "tactical")
    tactical["models"][1]["wargear"] = ["auspex"]
    game = started(data, graw="D2")
    moved = [[42, 21], [40, 22], *TACTICAL_IN_D2[2:]]
    marines_shooting(game, moved)
    scan(game, model=0)
    _set_up_graw(game)
    return game


@pytest.mark.spec("DWV-A14")
def test_dwv_a14_a_second_scan_of_the_square_has_no_further_effect() -> None:
    game = _two_auspexes()
    event = scan(game, model=1)
    (line,) = told(event, MARINES)
    assert line["square"] == "D2"
    assert said(line) == (
        "Marine (Tactical squad Arvin) scans with the auspex: the ambushers in D2 were found "
        "already."
    )
    assert game.view(MARINES)["board"]["found_empty"] == []
    assert game.view(MARINES)["board"]["waiting_for_setup"] is None
    # It was made: the second scanner chose not to fire.
    refusal = _pistol_refused(game, 1)
    assert refusal.code == "scanned_this_phase"


@pytest.mark.spec("DWV-A14")
def test_dwv_a14_extra_scans_refused_switch_refuses_a_second_scan() -> None:
    game = _two_auspexes(extra_scans="refused")
    refusal = refused(game, MARINES, {"type": "scan", "unit": "tactical", "model": 1})
    assert refusal.code == "square_already_scanned"
    _fire(game, [1], weapon="pistol")  # it did not scan, so it may fire
