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
from ghillie.fairness.hashlog import HostKey, event_hash, genesis, head_message, verify
from ghillie.fairness.roster import (
    SLOTS,
    Roster,
    Written,
    check_opening,
    dummy,
    fact_payload,
    published_root,
)
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


def roster_empty_vector(i: dict[str, Any]) -> dict[str, Any]:
    dummy_key = bytes.fromhex(i["dummy_key"])
    # The tree as docs/fairness.md describes it, built here without the Roster class.
    level = [sha256(b"\x00", dummy(dummy_key, i["side"], slot)) for slot in range(SLOTS)]
    while len(level) > 1:
        level = [sha256(b"\x01", level[j], level[j + 1]) for j in range(0, len(level), 2)]
    root = published_root(i["game_id"], i["side"], i["seq"], level[0])
    assert Roster(i["game_id"], i["side"], dummy_key).root(i["seq"]) == root
    first = dummy(dummy_key, i["side"], 0)
    return {
        "dummy_0": first.hex(),
        "leaf_0": sha256(b"\x00", first).hex(),
        "tree_root": level[0].hex(),
        "root": root,
    }


def roster_write_vector(i: dict[str, Any]) -> dict[str, Any]:
    roster = Roster(i["game_id"], i["side"], bytes.fromhex(i["dummy_key"]))
    w = i["write"]
    roster.write(Written(w["piece"], w["key"], w["slot"], w["salt"], w["seq"]), i["value"])
    fact = commit(
        "fact",
        i["game_id"],
        i["side"],
        w["seq"],
        fact_payload(w["piece"], w["key"], i["value"]),
        bytes.fromhex(w["salt"]),
    )
    root = roster.root(i["root_seq"])
    opening = roster.opening(w["piece"], w["key"], i["root_seq"])
    assert check_opening(i["game_id"], opening, root)
    return {"fact_commitment": fact, "root": root, "opening": opening}


COMPUTE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "commit": commit_vector,
    "chain": chain_vector,
    "roll": roll_vector,
    "rejection": rejection_vector,
    "event_hash": event_hash_vector,
    "signed_head": signed_head_vector,
    "roster_empty": roster_empty_vector,
    "roster_write": roster_write_vector,
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
