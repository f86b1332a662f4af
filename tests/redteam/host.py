"""A dishonest host for the red team: the real hub (ghillie.server.hub, MemoryStore), driven
the way the pages drive it, with the host free to do what the server code lets it do — call
its own methods (give a roll up, register an anchor and key in a side's name, give a side a
new seat key), or patch how it takes an order. The pages here are what fairplay.js keeps of
them: a dice chain, a seat key, the requests it was shown and the orders it signed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ghillie.fairness.chains import Chain
from ghillie.fairness.hashlog import HostKey, order_digest, order_message
from ghillie.fairness.ledger import head_receipt
from ghillie.server.hub import Hub

from ..server.test_deadlines import _timed

SIDES = ("blue", "red")
STEP = {"type": "step"}
END = {"type": "end_game"}
SHOOT = {"type": "shoot", "fire": False}


class Page:
    """A side's page: its chain, its seat key, and the receipts fairplay.js would keep."""

    def __init__(self, side: str, seed: int) -> None:
        self.side = side
        self.chain = Chain.from_seed(bytes([seed]) * 32)
        self.key = HostKey.from_bytes(bytes([seed + 100]) * 32)
        self.requests: list[dict[str, Any]] = []
        self.orders: list[dict[str, Any]] = []

    @property
    def public(self) -> str:
        return self.key.public

    def sign(self, game: str, k: int, command_id: str, command: dict[str, Any]) -> tuple[int, str]:
        sig = self.key.sign(order_message(game, k, self.side, command_id, command))
        self.orders.append({"id": command_id, "k": k, "digest": order_digest(sig), "sent": 0})
        return k, sig

    def receipts(self, record: dict[str, Any]) -> dict[str, Any]:
        """What this page keeps by the end of the game (it saw every head)."""
        return {
            "key": record["events"][0]["fair"]["setup"]["key"],
            "heads": [head_receipt(e["seq"], e["fair"], SIDES) for e in record["events"]],
            "requests": self.requests,
            "anchor": self.chain.anchor.hex(),
            "seat": self.public,
            "orders": self.orders,
            "windows": [],
        }


def pages() -> dict[str, Page]:
    return {"blue": Page("blue", 1), "red": Page("red", 2)}


async def until(done: Callable[[], bool], seconds: float = 3) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "not within the time"
        await asyncio.sleep(0.01)


async def start(
    hub: Hub, sides: dict[str, Page], *, wait: int | None = 600, keys: dict[str, str] | None = None
) -> str:
    """A page-held game of the toy timed ruleset (tests/timed.py), every page joined (with
    the seat key ``keys`` names for it, if the host swapped it) and roll 0 answered."""
    game = (await hub.create(_timed(600), clients=True, wait=wait)).game_id
    for page in sides.values():
        key = (keys or {}).get(page.side, page.public)
        await hub.commands.anchor(game, page.side, page.chain.anchor.hex(), key)
    await answer(hub, game, sides, 0)
    live = hub.games.get(game)
    assert live is not None
    await until(lambda: live.state.seq == 0)
    return game


async def answer(hub: Hub, game: str, sides: dict[str, Page], k: int, *only: str) -> None:
    """The pages named (all by default) are shown roll ``k``'s request, keep it and give
    their elements; the others are shown it and keep it, but their elements never count
    (a page that refused it, or whose element the host threw away)."""
    live = hub.games.get(game)
    assert live is not None
    await until(lambda: live.pending is not None and live.pending.request.k == k)
    assert live.pending is not None
    request = live.pending.request.public(game)
    for page in sides.values():
        page.requests.append(request)
        if not only or page.side in only:
            await hub.commands.contribute(game, page.side, k, page.chain.element(k).hex())


def give(
    hub: Hub,
    game: str,
    side: str,
    command: dict[str, Any],
    command_id: str,
    signed: tuple[int, str] | None,
) -> asyncio.Future[dict[str, Any]]:
    return asyncio.ensure_future(
        hub.commands.command(game, side, command_id, command, signed=signed)
    )


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())
