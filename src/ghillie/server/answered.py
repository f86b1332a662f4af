"""What a live game's accepted commands were answered, so that a retry of a command id
gets the same answer instead of being applied twice.

Every command is looked up here, so every (side, command id) stays known in memory, with
the seq of the event it made; the answers themselves (1–2 KB each: what the command did,
in words) only for the last few. An older one is read back from the store, where it was
written with its event: a retry that old is rare, and a game of a thousand commands keeps
about 100 KB of keys instead of 2 MB of answers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from ghillie.server.calls import read
from ghillie.store.base import Answer

if TYPE_CHECKING:
    from ghillie.store.base import EventStore

KEEP: Final = 8  # answers held whole (twice as many at most)


def stored_answers(store: EventStore, game_id: str, answers: Iterable[Answer] = ()) -> Answered:
    """The answers of ``game_id`` (``answers``: every one stored so far), the older ones to
    be read back from ``store``."""
    return Answered(answers, functools.partial(store.answers, game_id))


class Answered:
    def __init__(
        self, answers: Iterable[Answer], read: Callable[[int], list[Answer]], keep: int = KEEP
    ) -> None:
        """``read(after)`` gives the stored answers of the commands that made the events
        after ``after`` (the store's ``answers``, for this game)."""
        self._read = read
        self._keep = keep
        self._seq: dict[tuple[str, str], int] = {}  # every command answered: its event's seq
        self._held: dict[tuple[str, str], dict[str, Any]] = {}  # the last ones, in order
        for answer in answers:
            self.add(answer.observer, answer.command_id, answer.seq, answer.body)

    def __contains__(self, key: tuple[str, str]) -> bool:
        return key in self._seq

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._seq)

    def add(self, observer: str, command_id: str, seq: int, body: Mapping[str, Any]) -> None:
        key = (observer, command_id)
        self._seq[key] = seq
        self._held[key] = dict(body)
        if len(self._held) > 2 * self._keep:  # trimmed now and then, not at every command
            for old in list(self._held)[: -self._keep]:
                del self._held[old]

    async def find(self, observer: str, command_id: str) -> dict[str, Any] | None:
        """The answer ``observer``'s command ``command_id`` was given; None if it gave none
        that was accepted."""
        key = (observer, command_id)
        held = self._held.get(key)
        if held is not None or key not in self._seq:
            return held
        seq = self._seq[key]
        for answer in await read(self._read, seq - 1):
            if (answer.observer, answer.command_id) == key:
                return dict(answer.body)
        raise LookupError(f"the answer of event {seq} is not in the store")
