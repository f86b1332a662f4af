"""Capability tokens: a side's link is its token. Only hashes are stored."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    """256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
