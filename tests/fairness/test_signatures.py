"""The audit's signature checks run on other threads (ghillie.fairness.signatures), and the
audit still names the first problem in the record, as when each check ran in its place."""

from __future__ import annotations

import copy
from typing import Any

from ghillie.fairness.audit import audit
from ghillie.fairness.hashlog import HostKey
from ghillie.fairness.signatures import BATCH, signatures

from .games import records

RECORD: dict[str, Any] = next(r for n, r in records() if n == "suspicious-places#1")


def _spoil_head(record: dict[str, Any], seq: int) -> None:
    fair = record["events"][seq]["fair"]
    fair["sig"] = record["events"][seq - 1]["fair"]["sig"]  # well spelled, for another head


def test_a_bad_head_signature_is_named_before_a_broken_hash_found_after_it() -> None:
    assert len(RECORD["events"]) > 8
    spoiled = copy.deepcopy(RECORD)
    _spoil_head(spoiled, 3)
    spoiled["events"][7]["fair"]["hash"] = "00" * 32  # found later, in the same pass
    report = audit(spoiled)
    assert [(f.check, f.seq, f.message) for f in report.findings] == [
        ("chain", 3, "the host's signature on this head is not valid")
    ]


def test_of_two_bad_signatures_the_earlier_is_named() -> None:
    spoiled = copy.deepcopy(RECORD)
    _spoil_head(spoiled, 6)
    side = next(iter(spoiled["events"][2]["fair"]["shown"]))
    shown = spoiled["events"][2]["fair"]["shown"]
    shown[side] = spoiled["events"][1]["fair"]["shown"][side]
    report = audit(spoiled)
    # What each side was shown is signed with the head since protocol 4: the earlier event
    # is named first, though its problem is found at once and the later one in a thread.
    assert [(f.check, f.seq, f.message) for f in report.findings] == [
        ("chain", 2, f"what {side} was shown at event 2 is not what the record holds")
    ]
    shown[side] = RECORD["events"][2]["fair"]["shown"][side]  # mended
    report = audit(spoiled)
    assert [(f.check, f.seq) for f in report.findings] == [("chain", 6)]


def test_a_bad_signature_is_named_before_problems_of_the_later_checks() -> None:
    spoiled = copy.deepcopy(RECORD)
    spoiled["secrets"]["host_seed"] = "00" * 32  # randomness is checked after every head
    assert [(f.check, f.seq) for f in audit(spoiled).findings] == [("randomness", 0)]
    _spoil_head(spoiled, 4)
    assert [(f.check, f.seq) for f in audit(spoiled).findings] == [("chain", 4)]


def test_the_first_failing_check_in_queue_order_is_the_problem() -> None:
    key = HostKey.generate()
    count = 3 * BATCH + 5  # several tasks, the last one short
    messages = [f"head {i}".encode() for i in range(count)]
    good = [key.sign(m) for m in messages]
    bad = {BATCH + 7, 2 * BATCH + 1, 3 * BATCH + 2}
    with signatures() as queued:
        for i, message in enumerate(messages):
            signature = good[(i + 1) % count] if i in bad else good[i]
            queued.check(key.public, message, signature, ("chain", i, "bad"))
        assert queued.first_problem() == ("chain", BATCH + 7, "bad")
    with signatures() as queued:
        for i, message in enumerate(messages):
            queued.check(key.public, message, good[i], ("chain", i, "bad"))
        queued.check(key.public, messages[0], good[0].upper(), ("chain", count, "spelled"))
        assert queued.first_problem() == ("chain", count, "spelled")
