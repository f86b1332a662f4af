"""The hash-chained log and the host's signed heads.

``hash_s = SHA-256(tag + lp(hash_{s-1}) + lp(canonical(event_s)))``, starting from a genesis
value bound to the game id. The host signs ``(game, seq, hash)`` with the game's Ed25519 key
after every event; each side's client keeps the heads it was shown as receipts. Two valid
signatures on different hashes for one seq prove that the host showed two histories.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ghillie.fairness.encoding import as_is, canonical, lp, sha256, tag, text, u32, u64


def genesis(game_id: str) -> bytes:
    return sha256(tag("genesis/v1"), text(game_id))


def event_hash(previous: bytes, event: Any, *, known_as_is: bool = False) -> bytes:
    """The hash of ``event`` (its hashed JSON) after ``previous``; ``known_as_is`` as
    :func:`~ghillie.fairness.encoding.canonical`'s."""
    return sha256(tag("event/v1"), lp(previous), lp(canonical(event, known_as_is=known_as_is)))


def head_message(game_id: str, seq: int, digest: bytes) -> bytes:
    return tag("head/v1") + text(game_id) + u64(seq) + lp(digest)


def head_message_v2(game_id: str, seq: int, digest: bytes, shown: Sequence[bytes]) -> bytes:
    """What the host signs once per event since protocol 4: the head, and each side's salted
    digest of what it was shown of the event (:func:`shown_digest_v2`), in the game's side
    order. One signature instead of one for the head and one for each side."""
    return (
        tag("head/v2")
        + text(game_id)
        + u64(seq)
        + lp(digest)
        + u32(len(shown))
        + b"".join(lp(d) for d in shown)
    )


def shown_salt(dummy_key: bytes, side: str, seq: int) -> bytes:
    """The salt of ``side``'s digest of event ``seq``, from the host's roster key (revealed
    in the record): without it, another side cannot test a guess at this side's lines."""
    return sha256(tag("shown-salt/v1"), lp(dummy_key), text(side), u64(seq))


def shown_digest_v2(salt: bytes, content: Any, *, event_as_is: bool = False) -> bytes:
    """What ``side`` was shown of an event (:func:`shown_content`), salted. ``event_as_is``:
    the event's hashed JSON (:func:`~ghillie.fairness.heads.hashed`), which holds every part
    of ``content`` but its hash, was found written as it is (:func:`encoding.as_is`) as it
    was hashed: then only the hash is looked at again, not every line."""
    plain = event_as_is and as_is(content["hash"])
    return sha256(tag("shown/v2"), lp(salt), lp(canonical(content, known_as_is=plain)))


def request_message(
    game_id: str, k: int, side: str | None, commitment: str, prev: bytes, order: str | None = None
) -> bytes:
    """What the host signs when it asks the parties for roll ``k``'s contributions. Since
    protocol 4 (``order`` not None) it quotes the digest of the signature of the side that
    gave the command (:func:`order_digest`; empty for the host's own commands and for a
    side whose commands the host gives: "host-acted")."""
    if order is None:
        return (
            tag("request/v1")
            + text(game_id)
            + u64(k)
            + text(side or "")
            + text(commitment)
            + lp(prev)
        )
    return (
        tag("request/v2")
        + text(game_id)
        + u64(k)
        + text(side or "")
        + text(commitment)
        + lp(prev)
        + text(order)
    )


def order_message(
    game_id: str, k: int, side: str, command_id: str, command: Mapping[str, Any]
) -> bytes:
    """What a side's seat key signs when it gives a command: for this game, this roll, this
    side and command id, the command exactly as sent (RFC 8785). The roll binds it in time:
    a host cannot keep a signed order and carry it out later."""
    return (
        tag("order/v1")
        + text(game_id)
        + u64(k)
        + text(side)
        + text(command_id)
        + lp(canonical(command))
    )


def order_digest(signature: str) -> str:
    """What a roll request quotes of a side's signature: enough for the side's page to know
    its own order, nothing for the other side (the signature stays the host's until the
    game ends: under the side's public key it would let anyone test a guess at the
    command)."""
    return sha256(tag("order-digest/v1"), bytes.fromhex(signature)).hex()


def shown_content(
    seq: int, fair: Mapping[str, Any], lines: Sequence[Any], side: str
) -> dict[str, Any]:
    """What ``side`` is shown of a sealed event: its lines and the proof it holds (the head's
    hash, every root, the contributions, its own openings, the set-up in event 0)."""
    content = {
        "seq": seq,
        "hash": fair["hash"],
        "lines": list(lines),
        "roots": fair["roots"],
        "contributions": fair["contributions"],
        "openings": fair["openings"].get(side, []),
    }
    if "setup" in fair:
        content["setup"] = fair["setup"]
    # Since protocol 4: a side's new seat key, and the digest of the signed order the event
    # carries out (the page that gave it holds the host to it).
    for name in ("chains", "keys", "order", "missing"):
        if name in fair:
            content[name] = fair[name]
    return content


def shown_message(game_id: str, seq: int, side: str, digest: bytes) -> bytes:
    """What the host signs for each side after every event: ``digest`` is SHA-256 of the
    canonical :func:`shown_content`. A page checks it against what it received and keeps it,
    so a host that showed a side something other than the record is caught by the audit."""
    return tag("shown/v1") + text(game_id) + u64(seq) + text(side) + lp(digest)


def shown_digest(content: Any) -> bytes:
    return sha256(canonical(content))


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


# The encodings of Ed25519's eight points of small order, sign bit cleared (libsodium's
# ge25519_has_small_order list): under such a key a "signature" of R = a small-order point
# and S = 0 verifies for any message with OpenSSL, so anybody could forge a receipt. The pages'
# verifier (@noble/curves, RFC 8032 strict) refuses them; so does this one.
_SMALL_ORDER = frozenset(
    bytes.fromhex(h)
    for h in (
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    )
)
_P = 2**255 - 19
_HEX32 = re.compile("[0-9a-f]{64}")
# A signature in its one spelling: lowercase hex of its length (in capitals it would verify,
# yet be another record).
SIGNATURE = re.compile("[0-9a-f]{128}")


def usable_key(public: str) -> bool:
    """Is ``public`` (hex) a key a signature can be checked under (not of small order, and
    in its canonical encoding)?"""
    try:
        return _usable_key(bytes.fromhex(public))
    except ValueError:
        return False


def _usable_key(raw: bytes) -> bool:
    """A canonical encoding (y < p) of a point not of small order."""
    y = int.from_bytes(raw, "little") & ((1 << 255) - 1)
    return len(raw) == 32 and y < _P and raw[:31] + bytes([raw[31] & 0x7F]) not in _SMALL_ORDER


def verify(public: str, message: bytes, signature: str) -> bool:
    try:
        key = _key(public)
        if key is None:
            return False
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


@functools.lru_cache(maxsize=64)
def _key(public: str) -> Ed25519PublicKey | None:
    """The key ``public`` (hex) names, None if no signature can be checked under it; read
    once (an audit checks a signature of the game's key for every event)."""
    raw = bytes.fromhex(public)
    return Ed25519PublicKey.from_public_bytes(raw) if _usable_key(raw) else None


def _strict_int(value: Any) -> TypeGuard[int]:
    # Not a bool (True == 1 in Python), and no larger than a page's JSON numbers carry exactly.
    return type(value) is int and 0 <= value <= 2**53 - 1


def _hex(value: Any, pattern: re.Pattern[str]) -> TypeGuard[str]:
    return isinstance(value, str) and pattern.fullmatch(value) is not None


def verify_head(public: Any, game_id: str, head: Mapping[str, Any]) -> bool:
    """Did the host sign ``head`` (``{seq, hash, sig}``, as a page keeps it, with ``shown``,
    every side's digest of what it was shown, since protocol 4) with ``public``?
    One spelling only (lowercase hex of exact length, an integer seq): another spelling of a
    valid head would verify, yet not be the receipt the record holds. fair.js's verifyHead
    gives the same answers (tests/server/test_fair_js.py)."""
    seq, digest, sig = head.get("seq"), head.get("hash"), head.get("sig")
    if not (_hex(public, _HEX32) and _strict_int(seq) and _hex(digest, _HEX32)):
        return False
    if not _hex(sig, SIGNATURE):
        return False
    shown = head.get("shown")
    try:
        if shown is None:  # before protocol 4: a head alone
            message = head_message(game_id, seq, bytes.fromhex(digest))
        elif isinstance(shown, list) and shown and all(_hex(d, _HEX32) for d in shown):
            digests = [bytes.fromhex(d) for d in shown]
            message = head_message_v2(game_id, seq, bytes.fromhex(digest), digests)
        else:
            return False
    except UnicodeEncodeError:
        return False  # a lone surrogate in the game id has no UTF-8 form
    return verify(public, message, sig)


def verify_request(public: Any, game_id: str, request: Mapping[str, Any]) -> bool:
    """Did the host sign roll ``request`` (``{k, side, commitment, prev, sig}``, and ``order``
    since protocol 4) with ``public``?
    As strict as :func:`verify_head`; fair.js's verifyRequest agrees."""
    k, side, commitment = request.get("k"), request.get("side"), request.get("commitment")
    prev, sig = request.get("prev"), request.get("sig")
    if not (_hex(public, _HEX32) and _strict_int(k) and (side is None or isinstance(side, str))):
        return False
    if not (_hex(commitment, _HEX32) and _hex(prev, _HEX32) and _hex(sig, SIGNATURE)):
        return False
    order = request.get("order")  # since protocol 4: "" or the digest of a side's signature
    if order is not None and order != "" and not _hex(order, _HEX32):
        return False
    try:
        message = request_message(game_id, k, side, commitment, bytes.fromhex(prev), order)
    except UnicodeEncodeError:
        return False  # a lone surrogate in the game id or side has no UTF-8 form
    return verify(public, message, sig)
