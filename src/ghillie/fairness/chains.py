"""Hash chains: how each party fixes all its roll contributions before the game starts.

A party picks a random seed ``x_N`` and publishes only the anchor ``x_0``, where
``x_i = SHA-256(tag + x_{i+1})``. Its contribution to roll ``k`` is ``x_{k+1}``: anyone can
check it against the one before (``SHA-256(tag + x_{k+1}) == x_k``), and nobody, not even the
host, can know it before the party sends it (the hash cannot be run backwards).

>>> chain = Chain.from_seed(bytes(32), length=3)
>>> links(chain.anchor, chain.element(0))
True
>>> links(chain.element(0), chain.element(1))
True
>>> chain.element(2) == bytes(32)  # the last is the seed, which may have any length
True
>>> Chain.from_seed(b"x", length=0).anchor
b'x'
"""

from __future__ import annotations

import hashlib
import secrets

from ghillie.fairness.encoding import sha256, tag

LENGTH = 4096  # rolls per anchor (TRUST.md: N = 4096)


_BACK = tag("chain/v1")


def back(element: bytes) -> bytes:
    """The element before ``element`` in its chain."""
    return sha256(_BACK, element)


def links(previous: bytes, element: bytes, steps: int = 1) -> bool:
    """Is ``element`` the next one after ``previous`` (``steps`` later: the elements between
    were never given, their rolls drawn without them)?"""
    if not 0 < steps <= LENGTH:
        return False
    for _ in range(steps):
        element = back(element)
    return element == previous


def renewed(seed: bytes) -> bytes:
    """The seed of the chain that follows the one of ``seed`` once its elements run out: a
    game of any length rolls on. Derived, not drawn, so that the first anchor binds every
    later chain of the party (the host cannot choose its next chain once it has seen the
    others' elements); the record's revealed first seed lets the audit grow them all."""
    return sha256(tag("chain-renew/v1"), seed)


def generation(seed: bytes, n: int) -> bytes:
    """The seed of the ``n``-th chain after the one of ``seed``."""
    for _ in range(n):
        seed = renewed(seed)
    return seed


STRIDE = 64  # elements between two kept checkpoints


class Chain:
    """All of one party's elements, from its secret seed.

    Only every ``STRIDE``-th element is kept (a checkpoint), with the seed, and the stretch
    of elements being used now, worked out from the checkpoint above it when first asked
    for: about 4 KB a chain instead of the 128 KB all 4,096 elements took, three chains in
    every host-held live game (issue 15: 65 % of a game's memory). Rolls ask for elements in
    order, so each stretch is hashed once: one more hash a roll, on average."""

    def __init__(self, checkpoints: bytes, seed: bytes, length: int) -> None:
        # ``checkpoints`` is x_0, x_STRIDE, x_2·STRIDE, … below x_length, 32 bytes each, in
        # one bytes object; ``seed`` is x_length (of any length).
        if len(checkpoints) != 32 * (-(-length // STRIDE)):
            raise ValueError("a chain keeps one 32-byte checkpoint every STRIDE elements")
        self._checkpoints, self._seed, self._length = checkpoints, seed, length
        self._stretch = -1  # which stretch _elements holds
        self._elements = b""

    @classmethod
    def from_seed(cls, seed: bytes, length: int = LENGTH) -> Chain:
        kept = []
        element = seed
        # back(), inlined: the audit grows every revealed chain whole (4,096 hashes each),
        # and the host one per host-held party at every game's start.
        step = hashlib.sha256(_BACK).copy
        for i in range(length - 1, -1, -1):
            h = step()
            h.update(element)
            element = h.digest()
            if i % STRIDE == 0:
                kept.append(element)
        kept.reverse()
        return cls(b"".join(kept), seed, length)

    @classmethod
    def fresh(cls, length: int = LENGTH) -> tuple[bytes, Chain]:
        seed = secrets.token_bytes(32)
        return seed, cls.from_seed(seed, length)

    @property
    def anchor(self) -> bytes:
        return self._checkpoints[:32] if self._length else self._seed  # N = 0: the seed

    @property
    def length(self) -> int:
        return self._length

    def element(self, k: int) -> bytes:
        """The contribution to roll ``k`` (0-based)."""
        if not 0 <= k < self._length:
            raise IndexError("this chain has no element for that roll")
        return self._x(k + 1)

    def _x(self, i: int) -> bytes:
        """x_i, for 0 < i <= length."""
        if i == self._length:
            return self._seed
        stretch, offset = divmod(i, STRIDE)
        if stretch != self._stretch:
            # x_{stretch·STRIDE + 1} … x_{top − 1}, hashed down from x_top: the next
            # checkpoint, or the seed past the last one.
            top = min((stretch + 1) * STRIDE, self._length)
            element = self._seed if top == self._length else self._checkpoint(stretch + 1)
            below = []
            for _ in range(top - stretch * STRIDE - 1):
                element = back(element)
                below.append(element)
            below.reverse()
            self._elements, self._stretch = self._checkpoint(stretch) + b"".join(below), stretch
        return self._elements[32 * offset : 32 * (offset + 1)]

    def _checkpoint(self, n: int) -> bytes:
        return self._checkpoints[32 * n : 32 * (n + 1)]
