"""Outcomes that must look identical (RULES-SPEC §6.2, SW-T08, §3.6): an observation with one
die higher on a mine, an IED or a sniper's true marker, and any observation with no die
higher, read the same to the observer — byte for byte, in its whole view and log.

Each world below is built the same way (same seed, so the same ids; the same scenario; the
same commands in the same order; the same observer dice); only what the hiding side
recorded in secret and its own secret roll differ.
"""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal
from ghillie.state import SPECTATOR

from .helpers import (
    KENO,
    LIANRA,
    QueuedDice,
    activate,
    add_units,
    at_table,
    map_data,
    observe,
    piece_id,
    setup_map,
    setup_table,
    table_data,
    unit,
    view_bytes,
)

SOFT = {"cover": "soft", "open": False}
AT_THE_TREES = at_table(30)  # 30" into soft cover: a d10 range die
QUALITY, MEANS = 7, 4  # the observer's d8 and d4, the same in every world
ONE_HIGHER, NONE_HIGHER, BOTH_HIGHER = 5, 9, 3  # the owner's secret d10

UNDER_M1 = {
    "mine": [{"marker": "M1", "content": "mine"}, {"marker": "M2", "unit": "mg"}],
    "ied": [{"marker": "M1", "content": "ied"}, {"marker": "M2", "unit": "mg"}],
    "squad": [{"marker": "M1", "unit": "mg"}, {"marker": "M2", "content": "mine"}],
    "nothing": [{"marker": "M2", "unit": "mg"}, {"marker": "M3", "content": "ied"}],
}


def _table_world(
    hidings: list[dict[str, Any]],
    target: int,
    *,
    marker: str = "M1",
    sniper_true: int = 0,
    switches: dict[str, Any] | None = None,
    measured: dict[str, Any] = AT_THE_TREES,
) -> Game:
    dice = QueuedDice()
    game = setup_table(
        table_data(switches), dice, markers=[SOFT] * 3, hidings=hidings, sniper_true=sniper_true
    )
    activate(game, KENO, "sergeant")
    observe(game, dice, marker, (target, QUALITY, MEANS), measured=measured)
    return game


def _same_for(worlds: dict[str, Game], observer: str) -> None:
    seen = {name: view_bytes(game, observer) for name, game in worlds.items()}
    first = next(iter(seen.values()))
    differ = [name for name, text in seen.items() if text != first]
    assert not differ, f"{observer} can tell these worlds apart: {differ}"


def _nothing_seen(game: Game) -> None:
    last = game.view(KENO)["log"][-1]["lines"][0]
    assert last["result"] == "no_change"


@pytest.mark.spec("SW-T08", "SW-R14", "SW-R12")
def test_one_die_higher_on_mines_or_an_ied_reads_like_no_die_higher_on_anything() -> None:
    worlds = {
        "mine, one higher": _table_world(UNDER_M1["mine"], ONE_HIGHER),
        "ied, one higher": _table_world(UNDER_M1["ied"], ONE_HIGHER),
        "mine, none higher": _table_world(UNDER_M1["mine"], NONE_HIGHER),
        "ied, none higher": _table_world(UNDER_M1["ied"], NONE_HIGHER),
        "squad, none higher": _table_world(UNDER_M1["squad"], NONE_HIGHER),
        "nothing, none higher": _table_world(UNDER_M1["nothing"], NONE_HIGHER),
    }
    for game in worlds.values():
        _nothing_seen(game)
    _same_for(worlds, KENO)
    _same_for(worlds, SPECTATOR)
    # The owner's own record does differ: the test would notice a world that did not.
    owner = {view_bytes(game, LIANRA) for game in worlds.values()}
    assert len(owner) == len(worlds)


@pytest.mark.spec("SW-T08", "SW-R14")
def test_the_differing_cases_do_differ() -> None:
    # Guard for the test above: the same observer dice on a squad or on nothing with one
    # die higher must read differently (flipped; removed), or the comparison proves nothing.
    plain = view_bytes(_table_world(UNDER_M1["mine"], ONE_HIGHER), KENO)
    assert view_bytes(_table_world(UNDER_M1["squad"], ONE_HIGHER), KENO) != plain
    assert view_bytes(_table_world(UNDER_M1["nothing"], ONE_HIGHER), KENO) != plain


def _label_index(true_label: str) -> int:
    """The ``true_marker`` index that makes ``true_label`` the true sniper marker."""
    for index in range(3):
        game = setup_table(table_data(), QueuedDice(), sniper_true=index, ready=False)
        true = next(
            p.public["label"]
            for p in game.state.pieces.values()
            if p.kind == "sniper_marker" and p.secret["true"]
        )
        if true == true_label:
            return index
    raise AssertionError(true_label)


@pytest.mark.spec("SW-T08", "SW-A10", "SW-R35")
def test_one_die_higher_on_the_true_sniper_marker_reads_like_no_die_higher() -> None:
    true_s1, false_s1 = _label_index("S1"), _label_index("S2")
    at = at_table(30, cover="soft")
    hidings = UNDER_M1["squad"]
    worlds = {
        "true, one higher": _table_world(
            hidings, ONE_HIGHER, marker="S1", sniper_true=true_s1, measured=at
        ),
        "true, none higher": _table_world(
            hidings, NONE_HIGHER, marker="S1", sniper_true=true_s1, measured=at
        ),
        "false, none higher": _table_world(
            hidings, NONE_HIGHER, marker="S1", sniper_true=false_s1, measured=at
        ),
        "true, one higher, mine elsewhere": _table_world(
            UNDER_M1["mine"], ONE_HIGHER, marker="S1", sniper_true=true_s1, measured=at
        ),
    }
    for game in worlds.values():
        _nothing_seen(game)
    _same_for(worlds, KENO)
    _same_for(worlds, SPECTATOR)
    # A false marker with one die higher is legitimately different: it is removed.
    removed = _table_world(hidings, ONE_HIGHER, marker="S1", sniper_true=false_s1, measured=at)
    assert view_bytes(removed, KENO) != view_bytes(worlds["true, one higher"], KENO)


@pytest.mark.spec("SW-A07", "SW-T08")
def test_under_full_observation_on_mine_no_change_even_a_full_success_on_a_mine_reads_alike() -> (
    None
):
    switches = {"sw.full_observation_on_mine": "no_change"}
    worlds = {
        "mine, both higher": _table_world(UNDER_M1["mine"], BOTH_HIGHER, switches=switches),
        "ied, both higher": _table_world(UNDER_M1["ied"], BOTH_HIGHER, switches=switches),
        "mine, one higher": _table_world(UNDER_M1["mine"], ONE_HIGHER, switches=switches),
        "squad, none higher": _table_world(UNDER_M1["squad"], NONE_HIGHER, switches=switches),
    }
    _same_for(worlds, KENO)


@pytest.mark.spec("SW-A10", "SW-T08")
def test_under_sniper_false_marker_removable_false_false_and_true_markers_read_alike() -> None:
    switches = {"sw.sniper_false_marker_removable": False}
    true_s1, false_s1 = _label_index("S1"), _label_index("S2")
    at = at_table(30, cover="soft")
    hidings = UNDER_M1["squad"]
    worlds = {
        name: _table_world(
            hidings, target, marker="S1", sniper_true=index, switches=switches, measured=at
        )
        for name, target, index in (
            ("false, one higher", ONE_HIGHER, false_s1),
            ("false, both higher", BOTH_HIGHER, false_s1),
            ("true, one higher", ONE_HIGHER, true_s1),
            ("true, none higher", NONE_HIGHER, true_s1),
        )
    }
    _same_for(worlds, KENO)


@pytest.mark.spec("SW-T08", "SW-R14")
def test_on_a_map_too_mines_and_empty_observations_read_alike() -> None:
    def world(hidings: list[dict[str, Any]], target: int) -> Game:
        dice = QueuedDice()
        game = setup_map(map_data(), dice, hidings=hidings)
        activate(game, KENO, "volk")
        observe(game, dice, "M1", (target, QUALITY, MEANS))  # 30" into the wood: d10
        return game

    worlds = {
        "mine, one higher": world(
            [{"marker": "M1", "content": "mine"}, {"marker": "M2", "unit": "borz"}], ONE_HIGHER
        ),
        "squad, none higher": world([{"marker": "M1", "unit": "borz"}], NONE_HIGHER),
        "nothing, none higher": world([{"marker": "M2", "unit": "borz"}], NONE_HIGHER),
    }
    _same_for(worlds, KENO)
    _same_for(worlds, SPECTATOR)


@pytest.mark.spec("SW-R12", "SW-A13")
def test_under_an_open_range_die_the_observer_sees_the_roll_but_not_the_content() -> None:
    switches = {"sw.range_die": "open"}
    worlds = {
        "mine": _table_world(UNDER_M1["mine"], NONE_HIGHER, switches=switches),
        "squad": _table_world(UNDER_M1["squad"], NONE_HIGHER, switches=switches),
        "nothing": _table_world(UNDER_M1["nothing"], NONE_HIGHER, switches=switches),
    }
    _same_for(worlds, KENO)
    assert worlds["mine"].view(KENO)["log"][-1]["lines"][0]["target"] == NONE_HIGHER


# --- refusals never tell a side what is hidden -------------------------------------------------


def _refusal(game: Game, side: str, command: dict[str, Any]) -> tuple[str, str]:
    seq = game.state.seq
    with pytest.raises(Refusal) as refused:
        game.command(side, command)
    assert game.state.seq == seq
    return refused.value.code, refused.value.detail


@pytest.mark.spec("SW-R03", "SW-R10")
def test_naming_a_marker_that_is_gone_is_answered_like_naming_nothing() -> None:
    dice = QueuedDice()
    game = setup_table(table_data(), dice, hidings=UNDER_M1["squad"])
    activate(game, KENO, "sergeant")
    gone_id = piece_id(game, "M3")
    observe(game, dice, "M3", (1, 8, 4), measured=at_table(10))  # nothing there: removed
    names = [gone_id, "M3", "M9", "0" * 32, "f" * 32, "nothing-here"]
    for command in (
        {"type": "observe", "measured": at_table(10)},
        {"type": "fire", "measured": at_table(10, cover="none")},
    ):
        field = "marker" if command["type"] == "observe" else "target"
        answers = {_refusal(game, KENO, {**command, field: name}) for name in names}
        assert answers == {("unknown_piece", "There is no such piece that you can see.")}
    answers = {_refusal(game, KENO, {"type": "move", "exposes": [name]}) for name in names}
    assert len(answers) == 1


@pytest.mark.spec("SW-R01", "SW-R33")
def test_firing_at_a_unit_off_the_table_says_the_same_whatever_keeps_it_off() -> None:
    data = add_units(table_data(), unit("runner", LIANRA, kind="lone"))
    game = setup_table(data, QueuedDice())
    game.command(LIANRA, {"type": "morale", "unit": "runner", "result": "failed_two_steps"})
    game.command(LIANRA, {"type": "remove_panic", "unit": "runner", "passed": False})
    activate(game, KENO, "sergeant")
    fire = {"type": "fire", "measured": at_table(10, cover="none")}
    answers = {
        _refusal(game, KENO, {**fire, "target": name})
        for name in ("mg", piece_id(game, "mg"), "sniper", "runner")
    }
    # Camouflaged under a marker, hidden under sniper markers, fled: all just "not on table".
    assert answers == {("not_on_table", "That unit is not on the table.")}


@pytest.mark.spec("SW-R10", "SW-A06")
def test_a_refused_observation_does_not_depend_on_what_the_marker_hides() -> None:
    answers = set()
    for hidings in UNDER_M1.values():
        game = setup_table(table_data(), QueuedDice(), markers=[SOFT] * 3, hidings=hidings)
        activate(game, KENO, "sergeant")
        answers.add(
            _refusal(
                game, KENO, {"type": "observe", "marker": "M1", "measured": at_table(30, los=False)}
            )
        )
        answers.add(
            _refusal(game, KENO, {"type": "fire", "target": "M1", "measured": {"range": 30}})
        )
    assert answers == {
        ("no_line_of_sight", "The observer cannot see that marker."),
        ("measurement_required", "Measure the line of sight at the table and enter it."),
    }
