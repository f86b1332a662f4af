"""Facts that never change once written (``Ruleset.fixed_secrets``: an ambush's square, what a
marker hides): every opening of one proves the event that wrote it, so the side it is shown
to sees that the square was fixed before it moved. The ledger keeps what the proof needs,
rebuilds it when a game is restored, and refuses to write such a fact twice; the audit holds
every opening to it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ghillie import Game, examples, registry
from ghillie.fairness.audit import audit
from ghillie.fairness.roster import FixedRewrite, check_opening
from ghillie.game import restore
from ghillie.rules.suspicious_places import SuspiciousPlaces
from ghillie.state import Phase

from .dishonest import resign
from .games import KEYS, play_random, records

RECORDS = dict(records())


def _openings(record: dict[str, Any]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    for event in record["events"]:
        for to, shown in event["fair"]["openings"].items():
            for opening in shown:
                yield event["seq"], to, opening


def _write_event(record: dict[str, Any], opening: dict[str, Any]) -> int:
    """The event whose committed facts wrote the opened fact (the last one to, before the
    root it is opened against)."""
    fact = (opening["side"], opening["piece"], opening["key"])
    return max(
        event["seq"]
        for event in record["events"][: opening["root_seq"] + 1]
        for f in event["fair"]["private"]["facts"]
        if (f["side"], f["piece"], f["key"]) == fact
    )


def _root(record: dict[str, Any], seq: int, side: str) -> str:
    root: str = record["events"][seq]["fair"]["roots"][side]
    return root


def _fixed(record: dict[str, Any]) -> frozenset[str]:
    return registry.get(record["ruleset"]).fixed_secrets


def test_the_rulesets_fix_what_is_written_once_and_only_that() -> None:
    assert registry.get("grid-ambush").fixed_secrets == {"square", "order"}
    assert registry.get("suspicious-places").fixed_secrets == {"content", "unit"}
    # A sniper marker's "true" changes with a covert move (SW-R36): it is not fixed.
    assert "true" not in registry.get("suspicious-places").fixed_secrets
    assert registry.get("ambush-fields").fixed_secrets == frozenset()
    # What a marker stands for is recorded once, when it is laid (INF-R01, R02); its owner
    # keeps a private note beside it, which is never opened.
    assert registry.get("camouflage").fixed_secrets == {"hides"}
    # A standing order is written once when it is given, and opened when it fires: its
    # opening proves it came before its trigger (issue 14).
    assert registry.get("ambush-fire").fixed_secrets == {
        "unit",
        "reaction",
        "trigger",
        "order",
        "chance",
    }


def test_every_fixed_key_has_its_words_so_that_the_pages_demand_its_proof() -> None:
    # The view's secret_words say which keys are fixed; a page demands a write proof of
    # those and refuses one elsewhere.
    for name in registry.rulesets():
        ruleset = registry.get(name)
        assert ruleset.fixed_secrets <= set(ruleset.secret_words), name


def test_an_opening_of_a_fixed_fact_proves_the_event_that_wrote_it() -> None:
    proved = 0
    for name, record in RECORDS.items():
        size = record["events"][0]["fair"]["setup"]["roster"]
        for _, _, opening in _openings(record):
            if opening["key"] not in _fixed(record):
                # Nothing tells when a fact that may change was written.
                assert "written" not in opening, name
                continue
            written = opening["written"]
            assert written["seq"] == _write_event(record, opening), name
            assert written["seq"] <= opening["root_seq"]
            root = _root(record, opening["root_seq"], opening["side"])
            then = _root(record, written["seq"], opening["side"])
            assert check_opening(record["game"], opening, root, size, then), name
            proved += 1
    assert proved >= 20
    keys = {o["key"] for r in RECORDS.values() for _, _, o in _openings(r)}
    assert {"square", "content", "unit", "true"} <= keys  # fixed and not, both opened


def test_a_restored_game_proves_the_same_writes() -> None:
    # The proofs are host-private and live in memory: a game loaded from its log rebuilds
    # them as its events are replayed, and opens exactly as the live game would.
    kept = 0
    for seed in range(3):
        game = play_random("suspicious-places", seed, steps=40)
        header = game.store.header(game.id)
        _, again = restore(game.id, game.scenario, header, game.events())
        for side, roster in game.ledger.rosters.items():
            assert again.rosters[side].written_at == roster.written_at
            kept += len(roster.written_at)
            for piece, key in roster.written_at:
                seq = game.state.seq
                assert again.rosters[side].opening(piece, key, seq) == roster.opening(
                    piece, key, seq
                )
    assert kept


def _commands(scenario: str, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """The commands an honest random game of ``scenario`` gave, in order."""
    game = play_random(scenario, seed)
    return [(e.side or "", dict(e.command or {})) for e in game.events()[1:]]


def test_rewriting_a_fixed_fact_raises_before_anything_is_sealed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A ruleset that declared a unit's marker fixed would be wrong: it is unset when the
    # unit is revealed. Given the same commands again, the ledger raises on that event, and
    # the game is as it was.
    played = {seed: _commands("suspicious-places", seed) for seed in range(4)}
    monkeypatch.setattr(SuspiciousPlaces, "fixed_secrets", frozenset({"content", "marker"}))
    raised = 0
    for seed, commands in played.items():
        game = Game.create(examples.load("suspicious-places"), seed=seed)
        for side, command in commands:
            before, log = game.state, len(game.events())
            try:
                game.command(side, command)
            except FixedRewrite:
                assert game.state == before, "a refused rewrite changed the state"
                assert len(game.events()) == log, "a refused rewrite changed the log"
                raised += 1
                break
        else:
            assert game.state.phase is Phase.OVER
    assert raised


# --- the audit -------------------------------------------------------------------------------


def _first(record: dict[str, Any], fixed: bool) -> tuple[int, str, int]:
    """Where the first opening of a fixed (or of a changeable) fact is: event, side, index."""
    for event in record["events"]:
        for to, shown in event["fair"]["openings"].items():
            for i, opening in enumerate(shown):
                if (opening["key"] in _fixed(record)) == fixed:
                    return event["seq"], to, i
    raise AssertionError("no such opening")


def _edited(record: dict[str, Any], fixed: bool, edit: Callable[[dict[str, Any]], None]) -> Any:
    """``record`` with one opening edited, and every hash and signature made anew (the host
    holds the key): only the commitments check can find it."""
    out = copy.deepcopy(record)
    seq, to, i = _first(out, fixed)
    edit(out["events"][seq]["fair"]["openings"][to][i])
    return audit(resign(out, KEYS[record["game"]]))


def _flip(h: str) -> str:
    return f"{int(h[0], 16) ^ 1:x}{h[1:]}"


def _flip_leaf(o: dict[str, Any]) -> None:
    leaves = o["written"]["leaves"]
    o["written"]["leaves"] = sorted([_flip(leaves[0]), *leaves[1:]])


def _blind(o: dict[str, Any]) -> None:
    o["written"]["blind"] = _flip(o["written"]["blind"])


def _earlier(o: dict[str, Any]) -> None:
    o["written"]["seq"] -= 1


def _later(o: dict[str, Any]) -> None:
    o["written"]["seq"] = o["root_seq"] + 1


def _now(o: dict[str, Any]) -> None:
    # The write proved with the root it is opened against: the fact is there, but the
    # leaves are not those of the event named.
    o["written"]["leaves"] = o["leaves"]
    o["written"]["blind"] = o["blind"]


def _dropped(o: dict[str, Any]) -> None:
    del o["written"]


def _null(o: dict[str, Any]) -> None:
    o["written"] = None


NOT_ITS_ROOT = "does not check against the root of the event that wrote its fact"
WRITTEN_LATER = "says its fact was written after the root it opens against"
UNSAID = "does not say when its fact, which never changes, was written"


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (_flip_leaf, NOT_ITS_ROOT),
        (_blind, NOT_ITS_ROOT),
        (_earlier, NOT_ITS_ROOT),
        (_now, NOT_ITS_ROOT),
        (_later, WRITTEN_LATER),
        (_dropped, UNSAID),
        (_null, UNSAID),
    ],
)
@pytest.mark.parametrize("name", ["grid-ambush#0", "suspicious-places#0"])
def test_a_false_proof_of_a_write_is_found(name: str, edit: Any, words: str) -> None:
    record = RECORDS[name]
    seq, to, i = _first(record, fixed=True)
    opening = record["events"][seq]["fair"]["openings"][to][i]
    if edit is _now and opening["written"]["seq"] == opening["root_seq"]:
        pytest.skip("written at the event before its reveal: the two roots are one")
    report = _edited(record, True, edit)
    assert not report.ok
    assert report.findings[0].check == "commitments", report.findings
    assert words in report.findings[0].message, report.findings
    assert report.findings[0].seq == seq


def _opens(record: dict[str, Any], fixed: bool) -> bool:
    try:
        _first(record, fixed)
    except AssertionError:
        return False
    return True


def test_a_proof_of_a_write_on_a_fact_that_may_change_is_found() -> None:
    # A random game that opens both a fixed fact and one the rules may change.
    record = next(r for r in RECORDS.values() if _opens(r, True) and _opens(r, False))
    seq, to, i = _first(record, fixed=True)
    proof = record["events"][seq]["fair"]["openings"][to][i]["written"]

    def claim(o: dict[str, Any]) -> None:
        o["written"] = copy.deepcopy(proof)

    report = _edited(record, False, claim)
    assert not report.ok
    words = "says when a fact was written that the rules may change"
    assert words in report.findings[0].message, report.findings


def test_a_fixed_fact_written_twice_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # The rules' own promise, held by the audit: were a unit's marker declared fixed, the
    # record of a game that unsets it (the unit revealed) would break it.
    record = RECORDS["suspicious-places#0"]
    assert audit(record).ok
    monkeypatch.setattr(SuspiciousPlaces, "fixed_secrets", frozenset({"content", "unit", "marker"}))
    report = audit(record)
    assert not report.ok
    assert "a fact the rules fix once written is written again" in report.findings[0].message
