"""The set_up command: a revealed unit is set up by its owner (RULES-SPEC DWV-R08, A08, A09).

A slip (a model typed or tapped onto open ground, too near the enemy, out of coherency; too
few in the square) is refused with the model it concerns and the state unchanged; a model
is removed only when it cannot be set up anywhere legal, and only once its owner has listed
it among the casualties (``SetUp.casualties``). On a map ghillie checks that no model left
out has room (placement.py); at a physical table the players say which models could not be
set up, and ghillie checks the first model and the half rule on the counts.
"""

from __future__ import annotations

from dataclasses import replace

from ghillie.errors import MEASURED_BY_MAP, Refusal
from ghillie.measure.tabletop import XY
from ghillie.state import SPECTATOR, Piece

from . import placement
from .board import Rules, State, Status, model_in_square, own_unit
from .changes import Pending
from .codes import BAD_MODELS, CONFIRM_CASUALTIES, SETUP_PENDING
from .commands import SetUp
from .placement import Ground, Setup, Slip
from .scenario import FirstModel, GridAmbushScenario, SquareBy
from .setup_words import Told, Words


# The refusal code of each slip in a position (DWV-R08 b, c; the table; one base per model).
def set_up(ruling: Rules, side: str, command: SetUp) -> None:
    scenario = ruling.scenario
    unit = own_unit(ruling.state, side, command.unit)
    if unit.id != ruling.board.pending:
        raise Refusal(SETUP_PENDING, "Set up the unit that was revealed.")
    if scenario.mode.value == "map":
        ground = ground_for(ruling.state, unit)
        words = Told(scenario, unit, wooded=ground.wooded)
        result = _on_the_map(ground, unit, command, words)
    else:
        words = Told(scenario, unit)
        result = _at_the_table(scenario, unit, command, words)

    models = []
    for i, model in enumerate(unit.public["models"]):
        at = command.models[i] if command.models and i in result.placed else None
        models.append({**model, "at": list(at) if at else None, "lost": i not in result.placed})
    status = Status.ON_TABLE if result.placed else Status.DESTROYED
    ruling.update(unit.id, public={"status": status.value, "models": models})
    ruling.change(Pending(None))
    line = {
        "event": "set_up",
        "unit": unit.id,
        "square": words.square,
        "placed": len(result.placed),
        "lost": len(result.casualties),
    }
    # The owner is told which models were lost and why; everyone else, spectators too, what
    # the open table shows: the models that appear, and how many could not be set up.
    ruling.tell(
        unit.owner,
        {
            **line,
            "casualties": {str(i): why.value for i, why in result.casualties.items()},
            "text": words.owner_told(result),
        },
    )
    ruling.tell_each(
        {**line, "text": words.others_told(result)},
        (*ruling.state.others(unit.owner), SPECTATOR),
    )


def ground_for(state: State, unit: Piece) -> Ground:
    """Where ``unit`` is set up on the map: what its owner can see of the table."""
    scenario = state.scenario
    square = unit.secret["square"]
    radius = float(unit.public["base_radius"])
    standing = [
        (p.owner, (tuple(m["at"]), float(p.public["base_radius"])))
        for p in state.pieces.values()
        if p.kind == "unit" and p.id != unit.id
        for m in p.public["models"]
        if m["at"] and not m["lost"]
    ]
    shape = scenario.grid.polygon(square)
    if scenario.switches.square_by is SquareBy.WHOLE_BASE:
        shape = shape.buffer(-radius)

    def in_square(point: XY) -> bool:
        return model_in_square(scenario, square, point, radius)

    ground = Ground(
        table=scenario.tabletop,
        in_square=in_square,
        square=shape,
        enemies=[model for owner, model in standing if owner != unit.owner],
        friends=[model for owner, model in standing if owner == unit.owner],
        base_radius=radius,
        rounding=scenario.switches.half_rounding,
    )
    if (
        scenario.switches.first_model is FirstModel.ANY_TERRAIN
        and placement.room((), ground) is None
    ):
        # DWV-A09 option: no first model fits in jungle or woods, so the unit sets up without.
        ground = replace(ground, wooded=False)
    return ground


def _on_the_map(ground: Ground, unit: Piece, command: SetUp, words: Words) -> Setup:
    size = len(unit.public["models"])
    if command.in_square is not None:
        raise Refusal(
            MEASURED_BY_MAP,
            "This game is on a map: ghillie sees which models are in the square.",
            field="in_square",
        )
    if command.models is None or len(command.models) != size:
        raise Refusal(
            BAD_MODELS, "Give a position (or none) for every model of the unit.", field="models"
        )
    result = placement.check(command.models, ground)
    if isinstance(result, Slip):
        raise words.refusal(result, command.models)
    if sorted(command.casualties) != sorted(result.casualties):
        raise Refusal(CONFIRM_CASUALTIES, words.confirm(result), field="casualties")
    return result


def _at_the_table(scenario: GridAmbushScenario, unit: Piece, command: SetUp, words: Words) -> Setup:
    size = len(unit.public["models"])
    if command.models is not None:
        raise Refusal(
            BAD_MODELS,
            "At a physical table, set the models up there: enter how many stand in the square, "
            "and list those that cannot be set up.",
            field="models",
        )
    lost = command.casualties
    if len(set(lost)) != len(lost) or any(i >= size for i in lost):
        raise Refusal(
            BAD_MODELS,
            "List each model that cannot be set up once, by its number in the unit (the first "
            "is 0).",
            field="casualties",
        )
    placed = size - len(lost)
    if command.in_square is None and placed:
        raise Refusal(
            BAD_MODELS,
            "Enter how many of the models set up stand in the recorded square.",
            field="in_square",
        )
    if command.in_square is not None and command.in_square > placed:
        # Counts that cannot be true are a typing slip, not something to round off.
        raise Refusal(
            BAD_MODELS,
            "No more models can be in the square than were set up: every model not listed "
            "among the casualties counts as set up.",
            field="in_square",
        )
    result = placement.check_counted(size, lost, command.in_square, scenario.switches.half_rounding)
    if isinstance(result, Slip):
        raise words.refusal(result)
    return result
