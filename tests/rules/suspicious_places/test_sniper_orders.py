"""A sniper's own orders go to snipers alone (issue 26, item 8; RULES-SPEC SW-R05, SW-R36,
SW-R37): an ordinary squad's or a lone figure's activation is offered neither the covert move
nor hiding again, and either one sent anyway is refused ``not_a_sniper``, in the same words
for every unit that is not a sniper."""

from __future__ import annotations

import pytest

from ghillie import Game, Refusal

from .helpers import KENO, QueuedDice, activate, map_data, setup_map

SNIPER_ORDERS = {"covert_move", "rehide"}


def _offered(game: Game, side: str) -> set[str]:
    return {c["type"] for c in game.view(side)["commands"]}


def _activated(key: str) -> Game:
    game = setup_map(map_data(), QueuedDice())
    activate(game, KENO, key)
    return game


@pytest.mark.spec("SW-R05", "SW-R36", "SW-R37")
@pytest.mark.parametrize("key", ["volk", "orlov"])  # a squad, a lone officer
def test_a_unit_that_is_not_a_sniper_is_offered_no_sniper_order(key: str) -> None:
    game = _activated(key)
    offered = _offered(game, KENO)
    assert {"move", "observe", "end_activation"} <= offered
    assert not offered & SNIPER_ORDERS


@pytest.mark.spec("SW-R36", "SW-R37")
def test_a_hidden_sniper_is_offered_the_covert_move_and_not_hiding_again() -> None:
    offered = _offered(_activated("yarov"), KENO)
    assert "covert_move" in offered
    assert "rehide" not in offered


@pytest.mark.spec("SW-R05", "SW-R36", "SW-R37")
@pytest.mark.parametrize(
    "order",
    [
        {"type": "covert_move"},
        {"type": "rehide", "passed_reaction_test": True, "markers": [[40, 8], [42, 8]]},
    ],
)
def test_a_sniper_order_sent_for_another_unit_is_refused_alike(order: dict[str, object]) -> None:
    said = set()
    for key in ("volk", "orlov"):
        game = _activated(key)
        seq = game.state.seq
        with pytest.raises(Refusal) as refused:
            game.command(KENO, dict(order))
        assert refused.value.code == "not_a_sniper"
        assert game.state.seq == seq  # nothing changed, no action spent
        said.add(str(refused.value.detail))
    assert said == {"Only a sniper makes a covert move or hides again."}
