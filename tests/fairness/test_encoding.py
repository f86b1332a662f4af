"""The fast path of ``canonical`` writes exactly what the ``rfc8785`` package writes."""

from __future__ import annotations

from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from ghillie.fairness import strict
from ghillie.fairness.encoding import canonical

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([30.0, 0.1, 1e-4, 9.99e-5, 1e16, 9007199254740992.0, -0.0, 31.4])
    | st.text()
    | st.sampled_from(["\ud800", "a\udfff", "\U0001f600\udc00"])  # lone surrogates
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _reference(value: Any) -> bytes | type[Exception]:
    try:
        return rfc8785.dumps(value)
    except Exception as exc:  # the package refuses some values (big ints, lone surrogates)
        return type(exc)


@settings(max_examples=1500, deadline=None)
@given(VALUES)
def test_canonical_is_rfc8785(value: Any) -> None:
    expected = _reference(value)
    if isinstance(expected, bytes):
        assert canonical(value) == expected
    else:
        with pytest.raises(expected):  # the very error rfc8785 raises: it wrote nothing
            canonical(value)


@pytest.mark.parametrize(
    "value",
    [{"b": 1, "a": [30.0, 0.5]}, {"\U0001f600": 1, "\ufb01": 2}, [9007199254740992.0], 1e21],
)
def test_known_edges(value: Any) -> None:
    assert canonical(value) == rfc8785.dumps(value)


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)  # past 64 bits too: orjson refuses
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([0, 1, 0.0, 1.0, True, False, -0.0])
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=1500, deadline=None)
@given(JSONISH, JSONISH)
def test_the_audits_fast_comparison_agrees_with_the_exact_text(a: Any, b: Any) -> None:
    """strict.same is how the audit compares what the rules give again with the record: it
    must tell 1, 1.0 and true apart exactly as the standard library's text does."""
    assert strict.same(a, b) == (strict.exact(a) == strict.exact(b))
    assert strict.same(a, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [(1, 1.0), (1, True), (0, False), (0.0, 0), ({"a": [1]}, {"a": [1.0]}), (None, float("nan"))],
)
def test_the_audits_fast_comparison_tells_apart_what_equality_does_not(a: Any, b: Any) -> None:
    assert not strict.same(a, b)
    assert not strict.same(b, a)
