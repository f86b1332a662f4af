"""Commands a side could sensibly give now, from what it can see (random games in the
contract tests; choices for clients). Several plots and scans differ only in their secret
fields, so that the two-worlds tests can give the worlds different hidden moves."""

from __future__ import annotations

from typing import Any

from ghillie.measure.hexes import direction
from ghillie.state import Facts, GameState, Level, Phase

from .board import Board, FieldState, Step
from .pieces import FIELD, SHIP, ship_class, ships, where
from .scenario import AmbushFieldsScenario, ShipClass


def candidates(state: GameState[Board], side: str) -> list[Facts]:
    board = state.board
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.SETUP:
        return [{"type": "ready"}] if side not in board.ready else []
    if side in board.done:
        return [{"type": "end_game"}]
    scenario = state.scenario
    assert isinstance(scenario, AmbushFieldsScenario)
    own = [s for s in ships(state) if s.owner == side and where(state, s) is not None]
    keys = [s.secret["key"] for s in own]
    out: list[Facts] = [{"type": "end_phase"}]
    if board.step is Step.INITIATIVE:
        out += [
            {"type": "drop_field", "field": p.secret["key"]}
            for p in state.pieces.values()
            if p.kind == FIELD and p.owner == side and p.secret["active"]
        ]
    elif board.step is Step.MOVEMENT and own:
        for turn in range(3):
            moves = []
            for ship in own:
                at = where(state, ship)
                assert at is not None
                heading = (turn * 2 + len(ship.id)) % 6
                to = at + direction(heading) if turn else at
                if scenario.hex_map.on_map(to):
                    label = scenario.hex_map.to_label(to)
                    moves.append(
                        {
                            "ship": ship.secret["key"],
                            "to": label,
                            "heading": "ABCDEF"[heading],
                            "speed": turn,
                            "note": "",
                        }
                    )
            if moves:
                out.append({"type": "plot", "moves": moves})
        out += [{"type": "scan", "ships": keys}, {"type": "scan", "ships": keys[:1]}]
    elif board.step is Step.COMBAT:
        out += _combat(state, side, own)
    return out


def _combat(state: GameState[Board], side: str, own: list[Any]) -> list[Facts]:
    out: list[Facts] = []
    scouts = [s for s in own if ship_class(s) is ShipClass.SCOUT]
    seen = [
        p
        for p in state.pieces.values()
        if p.kind == SHIP and p.owner != side and state.known(side, p.id).level >= Level.DETECTED
    ]
    for ship in own[:2]:
        out += [{"type": "fire", "ship": ship.secret["key"], "target": t.id} for t in seen[:2]]
    for scout in scouts[:1]:
        out += [
            {
                "type": "assign_ew",
                "scout": scout.secret["key"],
                "target": s.secret["key"],
                "points": p,
            }
            for s in own[:3]
            for p in (1, 3)
        ]
        out += [
            {"type": "identify", "scout": scout.secret["key"], "target": t.id, "points": p}
            for t in seen[:2]
            for p in (1, 2, 3)
        ]
        out += [
            {"type": "mass_identify", "scouts": [scout.secret["key"]], "field": p.id, "points": 6}
            for p in state.pieces.values()
            if p.kind == FIELD and state.board.knows(side, p.id) is FieldState.LOCATED
        ]
    if own and state.board.turn >= 3:
        # The host game's combat sinks a ship now and then (segment 10 applies it).
        out.append({"type": "destroyed", "ship": own[-1].secret["key"]})
    return out
