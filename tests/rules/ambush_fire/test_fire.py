"""The fire phase, where the special fire rules reach into it (RULES-SPEC BMF-R05, R19,
A03, A22)."""

from __future__ import annotations

import pytest

from ghillie import Game, Refusal
from ghillie.state import Level

from .test_challenge import pid, ready, said
from .test_close_combat import WALL, lying_in_wait

GERMANS, SOVIETS = "germans", "soviets"


def to_fire_phase(game) -> None:  # type: ignore[no-untyped-def]
    if game.state.window is not None:
        game.command(SOVIETS, {"type": "return_fire"})
    game.command(SOVIETS, {"type": "end_step"})  # the Soviets' movement ends: fire phase


@pytest.mark.spec("BMF-R05")
@pytest.mark.spec("BMF-A03")
def test_bmf_r05_a03_a_unit_that_took_challenge_fire_may_not_fire_again_this_turn() -> None:
    game = ready()
    game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
    to_fire_phase(game)
    game.command(SOVIETS, {"type": "end_step"})  # the Soviets moved second: they fire first
    target = "t34_2"
    with pytest.raises(Refusal) as refused:
        game.command(GERMANS, {"type": "fire", "unit": "pak", "target": target, "chance": 60})
    assert refused.value.code == "may_not_fire"
    assert "until next turn" in refused.value.detail


@pytest.mark.spec("BMF-A22")
def test_bmf_a22_normal_fire_reveals_a_concealed_firer_to_the_side_it_fired_at() -> None:
    game = ready(order=None)
    game.command(SOVIETS, {"type": "end_step"})  # no move: the fire phase
    game.command(SOVIETS, {"type": "end_step"})
    pak = next(p.id for p in game.state.pieces.values() if p.public.get("key") == "pak")
    assert game.state.known(SOVIETS, pak).level is Level.UNKNOWN
    game.command(GERMANS, {"type": "fire", "unit": "pak", "target": "t34_1", "chance": 30})
    assert game.state.known(SOVIETS, pak).level is Level.IDENTIFIED
    assert said(game, SOVIETS)[-1].startswith("Fire from PaK 40 at T-34 (1) (30%): ")


@pytest.mark.spec("BMF-R19")
def test_bmf_r19_a_failed_attacker_left_in_the_open_is_fired_at_full_chance() -> None:
    game, ids = lying_in_wait([1100, 745], seed=2, terrain=[WALL])
    game.command(SOVIETS, {"type": "end_step"})  # the fire phase: the Soviets fire first
    game.command(
        SOVIETS, {"type": "fire", "unit": "t34_2", "target": ids["grenadiers"], "chance": 70}
    )
    # No 10% reduction: "the defender is not surprised".
    assert said(game, GERMANS)[-1].startswith("Fire from T-34 (2) at Grenadiers (70%): ")


def _returned_and_lived(consumes: bool) -> tuple[Game, str]:
    """A Challenge Fire answered, both the PaK and the lead T-34 still there: the fire
    phase, the Soviets (who moved second) to fire first."""
    for seed in range(60):
        game = ready(seed=seed, **{"bmf.return_fire_consumes": consumes})
        lead = pid(game, "t34_1")
        pak = pid(game, "pak")
        game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 55})
        if lead in game.state.pieces and pak in game.state.pieces:
            game.command(SOVIETS, {"type": "end_step"})  # the fire phase
            return game, pak
    pytest.fail("no seed left both standing")


@pytest.mark.spec("BMF-A12")
def test_bmf_a12_return_fire_is_free_by_default() -> None:
    game, pak = _returned_and_lived(consumes=False)
    game.command(SOVIETS, {"type": "fire", "unit": "t34_1", "target": pak, "chance": 40})
    assert said(game, GERMANS)[-1].startswith("Fire from T-34 (1) at PaK 40 (40%): ")


@pytest.mark.spec("BMF-A12")
def test_bmf_a12_with_return_fire_consumes_the_unit_that_fired_back_may_not_fire() -> None:
    game, pak = _returned_and_lived(consumes=True)
    with pytest.raises(Refusal) as refused:
        game.command(SOVIETS, {"type": "fire", "unit": "t34_1", "target": pak, "chance": 40})
    assert refused.value.code == "may_not_fire"
    assert refused.value.detail == (
        "That unit fired back this turn: it may not fire again until next turn."
    )
    # Another unit, which did not fire back, still may.
    game.command(SOVIETS, {"type": "fire", "unit": "t34_2", "target": pak, "chance": 40})


@pytest.mark.spec("BMF-A03")
def test_bmf_a03_the_challenge_bars_its_firer_not_its_target() -> None:
    for seed in range(60):
        game = ready(seed=seed)
        lead, pak = pid(game, "t34_1"), pid(game, "pak")
        game.command(SOVIETS, {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]})
        game.command(SOVIETS, {"type": "return_fire"})  # it does not fire back
        if lead not in game.state.pieces:
            continue
        game.command(SOVIETS, {"type": "end_step"})  # the fire phase: the Soviets first
        # The target of the Challenge Fire may fire in the fire phase...
        game.command(SOVIETS, {"type": "fire", "unit": "t34_1", "target": pak, "chance": 40})
        if pak not in game.state.pieces:
            return
        game.command(SOVIETS, {"type": "end_step"})
        # ... the firer may not.
        with pytest.raises(Refusal) as refused:
            game.command(GERMANS, {"type": "fire", "unit": "pak", "target": lead, "chance": 60})
        assert refused.value.code == "may_not_fire"
        return
    pytest.fail("no seed let the target survive the challenge")
