"""The engine's own checks, made once for every ruleset, and replay."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie import Game, Refusal, examples
from ghillie.engine import allowed_commands, replay
from ghillie.events import event_from_json, event_to_json

# A grid-ambush side that may ambush writes its orders before it is ready, none here.
NO_AMBUSHES = {"type": "record_ambushes", "orders": []}


@pytest.fixture
def game() -> Game:
    return Game.create(examples.load("grid-ambush-table"), seed=1)


def refusal(game: Game, side: str, command: object) -> Refusal:
    before, log = game.state, game.events()
    with pytest.raises(Refusal) as caught:
        game.command(side, command)  # type: ignore[arg-type]
    assert game.state == before
    assert game.events() == log
    return caught.value


def test_an_unknown_side_is_refused(game: Game) -> None:
    assert refusal(game, "referee", {"type": "ready"}).code == "unknown_side"


def test_an_unknown_command_is_refused(game: Game) -> None:
    assert refusal(game, "orks", {"type": "waaagh"}).code == "unknown_command"
    assert refusal(game, "orks", ["not", "a", "command"]).code == "unknown_command"


def test_a_malformed_command_is_refused_without_echoing_it(game: Game) -> None:
    secret = "Sgt. Graw hides in D2"
    refused = refusal(game, "jungle", {"type": "record_ambushes", "orders": secret})
    assert refused.code == "malformed_command"
    assert secret not in refused.detail
    assert "D2" not in str(refused)


def test_a_command_out_of_its_phase_is_refused(game: Game) -> None:
    assert refusal(game, "orks", {"type": "end_phase"}).code == "not_now"


def test_a_side_acting_out_of_turn_is_refused(game: Game) -> None:
    game.command("jungle", NO_AMBUSHES)
    game.command("jungle", {"type": "ready"})
    game.command("orks", {"type": "ready"})
    assert game.state.board.active == "jungle"
    assert refusal(game, "orks", {"type": "end_phase"}).code == "not_your_turn"
    assert "end_phase" in allowed_commands(game.state, "jungle")
    assert "end_phase" not in allowed_commands(game.state, "orks")


def test_nothing_is_accepted_once_the_game_is_over(game: Game) -> None:
    game.command("jungle", NO_AMBUSHES)
    game.command("jungle", {"type": "ready"})
    game.command("orks", {"type": "ready"})
    game.command("orks", {"type": "end_game"})
    assert refusal(game, "jungle", {"type": "end_phase"}).code == "game_over"
    assert allowed_commands(game.state, "jungle") == []


def test_the_same_seed_gives_the_same_game() -> None:
    a = Game.create(examples.load("suspicious-places"), seed=9)
    b = Game.create(examples.load("suspicious-places"), seed=9)
    assert [event_to_json(e) for e in a.events()] == [event_to_json(e) for e in b.events()]
    assert a.state == b.state


def test_replay_rebuilds_the_state_and_refuses_a_log_with_a_gap(game: Game) -> None:
    game.command("jungle", NO_AMBUSHES)
    game.command("jungle", {"type": "ready"})
    game.command("orks", {"type": "ready"})
    events = game.events()
    assert replay(game.state.ruleset, game.scenario, events) == game.state
    with pytest.raises(ValueError, match="gap"):
        replay(game.state.ruleset, game.scenario, [events[0], events[2]])


def test_a_stored_game_loads_to_the_same_state(game: Game) -> None:
    game.command(
        "jungle", {"type": "record_ambushes", "orders": [{"unit": "graw", "square": "D2"}]}
    )
    loaded = Game.load(game.store, game.id)
    assert loaded.state == game.state


@given(st.integers(0, 2**16))
def test_every_event_survives_its_json_form(seed: int) -> None:
    game = Game.create(examples.load("suspicious-places"), seed=seed)
    for event in game.events():
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event


def _in_a_reaction_window() -> Game:
    """A camouflage game in which the Nomads' Order waits for PanOceania's AROs."""
    game = Game.create(examples.load("camouflage-table"), seed=2)
    game.command(
        "nomads",
        {"type": "deploy", "markers": [{"piece": k} for k in ("caliban", "zondbot", "mine")]},
    )
    game.command("panoceania", {"type": "deploy", "markers": [{"piece": "croc_man"}]})
    game.command("nomads", {"type": "first_skill", "piece": "moran", "skill": {"skill": "move"}})
    return game


def test_a_reaction_window_takes_only_the_awaited_sides_answer() -> None:
    game = _in_a_reaction_window()
    window = game.state.window
    assert window is not None
    assert (window.by, window.asks, window.awaiting) == ("nomads", ("panoceania",), "panoceania")
    assert allowed_commands(game.state, "panoceania") == ["aros", "end_game"]
    assert allowed_commands(game.state, "nomads") == ["end_game"]  # any-time orders stay open
    refused = refusal(game, "nomads", {"type": "second_skill", "skill": {"skill": "move"}})
    assert refused.code == "awaiting_reaction"
    assert refusal(game, "panoceania", {"type": "end_turn"}).code == "awaiting_reaction"
    game.command("panoceania", {"type": "aros", "aros": []})
    assert game.state.window is None
    # The answer, the window's opening and its closing survive the log's JSON and a replay.
    for event in game.events():
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
    assert replay(game.state.ruleset, game.scenario, game.events()) == game.state


def test_a_windows_answer_is_never_given_outside_its_window() -> None:
    game = _in_a_reaction_window()
    game.command("panoceania", {"type": "aros", "aros": []})
    assert refusal(game, "panoceania", {"type": "aros", "aros": []}).code == "not_your_turn"
    assert "aros" not in allowed_commands(game.state, "panoceania")


@pytest.mark.parametrize(
    ("value", "field"),
    [(float("nan"), "models.0.0"), (float("inf"), "models.0.1"), (float("-inf"), "models.0.0")],
)
def test_a_value_the_record_cannot_hold_is_refused_as_malformed(value: object, field: str) -> None:
    """Every command is recorded in canonical JSON (RFC 8785): NaN and infinity (and integers
    past 2**53, tests/rules/camouflage/test_red_team.py) cannot be, and are refused like any
    malformed value instead of failing later."""
    game = Game.create(examples.load("grid-ambush"), seed=1)
    at = [value, 3] if field.endswith(".0") else [3, value]
    refused = refusal(game, "marines", {"type": "move", "unit": "tactical", "models": [at]})
    assert (refused.code, refused.field) == ("malformed_command", field)


def test_a_lone_surrogate_is_refused_as_malformed(game: Game) -> None:
    refused = refusal(game, "jungle", {"type": "reveal", "unit": "\ud800"})
    assert refused.code == "malformed_command"


def test_a_command_parsed_once_is_ruled_as_given_and_another_rulesets_is_refused(
    game: Game,
) -> None:
    # The server parses a command where it comes in and hands the engine the typed model
    # (engine.parse); the engine takes it as it is, but only if it is this ruleset's own.
    from ghillie import engine, registry
    from ghillie.dice.source import RandomDice
    from ghillie.rules.suspicious_places.commands import EndGame as OtherEndGame

    typed = engine.parse(game.state, "jungle", NO_AMBUSHES)
    event, _ = engine.apply(game.state, "jungle", typed, RandomDice(), game.ids)
    assert event.command == NO_AMBUSHES
    other = registry.get("suspicious-places").commands["end_game"]
    assert other is OtherEndGame
    with pytest.raises(Refusal) as refused:
        engine.apply(game.state, "jungle", OtherEndGame(), RandomDice(), game.ids)
    assert refused.value.code == "unknown_command"
