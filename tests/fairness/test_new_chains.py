"""A side's new dice chain mid-game (its device lost, or its seat moved: docs/fairness.md,
"Seats"): the record says from which event that side's rolls use it, no roll before it
changes, and the audit holds every element to the chain it should follow."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

import pytest

from ghillie import examples
from ghillie.errors import Refusal
from ghillie.fairness.audit import audit
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.chains import Chain
from ghillie.fairness.encoding import sha256
from ghillie.fairness.ledger import Ledger, Secrets, seeded_bytes

from .dishonest import resign
from .games import PagesGame

SCENARIO = "suspicious-places-table"
NEW = Chain.from_seed(sha256(b"the new phone"))  # the chain of the device taking the seat over


def _chains(what: str) -> dict[str, Chain]:
    sides = examples.load(SCENARIO).side_ids()
    return {s: Chain.from_seed(sha256(f"{what} {s}".encode())) for s in sides}


def _step(game: PagesGame, rng: random.Random) -> None:
    """One accepted command, chosen by ``rng`` among the sensible ones."""
    ruleset = game.state.ruleset
    for _ in range(200):
        side = rng.choice(game.state.sides)
        options = [c for c in ruleset.candidates(game.state, side) if c.get("type") != "end_game"]
        if options:
            with contextlib.suppress(Refusal):
                game.command(side, rng.choice(options))
                return
    raise AssertionError("no command was accepted")


def _game(new_at: int | None, side: str = "lianra", steps: int = 6) -> PagesGame:
    game = PagesGame(SCENARIO, _chains("page"), host=5, game_id="new-chain-game")
    rng = random.Random(7)
    for _ in range(steps):
        if new_at is not None and game.ledger.next_k == new_at:
            game.new_chain(side, NEW, new_at)
        _step(game, rng)
    return game


def _record(game: PagesGame) -> dict[str, Any]:
    return json.loads(json.dumps(game.record()))


def test_a_new_chain_is_recorded_at_its_first_roll_and_the_audit_names_it() -> None:
    game = _game(new_at=3)
    record = _record(game)
    chains = [(e["seq"], e["fair"].get("chains")) for e in record["events"]]
    assert [(seq, c) for seq, c in chains if c] == [(3, {"lianra": NEW.anchor.hex()})]
    report = audit(record, finished=False)
    assert report.ok, report.findings
    assert report.new_chains == [("lianra", 3)]


def test_no_roll_before_the_new_chain_changes() -> None:
    with_new, without = _record(_game(new_at=3)), _record(_game(new_at=None))
    assert with_new["events"][:3] == without["events"][:3]
    # From event 3 on the side's element is the new chain's: another roll key, and so
    # (had the commands rolled dice) other dice.
    assert (
        with_new["events"][3]["fair"]["contributions"]["lianra"]
        != without["events"][3]["fair"]["contributions"]["lianra"]
    )


@pytest.mark.parametrize("tamper", ["drop", "earlier", "later", "other_anchor", "host_side"])
def test_a_record_that_lies_about_the_new_chain_is_rejected(tamper: str) -> None:
    """A host that rewrites where a new chain starts (and re-hashes and re-signs the whole
    log, so the hash chain holds) is caught by the elements that do not follow."""
    game = _game(new_at=3)
    record = _record(game)
    record.pop("receipts")  # the pages' receipts would catch the rewrite first
    events = record["events"]
    moved = events[3]["fair"].pop("chains")
    if tamper == "earlier":
        events[2]["fair"]["chains"] = moved
    elif tamper == "later":
        events[4]["fair"]["chains"] = moved
    elif tamper == "other_anchor":
        events[3]["fair"]["chains"] = {"lianra": "ab" * 32}
    elif tamper == "host_side":
        events[3]["fair"]["chains"] = {**moved, "host": "ab" * 32}
    report = audit(resign(record, game.ledger.secrets.key.hex()), finished=False)
    assert not report.ok
    assert report.findings[0].check in ("randomness", "record"), report.findings


def test_a_page_that_kept_its_new_chain_is_held_to_the_roll_it_starts_at() -> None:
    game = _game(new_at=3)
    record = _record(game)
    anchor = NEW.anchor.hex()
    kept = copy.deepcopy(record["receipts"]["lianra"])
    kept["anchor"], kept["chain_from"] = anchor, 3
    assert audit(record, kept_by=[("lianra", kept)], finished=False).ok
    kept["chain_from"] = 2  # a page told its chain started elsewhere
    assert not audit(record, kept_by=[("lianra", kept)], finished=False).ok
    kept.pop("chain_from")  # the new chain passed off as the set-up's
    assert not audit(record, kept_by=[("lianra", kept)], finished=False).ok


def test_a_new_chain_for_a_roll_already_over_is_refused() -> None:
    game = _game(new_at=None, steps=3)
    with pytest.raises(ValueError, match="is over"):
        game.ledger.new_chain("lianra", "ab" * 32, game.ledger.next_k - 1)
    with pytest.raises(ValueError, match="no page-held chain"):
        game.ledger.new_chain("nobody", "ab" * 32, game.ledger.next_k)


def test_before_the_first_event_a_new_chain_replaces_the_set_up_anchor() -> None:
    scenario = examples.load(SCENARIO)
    sides = scenario.side_ids()
    anchors = {s: c.anchor.hex() for s, c in _chains("page").items()}
    ledger = Ledger(
        "g",
        sides,
        Secrets.new([], seeded_bytes(1)),
        anchors,
        size=roster_size(scenario),
        fixed=fixed_secrets(scenario),
    )
    ledger.new_chain("lianra", NEW.anchor.hex(), 0)
    listed = {p["party"]: p["anchor"] for p in ledger.setup()["parties"]}
    assert listed["lianra"] == NEW.anchor.hex()
    assert listed["keno"] == anchors["keno"]
    assert ledger.accepts("lianra", 0, NEW.element(0))
    assert not ledger.accepts("lianra", 0, _chains("page")["lianra"].element(0))
