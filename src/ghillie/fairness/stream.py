"""Dice from the roll stream: a key no single party chose, and rejection sampling.

``key = SHA-256(tag + lp(h_k) + lp(p_1,k) + ... )`` over every party's contribution, in the
game's party order (the host first, then the sides). Words are 64-bit big-endian slices of
``HMAC-SHA256(key, tag + lp(ctx) + counter)``; a die of ``n`` faces takes words until one is
below ``2^64 - 2^64 mod n`` and shows ``1 + word mod n`` — no modulo bias for any ``n``.

>>> dice = StreamDice(bytes(32), b"ctx")
>>> 1 <= dice.roll(6) <= 6
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from ghillie.fairness.encoding import lp, sha256, tag, text, u32, u64

WORD = 2**64


def roll_key(contributions: Sequence[bytes]) -> bytes:
    return sha256(tag("roll-key/v1"), *(lp(c) for c in contributions))


def roll_context(game_id: str, k: int) -> bytes:
    """What a roll's stream is bound to: the game and the roll number. (The command is bound
    by the signed request each party answered, which the audit holds the event to.)"""
    return text(game_id) + u64(k)


def words(key: bytes, context: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(
            key, tag("roll-stream/v1") + lp(context) + u32(counter), hashlib.sha256
        ).digest()
        for i in range(0, 32, 8):
            yield int.from_bytes(block[i : i + 8], "big")
        counter += 1


def die_from(words: Iterator[int], faces: int) -> int:
    """One roll of a ``faces``-sided die from the word stream (rejection sampling)."""
    if faces < 1:
        raise ValueError("a die has at least one face")
    limit = WORD - WORD % faces
    for word in words:
        if word < limit:
            return 1 + word % faces
    raise RuntimeError("the word stream ended")  # pragma: no cover - the stream is endless


class StreamDice:
    """A :class:`~ghillie.dice.source.DiceSource` drawing on one roll's stream, in order."""

    def __init__(self, key: bytes, context: bytes) -> None:
        self._words = words(key, context)
        self.drawn: list[int] = []

    def roll(self, faces: int) -> int:
        value = die_from(self._words, faces)
        self.drawn.append(value)
        return value
