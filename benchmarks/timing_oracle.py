"""Does a ruling's time tell the other side's secrets? (issue 24, finding 3; TRUST.md §3.7)

    .venv/bin/python benchmarks/timing_oracle.py [--samples 25] [--budget 30] [--only NAME]
        [--clock cpu|wall]

Rules the same public command in two worlds that differ only in the other side's secrets,
sample after sample (the worlds alternate, each sample a fresh game; the garbage collector
is run before each and held off while it is timed; by default the time is this thread's
processor time, which other work on a busy machine does not swell), and prints per world
the median and the 90th percentile of the ruling's time, the medians' ratio and the
separation: the chance that a sample of world B took longer than one of world A (the area
under the ROC curve of a threshold on the time; 0.50 is no separation at all, 1.00 or 0.00
every pair told apart; with 25 samples a world, chance alone strays about ±0.08 from 0.50).

Worlds, for each ruleset with reactions or standing orders:

* ambush-fire (the bundled map scenario): the Soviets move the lead T-34 — an ordinary
  move of two waypoints, and the red team's zig-zag of 40 (as long as a path may now be,
  once round the ground's edge) — against the Germans' standing orders: none or eight that
  never fire; eight of the mover's class or of another; eight whose unit moved unseen this
  turn (so they may not fire) or whose unit did not; eight zones of every shape or eight
  distances. Then the worst single command found at the bounds ghillie sets (terrain of
  1,000 points, a 12-unit column of 80 waypoints meeting almost 200 of its edges, seen or
  concealed, eight orders with 20-point streets).
* camouflage (the bundled table scenario): PanOceania answers the AROs of a marker's
  order with none, or declares a Discover at it; in one world that marker is the Caliban,
  in the other the Zondbot.

Run it on main's code and on a branch's to compare (``PYTHONPATH=<worktree>/src``). A main
without the bounds refuses nothing here, so the last section means nothing there.
"""

from __future__ import annotations

import argparse
import copy
import gc
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from ghillie import Game, Refusal, examples

Setup = Callable[[int], Game]
Command = tuple[str, dict[str, Any]]


# --- statistics ------------------------------------------------------------------------------


def separation(a: list[float], b: list[float]) -> float:
    """The chance that a sample of ``b`` exceeds one of ``a`` (ties count half)."""
    wins = sum((y > x) + 0.5 * (y == x) for x in a for y in b)
    return wins / (len(a) * len(b))


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]


CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def timed(game: Game, command: Command) -> float:
    """Milliseconds the command took to rule (a refusal counts as ruled)."""
    gc.collect()
    gc.disable()
    start = clock()
    try:
        game.command(*command)
    except Refusal:
        pass
    finally:
        took = clock() - start
        gc.enable()
    return took * 1e3


def compare(
    name: str, one: Setup, other: Setup, command: Command, samples: int, budget: float
) -> None:
    """Time ``command`` in worlds made by ``one`` and ``other``, alternating, and print."""
    a: list[float] = []
    b: list[float] = []
    started = time.perf_counter()
    for i in range(samples):
        for setup, out in ((one, a), (other, b)) if i % 2 == 0 else ((other, b), (one, a)):
            out.append(timed(setup(i), command))
        if time.perf_counter() - started > budget and len(a) >= 5:
            break  # a slow world (main's zig-zag): fewer samples, said below
    ma, mb = statistics.median(a), statistics.median(b)
    print(
        f"  {name:44} A {ma:8.2f} ms (p90 {p90(a):8.2f})  B {mb:8.2f} ms (p90 {p90(b):8.2f})"
        f"  B/A {mb / ma:5.2f}  separation {separation(a, b):.2f}  n={len(a)}"
    )


# --- ambush-fire -----------------------------------------------------------------------------

GERMANS, SOVIETS = "germans", "soviets"
AMBUSH = examples.data("ambush-fire")  # map mode, 25 m to the inch: places in inches
HIDDEN = {"pak": [20.8, 12], "grenadiers": [50, 36], "pioneers": [46.4, 10]}
# The T-34 starts at (65.6, 24); nothing the Germans hold ever reaches it on these paths.
ORDINARY = [[60, 24], [54, 25]]
# 40 waypoints, 5.9 inches (147.5 m) apart: 5.9 km, just within once round the ground's edge.
ZIGZAG = [[62.0 + 5.9 * (i % 2), 22.4 + 0.2 * (i % 5)] for i in range(40)]


def _order(unit: str, reaction: str, trigger: dict[str, Any]) -> dict[str, Any]:
    return {"unit": unit, "reaction": reaction, "trigger": trigger}


def _never(target: str | None = "vehicle", unit: str = "grenadiers") -> list[dict[str, Any]]:
    """Eight Ambush Fire orders of a few metres: they never fire at the T-34."""
    return [_order(unit, "ambush", {"within": 5 + i, "target_class": target}) for i in range(8)]


def _street(y: float) -> list[list[float]]:
    return [[2 + 0.5 * i, y + 0.2 * (i % 2)] for i in range(20)]


ZONES = [
    _order("pak", "challenge", {"zone": _street(44), "radius": 3}),
    _order("pak", "challenge", {"zone": [[3, 46]], "radius": 20}),
    _order("pak", "challenge", {"zone": [[3, 46], [4, 46]]}),
    _order("grenadiers", "ambush", {"zone": _street(45), "radius": 2}),
    _order("grenadiers", "ambush", {"zone": [[3, 47]], "within": 10}),
    _order("pioneers", "close_combat", {"zone": [[2, 47]], "radius": 5}),
    _order("pioneers", "close_combat", {}),
    _order("pak", "challenge", {"zone": _street(46)}),
]


def ambush_world(
    orders: list[dict[str, Any]],
    moved: str | None = None,
    scenario: dict[str, Any] = AMBUSH,
    soviets: list[dict[str, Any]] | None = None,
    hidden: dict[str, list[float]] = HIDDEN,
) -> Setup:
    def setup(seed: int) -> Game:
        game = Game.create(copy.deepcopy(scenario), seed=seed)
        getattr(game.scenario, "ground", None)  # the ground, made once a scenario, made now
        places = [{"unit": k, "at": at} for k, at in hidden.items()]
        game.command(GERMANS, {"type": "conceal", "units": places})
        written = [{**order, "chance": 50} for order in orders]
        game.command(GERMANS, {"type": "ready", "orders": written})
        scouts = {"unit": "scouts", "at": [68, 44]}
        game.command(SOVIETS, {"type": "conceal", "units": [scouts, *(soviets or [])]})
        game.command(SOVIETS, {"type": "ready"})
        if moved is not None:  # a concealed unit moves inside its cover, unseen
            step = {"pak": [21.2, 12.4], "pioneers": [46.8, 10.4]}[moved]
            game.command(GERMANS, {"type": "move", "units": [{"unit": moved, "path": [step]}]})
        game.command(GERMANS, {"type": "end_step"})
        return game

    return setup


def _move(path: list[list[float]], unit: str = "t34_1") -> Command:
    return (SOVIETS, {"type": "move", "units": [{"unit": unit, "path": path}]})


def ambush_fire(samples: int, budget: float) -> None:
    print("ambush-fire: the Soviets move; the Germans' standing orders differ (A | B)")
    pairs = {
        "no orders | 8 that never fire": (ambush_world([]), ambush_world(_never())),
        "8 of another class | of the mover's": (
            ambush_world(_never("infantry")),
            ambush_world(_never()),
        ),
        "8 whose unit moved unseen | did not": (
            ambush_world(_never(unit="pak"), moved="pak"),
            ambush_world(_never(unit="pak"), moved="pioneers"),
        ),
        "8 zones of every shape | 8 distances": (ambush_world(ZONES), ambush_world(_never())),
    }
    for path_name, path in (("ordinary", ORDINARY), ("zig-zag", ZIGZAG)):
        for name, (one, other) in pairs.items():
            compare(f"{path_name}: {name}", one, other, _move(path), samples, budget)


# --- ambush-fire: the close combats' reach over the ground (BMF-R15) ----------------------

# The grenadiers wait at the hedgerow's southern edge (1250, 975 m); the T-34 passes 35 m
# south of them, along y = 1010 m westward (their reach in the open: 50 m).
AT_THE_HEDGE = {**HIDDEN, "grenadiers": [50, 39]}
PAST_GRENADIERS = [[56, 40.4], [44, 40.4]]


def thicket_scenario(west: float) -> dict[str, Any]:
    """The bundled ground and a strip of woods 25 m deep between the hedgerow and the
    T-34's way, from ``west`` to 1500 m: from 1000 m, half a run of woods keeps every dash
    from the way; from 1245 m, the dash reaches only 49 m after the tank enters its disc;
    from 1300 m, where it enters."""
    data = copy.deepcopy(AMBUSH)
    outline = [[west, 980], [1500, 980], [1500, 1005], [west, 1005]]
    thicket = {"name": "the thicket", "kind": "woods", "outline": outline}
    data["terrain"] = [*data["terrain"], thicket]
    return data


def _close_combats(count: int) -> list[dict[str, Any]]:
    return [_order("grenadiers", "close_combat", {}) for _ in range(count)]


def ambush_reach(samples: int, budget: float) -> None:
    print("ambush-fire: the T-34 passes within the grenadiers' reach; they hold (A | B)")
    kept_out = thicket_scenario(1000)
    pairs = {
        "no orders | 8 close combats the woods keep out": (
            ambush_world([], scenario=kept_out, hidden=AT_THE_HEDGE),
            ambush_world(_close_combats(8), scenario=kept_out, hidden=AT_THE_HEDGE),
        ),
        "1 close combat striking at once | late": (
            ambush_world(_close_combats(1), scenario=thicket_scenario(1300), hidden=AT_THE_HEDGE),
            ambush_world(_close_combats(1), scenario=thicket_scenario(1245), hidden=AT_THE_HEDGE),
        ),
    }
    for name, (one, other) in pairs.items():
        compare(name, one, other, _move(PAST_GRENADIERS), samples, budget)


# --- ambush-fire at the bounds -----------------------------------------------------------

TEETH = 65  # a comb of 200 points, the most an area may have
COMB_WEST, COMB_EAST = 1100.0, 1700.0


def _comb(top: float) -> list[list[float]]:
    """A wood like a comb (metres): a path along it meets two edges a tooth, as many as an
    outline of 200 points can give, every 9 m."""
    width = (COMB_EAST - COMB_WEST) / (2 * TEETH)
    points = [[COMB_WEST, top]]
    for i in range(TEETH):
        x = COMB_WEST + 2 * width * i
        points += [[x, top + 140], [x + width, top + 140], [x + width, top + 5]]
    return [*points, [COMB_EAST, top + 5], [COMB_EAST, top]]


def _start(unit: int) -> list[float]:
    """Where T-34 (unit) stands (metres): east of the combs, level with one of them."""
    return [1750.0, 60 + 220 * ((unit - 1) % 5) + 70 + 15 * ((unit - 1) // 5)]


def bounds_scenario(concealed: bool = False) -> dict[str, Any]:
    """The bundled ground, its terrain five combs of 200 points (1,000 in all, the most
    there may be), and twelve T-34s in the Soviet column (``concealed``: they begin
    concealed, and every stretch of theirs in the open is told to everyone, BMF S2)."""
    data = copy.deepcopy(AMBUSH)
    data["terrain"] = [
        {"name": f"comb {k}", "kind": "woods", "outline": _comb(60 + 220 * k), "conceals": True}
        for k in range(5)
    ]
    tank = next(u for u in data["units"] if u["key"] == "t34_1")
    others = [u for u in data["units"] if u["side"] != "soviets" or u["key"] == "scouts"]
    column = [
        {**tank, "key": f"t34_{i}", "name": f"T-34 ({i})", "at": _start(i)} for i in range(1, 13)
    ]
    if concealed:
        column = [{**{k: v for k, v in u.items() if k != "at"}, "concealed": True} for u in column]
    data["units"] = [*others, *column]
    return data


def _inches(points: list[list[float]]) -> list[list[float]]:
    return [[x / 25, y / 25] for x, y in points]


def _column_path(unit: int, waypoints: int, reach: float = 1550) -> list[list[float]]:
    """T-34 (1) goes along its comb (130 edges), T-34 (2) into its own as far as ``reach``
    and back (to 1550 m: 62 edges; 192 in all, within the 200 a move may meet); the rest
    of each path wiggles in the open."""
    x, y = _start(unit)
    strokes = {1: [[COMB_WEST - 10, y]], 2: [[reach, y], [x - 5, y + 10]]}.get(unit, [])
    end = strokes[-1][0] if strokes else x
    wiggle = [[end - 20 * (k % 2), y + 3 * k] for k in range(1, 1 + waypoints - len(strokes))]
    return _inches([*strokes, *wiggle])


def _column(reach: float = 1550) -> Command:
    """12 units, 80 waypoints in all, along the combs."""
    units = [
        {"unit": f"t34_{i}", "path": _column_path(i, 7 if i <= 8 else 6, reach)}
        for i in range(1, 13)
    ]
    return (SOVIETS, {"type": "move", "units": units})


def _strokes() -> Command:
    """12 units, 80 waypoints in all, in strokes of 90 m east of the combs: every order's
    reach is looked for along 80 stretches of 90 m (near the most there may be: a disc of
    the grenadiers' reach meets a stretch in 100 m at most)."""
    units = []
    for i in range(1, 13):
        y = _start(i)[1]
        path = [[1705 + 90 * (k % 2), y + 2 * k] for k in range(7 if i <= 8 else 6)]
        units.append({"unit": f"t34_{i}", "path": _inches(path)})
    return (SOVIETS, {"type": "move", "units": units})


def bounds(samples: int) -> None:
    print("ambush-fire at the bounds: the slowest commands found (ms: median, max)")
    hidden = [
        _order("pak", "challenge", {"zone": _street(44 + k % 3), "radius": 3}) for k in range(4)
    ] + [_order("grenadiers", "ambush", {"zone": _street(47), "radius": 2}) for _ in range(4)]
    world = ambush_world(hidden, scenario=bounds_scenario())
    places = [{"unit": f"t34_{i}", "at": _inches([_start(i)])[0]} for i in range(1, 13)]
    unseen = ambush_world(hidden, scenario=bounds_scenario(concealed=True), soviets=places)
    cases: dict[str, tuple[Setup, Command]] = {
        "a 12-unit column, 80 waypoints, 192 edges": (world, _column()),
        "the same, concealed: its stretches in the open told": (unseen, _column()),
        "the same, 390 edges: refused": (world, _column(reach=COMB_WEST - 10)),
        "8 close combats; the column in 90 m strokes": (
            ambush_world(_close_combats(8), scenario=bounds_scenario()),
            _strokes(),
        ),
        "the fire phase's opening, 8 orders x 12 units": (
            _after(world, _column()),
            (SOVIETS, {"type": "end_step"}),
        ),
    }
    for name, (setup, command) in cases.items():
        times = [timed(setup(i), command) for i in range(samples)]
        game = setup(0)
        try:
            game.command(*command)
            answer = "ruled"
        except Refusal as refused:
            answer = f"refused: {refused.code}"
        print(f"  {name:50} {statistics.median(times):8.2f} {max(times):8.2f}   {answer}")


def _after(setup: Setup, command: Command) -> Setup:
    def then(seed: int) -> Game:
        game = setup(seed)
        game.command(*command)
        return game

    return then


# --- camouflage ------------------------------------------------------------------------------


def camouflage_world(first: str, panoceania_turn: bool = False) -> Setup:
    """The Nomads lay out their markers, ``first`` under Marker 1; its marker moves (or,
    ``panoceania_turn``, the Nomads end their turn at once)."""
    data = examples.data("camouflage-table")
    rest = [k for k in ("caliban", "zondbot") if k != first]

    def setup(seed: int) -> Game:
        game = Game.create(copy.deepcopy(data), seed=seed)
        markers = [{"piece": k, "note": "by the door"} for k in (first, *rest, "mine")]
        game.command("nomads", {"type": "deploy", "markers": markers})
        game.command("panoceania", {"type": "deploy", "markers": [{"piece": "croc_man"}]})
        if panoceania_turn:
            game.command("nomads", {"type": "end_turn"})
        else:
            skill = {"type": "first_skill", "piece": first, "skill": {"skill": "move"}}
            game.command("nomads", skill)
        return game

    return setup


def camouflage(samples: int, budget: float) -> None:
    print("camouflage: PanOceania's public orders; under Marker 1 is (A | B)")
    compare(
        "no ARO to its move: the Caliban | the Zondbot",
        camouflage_world("caliban"),
        camouflage_world("zondbot"),
        ("panoceania", {"type": "aros", "aros": []}),
        samples,
        budget,
    )
    discover = {
        "type": "first_skill",
        "piece": "fusilier_2",
        "skill": {"skill": "discover", "target": "M1", "measured": {"range": 14}},
    }
    compare(
        "a Discover declared at it: the Caliban | the Zondbot",
        camouflage_world("caliban", panoceania_turn=True),
        camouflage_world("zondbot", panoceania_turn=True),
        ("panoceania", discover),
        samples,
        budget,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=25)
    parser.add_argument("--budget", type=float, default=30.0, help="seconds a comparison")
    parser.add_argument("--only", choices=("ambush-fire", "reach", "bounds", "camouflage"))
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="cpu",
        help="cpu: this thread's processor time (steady on a busy machine); wall: what a "
        "client would see on an idle server",
    )
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    print(f"clock: {args.clock}; samples a world: up to {args.samples}")
    if args.only in (None, "ambush-fire"):
        ambush_fire(args.samples, args.budget)
    if args.only in (None, "reach"):
        ambush_reach(args.samples, args.budget)
    if args.only in (None, "camouflage"):
        camouflage(args.samples, args.budget)
    if args.only in (None, "bounds"):
        bounds(max(5, args.samples // 5))


if __name__ == "__main__":
    main()
