"""Commands a side could sensibly give now, from what it can see: the contract tests'
random games play ambush-fire with these.

They set up (concealed places and facings, then Ready with none, one, three or the most
standing orders a side may hold, each with a note: the two-worlds tests vary how many), move
units a few hundred metres toward the enemy's edge (a concealed unit by one of two routes,
so that the two-worlds tests have a secret to vary), turn units and turrets (concealed ones
one way or another, a secret too), answer every window (a live side's prompt with hold, or
each own unit's ambush and close combat at each enemy in view), fire at what is in view and
end each step. Places are inches from the table's top-left corner, as a player enters
them."""

from __future__ import annotations

from typing import Any

from ghillie.state import Facts, Phase, Piece

from .board import MAX_ORDERS, UNIT, Did, State, Step, did
from .scenario import AmbushFireScenario
from .setup import inches
from .units import history

XY = tuple[float, float]


def _entered(scenario: AmbushFireScenario, point: XY) -> list[float]:
    """A place in metres as the side enters it: inches from the table's corner."""
    return list(inches(scenario, point))


def _where(piece: Piece) -> XY | None:
    at = piece.public.get("at") or piece.secret.get("at")
    return None if at is None else (float(at[0]), float(at[1]))


def _toward_the_enemy(state: State, side: str) -> float:
    """Which way this side's units advance along x: toward the enemy's units' mean."""
    mine = [w[0] for p in state.owned(side, UNIT) if (w := _where(p))]
    theirs = [
        w[0]
        for p in state.pieces.values()
        if p.kind == UNIT and p.owner != side and (w := _where(p))
    ]
    if not mine or not theirs:
        return 1.0
    return 1.0 if sum(theirs) / len(theirs) >= sum(mine) / len(mine) else -1.0


def _destinations(scenario: AmbushFireScenario, start: XY, way: float, i: int) -> list[XY]:
    """Two passable places a few hundred metres on (the second for the other world)."""
    land = scenario.ground
    out: list[XY] = []
    for k in range(8):
        dx = way * (150 + 60 * ((i + k) % 5))
        dy = (-1) ** (i + k) * 40 * (k % 3)
        end = (
            min(max(start[0] + dx, 0.0), scenario.width),
            min(max(start[1] + dy, 0.0), scenario.depth),
        )
        if not land.crosses_impassable([start, end]) and end not in out:
            out.append(end)
        if len(out) == 2:
            break
    return out


def _setup(state: State, side: str) -> list[Facts]:
    scenario = state.scenario
    out: list[Facts] = []
    hidden = [p for p in state.owned(side, UNIT) if p.public.get("concealed")]
    if hidden and not any("at" in p.secret for p in hidden):
        # Two set-ups that differ only where the units wait, and one with no notes: the two
        # worlds may differ in where, and in how many secrets the side writes.
        for shift in (0.0, 1.0):
            rows = []
            for i, p in enumerate(hidden):
                x = scenario.width * (0.3 + 0.4 * ((i + shift) % 2)) + 37 * i
                y = scenario.depth * (0.2 + 0.15 * i) % scenario.depth
                at = _entered(scenario, (x, y))
                # Its facing too, as secret as its place: the other world's faces the other way.
                row = {"unit": p.id, "at": at, "facing": 45 + 180 * shift, "note": "by the gap"}
                if p.public.get("turret"):
                    row["turret"] = 90 + 180 * shift
                rows.append(row)
            out.append({"type": "conceal", "units": rows})
        out.append({"type": "conceal", "units": [{k: r[k] for k in ("unit", "at")} for r in rows]})
    orders = _orders(state, side)
    # Ready with more or fewer standing orders: the two worlds may differ in how many.
    for n in sorted({0, 1, 3, MAX_ORDERS}):
        out.append({"type": "ready", "orders": orders[:n]})
    return out


def _turns(state: State, side: str) -> list[Facts]:
    """Turn orders in the side's movement: its concealed units all one way or the other
    (their facing is a secret the two worlds may vary), and each unit in view a quarter
    turn, its turret too if it has one. (At set-up a concealed unit's facing comes with its
    place, in ``conceal``.)"""
    out: list[Facts] = []
    hidden = [p for p in state.owned(side, UNIT) if p.public.get("concealed")]
    if hidden:
        for way in (45, 225):
            out.append({"type": "turn", "units": [{"unit": p.id, "facing": way} for p in hidden]})
    for p in state.owned(side, UNIT):
        if p.public.get("concealed"):
            continue
        ahead = (float(p.public.get("facing", 0)) + 90) % 360
        out.append({"type": "turn", "units": [{"unit": p.id, "facing": ahead}]})
        if p.public.get("turret"):
            out.append({"type": "turn", "units": [{"unit": p.id, "turret": ahead}]})
    return out


def _orders(state: State, side: str) -> list[Facts]:
    """Standing orders of every kind for the side's units, in turn, as many as a side may
    hold: a challenge at a gap ahead, an ambush within a distance, a close combat."""
    scenario = state.scenario
    units = state.owned(side, UNIT)
    out: list[Facts] = []
    for k in range(MAX_ORDERS):
        p = units[k % len(units)]
        at = _where(p) or (scenario.width / 2, scenario.depth / 2)
        gap = [
            _entered(scenario, _on_ground(scenario, (at[0] + 200, at[1] - 60))),
            _entered(scenario, _on_ground(scenario, (at[0] + 200, at[1] + 60))),
        ]
        kind = (
            {"reaction": "challenge", "trigger": {"zone": gap, "target_class": "vehicle"}},
            {"reaction": "ambush", "trigger": {"within": 150 + 50 * (k % 3)}},
            {"reaction": "close_combat", "trigger": {}},
        )[k % 3]
        out.append({"unit": p.id, **kind, "chance": 50 + 5 * (k % 3), "note": "at the first"})
    return out


def _on_ground(scenario: AmbushFireScenario, point: XY) -> XY:
    return (min(max(point[0], 0.0), scenario.width), min(max(point[1], 0.0), scenario.depth))


def _window(state: State, side: str) -> list[Facts]:
    window = state.window
    assert window is not None
    if window.awaiting != side:
        return []
    if window.name == "react":
        return _react(state, side)
    if window.name == "retreat":
        out: list[Facts] = [{"type": "retreat", "path": []}]
        pending = state.board.pending or {}
        firer = state.pieces.get(str(pending.get("firer", "")))
        start = _where(firer) if firer is not None else None
        if start is not None:
            way = -_toward_the_enemy(state, side)
            out.append(
                {
                    "type": "retreat",
                    "path": [_entered(state.scenario, (start[0] + 40 * way, start[1]))],
                }
            )
        return out
    return [
        {"type": "return_fire", "fire": False},
        {"type": "return_fire", "fire": True, "chance": 55},
    ]


def _react(state: State, side: str) -> list[Facts]:
    """Hold, or react with each own unit at each enemy unit in view (the rules refuse what
    they do not allow: out of range, not eligible)."""
    out: list[Facts] = [{"type": "react", "reaction": "hold"}]
    for p in state.owned(side, UNIT):
        for target in _in_view(state, side):
            for reaction in ("ambush", "close_combat"):
                out.append(
                    {
                        "type": "react",
                        "reaction": reaction,
                        "unit": p.id,
                        "target": target,
                        "chance": 50,
                    }
                )
    return out


def _in_view(state: State, side: str) -> list[str]:
    return [
        pid
        for pid in state.knowledge.get(side, {})
        if pid in state.pieces
        and state.pieces[pid].kind == UNIT
        and state.pieces[pid].owner != side
    ]


def candidates(state: State, side: str) -> list[Facts]:
    scenario = state.scenario
    if state.phase is Phase.SETUP:
        # Ending the game before it begins now and then, not at every other pick: the set-up
        # offers few commands.
        ending: list[Facts] = [{"type": "end_game"}] if state.seq % 4 == 3 else []
        return [*ending, *_setup(state, side)]
    if state.phase is not Phase.PLAY:
        return []
    if state.window is not None:
        return [{"type": "end_game"}, *_window(state, side)]
    board = state.board
    out: list[Facts] = [{"type": "end_game"}]
    if side != board.moving:
        return out
    out.append({"type": "end_step"})
    if board.step is Step.MOVEMENT:
        way = _toward_the_enemy(state, side)
        columns: dict[str, list[dict[str, Any]]] = {}
        for i, p in enumerate(state.owned(side, UNIT)):
            start = _where(p)
            if start is None or did(history(p), board.turn, Did.MOVED):
                continue
            ends = _destinations(scenario, start, way, i)
            # A concealed unit's route is its owner's secret: the other world takes the other.
            for end in ends if p.public.get("concealed") else ends[:1]:
                row = {"unit": p.id, "path": [_entered(scenario, end)]}
                out.append({"type": "move", "units": [row]})
                if p.public.get("column") and not p.public.get("concealed") and end == ends[0]:
                    columns.setdefault(str(p.public["column"]), []).append(row)
        out += [{"type": "move", "units": rows} for rows in columns.values() if len(rows) > 1]
        return out + _turns(state, side)
    enemies = _in_view(state, side)
    for i, p in enumerate(state.owned(side, UNIT)):
        for target in enemies[:2]:
            out.append(
                {"type": "fire", "unit": p.id, "target": target, "chance": 40 + 10 * (i % 4)}
            )
    return out
