"""Ambushes revealed: by their owner (DWV-R06) or by a scan (DWV-R07), then set up
(DWV-R08); and what becomes of those never revealed (DWV-A11)."""

from __future__ import annotations

from typing import Any

from ghillie.errors import MEASURED_BY_MAP, MEASUREMENT_REQUIRED, OFF_TABLE, Refusal
from ghillie.measure.tabletop import XY
from ghillie.ruling import Ruling
from ghillie.state import Facts, GameState, Level, Phase, Piece

from . import placement
from .board import Board, Status, Step, model_in_square, on_table, own_unit
from .codes import (
    ALREADY_SCANNED,
    BAD_MODELS,
    BETWEEN_SQUARES,
    NO_SCANNER,
    NOT_IN_AMBUSH,
    SETUP_PENDING,
    TOO_LATE,
)
from .commands import Reveal, Scan, SetUp
from .scenario import AtEnd, ExtraScans, FirstModel, GridAmbushScenario


def reveal(ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: Reveal) -> None:
    unit = own_unit(ruling.state, side, command.unit)
    board = ruling.board
    if unit.public["status"] != Status.IN_AMBUSH.value:
        raise Refusal(NOT_IN_AMBUSH, "That unit is not hidden in ambush.")
    # RULES-SPEC DWV-R06: only at the beginning of one of the owner's own turns.
    if board.step is not Step.MOVEMENT or board.turn_begun:
        raise Refusal(TOO_LATE, "Ambushes are revealed at the beginning of your own turn.")
    if board.turn == 1 and not scenario.switches.reveal_turn_one:
        raise Refusal(TOO_LATE, "This scenario allows no reveal on turn 1.")
    start_setup(ruling, unit, own_turn=True, found_by=None)


def start_setup(
    ruling: Ruling[Board], unit: Piece, *, own_turn: bool, found_by: str | None
) -> None:
    square = unit.secret["square"]
    ruling.update(
        unit.id,
        public={
            "status": Status.REVEALED.value,
            "square": square,
            "revealed_in": ruling.board.player_turn,
            "revealed_in_own_turn": own_turn,
        },
    )
    for other in ruling.state.others(unit.owner):
        ruling.reveal(unit.id, other, Level.IDENTIFIED)
        ruling.open(unit.id, other, "square")  # the square written down, proved
    ruling.change_board("pending", unit=unit.id)
    how = "revealed by its owner" if found_by is None else "found by a scan"
    name = unit.public["name"]
    ruling.tell_public(
        {
            "event": "ambush_revealed",
            "unit": unit.id,
            "square": square,
            "text": f"Ambush in {square}: {name}, {how}. Its owner sets it up now.",
        }
    )


def set_up(ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: SetUp) -> None:
    unit = own_unit(ruling.state, side, command.unit)
    if unit.id != ruling.board.pending:
        raise Refusal(SETUP_PENDING, "Set up the unit that was revealed.")
    size = len(unit.public["models"])
    rounding = scenario.switches.half_rounding
    if scenario.mode.value == "map":
        if command.models is None or len(command.models) != size or command.placed is not None:
            raise Refusal(BAD_MODELS, "Give a position (or null) for every model of the unit.")
        result = map_setup(ruling.state, scenario, unit, command.models)
    else:
        if command.placed is None or command.in_square is None or command.models is not None:
            raise Refusal(
                BAD_MODELS, "Enter how many models were set up and how many are in the square."
            )
        if command.placed > size or command.in_square > command.placed:
            # Counts that cannot be true are a typing slip, not something to round off.
            raise Refusal(
                BAD_MODELS,
                "No more models can be set up than the unit has, nor more be in the "
                "square than were set up.",
            )
        result = placement.set_up_counted(size, command.placed, command.in_square, rounding)
    models = []
    for i, model in enumerate(unit.public["models"]):
        at = command.models[i] if command.models and i in result.placed else None
        models.append({**model, "at": list(at) if at else None, "lost": i not in result.placed})
    status = Status.ON_TABLE if result.placed else Status.DESTROYED
    ruling.update(unit.id, public={"status": status.value, "models": models})
    ruling.change_board("pending", unit=None)
    lost = len(result.casualties)
    # The models stand on the open table: everyone, spectators too, sees the result.
    ruling.tell_public(
        {
            "event": "set_up",
            "unit": unit.id,
            "placed": len(result.placed),
            "casualties": {str(i): why for i, why in result.casualties.items()},
            "text": f"{unit.public['name']} set up with {len(result.placed)} model(s); "
            f"{lost} removed as casualties.",
        }
    )


def map_setup(
    state: GameState[Board],
    scenario: GridAmbushScenario,
    unit: Piece,
    proposed: tuple[XY | None, ...],
) -> placement.Setup:
    table = scenario.tabletop
    square = unit.secret["square"]
    radius = float(unit.public["base_radius"])
    standing = [
        (p.owner, (tuple(m["at"]), float(p.public["base_radius"])))
        for p in state.pieces.values()
        if p.kind == "unit" and p.id != unit.id
        for m in p.public["models"]
        if m["at"] and not m["lost"]
    ]
    enemies = [model for owner, model in standing if owner != unit.owner]
    friends = [model for owner, model in standing if owner == unit.owner]

    def in_square(point: XY) -> bool:
        return model_in_square(scenario, square, point, radius)

    kwargs: dict[str, Any] = {
        "table": table,
        "in_square": in_square,
        "enemies": enemies,
        "friends": friends,
        "base_radius": radius,
        "rounding": scenario.switches.half_rounding,
    }
    result = placement.set_up(proposed, **kwargs)
    if not result.placed and scenario.switches.first_model is FirstModel.ANY_TERRAIN:
        result = placement.set_up(proposed, wooded=False, **kwargs)
    return result


def scan(ruling: Ruling[Board], scenario: GridAmbushScenario, side: str, command: Scan) -> None:
    unit = on_table(ruling.state, side, command.unit)
    board = ruling.board
    if board.step is not Step.SHOOTING or board.shooting_started:
        # RULES-SPEC DWV-R07: scans are made at the start of the shooting phase.
        raise Refusal(
            TOO_LATE, "Scans are made at the start of the shooting phase, before any fire."
        )
    models = unit.public["models"]
    if command.model >= len(models) or models[command.model]["lost"]:
        raise Refusal(BAD_MODELS, "There is no such model in the unit.")
    model = models[command.model]
    if not model["scanner"]:
        # RULES-SPEC §6: a model with no scanning device may not scan (a legal refusal).
        raise Refusal(NO_SCANNER, "That model carries no auspex, scanner or similar device.")
    square = square_of(scenario, model, command.square, unit)
    if square in board.scans and scenario.switches.extra_scans is ExtraScans.REFUSED:
        raise Refusal(ALREADY_SCANNED, "That square has already been scanned this phase.")
    scanned = dict(unit.public.get("scanned") or {})
    scanned[str(command.model)] = board.player_turn
    ruling.update(unit.id, public={"scanned": scanned})
    ruling.change_board("scan", square=square)
    hidden = next(
        (
            p
            for p in ruling.state.pieces.values()
            if p.owner != side
            and p.kind == "unit"
            and p.public["status"] == Status.IN_AMBUSH.value
            and p.secret.get("square") == square
        ),
        None,
    )
    scanner = f"{unit.public['name']} ({model['name']})"
    if hidden is not None:
        ruling.change_board("found", square=square)
        ruling.tell_public(
            {
                "event": "scan",
                "square": square,
                "found": True,
                "text": f"{scanner} scans {square}: ambushers detected!",
            }
        )
        own_turn = board.active == hidden.owner  # possible with dwv.scan_phase = either
        start_setup(ruling, hidden, own_turn=own_turn, found_by=side)
    elif square in board.found:
        # RULES-SPEC DWV-A14: the first scan revealed the square's only ambusher; a
        # further scan of it this phase has no further effect (it was made, though: the
        # scanning model still may not fire). Said as what everyone saw, not as "empty".
        ruling.tell_public(
            {
                "event": "scan",
                "square": square,
                "text": f"{scanner} scans {square}: its ambushers were found already.",
            }
        )
    elif scenario.switches.report_empty_scan:
        # RULES-SPEC DWV-A06: a yes/no test of one square; the leak is intended.
        ruling.change_board("found_empty", side=side, square=square)
        ruling.tell_public(
            {
                "event": "scan",
                "square": square,
                "found": False,
                "text": f"{scanner} scans {square}: no ambushers found.",
            }
        )
    else:
        # dwv.report_empty_scan = false: the scan is announced, its result is not; the
        # table shows it anyway, since nobody is set up.
        ruling.tell_public(
            {"event": "scan", "square": square, "text": f"{scanner} scans {square}."}
        )


def square_of(scenario: GridAmbushScenario, model: Facts, entered: str | None, unit: Piece) -> str:
    grid = scenario.grid
    if scenario.mode.value == "map":
        if entered is not None:
            raise Refusal(MEASURED_BY_MAP, "This game is on a map: ghillie knows the square.")
        at = model["at"]
        ref = grid.ref_at(tuple(at)) if at else None
        if ref is None:
            raise Refusal(OFF_TABLE, "That model is not in a square of the grid.")
        if not model_in_square(scenario, ref, tuple(at), float(unit.public["base_radius"])):
            # DWV-A04 option dwv.square_by = whole_base: astride a line, in no square.
            raise Refusal(BETWEEN_SQUARES, "That model's base is not wholly in one square.")
        return ref
    if entered is None:
        raise Refusal(MEASUREMENT_REQUIRED, "Enter the square the scanning model stands in.")
    if not grid.is_ref(entered):
        raise Refusal(OFF_TABLE, "That square is not on this table's grid.")
    return grid.canonical(entered)


def end_game(ruling: Ruling[Board], scenario: GridAmbushScenario) -> None:
    rule = scenario.switches.unrevealed_at_end
    ruling.set_phase(Phase.OVER)
    ruling.tell_public({"event": "game_over", "text": "The game is over."})
    for piece in list(ruling.state.pieces.values()):
        if piece.public.get("status") != Status.IN_AMBUSH.value:
            continue
        # RULES-SPEC DWV-A11: what becomes of an ambush never revealed.
        if rule is AtEnd.REVEAL:
            ruling.update(piece.id, public={"square": piece.secret["square"]})
            for other in ruling.state.others(piece.owner):
                ruling.reveal(piece.id, other, Level.IDENTIFIED)
                ruling.open(piece.id, other, "square")
            ruling.tell_public(
                {
                    "event": "unrevealed_at_end",
                    "unit": piece.id,
                    "square": piece.secret["square"],
                    "text": f"{piece.public['name']} was hiding in {piece.secret['square']}.",
                }
            )
        elif rule is AtEnd.DESTROYED:
            ruling.update(piece.id, public={"status": Status.DESTROYED.value})
            ruling.tell_public(
                {
                    "event": "unrevealed_at_end",
                    "unit": piece.id,
                    "text": f"{piece.public['name']} counts as destroyed.",
                }
            )
