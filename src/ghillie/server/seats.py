"""Seats: which device plays a side (docs/fairness.md, "Seats").

A side's link (its token) opens the seat; the seat, and the side's dice chain, belong to the
first device that *takes* it, explicitly. A device proves it holds a seat with its seat key:
random bytes it keeps beside its chain and sends with every connection (stored only hashed,
like a token). Once a seat is taken, the token alone no longer shows the side's game: a
second device is told the seat is taken (and the holding device is told that it tried), and
may only take the seat over:

- **moved** with the one-time code the holding device shows: the new device starts its own
  dice chain from the next roll on (a seed never leaves the device that made it);
- **taken again with a new chain**, when the holding device is lost: refused while that
  device is online, announced to every page, and recorded, like a move, in the event whose
  roll the new chain first gives (``fair.chains``).

A seat never taken works as before seats existed: a script with the token plays the side
(and may take the seat to keep others out). Seats are about devices, not about the game: a
seat's state is the same whatever any side's secrets are.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ghillie.errors import (
    BAD_CONTRIBUTION,
    BAD_MOVE_CODE,
    BAD_SEAT_KEY,
    BAD_SIGNING_KEY,
    SEAT_IN_USE,
    SEAT_TAKEN,
    UNKNOWN_SIDE,
    Refusal,
)
from ghillie.fairness.hashlog import usable_key
from ghillie.server import calls
from ghillie.server.frames import SeatFrame
from ghillie.server.tokens import token_hash
from ghillie.store.base import Seat

if TYPE_CHECKING:
    from ghillie.server.fanout import FanOut
    from ghillie.server.games import Games
    from ghillie.server.live import LiveGame, Watcher
    from ghillie.store.base import EventStore

SEAT_KEY = re.compile("[0-9a-f]{32,64}")
_HEX32 = re.compile("[0-9a-f]{64}")
# A move code is read off one phone and typed into another: Crockford's base32 without the
# letters people misread, 10 characters (50 bits), used up once; guessing it online is hopeless
# and it is only good while the holder keeps offering it.
CODE_LETTERS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10
VISITS_KEPT = 5


def device_of(key: Any) -> str | None:
    """The stored form of a seat key (its hash), None for no key; a malformed key refused."""
    if key is None:
        return None
    if not isinstance(key, str) or not SEAT_KEY.fullmatch(key):
        raise Refusal(BAD_SEAT_KEY, "A seat key is 32 to 64 characters of lowercase hex.")
    return token_hash(key)


def signing_key(key: Any) -> str | None:
    """The public key a device signs its side's orders with (None: it gives none, and the
    host gives that side's orders: "host-acted"); a malformed one refused."""
    if key is None:
        return None
    if not isinstance(key, str) or not _HEX32.fullmatch(key) or not usable_key(key):
        raise Refusal(BAD_SIGNING_KEY, "A signing key is a public Ed25519 key: 32 bytes in hex.")
    return key


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def normal_code(code: Any) -> str | None:
    """A typed code as it was offered: spaces, dashes and case forgiven, I/L read as 1 and O
    as 0 (Crockford's reading); None if it cannot be a code."""
    if not isinstance(code, str) or len(code) > 40:
        return None
    cleaned = code.upper().replace("-", "").replace(" ", "")
    cleaned = cleaned.translate(str.maketrans("ILO", "110"))
    if len(cleaned) != CODE_LENGTH or any(c not in CODE_LETTERS for c in cleaned):
        return None
    return cleaned


def state(game: LiveGame, observer: str, device: str | None) -> dict[str, Any]:
    """What a device is told of the seat it opened: ``free``, ``yours`` or ``taken`` (with
    since when), and, for the holder, when other devices opened its link."""
    if observer not in game.state.sides:
        return {"state": "none"}
    # Which side, and who holds its chain: a device shown no view needs both to take the
    # seat over (its new chain is made for that side).
    held = "host" if observer in game.header["fair"]["held"] else "client"
    out: dict[str, Any] = {"side": observer, "chain": held}
    seat = game.seats.get(observer)
    if seat is None:
        return {"state": "free", **out}
    if device is None or seat.holder != device:
        return {"state": "taken", **out, "since": seat.since}
    visits = list(game.visits.get(observer, []))
    out |= {"state": "yours", "since": seat.since, "visits": visits}
    if seat.chain is not None:
        out |= {"anchor": seat.chain, "chain_from": seat.chain_from}
    if seat.signing is not None:
        # The first roll whose order this device's key signs (its seat taken over).
        out |= {"signing_from": seat.signing_from}
    return out


def public(game: LiveGame) -> dict[str, Any]:
    """Which seats are taken, since when: for the links page (any link of the game may ask)."""
    return {
        side: {"taken": side in game.seats, "since": getattr(game.seats.get(side), "since", None)}
        for side in game.state.sides
    }


class Seats:
    """Taking, moving and checking seats: the store that keeps them, the games they are of,
    and the fan-out that tells each page of its seat."""

    def __init__(self, store: EventStore, games: Games, fanout: FanOut) -> None:
        self.store, self.games, self.fanout = store, games, fanout

    async def refresh(self, game: LiveGame) -> None:
        """Read the seats again (another process may have seated a device)."""
        game.seats = await calls.stored(self.store.seats, game.game_id)

    async def check(
        self, game: LiveGame, observer: str, device: str | None, *, exact: bool = True
    ) -> None:
        """Refuse a device that does not hold the side's taken seat (the holder is told).

        Not ``exact``: a seat free here is taken as free without reading the store, for a
        command whose write checks the seat again in its own transaction (``Append.seat``):
        another process's device seated meanwhile makes that write fail, and the command's
        answer is then this check, exact."""
        if observer not in game.state.sides:
            return
        seat = game.seats.get(observer)
        stale = seat is not None or (self.store.shared and exact)
        if (seat is None or seat.holder != device) and stale:
            # Another process may have seated a device here, or moved this seat: only the store
            # knows. A seat free in a process that alone serves its store is free (every take
            # goes through it), so a script playing by token alone costs no read per command.
            await self.refresh(game)
            seat = game.seats.get(observer)
        if seat is None or seat.holder == device:
            return
        self.visited(game, observer)
        raise Refusal(
            SEAT_TAKEN,
            "Another device has taken this seat. Move it here with the code that device shows, "
            "or, if that device is lost, start a new dice chain on this one.",
        )

    def visited(self, game: LiveGame, observer: str) -> None:
        """Another device opened a taken seat's link: its holder is told at once."""
        visits = game.visits.setdefault(observer, [])
        visits.append(datetime.now(UTC).isoformat(timespec="seconds"))
        del visits[:-VISITS_KEPT]
        self.tell(game, observer)

    def tell(self, game: LiveGame, observer: str) -> None:
        """Push each watcher of ``observer`` its seat as it now stands; one whose device no
        longer holds it is told so and let go (its socket closes: it keeps nothing it may not)."""
        for watcher in list(game.watchers):
            if watcher.observer != observer:
                continue
            now = state(game, observer, watcher.device)
            self.fanout.send(game, watcher, SeatFrame(seat=now).frame())
            if now["state"] == "taken":
                self.fanout.let_go(game, watcher)

    async def take(
        self,
        game_id: str,
        observer: str,
        key: Any,
        watcher: Watcher | None = None,
        signing: Any = None,
    ) -> tuple[dict[str, Any], str]:
        """Take the side's seat for the device with ``key``, if it is free, with the key it
        signs its orders with (``signing``). Idempotent: the device that holds it gets the same
        answer again (and may give its signing key then, if it gave none). Returns the state
        and the device; ``watcher``, the connection asking, is that device from now on."""
        device = device_of(key)
        if device is None:
            raise Refusal(BAD_SEAT_KEY, "A seat key is 32 to 64 characters of lowercase hex.")
        public = signing_key(signing)
        game = await self.games.live(game_id)
        async with game.lock:
            if observer not in game.state.sides:
                raise Refusal(UNKNOWN_SIDE, "Only a side has a seat.")
            given = (public, _first_order(game, observer)) if public is not None else None
            seat = await calls.stored(self.store.take_seat, game_id, observer, device, given)
            _signs(game, observer, seat)
            game.seats[observer] = seat
            if watcher is not None and seat.holder == device:
                watcher.device = device
            self.tell(game, observer)
            return state(game, observer, device), device

    async def offer(self, game_id: str, observer: str, device: str | None) -> dict[str, Any]:
        """A one-time code that moves the seat held by ``device`` to another device."""
        game = await self.games.live(game_id)
        async with game.lock:
            await self.check(game, observer, device)
            if device is None or observer not in game.seats:
                raise Refusal(SEAT_TAKEN, "Take this seat first.")
            code = new_code()
            offered = token_hash(code)
            if not await calls.stored(self.store.offer_move, game_id, observer, device, offered):
                raise Refusal(SEAT_TAKEN, "Another device has taken this seat.")
            return {"code": code}

    async def move(
        self, game_id: str, observer: str, code: Any, key: Any, anchor: Any, signing: Any = None
    ) -> tuple[dict[str, Any], str]:
        """Take the seat over with the code its device shows, and this device's new chain (and
        the key it signs its orders with)."""
        device = device_of(key)
        public = signing_key(signing)
        typed = normal_code(code)
        if device is None:
            raise Refusal(BAD_SEAT_KEY, "A seat key is 32 to 64 characters of lowercase hex.")
        if typed is None:
            raise Refusal(BAD_MOVE_CODE, "That is not the code the seat's device shows.")
        game = await self.games.live(game_id)
        async with game.lock:
            fresh = _anchor(game, observer, anchor)
            from_k = _first_roll(game, observer)
            given = (public, _first_order(game, observer)) if public is not None else None
            seat = await calls.stored(
                self.store.move_seat,
                game_id,
                observer,
                token_hash(typed),
                device,
                fresh,
                from_k,
                given,
            )
            if seat is None:
                raise Refusal(BAD_MOVE_CODE, "That is not the code the seat's device shows.")
            self._seated(game, observer, seat)
            return state(game, observer, device), device

    async def new_chain(
        self, game_id: str, observer: str, key: Any, anchor: Any, signing: Any = None
    ) -> tuple[dict[str, Any], str]:
        """Take the seat of a lost device with a new dice chain (and a new signing key), from
        the next roll on. Refused while the holding device is online (it can show a move code
        instead)."""
        device = device_of(key)
        public = signing_key(signing)
        if device is None:
            raise Refusal(BAD_SEAT_KEY, "A seat key is 32 to 64 characters of lowercase hex.")
        game = await self.games.live(game_id)
        async with game.lock:
            fresh = _anchor(game, observer, anchor)
            if fresh is None:
                raise Refusal(BAD_CONTRIBUTION, "The host holds this side's dice chain.")
            await self.refresh(game)
            seat = game.seats.get(observer)
            if seat is not None and seat.holder != device and _online(game, observer, seat.holder):
                raise Refusal(
                    SEAT_IN_USE,
                    "The device holding this seat is online: move the seat from it with its code.",
                )
            from_k = _first_roll(game, observer)
            given = (public, _first_order(game, observer)) if public is not None else None
            seat = await calls.stored(
                self.store.new_chain, game_id, observer, device, fresh, from_k, given
            )
            self._seated(game, observer, seat)
            return state(game, observer, device), device

    def _seated(self, game: LiveGame, observer: str, seat: Seat) -> None:
        """A device took the seat over: the ledger (or, before the game starts, the anchors)
        learns its chain, every page is told, and the old device is let go."""
        game.seats[observer] = seat
        game.visits.pop(observer, None)  # the new device's own visit, and the old device's
        if seat.chain is not None and seat.chain_from is not None:
            if game.ledger is None:
                game.anchors[observer] = seat.chain
            else:
                game.ledger.new_chain(observer, seat.chain, seat.chain_from)
        _signs(game, observer, seat)
        self.tell(game, observer)
        self.fanout.push_status(game)


def restore(game: LiveGame) -> None:
    """A loaded game's ledger learns the new chains and signing keys whose first roll is
    still to come."""
    ledger = game.ledger
    for side, seat in game.seats.items():
        if ledger is None or side not in ledger.sides:
            continue
        chain, start = seat.chain, seat.chain_from
        if chain is not None and start is not None and start >= ledger.next_k:
            ledger.new_chain(side, chain, start)
        _signs(game, side, seat)


def _signs(game: LiveGame, side: str, seat: Seat) -> None:
    """The seat's signing key, if it has one the game does not know yet: the ledger's from
    its first roll on (recorded by that roll's event), or before the game starts, the one
    its set-up names."""
    if seat.signing is None or seat.signing_from is None:
        return
    ledger = game.ledger
    if ledger is None:
        game.keys[side] = seat.signing
    elif seat.signing not in (ledger.keys.get(side), ledger.seat_keys.fresh.get(side, ("", 0))[0]):
        ledger.new_key(side, seat.signing, max(seat.signing_from, ledger.next_k))


def _anchor(game: LiveGame, observer: str, anchor: Any) -> str | None:
    """The new chain's anchor, checked; None for a side whose chain the host holds."""
    if observer not in game.state.sides:
        raise Refusal(UNKNOWN_SIDE, "Only a side has a seat.")
    if observer in game.header["fair"]["held"]:
        return None
    if not isinstance(anchor, str) or not _HEX32.fullmatch(anchor):
        raise Refusal(BAD_CONTRIBUTION, "An anchor is 32 bytes in lowercase hex.")
    return anchor


def _first_order(game: LiveGame, side: str) -> int:
    """The first roll whose order a new signing key signs: the one asked for now, unless it
    is for an order of this very side (signed with the key before), then the next."""
    ledger = game.ledger
    if ledger is None:
        return 0
    pending = game.pending
    return ledger.next_k + (1 if pending is not None and pending.side == side else 0)


def _first_roll(game: LiveGame, side: str) -> int:
    """The first roll a new chain can give: the one asked for now, unless this side's
    element for it is in already (then the next)."""
    ledger = game.ledger
    if ledger is None:
        return 0
    pending = game.pending
    return ledger.next_k + (1 if pending is not None and side in pending.elements else 0)


def _online(game: LiveGame, observer: str, holder: str) -> bool:
    return any(w.observer == observer and w.device == holder for w in game.watchers)
