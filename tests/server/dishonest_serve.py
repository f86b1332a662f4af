"""``ghillie serve`` run by a dishonest host, for the browser tests of what a side's page and
the audit do about it (tests/server/test_browser_dishonest_host.py). For tests only.

The host holds the server, so it can do what the code lets it: here it gives a command in a
side's name, which no page of that side gave (issue 24, finding 1). It cannot sign it with
the side's seat key (that never leaves the side's device), so its roll request quotes no
order (``""``, as for a side the host plays). Two routes the honest server does not have:

- ``POST /dishonest/{game}/{side}`` with a command: the host asks for the next roll for it, in
  ``side``'s name, and answers once the request is out (the roll then waits for the pages);
- ``GET /dishonest/{game}/record``: the record the host could write now, finished or not.

    python tests/server/dishonest_serve.py --port PORT --db FILE
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, HTTPException

from ghillie.errors import Refusal
from ghillie.fairness.ledger import Ledger, Order
from ghillie.fairness.record import make_record
from ghillie.server import commands, hub
from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.run import build, serve

FORGED = "forged-"  # the command ids of the host's own orders in a side's name


class DishonestCommands(commands.Commands):
    """The hub's commands, but an order whose id the host made is taken unsigned, in any
    side's name: the host gives it, and asks the pages for its roll."""

    async def _order(
        self,
        ledger: Ledger,
        side: str | None,
        command_id: str,
        raw: Mapping[str, Any],
        signed: commands.Signed | None,
    ) -> Order | None:
        if command_id.startswith(FORGED):
            return None  # no seat key's signature: the request quotes ""
        return await super()._order(ledger, side, command_id, raw, signed)


def routes(app: FastAPI) -> None:
    numbers = itertools.count(1)
    tasks: set[asyncio.Task[Any]] = set()

    @app.post("/dishonest/{game_id}/{side}")
    async def forge(game_id: str, side: str, command: dict[str, Any]) -> dict[str, Any]:
        given = app.state.hub.commands.command(game_id, side, f"{FORGED}{next(numbers)}", command)
        task = asyncio.ensure_future(given)
        tasks.add(task)  # held: it waits for the roll, which may never come
        task.add_done_callback(tasks.discard)
        game = await app.state.hub.games.live(game_id)
        for _ in range(500):  # asked, refused or ruled: at once, unless the store is slow
            if task.done() or game.pending is not None:
                break
            await asyncio.sleep(0.01)
        if task.done() and isinstance(task.exception(), Refusal):
            refusal = task.exception()
            assert isinstance(refusal, Refusal)
            raise HTTPException(409, refusal.code)
        pending = game.pending
        return {"request": pending.request.public(game_id) if pending is not None else None}

    @app.get("/dishonest/{game_id}/record")
    async def record(game_id: str) -> dict[str, Any]:
        game = await app.state.hub.games.live(game_id)
        return make_record(game.game_id, game.header, await game.events.after())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    args = parser.parse_args()
    configure()
    hub.Commands = DishonestCommands  # type: ignore[attr-defined]  # the hub makes this kind
    limits = Limits()
    app, store = build(args.db, limits)
    routes(app)
    try:
        serve(app, "127.0.0.1", args.port, limits)
    finally:
        app.state.hub.close()
        store.close()


if __name__ == "__main__":
    main()
