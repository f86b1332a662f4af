"""Byte encodings every fairness hash is built from, so that no two inputs share bytes.

Every variable-length field is length-prefixed (``lp``) and every hash starts with its own
domain tag, so a commitment can never be mistaken for a chain link, a roll key or a log hash.
JSON payloads are canonicalised with RFC 8785 (the ``rfc8785`` package), which an
implementation in another language can reproduce byte for byte.
"""

from __future__ import annotations

import hashlib
from typing import Any

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


def canonical(value: Any) -> bytes:
    """RFC 8785 canonical JSON."""
    return rfc8785.dumps(value)


def sha256(*parts: bytes) -> bytes:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.digest()


def tag(name: str) -> bytes:
    """The domain tag ``ghillie/<name>\\x00``."""
    return b"ghillie/" + name.encode("ascii") + b"\x00"
