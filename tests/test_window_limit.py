"""Reaction windows with a time limit: every side sees the same limit and when it ends; when
it runs out the host answers with the reaction's default, in a recorded event the audit
replays; a time-out that comes early, late or for another window is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game, Refusal, clock, examples
from ghillie.engine import replay
from ghillie.events import OpenWindow, effect_to_json, event_from_json, event_to_json
from ghillie.fairness.audit import audit
from ghillie.ruleset import Reaction
from ghillie.state import REFEREE, SPECTATOR

from .timed import Timed, registered, scenario

__all__ = ["registered"]  # the fixture, used by name

T0 = "2026-12-01T20:00:00.000+00:00"
STEP = {"type": "step"}


def _said(game: Game, observer: str) -> list[str]:
    return [line["text"] for entry in game.view(observer)["log"] for line in entry["said"]]


def _stepped(limit: int = 1) -> Game:
    game = Game.create(scenario(limit), seed=3)
    game.command("blue", STEP, now=T0)
    return game


def _unchanged(game: Game, attempt: Any) -> Refusal:
    before, log = game.state, game.events()
    with pytest.raises(Refusal) as caught:
        attempt()
    assert game.state == before
    assert game.events() == log
    return caught.value


@pytest.mark.usefixtures("registered")
def test_every_side_and_the_referee_see_the_same_limit_and_when_it_ends() -> None:
    game = _stepped(limit=30)
    window = game.state.window
    assert window is not None
    assert (window.limit, window.ends, window.opened) == (30, "2026-12-01T20:00:30.000+00:00", 1)
    shown = [game.view(o)["reaction"] for o in ("blue", "red", REFEREE, SPECTATOR)]
    assert all(r == shown[0] for r in shown)
    assert shown[0] == {
        "by": "blue",
        "waiting_for": "red",
        "limit": 30,
        "ends": "2026-12-01T20:00:30.000+00:00",
        "opened": 1,
    }
    assert game.view("red")["status"][0] == "Red are deciding whether to fire."
    # The event records the host's time it was ruled at, and the window's effect its limit.
    opening = game.events()[1]
    assert opening.at == T0
    window_op = next(effect_to_json(e) for e in opening.effects if isinstance(e, OpenWindow))
    assert (window_op["limit"], window_op["ends"]) == (30, "2026-12-01T20:00:30.000+00:00")


@pytest.mark.usefixtures("registered")
def test_when_the_time_runs_out_the_host_answers_hold_fire_and_everyone_is_told() -> None:
    game = _stepped()
    event = game.time_out(now=clock.later(T0, 1))
    assert game.state.window is None
    assert event.side is None  # the host's, not a side's
    assert event.command == {"type": "time_out", "window": 1}
    assert event.at == "2026-12-01T20:00:01.000+00:00"
    for observer in ("blue", "red", SPECTATOR):
        assert _said(game, observer)[-2:] == ["Time ran out: Red hold fire.", "Red hold fire."]
    # The answer recorded is the default, in the answer command's own shape.
    answers = [effect_to_json(e) for e in event.effects if effect_to_json(e)["op"] == "answer"]
    assert answers == [{"op": "answer", "side": "red", "answer": {"type": "shoot", "fire": False}}]
    # The game goes on: the next step opens the next window, asked the same way.
    game.command("blue", STEP, now=clock.later(T0, 5))
    assert game.view("red")["reaction"]["ends"] == "2026-12-01T20:00:06.000+00:00"


@pytest.mark.usefixtures("registered")
def test_a_time_out_before_the_limit_has_passed_is_refused_and_changes_nothing() -> None:
    game = _stepped()
    early = _unchanged(game, lambda: game.time_out(now="2026-12-01T20:00:00.999+00:00"))
    assert early.code == "time_not_up"
    game.time_out(now=clock.later(T0, 1))  # on the dot is on time


@pytest.mark.usefixtures("registered")
def test_a_late_time_out_for_a_window_answered_or_for_another_window_is_refused() -> None:
    game = _stepped()
    game.command("red", {"type": "shoot", "fire": True}, now=clock.later(T0, 0.5))
    assert _said(game, "blue")[-1] == "Red fire."
    late = {"type": "time_out", "window": 1}
    gone = _unchanged(game, lambda: game._rule(None, late, clock.later(T0, 9)))
    assert gone.code == "window_closed"
    game.command("blue", STEP, now=clock.later(T0, 10))  # window 3 opens
    assert game.state.window is not None
    assert game.state.window.opened == 3
    other = _unchanged(game, lambda: game._rule(None, late, clock.later(T0, 99)))
    assert other.code == "window_closed"
    # A side cannot give the host's command, nor the host a side's.
    assert _unchanged(game, lambda: game.command("red", late)).code == "unknown_command"
    assert _unchanged(game, lambda: game._rule(None, STEP, None)).code == "unknown_command"


@pytest.mark.usefixtures("registered")
def test_a_game_with_a_time_out_replays_and_its_record_passes_the_audit() -> None:
    game = _stepped()
    game.time_out(now=clock.later(T0, 2))
    game.command("blue", STEP, now=clock.later(T0, 3))
    game.command("red", {"type": "shoot", "fire": True}, now=clock.later(T0, 3.5))
    game.command("blue", {"type": "end_game"})
    for event in game.events():
        assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
    assert replay(game.state.ruleset, game.scenario, game.events()) == game.state
    report = audit(game.record())
    assert report.ok, report.findings
    # A record whose time-out was moved before the limit no longer replays.
    record = game.record()
    record["events"][2]["at"] = "2026-12-01T20:00:00.500+00:00"
    assert not audit(record).ok


@pytest.mark.usefixtures("registered")
def test_a_window_with_a_limit_needs_a_default_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    no_default = {"watch": Reaction("shoot", "{side} are deciding whether to fire.")}
    monkeypatch.setattr(Timed, "reactions", no_default)
    game = Game.create(scenario(), seed=3)
    with pytest.raises(ValueError, match="no default answer"):
        game.command("blue", STEP, now=T0)


def test_a_window_without_a_limit_is_recorded_as_before() -> None:
    game = Game.create(examples.load("camouflage-table"), seed=2)
    game.command(
        "nomads",
        {"type": "deploy", "markers": [{"piece": k} for k in ("caliban", "zondbot", "mine")]},
    )
    game.command("panoceania", {"type": "deploy", "markers": [{"piece": "croc_man"}]})
    game.command("nomads", {"type": "first_skill", "piece": "moran", "skill": {"skill": "move"}})
    assert game.state.window is not None
    assert game.state.window.limit is None
    opening = event_to_json(game.events()[-1])
    assert "at" not in opening
    window_op = next(e for e in opening["effects"] if e["op"] == "window")
    assert set(window_op) == {"op", "name", "by", "asks", "about"}
    assert set(game.view("panoceania")["reaction"]) == {"by", "waiting_for"}
    assert _unchanged(game, game.time_out).code == "time_not_up"


@pytest.mark.usefixtures("registered")
def test_ghillie_replay_tells_the_time_out_as_the_hosts() -> None:
    from ghillie.story import tell_record

    game = _stepped()
    game.time_out(now=clock.later(T0, 1))
    game.command("blue", {"type": "end_game"})
    told = list(tell_record(game.record()))
    assert told[2].head == ["Event 2 · The host: the time to answer ran out."]


@pytest.mark.usefixtures("registered")
def test_an_update_says_the_reaction_has_gone_once_the_window_closes() -> None:
    from ghillie.view import project_update

    game = _stepped()
    held = project_update(game.state, game.events(), "red", {})[1]
    assert "reaction" in held
    event = game.time_out(now=clock.later(T0, 1))
    update, held = project_update(game.state, [event], "red", held)
    assert update["reaction"] is None  # a page merging updates drops it, and its countdown
    assert "reaction" not in held
    event = game.command("blue", {"type": "end_game"})
    assert "reaction" not in project_update(game.state, [event], "red", held)[0]


# --- time held to account (issue 24, finding 2) ------------------------------------------------


@pytest.mark.usefixtures("registered")
def test_an_answer_records_when_the_host_had_it_and_one_after_the_end_is_refused() -> None:
    game = _stepped(limit=10)
    late = "2026-12-01T20:00:10.001+00:00"
    refusal = _unchanged(game, lambda: game.command("red", {"type": "shoot"}, now=late))
    assert refusal.code == "time_up"
    in_time = "2026-12-01T20:00:09.500+00:00"
    answer = game.command("red", {"type": "shoot", "fire": True}, now=in_time)
    # The answer's event says when the host had it: the audit holds the host to it.
    assert answer.at == in_time
    assert audit(_ended(game)).ok


@pytest.mark.usefixtures("registered")
def test_an_answer_recorded_after_the_end_or_with_no_time_fails_the_audit() -> None:
    # A host that took an answer after the end and said so, or wrote no time to hide it.
    from tests.fairness.dishonest import resign

    game = _stepped(limit=10)
    game.command("red", {"type": "shoot"}, now="2026-12-01T20:00:09.000+00:00")
    record = _ended(game)
    key = game.ledger.secrets.key.hex()
    for at, words in (
        ("2026-12-01T20:00:10.500+00:00", "do not accept it again"),
        (None, "does not say when it came"),
    ):
        spoiled = json.loads(json.dumps(record))
        event = spoiled["events"][2]
        if at is None:
            del event["at"]
        else:
            event["at"] = at
        report = audit(resign(spoiled, key))
        assert not report.ok, at
        assert words in str(report.findings[0]), report.findings


def _ended(game: Game) -> dict[str, Any]:
    for side in ("blue", "red"):
        if game.state.phase.name != "OVER":
            game.command(side, {"type": "end_game"}, now="2026-12-01T21:00:00.000+00:00")
    return game.record()
