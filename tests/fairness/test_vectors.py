"""The known-answer vectors published in docs/fairness.md ("## Test vectors") are what the
package computes, so the vectors an independent verifier checks against cannot drift from
the code. Each vector is a fenced ```json block: {"name", "type", "inputs", "expected"}."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie.fairness.chains import Chain, links
from ghillie.fairness.commitment import commit, opens
from ghillie.fairness.encoding import canonical, lp, sha256, tag, text, u32, u64
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message_v2,
    order_digest,
    order_message,
    request_message,
    shown_digest_v2,
    verify,
    verify_head,
)
from ghillie.fairness.roster import Roster, Written, check_opening, fact_payload
from ghillie.fairness.stream import StreamDice, die_from, roll_context, roll_key, words

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
HEADING = "## Test vectors"


def section(markdown: str) -> str:
    """The text under HEADING, up to the next second-level heading."""
    lines = markdown.splitlines()
    start = lines.index(HEADING)  # ValueError if the section is gone
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end])


def vectors() -> list[dict[str, Any]]:
    blocks = re.findall(r"^```json\n(.*?)^```$", section(DOC.read_text("utf-8")), re.M | re.S)
    return [json.loads(block) for block in blocks]


def words_hex(values: Iterator[int], count: int) -> list[str]:
    return [f"{next(values):016x}" for _ in range(count)]


def commit_vector(i: dict[str, Any]) -> dict[str, Any]:
    salt = bytes.fromhex(i["salt"])
    c = commit(i["kind"], i["game_id"], i["owner"], i["seq"], i["payload"], salt)
    assert opens(c, i["kind"], i["game_id"], i["owner"], i["seq"], i["payload"], salt)
    preimage = (
        lp(salt)
        + tag("commit/v1")
        + text(i["kind"])
        + text(i["game_id"])
        + text(i["owner"])
        + u64(i["seq"])
        + lp(canonical(i["payload"]))
    )
    return {
        "canonical_payload": canonical(i["payload"]).hex(),
        "preimage": preimage.hex(),
        "commitment": c,
    }


def chain_vector(i: dict[str, Any]) -> dict[str, Any]:
    chain = Chain.from_seed(bytes.fromhex(i["seed"]), i["length"])
    elements = [chain.element(k) for k in range(chain.length)]
    assert all(links(a, b) for a, b in zip([chain.anchor, *elements], elements, strict=False))
    return {"anchor": chain.anchor.hex(), "elements": [e.hex() for e in elements]}


def roll_vector(i: dict[str, Any]) -> dict[str, Any]:
    key = roll_key([bytes.fromhex(c) for c in i["contributions"]])
    context = roll_context(i["game_id"], i["k"])
    results = []
    for faces in i["sequences"]:
        dice = StreamDice(key, context)  # every sequence starts at the stream's first word
        results.append([dice.roll(n) for n in faces])
    return {
        "key": key.hex(),
        "context": context.hex(),
        "stream_message_0": (tag("roll-stream/v1") + lp(context) + u32(0)).hex(),
        "words": words_hex(words(key, context), i["word_count"]),
        "results": results,
    }


def rejection_vector(i: dict[str, Any]) -> dict[str, Any]:
    taken = []

    def stream() -> Iterator[int]:
        for w in i["words"]:
            taken.append(w)
            yield int(w, 16)

    result = die_from(stream(), i["faces"])
    return {"limit": f"{2**64 - 2**64 % i['faces']:x}", "result": result, "words_used": len(taken)}


def event_hash_vector(i: dict[str, Any]) -> dict[str, Any]:
    head = genesis(i["game_id"])
    out: dict[str, Any] = {
        "genesis": head.hex(),
        "preimage_1": (tag("event/v1") + lp(head) + lp(canonical(i["events"][0]))).hex(),
        "hashes": [],
    }
    for event in i["events"]:
        head = event_hash(head, event)
        out["hashes"].append(head.hex())
    return out


def signed_head_vector(i: dict[str, Any]) -> dict[str, Any]:
    """The head of event ``seq`` with every side's salted digest of what it was shown, under
    one signature (protocol 4)."""
    key = HostKey.from_bytes(bytes.fromhex(i["private_key"]))
    dummy = bytes.fromhex(i["dummy_key"])
    salts, digests = [], []
    for side in i["sides"]:
        salt = sha256(tag("shown-salt/v1"), lp(dummy), text(side), u64(i["seq"]))
        content = i["shown"][side]
        salts.append(salt.hex())
        digests.append(sha256(tag("shown/v2"), lp(salt), lp(canonical(content))))
    assert [
        shown_digest_v2(bytes.fromhex(s), i["shown"][side])
        for s, side in zip(salts, i["sides"], strict=True)
    ] == digests
    message = (
        tag("head/v2")
        + text(i["game_id"])
        + u64(i["seq"])
        + lp(bytes.fromhex(i["hash"]))
        + u32(len(digests))
        + b"".join(lp(d) for d in digests)
    )
    assert message == head_message_v2(i["game_id"], i["seq"], bytes.fromhex(i["hash"]), digests)
    signature = key.sign(message)
    assert verify(key.public, message, signature)
    head = {
        "seq": i["seq"],
        "hash": i["hash"],
        "sig": signature,
        "shown": [d.hex() for d in digests],
    }
    assert verify_head(key.public, i["game_id"], head)
    return {
        "public_key": key.public,
        "salts": salts,
        "digests": [d.hex() for d in digests],
        "message": message.hex(),
        "signature": signature,
    }


def signed_order_vector(i: dict[str, Any]) -> dict[str, Any]:
    """A side's command signed by its seat key, and the digest a roll request quotes."""
    key = HostKey.from_bytes(bytes.fromhex(i["seat_private_key"]))
    message = (
        tag("order/v1")
        + text(i["game_id"])
        + u64(i["k"])
        + text(i["side"])
        + text(i["command_id"])
        + lp(canonical(i["command"]))
    )
    assert message == order_message(i["game_id"], i["k"], i["side"], i["command_id"], i["command"])
    signature = key.sign(message)
    digest = sha256(tag("order-digest/v1"), bytes.fromhex(signature)).hex()
    assert digest == order_digest(signature)
    request = (
        tag("request/v2")
        + text(i["game_id"])
        + u64(i["k"])
        + text(i["side"])
        + text(i["commitment"])
        + lp(bytes.fromhex(i["prev"]))
        + text(digest)
    )
    assert request == request_message(
        i["game_id"], i["k"], i["side"], i["commitment"], bytes.fromhex(i["prev"]), digest
    )
    return {
        "seat_public_key": key.public,
        "message": message.hex(),
        "signature": signature,
        "order_digest": digest,
        "request_message": request.hex(),
    }


def _blind(dummy_key: bytes, side: str, seq: int, slot: int) -> bytes:
    """A slot's blinding value, drawn at event ``seq``, as docs/fairness.md describes it."""
    return sha256(tag("blind/v3"), lp(dummy_key), text(side), u64(seq), u32(slot))


def _nonce(dummy_key: bytes, side: str, seq: int) -> bytes:
    return sha256(tag("nonce/v3"), lp(dummy_key), text(side), u64(seq))


def _root(game_id: str, side: str, seq: int, nonce: bytes, leaves: list[bytes]) -> str:
    hashed = sha256(tag("leaves/v3"), *leaves)
    return sha256(
        tag("roster/v3"),
        text(game_id),
        text(side),
        u64(seq),
        u32(len(leaves)),
        lp(nonce),
        lp(hashed),
    ).hex()


def _leaves(dummy_key: bytes, side: str, digests: list[bytes], blinded: list[int]) -> list[bytes]:
    """Every slot's leaf, slot ``i`` under the blinding value drawn at event ``blinded[i]``,
    sorted."""
    return sorted(
        sha256(tag("leaf/v3"), lp(_blind(dummy_key, side, at, i)), lp(d))
        for i, (d, at) in enumerate(zip(digests, blinded, strict=True))
    )


def roster_empty_vector(i: dict[str, Any]) -> dict[str, Any]:
    """A roster nothing was written to: every slot blinded at event 0, its root at ``seq``."""
    dummy_key, size, side = bytes.fromhex(i["dummy_key"]), i["size"], i["side"]
    empty = sha256(tag("empty/v2"))
    leaves = _leaves(dummy_key, side, [empty] * size, [0] * size)
    nonce = _nonce(dummy_key, side, i["seq"])
    root = _root(i["game_id"], side, i["seq"], nonce, leaves)
    kept = Roster(i["game_id"], side, dummy_key, size)
    assert [kept.seal(s, False) for s in range(i["seq"] + 1)][-1] == root
    blind_0 = _blind(dummy_key, side, 0, 0)
    return {
        "empty": empty.hex(),
        "blind_0": blind_0.hex(),
        "leaf_0": sha256(tag("leaf/v3"), lp(blind_0), lp(empty)).hex(),
        "leaves": [x.hex() for x in leaves],
        "leaves_hash": sha256(tag("leaves/v3"), *leaves).hex(),
        "nonce": nonce.hex(),
        "root": root,
    }


def _fact(i: dict[str, Any]) -> str:
    w = i["write"]
    return commit(
        "fact",
        i["game_id"],
        i["side"],
        0,
        fact_payload(w["piece"], w["key"], i["value"]),
        bytes.fromhex(w["salt"]),
    )


def roster_write_vector(i: dict[str, Any]) -> dict[str, Any]:
    """One fact written into ``slot`` at event ``written_seq`` (a fact that may change) and
    opened against the root of ``root_seq``, nothing opened in between: only its slot was
    blinded again, at its write."""
    dummy_key, size, side, w = bytes.fromhex(i["dummy_key"]), i["size"], i["side"], i["write"]
    roster = Roster(i["game_id"], side, dummy_key, size)
    for seq in range(i["root_seq"] + 1):
        if seq == i["written_seq"]:
            roster.write(Written(w["piece"], w["key"], w["slot"], w["salt"], 0), i["value"], seq)
        roster.seal(seq, False)
    fact = _fact(i)
    digests = [sha256(tag("empty/v2"))] * size
    digests[w["slot"]] = bytes.fromhex(fact)
    blinded = [0] * size
    blinded[w["slot"]] = i["written_seq"]
    leaves = _leaves(dummy_key, side, digests, blinded)
    root = _root(i["game_id"], side, i["root_seq"], _nonce(dummy_key, side, i["root_seq"]), leaves)
    assert roster.root(i["root_seq"]) == root
    opening = roster.opening(w["piece"], w["key"], i["root_seq"])
    assert opening["blind"] == _blind(dummy_key, side, i["written_seq"], w["slot"]).hex()
    assert check_opening(i["game_id"], opening, root, size)
    return {"fact_commitment": fact, "root": root, "opening": opening}


def roster_fixed_vector(i: dict[str, Any]) -> dict[str, Any]:
    """A fact that never changes, written at event ``written_seq`` and opened against the
    root of ``root_seq``: its opening proves the write too. The event after the write
    blinds every slot afresh (the write's list of leaves will be shown)."""
    dummy_key, size, side, w = bytes.fromhex(i["dummy_key"]), i["size"], i["side"], i["write"]
    roster = Roster(i["game_id"], side, dummy_key, size, frozenset({w["key"]}))
    for seq in range(i["root_seq"] + 1):
        if seq == i["written_seq"]:
            roster.write(Written(w["piece"], w["key"], w["slot"], w["salt"], 0), i["value"], seq)
        roster.seal(seq, False)
    fact = _fact(i)
    digests = [sha256(tag("empty/v2"))] * size
    digests[w["slot"]] = bytes.fromhex(fact)
    at_write = [0] * size
    at_write[w["slot"]] = i["written_seq"]
    again = [i["written_seq"] + 1] * size
    out: dict[str, Any] = {}
    proofs = {}
    for name, seq, blinded in (
        ("written_root", i["written_seq"], at_write),
        ("root", i["root_seq"], again),
    ):
        leaves = _leaves(dummy_key, side, digests, blinded)
        nonce = _nonce(dummy_key, side, seq)
        out[name] = _root(i["game_id"], side, seq, nonce, leaves)
        blind = _blind(dummy_key, side, blinded[w["slot"]], w["slot"])
        proofs[name] = (blind.hex(), nonce.hex(), [x.hex() for x in leaves])
    opening = roster.opening(w["piece"], w["key"], i["root_seq"])
    assert (opening["blind"], opening["nonce"], opening["leaves"]) == proofs["root"]
    written = opening["written"]
    assert (written["seq"], written["blind"], written["nonce"], written["leaves"]) == (
        i["written_seq"],
        *proofs["written_root"],
    )
    assert check_opening(i["game_id"], opening, out["root"], size, out["written_root"])
    return {**out, "opening": opening}


COMPUTE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "commit": commit_vector,
    "chain": chain_vector,
    "roll": roll_vector,
    "rejection": rejection_vector,
    "event_hash": event_hash_vector,
    "signed_head": signed_head_vector,
    "signed_order": signed_order_vector,
    "roster_empty": roster_empty_vector,
    "roster_write": roster_write_vector,
    "roster_fixed": roster_fixed_vector,
}
VECTORS = vectors() if DOC.exists() else []


def test_the_document_publishes_every_kind_of_vector() -> None:
    assert DOC.exists(), DOC
    counts = {kind: sum(v["type"] == kind for v in VECTORS) for kind in COMPUTE}
    assert counts["commit"] >= 3, counts
    assert all(counts.values()), counts
    names = [v["name"] for v in VECTORS]
    assert len(names) == len(set(names)), "vector names must be unique"
    assert all(set(v) == {"name", "type", "inputs", "expected"} for v in VECTORS)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_the_package_reproduces_the_vector(vector: dict[str, Any]) -> None:
    assert COMPUTE[vector["type"]](vector["inputs"]) == vector["expected"]
