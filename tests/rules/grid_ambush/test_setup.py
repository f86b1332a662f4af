"""Before the battle: who may ambush, the grid, and writing the orders (RULES-SPEC §4, DWV-R01
to R05, A01 to A03, A12; test cases T01 to T03)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Refusal, ScenarioError
from ghillie.state import REFEREE, SPECTATOR

from .helpers import (
    JUNGLE,
    MARINES,
    both_ready,
    known,
    map_data,
    new_game,
    offered,
    record,
    refused,
    said,
    seen,
    started,
    told,
    unit,
)


def _orders(*orders: dict[str, Any]) -> dict[str, Any]:
    return {"type": "record_ambushes", "orders": list(orders)}


def _zones(data: dict[str, Any], marines_from_y: float) -> dict[str, Any]:
    """The Marines' deployment zone made the strip y >= ``marines_from_y``."""
    data["deployment_zones"] = [
        {"side": "jungle", "outline": [[0, 0], [60, 0], [60, 8], [0, 8]]},
        {
            "side": "marines",
            "outline": [[0, marines_from_y], [60, marines_from_y], [60, 36], [0, 36]],
        },
    ]
    return data


# --- DWV-R01 eligibility ------------------------------------------------------------------


@pytest.mark.spec("DWV-R01")
def test_dwv_r01_a_unit_not_marked_ambush_capable_is_refused() -> None:
    game = new_game(map_data())
    by_key = refused(game, JUNGLE, _orders({"unit": "command", "square": "C2"}))
    assert by_key.code == "not_ambush_capable"
    written = "Squad led by Colonel Straken setting up ambush in square C2"
    by_text = refused(game, JUNGLE, _orders({"text": written}))
    assert by_text.code == "not_ambush_capable"
    # The capable units of the same army may.
    record(game, graw="D2")
    assert unit(game, "graw").public["status"] == "in_ambush"
    assert unit(game, "command").public["status"] == "on_table"


@pytest.mark.spec("DWV-R01")
def test_dwv_r01_veterans_in_a_standard_imperial_guard_army_may_not_ambush() -> None:
    data = map_data()
    data["armies"][0]["list"] = "imperial_guard"
    with pytest.raises(ScenarioError, match="DWV-R01"):
        new_game(data)
    # Without the ambush mark the army is legal, and its player has no orders to write.
    for spec in data["units"]:
        spec["ambush"] = False
    game = new_game(data)
    assert "record_ambushes" not in [c["type"] for c in game.view(JUNGLE)["commands"]]
    assert refused(game, JUNGLE, _orders()).code == "not_your_turn"


@pytest.mark.spec("DWV-R01")
def test_dwv_r01_the_side_without_ambushers_writes_no_orders() -> None:
    game = new_game(map_data())
    assert "record_ambushes" in [c["type"] for c in game.view(JUNGLE)["commands"]]
    assert "record_ambushes" not in [c["type"] for c in game.view(MARINES)["commands"]]
    assert refused(game, MARINES, _orders({"unit": "tactical", "square": "D1"})).code == (
        "not_your_turn"
    )


# --- DWV-R02 declaration and disclosure -----------------------------------------------------


@pytest.mark.spec("DWV-R02")
def test_dwv_r02_the_opponent_is_told_the_ambush_rules_are_in_use_before_deployment() -> None:
    game = new_game(map_data())
    for observer in (MARINES, JUNGLE, SPECTATOR):
        view = game.view(observer)
        assert view["phase"] == "setup"
        assert view["table"]["ambush_rules_in_use"] is True
        first = view["log"][0]["lines"]
        assert [line["event"] for line in first] == ["ambush_rules"]
        assert said(first[0]).startswith(
            "The Ambush rules are in use: Deathworld Veterans may hide units in the grid's squares"
        )


@pytest.mark.spec("DWV-R02")
def test_dwv_r02_no_announcement_without_a_deathworld_veterans_army() -> None:
    data = map_data()
    data["armies"][0]["list"] = "other"
    for spec in data["units"]:
        spec["ambush"] = False
    view = new_game(data).view(MARINES)
    assert view["table"]["ambush_rules_in_use"] is False
    assert all(line["event"] != "ambush_rules" for line in view["log"][0]["lines"])


# --- DWV-R03 grid, DWV-A03 orientation ------------------------------------------------------


@pytest.mark.spec("DWV-R03")
def test_dwv_r03_the_table_is_divided_into_one_foot_squares_lettered_and_numbered() -> None:
    grid = new_game(map_data()).view(MARINES)["table"]["grid"]
    assert sorted(grid) == [f"{c}{r}" for c in "ABCDE" for r in "123"]
    for x0, y0, x1, y1 in grid.values():
        assert (x1 - x0, y1 - y0) == (12, 12)


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_both_players_see_the_same_grid_before_the_orders_are_written() -> None:
    game = new_game(map_data())
    assert game.view(JUNGLE)["table"]["grid"] == game.view(MARINES)["table"]["grid"]
    assert game.view(JUNGLE)["phase"] == "setup"
    assert game.state.board.recorded == frozenset()


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_default_columns_along_the_long_edge_rows_from_the_ambusher() -> None:
    grid = new_game(map_data()).view(MARINES)["table"]["grid"]
    # A1 is the corner at the left of the ambusher's (y = 0) edge; E runs along the 5' edge.
    assert tuple(grid["A1"]) == (0, 0, 12, 12)
    assert tuple(grid["E1"]) == (48, 0, 60, 12)
    assert tuple(grid["D1"]) == (36, 0, 48, 12)
    assert tuple(grid["D3"]) == (36, 24, 48, 36)


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_rows_from_the_opponent_switch_numbers_rows_from_the_far_edge() -> None:
    grid = new_game(map_data(rows_from="opponent")).view(MARINES)["table"]["grid"]
    assert tuple(grid["D1"]) == (36, 24, 48, 36)
    assert tuple(grid["D3"]) == (36, 0, 48, 12)
    # An order for D1 is then an order for the square at the Marines' edge.
    game = new_game(_zones(map_data(rows_from="opponent"), 30))
    assert refused(game, JUNGLE, _orders({"unit": "graw", "square": "D1"})).code == (
        "in_enemy_deployment_zone"
    )
    record(game, graw="D3")


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_the_table_edge_at_y0_may_be_the_opponents() -> None:
    data = map_data()
    data["table"]["near_side"] = MARINES
    grid = new_game(data).view(JUNGLE)["table"]["grid"]
    # Rows still run from the ambusher's edge, which is now y = 36.
    assert tuple(grid["D1"]) == (36, 24, 48, 36)


@pytest.mark.spec("DWV-A03")
def test_dwv_a03_columns_along_the_short_edge_switch_turns_the_grid() -> None:
    grid = new_game(map_data(columns_along="short")).view(MARINES)["table"]["grid"]
    assert sorted(grid) == [f"{c}{r}" for c in "ABC" for r in "12345"]
    assert tuple(grid["A2"]) == (12, 0, 24, 12)
    assert tuple(grid["C5"]) == (48, 24, 60, 36)


# --- DWV-R04 recording ----------------------------------------------------------------------


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_orders_are_stored_secretly_with_the_time_they_were_written() -> None:
    game = new_game(map_data())
    written = "Patrol led by Sgt. Graw setting up ambush in square D2"
    event = game.command(
        JUNGLE,
        _orders({"text": written, "note": "by the fallen tree"}, {"unit": "marbo", "square": "B2"}),
    )
    graw = unit(game, "graw")
    assert graw.secret["square"] == "D2"
    assert graw.secret["order"] == written
    assert graw.secret["note"] == "by the fallen tree"
    assert graw.secret["recorded_at"] == event.seq
    # The owner is told what it wrote; the opponent only that orders were written.
    (mine,) = told(event, JUNGLE)
    assert sorted(o["square"] for o in mine["orders"]) == ["B2", "D2"]
    for watcher in (MARINES, SPECTATOR):
        lines = told(event, watcher)
        assert lines == [] or all("orders" not in line for line in lines)
    (theirs,) = told(event, MARINES)
    assert said(theirs) == "Deathworld Veterans write down their ambush orders in secret."
    assert said(mine) == (
        "In secret, you write down 2 ambush orders: Sgt. Graw's patrol in square D2 and Marbo "
        "in square B2."
    )
    # The referee's view holds it; the owner's own pieces show it.
    referee = {p["public"]["key"]: p for p in game.view(REFEREE)["pieces"]}
    assert referee["graw"]["secret"]["order"] == written
    own = {p["public"]["key"]: p for p in game.view(JUNGLE)["pieces"]}
    assert own["graw"]["secret"]["square"] == "D2"


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_no_army_sets_up_before_the_orders_are_written() -> None:
    game = new_game(map_data())
    # The Marines wait for the orders before setting up.
    assert "ready" not in [c["type"] for c in game.view(MARINES)["commands"]]
    assert refused(game, MARINES, {"type": "ready"}).code == "not_your_turn"
    record(game, graw="D2")
    assert "ready" in [c["type"] for c in game.view(MARINES)["commands"]]
    game.command(MARINES, {"type": "ready"})
    # Once an army is set up, no more orders; and orders are written once.
    assert refused(game, JUNGLE, _orders({"unit": "marbo", "square": "B2"})).code == (
        "not_your_turn"
    )


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_an_ambusher_that_wants_no_ambushes_writes_no_orders_down() -> None:
    game = new_game(map_data())
    # It writes its orders first, as every side that can ambush does: none, here.
    assert offered(game, JUNGLE) == ["record_ambushes"]
    assert refused(game, JUNGLE, {"type": "ready"}).code == "not_your_turn"
    event = game.command(JUNGLE, _orders())
    (mine,) = told(event, JUNGLE)
    assert said(mine) == "You write down no ambush orders: all your units set up as usual."
    (theirs,) = told(event, MARINES)
    assert said(theirs) == "Deathworld Veterans write down their ambush orders in secret."
    both_ready(game)
    assert game.view(JUNGLE)["phase"] == "play"
    # Not in ambush; and on the map it was given no position, so it waits off the table.
    assert unit(game, "graw").public["status"] == "reserve"


@pytest.mark.spec("DWV-R04")
@pytest.mark.spec("DWV-A12")
def test_dwv_r04_whether_and_how_many_units_are_in_ambush_is_not_told_by_the_set_up() -> None:
    """Issue 24, finding 10: an ambusher could get ready without writing orders, so the
    Marines, who saw no orders written, knew it hid nobody. Every side that can ambush now
    writes its orders once, none or many: with a closed roster (DWV-A12) the Marines and
    the table screen receive the same whether it hides none, one or two units."""
    worlds = []
    for squares in ({}, {"graw": "D2"}, {"graw": "D2", "marbo": "B2"}):
        game = new_game(map_data(roster_public=False))
        record(game, **squares)
        game.command(JUNGLE, {"type": "ready"})
        worlds.append(game)
    for watcher in (MARINES, SPECTATOR):
        assert len({seen(game, watcher) for game in worlds}) == 1, watcher


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_orders_cannot_be_written_once_the_battle_has_begun() -> None:
    game = started(graw="D2")
    refusal = refused(game, JUNGLE, _orders({"unit": "marbo", "square": "B2"}))
    assert refusal.code == "not_now"


# --- DWV-R05 placement limits, DWV-A01 ------------------------------------------------------


@pytest.mark.spec("DWV-R05", "DWV-T02")
def test_dwv_t02_two_units_recorded_in_d2_are_rejected() -> None:
    game = new_game(map_data())
    refusal = refused(
        game,
        JUNGLE,
        _orders({"unit": "graw", "square": "D2"}, {"unit": "marbo", "square": "d2"}),
    )
    assert refusal.code == "square_taken"
    assert unit(game, "graw").public["status"] == "reserve"  # unchanged: nothing recorded


@pytest.mark.spec("DWV-R05")
def test_dwv_r05_one_ambusher_per_square_each_in_its_own_square() -> None:
    game = new_game(map_data())
    record(game, graw="D2", marbo="D1")
    assert unit(game, "graw").secret["square"] == "D2"
    assert unit(game, "marbo").secret["square"] == "D1"


@pytest.mark.spec("DWV-R05")
def test_dwv_r05_no_ambush_in_the_enemy_deployment_zone_but_in_ones_own() -> None:
    game = new_game(map_data())
    for square in ("A3", "E3"):
        refusal = refused(game, JUNGLE, _orders({"unit": "graw", "square": square}))
        assert refusal.code == "in_enemy_deployment_zone"
    # D1 lies partly in the Veterans' own zone (y < 8): allowed.
    record(game, graw="D1")


@pytest.mark.spec("DWV-R05")
def test_dwv_r05_an_order_for_a_square_off_the_grid_is_refused() -> None:
    game = new_game(map_data())
    for square in ("F1", "A4", "Z9", "11"):
        refusal = refused(game, JUNGLE, _orders({"unit": "graw", "square": square}))
        assert refusal.code == "off_table"


@pytest.mark.spec("DWV-A01", "DWV-T03")
def test_dwv_t03_a_square_half_inside_the_enemy_zone_is_refused_by_default() -> None:
    game = new_game(_zones(map_data(), 30))  # row 3 is y 24-36: half of it is in the zone
    refusal = refused(game, JUNGLE, _orders({"unit": "graw", "square": "D3"}))
    assert refusal.code == "in_enemy_deployment_zone"


@pytest.mark.spec("DWV-A01", "DWV-T03")
def test_dwv_t03_a_square_half_inside_the_enemy_zone_is_accepted_under_dz_overlap_all() -> None:
    game = new_game(_zones(map_data(dz_overlap="all"), 30))
    record(game, graw="D3")
    assert unit(game, "graw").secret["square"] == "D3"


@pytest.mark.spec("DWV-A01")
@pytest.mark.parametrize("overlap", ["any", "all"])
def test_dwv_a01_a_square_wholly_inside_the_enemy_zone_is_refused_either_way(
    overlap: str,
) -> None:
    game = new_game(_zones(map_data(dz_overlap=overlap), 24))
    refusal = refused(game, JUNGLE, _orders({"unit": "graw", "square": "D3"}))
    assert refusal.code == "in_enemy_deployment_zone"


@pytest.mark.spec("DWV-A01")
def test_dwv_a01_a_square_that_only_touches_the_enemy_zone_is_allowed() -> None:
    game = new_game(_zones(map_data(), 24))  # row 2 ends where the zone begins, at y = 24
    record(game, graw="D2")


# --- DWV-A02 partial squares ----------------------------------------------------------------


def _big_table(**switches: Any) -> dict[str, Any]:
    data = map_data(**switches)
    data["table"] = {"width": 66, "depth": 40}
    return data


@pytest.mark.spec("DWV-A02")
def test_dwv_a02_part_squares_at_the_edges_are_squares_by_default() -> None:
    game = new_game(_big_table())
    grid = game.view(MARINES)["table"]["grid"]
    assert len(grid) == 6 * 4
    assert tuple(grid["F4"]) == (60, 36, 66, 40)
    record(game, graw="F4")
    assert unit(game, "graw").secret["square"] == "F4"


@pytest.mark.spec("DWV-A02")
def test_dwv_a02_without_part_squares_the_edge_strips_have_no_reference() -> None:
    game = new_game(_big_table(partial_squares=False))
    grid = game.view(MARINES)["table"]["grid"]
    assert len(grid) == 5 * 3
    assert "F1" not in grid
    assert refused(game, JUNGLE, _orders({"unit": "graw", "square": "F1"})).code == "off_table"


# --- DWV-A12 who knows which units are in ambush --------------------------------------------


@pytest.mark.spec("DWV-A12")
def test_dwv_a12_with_a_public_roster_the_opponent_sees_how_many_units_are_in_ambush() -> None:
    game = new_game(map_data())
    record(game, graw="D2", marbo="B2")
    assert "enemy_units_in_ambush" not in game.view(MARINES)["board"]  # not during set-up
    both_ready(game)
    view = game.view(MARINES)
    assert view["board"]["enemy_units_in_ambush"] == 2
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["status"] == "in_ambush"
    assert "square" not in graw["public"]
    assert all(m["at"] is None for m in graw["public"]["models"])
    # The ambusher is not told about its own units as "enemy" ambushers.
    assert game.view(JUNGLE)["board"]["enemy_units_in_ambush"] == 0


@pytest.mark.spec("DWV-A12")
def test_dwv_a12_with_a_closed_roster_the_ambushers_are_not_shown_at_all() -> None:
    game = started(map_data(roster_public=False), graw="D2", marbo="B2")
    view = game.view(MARINES)
    assert "enemy_units_in_ambush" not in view["board"]
    assert known(game, MARINES, "graw") is None
    assert known(game, MARINES, "marbo") is None
    assert known(game, MARINES, "command") is not None  # deployed normally: seen


# --- DWV-T01 the rule text's diagram ---------------------------------------------------------


@pytest.mark.spec("DWV-T01", "DWV-R03", "DWV-R04")
def test_dwv_t01_the_diagram_order_hides_sgt_graws_patrol_in_d2() -> None:
    game = new_game(map_data())
    grid = game.view(JUNGLE)["table"]["grid"]
    assert len(grid) == 15
    assert tuple(grid["D2"]) == (36, 12, 48, 24)
    event = game.command(
        JUNGLE, _orders({"text": "Patrol led by Sgt. Graw setting up ambush in square D2"})
    )
    graw = unit(game, "graw")
    assert graw.public["name"] == "Sgt. Graw's patrol"
    assert graw.secret["square"] == "D2"
    assert told(event, JUNGLE)[0]["orders"] == [{"unit": graw.id, "square": "D2"}]


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_an_unreadable_written_order_is_refused_without_echoing_it() -> None:
    game = new_game(map_data())
    for text in (
        "Graw goes somewhere nice",
        "Patrol led by Sgt. Nobody setting up ambush in square D2",
    ):
        refusal = refused(game, JUNGLE, _orders({"text": text}))
        assert refusal.code == "unreadable_order"
        assert text not in refusal.detail
    refusal = refused(game, JUNGLE, _orders({"unit": "graw"}))
    assert refusal.code == "unreadable_order"


@pytest.mark.spec("DWV-R04")
def test_dwv_r04_one_order_per_unit() -> None:
    game = new_game(map_data())
    refusal = refused(
        game,
        JUNGLE,
        _orders(
            {"unit": "graw", "square": "D2"},
            {"text": "Patrol led by Sgt. Graw setting up ambush in square B2"},
        ),
    )
    assert refusal.code == "duplicate_unit"


def test_a_refused_order_list_records_nothing() -> None:
    """An order list is accepted or refused whole: one bad order, and none is recorded."""
    game = new_game(map_data())
    with pytest.raises(Refusal):
        game.command(
            JUNGLE,
            _orders({"unit": "graw", "square": "D2"}, {"unit": "marbo", "square": "E3"}),
        )
    assert game.state.board.recorded == frozenset()
    record(game, graw="D2", marbo="B2")


@pytest.mark.spec("DWV-R04", "DWV-R07")
def test_dwv_r04_a_square_is_recorded_as_the_grid_writes_it_so_a_scan_finds_it() -> None:
    game = new_game(map_data())
    game.command(JUNGLE, _orders({"unit": "graw", "square": " d2 "}))
    assert unit(game, "graw").secret["square"] == "D2"
