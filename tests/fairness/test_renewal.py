"""A game of any length (issue 24, finding 11): every party fixed 4,096 elements of its chain
before the game; when they run out, each chain is followed by the next, derived from the one
before (chains.renewed), its anchor recorded in the signed log at the roll it starts. A game
past 4,096 rolls goes on, ends, and its record passes the audit; a host that renews its own
chain with one of its choosing is found."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from ghillie import Game, registry
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import LENGTH, Chain, generation, renewed

from ..timed import Timed, registered, scenario
from .dishonest import resign

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")
T = "2026-12-01T20:00:00.000+00:00"


@pytest.fixture(scope="module")
def long_game() -> tuple[dict[str, Any], str]:
    """A finished game of more than 4,096 events, and its host's signing key."""
    rulesets = registry.rulesets()
    rulesets["timed"] = Timed()
    game = Game.create(scenario(3600), seed=9)
    while game.state.seq < LENGTH + 3:
        game.command("blue", {"type": "step"}, now=T)
        game.command("red", {"type": "shoot"}, now=T)
    game.command("blue", {"type": "end_game"}, now=T)
    out = game.record(), game.ledger.secrets.key.hex()
    del rulesets["timed"]
    return out


def test_renewed_chains_follow_from_their_seed() -> None:
    seed = bytes(range(32))
    assert generation(seed, 0) == seed
    assert generation(seed, 2) == renewed(renewed(seed))
    assert Chain.from_seed(renewed(seed), 8).anchor != Chain.from_seed(seed, 8).anchor


@pytest.mark.usefixtures("registered")
def test_a_game_past_4096_rolls_goes_on_ends_and_passes_the_audit(
    long_game: tuple[dict[str, Any], str],
) -> None:
    long_record, _ = long_game
    events = long_record["events"]
    assert len(events) > LENGTH + 3
    renewal = events[LENGTH]["fair"]
    # Every host-held chain (the host's, and here both sides') starts anew at roll 4096.
    assert set(renewal["chains"]) == {"host", "blue", "red"}
    seed = bytes.fromhex(long_record["secrets"]["host_seed"])
    assert renewal["chains"]["host"] == Chain.from_seed(renewed(seed)).anchor.hex()
    report = audit(long_record)
    assert report.ok, report.findings
    assert ("host", LENGTH) in report.new_chains


@pytest.mark.usefixtures("registered")
def test_a_host_that_renews_its_chain_with_one_of_its_choosing_is_found(
    long_game: tuple[dict[str, Any], str],
) -> None:
    record, key = long_game
    spoiled = copy.deepcopy(record)
    chosen = Chain.from_seed(b"the host's own pick, after seeing the pages' elements")
    spoiled["events"][LENGTH]["fair"]["chains"]["host"] = chosen.anchor.hex()
    for event in spoiled["events"][LENGTH:]:
        event["fair"]["private"]["host"] = chosen.element(event["seq"] - LENGTH).hex()
    report = audit(resign(spoiled, key))
    assert not report.ok
    assert report.findings[0].check == "randomness"
    assert "host's new chain is not the one its first seed grows" in report.findings[0].message
