"""The storage interface: a few methods, one contract test suite for every backend.

Events are stored as JSON (``ghillie.events.event_to_json``). ``append`` is optimistic: it
names the seq it expects to follow, and fails with :class:`Conflict` instead of
interleaving with another writer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    # The write resolves the game's stored roll request for its first event (see
    # StoredRoll): the request is cleared in the same transaction, so a crash can never
    # leave an event whose request still looks open, nor an open request with no event.
    resolves: bool = False
    # (side, the holder of its seat as the command was checked against, None if free): the
    # write is refused as a Conflict if the seat no longer stands so. Another process may
    # have seated a device meanwhile; checked in the write's own transaction, a seat costs
    # no read of its own per command (ghillie.server.seats).
    seat: tuple[str, str | None] | None = None
    # When the game's open timed reaction window ends, if the write changes it: (its end,)
    # or (None,) once no timed window is open; None leaves it as it was. A restarted server
    # times such games at once (``EventStore.timed``), not when someone next opens them.
    due: tuple[str | None] | None = None


@dataclass(frozen=True)
class StoredRoll:
    """A roll request the sides' pages were asked to answer and that is not resolved yet:
    everything a restarted process (or another one on the same database) needs to resume it
    instead of asking again. There is at most one per (game, k), for ever: an honest host
    never asks twice for one roll, and a page that is asked twice raises its alarm.

    ``request`` is the signed request with its host-private salt and payload; ``command``
    the command as given (None for the game's creation); ``elements`` the pages' chain
    elements in so far (party → hex), the host-held ones left out (they are recomputed)."""

    k: int
    side: str | None
    command_id: str | None
    command: Mapping[str, Any] | None
    request: Mapping[str, Any]
    elements: Mapping[str, str] = field(default_factory=dict)
    # The command as its side's seat key signed it ({id, command, sig}), if it did.
    order: Mapping[str, Any] | None = None
    at: str | None = None  # the host's time the command is ruled at, if pinned when it came
    asked: str | None = None  # the host's time the request was first asked (its wait counts)


@dataclass(frozen=True)
class Seat:
    """Who holds a side's seat: the hash of the seat key the device that took it keeps
    (``holder``; a key, like a token, is stored only hashed), since when, and — if that
    side's page started a new dice chain after losing its device — the new chain's anchor
    and the first roll it gives (``chain_from``). A seat row exists once taken; it is never
    given back, only moved (with the key) or taken again with a new chain."""

    observer: str
    holder: str
    since: str  # ISO 8601, UTC
    chain: str | None = None
    chain_from: int | None = None
    # The public key the device signs its side's orders with, and the first roll whose
    # order it signs (its seat taken, moved or taken over then).
    signing: str | None = None
    signing_from: int | None = None


class Conflict(Exception):
    """Another writer appended first: the caller reloads and rules again."""


class UnknownGame(KeyError):
    """No game with that id."""


class GameLog(Protocol):
    """The games and their logs: each game's header, its events, and the answers of the
    commands that made them."""

    def header(self, game_id: str) -> Mapping[str, Any]: ...

    def events(self, game_id: str, after: int = -1) -> list[Event]:
        """The game's events with seq > ``after``, in order."""
        ...

    def games(self) -> list[str]: ...

    def answers(self, game_id: str, after: int = -1) -> list[Answer]:
        """Answers of the commands that made the events after ``after``."""
        ...

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The last seq of each of these games (unknown ones left out), in one read."""
        ...


class Tokens(Protocol):
    """The games' capability tokens, which a game's creation writes (hashes only)."""

    def observer_for(self, game_id: str, token_hash: str) -> str | None:
        """Which side (or referee) a token grants in this game; None for any other."""
        ...


class RollClaims(Protocol):
    """Roll requests waiting for the pages, until the event that resolves one is written."""

    def claim_roll(self, game_id: str, roll: StoredRoll) -> StoredRoll:
        """Store ``roll`` as the game's request for roll ``roll.k``, unless one is stored
        already, atomically (two processes may claim at once): returns the stored one, which
        is ``roll`` or the earlier claim. Raises :class:`Conflict` if the game already has
        an event ``roll.k`` (the caller is behind), :class:`UnknownGame`."""
        ...

    def pending_roll(self, game_id: str) -> StoredRoll | None:
        """The game's unresolved roll request, if any (the latest: only the request for the
        roll after the last event can be resumed)."""
        ...

    def add_element(self, game_id: str, k: int, party: str, element: str) -> StoredRoll | None:
        """Keep a page's element for the stored request ``k`` (a party's first element
        stays). Returns the request with every element in so far, or None if no request
        ``k`` is stored (it was resolved meanwhile)."""
        ...


class Seats(Protocol):
    """Which device holds each side's seat (docs/fairness.md, "Seats")."""

    def seats(self, game_id: str) -> dict[str, Seat]:
        """Every taken seat of the game, by observer."""
        ...

    def take_seat(
        self, game_id: str, observer: str, holder: str, signing: tuple[str, int] | None = None
    ) -> Seat:
        """Take a free seat for ``holder``, with its signing key from a roll on (``signing``);
        a seat taken already is left as it is, except that its holder may give a signing key
        it had not given yet. Returns the seat as it now stands (whoever holds it): taking
        again with the same key is the same."""
        ...

    def offer_move(self, game_id: str, observer: str, holder: str, offer: str) -> bool:
        """The device holding the seat (``holder``) offers to move it: ``offer`` is the hash
        of a one-time code it shows. True if ``holder`` does hold the seat."""
        ...

    def move_seat(
        self,
        game_id: str,
        observer: str,
        offer: str,
        new: str,
        anchor: str | None,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat | None:
        """Give the seat to ``new`` if ``offer`` is the code its holder offered (compare and
        set; the offer is used up), with its new dice chain (``anchor``, None for a chain the
        host holds) from roll ``from_k``. Returns the moved seat, None if the code is not
        the one on offer. The new device signs its orders with ``signing`` from
        ``from_k`` on."""
        ...

    def new_chain(
        self,
        game_id: str,
        observer: str,
        holder: str,
        anchor: str,
        from_k: int,
        signing: tuple[str, int] | None = None,
    ) -> Seat:
        """The seat, taken by ``holder``, with a new dice chain whose first element is for
        roll ``from_k`` (and its signing key from that roll on)."""
        ...


class Beats(Protocol):
    """The host's last sign of life in each game a timed window runs in."""

    def beat(self, game_ids: Sequence[str], at: str) -> None:
        """The host is alive at ``at`` with a timed window running in each of ``game_ids``:
        its last sign of life before an outage, from which a restarted host extends them
        (ghillie.host). Kept per game, so that a process owning some games beats only them."""
        ...

    def beats(self, game_ids: Sequence[str]) -> dict[str, str]:
        """The last beat of each of ``game_ids`` that has one."""
        ...


class EventStore(GameLog, Tokens, RollClaims, Seats, Beats, Protocol):
    """Every table's part, and the writes that span tables: a game's creation (its header,
    first event and tokens) and a batch of commands (events, answers, the seat each was
    checked against, the roll request each resolves), each in one transaction."""

    # May other server processes write to this store (PostgreSQL)? If not, what this
    # process holds of a game is all there is, and need not be read again to be sure.
    shared: bool

    def create(self, game_id: str, header: Mapping[str, Any], first: Event) -> None:
        """Create a game: its header (ruleset, scenario) and its first event, together."""
        ...

    def append(self, game_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        """Append events that follow ``expected_seq``; all or none."""
        ...

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

    def timed(self) -> list[str]:
        """The games something is timed in: a reaction window with a time limit is open, or
        a roll waits for the pages (its wait runs out). A server starting up loads them, so
        that their timers run whether or not anyone opens them."""
        ...


def roll_body(roll: StoredRoll) -> dict[str, Any]:
    """What a store keeps of a roll request besides its key and its elements."""
    return {
        "side": roll.side,
        "command_id": roll.command_id,
        "command": roll.command,
        "request": roll.request,
        **({"order": roll.order} if roll.order is not None else {}),
        **({"at": roll.at} if roll.at is not None else {}),
        **({"asked": roll.asked} if roll.asked is not None else {}),
    }


def roll_from(k: int, body: Mapping[str, Any], elements: Mapping[str, str]) -> StoredRoll:
    return StoredRoll(
        k,
        body["side"],
        body["command_id"],
        body["command"],
        body["request"],
        dict(elements),
        body.get("order"),
        body.get("at"),
        body.get("asked"),
    )
