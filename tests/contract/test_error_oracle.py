"""The error oracle (TRUST.md S3): naming a piece one cannot see is answered exactly like
naming one that does not exist — same code, same detail, same field, same length, and the
same odds (with the same refusal) while the form is being filled in.

Random games are played; at every step each command a side could give that names a piece
is tried twice more, once with the id of a piece that side cannot see and once with an id
that names nothing. The two answers must be identical.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from typing import Any

import pytest

from ghillie import Game, Refusal, examples, load_scenario
from ghillie.scenario import Scenario
from ghillie.server.odds import odds_for

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


@pytest.mark.parametrize(("name", "scenario"), _scenarios(), ids=[n for n, _ in _scenarios()])
def test_an_unseen_piece_is_answered_like_no_piece(name: str, scenario: Scenario) -> None:
    compared = 0
    probed: Counter[str] = Counter()  # pairs compared, by command type
    for seed in range(6):
        game = Game.create(scenario, seed=seed)
        ruleset = game.state.ruleset
        rng = random.Random(seed)
        for _ in range(80):
            for side in game.state.sides:
                unseen = unseen_piece_ids(game, side)
                for command in ruleset.candidates(game.state, side):
                    named = [v for v in strings(command) if v in game.state.pieces]
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
    STATS["error-oracle pairs compared"] += compared
    if "private roster" in name:
        assert compared, "the private-roster games never had an unseen piece to probe"
    if scenario.ruleset == "ambush-fields":
        # Hidden ships stay hidden for turns, and the candidates name own ships by id now
        # and then: the own-ship, fire, identify and EW paths are all probed.
        assert compared >= 100, f"only {compared} ambush-fields pairs were compared"
        expected = {"plot", "scan", "fire", "identify", "assign_ew"}
        assert expected <= set(probed), f"never probed: {sorted(expected - set(probed))}"
