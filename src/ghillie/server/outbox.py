"""A connection's pushes waiting to be sent: a bounded list read by one task, its pump.

An ``asyncio.Queue`` does the same for any number of readers and writers, at about 3.3 KB
a connection (three deques of 624 bytes and an ``Event`` with a fourth); with two
connections a game and 10,000 games in a process that is 65 MB. One reader and a list need
about a tenth of it.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

T = TypeVar("T")


class Outbox(Generic[T]):
    """At most ``maxsize`` items, first in first out; ``put_nowait`` raises
    ``asyncio.QueueFull`` beyond it and ``get_nowait`` ``asyncio.QueueEmpty`` on none, as a
    queue's do. Only one task may wait in :meth:`get` at a time."""

    __slots__ = ("_items", "_waiter", "maxsize")

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: list[T] = []
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: T) -> None:
        if len(self._items) >= self.maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.pop(0)  # at most maxsize (64) items: shifting them is cheap

    async def get(self) -> T:
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("an outbox has one reader")
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)
