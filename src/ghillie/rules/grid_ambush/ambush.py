"""Ambushes revealed: by their owner (DWV-R06) or by a scan (DWV-R07), to be set up by their
owner (DWV-R08, setting_up.py); and what becomes of those never revealed (DWV-A11)."""

from __future__ import annotations

from ghillie.errors import MEASURED_BY_MAP, MEASUREMENT_REQUIRED, OFF_TABLE, Refusal
from ghillie.state import SPECTATOR, Facts, Level, Phase, Piece
from ghillie.words import say

from .board import Rules, Status, Step, model_in_square, on_table, own_unit
from .changes import Found, FoundEmpty, Pending, Scanned
from .codes import ALREADY_SCANNED, BAD_MODELS, BETWEEN_SQUARES, NO_SCANNER, NOT_IN_AMBUSH, TOO_LATE
from .commands import EndGame, Reveal, Scan
from .scenario import AtEnd, EnemyTurnReveal, ExtraScans, GridAmbushScenario
from .story import EMPTY, FOUND, FOUND_ALREADY, FOUND_YOURS, UNREPORTED, name, scan_told


def reveal(ruling: Rules, side: str, command: Reveal) -> None:
    scenario = ruling.scenario
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


def start_setup(ruling: Rules, unit: Piece, *, own_turn: bool, found_by: str | None) -> None:
    scenario = ruling.scenario
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
    ruling.change(Pending(unit.id))
    line = {"event": "ambush_revealed", "unit": unit.id, "square": square}
    owner, called = scenario.side_name(unit.owner), name(unit)
    if found_by is None:
        # RULES-SPEC DWV-R06, R08, R09: revealed by its owner, at the start of its own turn.
        mine = say(
            "{unit} breaks cover in {square}: set it up there now. It cannot move this turn, "
            "but it fires as if it had not moved.",
            unit=called,
            square=square,
            rules=("DWV-R06", "DWV-R08", "DWV-R09"),
        )
        theirs = say(
            "Ambush! {unit} breaks cover in {square}; {side} set it up there now.",
            unit=called,
            square=square,
            side=owner,
            rules=("DWV-R06", "DWV-R08"),
        )
    else:
        # RULES-SPEC DWV-R07, R08: found by an enemy scan, it is set up at once. Revealed in
        # the enemy's turn it stays put then (DWV-A07), and under the option in its own too.
        stays = (
            not own_turn
            and scenario.switches.enemy_turn_reveal is EnemyTurnReveal.NO_MOVE_NEXT_OWN_TURN
        )
        mine = (
            say(
                "{unit} must be set up in {square} at once. It cannot move in your next turn.",
                unit=called,
                square=square,
                rules=("DWV-R07", "DWV-R08", "DWV-A07"),
            )
            if stays
            else say(
                "{unit} must be set up in {square} at once.",
                unit=called,
                square=square,
                rules=("DWV-R07", "DWV-R08"),
            )
        )
        theirs = say(
            "{unit} is found in {square}; {side} set it up there at once.",
            unit=called,
            square=square,
            side=owner,
            rules=("DWV-R07", "DWV-R08"),
        )
    ruling.tell(unit.owner, {**line, "text": mine})
    ruling.tell_each({**line, "text": theirs}, (*ruling.state.others(unit.owner), SPECTATOR))


def scan(ruling: Rules, side: str, command: Scan) -> None:
    scenario = ruling.scenario
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
    ruling.change(Scanned(square))
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
    line = {"event": "scan", "square": square}
    if hidden is not None:
        ruling.change(Found(square))
        # RULES-SPEC DWV-R07: everyone sees ambushers found; their owner is told which enemy
        # model found which of its units, and where.
        found = {**line, "found": True}
        rules = ("DWV-R07",)
        ruling.tell(
            hidden.owner,
            {
                **found,
                "text": scan_told(FOUND_YOURS, unit, model, square, rules, unit=name(hidden)),
            },
        )
        ruling.tell_each(
            {**found, "text": scan_told(FOUND, unit, model, square, rules)},
            (*ruling.state.others(hidden.owner), SPECTATOR),
        )
        own_turn = board.active == hidden.owner  # possible with dwv.scan_phase = either
        start_setup(ruling, hidden, own_turn=own_turn, found_by=side)
    elif square in board.found:
        # RULES-SPEC DWV-A14: the first scan revealed the square's only ambusher; a
        # further scan of it this phase has no further effect (it was made, though: the
        # scanning model still may not fire). Said as what everyone saw, not as "empty".
        said = scan_told(FOUND_ALREADY, unit, model, square, ("DWV-A14",))
        ruling.tell_public({**line, "text": said})
    elif scenario.switches.report_empty_scan:
        # RULES-SPEC DWV-A06: a yes/no test of one square; the leak is intended.
        ruling.change(FoundEmpty(side, square))
        said = scan_told(EMPTY, unit, model, square, ("DWV-A06",))
        ruling.tell_public({**line, "found": False, "text": said})
    else:
        # dwv.report_empty_scan = false: the scan is announced, its result is not; the
        # table shows it anyway, since nobody is set up.
        ruling.tell_public(
            {**line, "text": scan_told(UNREPORTED, unit, model, square, ("DWV-A06",))}
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


def end_game(ruling: Rules, side: str, command: EndGame) -> None:
    rule = ruling.scenario.switches.unrevealed_at_end
    ruling.set_phase(Phase.OVER)
    ruling.tell_public({"event": "game_over", "text": say("The game is over.")})
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
                    "text": say(
                        "{unit} was hiding in {square} all along.",
                        unit=name(piece),
                        square=piece.secret["square"],
                        rules=("DWV-A11",),
                    ),
                }
            )
        elif rule is AtEnd.DESTROYED:
            ruling.update(piece.id, public={"status": Status.DESTROYED.value})
            ruling.tell_public(
                {
                    "event": "unrevealed_at_end",
                    "unit": piece.id,
                    "text": say(
                        "{unit} was never revealed and counts as destroyed.",
                        unit=name(piece),
                        rules=("DWV-A11",),
                    ),
                }
            )
