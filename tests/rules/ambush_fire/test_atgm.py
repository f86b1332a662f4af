"""An ATGM in ambush: under 1250 m its missile hits at once, with the hit still rolled or
sure (``bmf.atgm_ambush_autohit``); at exactly 1250 m the ambush is legal but the missile
flies — the target's move goes on and the missile arrives when it ends; beyond, no Ambush
Fire; the launcher is shown at the launch or at the arrival (``bmf.atgm_reveal_at``)
(RULES-SPEC BMF-R10, A09, A10, A23, BMF-T06)."""

from __future__ import annotations

from typing import Any

import pytest

from ghillie import Game
from ghillie.state import Level

from .test_challenge import SECOND_TANK, column_move, pid, said
from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
ATGM = {
    "key": "atgm",
    "side": "germans",
    "name": "ATGM team",
    "class": "atgm",
    "diet": "omnivore",
    "concealed": True,
}
# The T-34 drives west along y = 700 and meets the gap at (1700, 700).
GAP = {"zone": [[1700, 600], [1700, 800]]}
AT_1000 = [1100, 1500]
AT_1250 = [450, 700]
AT_1300 = [400, 700]
DRIVE = {"type": "move", "units": [{"unit": "t34_1", "path": [[900, 700]]}]}


def _laid(game: Game, at: list[float], *others: dict[str, Any]) -> None:
    """The Germans' units concealed, the ATGM at ``at`` with its Ambush Fire order at the gap
    (and ``others``), and the Germans ready."""
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [
                {"unit": "pak", "at": [1000, 300]},
                {"unit": "grenadiers", "at": [1900, 100]},
                {"unit": "atgm", "at": at},
            ],
        },
    )
    order = {"unit": "atgm", "reaction": "ambush", "trigger": GAP, "chance": 70}
    game.command(GERMANS, {"type": "ready", "orders": [order, *others]})


def ready(at: list[float], seed: int = 1, **switches: Any) -> Game:
    game = Game.create(
        {**SCENARIO, "units": [*SCENARIO["units"], ATGM], "switches": switches}, seed=seed
    )
    _laid(game, at)
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    return game


def moved(game: Game) -> list[str]:
    seen = len(game.events())
    game.command(SOVIETS, DRIVE)
    return said(game, SOVIETS, seen)


@pytest.mark.spec("BMF-T06")
@pytest.mark.spec("BMF-R10")
def test_bmf_t06_at_1000_m_the_missile_hits_at_once_before_the_move_goes_on() -> None:
    game = ready(AT_1000)
    lines = moved(game)
    assert lines[0].startswith("Ambush Fire from hiding: ATGM team at T-34 (1)!")
    assert lines[1] in {
        "T-34 (1): destroyed (70% to hit).",
        "T-34 (1): missed (70% to hit).",
    }
    assert len(lines) == 2  # nothing in between, and the move has not gone on
    assert [r.label for r in game.events()[-1].rolls] == ["to hit"]  # BMF-A09: still rolled
    assert game.state.window is not None


@pytest.mark.spec("BMF-T06")
@pytest.mark.spec("BMF-A10")
def test_bmf_a10_at_exactly_1250_m_the_ambush_is_legal_but_the_missile_flies() -> None:
    game = ready(AT_1250)
    lines = moved(game)
    assert lines[0].startswith("Ambush Fire from hiding: ATGM team at T-34 (1)!")
    assert lines[1] == "Its missile is in flight: it reaches T-34 (1) when the move ends."
    assert game.events()[-1].rolls == ()  # not yet arrived
    window = game.state.window
    assert window is not None
    assert window.name == "return_fire"  # the target may reply while it flies
    seen = len(game.events())
    game.command(SOVIETS, {"type": "return_fire"})
    after = said(game, SOVIETS, seen)
    assert after[0] == "T-34 (1): moved to 900, 700."  # the move went on first
    assert after[1] == "The missile of ATGM team arrives at T-34 (1)."
    assert after[2] in {
        "T-34 (1): destroyed (70% to hit).",
        "T-34 (1): missed (70% to hit).",
    }
    # The return fire was asked at the launch: now only the retreat is left.
    assert game.state.window is not None
    assert game.state.window.name == "retreat"


@pytest.mark.spec("BMF-T06")
@pytest.mark.spec("BMF-R08")
def test_bmf_t06_at_1300_m_there_is_no_ambush_fire() -> None:
    game = ready(AT_1300)
    assert moved(game) == ["T-34 (1): moved to 900, 700."]
    assert game.state.window is None


@pytest.mark.spec("BMF-A09")
def test_bmf_a09_with_autohit_the_missile_under_1250_m_always_hits() -> None:
    game = ready(AT_1000, **{"bmf.atgm_ambush_autohit": True})
    tank = pid(game, "t34_1")
    lines = moved(game)
    assert lines[1] == "The missile of ATGM team hits T-34 (1) at once: it is destroyed."
    assert game.events()[-1].rolls == ()
    assert tank not in game.state.pieces
    assert game.state.window is not None
    assert game.state.window.name == "retreat"  # no target left to return fire


@pytest.mark.spec("BMF-A09")
def test_bmf_a09_without_autohit_the_hit_is_rolled_and_can_miss() -> None:
    outcomes = set()
    for seed in range(20):
        game = ready(AT_1000, seed=seed)
        outcomes.add(moved(game)[1])
    assert outcomes == {
        "T-34 (1): destroyed (70% to hit).",
        "T-34 (1): missed (70% to hit).",
    }


@pytest.mark.spec("BMF-A09")
def test_bmf_a09_autohit_does_not_reach_a_missile_that_flies() -> None:
    game = ready(AT_1250, **{"bmf.atgm_ambush_autohit": True})
    moved(game)
    game.command(SOVIETS, {"type": "return_fire"})
    assert [r.label for r in game.events()[-1].rolls] == ["to hit"]


@pytest.mark.spec("BMF-A23")
def test_bmf_a23_at_launch_the_launcher_is_shown_while_its_missile_flies() -> None:
    game = ready(AT_1250)
    moved(game)
    assert game.state.known(SOVIETS, pid(game, "atgm")).level is Level.IDENTIFIED


@pytest.mark.spec("BMF-A23")
def test_bmf_a23_at_arrival_nothing_is_shown_until_the_missile_arrives() -> None:
    game = ready(AT_1250, **{"bmf.atgm_reveal_at": "arrival"})
    tank = pid(game, "t34_1")
    lines = moved(game)
    # The move goes on to its end unseen; then the launcher is shown, and the missile hits.
    assert lines[0] == "T-34 (1): moved to 900, 700."
    assert lines[1].startswith("Ambush Fire from hiding: ATGM team at T-34 (1)!")
    assert lines[2] in {
        "T-34 (1): destroyed (70% to hit).",
        "T-34 (1): missed (70% to hit).",
    }
    assert game.state.known(SOVIETS, pid(game, "atgm")).level is Level.IDENTIFIED
    window = game.state.window
    assert window is not None
    if tank in game.state.pieces:
        assert window.name == "return_fire"  # asked now, after the casualties (R11, R12)
    else:
        assert window.name == "retreat"


@pytest.mark.spec("BMF-A23")
def test_bmf_a23_a_launcher_destroyed_by_the_reply_loses_its_missile() -> None:
    for seed in range(30):
        game = ready(AT_1250, seed=seed)
        moved(game)
        seen = len(game.events())
        game.command(SOVIETS, {"type": "return_fire", "fire": True, "chance": 100})  # 90%
        lines = said(game, SOVIETS, seen)
        if "the ambusher is destroyed" not in lines[0]:
            continue
        assert lines[1:] == ["Its missile is lost.", "T-34 (1): moved to 900, 700."]
        assert pid(game, "t34_1") in game.state.pieces
        assert game.state.window is None
        return
    pytest.fail("no seed let the reply destroy the launcher at 90%")


def _crossfire(seed: int) -> Game:
    """The ATGM's missile flies (1250 m) at the lead tank of a column that the PaK then
    challenges at the dragons' teeth further on."""
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK, ATGM]}, seed=seed)
    teeth = {"zone": [[1000, 600], [1000, 800]], "target_class": "vehicle"}
    order = {"unit": "pak", "reaction": "challenge", "trigger": teeth, "chance": 60}
    _laid(game, AT_1250, order)
    game.command(SOVIETS, {"type": "ready"})
    game.command(GERMANS, {"type": "end_step"})
    game.command(SOVIETS, column_move())
    game.command(SOVIETS, {"type": "return_fire"})  # to the launch: the move goes on
    return game


@pytest.mark.spec("BMF-A10")
@pytest.mark.spec("BMF-R06")
def test_bmf_a10_a_missile_in_flight_arrives_when_a_column_stops() -> None:
    outcomes = set()
    for seed in range(40):
        game = _crossfire(seed)
        assert said(game, SOVIETS)[-1].startswith("Challenge Fire from PaK 40 at T-34 (1)")
        seen = len(game.events())
        game.command(SOVIETS, {"type": "return_fire"})
        lines = said(game, SOVIETS, seen)
        if lines[0] == "T-34 (1): destroyed by the Challenge Fire.":
            # The column stops, the move is over: the missile arrives, and finds no target.
            assert lines[1:] == [
                "The rest of the column stops.",
                "T-34 (2): moved to 1050, 700.",
                "The missile finds no target.",
            ]
            outcomes.add("stopped")
        else:
            # The column drives on to the end of its move; then the missile arrives.
            assert lines[1:3] == ["T-34 (1): moved to 900, 700.", "T-34 (2): moved to 950, 700."]
            assert lines[3] == "The missile of ATGM team arrives at T-34 (1)."
            assert lines[4].startswith("T-34 (1): ")
            outcomes.add("arrived")
        if len(outcomes) == 2:
            return
    pytest.fail(f"only {outcomes} in 40 seeds")


@pytest.mark.spec("BMF-A23")
@pytest.mark.spec("BMF-R12")
def test_bmf_a23_a_reply_to_a_launch_is_priced_at_10_less_while_it_is_given() -> None:
    """The page shows a reply's odds as it is given: a reply to a missile's launch is
    return fire at an ambusher (R12), 10 less (it used to have no price, and an error)."""
    from ghillie.rules.ambush_fire.commands import ReturnFire
    from ghillie.rules.ambush_fire.ruleset import AmbushFire

    game = ready(AT_1250)
    game.command(SOVIETS, DRIVE)
    assert game.state.board.pending is not None
    assert game.state.board.pending["kind"] == "launch"
    check = AmbushFire().odds(game.state, SOVIETS, ReturnFire(fire=True, chance=55))
    assert check is not None
    assert str(check.odds()["hit"]) == "9/20"
