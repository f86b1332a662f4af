"""Salted, domain-separated commitments to secrets (TRUST.md §1.2, format v1).

>>> salt = bytes(32)
>>> c = commit("fact", "g1", "jungle", 3, {"piece": "ab", "key": "square", "value": "D2"}, salt)
>>> opens(c, "fact", "g1", "jungle", 3, {"piece": "ab", "key": "square", "value": "D2"}, salt)
True
>>> opens(c, "fact", "g1", "jungle", 3, {"piece": "ab", "key": "square", "value": "D3"}, salt)
False
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from ghillie.fairness.encoding import canonical, lp, tag, text, u64

SALT_BYTES = 32


def commit(kind: str, game_id: str, owner: str, seq: int, payload: Any, salt: bytes) -> str:
    """``C = SHA-256(lp(salt) + msg)`` as hex, where ``msg`` names what is committed to."""
    return commit_canonical(kind, game_id, owner, seq, canonical(payload), salt)


def commit_canonical(
    kind: str, game_id: str, owner: str, seq: int, payload: bytes, salt: bytes
) -> str:
    """:func:`commit` of a payload already in its canonical form (RFC 8785 bytes)."""
    return commit_after(commit_head(kind, game_id), owner, seq, payload, salt)


def commit_head(kind: str, game_id: str) -> bytes:
    """The start of every message of ``kind`` in one game: a ledger prepares it once."""
    return tag("commit/v1") + text(kind) + text(game_id)


def commit_after(head: bytes, owner: str, seq: int, payload: bytes, salt: bytes) -> str:
    """:func:`commit_canonical`, its :func:`commit_head` prepared."""
    return commit_digest(head + text(owner) + u64(seq), payload, salt).hex()


def commit_digest(named: bytes, payload: bytes, salt: bytes) -> bytes:
    """:func:`commit_canonical` as bytes, all that names what is committed to prepared
    (``commit_head(kind, game_id) + text(owner) + u64(seq)``): a roster prepares it once for
    every fact of its side (each written with seq 0)."""
    if len(salt) != SALT_BYTES:
        raise ValueError("a commitment salt is 32 bytes")
    return hashlib.sha256(lp(salt) + named + lp(payload)).digest()


def opens(c: str, kind: str, game_id: str, owner: str, seq: int, payload: Any, salt: bytes) -> bool:
    """Does ``(salt, payload)`` open commitment ``c``? (Compared in constant time.)"""
    try:
        again = commit(kind, game_id, owner, seq, payload, salt)
    except (ValueError, OverflowError):  # a wrong salt length; a seq u64() cannot hold
        return False
    return hmac.compare_digest(again, c)
