"""No command holds the event loop (issue 24, finding 4): a ruling runs on a thread of its
own, so while one game's command is being ruled on — however long its rules take — every
other game's requests are answered. (No timing here: the ruling is held on an event the test
releases, and the other game must answer while it is held.)"""

from __future__ import annotations

import asyncio
import threading

import pytest

from ghillie.fairness import referee
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

from ..timed import registered
from .test_deadlines import _timed

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")


def test_another_games_requests_are_answered_while_a_ruling_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = threading.Event()
    started = threading.Event()
    rule = referee.rule

    def slow(*args: object, **kwargs: object) -> referee.Ruled:
        started.set()
        assert held.wait(10), "the test never let the ruling go"
        return rule(*args, **kwargs)  # type: ignore[arg-type]

    async def play() -> None:
        hub = Hub(MemoryStore())
        try:
            busy = (await hub.create(_timed(600))).game_id
            other = (await hub.create(_timed(600))).game_id
            monkeypatch.setattr(referee, "rule", slow)
            ruling = asyncio.ensure_future(
                hub.commands.command(busy, "blue", "s1", {"type": "step"})
            )
            await asyncio.to_thread(started.wait, 5)
            # The busy game's ruling is under way (and held): the other game answers.
            view = await asyncio.wait_for(hub.view(other, "red"), 5)
            assert view["seq"] == 0
            monkeypatch.setattr(referee, "rule", rule)
            answered = await asyncio.wait_for(
                hub.commands.command(other, "blue", "s2", {"type": "step"}), 5
            )
            assert answered["seq"] == 1
            assert not ruling.done()
            held.set()
            assert (await asyncio.wait_for(ruling, 5))["seq"] == 1
        finally:
            held.set()
            hub.close()

    asyncio.run(play())
