"""Rosters v2 (protocol versions 2 and 3), kept to audit the records written then: each
side's secrets as a fixed number of leaves, blinded afresh for every event; one published
root per side per event, and openings that tell nothing but the opened fact. Games of
protocol 4 use :mod:`ghillie.fairness.roster`, which re-blinds only where leaves can be shown.

Every secret fact a side holds — one ``(piece, key)`` of a piece's secret part — is a salted
commitment ``C`` (``commit("fact", ...)``) to ``{"piece", "key", "value"}``, kept in one of
the roster's ``size`` slots (the size comes from the scenario, :mod:`ghillie.fairness.capacity`);
an empty slot holds a fixed filler. For event ``s`` every slot ``i`` becomes a leaf
``H(tag, blind(s, i), C_i)``, with a blinding value drawn for that event and slot from a key
the host keeps until the game ends; the leaves are sorted and the published root hashes them
all. Because every leaf is blinded anew at every event:

- the roots and the leaves of two events share nothing, whether or not any secret changed
  between them (a real covert move and a bluff look the same, SW-R36);
- the sorted order says nothing of which slot a fact sits in, nor how many slots are real.

When a rule reveals a piece, the host opens the revealed facts to the other sides: the
fact's value and salt, its blinding value, and the sorted leaves of the root published the
event before. The receiving page checks it at once (:func:`check_opening`): the fact's leaf
is among them and they hash to the root. An opening carries every leaf of that root, so its
size is fixed by the scenario and two openings of one event carry the same leaves: nothing
in them depends on where the facts sit. (A Merkle path would be shorter, but two paths of
one tree share the nodes above where they meet, and where they meet depends on the slots:
docs/fairness.md.)

Facts are committed with seq 0, so an opening does not tell when its fact was written. For
the facts a ruleset declares fixed once written (``Ruleset.fixed_secrets``: an ambush's
square, what a marker hides), the event that wrote it is public anyway, and a side wants it
proved: that the square was fixed before it moved. The roster keeps, for each such fact, its
blinding value at the event ``W`` that wrote it and the sorted leaves of ``W``'s root, and
every opening of it carries them as ``written``: the same leaf, among the leaves of the root
published at ``W`` (:func:`check_opening` with that root). Whether an opening carries
``written`` depends on its key alone, never on a value. Writing such a fact a second time is
a bug (:class:`FixedRewrite`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ghillie.fairness.encoding import lp, sha256, tag, text, u32, u64
from ghillie.fairness.roster import FixedRewrite, RosterFull, Rules, Written, checks, fact_digest

HASH = 32
_LEAF = tag("leaf/v2")
_EMPTY = sha256(tag("empty/v2"))
_LEAF_HEAD = _LEAF + u32(HASH)  # = _LEAF + lp(blind) up to the blind itself
_LEAF_MID = u32(HASH)
# The hash state after _LEAF_HEAD, copied for every leaf: one copy and two updates cost less
# than joining the leaf's bytes first (about 80 µs a root of 128 slots against 98).
_LEAF_STATE = hashlib.sha256(_LEAF_HEAD)
_EMPTY_TAIL = _LEAF_MID + _EMPTY


def blind_stream(dummy_key: bytes, side: str, seq: int, size: int) -> bytes:
    """Event ``seq``'s blinding values, slot by slot, 32 bytes each: one SHAKE256 stream."""
    stream = hashlib.shake_256(tag("blind/v2") + lp(dummy_key) + text(side) + u64(seq))
    return stream.digest(HASH * size)


def leaf(blind: bytes, digest: bytes) -> bytes:
    return sha256(_LEAF, lp(blind), lp(digest))


def published_root(game_id: str, side: str, seq: int, leaves: list[bytes]) -> str:
    return _root(game_id, side, seq, b"".join(leaves))


def _root(game_id: str, side: str, seq: int, joined: bytes) -> str:
    """The root over sorted leaves joined in one bytes object (one hash of one buffer:
    this runs for every side at every event)."""
    head = tag("roster/v2") + text(game_id) + text(side) + u64(seq) + u32(len(joined) // HASH)
    return hashlib.sha256(head + joined).hexdigest()


@dataclass(frozen=True)
class _WrittenAt:
    """Host-private: the event that wrote a fixed fact, its blinding value then and the
    sorted leaves of that event's root, joined (one bytes object, shared by every fixed fact
    the event wrote for the side: ``32 × size`` bytes)."""

    seq: int
    blind: bytes
    leaves: bytes

    def to_json(self) -> dict[str, Any]:
        leaves = self.leaves
        return {
            "seq": self.seq,
            "blind": self.blind.hex(),
            "leaves": [leaves[i : i + HASH].hex() for i in range(0, len(leaves), HASH)],
        }


class Roster:
    """One side's slots. A write costs one hash; each event's root costs ``size`` + 1."""

    def __init__(
        self,
        game_id: str,
        side: str,
        dummy_key: bytes,
        size: int,
        fixed: frozenset[str] = frozenset(),
    ) -> None:
        """``fixed``: the keys whose facts never change once written (the ruleset's
        ``fixed_secrets``); their openings prove the event that wrote them."""
        self.game_id = game_id
        self.side = side
        self.size = size
        self.fixed = fixed
        self._dummy_key = dummy_key
        # Each slot's commitment, as the end of its leaf's input (lp(digest)): the part of a
        # leaf that changes only when the slot is written, not at every event.
        self._tails = [_EMPTY_TAIL] * size
        self.slots: dict[tuple[str, str], Written] = {}
        self.values: dict[tuple[str, str], Any] = {}
        self.written_at: dict[tuple[str, str], _WrittenAt] = {}
        self._unsealed: list[tuple[str, str]] = []  # fixed facts written, event not sealed
        # One event's blinding values and sorted leaves, each joined in one bytes object
        # (two 4 KB objects at 128 slots, not 256 small ones: kept in every live game).
        self._cached: tuple[int, bytes, bytes] | None = None

    def free_slot(self, choose: int) -> int:
        """The ``choose``-th free slot (``choose`` is random, from the host)."""
        used = {w.slot for w in self.slots.values()}
        free = [i for i in range(self.size) if i not in used]
        if not free:
            raise RosterFull(self.side)
        return free[choose % len(free)]

    def write(self, written: Written, value: Any, seq: int = 0) -> None:
        if not 0 <= written.slot < self.size:
            raise ValueError(f"slot {written.slot} is outside a roster of {self.size}")
        fact = (written.piece, written.key)
        if written.key in self.fixed and fact in self.slots:
            raise FixedRewrite(
                f"{self.side}'s {written.key} of {written.piece} never changes once written, "
                "and is written again"
            )
        digest = fact_digest(
            self.game_id, self.side, written.piece, written.key, value, written.salt
        )
        self.slots[fact] = written
        self.values[fact] = value
        self._tails[written.slot] = _LEAF_MID + digest
        self._cached = None
        if written.key in self.fixed:
            self._unsealed.append(fact)

    def sealed(self, seq: int) -> None:
        """Event ``seq`` is sealed (call it once the event's writes and removals are in):
        each fixed fact it wrote keeps its blinding value and the leaves of this root."""
        facts = [f for f in self._unsealed if f in self.slots]
        self._unsealed = []
        if not facts:
            return
        blind, joined = self._leaves(seq)
        for fact in facts:
            self.written_at[fact] = _WrittenAt(seq, _at(blind, self.slots[fact].slot), joined)

    def seal(self, seq: int, opened: bool) -> str:
        """Event ``seq``'s writes and removals are in: its root (every leaf blinded anew, so
        ``opened`` changes nothing here)."""
        root = self.root(seq)
        self.sealed(seq)
        return root

    def forget(self, piece: str, seq: int = 0) -> None:
        """A removed piece's facts leave the roster; their slots hold the filler again."""
        for fact in [f for f in self.slots if f[0] == piece]:
            self._tails[self.slots.pop(fact).slot] = _EMPTY_TAIL
            del self.values[fact]
            self.written_at.pop(fact, None)
        self._unsealed = [f for f in self._unsealed if f[0] != piece]
        self._cached = None

    def _leaves(self, seq: int) -> tuple[bytes, bytes]:
        """Event ``seq``'s blinding values (by slot) and sorted leaves, each joined, for
        what is written now (asked for at most twice an event: its root, then the next
        event's openings)."""
        if self._cached is None or self._cached[0] != seq:
            raw = blind_stream(self._dummy_key, self.side, seq, self.size)
            # leaf() inlined: this runs for every slot of every side at every event.
            leaves = []
            for offset, tail in zip(range(0, len(raw), HASH), self._tails, strict=True):
                h = _LEAF_STATE.copy()
                h.update(raw[offset : offset + HASH])
                h.update(tail)
                leaves.append(h.digest())
            leaves.sort()
            self._cached = (seq, raw, b"".join(leaves))
        return self._cached[1], self._cached[2]

    def root(self, seq: int) -> str:
        return _root(self.game_id, self.side, seq, self._leaves(seq)[1])

    def opening(self, piece: str, key: str, root_seq: int) -> dict[str, Any]:
        """Everything a client needs to check one fact against the root of ``root_seq``
        (call it while the roster still holds what it held at ``root_seq``), and for a
        fixed fact against the root of the event that wrote it too (``written``)."""
        written = self.slots[(piece, key)]
        blind, leaves = self._leaves(root_seq)
        out: dict[str, Any] = {
            "side": self.side,
            "piece": piece,
            "key": key,
            "value": self.values[(piece, key)],
            "salt": written.salt,
            "blind": _at(blind, written.slot).hex(),
            "root_seq": root_seq,
            "leaves": [_at(leaves, i).hex() for i in range(len(leaves) // HASH)],
        }
        if key in self.fixed:
            # By key alone: every opening of a fixed key has it, whatever its value.
            out["written"] = self.written_at[(piece, key)].to_json()
        return out


def _at(joined: bytes, i: int) -> bytes:
    """The ``i``-th 32-byte value of a joined run of them."""
    return joined[i * HASH : (i + 1) * HASH]


def check_opening(
    game_id: str,
    opening: dict[str, Any],
    root: str,
    size: int,
    written_root: str | None = None,
) -> bool:
    """Does ``opening`` (of protocol 2 or 3) lead to the published ``root`` of a roster of
    ``size`` slots, and (``written``) to ``written_root`` too? As
    :func:`ghillie.fairness.roster.check_opening`, by version 2's leaves and roots."""
    return checks(game_id, opening, root, size, written_root, V2)


V2 = Rules(
    frozenset(("side", "piece", "key", "value", "salt", "blind", "root_seq", "leaves")),
    frozenset(("seq", "blind", "leaves")),
    leaf,
    lambda game_id, side, seq, _, leaves: published_root(game_id, side, seq, leaves),
)
