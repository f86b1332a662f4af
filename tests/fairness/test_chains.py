"""Hash chains: each party's roll contributions are fixed by the anchor it publishes at the
start, and each one can be checked against the one before as soon as it is sent."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ghillie.fairness.chains import LENGTH, Chain, back, links

SEED = bytes.fromhex("42" * 32)


@pytest.fixture(scope="module")
def chain() -> Chain:
    return Chain.from_seed(SEED, length=64)


def test_every_element_links_to_the_one_before(chain: Chain) -> None:
    previous = chain.anchor
    for k in range(chain.length):
        element = chain.element(k)
        assert links(previous, element), k
        previous = element


def test_the_anchor_links_to_the_first_contribution(chain: Chain) -> None:
    assert links(chain.anchor, chain.element(0))
    assert back(chain.element(0)) == chain.anchor


def test_the_last_contribution_is_the_secret_seed(chain: Chain) -> None:
    # The seed is given up only with the final roll of the chain, never earlier.
    assert chain.element(chain.length - 1) == SEED
    assert chain.length == 64


def test_a_wrong_element_does_not_link(chain: Chain) -> None:
    # Skipping ahead, replaying an old element, or sending anything else is caught.
    assert not links(chain.anchor, chain.element(1))
    assert not links(chain.element(1), chain.element(1))
    assert not links(chain.element(1), chain.element(0))
    assert not links(chain.anchor, bytes(32))
    other = Chain.from_seed(bytes(32), length=64)
    assert not links(chain.anchor, other.element(0))


@given(k=st.integers(0, 63), bit=st.integers(0, 255))
def test_a_contribution_with_one_bit_flipped_does_not_link(chain: Chain, k: int, bit: int) -> None:
    previous = chain.anchor if k == 0 else chain.element(k - 1)
    flipped = bytearray(chain.element(k))
    flipped[bit // 8] ^= 1 << (bit % 8)
    assert not links(previous, bytes(flipped))


def test_there_is_no_element_past_the_end(chain: Chain) -> None:
    # Running out must be loud: the game then needs a new anchor (TRUST.md §1.3).
    with pytest.raises(IndexError):
        chain.element(chain.length)
    with pytest.raises(IndexError):
        chain.element(-1)


def test_from_seed_is_deterministic() -> None:
    a, b = Chain.from_seed(SEED, length=16), Chain.from_seed(SEED, length=16)
    assert a.anchor == b.anchor
    assert [a.element(k) for k in range(16)] == [b.element(k) for k in range(16)]
    assert Chain.from_seed(bytes(32), length=16).anchor != a.anchor


def test_the_anchor_depends_on_the_chain_length() -> None:
    # A chain is the seed hashed `length` times: a longer chain from the same seed has the
    # shorter one's anchor as one of its elements, so the length is part of the setup.
    short, long = Chain.from_seed(SEED, length=10), Chain.from_seed(SEED, length=12)
    assert short.anchor != long.anchor
    assert long.element(1) == short.anchor


def test_fresh_chains_have_the_full_length_and_their_own_seeds() -> None:
    seed, chain = Chain.fresh(length=8)
    assert len(seed) == 32
    assert chain.element(7) == seed
    assert Chain.from_seed(seed, length=8).anchor == chain.anchor
    assert Chain.fresh(length=8)[0] != seed
    assert Chain.from_seed(SEED).length == LENGTH == 4096


@pytest.mark.parametrize("length", [1, 2, 63, 64, 65, 129, LENGTH])
def test_every_element_is_the_one_hashed_down_from_the_seed_in_any_order(length: int) -> None:
    # The chain keeps only checkpoints and works out the stretch in use: whatever order the
    # rolls ask in (a resumed roll, a retried contribution), each element is the one the
    # party's seed fixes, counted by hashing down from the seed one element at a time.
    elements = [SEED]
    for _ in range(length):
        elements.append(back(elements[-1]))
    elements.reverse()
    chain = Chain.from_seed(SEED, length)
    assert chain.anchor == elements[0]
    order = [*range(length), *reversed(range(length)), *range(0, length, 7)]
    for k in order:
        assert chain.element(k) == elements[k + 1], k
