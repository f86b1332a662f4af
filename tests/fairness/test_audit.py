"""The audit accepts every untouched record and rejects every altered one (TRUST.md F4, F5).

Records are complete games of every bundled scenario. Each is altered many ways — one value
anywhere in it, one byte of its text, one event, one opening, one roll contribution, an event
dropped or two swapped — and the audit must reject every one and name what is wrong.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from ghillie.fairness.audit import audit
from ghillie.fairness.hashlog import HostKey, head_message, request_message

from .games import KEYS, records

STATS: dict[str, int] = {}


def _count(key: str, n: int = 1) -> None:
    STATS[key] = STATS.get(key, 0) + n


RECORDS = records()


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_an_untouched_record_passes(name: str, record: dict[str, Any]) -> None:
    assert KEYS[record["game"]] not in json.dumps(record)  # the signing key stays the host's
    report = audit(record)
    assert report.ok, report.findings
    assert report.events == len(record["events"])
    _count("untouched records accepted")
    _count("events audited", report.events)


def test_the_games_are_long_and_roll_dice() -> None:
    # Guards the tamper tests against trivially short games.
    assert max(len(r["events"]) for _, r in RECORDS) >= 30
    assert sum(audit(r).rolls for _, r in RECORDS) > 50


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _leaves(inner, (*path, index))
    else:
        yield path


def _set(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target: Any = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


def _get(record: dict[str, Any], path: tuple[Any, ...]) -> Any:
    target: Any = record
    for step in path:
        target = target[step]
    return target


def _altered(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + rng.choice([1, -1])
    if value is None:
        return 0
    text = str(value)
    if not text:
        return "x"
    i = rng.randrange(len(text))
    hexdigits = "0123456789abcdef"
    pool = hexdigits if text[i] in hexdigits else "abcxyz0123"
    return text[:i] + rng.choice([c for c in pool if c != text[i]]) + text[i + 1 :]


def _rejects(record: dict[str, Any], what: str) -> None:
    report = audit(record)
    assert not report.ok, f"{what}: the altered record passed"
    _count("altered records rejected")
    _count(f"altered: {what.split(' ')[0]}")


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_any_altered_value_is_rejected(name: str, record: dict[str, Any]) -> None:
    rng = random.Random(name)
    paths = [p for p in _leaves(record) if p[0] != "receipts"]
    for path in rng.sample(paths, min(40, len(paths))):
        altered = copy.deepcopy(record)
        _set(altered, path, _altered(_get(record, path), rng))
        _rejects(altered, f"value {path}")


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_any_altered_byte_is_rejected(name: str, record: dict[str, Any]) -> None:
    rng = random.Random(f"bytes:{name}")
    text = json.dumps(record).encode()
    tried = 0
    while tried < 15:
        i = rng.randrange(len(text))
        mutated = text[:i] + bytes([text[i] ^ (1 << rng.randrange(7))]) + text[i + 1 :]
        try:
            altered = json.loads(mutated)
        except (UnicodeDecodeError, json.JSONDecodeError):
            continue  # `ghillie audit` refuses text that is not JSON before it looks further
        if altered == record:
            continue  # e.g. a flipped bit inside insignificant whitespace
        tried += 1
        _rejects(altered, f"byte {i}")


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_dropped_swapped_or_rewritten_events_are_rejected(
    name: str, record: dict[str, Any]
) -> None:
    rng = random.Random(f"events:{name}")
    events = record["events"]
    for _ in range(5):
        i = rng.randrange(len(events))
        dropped = copy.deepcopy(record)
        del dropped["events"][i]
        _rejects(dropped, f"drop event {i}")
        if i + 1 < len(events):
            swapped = copy.deepcopy(record)
            swapped["events"][i], swapped["events"][i + 1] = events[i + 1], events[i]
            _rejects(swapped, f"swap events {i}")
    # A host that rewrites one event and re-chains and re-signs everything after it is
    # still caught by the replay or the commitments.
    for i in rng.sample(range(1, len(events)), min(5, len(events) - 1)):
        rewritten = copy.deepcopy(record)
        event = rewritten["events"][i]
        lines = [line for lines in event["told"].values() for line in lines]
        if event["rolls"]:
            event["rolls"][0]["face"] = event["rolls"][0]["face"] % 2 + 1
        elif lines:
            lines[0]["event"] = "fabricated"
        else:
            event["told"]["spectator"] = [{"event": "fabricated"}]
        _rechain(rewritten)
        _rejects(rewritten, f"rewritten event {i}")


def _rechain(record: dict[str, Any]) -> None:
    """Re-hash and re-sign every event with the game's own key (a host covering tracks)."""
    from ghillie.fairness.hashlog import event_hash, genesis
    from ghillie.fairness.ledger import hashed

    key = _key(record)
    head = genesis(record["game"])
    for event in record["events"]:
        head = event_hash(head, hashed(event))
        event["fair"]["hash"] = head.hex()
        event["fair"]["sig"] = key.sign(head_message(record["game"], event["seq"], head))


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_altered_openings_and_contributions_are_rejected(name: str, record: dict[str, Any]) -> None:
    rng = random.Random(f"fair:{name}")
    for i, event in enumerate(record["events"]):
        for side, openings in event["fair"]["openings"].items():
            for j, opening in enumerate(openings):
                for field in ("value", "salt", "blind", "root_seq", "leaves"):
                    altered = copy.deepcopy(record)
                    target = altered["events"][i]["fair"]["openings"][side][j]
                    if field == "leaves":  # one leaf of the root, any one
                        at = rng.randrange(len(opening["leaves"]))
                        target["leaves"][at] = _altered(opening["leaves"][at], rng)
                    else:
                        target[field] = _altered(opening[field], rng)
                    _rechain(altered)
                    _rejects(altered, f"opening {field}")
        for party in event["fair"]["contributions"]:
            if rng.random() < 0.3:
                altered = copy.deepcopy(record)
                fair = altered["events"][i]["fair"]
                fair["contributions"][party] = _altered(fair["contributions"][party], rng)
                _rechain(altered)
                _rejects(altered, "contribution")


# --- receipts: a host that shows two histories or asks for a roll again ---------------------


def _key(record: dict[str, Any]) -> HostKey:
    return HostKey.from_bytes(bytes.fromhex(KEYS[record["game"]]))


def test_a_receipt_for_another_head_proves_two_histories() -> None:
    _, record = RECORDS[0]
    game, key = record["game"], _key(record)
    seq = len(record["events"]) // 2
    honest = record["events"][seq]["fair"]
    receipt = {"heads": [{"seq": seq, "hash": honest["hash"], "sig": honest["sig"]}]}
    assert audit(record, [receipt]).ok
    other = bytes(32)
    forged = {
        "heads": [
            {"seq": seq, "hash": other.hex(), "sig": key.sign(head_message(game, seq, other))}
        ]
    }
    report = audit(record, [forged])
    assert not report.ok
    assert report.findings[0].check == "receipts"
    unsigned = {"heads": [{"seq": seq, "hash": other.hex(), "sig": "00" * 64}]}
    assert audit(record, [unsigned]).ok  # a claim the host never signed proves nothing


def test_a_roll_asked_for_again_is_found() -> None:
    # The host asked the sides for roll k for one command, saw the result, and resolved k
    # with another command (or never resolved it): the side's kept request shows it.
    _, record = RECORDS[0]
    game, key = record["game"], _key(record)
    k = len(record["events"]) // 2
    event = record["events"][k]
    prev = bytes.fromhex(record["events"][k - 1]["fair"]["hash"])
    honest = {
        "k": k,
        "side": event["side"],
        "commitment": event["fair"]["request"],
        "prev": prev.hex(),
    }
    honest["sig"] = key.sign(request_message(game, k, event["side"], honest["commitment"], prev))
    assert audit(record, [{"requests": [honest]}]).ok
    other = "ab" * 32
    superseded = {**honest, "commitment": other}
    superseded["sig"] = key.sign(request_message(game, k, event["side"], other, prev))
    report = audit(record, [{"requests": [superseded]}])
    assert not report.ok
    assert "superseded" in report.findings[0].message
    late = len(record["events"])
    head = bytes.fromhex(record["events"][-1]["fair"]["hash"])
    unresolved = {"k": late, "side": event["side"], "commitment": other, "prev": head.hex()}
    unresolved["sig"] = key.sign(request_message(game, late, event["side"], other, head))
    report = audit(record, [{"requests": [unresolved]}])
    assert not report.ok
    assert "never resolved" in report.findings[0].message


def test_a_host_that_swaps_two_sides_contributions_is_found() -> None:
    _, record = RECORDS[0]
    altered = copy.deepcopy(record)
    given = altered["events"][3]["fair"]["contributions"]
    first, second = list(given)
    given[first], given[second] = given[second], given[first]
    _rechain(altered)
    report = audit(altered)
    assert not report.ok
    assert report.findings[0].check == "randomness"


def test_a_host_that_withholds_a_contribution_cannot_resolve() -> None:
    # Every event's dice need every party's element: one that is not the next link of its
    # party's chain (withheld and replaced, or reused from an earlier roll) is found.
    _, record = RECORDS[0]
    altered = copy.deepcopy(record)
    events = altered["events"]
    party = next(iter(events[3]["fair"]["contributions"]))
    events[3]["fair"]["contributions"][party] = events[2]["fair"]["contributions"][party]
    _rechain(altered)
    report = audit(altered)
    assert not report.ok
    assert report.findings[0].check == "randomness"


@pytest.mark.slow
def test_a_thousand_games_each_passes_untouched_and_fails_altered() -> None:
    # TRUST.md F5 at full size (opt in with --run-slow): 1,000 complete games over every
    # bundled scenario, each audited untouched and with one random value altered.
    from ghillie import examples

    from .games import play_random

    names = examples.names()
    for n in range(1000):
        record = play_random(names[n % len(names)], 1000 + n).record()
        assert audit(record).ok
        _count("slow: untouched records accepted")
        rng = random.Random(n)
        paths = [p for p in _leaves(record) if p[0] != "receipts"]
        path = rng.choice(paths)
        altered = copy.deepcopy(record)
        _set(altered, path, _altered(_get(record, path), rng))
        _rejects(altered, f"slow value {path}")
