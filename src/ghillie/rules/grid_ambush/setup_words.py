"""The words of setting a revealed unit up (DWV-R08): the refusal of a slip, with what
would be right, and the lines told once it is set up."""

from __future__ import annotations

from ghillie.errors import OFF_TABLE, Refusal
from ghillie.measure.tabletop import XY
from ghillie.state import Piece
from ghillie.words import N_, Say, say, says, speaker

from . import story
from .codes import (
    CAN_BE_SET_UP,
    NEAR_ENEMY,
    NONE_IN_SQUARE,
    NOT_COHERENT,
    NOT_WOODED,
    ON_A_BASE,
    TOO_FEW_IN_SQUARE,
)
from .placement import Fault, Loss, Setup, Slip
from .scenario import GridAmbushScenario

# The refusal of each fault of a model's position, by its kind (placement.Fault).
POSITION_CODES = {
    Fault.OFF_TABLE: OFF_TABLE,
    Fault.NOT_WOODED: NOT_WOODED,
    Fault.NEAR_ENEMY: NEAR_ENEMY,
    Fault.ON_A_BASE: ON_A_BASE,
}


class Words:
    """What the owner and the others are told about one unit's set-up: plain sentences,
    models named as the owner knows them."""

    def __init__(self, scenario: GridAmbushScenario, unit: Piece, *, wooded: bool = True) -> None:
        self.table_mode = scenario.mode.value != "map"
        self.unit = unit.public["name"]
        self.square = unit.public["square"]  # made public when the unit was revealed
        self.size = len(unit.public["models"])
        self.wooded = wooded
        self._models = unit.public["models"]
        self._tabletop = scenario.tabletop

    def model(self, i: int) -> str:
        """A model by its name, or by its number too where its name is not its own."""
        name = self._models[i]["name"]
        if sum(m["name"] == name for m in self._models) == 1:
            return str(name)
        return f"model {i + 1} ({name})"

    def models(self, indices: list[int]) -> str:
        names = [self.model(i) for i in indices]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    # --- refusals ---------------------------------------------------------------------------

    def refusal(self, slip: Slip, proposed: tuple[XY | None, ...] = ()) -> Refusal:
        """A slip refused: its code, a sentence naming the model and what is wrong with it,
        and the field it concerns."""
        counts = "in_square" if self.table_mode else "models"
        if slip.fault is Fault.TOO_FEW_IN_SQUARE:
            return Refusal(TOO_FEW_IN_SQUARE, self._too_few(slip), field=counts)
        if slip.fault is Fault.NONE_IN_SQUARE:
            return Refusal(NONE_IN_SQUARE, self._none_in_square(slip), field=counts)
        assert slip.model is not None  # every other slip is one model's
        name, field = self.model(slip.model), f"models.{slip.model}"
        if slip.fault is Fault.HAS_ROOM:
            return Refusal(CAN_BE_SET_UP, self._has_room(slip, name, proposed), field=field)
        hint = self._hint(slip, proposed)
        if slip.fault is Fault.NOT_COHERENT:
            detail = (
                f'{_cap(name)} is out of squad coherency: each model must be within 2" of '
                f"another, the whole unit in one group.{hint}"
            )
            return Refusal(NOT_COHERENT, detail, field=field)
        point = proposed[slip.model]
        assert point is not None
        detail = f"The position of {name} {self._wrong_at(slip.fault, point)}{hint}"
        return Refusal(POSITION_CODES[slip.fault], detail, field=field)

    def _wrong_at(self, fault: Fault, point: XY) -> str:
        match fault:
            case Fault.OFF_TABLE:
                return "is off the table."
            case Fault.NOT_WOODED:
                return f"is {self._ground_at(point)}: set-up models must be in jungle or woods."
            case Fault.NEAR_ENEMY:
                return (
                    'is within 1" of an enemy model: set-up models must be at least 1" from '
                    "every enemy model."
                )
            case Fault.ON_A_BASE:
                return "is on another model's base."
        raise AssertionError(fault)

    def _too_few(self, slip: Slip) -> str:
        sq = self.square
        left_out = (
            "list a model that cannot be set up anywhere among the casualties"
            if self.table_mode
            else "leave out a model that cannot be set up anywhere"
        )
        return (
            f"Only {slip.inside} of the {_count(slip.total)} set up are in {sq}: at least "
            f"{slip.need} must be. Set more up in {sq}, or {left_out}."
        )

    def _none_in_square(self, slip: Slip) -> str:
        detail = f"No model is set up in {self.square}: the first model must be set up there."
        if self.table_mode:
            return f"{detail} If none can be, list every model among the casualties."
        if slip.room is not None:
            return f"{detail} There is room in {self.square} at {self._at(slip.room)}."
        return f"{detail} {self._no_first_model()}"

    def _has_room(self, slip: Slip, name: str, proposed: tuple[XY | None, ...]) -> str:
        at = self._at(slip.room)
        if all(p is None for p in proposed):
            return (
                f"{_cap(name)} can be set up in {self.square}: there is room at {at}. A unit "
                "is lost only if no model of it can be set up in its square."
            )
        return (
            f"{_cap(name)} can still be set up: there is room for it at {at}. Only models "
            "that cannot be set up are removed."
        )

    def confirm(self, result: Setup) -> str:
        """Why a map set-up waits for its casualties to be confirmed (or not listed)."""
        lost = sorted(result.casualties)
        if not lost:
            return "No model is removed: every model is set up, so none is a casualty."
        if not result.placed:
            return (
                f"{self.unit} cannot be set up: {_en(self._why(Loss.NO_FIRST_MODEL, self.size))}. "
                f"Confirm to remove the whole unit, {_count(self.size)}, as casualties."
            )
        why = _en(self._why(result.casualties[lost[0]], len(lost)))
        them = "it" if len(lost) == 1 else "them"
        return (
            f"{_count(len(lost))} cannot be set up, {self.models(lost)}: {why}. Confirm to "
            f"remove {them} as casualties."
        )

    def _hint(self, slip: Slip, proposed: tuple[XY | None, ...]) -> str:
        if slip.room is not None:
            return f" There is room for it at {self._at(slip.room)}."
        earlier = [p for p in proposed[: slip.model] if p is not None]
        if slip.fault is not Fault.NOT_COHERENT and not earlier:
            return f" {self._no_first_model()}"
        return (
            " There is no legal position left for it: leave it out, and confirm it as a casualty."
        )

    def _no_first_model(self) -> str:
        return (
            f"No model can be set up in {self.square}{self._terrain()}: leave every model out, "
            "and confirm the whole unit as casualties."
        )

    # --- the words for it --------------------------------------------------------------------

    def _why(self, why: Loss, count: int) -> Say:
        """Why models could not be set up (``count`` of them): a clause of a sentence."""
        sq = self.square
        match why:
            case Loss.NO_FIRST_MODEL if self.table_mode:
                return say("no model of it could be set up in {square}", square=sq)
            case Loss.NO_FIRST_MODEL if self.wooded:
                return say(
                    'no model of it can be set up in {square} in jungle or woods, at least 1" '
                    "from enemy models",
                    square=sq,
                    rules=("DWV-A09",),
                )
            case Loss.NO_FIRST_MODEL:
                return say(
                    'no model of it can be set up in {square} at least 1" from enemy models',
                    square=sq,
                    rules=("DWV-A09",),
                )
            case Loss.TOO_MANY_OUTSIDE:
                return says(
                    "there is no room left for it in {square}, and at least half the unit must "
                    "be in {square}",
                    "there is no room left for them in {square}, and at least half the unit "
                    "must be in {square}",
                    count,
                    square=sq,
                    rules=("DWV-A08",),
                )
            case Loss.NO_ROOM if self.wooded:
                return says(
                    'there is no room left for it in jungle or woods, within 2" of the unit and '
                    '1" from enemy models',
                    'there is no room left for them in jungle or woods, within 2" of the unit '
                    'and 1" from enemy models',
                    count,
                )
            case Loss.NO_ROOM:
                return says(
                    'there is no room left for it, within 2" of the unit and 1" from enemy models',
                    'there is no room left for them, within 2" of the unit and 1" from enemy '
                    "models",
                    count,
                )
            case Loss.NOT_SET_UP:
                return says(
                    "you said it could not be set up", "you said they could not be set up", count
                )
        raise AssertionError(why)

    def _terrain(self) -> str:
        woods = " in jungle or woods," if self.wooded else ""
        return f'{woods} at least 1" from enemy models'

    def _ground_at(self, point: XY) -> str:
        if self._tabletop.in_open(point):
            return "open ground"
        kinds = sorted({t.kind for t in self._tabletop.features_at(point)})
        return f"in {' and '.join(kinds)}, not in jungle or woods"

    @staticmethod
    def _at(point: XY | None) -> str:
        return f"({round(point[0], 2):g}, {round(point[1], 2):g})" if point is not None else ""


def _en(said: Say) -> str:
    """A sentence in English, for a refusal's detail (fixed English words, errors.py)."""
    return speaker("grid-ambush").text(said)


def _count(n: int) -> str:
    return "1 model" if n == 1 else f"{n} models"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Told(Words):
    """What the owner and the others are told once a unit is set up: the lines of its
    event, models named as the owner knows them."""

    def owner_told(self, result: Setup) -> Say:
        """The owner: where the unit stands, and each model lost with the reason."""
        lost = sorted(result.casualties)
        if not result.placed:
            return say(
                "{unit} could not be set up: {why}. The whole unit, {models}, is removed as "
                "casualties.",
                unit=self.unit,
                why=self._why(result.casualties[0], self.size),
                models=story.models(self.size),
                rules=("DWV-R08", "DWV-A09"),
            )
        if not lost:
            return says(
                "{unit} is set up in {square}.",
                "{unit} is set up in {square}: all {n} models.",
                self.size,
                unit=self.unit,
                square=self.square,
                rules=("DWV-R08",),
            )
        by_reason: dict[Loss, list[int]] = {}
        for i in lost:
            by_reason.setdefault(result.casualties[i], []).append(i)
        removed: Say | None = None
        for why, indices in by_reason.items():
            group = say(
                N_("{models}, as {why}")
                if why is Loss.NOT_SET_UP
                else N_("{models}, because {why}"),
                models=[self.named(i) for i in indices],
                why=self._why(why, len(indices)),
            )
            removed = group if removed is None else say("{a}; {b}", a=removed, b=group)
        return say(
            "{unit} is set up in {square} with {placed} of its {models}. Removed as "
            "casualties: {removed}.",
            unit=self.unit,
            square=self.square,
            placed=len(result.placed),
            models=story.models(self.size),
            removed=removed,
            rules=("DWV-R08",),
        )

    def others_told(self, result: Setup) -> Say:
        """Everyone else: what the open table shows, the models that appear and how many
        could not be set up (never which, nor why)."""
        lost = len(result.casualties)
        if not result.placed:
            return say(
                "{unit} could not be set up in {square}: the whole unit, {models}, is removed "
                "as casualties.",
                unit=self.unit,
                square=self.square,
                models=story.models(self.size),
                rules=("DWV-R08", "DWV-A09"),
            )
        if not lost:
            return says(
                "{unit} appears in {square}.",
                "{unit} appears in {square}: {n} models set up.",
                len(result.placed),
                unit=self.unit,
                square=self.square,
                rules=("DWV-R08",),
            )
        return says(
            "{unit} appears in {square}: {placed} set up; {n} model could not be set up and "
            "was removed as a casualty.",
            "{unit} appears in {square}: {placed} set up; {n} models could not be set up and "
            "were removed as casualties.",
            lost,
            unit=self.unit,
            square=self.square,
            placed=story.models(len(result.placed)),
            rules=("DWV-R08",),
        )

    def named(self, i: int) -> str | Say:
        """A model by its name, or by its number too where its name is not its own."""
        name = self._models[i]["name"]
        if sum(m["name"] == name for m in self._models) == 1:
            return str(name)
        return say("model {n} ({model})", n=i + 1, model=name)
