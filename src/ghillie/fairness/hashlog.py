"""The hash-chained log and the host's signed heads.

``hash_s = SHA-256(tag + lp(hash_{s-1}) + lp(canonical(event_s)))``, starting from a genesis
value bound to the game id. The host signs ``(game, seq, hash)`` with the game's Ed25519 key
after every event; each side's client keeps the heads it was shown as receipts. Two valid
signatures on different hashes for one seq prove that the host showed two histories.
"""

from __future__ import annotations

from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ghillie.fairness.encoding import canonical, lp, sha256, tag, text, u64


def genesis(game_id: str) -> bytes:
    return sha256(tag("genesis/v1"), text(game_id))


def event_hash(previous: bytes, event: Any) -> bytes:
    return sha256(tag("event/v1"), lp(previous), lp(canonical(event)))


def head_message(game_id: str, seq: int, digest: bytes) -> bytes:
    return tag("head/v1") + text(game_id) + u64(seq) + lp(digest)


def request_message(game_id: str, k: int, side: str | None, commitment: str, prev: bytes) -> bytes:
    """What the host signs when it asks the parties for roll ``k``'s contributions."""
    return (
        tag("request/v1") + text(game_id) + u64(k) + text(side or "") + text(commitment) + lp(prev)
    )


class HostKey:
    """The host's signing key for one game."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private

    @classmethod
    def generate(cls) -> HostKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_bytes(cls, raw: bytes) -> HostKey:
        return cls(Ed25519PrivateKey.from_private_bytes(raw))

    @property
    def raw(self) -> bytes:
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        return self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    @property
    def public(self) -> str:
        return self._private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    def sign(self, message: bytes) -> str:
        return self._private.sign(message).hex()


def verify(public: str, message: bytes, signature: str) -> bool:
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public))
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True
