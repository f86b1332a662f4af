"""Each side's secrets as one fixed-size Merkle tree: one published root per side per event.

Every secret fact a side holds — one ``(piece, key)`` of a piece's secret part — is a leaf:
a salted commitment (``commit("fact", ...)``) to ``{"piece", "key", "value"}``. Leaves sit
in randomly chosen slots of a tree of ``2**DEPTH`` slots; the empty slots hold dummies derived
from a key the host keeps until the game ends, so nobody can tell them from real leaves.

After every event the host publishes, for every side, ``root = H(tag, game, side, seq,
tree root)``. The number of roots never changes, so the roots say nothing about how many
secrets there are or which of them changed (MegaMek #176 leaked force size that way). When a
rule reveals a piece, the host opens the revealed facts to the other sides: the leaf's salt
and value plus the path of sibling hashes up to the root published the event before, which
the receiving client checks at once (:func:`check_opening`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ghillie.fairness.commitment import commit
from ghillie.fairness.encoding import lp, sha256, tag, text, u32, u64

DEPTH = 10
SLOTS = 2**DEPTH


def _leaf(digest: bytes) -> bytes:
    return sha256(b"\x00", digest)


def _node(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01", left, right)


def dummy(dummy_key: bytes, side: str, slot: int) -> bytes:
    return sha256(tag("dummy/v1"), lp(dummy_key), text(side), u32(slot))


def published_root(game_id: str, side: str, seq: int, tree_root: bytes) -> str:
    return sha256(tag("roster/v1"), text(game_id), text(side), u64(seq), lp(tree_root)).hex()


def fact_payload(piece: str, key: str, value: Any) -> dict[str, Any]:
    return {"piece": piece, "key": key, "value": value}


@dataclass(frozen=True)
class Written:
    """Where and how one fact was committed (host-private until the game ends)."""

    piece: str
    key: str
    slot: int
    salt: str  # hex
    seq: int  # the event that wrote it

    def to_json(self) -> dict[str, Any]:
        return {
            "piece": self.piece,
            "key": self.key,
            "slot": self.slot,
            "salt": self.salt,
            "seq": self.seq,
        }


class Roster:
    """One side's tree, updated in place: a write costs DEPTH hashes."""

    def __init__(self, game_id: str, side: str, dummy_key: bytes) -> None:
        self.game_id = game_id
        self.side = side
        leaves = [_leaf(dummy(dummy_key, side, i)) for i in range(SLOTS)]
        self._levels = [leaves]
        while len(self._levels[-1]) > 1:
            below = self._levels[-1]
            self._levels.append([_node(below[i], below[i + 1]) for i in range(0, len(below), 2)])
        self.slots: dict[tuple[str, str], Written] = {}
        self.values: dict[tuple[str, str], Any] = {}

    def free_slot(self, choose: int) -> int:
        """The ``choose``-th free slot (``choose`` is random, from the host)."""
        used = {w.slot for w in self.slots.values()}
        free = [i for i in range(SLOTS) if i not in used]
        if not free:
            raise RuntimeError("this side has more secret facts than the roster holds")
        return free[choose % len(free)]

    def write(self, written: Written, value: Any) -> None:
        digest = bytes.fromhex(
            commit(
                "fact",
                self.game_id,
                self.side,
                written.seq,
                fact_payload(written.piece, written.key, value),
                bytes.fromhex(written.salt),
            )
        )
        self.slots[(written.piece, written.key)] = written
        self.values[(written.piece, written.key)] = value
        index = written.slot
        self._levels[0][index] = _leaf(digest)
        for level in range(1, DEPTH + 1):
            index //= 2
            below = self._levels[level - 1]
            self._levels[level][index] = _node(below[2 * index], below[2 * index + 1])

    def root(self, seq: int) -> str:
        return published_root(self.game_id, self.side, seq, self._levels[-1][0])

    def opening(self, piece: str, key: str, root_seq: int) -> dict[str, Any]:
        """Everything a client needs to check one fact against the root of ``root_seq``."""
        written = self.slots[(piece, key)]
        path = []
        index = written.slot
        for level in range(DEPTH):
            path.append(self._levels[level][index ^ 1].hex())
            index //= 2
        return {
            "side": self.side,
            "piece": piece,
            "key": key,
            "value": self.values[(piece, key)],
            "seq": written.seq,
            "salt": written.salt,
            "slot": written.slot,
            "path": path,
            "root_seq": root_seq,
        }


def check_opening(game_id: str, opening: dict[str, Any], root: str) -> bool:
    """Does ``opening`` lead to the published ``root``?"""
    try:
        digest = bytes.fromhex(
            commit(
                "fact",
                game_id,
                opening["side"],
                opening["seq"],
                fact_payload(opening["piece"], opening["key"], opening["value"]),
                bytes.fromhex(opening["salt"]),
            )
        )
        node = _leaf(digest)
        index = opening["slot"]
        if not 0 <= index < SLOTS or len(opening["path"]) != DEPTH:
            return False
        for sibling in opening["path"]:
            other = bytes.fromhex(sibling)
            node = _node(other, node) if index & 1 else _node(node, other)
            index //= 2
        return published_root(game_id, opening["side"], opening["root_seq"], node) == root
    except (KeyError, TypeError, ValueError, OverflowError):  # e.g. a seq u64() cannot hold
        return False
