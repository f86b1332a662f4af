"""Commands a side could sensibly give now, from what it can see: the contract tests'
random games play camouflage with these."""

from __future__ import annotations

from typing import Any

from ghillie.state import Facts, Phase

from .board import MARKER, Game, Stage
from .orders import SECOND_AROS
from .scenario import CamouflageScenario
from .skills import SkillName
from .words import _camouflaged, _enemies, _own_actors


def _where(scenario: CamouflageScenario, i: int) -> list[float] | None:
    if scenario.mode.value != "map":
        return None
    return [
        round(4 + (i * 7.3) % (scenario.width - 8), 1),
        round(4 + (i * 5.1) % (scenario.depth - 8), 1),
    ]


def _measured(scenario: CamouflageScenario, i: int) -> dict[str, Any]:
    if scenario.mode.value == "map":
        return {}
    return {"measured": {"range": float(4 + (i * 9) % 50), "cover": "none" if i % 2 else "soft"}}


def candidates(state: Game, side: str) -> list[Facts]:
    scenario = state.scenario
    if state.phase is Phase.SETUP:
        return _deployments(state, side)
    if state.phase is not Phase.PLAY:
        return []
    out: list[Facts] = [{"type": "end_game"}]
    window = state.window
    board = state.board
    if window is not None:
        return _aros(state, side)
    order = board.order
    if order is None:
        if side != board.active:
            return out
        out.append({"type": "end_turn"})
        # Fireteams (INF-R08): every trooper that can act, a marker among them (refused),
        # and the side's first two leaving theirs.
        actors = [c.value for c in _own_actors(state, side)]
        if actors:
            out.append({"type": "fireteam", "team": "Team", "members": actors[:5]})
            out.append({"type": "fireteam", "team": "", "members": actors[:2]})
        enemies = _enemies(state, side)
        for i, c in enumerate(_own_actors(state, side)):
            out.append(
                {
                    "type": "first_skill",
                    "piece": c.value,
                    "skill": {"skill": "move", **_to(scenario, i)},
                }
            )
            out.append(
                {"type": "first_skill", "piece": c.value, "skill": {"skill": "cautious_move"}}
            )
            for j, e in enumerate(enemies[:2]):
                kind = "discover" if state.pieces[e.value].kind == MARKER else "bs_attack"
                out.append(
                    {
                        "type": "first_skill",
                        "piece": c.value,
                        "skill": {"skill": kind, "target": e.value, **_measured(scenario, i + j)},
                    }
                )
        return out
    if side == board.active and order.stage is Stage.SECOND:
        out.append({"type": "second_skill", "skill": {"skill": "idle"}})
        out.append({"type": "second_skill", "skill": {"skill": "look_out"}})
    if side == board.active and order.stage is Stage.RESOLVE:
        out.append({"type": "resolve_order"})
    if order.stage is Stage.SAVES and any(state.piece(s.piece).owner == side for s in board.saves):
        out.append({"type": "saving_rolls"})
    return out


def _is_marker(state: Game, piece: str) -> bool:
    return state.pieces[piece].kind == MARKER


def _looks(piece: Any) -> tuple[int, int]:
    """What a marker for this piece shows to everyone (INF-R04, R06)."""
    silhouette = 2 if piece.kind == "equipment" else piece.public["silhouette"]
    return (silhouette, piece.public["mimetism"])


def _to(scenario: CamouflageScenario, i: int) -> dict[str, Any]:
    where = _where(scenario, i + 3)
    return {"to": where} if where is not None else {}


def _deployments(state: Game, side: str) -> list[Facts]:
    """Set-up: the side's deployment, with notes, and with two look-alike markers swapped."""
    scenario = state.scenario
    rows = [
        {
            "piece": c.value,
            "note": "",
            **({"at": _where(scenario, i)} if scenario.mode.value == "map" else {}),
        }
        for i, c in enumerate(_camouflaged(state, side))
    ]
    # The same places, two pieces whose markers look alike (INF-A09: Silhouette and
    # Mimetism) under each other's: two deployments that differ only in the owner's
    # secret, for the two-worlds tests.
    looks = [_looks(state.piece(row["piece"])) for row in rows]
    pair = next(
        ((i, j) for i in range(len(rows)) for j in range(i + 1, len(rows)) if looks[i] == looks[j]),
        None,
    )
    # And the same deployment with a private note on every marker: the two worlds may
    # differ in how many secrets the side writes, too.
    noted = [{**row, "note": f"marker {n}"} for n, row in enumerate(rows)]
    deployments: list[Facts] = [
        {"type": "deploy", "markers": rows},
        {"type": "deploy", "markers": noted},
    ]
    if pair is None:
        return deployments
    i, j = pair
    swapped = [dict(row) for row in rows]
    swapped[i]["piece"], swapped[j]["piece"] = rows[j]["piece"], rows[i]["piece"]
    return [*deployments, {"type": "deploy", "markers": swapped}]


def _aros(state: Game, side: str) -> list[Facts]:
    """While a window waits for the side: its AROs, none, one each, a Template, a delay."""
    scenario = state.scenario
    window = state.window
    assert window is not None
    out: list[Facts] = [{"type": "aros", "aros": []}]
    active = state.pieces.get(window.about.get("piece", ""))
    for i, c in enumerate(_own_actors(state, side)):
        aro = (
            SkillName.DISCOVER
            if active is not None and active.kind == MARKER
            else SkillName.BS_ATTACK
        )
        out.append(
            {"type": "aros", "aros": [{"piece": c.value, "aro": aro, **_measured(scenario, i)}]}
        )
        out.append({"type": "aros", "aros": [{"piece": c.value, "aro": "delay"}]})
        if aro is SkillName.BS_ATTACK and i == 0:
            # A Template in ARO over the enemy markers it may catch (INF-A07).
            markers = [e.value for e in _enemies(state, side) if _is_marker(state, e.value)]
            out.append(
                {
                    "type": "aros",
                    "aros": [
                        {"piece": c.value, "aro": aro, "caught": markers[:2]}
                        | _measured(scenario, i)
                    ],
                }
            )
        # After a marker's second skill, a trooper that had no line of fire at the
        # first (INF-R12); before it, the slip of saying so (refused).
        if window.name == SECOND_AROS or i == 0:
            out.append(
                {
                    "type": "aros",
                    "aros": [{"piece": c.value, "aro": "dodge", "gained_lof": True}],
                }
            )
    return out
