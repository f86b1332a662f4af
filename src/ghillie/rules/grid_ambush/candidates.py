"""Commands a side could sensibly give now, built only from what that side can see."""

from __future__ import annotations

import math

from ghillie.scenario import Mode
from ghillie.state import Facts, Phase, Piece

from . import placement
from .board import State
from .commands import Ready, RecordAmbushes
from .scenario import GridAmbushScenario
from .setting_up import ground_for


def candidates(state: State, side: str) -> list[Facts]:
    scenario = state.scenario
    board = state.board
    units = state.owned(side, "unit")
    if state.phase is Phase.SETUP:
        rules = state.ruleset
        out: list[Facts] = [{"type": "ready"}] if rules.may_act(state, side, Ready) else []
        capable = [u for u in units if u.public["ambush"]]
        if rules.may_act(state, side, RecordAmbushes):
            squares = _legal_squares(scenario, side)
            # Every capable unit in ambush, in three ways; one; none: the two worlds may
            # differ in where the units hide and in how many do.
            for shift, many in ((0, None), (1, None), (2, None), (0, 1), (0, 0)):
                chosen = squares[shift * 2 :] + squares[: shift * 2]
                out.append(
                    {
                        "type": "record_ambushes",
                        "orders": [
                            {"unit": u.id, "square": sq, "note": f"order {n}"}
                            for n, (u, sq) in enumerate(zip(capable, chosen, strict=False))
                        ][:many],
                    }
                )
        return out
    if state.phase is Phase.OVER:
        return []
    out = [{"type": "end_game"}] if state.seq % 7 == 0 else []
    if board.pending is not None:
        pending = state.pieces[board.pending]
        return [*out, *_set_ups(state, pending)] if pending.owner == side else out
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


def _set_ups(state: State, unit: Piece) -> list[Facts]:
    """A set-up that stands (its casualties confirmed), and slips a player could make."""
    scenario = state.scenario
    size = len(unit.public["models"])
    ref = {"type": "set_up", "unit": unit.id}
    if scenario.mode is Mode.TABLE:
        # Set up n models, ceil(n/2) of them in the square: legal under either rounding.
        n = size - 2 if size > 2 else size
        out: list[Facts] = [
            {**ref, "in_square": size},
            {**ref, "in_square": (n + 1) // 2, "casualties": list(range(n, size))},
            {**ref, "in_square": max(1, size // 2 - 1)},  # too few in the square: refused
        ]
        if state.seq % 4 == 0:
            out.append({**ref, "casualties": list(range(size))})  # none could be set up
        return out
    planned = placement.plan(size, ground_for(state, unit))
    models = [list(p) if p is not None else None for p in planned]
    lost = [i for i, p in enumerate(planned) if p is None]
    stands = {**ref, "models": models, "casualties": lost}
    if lost:
        return [stands, {**ref, "models": models}]  # the casualties unconfirmed: refused
    slipped = [[0.5, 0.5], *models[1:]]  # the first model in a corner of the table
    return [stands, {**ref, "models": slipped}]
