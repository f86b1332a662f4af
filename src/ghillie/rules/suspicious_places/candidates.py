"""Commands a side could sensibly give now, built only from what that side can see.

Used by the contract tests' random games (and by clients that want to offer choices). Some
candidates are refused by the rules (a marker out of sight, say): that is part of the game.
"""

from __future__ import annotations

from typing import Any

from ghillie.scenario import Mode
from ghillie.state import Facts, Phase, Piece

from .board import MARKER, SNIPER_MARKER, UNIT, Face, State, Status
from .scenario import SuspiciousPlacesScenario, UnitKind


def candidates(state: State, side: str) -> list[Facts]:
    scenario = state.scenario
    if state.phase is Phase.SETUP:
        return _setup(state, side)
    if state.phase is Phase.OVER:
        return []
    out = _bookkeeping(state, side)
    board = state.board
    if side != board.active:
        return out
    if board.activation is None:
        out += [
            {"type": "activate", "unit": u.id}
            for u in state.owned(side, UNIT)
            if u.id not in board.activated and u.public["status"] != Status.OFF_TABLE
        ]
        return [*out, {"type": "pass"}]
    unit = state.pieces[board.activation.unit]
    out.append({"type": "end_activation"})
    if board.activation.actions == 0:
        return out
    out.append({"type": "other_action", "what": "take cover"})
    table = scenario.mode is Mode.TABLE
    for target in _enemy_markers(state, side):
        measured: dict[str, Any] = {"range": 6 + (state.seq % 5) * 11, "line_of_sight": True}
        if target.kind == SNIPER_MARKER:
            measured["cover"] = "soft"
        out.append(
            {"type": "observe", "marker": target.id, **({"measured": measured} if table else {})}
        )
        out.append(
            {"type": "fire", "target": target.id, **({"measured": measured} if table else {})}
        )
    for target in _enemy_units(state, side):
        measured = {"range": 14, "line_of_sight": True, "cover": "none"}
        out.append(
            {"type": "fire", "target": target.id, **({"measured": measured} if table else {})}
        )
    if unit.public["status"] == Status.HIDDEN:
        mine = [p for p in state.owned(side, SNIPER_MARKER) if p.public["sniper"] == unit.id]
        out += [{"type": "covert_move", "to": m.id} for m in mine] + [{"type": "covert_move"}]
    elif unit.public["unit_kind"] == UnitKind.SNIPER and unit.public["status"] == Status.ON_TABLE:
        at = unit.public["at"]
        spots = {"markers": [[at[0] + 2, at[1]], [at[0], at[1] + 2]]} if at else {}
        out.append({"type": "rehide", "passed_reaction_test": True, "note": "rehide", **spots})
        out.append({"type": "rehide", "passed_reaction_test": False, "note": "", **spots})
    else:
        out += _moves(state, side, unit)
    return out


def _setup(state: State, side: str) -> list[Facts]:
    scenario = state.scenario
    board = state.board
    if side in board.ready:
        return []
    out: list[Facts] = [{"type": "ready"}]
    left = board.pool.get(side, 0)
    if left:
        out.append(
            {
                "type": "place_markers",
                "markers": [_new_marker(scenario, state.seq + i) for i in range(left)],
            }
        )
        out.append({"type": "place_markers", "markers": [_new_marker(scenario, state.seq)]})
    elif side == scenario.camouflage_side() and side in board.pool and side not in board.hidden:
        markers = state.owned(side, MARKER)
        units = [u for u in state.owned(side, UNIT) if u.public["status"] == Status.CAMOUFLAGED]
        for shift in range(min(3, len(markers))):
            order = markers[shift:] + markers[:shift]
            hidings: list[dict[str, Any]] = [
                {"marker": m.id, "unit": u.id, "note": f"unit {n}"}
                for n, (m, u) in enumerate(zip(order, units, strict=False))
            ]
            rest = order[len(units) :]
            for n, m in enumerate(rest):
                hidings.append(
                    {
                        "marker": m.id,
                        "content": ("mine", "ied", "nothing")[n % 3],
                        "note": f"rest {n}",
                    }
                )
            out.append({"type": "hide", "hidings": hidings})
        # Only the units, with no notes: the markers left out hide nothing. The two worlds
        # may differ in how many secrets the side writes.
        bare = [{"marker": m.id, "unit": u.id} for m, u in zip(markers, units, strict=False)]
        out.append({"type": "hide", "hidings": bare})
    for sniper in state.owned(side, UNIT):
        placed = any(
            p.kind == SNIPER_MARKER and p.public["sniper"] == sniper.id
            for p in state.pieces.values()
        )
        if (
            sniper.public["unit_kind"] == UnitKind.SNIPER
            and sniper.public["status"] == Status.HIDDEN
            and not placed
        ):
            x, y = 8 + (state.seq * 7) % max(1, int(scenario.table.width) - 16), 8
            spots = (
                {"markers": [[x, y], [x + 4, y], [x + 2, y + 3]]}
                if scenario.mode is Mode.MAP
                else {}
            )
            for true in range(3):
                out.append(
                    {
                        "type": "place_sniper",
                        "sniper": sniper.id,
                        "true_marker": true,
                        "note": "sniper",
                        **spots,
                    }
                )
    return out


def _new_marker(scenario: SuspiciousPlacesScenario, n: int) -> Facts:
    if scenario.mode is Mode.TABLE:
        return {"cover": ("none", "soft", "hard")[n % 3], "open": n % 3 == 0}
    width, depth = scenario.table.width, scenario.table.depth
    return {"at": [4 + (n * 13.7) % (width - 8), depth / 2 + (n * 7.3) % (depth / 2 - 4)]}


def _enemy_markers(state: State, side: str) -> list[Piece]:
    return [
        state.pieces[pid]
        for pid in state.knowledge.get(side, {})
        if pid in state.pieces
        and state.pieces[pid].kind in (MARKER, SNIPER_MARKER)
        and state.pieces[pid].public.get("face") != Face.MINEFIELD
    ]


def _enemy_units(state: State, side: str) -> list[Piece]:
    return [
        state.pieces[pid]
        for pid in state.knowledge.get(side, {})
        if pid in state.pieces
        and state.pieces[pid].kind == UNIT
        and state.pieces[pid].public["status"] == Status.ON_TABLE
        and not state.pieces[pid].public["attached_to"]
    ]


def _moves(state: State, side: str, unit: Piece) -> list[Facts]:
    scenario = state.scenario
    if unit.public["attached_to"]:
        return []
    if scenario.mode is Mode.TABLE:
        markers = _enemy_markers(state, side)
        return [{"type": "move"}] + [{"type": "move", "exposes": [m.id]} for m in markers[:2]]
    at = unit.public.get("at")
    if not at:
        return []
    moves: list[Facts] = []
    for target in _enemy_markers(state, side)[:3]:
        tx, ty = target.public["at"]
        # Six inches towards the marker.
        dx, dy = tx - at[0], ty - at[1]
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        step = min(6.0, length)
        moves.append(
            {"type": "move", "to": [at[0] + dx / length * step, at[1] + dy / length * step]}
        )
    return moves


def _bookkeeping(state: State, side: str) -> list[Facts]:
    out: list[Facts] = []
    for unit in state.owned(side, UNIT):
        if unit.public["status"] != Status.ON_TABLE:
            continue
        if unit.public["unit_kind"] == UnitKind.LONE:
            out.append({"type": "morale", "unit": unit.id, "result": "failed"})
            if unit.public["panic"]:
                out.append({"type": "remove_panic", "unit": unit.id, "passed": state.seq % 2 == 0})
            if unit.public["attached_to"]:
                out.append({"type": "leave", "unit": unit.id})
            else:
                out += [
                    {"type": "join", "unit": unit.id, "squad": s.id}
                    for s in state.owned(side, UNIT)
                    if s.public["unit_kind"] == UnitKind.SQUAD
                    and s.public["status"] == Status.ON_TABLE
                ]
    for target in _enemy_units(state, side):
        out.append(
            {"type": "suppress", "unit": target.id, "markers": 1, "by_sniper": state.seq % 2 == 1}
        )
    return out
