"""Snipers (RULES-SPEC SW-R31, SW-R33..R37, SW-T12, SW-T13; SW-A11, SW-A12)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from ghillie import Game, Refusal

from .helpers import (
    KENO,
    LIANRA,
    QueuedDice,
    act,
    activate,
    add_units,
    at_table,
    end,
    known,
    line,
    map_data,
    observe,
    piece,
    piece_id,
    rolls,
    setup_map,
    setup_table,
    table_data,
    unit,
    view_bytes,
)

# Yarov's three markers: (56, 16) just south of the farmhouse, which hides the Lianra
# reserve at (58, 44) from it; (51, 16) and (52, 19) see past the house's west wall.
BEHIND_HOUSE, WEST, NORTH_WEST = (56, 16), (51, 16), (52, 19)
YAROV_SPOTS = (BEHIND_HOUSE, WEST, NORTH_WEST)
RESERVE = unit("reserve", LIANRA, quality="d6", at=[58, 44])


def _sniper_markers(game: Game, side: str) -> list[dict[str, Any]]:
    return [k for k in game.view(side)["known"] if k["kind"] == "sniper_marker"]


def _true_label(game: Game, sniper: str) -> str:
    sid = piece_id(game, sniper)
    return str(
        next(
            p.public["label"]
            for p in game.state.pieces.values()
            if p.kind == "sniper_marker" and p.public["sniper"] == sid and p.secret["true"]
        )
    )


def _yarov(true: int = 0, switches: dict[str, Any] | None = None) -> tuple[Game, QueuedDice]:
    dice = QueuedDice()
    game = setup_map(map_data(switches, units=[RESERVE]), dice, sniper=(YAROV_SPOTS, true))
    activate(game, KENO, "yarov")
    return game, dice


def _lianra_sniper(
    switches: dict[str, Any] | None = None, *, leadership: Any = "d6", true: int = 0
) -> tuple[Game, QueuedDice]:
    data = table_data(switches)
    data["units"] = [
        {**u, "leadership": leadership} if u["key"] == "sniper" else u for u in data["units"]
    ]
    dice = QueuedDice()
    game = setup_table(data, dice, sniper_true=true)
    game.command(KENO, {"type": "pass"})
    activate(game, LIANRA, "sniper")
    return game, dice


# --- SW-R33: three markers within 6", one true, known only to the owner --------------------------


@pytest.mark.spec("SW-R33")
def test_three_sniper_markers_of_which_only_the_owner_knows_the_true_one() -> None:
    game, _dice = _yarov(true=1)
    theirs = _sniper_markers(game, LIANRA)
    assert len(theirs) == 3
    assert all(k["level"] == "suspected" and "true" not in k["public"] for k in theirs)
    mine = [p for p in game.view(KENO)["pieces"] if p["kind"] == "sniper_marker"]
    assert sorted(p["secret"]["true"] for p in mine) == [False, False, True]
    true = next(p for p in mine if p["secret"]["true"])
    assert true["public"]["at"] == list(WEST)
    assert known(game, LIANRA, "yarov")["public"]["status"] == "hidden"  # type: ignore[index]


@pytest.mark.spec("SW-R33")
def test_the_enemy_view_is_the_same_whichever_marker_is_true() -> None:
    views = []
    for true in range(3):
        game, _dice = _yarov(true=true)
        views.append(view_bytes(game, LIANRA))
    assert views[0] == views[1] == views[2]


@pytest.mark.spec("SW-R33")
@pytest.mark.parametrize(
    ("spots", "code"),
    [
        (((10, 10), (16, 10), (13, 14)), None),  # exactly 6" apart is allowed
        (((10, 10), (16.5, 10), (13, 14)), "too_far_apart"),
        (((10, 10), (12, 10), (75, 10)), "off_table"),
    ],
)
def test_sniper_markers_lie_no_more_than_six_inches_apart(
    spots: tuple[tuple[float, float], ...], code: str | None
) -> None:
    dice = QueuedDice()
    game = setup_map(map_data(), dice, sniper=None, ready=False)
    command = {
        "type": "place_sniper",
        "sniper": "yarov",
        "markers": [list(p) for p in spots],
        "true_marker": 2,
    }
    if code is None:
        game.command(KENO, command)
        assert len(_sniper_markers(game, LIANRA)) == 3
    else:
        with pytest.raises(Refusal) as refused:
            game.command(KENO, command)
        assert refused.value.code == code


@pytest.mark.spec("SW-R33")
def test_at_a_table_the_sniper_markers_are_laid_by_hand() -> None:
    dice = QueuedDice()
    game = setup_table(table_data(), dice, sniper_true=None, ready=False)
    command = {
        "type": "place_sniper",
        "sniper": "sniper",
        "true_marker": 0,
        "markers": [[1, 1], [2, 2], [3, 3]],
    }
    with pytest.raises(Refusal) as refused:
        game.command(LIANRA, command)
    assert refused.value.code == "bad_marker"


# --- SW-R34: anonymous fire from the true marker ------------------------------------------------


def _yarov_fires(game: Game, dice: QueuedDice, rolls_: tuple[int, ...]) -> Any:
    return act(game, dice, KENO, {"type": "fire", "target": "reserve"}, rolls_)


@pytest.mark.spec("SW-R34")
def test_a_hidden_sniper_fires_without_saying_from_which_marker() -> None:
    game, dice = _yarov(true=1)  # true at (51, 16): 28.9" from the reserve
    before = {k["id"] for k in _sniper_markers(game, LIANRA)}
    event = _yarov_fires(game, dice, (3, 4, 4))
    told = line(event, LIANRA)
    assert line(event, KENO)["range_die"] == "d6"  # a d10 sniper's 20" zones: zone 2
    assert "range_die" not in told  # it would say how far the true marker is (SW-R34)
    assert told["unit"] == piece(game, "yarov").id
    assert not any(marker in str(event.told[LIANRA]) for marker in before)
    assert {k["id"] for k in _sniper_markers(game, LIANRA)} == before  # the markers stay
    assert known(game, LIANRA, "yarov")["public"]["status"] == "hidden"  # type: ignore[index]


@pytest.mark.spec("SW-R34")
def test_a_shot_is_legal_only_from_the_true_marker() -> None:
    # True under (56, 16): the farmhouse hides the reserve, though the false ones see it.
    game, _dice = _yarov(true=0)
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "fire", "target": "reserve"})
    assert refused.value.code == "no_line_of_sight"


# --- SW-R35: revealing a sniper by observation or by a 1 on its quality die ----------------------


@pytest.mark.spec("SW-R35")
def test_a_one_on_the_quality_die_while_firing_gives_the_sniper_away() -> None:
    game, dice = _yarov(true=1)
    event = _yarov_fires(game, dice, (3, 1, 7))
    assert [x["event"] for x in event.told[LIANRA]] == ["fire", "sniper_betrayed"]
    yarov = known(game, LIANRA, "yarov")
    assert yarov is not None
    assert (yarov["public"]["status"], yarov["public"]["at"]) == ("on_table", list(WEST))
    assert _sniper_markers(game, LIANRA) == []
    # The shot itself still counts: the weapon die beat the target (one random hit).
    assert line(event, LIANRA)["result"] == "partial"


@pytest.mark.spec("SW-R35")
def test_a_one_on_the_quality_die_while_observing_gives_the_sniper_away() -> None:
    game, dice = _yarov(true=1)
    # Yarov observes M1 in the wood from his true marker (51, 16): 25" → d8 + soft → d10.
    event = act(game, dice, KENO, {"type": "observe", "marker": "M1"}, (3, 1, 4))
    assert rolls(event)["target"].die == "d10"
    assert line(event, LIANRA)["result"] == "flipped"  # the eyes' d4 beat it
    assert known(game, LIANRA, "yarov")["public"]["status"] == "on_table"  # type: ignore[index]


@pytest.mark.spec("SW-R35")
def test_a_revealed_sniper_rolling_a_one_has_nothing_left_to_give_away() -> None:
    game, dice = _yarov(true=1)
    _yarov_fires(game, dice, (3, 1, 7))
    event = _yarov_fires(game, dice, (3, 1, 7))
    assert [x["event"] for x in event.told[LIANRA]] == ["fire"]


# --- SW-R36 / SW-A11 / SW-A12: covert moves ------------------------------------------------------


def _covert(game: Game, dice: QueuedDice, to: str | None, rolls_: tuple[int, ...]) -> Any:
    command: dict[str, Any] = {"type": "covert_move"}
    if to is not None:
        command["to"] = to
    return act(game, dice, LIANRA, command, rolls_)


def _other_label(game: Game) -> str:
    true = _true_label(game, "sniper")
    return str(
        next(
            p.public["label"]
            for p in game.state.pieces.values()
            if p.kind == "sniper_marker" and p.public["label"] != true
        )
    )


@pytest.mark.spec("SW-R36", "SW-A11")
def test_a_covert_move_beating_the_leadership_die_swaps_the_true_marker() -> None:
    game, dice = _lianra_sniper()
    target = _other_label(game)
    event = _covert(game, dice, target, (6, 3))  # quality d8 6 against leadership d6 3
    assert [(r.label, r.die) for r in event.rolls] == [("quality", "d8"), ("leadership", "d6")]
    assert _true_label(game, "sniper") == target
    told = line(event, LIANRA)
    assert (told["result"], told["moved"]) == ("success", True)
    assert len([p for p in game.state.pieces.values() if p.kind == "sniper_marker"]) == 3


@pytest.mark.spec("SW-R36", "SW-A11")
@pytest.mark.parametrize("rolls_", [(3, 3), (2, 5)])
def test_a_covert_move_not_beating_the_leadership_leaves_the_sniper(
    rolls_: tuple[int, int],
) -> None:
    game, dice = _lianra_sniper()
    true = _true_label(game, "sniper")
    event = _covert(game, dice, _other_label(game), rolls_)
    assert line(event, LIANRA)["result"] == "failure"  # a tie is not higher
    assert _true_label(game, "sniper") == true


@pytest.mark.spec("SW-R36")
def test_the_enemy_cannot_tell_a_covert_move_from_a_bluff() -> None:
    seen = []
    for moves in (True, False):
        game, dice = _lianra_sniper()
        true = _true_label(game, "sniper")
        _covert(game, dice, _other_label(game) if moves else None, (6, 3))
        assert (_true_label(game, "sniper") != true) is moves
        seen.append(view_bytes(game, KENO))
    assert seen[0] == seen[1]


SEEDS = 200
COVERLESS = {"cover": "none", "open": False}  # so that an observation at 10" removes it


def _proof_strings(view: dict[str, Any], seq: int) -> set[str]:
    """Every string of the proof that came with event ``seq`` in a view, but for the proofs
    of when a fixed fact was written (an opening's ``written``): those are the write
    event's own leaves by design, the same in every opening of a fact that event wrote."""
    entry = next(e for e in view["log"] if e["seq"] == seq)
    proof = dict(entry["proof"])
    proof["openings"] = [
        {k: v for k, v in o.items() if k != "written"} for o in proof.get("openings", [])
    ]
    return set(re.findall(r"[0-9a-f]{64,}", json.dumps(proof)))


@pytest.mark.spec("SW-R36")
def test_openings_before_and_after_a_covert_move_do_not_tell_it_from_a_bluff() -> None:
    # Issue 10: openings once carried Merkle paths whose nodes persisted from event to
    # event. Keno saw one marker opened before the sniper's covert move and one after; the
    # paths repeated exactly where Lianra's other secrets had not changed, so comparing
    # them told a real move (the true marker rewritten) from a bluff (nothing written) in
    # 122 games of 200. Now what Keno receives shows the same pattern either way, and no
    # proof string of one event ever reappears in another's.
    shared = 0
    for seed in range(SEEDS):
        seen = []
        for moves in (True, False):
            dice = QueuedDice()
            game = setup_table(table_data(), dice, markers=[COVERLESS] * 3, seed=seed)
            activate(game, KENO, "sergeant")
            before = observe(game, dice, "M2", (3, 5, 2), measured=at_table(10))  # removed
            end(game, KENO)
            activate(game, LIANRA, "sniper")
            true = _true_label(game, "sniper")
            _covert(game, dice, _other_label(game) if moves else None, (6, 3))
            assert (_true_label(game, "sniper") != true) is moves
            end(game, LIANRA)
            game.command(KENO, {"type": "pass"})  # the turn ends; Keno's sergeant goes again
            game.command(LIANRA, {"type": "pass"})
            activate(game, KENO, "sergeant")
            after = observe(game, dice, "M3", (3, 5, 2), measured=at_table(10))
            view = game.view(KENO)
            opened = [e for e in view["log"] if e["seq"] in (before.seq, after.seq)]
            assert all(e["proof"]["openings"] for e in opened)  # each removal opened M2, M3
            shared += len(_proof_strings(view, before.seq) & _proof_strings(view, after.seq))
            # What the two markers hid was written at one event, the hide, in either world.
            written = {o["written"]["seq"] for e in opened for o in e["proof"]["openings"]}
            assert len(written) == 1
            seen.append(view_bytes(game, KENO))
        assert seen[0] == seen[1], f"seed {seed}: Keno can tell the covert move from a bluff"
    assert shared == 0


@pytest.mark.spec("SW-A11", "SW-R36")
@pytest.mark.parametrize(("quality", "result"), [(5, "success"), (4, "failure")])
def test_against_a_leadership_number_the_quality_die_must_beat_it(
    quality: int, result: str
) -> None:
    game, dice = _lianra_sniper(leadership=4)
    event = _covert(game, dice, None, (quality,))  # no leadership die is rolled
    assert line(event, LIANRA)["result"] == result


@pytest.mark.spec("SW-A11")
@pytest.mark.parametrize(("quality", "result"), [(7, "success"), (6, "failure")])
def test_under_leadership_die_faces_a_d6_leadership_counts_as_six(
    quality: int, result: str
) -> None:
    game, dice = _lianra_sniper({"sw.leadership_die": "faces"})
    event = _covert(game, dice, None, (quality,))
    assert [r.label for r in event.rolls] == ["quality"]
    assert line(event, LIANRA)["result"] == result


@pytest.mark.spec("SW-A12", "SW-R36")
@pytest.mark.parametrize(("costs", "left"), [(True, 1), (False, 2)])
def test_a_covert_move_and_the_action_it_costs(costs: bool, left: int) -> None:
    game, dice = _lianra_sniper({"sw.covert_move_costs_action": costs})
    _covert(game, dice, None, (6, 3))
    assert game.view(LIANRA)["board"]["activation"]["actions_left"] == left


@pytest.mark.spec("SW-R36")
def test_only_a_hidden_sniper_moves_covertly_and_only_between_its_own_markers() -> None:
    game, _dice = _lianra_sniper()
    with pytest.raises(Refusal) as refused:
        game.command(LIANRA, {"type": "covert_move", "to": "M1"})
    assert refused.value.code == "wrong_kind"
    game.command(LIANRA, {"type": "end_activation"})
    activate(game, KENO, "sergeant")
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "covert_move"})
    assert refused.value.code == "not_a_sniper"  # a squad: test_sniper_orders.py


@pytest.mark.spec("SW-T13", "SW-R35", "SW-R36")
@pytest.mark.parametrize("to", [True, False])
def test_a_one_in_a_covert_move_places_the_sniper_at_the_true_marker(to: bool) -> None:
    game, dice = _lianra_sniper(true=2)
    true_id = piece_id(game, _true_label(game, "sniper"))
    event = _covert(game, dice, _other_label(game) if to else None, (1, 3))
    assert line(event, LIANRA)["result"] == "betrayed"
    betrayed = [x for x in event.told[KENO] if x["event"] == "sniper_betrayed"]
    assert betrayed
    assert betrayed[0]["marker"] == true_id
    assert known(game, KENO, "sniper")["public"]["status"] == "on_table"  # type: ignore[index]
    assert _sniper_markers(game, KENO) == []


# --- SW-R37: hiding again -----------------------------------------------------------------------


@pytest.mark.spec("SW-R37")
def test_a_revealed_sniper_that_passes_its_reaction_test_hides_again() -> None:
    game, dice = _yarov(true=1)
    _yarov_fires(game, dice, (3, 1, 7))  # gives himself away at (51, 16)
    event = game.command(
        KENO,
        {
            "type": "rehide",
            "passed_reaction_test": True,
            "markers": [[47, 16], [49, 20]],
            "note": "back into the hedge",
        },
    )
    yarov = known(game, LIANRA, "yarov")
    assert yarov is not None
    assert yarov["public"]["status"] == "hidden"
    assert len(_sniper_markers(game, LIANRA)) == 3
    assert "back into the hedge" not in str(event.told[LIANRA])
    true = [p for p in game.view(KENO)["pieces"] if p["kind"] == "sniper_marker"]
    assert [p["public"]["at"] for p in true if p["secret"]["true"]] == [list(WEST)]
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 0


@pytest.mark.spec("SW-R37")
def test_a_failed_reaction_test_leaves_the_sniper_in_the_open_and_costs_the_action() -> None:
    game, dice = _yarov(true=1)
    _yarov_fires(game, dice, (3, 1, 7))
    game.command(
        KENO, {"type": "rehide", "passed_reaction_test": False, "markers": [[47, 16], [49, 20]]}
    )
    assert known(game, LIANRA, "yarov")["public"]["status"] == "on_table"  # type: ignore[index]
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 0


@pytest.mark.spec("SW-R37", "SW-R33")
def test_re_hiding_markers_lie_within_six_inches_and_only_a_revealed_sniper_re_hides() -> None:
    game, dice = _yarov(true=1)
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "rehide", "passed_reaction_test": True})
    assert refused.value.code == "not_hidden"  # still hidden: nothing to re-hide
    _yarov_fires(game, dice, (3, 1, 7))
    with pytest.raises(Refusal) as refused:
        game.command(
            KENO,
            {"type": "rehide", "passed_reaction_test": True, "markers": [[40, 16], [49, 20]]},
        )
    assert refused.value.code == "too_far_apart"


# --- SW-R31 / SW-T12: double suppression, at most 3 ---------------------------------------------


@pytest.mark.spec("SW-R31", "SW-T12")
@pytest.mark.parametrize(
    ("before", "by_sniper", "after"),
    [(0, True, 2), (1, True, 3), (2, True, 3), (3, True, 3), (0, False, 1), (2, False, 3)],
)
def test_sniper_fire_doubles_suppression_up_to_three(
    before: int, by_sniper: bool, after: int
) -> None:
    dice = QueuedDice()
    game = setup_table(table_data(), dice)
    for _ in range(before):
        game.command(LIANRA, {"type": "suppress", "unit": "sergeant"})
    event = game.command(LIANRA, {"type": "suppress", "unit": "sergeant", "by_sniper": by_sniper})
    assert piece(game, "sergeant").public["suppression"] == after
    assert line(event, KENO)["suppression"] == after


@pytest.mark.spec("SW-R31")
def test_suppression_is_recorded_only_on_units_on_the_table() -> None:
    game = setup_table(table_data(), QueuedDice())
    with pytest.raises(Refusal) as refused:
        game.command(KENO, {"type": "suppress", "unit": "mg", "by_sniper": True})
    assert refused.value.code == "not_on_table"


@pytest.mark.spec("SW-R31", "SW-R18")
def test_a_lone_figure_fired_on_by_a_sniper_gets_two_suppression_markers() -> None:
    data = add_units(table_data(), unit("medic", KENO, kind="lone"))
    game = setup_table(data, QueuedDice())
    game.command(LIANRA, {"type": "suppress", "unit": "medic", "by_sniper": True})
    assert piece(game, "medic").public["suppression"] == 2
    game.command(KENO, {"type": "morale", "unit": "medic", "result": "failed"})
    assert piece(game, "medic").public["panic"] is True  # two already: panic (SW-R22)


@pytest.mark.spec("SW-R34")
def test_at_a_table_the_sniper_measures_from_its_true_marker_in_secret() -> None:
    game, dice = _lianra_sniper()
    event = act(
        game,
        dice,
        LIANRA,
        {"type": "fire", "target": "sergeant", "measured": at_table(24, cover="none")},
        (4, 4, 4),
    )
    assert "range" not in line(event, KENO)  # only the sniper's side sees what it measured
    assert line(event, LIANRA)["range"] == 24


@pytest.mark.spec("SW-R37")
def test_at_a_table_a_sniper_re_hides_under_markers_laid_by_hand() -> None:
    game, dice = _lianra_sniper()
    _covert(game, dice, None, (1, 3))  # gives himself away
    assert known(game, KENO, "sniper")["public"]["status"] == "on_table"  # type: ignore[index]
    game.command(LIANRA, {"type": "rehide", "passed_reaction_test": True})
    assert known(game, KENO, "sniper")["public"]["status"] == "hidden"  # type: ignore[index]
    labels = sorted(k["public"]["label"] for k in _sniper_markers(game, KENO))
    assert labels == ["S4", "S5", "S6"]  # new markers, new labels
