"""Commands a side could sensibly give now, built only from what that side can see."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ghillie.scenario import Mode
from ghillie.state import Facts, GameState, Phase, Piece

from .scenario import WOODED, GridAmbushScenario

if TYPE_CHECKING:
    from .board import Board


def candidates(state: GameState[Board], side: str) -> list[Facts]:
    scenario = state.scenario
    assert isinstance(scenario, GridAmbushScenario)
    board = state.board
    units = state.owned(side, "unit")
    if state.phase is Phase.SETUP:
        from . import GridAmbush
        from .commands import Ready, RecordAmbushes

        rules = GridAmbush()
        out: list[Facts] = [{"type": "ready"}] if rules.may_act(state, side, Ready) else []
        capable = [u for u in units if u.public["ambush"]]
        if rules.may_act(state, side, RecordAmbushes):
            squares = _legal_squares(scenario, side)
            for shift in range(3):
                chosen = squares[shift * 2 :] + squares[: shift * 2]
                out.append(
                    {
                        "type": "record_ambushes",
                        "orders": [
                            {"unit": u.id, "square": sq, "note": f"order {n}"}
                            for n, (u, sq) in enumerate(zip(capable, chosen, strict=False))
                        ],
                    }
                )
        return out
    if state.phase is Phase.OVER:
        return []
    out = [{"type": "end_game"}] if state.seq % 7 == 0 else []
    if board.pending is not None:
        pending = state.pieces[board.pending]
        return [*out, *_set_ups(state, scenario, pending)] if pending.owner == side else out
    if side != board.active:
        return out
    out.append({"type": "end_phase"})
    for unit in units:
        status = unit.public["status"]
        if status == "in_ambush":
            out.append({"type": "reveal", "unit": unit.id})
        if status != "on_table":
            continue
        out.append({"type": "move", "unit": unit.id, **_moved(scenario, unit, state.seq)})
        for weapon in ("heavy", "rapid_fire", "assault", "pistol"):
            out.append({"type": "fire", "unit": unit.id, "weapon": weapon})
        out.append({"type": "assault", "unit": unit.id})
        for i, model in enumerate(unit.public["models"]):
            if model["scanner"] and not model["lost"]:
                if scenario.mode is Mode.MAP:
                    out.append({"type": "scan", "unit": unit.id, "model": i})
                else:
                    refs = scenario.grid.refs()
                    for ref in (refs[state.seq % len(refs)], refs[(state.seq * 5 + 3) % len(refs)]):
                        out.append({"type": "scan", "unit": unit.id, "model": i, "square": ref})
    return out


def _legal_squares(scenario: GridAmbushScenario, side: str) -> list[str]:
    return [r for r in scenario.grid.refs() if not scenario.in_enemy_zone(side, r)]


def _moved(scenario: GridAmbushScenario, unit: Piece, seq: int) -> Facts:
    if scenario.mode is Mode.TABLE:
        return {}
    angle = seq * 1.3
    dx, dy = 3 * math.cos(angle), 3 * math.sin(angle)
    table = scenario.table
    models = [
        [min(max(m["at"][0] + dx, 0.0), table.width), min(max(m["at"][1] + dy, 0.0), table.depth)]
        for m in unit.public["models"]
        if not m["lost"] and m["at"]
    ]
    return {"models": models}


def _set_ups(state: GameState[Board], scenario: GridAmbushScenario, unit: Piece) -> list[Facts]:
    size = len(unit.public["models"])
    if scenario.mode is Mode.TABLE:
        return [
            {"type": "set_up", "unit": unit.id, "placed": size, "in_square": size},
            {"type": "set_up", "unit": unit.id, "placed": size, "in_square": max(0, size // 2 - 1)},
        ]
    grid, table = scenario.grid, scenario.tabletop
    x0, y0, x1, y1 = grid.bounds(unit.secret["square"])
    enemies = [
        m["at"]
        for p in state.pieces.values()
        if p.owner != unit.owner and p.kind == "unit"
        for m in p.public["models"]
        if m["at"] and not m["lost"]
    ]
    spots = [
        (x0 + 0.6 + 1.2 * i, y0 + 0.6 + 1.2 * j)
        for i in range(int((x1 - x0) / 1.2))
        for j in range(int((y1 - y0) / 1.2))
    ]
    spots = [
        p for p in spots if table.in_kind(p, WOODED) and all(math.dist(p, e) > 2.1 for e in enemies)
    ]
    if not spots:
        return [{"type": "set_up", "unit": unit.id, "models": [None] * size}]
    first = spots[0]
    near = sorted(spots, key=lambda p: math.dist(p, first))[:size]
    models: list[list[float] | None] = [list(p) for p in near]
    models += [None] * (size - len(models))
    return [{"type": "set_up", "unit": unit.id, "models": models}]
