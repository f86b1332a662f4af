"""Store calls from the event loop: run in a worker thread, their failures worded for players.

The store's calls block (a database round trip, an fsync), so the loop never makes them
itself. A roll-protocol or seat call that fails for any reason but a conflict is the
player's "try again", never a 500; a conflict is the caller's to handle.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from ghillie.server.problems import UNAVAILABLE, Problem, unknown_game, where
from ghillie.store.base import Conflict, UnknownGame

log = logging.getLogger("ghillie.hub")
_T = TypeVar("_T")


async def io(function: Callable[..., _T], *args: Any) -> _T:
    return await asyncio.to_thread(function, *args)


async def read(function: Callable[..., _T], *args: Any) -> _T:
    """A read of what a live game no longer holds in memory (its earlier events, an old
    answer): a store that fails is the player's "try again", never a 500."""
    return await _worded(
        "what a game no longer holds in memory could not be read",
        "The game could not be read just now; try again.",
        function,
        *args,
    )


async def stored(function: Callable[..., _T], *args: Any) -> _T:
    """A store call of the roll protocol or the seats. A conflict is the caller's to
    handle; any other failure is the player's "try again", never a 500."""
    return await _worded(
        "a roll request could not be stored",
        "The game could not be saved; try again.",
        function,
        *args,
    )


async def _worded(failed: str, detail: str, function: Callable[..., _T], *args: Any) -> _T:
    """``function(*args)`` off the loop; a failure but a conflict logged as ``failed`` (with
    where it happened, never what the game holds) and answered with ``detail``."""
    try:
        return await asyncio.to_thread(function, *args)
    except Conflict:
        raise
    except UnknownGame:
        raise unknown_game() from None
    except Exception as exc:
        log.error("%s: %s", failed, where(exc))
        raise Problem(UNAVAILABLE, detail) from None
