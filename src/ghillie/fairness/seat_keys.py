"""A side's seat key and the orders it signs: the public key each side's orders for a roll
must be signed with (none: the host gives them, "host-acted"), a new one from the roll its
event records (a seat taken, moved or taken over), and an order as the ledger keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Order:
    """A command as its side's seat key signed it (hashlog.order_message): the command id,
    the command exactly as sent, and the signature. Host-private until the game ends."""

    command_id: str
    command: Mapping[str, Any]
    sig: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.command_id, "command": dict(self.command), "sig": self.sig}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Order:
        return cls(data["id"], data["command"], data["sig"])


class SeatKeys:
    def __init__(self, sides: tuple[str, ...], keys: Mapping[str, str | None] | None) -> None:
        self.sides = sides
        # Each side's seat key: its orders must carry its signature (None: "host-acted").
        self.keys: dict[str, str | None] = {side: (keys or {}).get(side) for side in sides}
        # A side's new seat key (a seat taken, moved or taken over) and the roll from which
        # its orders are signed with it, until that event is sealed and records it.
        self.fresh: dict[str, tuple[str, int]] = {}

    def new_key(self, side: str, key: str, from_k: int, next_k: int) -> None:
        """``side``'s orders from roll ``from_k`` on are signed with seat key ``key``
        (``next_k``: the roll asked for now, the first a new key may start at). Before event
        0 is sealed it is simply the side's key in the set-up; later, the event ``from_k``
        records it (``fair.keys``), and every order from that event on must carry its
        signature."""
        if side not in self.sides:
            raise ValueError(f"{side} is no side of this game")
        if from_k < next_k:
            raise ValueError(f"roll {from_k} is over: a new key starts with a later one")
        if from_k == 0:
            self.keys[side] = key
            self.fresh.pop(side, None)
        else:
            self.fresh[side] = (key, from_k)

    def key_for(self, side: str, k: int) -> str | None:
        """The seat key ``side``'s order for roll ``k`` must be signed with (None: none)."""
        fresh = self.fresh.get(side)
        if fresh is not None and fresh[1] <= k:
            return fresh[0]
        return self.keys.get(side)

    def starting(self, k: int) -> dict[str, str]:
        """The new seat keys from roll ``k`` on, by side (recorded in that event's
        ``fair.keys``)."""
        return {s: key for s, (key, at) in sorted(self.fresh.items()) if at == k}

    def sealed(self, keys: Mapping[str, str]) -> None:
        """The event that records ``keys`` is sealed: each is its side's key from now on."""
        for side, key in keys.items():
            self.keys[side] = key
            self.fresh.pop(side, None)
