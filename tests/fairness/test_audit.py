"""The audit accepts every untouched record and rejects every altered one (TRUST.md F4, F5).

Records are complete games of every bundled scenario. Each is altered many ways — one value
anywhere in it, one byte of its text, one event, one opening, one roll contribution, an event
dropped or two swapped — and the audit must reject every one and name what is wrong.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from ghillie import examples
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.encoding import sha256
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message_v2,
    request_message,
    shown_content,
    shown_digest_v2,
    shown_salt,
)
from ghillie.fairness.ledger import hashed, head_receipt
from ghillie.fairness.roster import check_opening, fact_digest, leaf, published_root

from .dishonest import left_out, rebuild_commitments, resign, shadow
from .games import KEYS, PagesGame, play_pages, records

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
    """Re-hash and re-sign every event with the game's own key, and what it shows each side
    (a host covering tracks), in place."""
    record.update(resign(record, KEYS[record["game"]]))


@pytest.mark.parametrize(("name", "record"), RECORDS, ids=[n for n, _ in RECORDS])
def test_altered_openings_and_contributions_are_rejected(name: str, record: dict[str, Any]) -> None:
    rng = random.Random(f"fair:{name}")
    for i, event in enumerate(record["events"]):
        for side, openings in event["fair"]["openings"].items():
            for j, opening in enumerate(openings):
                for field in ("value", "salt", "blind", "root_seq", "nonce", "leaves"):
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


def _sides(record: dict[str, Any]) -> tuple[str, ...]:
    return tuple(side["id"] for side in record["scenario"]["sides"])


def _kept(
    record: dict[str, Any],
    heads: list[dict[str, Any]] | None = None,
    requests: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Receipts as a page keeps them: the host's key from event 0, heads and requests."""
    key = record["events"][0]["fair"]["setup"]["key"]
    return {"key": key, "heads": heads or [], "requests": requests or []}


def test_a_receipt_for_another_head_proves_two_histories() -> None:
    _, record = RECORDS[0]
    game, key = record["game"], _key(record)
    seq = len(record["events"]) // 2
    honest = head_receipt(seq, record["events"][seq]["fair"], _sides(record))
    receipt = _kept(record, heads=[honest])
    assert audit(record, [receipt]).ok
    other = bytes(32)
    shown = [bytes.fromhex(d) for d in honest["shown"]]
    forged = _kept(
        record,
        heads=[
            {
                **honest,
                "hash": other.hex(),
                "sig": key.sign(head_message_v2(game, seq, other, shown)),
            }
        ],
    )
    report = audit(record, [forged])
    assert not report.ok
    assert report.findings[0].check == "receipts"
    assert "two histories" in report.findings[0].message
    # A head the host's key never signed proves nothing either way, so a side that kept one
    # cannot have its receipts checked: the audit fails instead of skipping it.
    unsigned = _kept(record, heads=[{**honest, "hash": other.hex(), "sig": "00" * 64}])
    report = audit(record, [unsigned])
    assert not report.ok
    assert "did not sign" in report.findings[0].message


def test_a_roll_asked_for_again_is_found() -> None:
    # The host asked the sides for roll k for one command, saw the result, and resolved k
    # with another command (or never resolved it): the side's kept request shows it.
    _, record = RECORDS[0]
    game, key = record["game"], _key(record)
    k = len(record["events"]) // 2
    event = record["events"][k]
    prev = bytes.fromhex(record["events"][k - 1]["fair"]["hash"])
    honest = {
        "game": game,
        "k": k,
        "side": event["side"],
        "commitment": event["fair"]["request"],
        "prev": prev.hex(),
        "order": event["fair"].get("order", ""),
    }
    honest["sig"] = key.sign(
        request_message(game, k, event["side"], honest["commitment"], prev, honest["order"])
    )
    assert audit(record, [_kept(record, requests=[honest])]).ok
    other = "ab" * 32
    superseded = {**honest, "commitment": other}
    superseded["sig"] = key.sign(
        request_message(game, k, event["side"], other, prev, honest["order"])
    )
    report = audit(record, [_kept(record, requests=[superseded])])
    assert not report.ok
    assert "superseded" in report.findings[0].message
    late = len(record["events"])
    head = bytes.fromhex(record["events"][-1]["fair"]["hash"])
    unresolved = {
        "game": game,
        "k": late,
        "side": event["side"],
        "commitment": other,
        "prev": head.hex(),
        "order": "",
    }
    unresolved["sig"] = key.sign(request_message(game, late, event["side"], other, head, ""))
    report = audit(record, [_kept(record, requests=[unresolved])])
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


# --- page-held games: a host that replays a game under a new key (issue 10, finding 1) ------
#
# In a game whose pages hold their chains, both sides' anchors and elements are public by the
# end, so a host could replay the game with its own seed, other secrets and other commands,
# sign the new log with a new key and publish that as the record. What gives it away is the
# pages' receipts: each page kept the host's key from event 0 and every head and request,
# signed by that key. The audit must reject the rewrite whatever is done to those receipts.


def _chains(scenario: str) -> dict[str, Chain]:
    sides = examples.load(scenario).side_ids()
    return {side: Chain.from_seed(sha256(f"page:{scenario}:{side}".encode())) for side in sides}


@cache
def _honest(scenario: str) -> PagesGame:
    return play_pages(scenario, 1, _chains(scenario), host=11, game_id=f"pages-{scenario}")


PAGE_SCENARIOS = examples.names()


def _rewrite(honest: PagesGame, seed: int, *, key: bytes | None = None) -> dict[str, Any]:
    """The host's replay: the pages' real chains, another host seed, secrets and commands."""
    scenario = next(n for n in PAGE_SCENARIOS if honest.game_id == f"pages-{n}")
    again = play_pages(scenario, seed, honest.chains, 100 + seed, honest.game_id, key)
    return again.record(with_receipts=False)


def _rejected(record: dict[str, Any], receipts: list[Any], what: str, words: str) -> None:
    _count("rewrites tried")
    report = audit(record, receipts)
    assert not report.ok, f"{what}: the rewrite passed"
    assert words in report.findings[0].message, (what, report.findings)
    _count("rewrites rejected")


@pytest.mark.parametrize("scenario", PAGE_SCENARIOS)
def test_an_untouched_page_held_record_passes_with_its_receipts(scenario: str) -> None:
    honest = _honest(scenario)
    record = honest.record()
    report = audit(record)
    assert report.ok, report.findings
    # Every head (with what each side was shown of it) and every request each page kept,
    # all verified: two sides, two per event.
    assert report.receipts == 2 * 2 * report.events
    assert report.held == []
    # The same receipts given beside the record (`ghillie audit --receipts`) pass too.
    alone = honest.record(with_receipts=False)
    assert audit(alone, list(honest.receipts.values())).ok
    _count("untouched page-held records accepted")


@pytest.mark.parametrize("scenario", PAGE_SCENARIOS)
def test_a_game_replayed_under_a_new_key_is_rejected_by_the_pages_receipts(scenario: str) -> None:
    honest = _honest(scenario)
    kept = honest.record()["receipts"]
    for seed in (2, 3):
        rewrite = _rewrite(honest, seed)
        # The rewrite is a perfectly good record on its own, on the pages' real chains: only
        # the receipts can tell. (On the main of issue 10 it passed with them, too.)
        assert audit(rewrite).ok
        setup, original = rewrite["events"][0]["fair"]["setup"], honest.events[0].fair or {}
        assert setup["key"] != original["setup"]["key"]
        sides = [p for p in setup["parties"] if p["party"] != "host"]
        assert sides == [p for p in original["setup"]["parties"] if p["party"] != "host"]
        assert rewrite["events"] != honest.record()["events"]

        other = "another host key than this record's"
        _rejected({**rewrite, "receipts": kept}, [], "both sides' receipts", other)
        for side, receipts in kept.items():
            _rejected({**rewrite, "receipts": {side: receipts}}, [], f"{side}'s receipts", other)
            _rejected(rewrite, [receipts], f"{side}'s receipts given apart", other)
            # A host that edits the receipts it is handed: drops the key (as if an older
            # page kept them), or writes its new key in.
            keyless = {k: v for k, v in receipts.items() if k != "key"}
            _rejected(rewrite, [keyless], "receipts without their key", "cannot be checked")
            rekeyed = {**receipts, "key": setup["key"]}
            _rejected(rewrite, [rekeyed], "receipts given the new key", "did not sign")
        # A host that kept its signing key and replayed with a new seed: the receipts now
        # verify, and show two histories.
        same_key = _rewrite(honest, seed, key=honest.ledger.secrets.key)
        assert audit(same_key).ok
        _rejected({**same_key, "receipts": kept}, [], "same key", "two histories")


@pytest.mark.parametrize("scenario", PAGE_SCENARIOS)
def test_a_record_kept_with_badly_signed_heads_is_rejected(scenario: str) -> None:
    # During play the host sent heads (and requests) whose signatures do not verify, so the
    # pages' receipts would prove nothing; at the end it signs a rewrite with its real key.
    honest = _honest(scenario)
    rng = random.Random(f"badly:{scenario}")
    real_key = honest.ledger.secrets.key
    stranger = HostKey.from_bytes(sha256(b"another key"))
    rewrite = _rewrite(honest, 4, key=real_key)
    assert audit(rewrite).ok

    def spoiled(sig: str, how: int) -> str:
        if how == 0:
            return "00" * 64
        if how == 1:
            raw = bytearray(bytes.fromhex(sig))
            raw[rng.randrange(64)] ^= 1 << rng.randrange(8)
            return raw.hex()
        if how == 2:
            return sig.upper()  # verifies as bytes, but is not the one spelling
        return stranger.sign(b"something else")

    for how in range(4):
        receipts = copy.deepcopy(honest.receipts)
        for kept in receipts.values():
            for item in [*kept["heads"], *kept["requests"]]:
                item["sig"] = spoiled(item["sig"], how)
        _rejected({**rewrite, "receipts": receipts}, [], f"spoiled {how}", "did not sign")
        for field in ("heads", "requests"):
            # Even beside the honest record itself: one receipt that does not verify fails.
            one = copy.deepcopy(honest.receipts)
            side = rng.choice(sorted(one))
            item = rng.choice(one[side][field])
            item["sig"] = spoiled(item["sig"], how)
            report = audit(honest.record(with_receipts=False), [one[side]])
            assert not report.ok
            assert "did not sign" in report.findings[0].message
            _count("badly signed receipts rejected")


# --- one form only (issue 10, finding 9) ------------------------------------------------------


def _retyped(value: Any) -> Iterator[tuple[str, Any]]:
    """The same value written another way that JSON readers and RFC 8785 may not tell apart."""
    if isinstance(value, bool):
        yield "1 for true", int(value)
    elif isinstance(value, int):
        yield "0.0 for 0", float(value)
        if value in (0, 1):
            yield "true for 1", bool(value)
    elif isinstance(value, float) and value.is_integer():
        yield "0 for 0.0", int(value)


def _dicts(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict):
        yield path
        for key, inner in value.items():
            yield from _dicts(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _dicts(inner, (*path, index))


def _non_canonical(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in _leaves(record):
        for what, value in _retyped(_get(record, path)):
            edited = copy.deepcopy(record)
            _set(edited, path, value)
            yield f"{what} at {path}", edited
    for path in _dicts(record):
        edited = copy.deepcopy(record)
        _get(edited, path)["note"] = "harmless"
        yield f"unknown field at {path}", edited


def test_the_three_harmless_edits_of_the_issue_are_rejected() -> None:
    # The three the issue found: each leaves the hashes, the signatures and the meaning as
    # they were, and each passed the audit.
    _, record = next(r for r in RECORDS if r[0].startswith("ambush-fields#"))
    assert audit(record).ok
    event = next(e for e in record["events"] if e["effects"] and "level" in e["effects"][-1])
    zero = copy.deepcopy(record)  # 0.0 for 0 (RFC 8785 writes both as 0: the same hash)
    zero["events"][event["seq"]]["effects"][-1]["level"] = float(event["effects"][-1]["level"])
    flag = copy.deepcopy(record)  # 1 for true in the scenario, which the rules read as true
    switches = flag["scenario"]["switches"]
    name = next(k for k, v in switches.items() if isinstance(v, bool))
    switches[name] = int(switches[name])
    extra = copy.deepcopy(record)  # a field ghillie never writes
    extra["comment"] = "harmless"
    pages = _honest("grid-ambush-table").record()
    assert audit(pages).ok
    true = copy.deepcopy(pages)  # true for 1 in a receipt: Python reads True as 1
    head = next(h for h in true["receipts"]["jungle"]["heads"] if h["seq"] == 1)
    head["seq"] = True
    for edited in (zero, flag, extra, true):
        report = audit(edited)
        assert not report.ok
        assert report.findings[0].check in ("record", "receipts")
        assert "form" in report.findings[0].message, report.findings


@pytest.mark.parametrize(
    ("name", "record"),
    [r for r in RECORDS if r[0].endswith("#0")],
    ids=[n for n, _ in RECORDS if n.endswith("#0")],
)
def test_a_record_written_another_way_is_rejected(name: str, record: dict[str, Any]) -> None:
    rng = random.Random(f"form:{name}")
    edits = list(_non_canonical(record))
    for what, edited in rng.sample(edits, min(30, len(edits))):
        _rejects(edited, f"form {what}")


def test_receipts_written_another_way_are_rejected() -> None:
    honest = _honest("grid-ambush-table")
    record = honest.record()
    assert audit(record).ok
    receipts_only = {"receipts": record["receipts"]}
    edits = [e for e in _non_canonical(receipts_only) if e[0] != "unknown field at ()"]
    assert len(edits) > 100
    for what, edited in random.Random("receipts").sample(edits, 60):
        _rejects({**record, "receipts": edited["receipts"]}, f"receipts {what}")


# --- who rolls: event 0's parties (red team, finding A) ---------------------------------------


def _pages(scenario: str, what: str = "page") -> dict[str, Chain]:
    sides = examples.load(scenario).side_ids()
    return {s: Chain.from_seed(sha256(f"{what} {scenario} {s}".encode())) for s in sides}


def _host_key(game: PagesGame) -> str:
    return game.ledger.secrets.key.hex()


@pytest.mark.parametrize("scenario", ["suspicious-places", "ambush-fields"])
def test_sides_listed_twice_with_the_hosts_own_chains_are_found(scenario: str) -> None:
    # Each side first with its page's anchor (what the page reads), then again with a chain
    # the host made (what a mapping keeps): every die from the host's chains, no alarm, and
    # both pages' receipts verify.
    game = shadow(scenario, _pages(scenario), host=3)
    record = game.record()
    sides = examples.load(scenario).side_ids()
    parties = record["events"][0]["fair"]["setup"]["parties"]
    assert [p["party"] for p in parties] == ["host", *sides, *sides]
    assert sum(len(e["rolls"]) for e in record["events"]) > 0
    report = audit(record, list(game.receipts.values()))
    assert not report.ok
    assert report.findings[0].check == "randomness"
    assert "not the host and each side once" in report.findings[0].message
    _count("shadow games rejected")


def test_a_side_left_out_of_the_roll_parties_is_found() -> None:
    # keno writes no secret fact in this scenario, so its roster is never missed: its page
    # answers every roll and its element counts for nothing.
    scenario = "suspicious-places-table"
    game = left_out(scenario, _pages(scenario), ("lianra",), host=1)
    record = game.record()
    assert sum(len(e["rolls"]) for e in record["events"]) >= 10
    report = audit(record, [record["receipts"]["keno"]])
    assert not report.ok
    assert "not the host and each side once" in report.findings[0].message


def _resigned(record: dict[str, Any], edit: Any, *, rebuild: bool = False) -> dict[str, Any]:
    edited = copy.deepcopy(record)
    edit(edited)
    if rebuild:
        edited = rebuild_commitments(edited)
    return resign(edited, KEYS[record["game"]])


def _setup(record: dict[str, Any]) -> dict[str, Any]:
    setup: dict[str, Any] = record["events"][0]["fair"]["setup"]
    return setup


@pytest.mark.parametrize(
    ("what", "edit", "words"),
    [
        ("a side's held flag false", lambda s: s["parties"][1].update(held=False), "page-held"),
        ("the host's held flag false", lambda s: s["parties"][0].update(held=False), "host's own"),
        (
            "the sides swapped",
            lambda s: s.update(parties=[s["parties"][0], *reversed(s["parties"][1:])]),
            "each side once",
        ),
        ("a side named twice", lambda s: s["parties"].append(s["parties"][1]), "each side once"),
        ("a side left out", lambda s: s["parties"].pop(), "each side once"),
        ("no host", lambda s: s["parties"].pop(0), "each side once"),
        ("chains of 4095", lambda s: s.update(length=4095), "4096 elements"),
    ],
)
def test_roll_parties_other_than_ghillie_writes_are_rejected(
    what: str, edit: Any, words: str
) -> None:
    # A host-held game: every side's seed is revealed, so every side must be marked held.
    _, record = next(r for r in RECORDS if r[0] == "suspicious-places#1")
    assert all(p["held"] for p in _setup(record)["parties"])
    edited = _resigned(record, lambda r: edit(_setup(r)))
    report = audit(edited)
    assert not report.ok, what
    assert words in report.findings[0].message, (what, report.findings)


def test_chains_of_2_to_the_53_are_refused_before_one_is_grown(tmp_path: Path) -> None:
    # The audit grew the host's chain to setup.length before it checked anything: signed by
    # its host, a length of 2^53 kept it busy (and growing a list) for ever. In a process of
    # its own, so that a failure is a timeout, not a hung suite.
    _, record = next(r for r in RECORDS if r[0] == "grid-ambush#1")
    path = tmp_path / "record.json"
    path.write_text(json.dumps(_resigned(record, lambda r: _setup(r).update(length=2**53 - 1))))
    code = "import json, sys; from ghillie.fairness.audit import audit; "
    code += "print(audit(json.load(open(sys.argv[1]))).findings[0])"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=20
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the audit was still growing a chain of 2^53 elements after 20 s")
    assert done.stdout.strip() == "randomness: event 0: its chains are not 4096 elements long"


def test_a_held_flag_without_its_seed_is_rejected() -> None:
    honest = _honest("grid-ambush")
    record = honest.record(with_receipts=False)
    edited = copy.deepcopy(record)
    _setup(edited)["parties"][2]["held"] = True
    report = audit(resign(edited, _host_key(honest)))
    assert not report.ok
    assert "marked host-held, yet its seed is not revealed" in report.findings[0].message


def test_a_page_kept_anchor_must_be_the_one_the_record_rolls_with() -> None:
    scenario = "grid-ambush"
    honest = _honest(scenario)
    record = honest.record(with_receipts=False)
    anchored = {
        side: {**kept, "anchor": honest.chains[side].anchor.hex()}
        for side, kept in honest.receipts.items()
    }
    assert audit({**record, "receipts": anchored}).ok
    assert audit(record, list(anchored.values())).ok
    assert audit(record, kept_by=list(anchored.items())).ok
    # A host that rolls from chains of its own for both sides, listed once each: the pages
    # answer, keep their receipts and their own anchors.
    pages = _pages(scenario, "real")
    hosts = play_pages(scenario, 1, _pages(scenario, "host's"), host=12, game_id="own-chains")
    fooled = {
        side: {**kept, "anchor": pages[side].anchor.hex()} for side, kept in hosts.receipts.items()
    }
    assert audit(hosts.record(with_receipts=False)).ok  # on its own, an honest-looking game
    words = "a side's page gave another chain than the record uses"
    for report in (
        audit({**hosts.record(with_receipts=False), "receipts": fooled}),
        audit(hosts.record(with_receipts=False), list(fooled.values())),
        audit(hosts.record(with_receipts=False), kept_by=list(fooled.items())),
    ):
        assert not report.ok
        assert words in report.findings[0].message, report.findings
    # The right anchors under the wrong sides' names.
    swapped = dict(zip(anchored, reversed(list(anchored.values())), strict=True))
    assert words in audit({**record, "receipts": swapped}).findings[0].message
    # A page that held its chain, in a game whose record says the host held it.
    _, held = next(r for r in RECORDS if r[0] == "grid-ambush#0")
    side = _setup(held)["parties"][1]
    key = _setup(held)["key"]
    heads = [head_receipt(e["seq"], e["fair"], _sides(held)) for e in held["events"]]
    kept = {"key": key, "heads": heads, "requests": [], "anchor": side["anchor"]}
    assert audit({**held, "receipts": {side["party"]: {**kept, "anchor": None}}}).ok  # none held
    report = audit({**held, "receipts": {side["party"]: kept}})
    assert not report.ok
    assert words in report.findings[0].message


# --- crashes and hangs (red team, finding D) --------------------------------------------------


def test_a_deeply_nested_command_is_a_finding() -> None:
    _, record = next(r for r in RECORDS if r[0] == "grid-ambush#1")
    deep: list[Any] = []
    for _ in range(990):  # json.loads still reads this depth
        deep = [deep]
    edited = copy.deepcopy(record)
    edited["events"][1]["command"]["x"] = deep
    report = audit(edited)
    assert not report.ok
    assert report.findings[0].message == "the record cannot be read: it is nested too deeply"


# --- forms ghillie never writes (red team, finding E) -----------------------------------------


def _extra(name: str) -> Any:
    def edit(r: dict[str, Any]) -> None:
        r["events"][3]["fair"][name]["ghost"] = "ab" * 32

    return edit


def _fact_seq(r: dict[str, Any]) -> None:
    event = next(e for e in r["events"] if e["fair"]["private"]["facts"])
    event["fair"]["private"]["facts"][0]["seq"] = 5


def _rewrites(r: dict[str, Any]) -> list[dict[str, Any]]:
    seen: set[tuple[str, str, str]] = set()
    again = []
    for event in r["events"]:
        for fact in event["fair"]["private"]["facts"]:
            k = (fact["side"], fact["piece"], fact["key"])
            if k in seen:
                again.append(fact)
            seen.add(k)
    return again


def _moved(r: dict[str, Any]) -> None:
    # Moved, a rewritten fact leaves its old commitment behind as a leaf nobody can tell
    # from the others: a second, stale commitment to the same fact.
    fact = _rewrites(r)[0]
    used = {
        f["slot"]
        for e in r["events"]
        for f in e["fair"]["private"]["facts"]
        if f["side"] == fact["side"]
    }
    fact["slot"] = next(i for i in range(10_000) if i not in used)


def _shared(r: dict[str, Any]) -> None:
    facts = [f for e in r["events"] for f in e["fair"]["private"]["facts"]]
    side = max({f["side"] for f in facts}, key=lambda s: sum(f["side"] == s for f in facts))
    mine = [f for f in facts if f["side"] == side]
    a = mine[0]
    b = next(f for f in mine if (f["piece"], f["key"]) != (a["piece"], a["key"]))
    for f in mine:
        if (f["piece"], f["key"]) == (b["piece"], b["key"]):
            f["slot"] = a["slot"]


@pytest.mark.parametrize(
    ("name", "edit", "rebuild", "words"),
    [
        ("suspicious-places#1", _extra("roots"), False, "fair.roots: not one for each side"),
        ("suspicious-places#1", _extra("contributions"), False, "fair.contributions"),
        ("suspicious-places#1", _fact_seq, False, "a seq other than 0"),
        ("suspicious-places#1", _moved, True, "moves to another slot"),
        ("ambush-fields#1", _moved, True, "moves to another slot"),
        ("ambush-fields#1", _shared, True, "two facts are committed in one slot"),
    ],
)
def test_facts_roots_and_contributions_written_another_way_are_rejected(
    name: str, edit: Any, rebuild: bool, words: str
) -> None:
    _, record = next(r for r in RECORDS if r[0] == name)
    edited = _resigned(record, edit, rebuild=rebuild)
    report = audit(edited)
    assert not report.ok
    assert words in report.findings[0].message, report.findings


def test_the_dishonest_hosts_helpers_change_nothing_by_themselves() -> None:
    for name in ("grid-ambush#1", "suspicious-places#1", "ambush-fields#1"):
        _, record = next(r for r in RECORDS if r[0] == name)
        assert audit(_resigned(record, lambda r: None, rebuild=True)).ok


def test_a_request_receipt_with_side_empty_for_null_is_rejected() -> None:
    # The page writes side null for event 0's request; "" signs the same bytes
    # (text(side or "")), so a receipt spelled another way would verify.
    honest = _honest("grid-ambush-table")
    kept = copy.deepcopy(honest.receipts["jungle"])
    assert kept["requests"][0]["side"] is None
    record = honest.record(with_receipts=False)
    assert audit(record, [kept]).ok
    kept["requests"][0]["side"] = ""
    report = audit(record, [kept])
    assert not report.ok
    assert "requests.0.side: empty" in report.findings[0].message


# --- what each side was shown, bound to the record (red team, finding F) ----------------------


def _lied_to(honest: PagesGame) -> tuple[str, int, dict[str, Any]]:
    """The first side shown an opening, the first event it was lied to about, and that
    side's receipts had the host shown it another value for the fact, opened against a root
    only that page saw (and, for a fact that never changes, against a root of the event that
    wrote it only that page saw: both signed, since the host holds the key; the page checks
    the opening against the roots and the signatures against what it received, and all is
    well)."""
    record = honest.record(with_receipts=False)
    seq, to, opening = next(
        (e["seq"], to, ops[0])
        for e in record["events"]
        for to, ops in e["fair"]["openings"].items()
    )
    lie = copy.deepcopy(opening)
    lie["value"] = "lied" if opening["value"] != "lied" else "lied too"

    def fact(o: dict[str, Any], blind: str) -> bytes:
        digest = fact_digest(record["game"], o["side"], o["piece"], o["key"], o["value"], o["salt"])
        return leaf(bytes.fromhex(blind), digest)

    def forged(proof: dict[str, Any], at: int) -> tuple[list[str], str]:
        """The leaves of event ``at``'s root with the lie's leaf for the fact's, and their
        root (under that root's own nonce, which the opening shows)."""
        true, false = fact(opening, proof["blind"]), fact(lie, proof["blind"])
        leaves = sorted(
            [*(bytes.fromhex(x) for x in proof["leaves"] if bytes.fromhex(x) != true), false]
        )
        nonce = bytes.fromhex(proof["nonce"])
        return [x.hex() for x in leaves], published_root(
            record["game"], opening["side"], at, nonce, leaves
        )

    root_seq = opening["root_seq"]
    lie["leaves"], fake_root = forged(opening, root_seq)
    fakes = {root_seq: fake_root}
    if "written" in opening:
        at = opening["written"]["seq"]
        lie["written"]["leaves"], fakes[at] = forged(opening["written"], at)
    size = len(lie["leaves"])
    assert check_opening(record["game"], lie, fake_root, size, fakes.get(min(fakes)))
    key = HostKey.from_bytes(honest.ledger.secrets.key)
    dummy = honest.ledger.secrets.dummy
    sides = _sides(record)
    kept = copy.deepcopy(honest.receipts[to])
    changes: dict[int, dict[str, Any]] = {
        at: {"roots": {opening["side"]: root}} for at, root in fakes.items()
    }
    changes.setdefault(seq, {})["openings"] = {to: [lie]}
    for at, fair in changes.items():
        event = record["events"][at]
        shown = {
            **event["fair"],
            **fair,
            "roots": {**event["fair"]["roots"], **fair.get("roots", {})},
        }
        salt = shown_salt(dummy, to, at)
        digest = shown_digest_v2(salt, shown_content(at, shown, event["told"].get(to, []), to))
        # The head the page kept signs, with the record's hash, the lie it was shown.
        item = next(h for h in kept["heads"] if h["seq"] == at)
        item["shown"][sides.index(to)] = digest.hex()
        digests = [bytes.fromhex(d) for d in item["shown"]]
        item["sig"] = key.sign(
            head_message_v2(record["game"], at, bytes.fromhex(item["hash"]), digests)
        )
    return to, min(fakes), kept


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_page_shown_another_reveal_than_the_record_is_found(seed: int) -> None:
    scenario = "suspicious-places"
    honest = play_pages(scenario, seed, _pages(scenario), host=4, game_id=f"unbound-{seed}")
    record = honest.record(with_receipts=False)
    assert audit(record, list(honest.receipts.values())).ok
    to, first, kept = _lied_to(honest)
    words = f"{to} was shown something at event {first} that the record does not hold"
    for report in (
        audit({**record, "receipts": {to: kept}}),
        audit(record, [kept]),
        audit(record, kept_by=[(to, kept)]),
    ):
        assert not report.ok
        assert report.findings[0].check == "receipts"
        assert report.findings[0].message == words, report.findings
    _count("pages lied to, found")


def test_what_a_page_was_shown_is_signed_with_its_head() -> None:
    # What each side was shown of an event is signed with the event's head, as every side's
    # digest of it: a page's kept head whose digests were altered no longer verifies.
    honest = _honest("grid-ambush")
    record = honest.record(with_receipts=False)
    side = next(iter(honest.receipts))
    words = "a side kept a head that the host's key did not sign"
    for how in ("digest", "dropped", "extra", "seq", "side order"):
        kept = copy.deepcopy(honest.receipts[side])
        item = kept["heads"][3]
        if how == "digest":
            item["shown"][0] = "ab" * 32
        elif how == "dropped":
            item["shown"].pop()
        elif how == "extra":
            item["shown"].append("ab" * 32)
        elif how == "seq":
            item["seq"] = 4
        else:
            item["shown"].reverse()
        report = audit({**record, "receipts": {side: kept}})
        assert not report.ok, how
        assert report.findings[0].message == words, (how, report.findings)
    for seq in (10**6, -1, 2**64):
        kept = copy.deepcopy(honest.receipts[side])
        kept["heads"].append({**kept["heads"][-1], "seq": seq})
        report = audit(record, [kept])
        assert not report.ok
        assert report.findings[0].check == "receipts", (seq, report.findings)


def test_what_the_record_says_each_side_was_shown_must_be_signed() -> None:
    _, record = next(r for r in RECORDS if r[0] == "suspicious-places#1")
    side = next(iter(record["events"][2]["fair"]["shown"]))
    spoiled = copy.deepcopy(record)
    spoiled["events"][2]["fair"]["shown"][side] = spoiled["events"][1]["fair"]["shown"][side]
    report = audit(spoiled)
    assert not report.ok
    assert report.findings[0].message == (
        f"what {side} was shown at event 2 is not what the record holds"
    )
    # The host re-signs the heads, not what it showed: an event whose lines it rewrote.
    told = copy.deepcopy(record)
    lines = told["events"][2]["told"].setdefault(side, [])
    lines.append({"event": "fabricated"})
    key = HostKey.from_bytes(bytes.fromhex(KEYS[record["game"]]))
    head = genesis(record["game"])
    for event in told["events"]:
        head = event_hash(head, hashed(event))
        event["fair"]["hash"] = head.hex()
        digests = [bytes.fromhex(event["fair"]["shown"][s]["digest"]) for s in _sides(record)]
        event["fair"]["sig"] = key.sign(
            head_message_v2(record["game"], event["seq"], head, digests)
        )
    report = audit(told)
    assert not report.ok
    assert "shown at event" in report.findings[0].message
    for what, edit in (
        ("a side missing", lambda shown: shown.pop(side)),
        ("a side too many", lambda shown: shown.update(ghost=shown[side])),
    ):
        edited = copy.deepcopy(record)
        edit(edited["events"][2]["fair"]["shown"])
        report = audit(edited)
        assert not report.ok, what
        assert "fair.shown: not one for each side" in report.findings[0].message, what
