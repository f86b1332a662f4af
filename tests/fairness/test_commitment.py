"""Commitments bind (TRUST.md §6, F1): a commitment opens only with the exact salt, ids and
payload it was made from, so a host cannot swap a secret after the fact, and an opponent
cannot tell two nearby secrets apart from the commitment alone."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ghillie.fairness.commitment import SALT_BYTES, commit, opens
from ghillie.fairness.encoding import canonical

# rfc8785 refuses integers JSON cannot carry exactly (beyond ±(2**53 - 1)).
SAFE_INT = 2**53 - 1
json_leaves = (
    st.none()
    | st.booleans()
    | st.integers(-SAFE_INT, SAFE_INT)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=5)
salts = st.binary(min_size=SALT_BYTES, max_size=SALT_BYTES)
names = st.text(max_size=16)
seqs = st.integers(0, 2**64 - 1)


def leaf_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` that holds a scalar (or an empty container)."""
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in leaf_paths(v, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in leaf_paths(v, (*path, i))]
    return [path]


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: replaced(value[head], rest, new)}
    return [replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]


@given(kind=names, game_id=names, owner=names, seq=seqs, payload=payloads, salt=salts)
def test_a_commitment_opens_with_what_it_was_made_from(
    kind: str, game_id: str, owner: str, seq: int, payload: Any, salt: bytes
) -> None:
    c = commit(kind, game_id, owner, seq, payload, salt)
    assert len(bytes.fromhex(c)) == 32  # SHA-256, as hex
    assert opens(c, kind, game_id, owner, seq, payload, salt)


@given(payload=payloads, salt=salts, bit=st.integers(0, SALT_BYTES * 8 - 1))
def test_flipping_any_bit_of_the_salt_breaks_the_opening(
    payload: Any, salt: bytes, bit: int
) -> None:
    c = commit("hidden_position", "g", "blue", 1, payload, salt)
    flipped = bytearray(salt)
    flipped[bit // 8] ^= 1 << (bit % 8)
    assert not opens(c, "hidden_position", "g", "blue", 1, payload, bytes(flipped))


def test_every_single_bit_flip_of_one_salt_is_rejected() -> None:
    # The Hypothesis test above samples bits; this one tries all 256 of a fixed salt.
    salt = bytes(range(SALT_BYTES))
    payload = {"piece": "ab", "key": "square", "value": "D2"}
    c = commit("fact", "g1", "jungle", 3, payload, salt)
    for bit in range(SALT_BYTES * 8):
        flipped = bytearray(salt)
        flipped[bit // 8] ^= 1 << (bit % 8)
        assert not opens(c, "fact", "g1", "jungle", 3, payload, bytes(flipped)), bit


@given(
    kind=names,
    game_id=names,
    owner=names,
    seq=seqs,
    payload=payloads,
    salt=salts,
    other=names,
    other_seq=seqs,
)
def test_changing_any_id_breaks_the_opening(
    kind: str,
    game_id: str,
    owner: str,
    seq: int,
    payload: Any,
    salt: bytes,
    other: str,
    other_seq: int,
) -> None:
    c = commit(kind, game_id, owner, seq, payload, salt)
    if other != kind:
        assert not opens(c, other, game_id, owner, seq, payload, salt)
    if other != game_id:
        assert not opens(c, kind, other, owner, seq, payload, salt)
    if other != owner:
        assert not opens(c, kind, game_id, other, seq, payload, salt)
    if other_seq != seq:
        assert not opens(c, kind, game_id, owner, other_seq, payload, salt)


@given(payload=payloads, salt=salts, data=st.data())
def test_changing_any_payload_value_breaks_the_opening(
    payload: Any, salt: bytes, data: st.DataObject
) -> None:
    c = commit("plotted_orders", "g", "red", 7, payload, salt)
    path = data.draw(st.sampled_from(leaf_paths(payload)))
    changed = replaced(payload, path, data.draw(json_values))
    # Only a change in JSON meaning counts: 1 and 1.0 (or 0.0 and -0.0) are the same JSON
    # number, so they rightly give the same commitment.
    assume(canonical(changed) != canonical(payload))
    assert not opens(c, "plotted_orders", "g", "red", 7, changed, salt)


@given(payload=payloads, salt=salts, key=st.text(max_size=6), value=json_values)
def test_adding_a_field_to_the_payload_breaks_the_opening(
    payload: dict[str, Any], salt: bytes, key: str, value: Any
) -> None:
    assume(key not in payload)
    c = commit("fact", "g", "red", 0, payload, salt)
    assert not opens(c, "fact", "g", "red", 0, {**payload, key: value}, salt)


def test_the_payload_is_canonical_json_so_key_order_does_not_matter() -> None:
    # A client in another language may serialise the keys in any order.
    salt = bytes(SALT_BYTES)
    c = commit("fact", "g", "red", 0, {"piece": "ab", "key": "square", "value": "D2"}, salt)
    assert opens(c, "fact", "g", "red", 0, {"value": "D2", "key": "square", "piece": "ab"}, salt)


@given(payload=payloads, length=st.integers(0, 80).filter(lambda n: n != SALT_BYTES))
def test_a_salt_of_the_wrong_length_is_refused(payload: Any, length: int) -> None:
    salt = bytes(length)
    with pytest.raises(ValueError, match="32 bytes"):
        commit("fact", "g", "red", 0, payload, salt)
    # A verifier handed a short salt says "does not open" rather than crashing.
    c = commit("fact", "g", "red", 0, payload, bytes(SALT_BYTES))
    assert not opens(c, "fact", "g", "red", 0, payload, salt)


@pytest.mark.parametrize("seq", [-1, 2**64])
def test_a_seq_outside_64_bits_does_not_open_anything(seq: int) -> None:
    # A verifier fed a malformed opening answers "does not open" instead of crashing.
    salt = bytes(SALT_BYTES)
    c = commit("fact", "g", "red", 0, {}, salt)
    assert not opens(c, "fact", "g", "red", seq, {}, salt)


def test_a_payload_that_is_not_json_does_not_open_anything() -> None:
    salt = bytes(SALT_BYTES)
    c = commit("fact", "g", "red", 0, {"value": 1}, salt)
    assert not opens(c, "fact", "g", "red", 0, {"value": float("nan")}, salt)
    assert not opens(c, "fact", "g", "red", 0, {"value": 2**53}, salt)  # beyond JSON's ints


def test_field_boundaries_cannot_be_shifted() -> None:
    # Without length prefixes ("ab", "c") and ("a", "bc") would hash the same bytes.
    salt = bytes(SALT_BYTES)
    assert commit("ab", "c", "o", 0, {}, salt) != commit("a", "bc", "o", 0, {}, salt)
    assert commit("k", "ab", "c", 0, {}, salt) != commit("k", "a", "bc", 0, {}, salt)
    c = commit("ab", "c", "o", 0, {}, salt)
    assert not opens(c, "a", "bc", "o", 0, {}, salt)


def test_the_same_secret_under_different_salts_looks_unrelated() -> None:
    # Why the salt exists: with a map of a few thousand hexes an unsalted hash of a position
    # could be brute-forced by the opponent (TRUST.md §2, Dark Forest).
    payload = {"piece": "ab", "key": "square", "value": "D2"}
    a = commit("fact", "g", "red", 0, payload, bytes(SALT_BYTES))
    b = commit("fact", "g", "red", 0, payload, b"\x01" + bytes(SALT_BYTES - 1))
    assert a != b
