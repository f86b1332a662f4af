"""The contract every registered ruleset keeps, checked over random legal games.

A hypothesis state machine plays each bundled scenario with commands drawn from what each
side could sensibly give (``Ruleset.candidates``) and from junk. Every secret a side records
carries a unique canary string. After every step:

- no canary of one side appears in anything another side or a spectator can receive;
- no side receives the id of a piece it neither owns nor knows of;
- a refused command left the state and the log exactly as they were;
- replaying the log gives the live state;
- no side holds more secret facts than the ruleset's bound for the scenario, which sizes
  every roster (``Ruleset.secret_facts``), and no command is refused for want of room;
- no fact the ruleset fixes once written (``Ruleset.fixed_secrets``) is written again: its
  openings prove the event that wrote it.
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ghillie import Game, Refusal, examples, registry
from ghillie.engine import replay
from ghillie.errors import SECRETS_FULL
from ghillie.fairness.ledger import writes

from .harness import (
    SCENARIOS,
    SECRET_TEXT_FIELDS,
    STATS,
    junk_commands,
    observers,
    received,
    unseen_piece_ids,
    with_canary,
)

_tokens = itertools.count()


class RandomGame(RuleBasedStateMachine):
    scenario: ClassVar[str]

    def __init__(self) -> None:
        super().__init__()
        self.game: Game
        self.canaries: dict[str, set[str]] = {}
        self.fixed: set[tuple[str, str]] = set()  # (piece, key) of every fixed fact written

    @initialize(seed=st.integers(0, 2**32 - 1))
    def create(self, seed: int) -> None:
        self.game = Game.create(examples.load(self.scenario), seed=seed)
        self.ruleset = self.game.state.ruleset
        self.canaries = {side: set() for side in self.game.state.sides}
        self._fixed_written_once(
            replay(self.game.state.ruleset, self.game.scenario, []), self.game.events()[0]
        )

    @rule(data=st.data())
    def a_side_gives_a_command(self, data: st.DataObject) -> None:
        side = data.draw(st.sampled_from(self.game.state.sides), label="side")
        candidates = self.ruleset.candidates(self.game.state, side)
        if not candidates:
            return
        command = data.draw(st.sampled_from(candidates), label="command")
        token = f"CANARY{next(_tokens):08d}{side.upper()}"
        command, secret = with_canary(command, token)
        if self._give(side, command) and secret:
            self.canaries[side].add(token)
            STATS["canaries recorded"] += 1

    @rule(data=st.data())
    def a_side_sends_junk(self, data: st.DataObject) -> None:
        side = data.draw(st.sampled_from(self.game.state.sides), label="side")
        command = data.draw(junk_commands(self.game.state.ruleset.id), label="junk")
        self._give(side, command)

    def _give(self, side: str, command: Any) -> bool:
        before, log = self.game.state, len(self.game.events())
        refusal = None
        try:
            self.game.command(side, command)
        except Refusal as refused_with:
            refusal = refused_with
        refused = refusal is not None
        assert refusal is None or refusal.code != SECRETS_FULL, "the bound on secrets is too low"
        if refused:
            assert self.game.state == before, "a refused command changed the state"
            assert len(self.game.events()) == log, "a refused command changed the log"
            STATS["refusals checked"] += 1
            return False
        STATS["commands accepted"] += 1
        self._fixed_written_once(before, self.game.events()[-1])
        return True

    def _fixed_written_once(self, before: Any, event: Any) -> None:
        fixed = self.ruleset.fixed_secrets
        for _, piece, key, _ in writes(before, event):
            if key in fixed:
                assert (piece, key) not in self.fixed, f"{key} of a piece written twice"
                self.fixed.add((piece, key))
                STATS["fixed facts written once"] += 1

    @invariant()
    def no_canary_reaches_another_side(self) -> None:
        if not hasattr(self, "ruleset"):
            return
        for observer in observers(self.game):
            text = received(self.game, observer)
            for owner, tokens in self.canaries.items():
                if owner == observer:
                    continue
                for token in tokens:
                    assert token not in text, f"{owner}'s secret reached {observer}"
        STATS["canary steps"] += 1

    @invariant()
    def no_side_receives_an_unseen_piece_id(self) -> None:
        if not hasattr(self, "ruleset"):
            return
        for side in self.game.state.sides:
            text = received(self.game, side)
            for piece_id in unseen_piece_ids(self.game, side):
                assert piece_id not in text, f"{side} received the id of a piece it cannot see"

    @invariant()
    def no_side_holds_more_secrets_than_the_bound(self) -> None:
        if not hasattr(self, "ruleset"):
            return
        bound = self.ruleset.secret_facts(self.game.scenario)
        for side, roster in self.game.ledger.rosters.items():
            assert len(roster.slots) <= bound, f"{side} holds more secrets than its bound"
            STATS["most secret facts held / bound, %"] = max(
                STATS["most secret facts held / bound, %"], 100 * len(roster.slots) // max(bound, 1)
            )

    @invariant()
    def replay_gives_the_live_state(self) -> None:
        if not hasattr(self, "ruleset"):
            return
        assert (
            replay(self.game.state.ruleset, self.game.scenario, self.game.events())
            == self.game.state
        )


def _machine(scenario: str) -> type[RandomGame]:
    return type(f"RandomGame_{scenario.replace('-', '_')}", (RandomGame,), {"scenario": scenario})


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_random_games_keep_the_contract(scenario: str) -> None:
    machine = _machine(scenario)
    machine.TestCase.settings = settings(
        max_examples=65,
        stateful_step_count=60,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    machine.TestCase().runTest()


def test_every_registered_ruleset_is_in_the_contract() -> None:
    assert set(SCENARIOS.values()) == set(registry.rulesets())


def test_canaries_are_recorded_where_their_owner_sees_them() -> None:
    """The canary check means something only if secrets really carry the canaries."""
    for scenario in sorted(SCENARIOS):
        game = Game.create(examples.load(scenario), seed=5)
        ruleset = game.state.ruleset
        recorded = 0
        for _ in range(40):
            for side in game.state.sides:
                options = ruleset.candidates(game.state, side)
                for command in options:
                    command, secret = with_canary(command, f"CANARY{side}")
                    if not secret:
                        continue
                    try:
                        game.command(side, command)
                    except Refusal:
                        continue
                    recorded += 1
                    assert f"CANARY{side}" in received(game, side)
                    break
                else:
                    # Nothing secret to record now (a phase without notes): move the game on.
                    playable = [c for c in options if c.get("type") != "end_game"]
                    if playable:
                        with contextlib.suppress(Refusal):
                            game.command(side, playable[0])
        assert recorded, (
            f"no secret with a note was recorded in {scenario}: the canary check needs "
            "Ruleset.candidates to offer a command that writes a secret free-text field "
            f"({', '.join(SECRET_TEXT_FIELDS)}), or nothing is searched for"
        )
