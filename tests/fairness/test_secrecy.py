"""What a side is shown of the fairness machinery (TRUST.md S4): signed heads, roster roots,
the sides' own roll contributions and the openings its rules call for — never a seed, the
host's chain elements, the signing or roster key, a request's salt or an unopened fact's
salt, during the game or after it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from ghillie import Game, examples
from ghillie.fairness.chains import Chain
from ghillie.fairness.ledger import HOST
from ghillie.state import SPECTATOR

from .games import drive_some, play_random

HEX64 = re.compile(r"[0-9a-f]{64}")


def _forbidden(record: dict[str, Any], signing_key: str) -> set[str]:
    kept = record["secrets"]
    setup = record["events"][0]["fair"]["setup"]
    length = setup["length"]
    out = {kept["host_seed"], signing_key, kept["dummy"], *kept["held"].values()}
    host = Chain.from_seed(bytes.fromhex(kept["host_seed"]), length)
    out |= {host.element(k).hex() for k in range(len(record["events"]) + 5)}
    for seed in kept["held"].values():
        # A side's elements are published once used, never before.
        chain = Chain.from_seed(bytes.fromhex(seed), length)
        out |= {chain.element(k).hex() for k in range(len(record["events"]), length)}
    opened = {
        o["salt"]
        for event in record["events"]
        for shown in event["fair"]["openings"].values()
        for o in shown
    }
    for event in record["events"]:
        private = event["fair"]["private"]
        out.add(private["salt"])
        out |= {fact["salt"] for fact in private["facts"]} - opened
    return out


@pytest.mark.parametrize("scenario", examples.names())
def test_no_side_is_shown_a_seed_a_host_element_a_key_or_an_unopened_salt(scenario: str) -> None:
    game = play_random(scenario, seed=11)
    record = game.record()
    forbidden = _forbidden(record, game.store.header(game.id)["fair"]["key"])
    assert HOST in {p["party"] for p in record["events"][0]["fair"]["setup"]["parties"]}
    for observer in (*game.state.sides, SPECTATOR):
        shown = set(HEX64.findall(json.dumps(game.view(observer))))
        assert shown, "the view holds no digest at all: the check would be empty"
        assert not shown & forbidden, observer


@pytest.mark.parametrize("scenario", ["suspicious-places", "camouflage"])
def test_the_referees_page_shows_no_host_element_or_salt_while_the_game_is_on(
    scenario: str,
) -> None:
    # Issue 24: the referee's page (the host's, often on a screen at the table) showed the
    # host's roll data during play, from which a reader could know a roll in advance.
    from ghillie.state import REFEREE

    game = Game.create(examples.load(scenario), seed=12)
    drive_some(game, 12, 40)
    assert game.state.phase.name != "OVER"
    kept = game.store.header(game.id)["fair"]
    record = {
        "secrets": {k: kept[k] for k in ("host_seed", "dummy", "held")},
        "events": [json.loads(json.dumps(e, default=str)) for e in _events_json(game)],
    }
    forbidden = _forbidden(record, kept["key"])
    forbidden |= {s["salt"] for e in record["events"] for s in e["fair"]["shown"].values()}
    shown = set(HEX64.findall(json.dumps(game.view(REFEREE))))
    assert shown
    assert not shown & forbidden


def _events_json(game: Any) -> list[dict[str, Any]]:
    from ghillie.events import event_to_json

    return [event_to_json(e) for e in game.events()]
