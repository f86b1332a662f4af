"""What the ambusher's opponent must not learn (RULES-SPEC §4.5 information states, §6 notes
1 and 2): the square and the written order stay with their owner until a reveal, and a
command touching a hidden unit is answered exactly like one touching nothing at all."""

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
    TACTICAL_IN_D2,
    both_ready,
    end_phases,
    known,
    map_data,
    marines_shooting,
    new_game,
    scan,
    seen,
    started,
    unit,
    watchers,
)

NOTE = "CANARY-7f3a: Graw waits by the fallen tree"
ORDER = "Patrol led by Sgt. Graw setting up ambush in square D2"


def _answer(game: Game, side: str, command: dict[str, Any]) -> tuple[str, str] | None:
    try:
        game.command(side, command)
    except Refusal as refusal:
        return (refusal.code, refusal.detail)
    return None


# The same public play in both worlds: the Marines walk scouts and an auspex through D2 and
# C2 but never scan, poke at things, and the Veterans reveal nothing.
PUBLIC_PLAY: list[tuple[str, dict[str, Any]]] = [
    (JUNGLE, {"type": "ready"}),
    (MARINES, {"type": "ready"}),
    (JUNGLE, {"type": "end_phase"}),
    (JUNGLE, {"type": "end_phase"}),
    (JUNGLE, {"type": "end_phase"}),
    (MARINES, {"type": "move", "unit": "scouts", "models": SCOUTS_IN_D2}),
    (MARINES, {"type": "move", "unit": "tactical", "models": TACTICAL_IN_D2}),
    (MARINES, {"type": "reveal", "unit": "graw"}),
    (MARINES, {"type": "end_phase"}),
    (MARINES, {"type": "scan", "unit": "scouts"}),
    (MARINES, {"type": "scan", "unit": "tactical", "model": 3}),
    (MARINES, {"type": "fire", "unit": "scouts", "weapon": "heavy"}),
    (MARINES, {"type": "end_phase"}),
    (MARINES, {"type": "assault", "unit": "scouts"}),
    (MARINES, {"type": "end_phase"}),
    (JUNGLE, {"type": "end_phase"}),
    (JUNGLE, {"type": "fire", "unit": "command", "weapon": "rapid_fire"}),
    (JUNGLE, {"type": "end_phase"}),
    (JUNGLE, {"type": "end_phase"}),
    (MARINES, {"type": "end_game"}),
]


def _world(squares: dict[str, str], **switches: Any) -> Game:
    game = new_game(map_data(**switches))
    orders = [
        {"unit": key, "square": square, "note": f"{NOTE} ({square})"}
        for key, square in squares.items()
    ]
    game.command(JUNGLE, {"type": "record_ambushes", "orders": orders})
    return game


@pytest.mark.spec("DWV-R04", "DWV-R06")
@pytest.mark.parametrize("roster_public", [True, False])
def test_the_opponents_view_is_the_same_wherever_the_ambushers_hide(roster_public: bool) -> None:
    a = _world({"graw": "D2", "marbo": "B2"}, roster_public=roster_public)
    b = _world({"graw": "C2", "marbo": "A2"}, roster_public=roster_public)
    assert unit(a, "graw").secret != unit(b, "graw").secret
    for observer in watchers(a, JUNGLE):
        assert seen(a, observer) == seen(b, observer)
    for side, command in PUBLIC_PLAY:
        assert _answer(a, side, command) == _answer(b, side, command), command
        for observer in watchers(a, JUNGLE):
            assert seen(a, observer) == seen(b, observer), (observer, command)
    assert a.view(MARINES)["phase"] == "over"
    # The owner's own view does tell the worlds apart: the comparison could fail.
    assert seen(a, JUNGLE) != seen(b, JUNGLE)


@pytest.mark.spec("DWV-R04")
def test_the_order_text_and_note_never_reach_the_opponent_even_after_the_reveal() -> None:
    game = new_game(map_data())
    game.command(JUNGLE, {"type": "record_ambushes", "orders": [{"text": ORDER, "note": NOTE}]})
    assert ORDER in seen(game, JUNGLE)
    assert NOTE in seen(game, JUNGLE)
    both_ready(game)
    marines_shooting(game)
    scan(game)
    game.command(JUNGLE, {"type": "set_up", "unit": "graw", "models": GRAW_IN_D2})
    graw = known(game, MARINES, "graw")
    assert graw is not None
    assert graw["public"]["square"] == "D2"  # the scan made the square public...
    for observer in watchers(game, JUNGLE):
        text = seen(game, observer)
        assert "CANARY-7f3a" not in text  # ...but never the note
        assert ORDER not in text  # nor the order as written
        assert "recorded_at" not in text


@pytest.mark.spec("DWV-R06")
def test_before_a_reveal_nothing_the_opponent_receives_names_the_square() -> None:
    game = started(graw="D2")
    marines_shooting(game)
    graw_id = unit(game, "graw").id
    for observer in watchers(game, JUNGLE):
        view = game.view(observer)
        for entry in view.get("known", []):
            assert "square" not in entry["public"]
        for entry in view["log"]:
            for line in entry["lines"]:
                assert line.get("unit") != graw_id
                assert "D2" not in json.dumps(line)
    assert unit(game, "graw").secret["square"] == "D2"


# --- refusals that must not be oracles ----------------------------------------------------------

FAKE_ID = "0123456789abcdef0123456789abcdef"


def _commands_naming(ref: str) -> dict[str, dict[str, Any]]:
    return {
        "reveal": {"type": "reveal", "unit": ref},
        "move": {"type": "move", "unit": ref, "models": GRAW_IN_D2},
        "set_up": {"type": "set_up", "unit": ref, "models": GRAW_IN_D2},
        "scan": {"type": "scan", "unit": ref},
        "fire": {"type": "fire", "unit": ref, "weapon": "heavy"},
        "assault": {"type": "assault", "unit": ref},
    }


def _refusals(game: Game, ref: str) -> dict[str, tuple[str, str]]:
    """The Marines' answer to each command naming ``ref``, in the phase where it could act."""
    out: dict[str, tuple[str, str]] = {}
    commands = _commands_naming(ref)
    phase_of = {"reveal": 0, "move": 0, "set_up": 0, "scan": 1, "fire": 1, "assault": 2}
    for step in range(3):
        for name, command in commands.items():
            if phase_of[name] == step:
                answer = _answer(game, MARINES, command)
                assert answer is not None, f"{name} naming {ref} was accepted"
                out[name] = answer
        game.command(MARINES, {"type": "end_phase"})
    return out


def _marines_turn(**switches: Any) -> Game:
    game = started(map_data(**switches), graw="D2", marbo="B2")
    end_phases(game, JUNGLE, 3)
    return game


def test_a_hidden_unit_is_refused_exactly_like_a_unit_that_does_not_exist() -> None:
    hidden_id = unit(_marines_turn(roster_public=False), "graw").id
    hidden = _refusals(_marines_turn(roster_public=False), hidden_id)
    missing = _refusals(_marines_turn(roster_public=False), FAKE_ID)
    by_key = _refusals(_marines_turn(roster_public=False), "graw")
    assert hidden == missing == by_key
    assert hidden.pop("set_up")[0] == "not_your_turn"  # nothing waits to be set up
    assert {code for code, _ in hidden.values()} == {"unknown_piece"}


def test_with_a_public_roster_a_hidden_unit_is_refused_like_any_enemy_unit() -> None:
    game = _marines_turn()
    graw = unit(game, "graw").id
    command = unit(game, "command").id  # deployed normally, in plain sight
    hidden = _refusals(_marines_turn(), graw)
    visible = _refusals(_marines_turn(), command)
    assert hidden == visible
    assert hidden.pop("set_up")[0] == "not_your_turn"
    assert {code for code, _ in hidden.values()} == {"not_yours"}


def test_a_refused_command_about_a_hidden_unit_changes_nothing_anyone_sees() -> None:
    game = _marines_turn(roster_public=False)
    before = {o: seen(game, o) for o in (MARINES, JUNGLE)}
    graw = unit(game, "graw").id
    with pytest.raises(Refusal):
        game.command(MARINES, {"type": "reveal", "unit": graw})
    assert {o: seen(game, o) for o in (MARINES, JUNGLE)} == before
