"""The storage interface: a few methods, one contract test suite for every backend.

Events are stored as JSON (``ghillie.events.event_to_json``). ``append`` is optimistic: it
names the seq it expects to follow, and fails with :class:`Conflict` instead of
interleaving with another writer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ghillie.events import Event


class Conflict(Exception):
    """Another writer appended first: the caller reloads and rules again."""


class UnknownGame(KeyError):
    """No game with that id."""


class EventStore(Protocol):
    def create(self, game_id: str, header: Mapping[str, Any], first: Event) -> None:
        """Create a game: its header (ruleset, scenario) and its first event, together."""
        ...

    def header(self, game_id: str) -> Mapping[str, Any]: ...

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        """Append events that follow ``expected_seq``; all or none."""
        ...

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        """The game's events with seq > ``after``, in order."""
        ...

    def games(self) -> list[str]: ...
