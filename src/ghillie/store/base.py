"""The storage interface: a few methods, one contract test suite for every backend.

Events are stored as JSON (``ghillie.events.event_to_json``). ``append`` is optimistic: it
names the seq it expects to follow, and fails with :class:`Conflict` instead of
interleaving with another writer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ghillie.events import Event


@dataclass(frozen=True)
class Answer:
    """What an accepted command was answered, stored with its events so that a retry of the
    same command id gets the same answer instead of being applied twice."""

    observer: str
    command_id: str
    seq: int
    body: Mapping[str, Any]


@dataclass(frozen=True)
class Append:
    """One command's write: its events and its answer, all or nothing."""

    game_id: str
    expected_seq: int
    events: Sequence[Event]
    answer: Answer | None = None


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

    # --- what the server needs besides ----------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        header: Mapping[str, Any],
        first: Event | None,
        token_hashes: Mapping[str, str],
    ) -> None:
        """A game, its first event (if it has one yet) and its capability tokens (hashes →
        observer), together."""
        ...

    def append_batch(self, batch: Sequence[Append]) -> list[Exception | None]:
        """Several commands, of any games, in one transaction; each all or nothing. Returns
        None or the reason (Conflict, UnknownGame) for each."""
        ...

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        """Answers of the commands that made the events after ``after``."""
        ...

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The last seq of each of these games (unknown ones left out), in one read."""
        ...

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        """Which side (or referee) a token grants in this game; None for any other."""
        ...
