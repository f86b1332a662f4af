"""Red team, issue 24 (finding 10, "a count is a secret too"): what the other side is told
of secret set-up must not count it.

Every ruleset but one takes a side's secret set-up in one command whatever it holds —
suspicious-places' ``hide`` (every hiding), camouflage's and ambush-fields' ``deploy``
(every marker, every ship), grid-ambush's ``record_ambushes`` (every order) — so the other
side sees one event, one "gave an order", whatever is in it (the two-worlds suite,
tests/contract, compares such worlds).

Found (medium), and fixed: ambush-fire's standing orders were one command each
(``standing_order``), each its own event, each told to the Soviets as "Germans gave an
order.": the Soviets counted the Germans' standing orders before the first move. They now
come in the Germans' one ``ready`` (none to eight), so the Soviets see one event whatever it
holds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from ghillie import Game
from tests.contract.harness import comparable

from ..rules.ambush_fire.test_challenge import GAP, SECOND_TANK
from ..rules.ambush_fire.test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"


def _set_up(orders: int) -> Game:
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}, seed=3)
    hidden = [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}]
    game.command(GERMANS, {"type": "conceal", "units": hidden})
    written: list[dict[str, Any]] = [
        {
            "unit": "pak" if i % 2 == 0 else "grenadiers",
            "reaction": "challenge" if i % 2 == 0 else "ambush",
            "trigger": GAP if i % 2 == 0 else {"within": 100 + i},
            "chance": 60,
        }
        for i in range(orders)
    ]
    game.command(GERMANS, {"type": "ready", "orders": written})
    game.command(SOVIETS, {"type": "ready"})
    return game


@pytest.mark.parametrize("other", [0, 3])
def test_how_many_standing_orders_the_germans_gave_is_not_told(other: int) -> None:
    one = json.dumps(comparable(_set_up(1).view(SOVIETS)), sort_keys=True)
    assert one == json.dumps(comparable(_set_up(other).view(SOVIETS)), sort_keys=True)
