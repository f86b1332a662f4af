"""The host's extension of a timed window after an outage (ghillie.host): the window ends
later by exactly the time the host was down, every side is told, the answer it lets in is
taken and the time-out it puts off is refused, the audit rules on it again, and a claim it
cannot make is refused and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game, Refusal, clock
from ghillie.errors import TIME_NOT_UP, UNKNOWN_COMMAND, WINDOW_CLOSED
from ghillie.events import event_from_json, event_to_json
from ghillie.fairness.audit import audit
from ghillie.state import SPECTATOR

from .timed import registered, scenario

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")
T0 = "2026-12-01T20:00:00.000+00:00"


def _at(seconds: float) -> str:
    return clock.later(T0, seconds)


def _stepped(limit: int = 30) -> Game:
    game = Game.create(scenario(limit), seed=3)
    game.command("blue", {"type": "step"}, now=T0)
    return game


def _said(game: Game, observer: str) -> list[str]:
    return [line["text"] for entry in game.view(observer)["log"] for line in entry["said"]]


def _refused(game: Game, since: str, now: str) -> str:
    before, log = game.state, game.events()
    with pytest.raises(Refusal) as caught:
        game.extend(since, now=now)
    assert (game.state, game.events()) == (before, log)
    return caught.value.code


def test_the_window_ends_later_by_the_time_the_host_was_down_and_every_side_is_told() -> None:
    game = _stepped()
    # Down 12 s after the window opened, back 20 s later: 18 s of the 30 were left.
    event = game.extend(_at(12), now=_at(32))
    assert event.side is None
    assert event.at == _at(32)
    assert event.command == {"type": "extend", "window": 1, "since": _at(12)}
    window = game.state.window
    assert window is not None
    assert window.ends == _at(50)
    for observer in ("blue", "red", SPECTATOR):
        assert _said(game, observer)[-1] == (
            "The host was down for 20 s: the time for Red to answer ends 20 s later."
        )
        assert game.view(observer)["reaction"]["ends"] == _at(50)


def test_an_answer_after_the_old_end_is_taken_and_the_time_out_waits_for_the_new() -> None:
    game = _stepped()
    game.extend(_at(12), now=_at(32))
    with pytest.raises(Refusal) as early:
        game.time_out(now=_at(40))  # the old end has passed, the new one has not
    assert early.value.code == TIME_NOT_UP
    game.command("red", {"type": "shoot", "fire": True}, now=_at(45))
    assert game.state.window is None
    assert "Red fire." in _said(game, "blue")


def test_the_time_out_comes_at_the_new_end() -> None:
    game = _stepped()
    game.extend(_at(12), now=_at(32))
    game.time_out(now=_at(50))
    assert _said(game, "red")[-2] == "Time ran out: Red hold fire."


def test_the_audit_rules_on_the_extension_again_and_a_changed_one_fails_it() -> None:
    game = _stepped()
    game.extend(_at(12), now=_at(32))
    game.command("red", {"type": "shoot"}, now=_at(45))
    game.command("blue", {"type": "end_game"}, now=_at(46))
    record = game.record()
    assert audit(record).ok
    # A host that writes a longer extension into the record than its claim gives is caught.
    bent: dict[str, Any] = event_to_json(event_from_json(record["events"][2]))
    for op in bent["effects"]:
        if op["op"] == "extend":
            op["ends"] = _at(80)
    record["events"][2] = bent
    assert not audit(record).ok


def test_a_window_that_had_run_out_before_the_host_went_down_is_not_extended() -> None:
    game = _stepped()
    assert _refused(game, _at(31), _at(40)) == TIME_NOT_UP
    assert _refused(game, _at(30), _at(40)) == TIME_NOT_UP  # its end is its last moment


def test_an_outage_that_ends_before_it_starts_is_refused() -> None:
    game = _stepped()
    assert _refused(game, _at(20), _at(10)) == TIME_NOT_UP


def test_no_window_open_or_another_named_nothing_is_extended() -> None:
    game = _stepped()
    game.command("red", {"type": "shoot"}, now=_at(5))
    assert _refused(game, _at(6), _at(9)) == WINDOW_CLOSED


def test_a_since_that_is_no_time_is_refused_as_no_such_command() -> None:
    game = _stepped()
    before = game.state
    with pytest.raises(Refusal) as caught:
        game._rule(None, {"type": "extend", "window": 1, "since": "yesterday"}, _at(9))
    assert caught.value.code == UNKNOWN_COMMAND
    assert game.state == before


def test_an_outage_claimed_from_before_the_last_event_the_host_ruled_fails_the_audit() -> None:
    """The engine cannot tell when the host was last alive; the record can: the window's own
    event was ruled at T0, so an outage 'from' 60 s before it hands Red 60 s it never lost."""
    game = _stepped()
    game.extend(_at(-60), now=_at(32))
    game.command("red", {"type": "shoot"}, now=_at(100))
    game.command("blue", {"type": "end_game"}, now=_at(101))
    report = audit(game.record())
    assert [(f.check, f.seq) for f in report.findings] == [("time", 2)]
    assert "outage" in report.findings[0].message
