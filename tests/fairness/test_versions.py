"""Any version (issue 24, finding 11): the audit checks every fairness protocol ghillie has
written since version 2, each by its own rules, from real records written by the ghillie of
the time (tests/fairness/records: protocol 2 by e02f404~1, protocol 3 by 2ebfdf0); a record
of a protocol it does not know is refused with a sentence saying which and how to check it;
and a server holding a game started under an earlier protocol shows it, gives its record and
refuses to go on with it, in words, never with a 500."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ghillie import Refusal, examples
from ghillie.fairness.audit import audit
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

RECORDS = Path(__file__).with_name("records")
OLD = {
    2: RECORDS / "protocol-2-grid-ambush.json",
    3: RECORDS / "protocol-3-suspicious-places.json",
}


def _record(version: int) -> dict[str, Any]:
    return json.loads(OLD[version].read_text("utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize("version", sorted(OLD))
def test_a_record_of_an_earlier_protocol_passes_by_its_own_rules(version: int) -> None:
    record = _record(version)
    assert record["events"][0]["fair"]["setup"]["version"] == version
    report = audit(record)
    assert report.ok, report.findings
    assert report.version == version
    assert report.openings >= 2  # its rosters' openings were checked, by that version's rules


@pytest.mark.parametrize("version", sorted(OLD))
@pytest.mark.parametrize("where", ["opening value", "root", "host seed", "a head's signature"])
def test_an_altered_record_of_an_earlier_protocol_fails(version: int, where: str) -> None:
    record = copy.deepcopy(_record(version))
    events = record["events"]
    if where == "opening value":
        opening = next(o for e in events for v in e["fair"]["openings"].values() for o in v)
        opening["value"] = "somewhere else"
    elif where == "root":
        roots = events[len(events) // 2]["fair"]["roots"]
        side = next(iter(roots))
        roots[side] = ("0" if roots[side][0] != "0" else "1") + roots[side][1:]
    elif where == "host seed":
        record["secrets"]["host_seed"] = "00" * 32
    else:
        sig = events[3]["fair"]["sig"]
        events[3]["fair"]["sig"] = ("0" if sig[0] != "0" else "1") + sig[1:]
    assert not audit(record).ok, where


@pytest.mark.parametrize(
    ("version", "words"),
    [
        (1, "protocol version 1"),
        (1, "950c1b3"),
        (5, "protocol version 5, which this ghillie cannot check"),
        ("4", "protocol version '4'"),
    ],
)
def test_a_record_of_a_protocol_the_audit_does_not_know_is_refused_in_words(
    version: Any, words: str
) -> None:
    record = copy.deepcopy(_record(3))
    record["events"][0]["fair"]["setup"]["version"] = version
    report = audit(record)
    assert not report.ok
    assert report.findings[0].check == "record"
    assert words in report.findings[0].message


def test_a_stored_game_of_an_earlier_protocol_is_shown_and_given_but_goes_no_further() -> None:
    async def play() -> None:
        store = MemoryStore()
        hub = Hub(store)
        try:
            game = (await hub.create(examples.load("grid-ambush-table"))).game_id
            hub.games.evict(hub.games.get(game))  # type: ignore[arg-type]
            # The game as a ghillie of protocol 3 stored it (its first event says so).
            first = json.loads(store._events[game][0])
            first["fair"]["setup"]["version"] = 3
            store._events[game][0] = json.dumps(first)
            view = await hub.view(game, "jungle")
            assert view["fairness"]["archived"] == 3
            assert view["commands"] == []
            with pytest.raises(Refusal) as refused:
                await hub.commands.command(game, "jungle", "c1", {"type": "end_game"})
            assert refused.value.code == "old_protocol"
            assert "ghillie audit" in refused.value.detail
            assert "protocol 3" in refused.value.detail
            with pytest.raises(Refusal) as refused:
                await hub.commands.anchor(game, "jungle", "ab" * 32)
            assert refused.value.code == "old_protocol"
            record = await hub.record(game)  # though not over: it can never go on here
            assert record["events"][0]["fair"]["setup"]["version"] == 3
        finally:
            hub.close()

    asyncio.run(play())
