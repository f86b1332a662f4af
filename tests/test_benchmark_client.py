"""``load.py``'s lean end_phase clients (benchmarks/client.py) play ghillie and the floor
(benchmarks/floor_server.py) alike: every command they give is accepted, reaches both sides
and is counted, so the benchmark's figures are of games that really advance. Nothing here is
timed: the benchmark prints its figures."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvloop

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks")]
import client  # noqa: E402  (benchmarks/ is no package)
import load  # noqa: E402


@pytest.fixture(params=["ghillie", "floor"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[int]:
    with load.serving(request.param, str(tmp_path / "b.db"), []) as (port, _):
        yield port


def test_every_command_given_reaches_both_sides(server: int) -> None:
    async def played() -> tuple[list[client.Game], client.Played]:
        created = [load.post(server, "/api/games", load.GAME) for _ in range(2)]
        games = await client.connect(created, [server] * len(created))
        outcome = await client.play(games, 1.5)
        await client.close(games)
        return games, outcome

    games, outcome = uvloop.run(played())
    # Past the set-up (3 commands) into end_phase, in each game; each command's update seen
    # by both sides, and counted once.
    assert all(game.given > 3 for game in games)
    assert outcome.commands == sum(game.given for game in games)
    for game in games:
        assert {side.seen for side in game.sides.values()} == {game.given}
    assert outcome.received > 0
