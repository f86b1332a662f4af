"""The audit holds the host's time to what a side's page kept (issue 24, finding 2): a timed
window that reached the page with much less than its limit left (dated back), and an answer
the page sent in time that the host held back until its own time-out. The record alone cannot
show either (its times are the host's); the page's account, kept beside its receipts, does."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game
from ghillie.fairness.audit import audit
from ghillie.fairness.audit.time import ALLOWANCE_MS

from ..timed import registered, scenario

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")
T0 = "2026-12-01T20:00:00.000+00:00"
LIMIT = 10


def _timed_out() -> dict[str, Any]:
    """Blue steps at T0; red is asked to answer within 10 s and the host times it out."""
    game = Game.create(scenario(LIMIT), seed=5)
    game.command("blue", {"type": "step"}, now=T0)
    game.time_out(now="2026-12-01T20:00:10.100+00:00")
    game.command("blue", {"type": "end_game"}, now="2026-12-01T20:01:00.000+00:00")
    return game.record()


def _kept(record: dict[str, Any], *, left: int, sent_after: int | None) -> dict[str, Any]:
    """Red's receipts: the window reached its page with ``left`` ms to go (received at
    1,000 by its clock), and (``sent_after`` ms later) it sent an answer the host never
    carried out."""
    window = {"seq": 1, "limit": LIMIT, "left": left, "received": 1000, "live": True}
    kept: dict[str, Any] = {
        "key": record["events"][0]["fair"]["setup"]["key"],
        "heads": [],
        "requests": [],
        "windows": [{**window, "asked": True}],
        "orders": [],
    }
    if sent_after is not None:
        kept["orders"] = [{"id": "a1", "k": 2, "digest": "ab" * 32, "sent": 1000 + sent_after}]
    return kept


def test_an_answer_sent_in_time_and_held_back_until_the_time_out_is_found() -> None:
    record = _timed_out()
    assert audit(record).ok  # on its own, the record is an honest-looking time-out
    report = audit(record, kept_by=[("red", _kept(record, left=10_000, sent_after=4_000))])
    assert not report.ok
    finding = report.findings[0]
    assert (finding.check, finding.seq) == ("time", 2)
    assert "red's page sent an order with 6.0 s of its 10 s left" in finding.message


def test_an_answer_sent_at_the_last_moment_is_the_networks_and_not_a_finding() -> None:
    record = _timed_out()
    late = LIMIT * 1000 - ALLOWANCE_MS + 500
    assert audit(record, kept_by=[("red", _kept(record, left=10_000, sent_after=late))]).ok
    assert audit(record, kept_by=[("red", _kept(record, left=10_000, sent_after=None))]).ok


def test_a_window_that_reached_the_page_cut_short_is_found() -> None:
    record = _timed_out()
    report = audit(record, kept_by=[("red", _kept(record, left=2_000, sent_after=None))])
    assert not report.ok
    finding = report.findings[0]
    assert (finding.check, finding.seq) == ("time", 1)
    assert "reached red's page with 2.0 s of its 10 s left" in finding.message
    # Seen only on a new connection (the page was away), the same is no finding.
    kept = _kept(record, left=2_000, sent_after=None)
    kept["windows"][0]["live"] = False
    assert audit(record, kept_by=[("red", kept)]).ok


def test_an_answer_sent_in_time_and_refused_as_late_is_found() -> None:
    """Held back, then refused as too late: the page kept the refusal, which is no excuse."""
    record = _timed_out()
    for code in ("time_up", "window_closed"):
        kept = _kept(record, left=10_000, sent_after=4_000)
        kept["orders"][0]["refused"] = code
        report = audit(record, kept_by=[("red", kept)])
        assert not report.ok, code
        assert (report.findings[0].check, report.findings[0].seq) == ("time", 2)


def test_an_order_signed_again_under_its_id_and_refused_by_the_rules_is_no_finding() -> None:
    """A stale order is signed again for the next roll under the same command id: its
    attempts are one order, and the rules refused it (not red's to give), so the host held
    nothing back, whatever the first attempt's refusal said."""
    record = _timed_out()
    kept = _kept(record, left=10_000, sent_after=4_000)
    first = {**kept["orders"][0], "refused": "stale_order"}
    again = {**first, "k": 3, "digest": "cd" * 32, "sent": first["sent"] + 50}
    kept["orders"] = [first, {**again, "refused": "not_your_turn"}]
    assert audit(record, kept_by=[("red", kept)]).ok
    kept["orders"] = [first, {**again, "refused": "window_closed"}]
    assert not audit(record, kept_by=[("red", kept)]).ok
