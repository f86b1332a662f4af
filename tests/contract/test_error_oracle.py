"""The error oracle (TRUST.md S3): naming a piece one cannot see is answered exactly like
naming one that does not exist — same code, same detail, same field, same length, and the
same odds (with the same refusal) while the form is being filled in.

Random games are played; at every step each command a side could give that names a piece
is tried twice more, once with the id of a piece that side cannot see and once with an id
that names nothing. The two answers must be identical.
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from ghillie import Game, Refusal, examples, load_scenario
from ghillie.scenario import Scenario
from ghillie.server.odds import odds_for
from tests.registered import ruleset_ids

from .harness import STATS, strings, substitute, unseen_piece_ids

NOBODY = "0" * 32


def _scenarios() -> list[tuple[str, Scenario]]:
    out = [(name, examples.load(name)) for name in examples.names()]
    # With private rosters the ambushing units themselves are unseen by the enemy (DWV-A12).
    for name in ("grid-ambush", "grid-ambush-table"):
        data = examples.data(name)
        data["switches"] = {"dwv.roster_public": False}
        out.append((f"{name}, private roster", load_scenario(data)))
    return out


def _answer(game: Game, side: str, command: dict[str, Any]) -> tuple[Any, Any]:
    """The command's refusal (code, detail and the field it names) or acceptance, and what
    the odds a form shows while it is filled in say of it (their refusal too)."""
    try:
        game.trial(side, command)
        ruled: Any = "accepted"
    except Refusal as refusal:
        ruled = refusal.as_dict()
    try:
        odds: Any = odds_for(game.state, side, command)
    except Refusal as refusal:
        odds = refusal.as_dict()
    return ruled, odds


# Rulesets in which every side sees every piece (suspicious-places: a hidden unit is its
# markers, and what is hidden is which marker is true, which the two-worlds suite compares):
# there is no unseen piece to name, and the oracle checks that it stays so.
EVERY_PIECE_SEEN = frozenset({"suspicious-places"})


@dataclass(frozen=True)
class Probed:
    compared: int  # pairs of answers compared
    probed: Counter[str]  # of them, by command type
    named: int  # candidates that named a piece by its id
    unseen: int  # times a side had a piece it could not see


@functools.cache
def _probe(name: str) -> Probed:
    """Random games of the scenario, every pair of answers compared as they are played."""
    scenario = dict(_scenarios())[name]
    compared = named_any = unseen_any = 0
    probed: Counter[str] = Counter()  # pairs compared, by command type
    for seed in range(6):
        game = Game.create(scenario, seed=seed)
        ruleset = game.state.ruleset
        rng = random.Random(seed)
        for _ in range(80):
            for side in game.state.sides:
                unseen = unseen_piece_ids(game, side)
                unseen_any += bool(unseen)
                for command in ruleset.candidates(game.state, side):
                    named = [v for v in strings(command) if v in game.state.pieces]
                    named_any += bool(named)
                    for ref in named[:2]:
                        for hidden in unseen[:3]:
                            with_hidden = _answer(game, side, substitute(command, ref, hidden))
                            with_nothing = _answer(game, side, substitute(command, ref, NOBODY))
                            assert with_hidden == with_nothing, (
                                f"{side} can probe for hidden pieces"
                            )
                            compared += 1
                            probed[command["type"]] += 1
            side = rng.choice(game.state.sides)
            options = ruleset.candidates(game.state, side)
            if options:
                with contextlib.suppress(Refusal):
                    game.command(side, rng.choice(options))
    return Probed(compared, probed, named_any, unseen_any)


@pytest.mark.parametrize(("name", "scenario"), _scenarios(), ids=[n for n, _ in _scenarios()])
def test_an_unseen_piece_is_answered_like_no_piece(name: str, scenario: Scenario) -> None:
    found = _probe(name)
    compared, probed = found.compared, found.probed
    STATS["error-oracle pairs compared"] += compared
    if "private roster" in name:
        assert compared, "the private-roster games never had an unseen piece to probe"
    if scenario.ruleset == "ambush-fields":
        # Hidden ships stay hidden for turns, and the candidates name own ships by id now
        # and then: the own-ship, fire, identify and EW paths are all probed.
        assert compared >= 100, f"only {compared} ambush-fields pairs were compared"
        expected = {"plot", "scan", "fire", "identify", "assign_ew"}
        assert expected <= set(probed), f"never probed: {sorted(expected - set(probed))}"


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_ruleset_gives_the_oracle_pairs_to_compare(ruleset: str) -> None:
    """A ruleset whose games give the oracle nothing to compare would pass it unchecked."""
    found = [_probe(name) for name in examples.of(ruleset)]
    named = sum(f.named for f in found)
    assert named, (
        f"{ruleset}'s candidates never named a piece by its id: the error oracle needs "
        "Ruleset.candidates to offer commands that name pieces"
    )
    unseen = sum(f.unseen for f in found)
    if ruleset in EVERY_PIECE_SEEN:
        assert not unseen, f"{ruleset} has pieces a side cannot see: not in EVERY_PIECE_SEEN"
        return
    assert sum(f.compared for f in found), (
        f"{ruleset} gave the error oracle no pair of answers to compare: its games must have "
        "a piece some side cannot see (a hidden unit) while that side's candidates name a "
        f"piece by its id{'' if unseen else ' (no side ever had an unseen piece)'}; if every "
        "side sees every piece, list it in EVERY_PIECE_SEEN"
    )
