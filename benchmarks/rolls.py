"""What a page-held ("clients") game pays per event for its stored roll requests: every
event's request is claimed in the database before any page sees it, and each page element
that does not complete the roll is kept with it (docs/fairness.md). Plays a grid-ambush game
through the hub on a SQLite file (WAL, synchronous=FULL), both pages' elements given in
turn, and prints the time per event.

    .venv/bin/python benchmarks/rolls.py [--events 300]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from ghillie import examples
from ghillie.fairness.chains import Chain
from ghillie.server.hub import Hub
from ghillie.store.sql import SqlStore

SIDES = ("jungle", "orks")


async def play(events: int, db: Path) -> float:
    hub = Hub(SqlStore(str(db)))
    try:
        created = await hub.create(examples.load("grid-ambush-table"), clients=True)
        game_id = created.game_id
        chains = {side: Chain.fresh(events + 8)[1] for side in SIDES}
        for side in SIDES:
            await hub.commands.anchor(game_id, side, chains[side].anchor.hex())
        for side in SIDES:
            await hub.commands.contribute(game_id, side, 0, chains[side].element(0).hex())
        game = await hub.games.live(game_id)

        async def step(side: str, command: dict[str, Any]) -> None:
            k = game.state.seq + 1
            task = asyncio.create_task(hub.commands.command(game_id, side, f"c{k}", command))
            await asyncio.sleep(0)  # the command takes the game's lock; the pages queue on it
            for party in SIDES:
                await hub.commands.contribute(game_id, party, k, chains[party].element(k).hex())
            await task

        await step("jungle", {"type": "record_ambushes", "orders": []})  # none (DWV-R04)
        await step("jungle", {"type": "ready"})
        await step("orks", {"type": "ready"})
        started = time.perf_counter()
        for n in range(events):
            await step(SIDES[(n // 3) % 2], {"type": "end_phase"})
        return (time.perf_counter() - started) / events
    finally:
        hub.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as where:
        per_event = asyncio.run(play(args.events, Path(where) / "ghillie.db"))
    print(f"{args.events} events of a clients game on SQLite: {per_event * 1000:.2f} ms each")


if __name__ == "__main__":
    main()
