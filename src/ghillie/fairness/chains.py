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

import secrets

from ghillie.fairness.encoding import sha256, tag

LENGTH = 4096  # rolls per anchor (TRUST.md: N = 4096)


def back(element: bytes) -> bytes:
    """The element before ``element`` in its chain."""
    return sha256(tag("chain/v1"), element)


def links(previous: bytes, element: bytes) -> bool:
    """Is ``element`` the next one after ``previous``?"""
    return back(element) == previous


class Chain:
    """All of one party's elements, from its secret seed."""

    def __init__(self, hashes: bytes, seed: bytes) -> None:
        # ``hashes`` is x_0 … x_{N-1}, 32 bytes each, in one bytes object; ``seed`` is x_N (of
        # any length). A list of 4,097 bytes objects cost ~300 KB per chain (65 B each, plus
        # the list); this costs 131 KB, and every live game holds the host's chain and any
        # host-held side's.
        if len(hashes) % 32:
            raise ValueError("a chain's hashes are a whole number of 32-byte elements")
        self._hashes, self._seed = hashes, seed

    @classmethod
    def from_seed(cls, seed: bytes, length: int = LENGTH) -> Chain:
        elements = [seed]
        for _ in range(length):
            elements.append(back(elements[-1]))
        elements.reverse()
        return cls(b"".join(elements[:-1]), seed)

    @classmethod
    def fresh(cls, length: int = LENGTH) -> tuple[bytes, Chain]:
        seed = secrets.token_bytes(32)
        return seed, cls.from_seed(seed, length)

    @property
    def anchor(self) -> bytes:
        return self._hashes[:32] if self._hashes else self._seed  # N = 0: the seed itself

    @property
    def length(self) -> int:
        return len(self._hashes) // 32

    def element(self, k: int) -> bytes:
        """The contribution to roll ``k`` (0-based)."""
        if not 0 <= k < self.length:
            raise IndexError("this chain has no element for that roll")
        if k + 1 == self.length:
            return self._seed
        return self._hashes[32 * (k + 1) : 32 * (k + 2)]
