"""Each side's secrets as a fixed number of blinded leaves: one published root per side per
event, and openings that tell nothing but the opened fact (roster v3, protocol version 4).

Every secret fact a side holds — one ``(piece, key)`` of a piece's secret part — is a salted
commitment ``C`` (``commit("fact", ...)``) to ``{"piece", "key", "value"}``, kept in one of
the roster's ``size`` slots (the size comes from the scenario,
:mod:`ghillie.fairness.capacity`); an empty slot holds a fixed filler. Slot ``i`` is the
leaf ``H(tag, blind, C_i)`` under a blinding value drawn for that slot from a key the host
keeps until the game ends; the leaves are kept sorted. Each event ``s`` publishes

    root(s) = H(tag, game, side, s, size, nonce(s), H(sorted leaves))

where ``nonce(s)`` is drawn for that event from the same key. So a root never repeats and
says nothing, whether or not any leaf changed: nobody can hash a candidate leaf list into
it without that event's nonce.

The leaves themselves are shown only in an opening (every leaf of the root published the
event before, with that root's nonce) and in the proof of when a fixed fact was written
(every leaf of the root of its write event). Two shown lists must share no leaf, or the
leaves they share would tell which slots did *not* change between them (a covert move from
a bluff, SW-R36). Version 2 blinded every leaf afresh at every event, which costs a hash per
slot per side per event; version 3 keeps the leaves between events and blinds afresh only
where a list can be shown:

- a slot written (or emptied) at event ``s`` gets a leaf under a blinding value of ``s``;
- every slot is blinded afresh at event ``s`` (``reblind``) when ``s`` opens one of the
  side's facts (so the list of ``s − 1`` it shows is never seen again), and when ``s − 1``
  wrote a fixed fact (so the list of that write, which its openings will show, is never
  seen again either). Both are public: an opening is shown, and a fixed fact is written
  only by events whose nature everyone sees (``Ruleset.fixed_secrets``).

The sorted order says nothing of which slot a fact sits in, nor how many slots are real.

Facts are committed with seq 0, so an opening does not tell when its fact was written. For
the facts a ruleset declares fixed once written (an ambush's square, what a marker hides),
every opening carries ``written``: the blinding value, nonce and leaves of the root of the
event ``W`` that wrote it. Writing such a fact a second time is a bug (:class:`FixedRewrite`).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import hmac
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ghillie.fairness.commitment import commit_digest, commit_head
from ghillie.fairness.encoding import canonical, lp, sha256, tag, text, u32, u64

HASH = 32
_LEAF = tag("leaf/v3")
_EMPTY = sha256(tag("empty/v2"))
_LEAVES = tag("leaves/v3")
_ROSTER = tag("roster/v3")
_BLIND = tag("blind/v3")
_NONCE = tag("nonce/v3")
_LEAF_BLIND = _LEAF + u32(HASH)  # a leaf's input up to its blinding value: lp(blind)[:4]


def nonce(dummy_key: bytes, side: str, seq: int) -> bytes:
    """The nonce of ``side``'s root at event ``seq``: secret until an opening shows it."""
    return sha256(_NONCE, lp(dummy_key), text(side), u64(seq))


def leaf(blind_: bytes, digest: bytes) -> bytes:
    return sha256(_LEAF, lp(blind_), lp(digest))


def leaves_hash(joined: bytes | bytearray) -> bytes:
    """The hash of a sorted leaf list, its leaves joined."""
    return sha256(_LEAVES, joined)


def root_of(game_id: str, side: str, seq: int, size: int, nonce_: bytes, hashed: bytes) -> str:
    return sha256(
        _ROSTER, text(game_id), text(side), u64(seq), u32(size), lp(nonce_), lp(hashed)
    ).hex()


def published_root(game_id: str, side: str, seq: int, nonce_: bytes, leaves: list[bytes]) -> str:
    return root_of(game_id, side, seq, len(leaves), nonce_, leaves_hash(b"".join(leaves)))


def fact_payload(piece: str, key: str, value: Any) -> dict[str, Any]:
    return {"piece": piece, "key": key, "value": value}


def fact_digest(game_id: str, side: str, piece: str, key: str, value: Any, salt: str) -> bytes:
    return side_fact_digest(fact_named(game_id, side), piece, key, value, salt)


def fact_named(game_id: str, side: str) -> bytes:
    """What names every fact ``side`` commits to (:func:`commitment.commit_digest`). Committed
    with seq 0, not the write's event: an opening must not tell when a secret last changed (a
    sniper's true marker moved covertly, say)."""
    return commit_head("fact", game_id) + text(side) + u64(0)


def side_fact_digest(named: bytes, piece: str, key: str, value: Any, salt: str) -> bytes:
    """:func:`fact_digest`, its side's :func:`fact_named` prepared (a roster's writes)."""
    return commit_digest(named, canonical(fact_payload(piece, key, value)), bytes.fromhex(salt))


# slots=True on the writes and the lists shown: a live game holds dozens of them
# (benchmarks/memory.py --part served), and a __dict__ costs about 40 bytes each.
@dataclass(frozen=True, slots=True)
class Written:
    """Where and how one fact was committed (host-private until the game ends)."""

    piece: str
    key: str
    slot: int
    salt: str  # hex
    seq: int  # always 0 since roster v2; kept in the record's format

    def to_json(self) -> dict[str, Any]:
        return {
            "piece": self.piece,
            "key": self.key,
            "slot": self.slot,
            "salt": self.salt,
            "seq": self.seq,
        }


class RosterFull(Exception):
    """A side would hold more secret facts than its roster has slots (the scenario's bound
    was wrong): the command is refused before anything is asked or sealed."""


class FixedRewrite(ValueError):
    """A fact the ruleset declares fixed once written (``Ruleset.fixed_secrets``) is written
    again: a bug in the rules, never a refusal. Its openings would prove a write event
    after which it changed."""


@dataclass(frozen=True, slots=True)
class _Shown:
    """One root's leaves as a proof shows them: its event, nonce and sorted leaves joined
    (one bytes object, shared by every fixed fact one event wrote for the side)."""

    seq: int
    nonce: bytes
    leaves: bytes


class Roster:
    """One side's slots. An event that writes nothing costs two short hashes (its nonce and
    its root); a write one leaf and the hash of the sorted list; blinding afresh one leaf
    per slot."""

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
        # The parts of every nonce's and every root's input that never change (this runs for
        # every side at every event: two short hashes, without rebuilding their prefixes).
        self._nonce_head = _NONCE + lp(dummy_key) + text(side)
        self._blind_head = hashlib.sha256(_BLIND + lp(dummy_key) + text(side)).copy
        self._root_head = _ROSTER + text(game_id) + text(side)
        self._root_size = u32(size)
        self._fact_named = fact_named(game_id, side)
        self._digests = [_EMPTY] * size  # each slot's commitment (the filler when empty)
        self._blind_seq = [0] * size  # the event each slot's blinding value was drawn for
        # Each slot's leaf, and the leaves sorted: 32 bytes each, one after another in one
        # buffer apiece, not one bytes object a leaf (65 bytes and a list's pointer each; a
        # live game holds two rosters of some 128 slots: benchmarks/memory.py). The sorted
        # buffer is hashed and shown as it stands, without a join. Every slot starts empty,
        # blinded for event 0.
        self._leaf = bytearray()
        self._sorted = bytearray()
        self._blind_afresh(0)
        self._hashed: bytes | None = None  # the hash of the sorted list, while unchanged
        self.slots: dict[tuple[str, str], Written] = {}
        self.values: dict[tuple[str, str], Any] = {}
        # Each fixed fact's proof of its write: its blinding value then, and that root.
        self.written_at: dict[tuple[str, str], tuple[bytes, _Shown]] = {}
        self._unsealed: list[tuple[str, str]] = []  # fixed facts written, event not sealed
        self._blinded_for = -1  # the event every leaf was last blinded afresh for
        # After an event that wrote a fixed fact: its blinding events and its list, for
        # openings against its root (the leaves are blinded afresh already).
        self._before: tuple[list[int], _Shown] | None = None
        self._seq = -1  # the last event sealed

    def _blind(self, seq: int, slot: int) -> bytes:
        """The blinding value drawn at event ``seq`` for ``slot``: ``H(tag("blind/v3") +
        lp(roster key) + text(side) + u64(seq) + u32(slot))``, its prefix hashed once
        (blinding afresh takes one a slot)."""
        h = self._blind_head()
        h.update(u64(seq) + u32(slot))
        return h.digest()

    def free_slot(self, choose: int) -> int:
        """The ``choose``-th free slot (``choose`` is random, from the host)."""
        used = {w.slot for w in self.slots.values()}
        free = [i for i in range(self.size) if i not in used]
        if not free:
            raise RosterFull(self.side)
        return free[choose % len(free)]

    def _set(self, slot: int, digest: bytes, seq: int) -> None:
        """Slot ``slot`` holds ``digest`` from event ``seq`` on, under a blinding value of
        that event: one leaf out of the sorted list, one in."""
        at = slot * HASH
        sorted_ = self._sorted
        gone = _found(sorted_, self._leaf[at : at + HASH])
        self._digests[slot] = digest
        self._blind_seq[slot] = seq
        # _blind() and leaf(), inlined: a write's share of a command.
        h = self._blind_head()
        h.update(u64(seq) + u32(slot))
        new = hashlib.sha256(_LEAF_BLIND + h.digest() + lp(digest)).digest()
        self._leaf[at : at + HASH] = new
        # The old leaf out and the new one in, the leaves between moving up or down by one:
        # the buffer keeps its length (never grown, so never given room to spare).
        into = _rank(sorted_, new, self.size) * HASH  # counting the old leaf, if before
        if into > gone:
            into -= HASH
            sorted_[gone:into] = sorted_[gone + HASH : into + HASH]
        elif into < gone:
            sorted_[into + HASH : gone + HASH] = sorted_[into:gone]
        sorted_[into : into + HASH] = new
        self._hashed = None

    def write(self, written: Written, value: Any, seq: int) -> None:
        """Event ``seq`` writes ``value`` into ``written``'s slot."""
        if not 0 <= written.slot < self.size:
            raise ValueError(f"slot {written.slot} is outside a roster of {self.size}")
        fact = (written.piece, written.key)
        if written.key in self.fixed and fact in self.slots:
            raise FixedRewrite(
                f"{self.side}'s {written.key} of {written.piece} never changes once written, "
                "and is written again"
            )
        digest = side_fact_digest(self._fact_named, written.piece, written.key, value, written.salt)
        self.slots[fact] = written
        self.values[fact] = value
        self._set(written.slot, digest, seq)
        if written.key in self.fixed:
            self._unsealed.append(fact)

    def forget(self, piece: str, seq: int) -> None:
        """A removed piece's facts leave the roster at event ``seq``; their slots hold the
        filler again."""
        for fact in [f for f in self.slots if f[0] == piece]:
            self._set(self.slots.pop(fact).slot, _EMPTY, seq)
            del self.values[fact]
            self.written_at.pop(fact, None)
        self._unsealed = [f for f in self._unsealed if f[0] != piece]

    def seal(self, seq: int, opened: bool) -> str:
        """Event ``seq``'s writes and removals are in: its root. ``opened``: the event opens
        one of this side's facts (its openings show the leaves of ``seq − 1``)."""
        if opened and self._blinded_for != seq:
            # The list shown is never seen again: every leaf anew.
            self._blind_afresh(seq)
        root = self.root(seq)
        facts = [f for f in self._unsealed if f in self.slots]
        self._unsealed = []
        self._before = None
        if facts:
            shown = self._shown(seq)
            for fact in facts:
                slot = self.slots[fact].slot
                self.written_at[fact] = (self._blind(self._blind_seq[slot], slot), shown)
            # Its openings will show this list: blinded afresh now, for the next event. The
            # cost (a hash a slot) falls on this event, whose side knows what it wrote, not
            # on the next, whoever gives it: its time must not tell that a fixed fact was
            # written. Openings against this root, at the next event, use what it was.
            self._before = (self._blind_seq, shown)
            self._blind_afresh(seq + 1)
            self._leaves_hash()  # as any event leaves it: hashed
        self._seq = seq
        return root

    def _blind_afresh(self, seq: int) -> None:
        at, blind_head, digests = u64(seq), self._blind_head, self._digests
        leaves = []
        for i in range(self.size):
            # _blind() and leaf(), inlined: every slot, at every opening.
            h = blind_head()
            h.update(at + u32(i))
            leaves.append(hashlib.sha256(_LEAF_BLIND + h.digest() + lp(digests[i])).digest())
        self._leaf = bytearray().join(leaves)
        self._sorted = bytearray().join(sorted(leaves))
        self._blind_seq = [seq] * self.size
        self._blinded_for = seq
        self._hashed = None

    def _leaves_hash(self) -> bytes:
        if self._hashed is None:
            self._hashed = leaves_hash(self._sorted)
        return self._hashed

    def root(self, seq: int) -> str:
        """The root of event ``seq`` over the leaves as they stand (:func:`root_of`)."""
        at = u64(seq)
        nonce_ = hashlib.sha256(self._nonce_head + at).digest()
        joined = self._root_head + at + self._root_size + lp(nonce_) + lp(self._leaves_hash())
        return hashlib.sha256(joined).hexdigest()

    def _shown(self, seq: int) -> _Shown:
        return _Shown(seq, nonce(self._dummy_key, self.side, seq), bytes(self._sorted))

    def opening(self, piece: str, key: str, root_seq: int) -> dict[str, Any]:
        """Everything a client needs to check one fact against the root of ``root_seq``,
        the last event sealed (call it before the opening event's writes), and for a fixed
        fact against the root of the event that wrote it too (``written``)."""
        if root_seq != self._seq:
            raise ValueError(f"an opening is against the root of event {self._seq}")
        written = self.slots[(piece, key)]
        slot = written.slot
        blind_seq, shown = self._before or (self._blind_seq, self._shown(root_seq))
        out: dict[str, Any] = {
            "side": self.side,
            "piece": piece,
            "key": key,
            "value": self.values[(piece, key)],
            "salt": written.salt,
            "blind": self._blind(blind_seq[slot], slot).hex(),
            **_proof(shown),
        }
        out["root_seq"] = out.pop("seq")
        if key in self.fixed:
            # By key alone: every opening of a fixed key has it, whatever its value.
            blind_, shown = self.written_at[(piece, key)]
            out["written"] = {"blind": blind_.hex(), **_proof(shown)}
        return out


def _found(joined: bytearray, leaf_: bytes | bytearray) -> int:
    """The offset of ``leaf_`` among the leaves ``joined``, 32 bytes each: a search in C, and
    a match across two leaves (never, but possible) passed over."""
    at = joined.find(leaf_)
    while at % HASH and at != -1:
        at = joined.find(leaf_, at + 1)
    return at


def _rank(joined: bytearray, leaf_: bytes, size: int) -> int:
    """How many of the sorted leaves ``joined`` (at most ``size``) sort before ``leaf_``:
    bisect_left over the leaves in place, each read through a slice made once (a C call a
    step, not a Python function's)."""
    # (A slice of a bytearray is a bytearray, which compares with bytes as bytes do.)
    read = cast("Callable[[slice], bytes]", joined.__getitem__)
    return bisect.bisect_left(_slices(size), leaf_, 0, len(joined) // HASH, key=read)


@functools.cache
def _slices(size: int) -> tuple[slice, ...]:
    """Where each of ``size`` leaves lies in a buffer of them (shared by every roster of that
    size: a process sees a few sizes, each a power of two)."""
    return tuple(slice(i * HASH, (i + 1) * HASH) for i in range(size))


def _proof(shown: _Shown) -> dict[str, Any]:
    joined = shown.leaves
    return {
        "seq": shown.seq,
        "nonce": shown.nonce.hex(),
        "leaves": [joined[i : i + HASH].hex() for i in range(0, len(joined), HASH)],
    }


def check_opening(
    game_id: str,
    opening: dict[str, Any],
    root: str,
    size: int,
    written_root: str | None = None,
) -> bool:
    """Does ``opening`` lead to the published ``root`` of a roster of ``size`` slots? An
    opening that says when its fact was written (``written``) must also lead, with the same
    fact, to ``written_root``, the root published at that event, which is no later than
    ``root_seq``."""
    return checks(game_id, opening, root, size, written_root, V3)


@dataclass(frozen=True)
class Rules:
    """How an opening of one roster version is checked: its fields, the fields of its
    proof of a write, and the leaf and the root its leaves (and nonce) make."""

    fields: frozenset[str]
    written: frozenset[str]
    leaf: Callable[[bytes, bytes], bytes]
    root: Callable[[str, str, int, dict[str, Any], list[bytes]], str | None]


def checks(
    game_id: str,
    opening: dict[str, Any],
    root: str,
    size: int,
    written_root: str | None,
    rules: Rules,
) -> bool:
    """:func:`check_opening` by the ``rules`` of a roster version."""
    try:
        fields = set(opening)
        if fields != rules.fields and fields != rules.fields | {"written"}:
            return False
        root_seq = opening["root_seq"]
        if type(root_seq) is not int:
            return False  # a bool is not an event, nor a float (as fair.js reads them)
        digest = fact_digest(
            game_id,
            opening["side"],
            opening["piece"],
            opening["key"],
            opening["value"],
            opening["salt"],
        )
        if not _leads(game_id, opening, digest, root_seq, opening, root, size, rules):
            return False
        if "written" not in opening:
            return True
        written = opening["written"]
        if not isinstance(written, dict) or set(written) != rules.written:
            return False
        seq = written["seq"]
        if type(seq) is not int or not 0 <= seq <= root_seq or written_root is None:
            return False
        return _leads(game_id, opening, digest, seq, written, written_root, size, rules)
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError):
        return False


def _leads(
    game_id: str,
    opening: dict[str, Any],
    digest: bytes,
    seq: int,
    proof: dict[str, Any],
    root: str,
    size: int,
    rules: Rules,
) -> bool:
    """Is the fact's leaf under ``proof``'s blinding value among its leaves, and do they
    hash (with its nonce, where the version has one) to ``root``, the root of event
    ``seq``?"""
    blind_ = bytes.fromhex(proof["blind"])
    leaves = [bytes.fromhex(x) for x in proof["leaves"]]
    if len(blind_) != HASH or len(leaves) != size or any(len(x) != HASH for x in leaves):
        return False
    if any(a >= b for a, b in itertools.pairwise(leaves)):
        return False  # sorted, no repeats: one list for one root
    if rules.leaf(blind_, digest) not in leaves:
        return False
    again = rules.root(game_id, opening["side"], seq, proof, leaves)
    return again is not None and hmac.compare_digest(again, root)


def _root_v3(game_id: str, side: str, seq: int, proof: dict[str, Any], leaves: list[bytes]) -> str:
    nonce_ = bytes.fromhex(proof["nonce"])
    return published_root(game_id, side, seq, nonce_, leaves) if len(nonce_) == HASH else ""


V3 = Rules(
    frozenset(("side", "piece", "key", "value", "salt", "blind", "root_seq", "nonce", "leaves")),
    frozenset(("seq", "blind", "nonce", "leaves")),
    leaf,
    _root_v3,
)
