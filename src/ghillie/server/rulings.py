"""Rulings run off the event loop, so that no command holds every other game.

A ruling is pure CPU work on one game's state (``ghillie.fairness.referee.rule``, ``trial``):
run on the loop, a long one (an ambush-fire move over rough ground, say) would stall every
other game's requests, views and websockets for as long. It runs on one worker thread
instead; Python hands the GIL back and forth between it and the loop every few
milliseconds, so another game's request is answered meanwhile. A few threads, so that one
long ruling does not hold another game's command either; two rulings of one game never run
at once (each game's lock is held across its ruling). A ruling only reads the game's state
and ledger; the ids it draws come from a source safe to share. The loop waits for the
ruling's result and goes on with it (sealing, which changes the ledger, stays on the loop).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ghillie-rule")


async def rule_off_loop(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` on the ruling thread; its result, or its exception (a Refusal)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_POOL, functools.partial(call, *args))
