"""How many secret facts each side's roster holds: fixed from the scenario, before play.

A roster's size is public (every opening carries that many leaves), so it must not grow
with what a side hides during play: it comes from the scenario alone, through the
ruleset's bound on the secret facts one side can ever hold (``Ruleset.secret_facts``). A
scenario whose bound passes ``MAX_FACTS`` is refused when the game is created, with the
reason, instead of failing in play (issue 10: ~205 ships on one side used to overflow a
1,024-slot roster mid-game and leave a record that could never pass the audit).
"""

from __future__ import annotations

from ghillie import registry
from ghillie.errors import ScenarioError
from ghillie.scenario import Scenario

# An opening carries every leaf of its root (32 bytes each): this keeps one under 64 KiB.
MAX_FACTS = 2048
MIN_FACTS = 16  # so that a side with few secrets (or none) looks like any other


def roster_size(scenario: Scenario) -> int:
    """The number of slots in every side's roster for a game of ``scenario``."""
    bound = registry.get(scenario.ruleset).secret_facts(scenario)
    return max(MIN_FACTS, bound)


def check_capacity(scenario: Scenario) -> None:
    """Refuse a scenario that hides more than a roster can hold, naming the numbers."""
    bound = registry.get(scenario.ruleset).secret_facts(scenario)
    if bound > MAX_FACTS:
        raise ScenarioError(
            f"this scenario lets one side hide up to {bound} secret facts; ghillie can keep "
            f"at most {MAX_FACTS} for each side (use fewer pieces on a side)"
        )
