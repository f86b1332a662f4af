"""The hash-chained log and signed heads: a head verifies only under the host's key and only
for the seq and hash it was signed for, and every event hash depends on the whole history."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ghillie.fairness.encoding import canonical
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message,
    request_message,
    verify,
    verify_head,
)

# RFC 8032 §7.1 TEST 1 secret key: a fixed key keeps these tests reproducible.
KEY = HostKey.from_bytes(
    bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
)
DIGEST = event_hash(genesis("g"), {"type": "created"})

SAFE_INT = 2**53 - 1
events = st.dictionaries(
    st.text(max_size=6),
    st.none() | st.booleans() | st.integers(-SAFE_INT, SAFE_INT) | st.text(max_size=10),
    max_size=5,
)


def test_the_fixed_key_is_the_rfc_8032_one() -> None:
    assert KEY.public == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert HostKey.from_bytes(KEY.raw).public == KEY.public


def test_a_signed_head_verifies() -> None:
    message = head_message("g", 1, DIGEST)
    assert verify(KEY.public, message, KEY.sign(message))


def test_a_head_does_not_verify_under_another_key() -> None:
    message = head_message("g", 1, DIGEST)
    assert not verify(HostKey.generate().public, message, KEY.sign(message))
    assert not verify(KEY.public, message, HostKey.generate().sign(message))


def test_a_signature_does_not_carry_over_to_another_seq_hash_or_game() -> None:
    signature = KEY.sign(head_message("g", 1, DIGEST))
    flipped = bytes([DIGEST[0] ^ 1]) + DIGEST[1:]
    assert not verify(KEY.public, head_message("g", 2, DIGEST), signature)
    assert not verify(KEY.public, head_message("g", 0, DIGEST), signature)
    assert not verify(KEY.public, head_message("g", 1, flipped), signature)
    assert not verify(KEY.public, head_message("h", 1, DIGEST), signature)
    # A head is not a roll request, even for the same numbers.
    assert not verify(KEY.public, request_message("g", 1, None, "", DIGEST), signature)


def test_two_heads_for_one_seq_are_proof_of_equivocation() -> None:
    # Both verify: the pair of receipts is what lets a client prove the host showed two
    # histories (TRUST.md §1.4, step 2).
    other = event_hash(genesis("g"), {"type": "created", "forked": True})
    a, b = head_message("g", 1, DIGEST), head_message("g", 1, other)
    assert verify(KEY.public, a, KEY.sign(a))
    assert verify(KEY.public, b, KEY.sign(b))
    assert a != b


@given(bit=st.integers(0, 64 * 8 - 1))
def test_an_altered_signature_fails(bit: int) -> None:
    message = head_message("g", 1, DIGEST)
    signature = bytearray(bytes.fromhex(KEY.sign(message)))
    signature[bit // 8] ^= 1 << (bit % 8)
    assert not verify(KEY.public, message, signature.hex())


@pytest.mark.parametrize(
    ("public", "signature"),
    [("zz", "00" * 64), ("00" * 31, "00" * 64), (KEY.public, "not hex"), (KEY.public, "00" * 63)],
)
def test_malformed_keys_and_signatures_are_refused(public: str, signature: str) -> None:
    assert not verify(public, head_message("g", 1, DIGEST), signature)


def test_signatures_are_deterministic() -> None:
    # Ed25519 (RFC 8032) signs without randomness, so signed heads are known-answer vectors.
    message = head_message("g", 1, DIGEST)
    assert KEY.sign(message) == KEY.sign(message)


def test_each_game_has_its_own_genesis() -> None:
    assert genesis("g") != genesis("h")
    assert genesis("g") == genesis("g")


@given(event=events, bit=st.integers(0, 255))
def test_event_hash_changes_with_the_previous_hash(event: dict[str, Any], bit: int) -> None:
    previous = bytearray(genesis("g"))
    before = event_hash(bytes(previous), event)
    previous[bit // 8] ^= 1 << (bit % 8)
    assert event_hash(bytes(previous), event) != before


@given(event=events, other=events)
def test_event_hash_changes_with_any_change_of_the_event(
    event: dict[str, Any], other: dict[str, Any]
) -> None:
    assume(canonical(event) != canonical(other))
    assert event_hash(genesis("g"), event) != event_hash(genesis("g"), other)


@given(event=events, key=st.text(max_size=6), value=events)
def test_event_hash_changes_when_one_field_is_added_or_changed(
    event: dict[str, Any], key: str, value: dict[str, Any]
) -> None:
    changed = {**event, key: value}  # a nested object never equals a scalar that was there
    assert event_hash(genesis("g"), changed) != event_hash(genesis("g"), event)


def test_event_hash_ignores_key_order() -> None:
    # Events are hashed as canonical JSON: a verifier may reserialise them freely.
    a = {"seq": 1, "type": "moved", "effects": [{"id": "ab", "to": "D3"}]}
    b = {"effects": [{"to": "D3", "id": "ab"}], "type": "moved", "seq": 1}
    assert event_hash(genesis("g"), a) == event_hash(genesis("g"), b)


def test_the_log_hash_depends_on_event_order() -> None:
    one, two = {"seq": 1}, {"seq": 2}
    forward = event_hash(event_hash(genesis("g"), one), two)
    backward = event_hash(event_hash(genesis("g"), two), one)
    assert forward != backward


def test_a_key_of_small_order_signs_nothing() -> None:
    # Under the identity point as key, OpenSSL alone accepts R = identity, S = 0 as a
    # signature of any message: anybody could forge a receipt. verify refuses such keys (and
    # non-canonical encodings), as the pages' @noble/curves does.
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    identity = bytes([1]) + bytes(31)
    forged = identity + bytes(32)
    Ed25519PublicKey.from_public_bytes(identity).verify(forged, b"any message")  # no raise
    assert not verify(identity.hex(), b"any message", forged.hex())
    head = {"seq": 1, "hash": "ab" * 32, "sig": forged.hex()}
    assert not verify_head(identity.hex(), "g", head)


def test_a_receipt_has_one_spelling() -> None:
    key = HostKey.from_bytes(bytes(32))
    digest = bytes(range(32))
    head = {"seq": 1, "hash": digest.hex(), "sig": key.sign(head_message("g", 1, digest))}
    assert verify_head(key.public, "g", head)
    for other in (
        {**head, "seq": True},  # True == 1 in Python
        {**head, "seq": 1.0},
        {**head, "hash": digest.hex().upper()},
        {**head, "sig": head["sig"].upper()},
        {k: v for k, v in head.items() if k != "sig"},
    ):
        assert not verify_head(key.public, "g", other)
    assert not verify_head(key.public.upper(), "g", head)
