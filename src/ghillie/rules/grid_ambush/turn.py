"""The player turn the ambush rules hook into: moving, phases, firing and assaulting, with
what DWV-R09 and the 3rd-edition rules it relies on forbid."""

from __future__ import annotations

from ghillie.errors import OFF_TABLE, Refusal
from ghillie.state import Piece
from ghillie.words import say, says

from .board import Board, Rules, Step, on_table
from .changes import NextStep, NextTurn, ShootingStarted, TurnBegun
from .codes import (
    BAD_MODELS,
    FIRED_HEAVY_OR_RAPID,
    MOVED_HEAVY,
    REVEALED_THIS_TURN,
    SCANNED_THIS_PHASE,
)
from .commands import Assault, EndPhase, Fire, Move, Weapon
from .scenario import EnemyTurnReveal, GridAmbushScenario
from .story import name, weapons


def move(ruling: Rules, side: str, command: Move) -> None:
    scenario = ruling.scenario
    unit = on_table(ruling.state, side, command.unit)
    board = ruling.board
    if board.step is not Step.MOVEMENT:
        raise Refusal("not_movement_phase", "Units move in the Movement phase.")
    if revealed_too_recently(scenario, board, unit):
        # RULES-SPEC DWV-R09: units can't move on the turn they are revealed.
        raise Refusal(REVEALED_THIS_TURN, "A unit cannot move in the turn it was revealed.")
    models = list(unit.public["models"])
    if scenario.mode.value == "map":
        living = [i for i, m in enumerate(models) if not m["lost"]]
        if command.models is None or len(command.models) != len(living):
            raise Refusal(BAD_MODELS, "Give a new position for every model still in the unit.")
        table = scenario.tabletop
        if not all(table.on_table(p) for p in command.models):
            raise Refusal(OFF_TABLE, "Every model must stay on the table.")
        for i, at in zip(living, command.models, strict=True):
            models[i] = {**models[i], "at": list(at)}
    elif command.models is not None:
        raise Refusal(BAD_MODELS, "At a physical table, move the models there.")
    ruling.update(unit.id, public={"models": models, "moved_in": board.player_turn})
    ruling.change(TurnBegun())
    ruling.tell_public(
        {"event": "move", "unit": unit.id, "text": say("{unit} moves.", unit=name(unit))}
    )


def revealed_too_recently(scenario: GridAmbushScenario, board: Board, unit: Piece) -> bool:
    revealed = unit.public.get("revealed_in")
    if revealed is None:
        return False
    if revealed == board.player_turn:
        return True
    # DWV-A07 option: a unit revealed in the enemy's turn also stays put in its next turn.
    return (
        scenario.switches.enemy_turn_reveal is EnemyTurnReveal.NO_MOVE_NEXT_OWN_TURN
        and not unit.public.get("revealed_in_own_turn")
        and revealed == board.player_turn - 1
    )


def end_phase(ruling: Rules, side: str, command: EndPhase) -> None:
    board = ruling.board
    scenario = ruling.scenario
    if board.step is Step.MOVEMENT:
        ruling.change(NextStep(Step.SHOOTING.value))
        said = say("{side} begin their Shooting phase.", side=scenario.side_name(side))
        ruling.tell_public({"event": "phase", "step": "shooting", "text": said})
    elif board.step is Step.SHOOTING:
        ruling.change(NextStep(Step.ASSAULT.value))
        said = say("{side} begin their Assault phase.", side=scenario.side_name(side))
        ruling.tell_public({"event": "phase", "step": "assault", "text": said})
    else:
        nxt = ruling.state.others(side)[0]
        ruling.change(NextTurn(nxt))
        turn = ruling.board.turn
        ruling.tell_public(
            {
                "event": "turn",
                "turn": turn,
                "side": nxt,
                "text": say(
                    "Turn {turn}: {side} to play.", turn=turn, side=scenario.side_name(nxt)
                ),
            }
        )


def fire(ruling: Rules, side: str, command: Fire) -> None:
    unit = on_table(ruling.state, side, command.unit)
    board = ruling.board
    if board.step is not Step.SHOOTING:
        raise Refusal("not_shooting_phase", "Units fire in the Shooting phase.")
    models = unit.public["models"]
    scanned = {
        int(i)
        for i, turn in (unit.public.get("scanned") or {}).items()
        if turn == board.player_turn
    }
    # Without a list, every model of the unit that may fire does: not one that scanned.
    firing = (
        command.models
        if command.models is not None
        else [i for i, m in enumerate(models) if not m["lost"] and i not in scanned]
    )
    if not firing or any(i >= len(models) or models[i]["lost"] for i in firing):
        raise Refusal(BAD_MODELS, "There is no such model in the unit.")
    if scanned & set(firing):
        # RULES-SPEC DWV-R07: the scanning model cannot fire in that shooting phase.
        raise Refusal(SCANNED_THIS_PHASE, "A model that scanned cannot fire this shooting phase.")
    revealed_now = unit.public.get("revealed_in") == board.player_turn
    moved = unit.public.get("moved_in") == board.player_turn and not revealed_now
    if command.weapon is Weapon.HEAVY and moved:
        raise Refusal(MOVED_HEAVY, "A unit that moved cannot fire heavy weapons.")
    fired = [w for w in unit.public.get("fired") or [] if w["turn"] == board.player_turn]
    fired.append({"turn": board.player_turn, "weapon": command.weapon.value})
    ruling.update(unit.id, public={"fired": fired})
    ruling.change(ShootingStarted())
    living = sum(1 for m in models if not m["lost"])
    arms = weapons(command.weapon, len(firing))
    said = (
        say("{unit} opens fire with {weapons}.", unit=name(unit), weapons=arms)
        if len(firing) == living
        else says(
            "{n} model of {unit} opens fire with {weapons}.",
            "{n} models of {unit} open fire with {weapons}.",
            len(firing),
            unit=name(unit),
            weapons=arms,
        )
    )
    if revealed_now:
        # RULES-SPEC DWV-R09: revealed in its own turn, it counts as not having moved.
        said = say(
            "{fire} Revealed this turn, {unit} counts as not having moved.",
            fire=said,
            unit=name(unit),
            rules=("DWV-R09",),
        )
    ruling.tell_public(
        {
            "event": "fire",
            "unit": unit.id,
            "weapon": command.weapon.value,
            "models": list(firing),
            "counts_as_stationary": revealed_now,
            "text": said,
        }
    )


def assault(ruling: Rules, side: str, command: Assault) -> None:
    unit = on_table(ruling.state, side, command.unit)
    board = ruling.board
    if board.step is not Step.ASSAULT:
        raise Refusal("not_assault_phase", "Assault moves are made in the Assault phase.")
    fired = {w["weapon"] for w in unit.public.get("fired") or [] if w["turn"] == board.player_turn}
    if fired & {Weapon.HEAVY.value, Weapon.RAPID_FIRE.value}:
        # 3rd edition, as DWV-R09 relies on: heavy or rapid fire stops an assault.
        raise Refusal(
            FIRED_HEAVY_OR_RAPID,
            "A unit that fired heavy or rapid fire weapons cannot assault.",
        )
    ruling.tell_public(
        {
            "event": "assault",
            "unit": unit.id,
            "text": say("{unit} makes an assault move.", unit=name(unit)),
        }
    )
