"""A window's clock does not run while the server is down (ghillie.server.outages): a
restarted server extends the window it left open by the time it was down, measured from its
last beat, tells every page, and times the window out at its new end, not its old one."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from ghillie import clock
from ghillie.fairness.audit import audit
from ghillie.scenario import parse_scenario
from ghillie.server.hub import Hub
from ghillie.store import EventStore
from ghillie.store.sql import SqlStore

from ..timed import TimedScenario, registered, scenario

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")


def _timed(limit: int) -> TimedScenario:
    parsed = parse_scenario(TimedScenario, scenario(limit))
    assert isinstance(parsed, TimedScenario)
    return parsed


def _commands(store: EventStore, game_id: str) -> list[Any]:
    return [e.command for e in store.events(game_id)]


def _seconds(a: str, b: str) -> float:
    return (clock.parse(b) - clock.parse(a)).total_seconds()


def test_a_window_left_open_is_extended_by_the_outage_and_times_out_at_its_new_end(
    tmp_path: Path,
) -> None:
    url = str(tmp_path / "ghillie.db")

    async def play() -> None:
        store = SqlStore(url)
        first = Hub(store)
        beating = asyncio.create_task(first.outages.beat_every(0.1))
        game_id = (await first.create(_timed(3))).game_id
        await first.commands.command(game_id, "blue", "s1", {"type": "step"})
        await asyncio.sleep(0.5)  # the window runs, the host beats ...
        beating.cancel()
        first.close()  # ... and the process stops, its window half run
        opened = store.events(game_id)[-1]
        assert opened.at is not None
        old_end = clock.later(opened.at, 3)
        last_beat = store.beats([game_id])[game_id]
        await asyncio.sleep(3.0)  # down past the window's old end
        again = Hub(store)
        try:
            assert await again.resume_timers() == 1
            await asyncio.sleep(0.5)
            extension = store.events(game_id)[-1]
            assert extension.command == {"type": "extend", "window": 1, "since": last_beat}
            assert extension.at is not None
            down = _seconds(last_beat, extension.at)
            assert down >= 3.0
            window = (await again.games.live(game_id)).state.window
            assert window is not None
            assert window.ends == clock.later(old_end, down)
            for observer in ("blue", "red"):
                view = await again.view(game_id, observer)
                assert view["reaction"]["ends"] == window.ends  # every page is told
                said = [line["text"] for line in view["log"][-1]["said"]]
                n = round(down)
                assert said == [
                    f"The host was down for {n} s: the time for Red to answer ends {n} s later."
                ]
            # Its old end is long past, yet the time-out waits for the new one ...
            assert _commands(store, game_id)[-1]["type"] == "extend"
            left = _seconds(clock.now(), window.ends)
            assert left > 1.5  # about 2.5 s of the 3 were left when the host stopped
            await asyncio.sleep(left + 0.5)
            # ... and comes then.
            assert _commands(store, game_id)[-1] == {"type": "time_out", "window": 1}
            await again.commands.command(game_id, "blue", "e1", {"type": "end_game"})
            assert audit(await again.record(game_id)).ok  # the audit rules on it again
        finally:
            again.close()
            store.close()

    asyncio.run(play())
