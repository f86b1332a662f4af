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

# An opening carries every leaf of its root (32 bytes each): this keeps one under 64 KiB
# (128 KiB for a fact that never changes: it carries its write event's leaves too).
MAX_FACTS = 2048
# Every game's roster has at least this many slots, and a power of two: the size is public,
# and the exact bound would tell the other side how many hidden pieces there are (11 facts
# a ship and 5 a field in ambush-fields: 60 or 65 slots told one field from two, BSG-A06).
# Every bundled scenario fits in 128; a larger one tells only which power of two it needs.
MIN_FACTS = 128


def roster_size(scenario: Scenario) -> int:
    """The number of slots in every side's roster for a game of ``scenario``: the ruleset's
    bound rounded up to a power of two, and never below MIN_FACTS."""
    bound = registry.get(scenario.ruleset).secret_facts(scenario)
    size = MIN_FACTS
    while size < bound:
        size *= 2
    return size


def check_capacity(scenario: Scenario) -> None:
    """Refuse a scenario that hides more than a roster can hold, naming the numbers."""
    bound = registry.get(scenario.ruleset).secret_facts(scenario)
    if bound > MAX_FACTS:
        raise ScenarioError(
            f"this scenario lets one side hide up to {bound} secret facts; ghillie can keep "
            f"at most {MAX_FACTS} for each side (use fewer pieces on a side)"
        )


def fixed_secrets(scenario: Scenario) -> frozenset[str]:
    """The secret keys that never change once written in a game of ``scenario`` (the
    ruleset's ``fixed_secrets``): their openings prove the event that wrote them."""
    return registry.get(scenario.ruleset).fixed_secrets
