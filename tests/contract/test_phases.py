"""A command's declared phases and its refusals agree.

A command declares the phases it may be given in (``Command.phases``), and the forms offer
it to a side only where the turn structure also lets that side give it. If a ruleset
declares a phase in which its turn structure refuses the command every time, a page shows
an order no one can give, and the API documents one that always answers ``not_your_turn``
(``standing_order`` once declared play and was refused in every play state).

This walks seeded games of every bundled scenario, each side giving commands drawn from
what it could sensibly give (``Ruleset.candidates``), and records in which phases each
command was ever open to some side. Every declared phase must have been one; and a command
offered outside its declared phases is a contradiction the engine would refuse.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from ghillie import registry
from ghillie.engine import allowed_commands
from ghillie.state import Phase

from .harness import SCENARIOS, seeded_walk

SEEDS = range(6)
STEPS = 160


def _open_phases(scenario: str) -> dict[str, set[Phase]]:
    """For each command of ``scenario``'s ruleset, the phases in which some side could give
    it at some point of the seeded games."""
    seen: dict[str, set[Phase]] = defaultdict(set)
    for seed in SEEDS:
        for game, _, _ in seeded_walk(scenario, seed, STEPS):
            for side in game.state.sides:
                for name in allowed_commands(game.state, side):
                    seen[name].add(game.state.phase)
    return seen


@pytest.mark.parametrize("ruleset_id", sorted(set(SCENARIOS.values())))
def test_every_phase_a_command_declares_is_one_it_can_be_given_in(ruleset_id: str) -> None:
    ruleset = registry.get(ruleset_id)
    seen: dict[str, set[Phase]] = defaultdict(set)
    for scenario in sorted(s for s, r in SCENARIOS.items() if r == ruleset_id):
        for name, phases in _open_phases(scenario).items():
            seen[name] |= phases
    never = sorted(
        f"{name} in {phase.value}"
        for name, model in ruleset.commands.items()
        for phase in model.phases
        if phase is not Phase.OVER and phase not in seen.get(name, set())
    )
    assert not never, f"declared but never open to any side: {never}"
    for name, phases in seen.items():
        assert phases <= ruleset.commands[name].phases, name
