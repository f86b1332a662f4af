"""The log's head, and what the host signs along it: each roll's request, which follows the
head, and each event's head once the event is hashed into the log.

A request is derived, not drawn (from the host's seed, the roll and the command): asking
again for the same command gets the same request. An event is sealed first and finished
later (hashed, each side's view of it digested, the head signed), on the server's writer
thread just before it is written; no request follows an unfinished event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ghillie.events import Event, event_to_json
from ghillie.fairness.commitment import commit_after, commit_head
from ghillie.fairness.encoding import as_is, canonical, lp, tag, u64
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message_v2,
    request_message,
    shown_content,
    shown_digest_v2,
    shown_salt,
)


@dataclass(frozen=True)
class Request:
    """The host asks every party for roll ``k``; ``commitment`` binds the command."""

    k: int
    side: str | None
    commitment: str
    prev: str  # hex hash of the log head the request follows
    sig: str
    salt: str  # host-private until the game ends
    payload: Any  # host-private: what is committed to
    # The digest of the signature the side gave its command with (hashlog.order_digest):
    # "" for the host's own commands and for a side with no key ("host-acted").
    order: str = ""

    def public(self, game_id: str) -> dict[str, Any]:
        return {
            "game": game_id,
            "k": self.k,
            "side": self.side,
            "commitment": self.commitment,
            "prev": self.prev,
            "order": self.order,
            "sig": self.sig,
        }


class Heads:
    def __init__(self, game_id: str, key: HostKey, host_seed: bytes, dummy: bytes) -> None:
        self.game_id = game_id
        self.key = key
        self.dummy = dummy
        self.head = genesis(game_id)
        self._request_head = commit_head("request", game_id)
        self._salt_head = tag("request-salt/v1") + lp(host_seed)
        # The event sealed and not yet hashed and signed (finish), with the head before it.
        self._unfinished: tuple[int, bytes] | None = None

    def request(self, k: int, side: str | None, payload: Any, sign: bool, order: str) -> Request:
        """Ask for roll ``k`` for ``payload``, following the head (signed unless ``sign`` is
        False; ``order``: the digest of the side's signed command, or "")."""
        if self._unfinished is not None:
            raise RuntimeError("the last event is not finished: its hash is the next head")
        # Derived, not drawn: asking again for the same command gets the same request, so a
        # retry after a crash is not a second request, and a trial run sees the real dice.
        said = canonical(payload)
        salt = hashlib.sha256(self._salt_head + u64(k) + lp(said)).digest()
        commitment = commit_after(self._request_head, side or "", k, said, salt)
        sig = ""
        if sign:
            sig = self.key.sign(
                request_message(self.game_id, k, side, commitment, self.head, order)
            )
        return Request(k, side, commitment, self.head.hex(), sig, salt.hex(), payload, order)

    def sealed(self, seq: int) -> None:
        """Event ``seq`` is sealed: its hash, still to come (:meth:`finish`), is the next
        head."""
        self._unfinished = (seq, self.head)

    def finish(self, event: Event, sides: Sequence[str]) -> None:
        """Hash ``event`` into the log, digest what each of ``sides`` is shown of it and sign
        both; the head moves to it. Thread-safe for one game at a time."""
        fair = event.fair
        assert isinstance(fair, dict)
        assert self._unfinished is not None
        assert self._unfinished[0] == event.seq
        body = hashed(event_to_json(event))
        # Walked once for what canonical JSON must not write as it is (a float, say): what
        # each side is shown below is parts of it.
        plain = as_is(body)
        digest = event_hash(self._unfinished[1], body, known_as_is=plain)
        fair["hash"] = digest.hex()
        # What each side is shown of the event, salted (so that no side can test a guess at
        # another's lines from its digest), under the one signature of the head.
        shown: dict[str, dict[str, str]] = {}
        fair["shown"] = shown
        for side in sides:
            salt = shown_salt(self.dummy, side, event.seq)
            content = shown_content(event.seq, fair, event.told.get(side, ()), side)
            seen = shown_digest_v2(salt, content, event_as_is=plain)
            shown[side] = {"salt": salt.hex(), "digest": seen.hex()}
        digests = [bytes.fromhex(shown[side]["digest"]) for side in sides]
        fair["sig"] = self.key.sign(head_message_v2(self.game_id, event.seq, digest, digests))
        self.head = digest
        self._unfinished = None


def head_receipt(seq: int, fair: Mapping[str, Any], sides: tuple[str, ...]) -> dict[str, Any]:
    """The receipt a side's page keeps of a sealed event (fairplay.js does the same from its
    view): the head, its signature and every side's digest of what it was shown, in the
    game's side order, which is what the signature covers."""
    return {
        "seq": seq,
        "hash": fair["hash"],
        "sig": fair["sig"],
        "shown": [fair["shown"][side]["digest"] for side in sides],
    }


def hashed(event_json: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an event's JSON its hash covers: all but its own hash, its signature and
    what each side was shown of it (which the signature covers with the hash)."""
    out = dict(event_json)
    fair = out.get("fair")
    if isinstance(fair, Mapping):
        out["fair"] = {k: v for k, v in fair.items() if k not in ("hash", "sig", "shown")}
    return out
