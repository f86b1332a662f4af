"""The sergeant's worked example from the rule text (RULES-SPEC SW-T01..T05), played through
the Game API with the text's own dice.

"Сержант «регулярных» (к8) армейцев Кено с подозрением смотрит на группу деревьев в 30
дюймах перед ним." The target rolls 6 against the sergeant's 1 and 7 (flipped), then 3
against 4 and 5 (the machine-gun position is seen); then he has no actions left.
"""

from __future__ import annotations

import pytest

from ghillie import Game, Refusal
from ghillie.dice import ScriptedDice
from ghillie.events import Event
from ghillie.state import SPECTATOR

from .helpers import KENO, LIANRA, THREE_MARKERS, known, line, piece, piece_id, rolls, table_data

AT_THE_TREES = {"range": 30, "line_of_sight": True}  # soft cover is M1's, agreed when laid
POOL = 3  # Lianra's d6 of suspicious-place markers for the machine gun
FIRST = (6, 7, 1)  # target d10 shows 6; the sergeant's d8 shows 7, his eyes' d4 show 1
SECOND = (3, 5, 4)  # target 3; d8 5, d4 4


def _sergeant_game(*rolls_: int) -> Game:
    game = Game.create(table_data(), dice=ScriptedDice([POOL, *rolls_]), seed=1, game_id="sergeant")
    game.command(LIANRA, {"type": "place_markers", "markers": list(THREE_MARKERS)})
    game.command(
        LIANRA,
        {
            "type": "hide",
            "hidings": [
                {"marker": "M1", "unit": "mg", "note": "MG nest behind the birches"},
                {"marker": "M2", "content": "mine"},
            ],
        },
    )
    game.command(LIANRA, {"type": "place_sniper", "sniper": "sniper", "true_marker": 1})
    game.command(KENO, {"type": "ready"})
    game.command(LIANRA, {"type": "ready"})
    game.command(KENO, {"type": "activate", "unit": "sergeant"})
    return game


def _observe_trees(game: Game) -> Event:
    return game.command(KENO, {"type": "observe", "marker": "M1", "measured": AT_THE_TREES})


@pytest.mark.spec("SW-T01")
def test_thirty_inches_into_the_wood_is_a_d10_range_die() -> None:
    game = _sergeant_game(*FIRST)
    event = _observe_trees(game)
    # Zone 3 (d8) and one step for the wood's soft cover: d10, told to the observer.
    assert line(event, KENO)["range_die"] == "d10"
    assert rolls(event)["target"].die == "d10"


@pytest.mark.spec("SW-T02")
def test_the_regular_sergeant_with_naked_eyes_rolls_d8_and_d4_against_the_d10() -> None:
    game = _sergeant_game(*FIRST)
    event = _observe_trees(game)
    dice = rolls(event)
    assert [(r.label, r.die) for r in event.rolls] == [
        ("target", "d10"),
        ("quality", "d8"),
        ("means", "d4"),
    ]
    assert dice["target"].secret  # the owner's (ghillie's) roll, unseen by Keno
    assert not dice["quality"].secret
    assert not dice["means"].secret
    told = line(event, KENO)
    assert told["means"] == "eyes"
    assert told["dice"] == {"quality": 7, "means": 1}


@pytest.mark.spec("SW-T03", "SW-R14")
def test_six_against_one_and_seven_flips_the_marker_and_places_nothing() -> None:
    game = _sergeant_game(*FIRST)
    event = _observe_trees(game)
    told = line(event, KENO)
    assert told["result"] == "flipped"
    assert "target" not in told  # the range die's roll stays secret
    marker = known(game, KENO, "M1")
    assert marker is not None
    assert marker["level"] == "detected"  # "Там кто-то есть!" — someone is certainly there
    assert marker["public"]["face"] == "flipped"
    assert piece(game, "mg").public["status"] == "camouflaged"  # nothing placed yet
    # Aimed fire at what is under it is still impossible: the unit is not on the table.
    with pytest.raises(Refusal) as refused:
        game.command(
            KENO, {"type": "fire", "target": "mg", "measured": {**AT_THE_TREES, "cover": "soft"}}
        )
    assert refused.value.code == "not_on_table"
    # Lianra's own line says what the target rolled and why.
    owner = line(event, LIANRA)
    assert (owner["target"], owner["higher"], owner["content"]) == (6, 1, "unit")


@pytest.mark.spec("SW-T04", "SW-R09")
def test_three_against_four_and_five_reveals_the_machine_gun() -> None:
    game = _sergeant_game(*FIRST, *SECOND)
    marker_id = piece_id(game, "M1")
    _observe_trees(game)
    event = _observe_trees(game)
    told = line(event, KENO)
    assert told["result"] == "revealed"
    assert told["revealed"] == "unit"
    assert told["dice"] == {"quality": 5, "means": 4}
    assert marker_id not in game.state.pieces  # the marker is removed
    mg = known(game, KENO, "mg")
    assert mg is not None
    assert mg["level"] == "identified"
    assert mg["public"]["status"] == "on_table"  # no longer camouflaged
    assert mg["public"]["suppression"] == 0
    # Spectators read the same result.
    assert [x["result"] for x in event.told[SPECTATOR]] == ["revealed"]


@pytest.mark.spec("SW-T05", "SW-R10")
def test_after_two_observations_the_sergeant_has_no_actions_left() -> None:
    game = _sergeant_game(*FIRST, *SECOND)
    _observe_trees(game)
    _observe_trees(game)
    assert game.view(KENO)["board"]["activation"]["actions_left"] == 0
    seq = game.state.seq
    for command in (
        {"type": "observe", "marker": "M2", "measured": AT_THE_TREES},
        {"type": "fire", "target": "mg", "measured": {**AT_THE_TREES, "cover": "none"}},
        {"type": "other_action", "what": "take cover"},
        {"type": "move"},
    ):
        with pytest.raises(Refusal) as refused:
            game.command(KENO, command)
        assert refused.value.code == "no_actions_left"
    assert game.state.seq == seq  # refused commands changed nothing
    game.command(KENO, {"type": "end_activation"})
    assert game.view(KENO)["board"]["active"] == LIANRA
