"""fair.js, the browser's copy of the fairness primitives, gives the same bytes as the Python
package (ghillie.fairness) on many generated cases: SHA-256, HMAC, the length-prefixed
encodings, RFC 8785 canonical JSON, commitments, roster openings (real ones from a
:class:`Roster`, and altered ones), hash chains, and the host's Ed25519 signatures on heads
and roll requests (fair.js verifies with @noble/curves, Python with ``cryptography``: valid
ones verify; an altered message, signature or key, another key, malformed hex and keys of
small order fail on both).

The module runs in Debian's chromium, loaded by URL from the running server, with
``crypto.subtle`` taken away first: phones reach the server over plain http, which is not a
secure context, so fair.js must not need it. All cases go to the page in one call.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import random
import struct
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import rfc8785

from ghillie.fairness.chains import Chain, back
from ghillie.fairness.commitment import commit
from ghillie.fairness.encoding import canonical, lp, tag, text, u32, u64
from ghillie.fairness.hashlog import (
    _SMALL_ORDER,
    HostKey,
    genesis,
    head_message_v2,
    order_digest,
    order_message,
    request_message,
    shown_content,
    shown_digest_v2,
    verify,
    verify_head,
    verify_request,
)
from ghillie.fairness.roster import Roster, Written, check_opening

from . import test_browser

server = test_browser.server  # the same `ghillie serve` and chromium as the page tests
browser = test_browser.browser

SEED = 8785
SPECIAL_LENGTHS = [0, 1, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 1000]

# Escapes, non-ASCII, U+2028/9 (which some JSON writers escape and RFC 8785 does not), the
# BOM, the top of the BMP and astral characters (surrogate pairs in UTF-16).
CHARS = [
    *"aZ09 ~/'",
    *(chr(i) for i in range(0x20)),
    *'\x7f"\\',
    *"é߀中\u0080\u00ff\u2028\u2029\ufeff\ue000\ufb33\uffff",
    *"\U00010000\U0001d11e\U0001f600\U0010ffff",
]
# Keys whose order differs between UTF-16 code units (RFC 8785) and code points: U+E000 to
# U+FFFF sort after astral characters in UTF-16, before them by code point.
KEYS = ["", "a", "A", "b", "aa", "1", "10", "2", "é", "\ue000", "\ufb33", "\uffff"]
KEYS += ["\U00010000", "\U0001f600", "\x00", "\u2028", "\r", "__proto__"]
SPECIAL_NUMBERS: list[int | float] = [
    *(0, -0.0, 0.0, 1, -1, 2**31, 2**32, 2**53 - 1, -(2**53 - 1), 1.0, -1.0, 100.0),
    *(0.1, 0.2 + 0.1, 1 / 3, -2 / 3, 4.35, 1e21, 1e-7, -1e-7, 1e-6, 1.5e-7, 5e-7, 1e20),
    *(1e22, 1e23, 1e16, 1e15 + 0.5, 123456789e-15, 2.0**53, 2.0**64, -(2.0**70)),
    *(5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 333333333.3333333),
]
# The RFC's own sorting example (RFC 8785 §3.2.3).
RFC_SORTING = {
    "€": "Euro",
    "\r": "CR",
    "דּ": "Hebrew",
    "1": "One",
    "😀": "Smiley",
    "\x80": "C1",
    "ö": "Latin",
}


def random_string(rng: random.Random, most: int = 8) -> str:
    return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, most)))


def random_double(rng: random.Random) -> float:
    """Any finite double, from random bits: every exponent, every digit count."""
    while True:
        (value,) = struct.unpack(">d", rng.randbytes(8))
        if math.isfinite(value):
            return float(value)


def random_number(rng: random.Random) -> int | float:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice(SPECIAL_NUMBERS)
    if kind == 1:
        return rng.randint(-(2**53 - 1), 2**53 - 1)
    if kind == 2:
        return rng.randint(-1000, 1000)
    if kind == 3:
        return random_double(rng)
    if kind == 4:
        return round(rng.uniform(-1e6, 1e6), rng.randint(0, 9))
    return rng.choice((1, -1)) * rng.random() * 10.0 ** rng.randint(-30, 30)


def random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 3 and roll < 0.2:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 3 and roll < 0.45:
        size = rng.randint(0, 6)
        keys = [
            rng.choice(KEYS) if rng.random() < 0.5 else random_string(rng, 4) for _ in range(size)
        ]
        return {key: random_value(rng, depth + 1) for key in keys}
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind in (1, 2):
        return random_string(rng)
    return random_number(rng)


def attempt(action: Callable[[], Any]) -> Any:
    """The result, or ``{"error": True}`` if Python refuses (fair.js then has to throw)."""
    try:
        return action()
    except (ValueError, OverflowError, TypeError, AttributeError):
        return {"error": True}


# --- the cases, with what Python makes of them ----------------------------------------------------


def hash_cases(rng: random.Random) -> dict[str, Any]:
    sha = [rng.randbytes(n) for n in SPECIAL_LENGTHS + [rng.randint(0, 300) for _ in range(40)]]
    keys = [0, 1, 32, 63, 64, 65, 100, 200] + [rng.randint(0, 150) for _ in range(20)]
    macs = [(rng.randbytes(k), rng.randbytes(rng.choice(SPECIAL_LENGTHS))) for k in keys]
    return {
        "sha256": ([d.hex() for d in sha], [hashlib.sha256(d).hexdigest() for d in sha]),
        "hmac": (
            [[k.hex(), m.hex()] for k, m in macs],
            [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in macs],
        ),
    }


def encoding_cases(rng: random.Random) -> dict[str, Any]:
    # u64 goes as a decimal string; the page makes a BigInt of it, so 2**64 - 1 fits.
    wide = [0, 1, 255, 256, 2**32 - 1, 2**32, 2**53 - 1, 2**53, 2**63, 2**64 - 1, 2**64, -1]
    wide += [rng.randrange(2**64) for _ in range(10)]
    narrow = [0, 1, 2**31, 2**32 - 1, 2**32, -1, *(rng.randrange(2**32) for _ in range(5))]
    strings = [random_string(rng, 20) for _ in range(20)] + ["", "\ud800", "a\udfffb"]
    names = ["commit/v1", "chain/v1", "roster/v1", "x", ""]
    hexes = ["", "00", "AbCd", "00 11", " 00\t11\n", "0011\x0b22", "0 0", "0", "zz", "00\x1c11"]
    hexes += ["é0", "0x00", "ab" * 32]
    return {
        "u64": ([str(n) for n in wide], [attempt(lambda n=n: u64(n).hex()) for n in wide]),
        "u32": (narrow, [attempt(lambda n=n: u32(n).hex()) for n in narrow]),
        "text": (strings, [attempt(lambda s=s: text(s).hex()) for s in strings]),
        "lp": (
            [b.hex() for b in (b"", b"\x00", bytes(300))],
            [lp(b).hex() for b in (b"", b"\x00", bytes(300))],
        ),
        "tag": (names, [tag(name).hex() for name in names]),
        "unhex": (hexes, [attempt(lambda s=s: bytes.fromhex(s).hex()) for s in hexes]),
    }


def canonical_cases(rng: random.Random) -> dict[str, Any]:
    values: list[Any] = [RFC_SORTING, {k: i for i, k in enumerate(KEYS)}, *SPECIAL_NUMBERS]
    values += [{"b": [1, {"z": None, "y": True}], "a": "x"}, [], {}, "", [[[]]], "\x00\x1f\x7f"]
    values += [random_double(rng) for _ in range(400)]
    values += [random_string(rng, 30) for _ in range(100)]
    values += [random_value(rng) for _ in range(400)]
    return {"canonical": (values, [canonical(v).hex() for v in values])}


def commit_cases(rng: random.Random) -> dict[str, Any]:
    cases = []
    for i in range(150):
        seq = rng.choice([0, 1, 2**32, 2**53 - 1, rng.randrange(2**53), rng.randrange(1000)])
        salt = rng.randbytes(32 if i % 25 else rng.choice([0, 31, 33]))
        cases.append(
            [
                rng.choice(["fact", "hidden_position", "plotted_orders", random_string(rng)]),
                rng.choice(["g1", "01J0ABCDEF", random_string(rng, 12)]),
                rng.choice(["jungle", "river", random_string(rng, 6)]),
                seq,
                random_value(rng),
                salt.hex(),
            ]
        )
    expected = [
        attempt(lambda c=c: commit(c[0], c[1], c[2], c[3], c[4], bytes.fromhex(c[5])))
        for c in cases
    ]
    return {"commit": (cases, expected)}


def altered(opening: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Openings that differ from a real one in one way each."""

    def but(**changes: Any) -> dict[str, Any]:
        return {**opening, **changes}

    leaves = opening["leaves"]
    salt, blind = opening["salt"], opening["blind"]
    yield but(value={"not": opening["value"]})
    yield but(value=None if opening["value"] is not None else 0)
    yield but(salt=f"{int(salt[0], 16) ^ 1:x}{salt[1:]}")
    yield but(salt=salt.upper())  # the same bytes: Python's fromhex reads either case
    yield but(salt=salt[:-2])
    yield but(blind=f"{int(blind[0], 16) ^ 1:x}{blind[1:]}")
    yield but(blind=blind[:-2])
    nonce = opening["nonce"]
    yield but(nonce=f"{int(nonce[0], 16) ^ 1:x}{nonce[1:]}")
    yield but(nonce=nonce[:-2])
    yield but(nonce=blind)
    yield but(root_seq=opening["root_seq"] - 1)
    yield but(root_seq=str(opening["root_seq"]))
    yield but(side=opening["side"] + "x")
    yield but(piece=opening["piece"] + "x")
    yield but(key=opening["key"].upper())
    at = rng.randrange(len(leaves))
    yield but(leaves=sorted([*leaves[:at], "00" * 32, *leaves[at + 1 :]]))
    yield but(leaves=leaves[:-1])
    yield but(leaves=[*leaves, "ff" * 32])
    yield but(leaves=list(reversed(leaves)))
    yield but(leaves=[*leaves[:-1], "zz"])
    yield but(leaves="".join(leaves))
    yield but(leaves=[x.upper() for x in leaves])  # the same bytes again
    yield but(slot=3)  # a field an opening does not have
    for field in ("side", "piece", "key", "value", "salt", "blind", "nonce", "leaves", "root_seq"):
        yield {k: v for k, v in opening.items() if k != field}
    # Python lets these escape as OverflowError / AttributeError instead of answering False.
    yield but(root_seq=-1)
    yield but(side=7)


def opening_cases(rng: random.Random) -> dict[str, Any]:
    cases = []
    for game_id, side, size in [
        ("g1", "jungle", 16),
        ("01J0Z", "river", 20),
        ("ゲーム", "côté 😀", 33),
    ]:
        roster = Roster(game_id, side, rng.randbytes(32), size)
        facts = [(f"p{i}", key) for i in range(4) for key in ("square", "marker", "decoy")]
        for seq, (piece, key) in enumerate(facts):
            slot = roster.free_slot(rng.randrange(size))
            value = random_value(rng)
            roster.write(Written(piece, key, slot, rng.randbytes(32).hex(), 0), value, seq)
            roster.seal(seq, rng.random() < 0.3)  # some events blind every leaf afresh
        root_seq = len(facts)
        root = roster.seal(root_seq, False)
        for piece, key in facts:
            opening = roster.opening(piece, key, root_seq)
            cases.append([game_id, opening, root, size])
            cases.append([game_id, opening, roster.root(root_seq + 1), size])
            cases.append([game_id + "x", opening, root, size])
            cases.append([game_id, opening, root, size + 1])
            cases.extend([game_id, bad, root, size] for bad in altered(opening, rng))
    expected = []
    for game_id, opening, root, size in cases:
        try:
            expected.append(check_opening(game_id, opening, root, size))
        except (OverflowError, AttributeError):
            expected.append(False)  # check_opening lets these escape; fair.js says False
    return {"opening": (cases, expected)}


def altered_written(opening: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Openings of a fixed fact whose proof of its write differs in one way each."""
    written = opening["written"]

    def but(**changes: Any) -> dict[str, Any]:
        return {**opening, "written": {**written, **changes}}

    leaves, blind, seq, nonce = (
        written["leaves"],
        written["blind"],
        written["seq"],
        written["nonce"],
    )
    at = rng.randrange(len(leaves))
    yield but(leaves=sorted([*leaves[:at], "00" * 32, *leaves[at + 1 :]]))
    yield but(leaves=leaves[:-1])
    yield but(leaves=[*leaves, "ff" * 32])
    yield but(leaves=list(reversed(leaves)))
    yield but(leaves=[x.upper() for x in leaves])  # the same bytes again
    yield but(leaves=opening["leaves"])  # the root's leaves now, not the write's
    yield but(blind=f"{int(blind[0], 16) ^ 1:x}{blind[1:]}")
    yield but(blind=opening["blind"])
    yield but(blind=blind[:-2])
    yield but(nonce=f"{int(nonce[0], 16) ^ 1:x}{nonce[1:]}")
    yield but(nonce=opening["nonce"])  # the root's nonce now, not the write's
    yield but(seq=seq + 1)
    yield but(seq=seq - 1)
    yield but(seq=opening["root_seq"] + 1)  # after the root it opens against
    yield but(seq=-1)
    yield but(seq=str(seq))
    yield but(seq=True)
    yield but(seq=2**53)
    yield but(slot=3)
    for field in ("seq", "blind", "nonce", "leaves"):
        yield {**opening, "written": {k: v for k, v in written.items() if k != field}}
    yield {**opening, "written": None}
    yield {**opening, "written": [seq, blind, leaves]}
    yield {**opening, "written": "written at event 2"}
    yield {**opening, "value": {"not": opening["value"]}}  # another fact at both roots


def written_cases(rng: random.Random) -> dict[str, Any]:
    """Openings of facts that never change once written: each proves its write event, and
    is checked against the root of its reveal and the root of that event."""
    cases = []
    for game_id, side, size in [("g1", "jungle", 16), ("ゲーム", "côté 😀", 33)]:
        roster = Roster(game_id, side, rng.randbytes(32), size, frozenset({"square"}))
        roots: dict[int, str] = {}
        facts = []
        for seq in range(8):
            if seq in (1, 3, 5):
                for key in ("square", "marker"):
                    piece = f"p{seq}"
                    slot = roster.free_slot(rng.randrange(size))
                    value = random_value(rng)
                    written = Written(piece, key, slot, rng.randbytes(32).hex(), 0)
                    roster.write(written, value, seq)
                    facts.append((piece, key))
            roots[seq] = roster.seal(seq, False)
        for piece, key in facts:
            opening = roster.opening(piece, key, 7)
            at = opening["written"]["seq"] if "written" in opening else 0
            cases.append([game_id, opening, roots[7], size, roots[at]])
            cases.append([game_id, opening, roots[7], size, None])
            for seq in range(8):
                if seq != at:
                    cases.append([game_id, opening, roots[7], size, roots[seq]])
            if "written" in opening:
                cases.extend(
                    [game_id, bad, roots[7], size, roots[at]]
                    for bad in altered_written(opening, rng)
                )
        # A fact written at the event before its reveal: one root, given twice.
        roster.write(Written("p7", "square", roster.free_slot(0), rng.randbytes(32).hex(), 0), 7, 8)
        roots[8] = roster.seal(8, False)
        opening = roster.opening("p7", "square", 8)
        cases.append([game_id, opening, roots[8], size, roots[8]])
        cases.append([game_id, opening, roots[8], size, roots[7]])
    expected = [check_opening(*case) for case in cases]
    return {"written": (cases, expected)}


# RFC 8032 §7.1 TEST 1's private key (docs/fairness.md's signed-head vector uses it).
RFC8032_KEY = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
ORDER8 = "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"  # a point of order 8
ORDER = 2**252 + 27742317777372353535851937790883648493  # L, the order of the base point


def _flip(hex_text: str, rng: random.Random) -> str:
    """One bit of the bytes changed."""
    raw = bytearray(bytes.fromhex(hex_text))
    raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
    return raw.hex()


def _bad_sigs(sig: str, rng: random.Random) -> list[str]:
    s = int.from_bytes(bytes.fromhex(sig[64:]), "little")
    return [
        _flip(sig[:64], rng) + sig[64:],  # R altered
        sig[:64] + _flip(sig[64:], rng),  # S altered
        sig[:64] + (s + ORDER).to_bytes(32, "little").hex(),  # S + L: same value, not < L
        sig.upper(),  # the same bytes, another spelling
        sig[:-2],
        sig + "00",
        "",
        "zz" + sig[2:],
        " " + sig[1:],
        "00" * 64,
    ]


def _bad_keys(public: str) -> list[str]:
    # Non-canonical encodings (y >= p, which stand for y - p) and the points of small order,
    # with either sign bit.
    wide = [(2**255 - 19 + n).to_bytes(32, "little").hex() for n in range(19)]
    small = [k.hex() for k in sorted(_SMALL_ORDER)]
    signed = [(k[:31] + bytes([k[31] | 0x80])).hex() for k in sorted(_SMALL_ORDER)]
    spelled = [public.upper(), public[:-2], public + "00", "", "zz" + public[2:]]
    return [*spelled, *wide, *small, *signed]


def signature_cases(rng: random.Random) -> dict[str, Any]:
    """Heads and roll requests: valid ones, and ones altered in message, signature or key."""
    keys = [HostKey.from_bytes(bytes.fromhex(RFC8032_KEY))]
    keys += [HostKey.from_bytes(rng.randbytes(32)) for _ in range(3)]
    heads: list[list[Any]] = []
    requests: list[list[Any]] = []
    for n, key in enumerate(keys):
        other = keys[(n + 1) % len(keys)].public
        game = ["g", "01J0ABCDEF", "Прохоровка-1943", random_string(rng, 10)][n]
        for seq in [0, 1, 255, 2**32, 2**53 - 1, rng.randrange(5000)]:
            digest = rng.randbytes(32).hex()
            shown = [rng.randbytes(32) for _ in range(rng.choice([1, 2, 3]))]
            sig = key.sign(head_message_v2(game, seq, bytes.fromhex(digest), shown))
            head = {"seq": seq, "hash": digest, "sig": sig, "shown": [d.hex() for d in shown]}
            heads.append([key.public, game, head])
            heads.append([other, game, head])  # another key
            heads.append([key.public, game + "x", head])
            heads.append([key.public, game, {**head, "seq": seq + 1}])
            heads.append([key.public, game, {**head, "hash": _flip(digest, rng)}])
            heads.append([key.public, game, {**head, "hash": digest.upper()}])
            heads += [[key.public, game, {**head, "sig": bad}] for bad in _bad_sigs(sig, rng)]
            heads += [[bad, game, head] for bad in _bad_keys(key.public)]
            for field in ("seq", "hash", "sig", "shown"):
                heads.append([key.public, game, {k: v for k, v in head.items() if k != field}])
            # Each side's digest of what it was shown is signed with the head.
            one = [d.hex() for d in shown]
            heads.append([key.public, game, {**head, "shown": [_flip(one[0], rng), *one[1:]]}])
            heads.append([key.public, game, {**head, "shown": [*one, one[0]]}])
            heads.append([key.public, game, {**head, "shown": list(reversed(one))}])
            heads.append([key.public, game, {**head, "shown": []}])
            heads.append([key.public, game, {**head, "shown": one[0]}])
            heads.append([key.public, game, {**head, "shown": [one[0].upper(), *one[1:]]}])
            heads.append([key.public, game, {**head, "seq": -1}])
            heads.append([key.public, game, {**head, "seq": str(seq)}])
            heads.append([key.public, game, {**head, "seq": True}])
        for k, side in [(0, None), (1, ""), (7, "keno"), (4095, "côté 😀"), (2**40, "lianra")]:
            commitment, prev = rng.randbytes(32).hex(), rng.randbytes(32).hex()
            order = "" if side is None or k == 4095 else rng.randbytes(32).hex()
            message = request_message(game, k, side, commitment, bytes.fromhex(prev), order)
            sig = key.sign(message)
            request = {
                "k": k,
                "side": side,
                "commitment": commitment,
                "prev": prev,
                "order": order,
                "sig": sig,
            }
            requests.append([key.public, game, {**request, "order": rng.randbytes(32).hex()}])
            requests.append([key.public, game, {**request, "order": order.upper() or "AB"}])
            requests.append([key.public, game, request])
            requests.append([other, game, request])
            requests.append([key.public, game + "x", request])
            requests.append([key.public, game, {**request, "k": k + 1}])
            requests.append([key.public, game, {**request, "side": (side or "") + "x"}])
            if side == "":
                requests.append([key.public, game, {**request, "side": None}])  # signs as ""
            requests.append([key.public, game, {**request, "commitment": _flip(commitment, rng)}])
            requests.append([key.public, game, {**request, "prev": _flip(prev, rng)}])
            requests += [[key.public, game, {**request, "sig": bad}] for bad in _bad_sigs(sig, rng)]
            requests += [[bad, game, request] for bad in _bad_keys(key.public)]
            requests.append([key.public, game, {**request, "side": 7}])
            for field in ("k", "commitment", "prev", "order", "sig"):
                requests.append(
                    [key.public, game, {k_: v for k_, v in request.items() if k_ != field}]
                )
    # Under a key of small order, R = a small-order point and S = 0 "verify" for any message
    # with OpenSSL alone: both sides must refuse such a key, whatever the signature.
    for small in sorted(_SMALL_ORDER):
        digest = rng.randbytes(32).hex()
        for r in sorted(_SMALL_ORDER):
            sig = r.hex() + "00" * 32
            head = {"seq": 3, "hash": digest, "sig": sig, "shown": [digest]}
            heads.append([small.hex(), "g", head])
    return {
        "head": (heads, [verify_head(key, game, head) for key, game, head in heads]),
        "request": (requests, [verify_request(key, game, r) for key, game, r in requests]),
    }


def _entry(rng: random.Random, seq: int, side: str, setup: bool) -> dict[str, Any]:
    """A side's log entry as the view gives it (ghillie.view.proof), with random parts."""
    others = [random_string(rng, 6) for _ in range(rng.randint(1, 2))]
    proof: dict[str, Any] = {
        "hash": rng.randbytes(32).hex(),
        "sig": rng.randbytes(64).hex(),
        "roots": {s: rng.randbytes(32).hex() for s in (side, *others)},
        "contributions": {side: rng.randbytes(32).hex()},
        "openings": [random_value(rng) for _ in range(rng.randint(0, 2))],
        "shown": {
            "salt": rng.randbytes(32).hex(),
            "digests": {s: rng.randbytes(32).hex() for s in others},
        },
    }
    if setup:
        proof["setup"] = {"version": 4, "key": rng.randbytes(32).hex(), "roster": 128}
    if rng.random() < 0.3:
        proof["keys"] = {side: rng.randbytes(32).hex()}
    if rng.random() < 0.3:
        proof["order"] = rng.randbytes(32).hex()
    lines = [random_string(rng, 30) for _ in range(rng.randint(0, 3))]
    return {"seq": seq, "lines": lines, "proof": proof}


def _shown_of(entry: dict[str, Any], side: str) -> bytes:
    proof = entry["proof"]
    fair = {**proof, "openings": {side: proof["openings"]}}
    content = shown_content(entry["seq"], fair, entry["lines"], side)
    return shown_digest_v2(bytes.fromhex(proof["shown"]["salt"]), content)


def _sides_of(entry: dict[str, Any], side: str) -> list[str]:
    """The game's sides, in an order where ``side`` is anywhere."""
    return sorted([side, *entry["proof"]["shown"]["digests"]])


def shown_cases(rng: random.Random) -> dict[str, Any]:
    """What a page computes of what it was shown of an event (its salted digest), and the
    head receipt it keeps (its digest among the others', in the game's side order); the
    genesis hash."""
    games = ["g", "01J0ABCDEF", "Прохоровка-1943", *(random_string(rng, 10) for _ in range(5))]
    entries: list[list[Any]] = []
    for n in range(60):
        game, side = rng.choice(games), rng.choice(["keno", "côté 😀", random_string(rng, 6)])
        seq = rng.choice([0, 1, 2**32, 2**53 - 1, rng.randrange(5000)])
        entry = _entry(rng, seq, side, setup=n % 4 == 0)
        entries.append([game, side, entry])
        # What the page is shown changed in one place: another digest.
        changed = copy.deepcopy(entry)
        changed["lines"] = [*changed["lines"], "No unit there."]
        entries.append([game, side, changed])
    receipts = [[side, _sides_of(e, side), e] for _, side, e in entries]
    expected_receipts = [
        {
            "seq": e["seq"],
            "hash": e["proof"]["hash"],
            "sig": e["proof"]["sig"],
            "shown": [
                _shown_of(e, side).hex() if s == side else e["proof"]["shown"]["digests"][s]
                for s in sides
            ],
        }
        for side, sides, e in receipts
    ]
    return {
        "shown_digest": (entries, [_shown_of(e, side).hex() for _, side, e in entries]),
        "head_receipt": (receipts, expected_receipts),
        "genesis": (games, [genesis(game).hex() for game in games]),
    }


def order_cases(rng: random.Random) -> dict[str, Any]:
    """A side's order as its page signs it: the message, the digest the host's request
    quotes, and the signature (Ed25519 is deterministic: the same bytes, and Python's verify
    takes it); the public key of the seat key's secret."""
    cases = []
    for n in range(30):
        secret = rng.randbytes(32).hex()
        game = rng.choice(["g", "Прохоровка-1943", random_string(rng, 10)])
        side = rng.choice(["keno", "côté 😀", random_string(rng, 6)])
        k = rng.choice([0, 1, 4095, 2**32, rng.randrange(5000)])
        command = {"type": random_string(rng, 8), "x": random_value(rng)} if n else {}
        cases.append([secret, game, k, side, random_string(rng, 12) or "c", command])
    expected = []
    for secret, game, k, side, command_id, command in cases:
        key = HostKey.from_bytes(bytes.fromhex(secret))
        message = order_message(game, k, side, command_id, command)
        sig = key.sign(message)
        assert verify(key.public, message, sig)
        expected.append([key.public, message.hex(), sig, order_digest(sig)])
    return {"order": (cases, expected)}


def chain_cases(rng: random.Random) -> dict[str, Any]:
    chains = [(rng.randbytes(32), n) for n in (0, 1, 2, 5, 100)] + [(bytes(32), 3)]
    chains.append((rng.randbytes(16), 4))
    full = rng.randbytes(32)  # one of the real length, sampled
    sample = [0, 1, 2, 1000, 4094, 4095]
    expected = []
    for seed, n in chains:
        chain = Chain.from_seed(seed, n)
        expected.append([chain.anchor.hex(), *(chain.element(k).hex() for k in range(n))])
    chain = Chain.from_seed(full)
    return {
        "chain": ([[seed.hex(), n] for seed, n in chains], expected),
        "full_chain": (
            [full.hex(), sample],
            [chain.anchor.hex(), *(chain.element(k).hex() for k in sample)],
        ),
        "back": (
            [chain.element(k).hex() for k in sample],
            [back(chain.element(k)).hex() for k in sample],
        ),
    }


# The page's side: the same operations on the same inputs, as hex (or {"error": ...}).
RUN = """
async (casesJson) => {
  // JSON text, not Playwright's own serialisation: Python writes every float so that
  // JSON.parse gets the same double back, and lone surrogates survive as \\u escapes.
  const cases = JSON.parse(casesJson);
  // A phone on the LAN has no crypto.subtle (not a secure context); neither has this page.
  Object.defineProperty(crypto, "subtle", { value: undefined });
  const f = await import("/static/fair.js");
  const { hex, unhex } = f;
  const attempt = (action) => {
    try { return action(); } catch (error) { return { error: true, name: error.name }; }
  };
  const started = performance.now();
  const out = {
    sha256: cases.sha256.map((x) => hex(f.sha256(unhex(x)))),
    hmac: cases.hmac.map(([k, m]) => hex(f.hmacSha256(unhex(k), unhex(m)))),
    u64: cases.u64.map((n) => attempt(() => hex(f.u64(BigInt(n))))),
    u32: cases.u32.map((n) => attempt(() => hex(f.u32(n)))),
    text: cases.text.map((s) => attempt(() => hex(f.text(s)))),
    lp: cases.lp.map((x) => hex(f.lp(unhex(x)))),
    tag: cases.tag.map((name) => hex(f.tag(name))),
    unhex: cases.unhex.map((s) => attempt(() => hex(unhex(s)))),
    canonical: cases.canonical.map((v) => hex(f.canonical(v))),
    commit: cases.commit.map(([kind, game, owner, seq, payload, salt]) =>
      attempt(() => f.commit(kind, game, owner, seq, payload, unhex(salt)))),
    opening: cases.opening.map(([game, opening, root, size]) =>
      f.checkOpening(game, opening, root, size)),
    written: cases.written.map(([game, opening, root, size, writtenRoot]) =>
      f.checkOpening(game, opening, root, size, writtenRoot)),
    chain: cases.chain.map(([seed, n]) => {
      const chain = f.chainFromSeed(unhex(seed), n);
      return [chain.anchor, ...Array.from({ length: n }, (_, k) => chain.element(k))].map(hex);
    }),
    back: cases.back.map((x) => hex(f.back(unhex(x)))),
    head: cases.head.map(([key, game, head]) => f.verifyHead(key, game, head)),
    request: cases.request.map(([key, game, request]) => f.verifyRequest(key, game, request)),
    shown_digest: cases.shown_digest.map(([, , entry]) => hex(f.shownDigest(entry))),
    head_receipt: cases.head_receipt.map(([side, sides, entry]) =>
      f.headReceipt(entry, side, sides)),
    order: cases.order.map(([secret, game, k, side, id, command]) => {
      const sig = f.signOrder(secret, game, k, side, id, command);
      const message = hex(f.orderMessage(game, k, side, id, command));
      return [f.seatPublic(secret), message, sig, f.orderDigest(sig)];
    }),
    genesis: cases.genesis.map((game) => hex(f.genesis(game))),
  };
  const [seed, sample] = cases.full_chain;
  const chain = f.chainFromSeed(unhex(seed));
  out.full_chain = [chain.anchor, ...sample.map((k) => chain.element(k))].map(hex);
  out.timing_ms = performance.now() - started;

  // The eight points of small order, from the library itself: Python's list must hold them.
  const { ed25519 } = await import("/static/vendor/noble-curves/ed25519.js");
  const order8 = ed25519.Point.fromHex(cases.order8);
  let point = ed25519.Point.ZERO;
  out.torsion = [];
  for (let i = 0; i < 8; i++) {
    out.torsion.push(point.toHex());
    point = point.add(order8);
  }

  // What Python has no exact twin for: links, range errors, non-JSON values, fresh seeds.
  const e0 = chain.element(0), e1 = chain.element(1);
  const seeds = [f.newSeed(), f.newSeed()];
  out.checks = {
    links: [f.links(chain.anchor, e0), f.links(e0, e1), f.links(chain.anchor, e1), f.links(e1, e0)],
    length: [chain.length, f.LENGTH],
    element_out_of_range: [-1, 4096, 1.5].map((k) => attempt(() => chain.element(k))),
    not_json: [NaN, Infinity, -Infinity, undefined, () => 1, "\\ud800", { a: "x\\udc00" },
      [undefined], new Date(0), Symbol("s"), 1n, { a: undefined }]
      .map((v) => attempt(() => f.canonical(v))),
    unsafe_u64: attempt(() => f.u64(2 ** 53)),
    seeds: [seeds[0].length, seeds[0] instanceof Uint8Array, hex(seeds[0]) !== hex(seeds[1])],
    subtle: typeof crypto.subtle,
  };
  return out;
}
"""


@pytest.fixture(scope="module")
def cases() -> dict[str, tuple[Any, Any]]:
    """``{name: (inputs for the page, what Python answers)}``."""
    rng = random.Random(SEED)
    out: dict[str, tuple[Any, Any]] = {}
    for make in (
        hash_cases,
        encoding_cases,
        canonical_cases,
        commit_cases,
        opening_cases,
        chain_cases,
        signature_cases,
        shown_cases,
        order_cases,
        written_cases,
    ):
        out.update(make(rng))
    return out


def test_the_small_order_keys_refused_are_every_point_of_small_order(
    answers: dict[str, Any],
) -> None:
    torsion = {bytes.fromhex(h) for h in answers["torsion"]}
    masked = {t[:31] + bytes([t[31] & 0x7F]) for t in torsion}
    assert len(torsion) == 8
    # The list holds every one of them, and besides only the non-canonical y = p, p + 1.
    noncanonical = {(2**255 - 19 + n).to_bytes(32, "little") for n in (0, 1)}
    assert masked | noncanonical == _SMALL_ORDER


def test_the_signature_cases_are_not_vacuous(cases: dict[str, tuple[Any, Any]]) -> None:
    for name in ("head", "request"):
        results = cases[name][1]
        assert 20 <= results.count(True) < len(results) // 5, name
    # An entry changed in one place has another digest.
    digests = cases["shown_digest"][1]
    assert all(a != b for a, b in zip(digests[::2], digests[1::2], strict=True))


@pytest.fixture(scope="module")
def answers(browser: Any, server: str, cases: dict[str, tuple[Any, Any]]) -> dict[str, Any]:
    context = browser.new_context()
    context.set_default_timeout(test_browser.TIMEOUT_MS)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server + "/")
        inputs = json.dumps(
            {"order8": ORDER8, **{name: inputs for name, (inputs, _) in cases.items()}}
        )
        result: dict[str, Any] = page.evaluate(RUN, inputs)
        assert errors == []
        return result
    finally:
        context.close()


def same(js: list[Any], python: list[Any], inputs: Any) -> None:
    """Every answer equal; a JS refusal counts as equal to a Python refusal."""
    assert len(js) == len(python)
    js = [{"error": True} if isinstance(a, dict) and a.get("error") else a for a in js]
    wrong = [
        (i, inputs[i], a, b) for i, (a, b) in enumerate(zip(js, python, strict=True)) if a != b
    ]
    assert not wrong, f"{len(wrong)} of {len(js)} differ; first: {wrong[:3]}"


@pytest.mark.parametrize(
    "name",
    [
        "sha256",
        "hmac",
        "u64",
        "u32",
        "text",
        "lp",
        "tag",
        "unhex",
        "canonical",
        "commit",
        "opening",
        "written",
        "chain",
        "full_chain",
        "back",
        "head",
        "request",
        "shown_digest",
        "head_receipt",
        "order",
        "genesis",
    ],
)
def test_fair_js_gives_the_same_bytes_as_python(
    name: str, cases: dict[str, tuple[Any, Any]], answers: dict[str, Any]
) -> None:
    inputs, python = cases[name]
    if name == "full_chain":
        assert answers[name] == python
    else:
        same(answers[name], python, inputs)


def test_the_cases_are_not_vacuous(cases: dict[str, tuple[Any, Any]]) -> None:
    """Real openings pass and most altered ones fail; some inputs are refused."""
    results = cases["opening"][1]
    assert results.count(False) > 50
    assert 20 < results.count(True) < len(results) // 4
    # Proofs of a write: the genuine ones pass (with the root of their event only), and
    # most altered ones fail.
    inputs, written = cases["written"]
    proving = [
        ok
        for (_, opening, _, _, _), ok in zip(inputs, written, strict=True)
        if isinstance(opening.get("written"), dict)
    ]
    assert 8 <= proving.count(True) < 20
    assert proving.count(False) > 150
    assert sum(isinstance(c, dict) for c in cases["commit"][1]) >= 5
    floats = [v for v in cases["canonical"][0] if isinstance(v, float)]
    assert any(abs(v) >= 1e21 for v in floats)
    assert any(0 < abs(v) < 1e-6 for v in floats)
    assert rfc8785.dumps(-0.0) == b"0"  # and JSON.stringify(-0) is "0" too


def test_what_python_has_no_twin_for(answers: dict[str, Any]) -> None:
    checks = answers["checks"]
    assert checks["links"] == [True, True, False, False]
    assert checks["length"] == [4096, 4096]
    assert all(a["name"] == "RangeError" for a in checks["element_out_of_range"])
    assert all(isinstance(a, dict) and a["error"] for a in checks["not_json"])
    assert checks["unsafe_u64"]["name"] == "RangeError"
    assert checks["seeds"] == [32, True, True]
    assert checks["subtle"] == "undefined"
    # Python refuses the same things: NaN, infinities, lone surrogates.
    for value in (math.nan, math.inf, -math.inf, "\ud800", {"a": "x\udc00"}):
        with pytest.raises(rfc8785.CanonicalizationError):
            rfc8785.dumps(value)
