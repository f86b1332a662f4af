"""The work a move costs says nothing of the other side's standing orders (issue 24, finding
3; TRUST.md §3.7 "Time is a channel"; RULES-SPEC BMF-R01, R07, R08, R14, R15, A04, A17).

A ruling whose duration depends on the other side's secrets tells them to whoever times it:
ghillie walked a mover's path metre by metre for each order that could fire, and skipped the
others, so a 40-waypoint zig-zag took 12 ms in one world and 551 ms in the other. No test
here times anything (the machine is shared and noisy: ``benchmarks/timing_oracle.py`` does,
and prints the figures). Instead each test counts, call by call, the work the triggers'
geometry does for the same public command in two worlds that differ only in the Germans'
secrets, and asks for the same count: every function called in or from ``triggers.py`` and
``geometry/``, and the shape of every batch of capsules met."""

from __future__ import annotations

import gc
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from ghillie import Game
from ghillie.rules.ambush_fire import geometry, reach, triggers

from .test_scenario import SCENARIO

GERMANS, SOVIETS = "germans", "soviets"
WATCHED = (
    str(Path(triggers.__file__)),
    str(Path(reach.__file__)),
    str(Path(geometry.__file__).parent),
)

# The T-34 zig-zags over the open ground east of the marsh: 40 waypoints, the red team's
# move, as long as a path may be (once round the ground's edge, 7 km); and an ordinary
# move of two waypoints.
ZIGZAG = [[1700 + 170 * (i % 2), 620 + 20 * (i % 7)] for i in range(40)]
ORDINARY = [[1500, 700], [1200, 650]]
# North of the wood, then into it 40 m east of the grenadiers (350, 200): inside their reach
# on open ground (50 m), but 40 m of woods is 0.8 of their run (BMF-R15), so never reached.
INTO_THE_WOOD = [[1800, 80], [390, 80], [390, 350]]


def _within(reach: float, target: str | None = "vehicle") -> dict[str, Any]:
    return {"within": reach, "target_class": target}


STREET = {"zone": [[50 + 10 * i, 1400 - 5 * (i % 2)] for i in range(20)], "radius": 3}
# The Germans' standing orders in each world: none, or eight that never fire.
WORLDS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "none": [],
    # The old worst case: orders of the mover's class, walked all the way.
    "vehicles": [("pak", "ambush", _within(5 + i)) for i in range(8)],
    # Orders of another class: skipped at once before.
    "infantry": [("pak", "ambush", _within(5 + i, "infantry")) for i in range(8)],
    # Every kind of trigger: zones of every shape far away, distances, no class.
    "mixed": [
        ("pak", "challenge", STREET),
        ("pak", "challenge", {"zone": [[60, 1450]], "radius": 20}),
        ("pak", "challenge", {"zone": [[60, 1450], [90, 1450]]}),
        ("pak", "ambush", {"zone": [[60, 1450]], "within": 10}),
        ("grenadiers", "close_combat", {}),
        ("grenadiers", "close_combat", {"zone": [[60, 1400]], "radius": 5}),
        ("grenadiers", "ambush", _within(30, None)),
        ("pak", "ambush", STREET),
    ],
    # Close combats whose reach the move crosses, the woods keeping every dash from it.
    "kept out": [("grenadiers", "close_combat", {}) for _ in range(8)],
}


def world(orders: list[tuple[str, str, dict[str, Any]]], moved: str | None = None) -> Game:
    """The Germans set up (the PaK and the grenadiers in the wood) with ``orders``; if
    ``moved``, that concealed unit moves inside the wood in turn 1 (and so may not fire this
    turn: BMF-R02, R07, R14); then it is the Soviets' move."""
    game = Game.create(SCENARIO, seed=5)
    game.command(
        GERMANS,
        {
            "type": "conceal",
            "units": [{"unit": "pak", "at": [300, 150]}, {"unit": "grenadiers", "at": [350, 200]}],
        },
    )
    written = [
        {"unit": unit, "reaction": reaction, "chance": 50, "trigger": trigger}
        for unit, reaction, trigger in orders
    ]
    game.command(GERMANS, {"type": "ready", "orders": written})
    game.command(SOVIETS, {"type": "ready"})
    if moved is not None:
        game.command(GERMANS, {"type": "move", "units": [{"unit": moved, "path": [[380, 300]]}]})
    game.command(GERMANS, {"type": "end_step"})
    return game


@contextmanager
def counted() -> Iterator[Counter[str]]:
    """Every call made in or from the triggers' geometry while the block runs, by name, and
    the shape of every batch of capsules met."""
    calls: Counter[str] = Counter()

    def watched(frame: FrameType | None) -> bool:
        return frame is not None and frame.f_code.co_filename.startswith(WATCHED)

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and (watched(frame) or watched(frame.f_back)):
            calls[frame.f_code.co_qualname] += 1
        elif event == "c_call" and watched(frame):
            calls[getattr(arg, "__qualname__", repr(arg))] += 1

    meet = getattr(geometry, "capsules", None)
    original = getattr(meet, "meet", None)

    def recorded(segments: Any, capsules: Any) -> Any:
        calls[f"meet {len(segments)}x{len(capsules)}"] += 1
        return original(segments, capsules)  # type: ignore[misc]

    if original is not None:
        meet.meet = recorded  # type: ignore[union-attr]
    gc.collect()  # a collection's callbacks are no work of the rules'
    gc.disable()
    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(None)
        gc.enable()
        if original is not None:
            meet.meet = original  # type: ignore[union-attr]


def work(game: Game, side: str, command: dict[str, Any]) -> Counter[str]:
    with counted() as calls:
        game.command(side, command)
    assert calls, "the move worked nothing out"
    return calls


def _move(path: list[list[float]]) -> dict[str, Any]:
    return {"type": "move", "units": [{"unit": "t34_1", "path": path}]}


@pytest.mark.spec("BMF-R08")
@pytest.mark.spec("BMF-R01")
@pytest.mark.parametrize("path", [ZIGZAG, ORDINARY], ids=["zigzag", "ordinary"])
@pytest.mark.parametrize("other", ["vehicles", "infantry", "mixed"])
def test_a_move_costs_the_same_work_whatever_orders_the_enemy_holds(
    path: list[list[float]], other: str
) -> None:
    """The same Soviet move, against no standing orders and against eight that never fire
    (of the mover's class, of another class, of every kind of trigger): the same work."""
    base, changed = world(WORLDS["none"]), world(WORLDS[other])
    assert work(base, SOVIETS, _move(path)) == work(changed, SOVIETS, _move(path))
    assert base.state.window is None  # nothing fired
    assert changed.state.window is None


@pytest.mark.spec("BMF-R02")
@pytest.mark.spec("BMF-R07")
@pytest.mark.spec("BMF-R14")
@pytest.mark.parametrize("path", [ZIGZAG, ORDINARY], ids=["zigzag", "ordinary"])
def test_a_move_costs_the_same_work_whether_the_ordered_unit_moved_unseen(
    path: list[list[float]],
) -> None:
    """The PaK holds the orders. In one world it moved unseen this turn, so its orders may
    not fire (BMF-R02, R07); in the other the grenadiers moved instead. The Soviets' move
    costs the same work, so its time does not tell them which unit moved."""
    orders = WORLDS["vehicles"]
    barred, free = world(orders, moved="pak"), world(orders, moved="grenadiers")
    assert work(barred, SOVIETS, _move(path)) == work(free, SOVIETS, _move(path))


@pytest.mark.spec("BMF-A17")
@pytest.mark.spec("BMF-R15")
def test_the_fire_phase_opening_costs_the_same_work_whatever_orders_wait() -> None:
    """BMF-A17: at the start of the fire phase every Ambush Fire and Close Combat order is
    looked at; the Soviets' end of their step costs the same work with eight orders waiting
    as with none."""
    base, changed = world(WORLDS["none"]), world(WORLDS["mixed"])
    for game in (base, changed):
        game.command(SOVIETS, _move(ORDINARY))
    assert work(base, SOVIETS, {"type": "end_step"}) == work(changed, SOVIETS, {"type": "end_step"})


@pytest.mark.spec("BMF-R15")
@pytest.mark.spec("BMF-T08")
def test_a_move_costs_the_same_work_whether_close_combats_it_passes_cannot_reach_it() -> None:
    """The T-34 goes into the wood 40 m from the grenadiers, within their reach on open
    ground. With eight close combats waiting, whose dashes the woods keep from every point
    of the move (so none is made), the move costs the same work as with none: where a dash
    first reaches is looked for along every move for every order alike."""
    base, changed = world(WORLDS["none"]), world(WORLDS["kept out"])
    move = _move(INTO_THE_WOOD)
    assert work(base, SOVIETS, move) == work(changed, SOVIETS, move)
    for game in (base, changed):
        assert game.state.window is None  # nothing fired
        places = [p.public.get("at") for p in game.state.pieces.values()]
        assert [390, 350] in places  # the T-34 went all the way
