"""Byte encodings every fairness hash is built from, so that no two inputs share bytes.

Every variable-length field is length-prefixed (``lp``) and every hash starts with its own
domain tag, so a commitment can never be mistaken for a chain link, a roll key or a log hash.
JSON payloads are canonicalised with RFC 8785 (the ``rfc8785`` package), which an
implementation in another language can reproduce byte for byte.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

import orjson
import rfc8785


def lp(data: bytes) -> bytes:
    """``data`` with its length in front (4 bytes, big-endian)."""
    return len(data).to_bytes(4, "big") + data


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def text(s: str) -> bytes:
    return lp(s.encode("utf-8"))


def canonical(value: Any, *, known_as_is: bool = False) -> bytes:
    """RFC 8785 canonical JSON.

    The ``rfc8785`` package writes it character by character, which costs more than the
    rest of a command (every event is hashed). Most of what ghillie hashes is plain: ints,
    short strings, floats of ordinary size. For those the standard library's encoder, with
    sorted keys and integral floats written as integers, gives the very same bytes; anything
    else (big or tiny floats, keys that sort differently in UTF-16, integers beyond 2^53)
    goes to ``rfc8785``. orjson writes those plain values as the standard library's encoder
    does (the shortest round-trip digits, the same minimal string escapes, keys in code-point
    order, which is UTF-8 byte order) in a tenth of the time. Tests check all three agree
    on random values.

    ``known_as_is``: the caller has found every part of ``value`` written as it is
    (:func:`as_is`) already: what a side is shown of an event is parts of the event, whose
    hash walked them a moment before."""
    # Most of it holds no float at all, and is written as it is, without a copy.
    plain = value if known_as_is or _as_is(value) else _plain(value)
    if plain is _NOT_PLAIN:
        return rfc8785.dumps(value)
    try:
        return orjson.dumps(plain, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # a lone surrogate: refused as rfc8785 refuses it
        return rfc8785.dumps(value)


_NOT_PLAIN = object()
_SAFE = 2**53 - 1


def _sorts_alike(key: Any) -> bool:
    """Is ``key`` a string that sorts in UTF-16 order as in code-point order (which orjson
    uses)? So it is unless it holds a character from the surrogate range up."""
    return key.__class__ is str and (key.isascii() or max(key) < "\ud800")


def as_is(value: Any) -> bool:
    """Does :func:`canonical` write ``value`` as it is: no float, no integer beyond 2^53, no
    key that sorts otherwise in UTF-16, nothing but JSON's own types?"""
    return _as_is(value)


def _as_is(value: Any) -> bool:
    kind = value.__class__
    if kind is dict:
        for key in value:
            # An ASCII string, the usual key, without a call: _sorts_alike in short.
            if not (key.__class__ is str and key.isascii()) and not _sorts_alike(key):
                return False
        return _all_as_is(value.values())
    if kind is list or kind is tuple:
        return _all_as_is(value)
    if kind is str or value is None or kind is bool:
        return True
    if kind is int:
        return bool(-_SAFE <= value <= _SAFE)
    return False  # a float, or anything else: the careful way


def _all_as_is(values: Iterable[Any]) -> bool:
    # Scalars are looked at here, in their container's loop: most of an event is short
    # strings and small integers, and a call each costs more.
    for inner in values:
        leaf = inner.__class__
        if leaf is str or inner is None or leaf is bool:
            continue
        if leaf is int:
            if -_SAFE <= inner <= _SAFE:
                continue
            return False
        if not _as_is(inner):
            return False
    return True


def _plain(value: Any) -> Any:
    """``value`` with integral floats as ints, or _NOT_PLAIN if the fast path may differ."""
    kind = type(value)
    if kind is str or value is None or kind is bool:
        return value
    if kind is dict:
        out = {}
        for key, inner in value.items():
            if not _sorts_alike(key):
                return _NOT_PLAIN
            plain = _plain(inner)
            if plain is _NOT_PLAIN:
                return _NOT_PLAIN
            out[key] = plain
        return out
    if kind is list or kind is tuple:
        items = []
        for inner in value:
            plain = _plain(inner)
            if plain is _NOT_PLAIN:
                return _NOT_PLAIN
            items.append(plain)
        return items
    if kind is int:
        return value if -_SAFE <= value <= _SAFE else _NOT_PLAIN
    if kind is float:
        if value.is_integer():
            # RFC 8785 (ECMAScript) writes 30.0 as 30; Python would write 30.0.
            return int(value) if abs(value) <= _SAFE else _NOT_PLAIN
        # Python's repr and ECMAScript agree on the shortest digits in fixed notation, which
        # both use in this range (repr turns to exponents below 1e-4 and from 1e16).
        return value if 1e-4 <= abs(value) < 1e16 else _NOT_PLAIN
    return _NOT_PLAIN


def sha256(*parts: bytes | bytearray) -> bytes:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.digest()


def tag(name: str) -> bytes:
    """The domain tag ``ghillie/<name>\\x00``."""
    return b"ghillie/" + name.encode("ascii") + b"\x00"
