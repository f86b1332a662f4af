"""``benchmarks/pace.py``'s clients (benchmarks/table.py) play the realistic mix against a
real server, page-held and host-held games alike, at a brisk pace for a few seconds: every
command they count as done was accepted and its event reached both sides exactly once, so
the benchmark's latencies are of commands that really went through. Nothing here is timed:
the benchmark prints its figures."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvloop

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks")]
import load  # noqa: E402  (benchmarks/ is no package)
import pace  # noqa: E402
import table  # noqa: E402

GAMES = 4  # both scenarios, each once page-held and once host-held


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    with load.serving("ghillie", str(tmp_path / "p.db"), []) as (port, _):
        yield port


@pytest.mark.parametrize("drops", [0, 2])
def test_every_command_done_reached_both_sides_once(server: int, drops: int) -> None:
    """Also when every connection drops (``drops`` times, a second apart, in the window):
    each is opened again, resumes its log where it was and the games carry on."""
    dropped = 0

    async def played() -> tuple[list[table.TableGame], table.Tally]:
        nonlocal dropped
        tally = table.Tally()
        made = [pace.create(server, n, 0.5) for n in range(GAMES)]
        opening = asyncio.Semaphore(2)
        games = [
            table.TableGame(server, c, pace.pages_hold(n, 0.5), n, tally, opening)
            for n, c in enumerate(made)
        ]
        assert all(await asyncio.gather(*(game.connect() for game in games)))
        start = time.monotonic()
        tally.window = (start, start + 3)
        for game in games:
            game.paced(start, 0.2, start + 3)
        for n in range(drops):
            await pace.until(lambda: False, start + 1 + n)
            for game in games:
                for seat in game.seats.values():
                    if seat.transport is not None:  # as the network would: no goodbye
                        seat.transport.disconnect(graceful=False)
                        dropped += 1
        await pace.until(lambda: False, start + 3)
        await pace.until(lambda: not any(g.unfinished() for g in games), start + 30)
        for game in games:
            game.end()
        return games, tally

    games, tally = uvloop.run(played())
    assert {pace.pages_hold(n, 0.5) for n in range(GAMES)} == {True, False}
    assert {game.scenario for game in games} == {"suspicious-places", "ambush-fields"}
    assert not any(game.unfinished() for game in games)
    assert not tally.problems
    assert (tally.reconnects, tally.lost, tally.gaps) == (dropped, 0, 0)
    assert dropped >= drops * GAMES  # most connections were open to drop
    assert len(tally.latencies) == sum(tally.accepted.values())
    for game in games:
        assert len(game.done) > 3  # past any set-up, in every game
        for seat in game.seats.values():
            # Every event once, in order, none skipped; every command done among them.
            assert seat.updated == list(range(seat.updated[0], seat.updated[-1] + 1))
            assert set(game.done) <= set(seat.updated)
