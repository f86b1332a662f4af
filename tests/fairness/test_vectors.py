"""The known-answer vectors published in docs/fairness.md ("## Test vectors") are what the
package computes, so the vectors an independent verifier checks against cannot drift from
the code. Each vector is a fenced ```json block: {"name", "type", "inputs", "expected"}."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ghillie.fairness.chains import Chain, links
from ghillie.fairness.commitment import commit, opens
from ghillie.fairness.encoding import canonical, lp, sha256, tag, text, u32, u64
from ghillie.fairness.hashlog import HostKey, event_hash, genesis, head_message, verify
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
    key = HostKey.from_bytes(bytes.fromhex(i["private_key"]))
    message = head_message(i["game_id"], i["seq"], bytes.fromhex(i["hash"]))
    signature = key.sign(message)
    assert verify(key.public, message, signature)
    return {"public_key": key.public, "message": message.hex(), "signature": signature}


def _blinds(dummy_key: bytes, side: str, seq: int, size: int) -> list[bytes]:
    """The blinding values as docs/fairness.md describes them, without the Roster class."""
    stream = hashlib.shake_256(tag("blind/v2") + lp(dummy_key) + text(side) + u64(seq))
    raw = stream.digest(32 * size)
    return [raw[32 * i : 32 * i + 32] for i in range(size)]


def _root(game_id: str, side: str, seq: int, leaves: list[bytes]) -> str:
    return sha256(
        tag("roster/v2"), text(game_id), text(side), u64(seq), u32(len(leaves)), *leaves
    ).hex()


def roster_empty_vector(i: dict[str, Any]) -> dict[str, Any]:
    dummy_key, size = bytes.fromhex(i["dummy_key"]), i["size"]
    empty = sha256(tag("empty/v2"))
    blinds = _blinds(dummy_key, i["side"], i["seq"], size)
    leaves = sorted(sha256(tag("leaf/v2"), lp(b), lp(empty)) for b in blinds)
    root = _root(i["game_id"], i["side"], i["seq"], leaves)
    assert Roster(i["game_id"], i["side"], dummy_key, size).root(i["seq"]) == root
    return {
        "empty": empty.hex(),
        "blind_0": blinds[0].hex(),
        "leaf_0": sha256(tag("leaf/v2"), lp(blinds[0]), lp(empty)).hex(),
        "leaves": [x.hex() for x in leaves],
        "root": root,
    }


def roster_write_vector(i: dict[str, Any]) -> dict[str, Any]:
    dummy_key, size = bytes.fromhex(i["dummy_key"]), i["size"]
    roster = Roster(i["game_id"], i["side"], dummy_key, size)
    w = i["write"]
    roster.write(Written(w["piece"], w["key"], w["slot"], w["salt"], 0), i["value"])
    fact = commit(
        "fact",
        i["game_id"],
        i["side"],
        0,
        fact_payload(w["piece"], w["key"], i["value"]),
        bytes.fromhex(w["salt"]),
    )
    digests = [sha256(tag("empty/v2"))] * size
    digests[w["slot"]] = bytes.fromhex(fact)
    blinds = _blinds(dummy_key, i["side"], i["root_seq"], size)
    leaves = sorted(
        sha256(tag("leaf/v2"), lp(b), lp(d)) for b, d in zip(blinds, digests, strict=True)
    )
    root = _root(i["game_id"], i["side"], i["root_seq"], leaves)
    assert roster.root(i["root_seq"]) == root
    opening = roster.opening(w["piece"], w["key"], i["root_seq"])
    assert opening["blind"] == blinds[w["slot"]].hex()
    assert check_opening(i["game_id"], opening, root, size)
    return {"fact_commitment": fact, "root": root, "opening": opening}


def roster_fixed_vector(i: dict[str, Any]) -> dict[str, Any]:
    """A fact that never changes, written at event ``written_seq`` and opened against the
    root of ``root_seq``: its opening proves the write too."""
    dummy_key, size = bytes.fromhex(i["dummy_key"]), i["size"]
    w = i["write"]
    roster = Roster(i["game_id"], i["side"], dummy_key, size, frozenset({w["key"]}))
    roster.write(Written(w["piece"], w["key"], w["slot"], w["salt"], 0), i["value"])
    roster.root(i["written_seq"])
    roster.sealed(i["written_seq"])
    fact = commit(
        "fact",
        i["game_id"],
        i["side"],
        0,
        fact_payload(w["piece"], w["key"], i["value"]),
        bytes.fromhex(w["salt"]),
    )
    digests = [sha256(tag("empty/v2"))] * size
    digests[w["slot"]] = bytes.fromhex(fact)
    out: dict[str, Any] = {}
    proofs = {}
    for name, seq in (("written_root", i["written_seq"]), ("root", i["root_seq"])):
        blinds = _blinds(dummy_key, i["side"], seq, size)
        leaves = sorted(
            sha256(tag("leaf/v2"), lp(b), lp(d)) for b, d in zip(blinds, digests, strict=True)
        )
        out[name] = _root(i["game_id"], i["side"], seq, leaves)
        proofs[name] = (blinds[w["slot"]].hex(), [x.hex() for x in leaves])
    opening = roster.opening(w["piece"], w["key"], i["root_seq"])
    assert (opening["blind"], opening["leaves"]) == proofs["root"]
    written = opening["written"]
    assert (written["seq"], written["blind"], written["leaves"]) == (
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
