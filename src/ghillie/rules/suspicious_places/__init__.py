"""suspicious-places: camouflage, observation, lone figures and snipers (Стальная война).

RULES-SPEC §3 (SW-*). Camouflaged squads wait off the table under one of the d6
"suspicious place" markers their owner laid out; observation with step dice flips or removes
markers; firing at a marker may flush out what it hides; mines and IEDs sit under markers
too; snipers hide under three markers of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from ghillie.dice.check import Check
from ghillie.dice.source import RandomDice
from ghillie.dice.steps import Die, StepDie, not_a_die
from ghillie.events import BoardChange
from ghillie.ids import RandomIds
from ghillie.maps import MapView
from ghillie.measure.tabletop import Cover
from ghillie.ruleset import Command, OddsQuery, Params, Ruleset, SecretWords, param_error
from ghillie.ruling import Ruling
from ghillie.state import REFEREE, Facts, GameState, Phase, Piece
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

from . import activation, bookkeeping, checks, movement, observation, setup, shooting, sniper, words
from .board import MARKER, SNIPER_MARKER, UNIT, Board, Face, Status, fold
from .commands import (
    ACTIONS,
    BOOKKEEPING,
    COMMANDS,
    Activate,
    CovertMove,
    EndActivation,
    EndGame,
    Fire,
    Hide,
    Join,
    Leave,
    Morale,
    Move,
    Observe,
    OtherAction,
    Pass,
    PlaceMarkers,
    PlaceSniper,
    Ready,
    Rehide,
    RemovePanic,
    Suppress,
)
from .scenario import (
    MEANS,
    Leadership,
    SuspiciousPlacesScenario,
    SuspiciousPlacesSwitches,
    UnitKind,
)

# --- odds queries: the same checks the rules roll ----------------------------------------------

# SW-R13: what a player may give as the observation means: its name, or its die.
MeansText = Literal["eyes", "binoculars", "stereo", "electronic", "d4", "d6", "d8", "d10"]
MEANS_WORDS = {str(die): name for name, die in MEANS.items()}
MEANS_NAMES = {"d4": "eyes", "d6": "binoculars", "d8": "a stereo telescope", "d10": "electronic"}


def _means_die(value: Any) -> str:
    """An observation means as its die: ``eyes`` or ``d4`` → ``d4``; a means the game does
    not have (``d12``, ``radar``) is refused with those it has."""
    if isinstance(value, str):
        text = value.strip().lower().replace("к", "d")
        if text in MEANS:
            return str(MEANS[text])
        if text in MEANS_WORDS:
            return text
    raise not_a_die(
        value,
        tuple(f"{name} ({die})" for name, die in MEANS.items()),
        what="an observation means",
    )


Means = Annotated[MeansText, BeforeValidator(_means_die)]
# Defaults are words too ("eyes"): validate them, so that a query left at its default holds
# the die as one given does.
CHECKED_DEFAULTS = ConfigDict(extra="forbid", frozen=True, validate_default=True)


class ObserveParams(Params):
    model_config = CHECKED_DEFAULTS

    range: float = Field(ge=0, le=1000, description="inches from the observer to the marker")
    cover: Cover = Field(Cover.NONE, description="cover the marker lies in: none, soft or hard")
    quality: StepDie = Field("d8", description="the observing squad's quality die (regular = d8)")
    means: Means = Field("eyes", description="eyes, binoculars, stereo, electronic (or its die)")
    lone: bool = Field(False, description="the target is a lone figure (SW-A09)")
    sniper: bool = Field(False, description="the observer is a hidden sniper (a 1 betrays it)")


class FireParams(Params):
    model_config = CHECKED_DEFAULTS

    range: float = Field(ge=0, le=1000, description="inches from the shooter to the target")
    cover: Cover = Field(Cover.NONE, description="cover the target lies in: none, soft or hard")
    quality: StepDie = Field("d8", description="the shooter's quality die")
    weapon: StepDie = Field("d6", description="the weapon die")
    lone: bool = Field(False, description="the target is a lone figure outside a squad (+1 step)")
    sniper: bool = Field(False, description="the shooter is a sniper (double zones)")
    hidden: bool = Field(False, description="the sniper shoots from hiding (a 1 betrays it)")

    @model_validator(mode="after")
    def _only_a_sniper_hides(self) -> FireParams:
        if self.hidden and not self.sniper:
            raise param_error(
                self,
                "hidden",
                "only_a_sniper",
                "only a sniper shoots from hiding (SW-R33): give --sniper as well",
            )
        return self


class CovertMoveParams(Params):
    model_config = CHECKED_DEFAULTS

    quality: StepDie = Field("d8", description="the sniper's quality die")
    leadership: Leadership = Field(
        description="the sniper's own leadership: a number from 1 to 12, or a die d4 to d12"
    )


class MarkersParams(Params):
    units: int = Field(1, ge=1, le=6, description="camouflaged units (d6 markers each)")


def _observe_check(p: ObserveParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    target = checks.observation_die(p.range, p.cover, sw, lone=p.lone)
    return checks.observation(target, Die.parse(p.quality), Die.parse(p.means), sniper=p.sniper)


def _fire_check(p: FireParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    quality = Die.parse(p.quality)
    target = checks.fire_die(p.range, p.cover, quality, sw, sniper=p.sniper, lone=p.lone)
    return checks.shot(target, quality, Die.parse(p.weapon), sniper=p.sniper and p.hidden)


def _covert_check(p: CovertMoveParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    leadership = Die.parse(p.leadership) if isinstance(p.leadership, str) else p.leadership
    return checks.covert_move(Die.parse(p.quality), leadership, sw.leadership_die)


def _markers_check(p: MarkersParams, sw: SuspiciousPlacesSwitches) -> Check[Any]:
    return checks.marker_count(p.units, Die.parse(sw.markers_per_unit))


# --- what each query's odds are of, in players' words ----------------------------------------


def _where(distance: float, cover: Cover) -> str:
    lies = {Cover.NONE: "in the open", Cover.SOFT: "in soft cover", Cover.HARD: "in hard cover"}
    return f'{distance:g}" away {lies[cover]}'


def _dice(check: Check[Any]) -> dict[str, str]:
    return {label: str(die) for label, die in check.dice}


def _observe_title(p: ObserveParams, check: Check[Any]) -> str:
    dice = _dice(check)
    who = "A hidden sniper observing" if p.sniper else "Observing"
    what = "a lone figure" if p.lone else "a marker"
    return (
        f"{who} {what} {_where(p.range, p.cover)}: its range die {dice['target']} against "
        f"quality {dice['quality']} and {MEANS_NAMES[dice['means']]} {dice['means']}"
    )


def _fire_title(p: FireParams, check: Check[Any]) -> str:
    dice = _dice(check)
    who = "A hidden sniper's shot" if p.hidden else "A sniper's shot" if p.sniper else "A shot"
    what = "a lone figure" if p.lone else "a target"
    return (
        f"{who} at {what} {_where(p.range, p.cover)}: its range die {dice['target']} against "
        f"quality {dice['quality']} and weapon {dice['weapon']}"
    )


def _covert_title(p: CovertMoveParams, check: Check[Any]) -> str:
    dice = _dice(check)
    if "leadership" in dice:
        against = f"its leadership die {dice['leadership']}"
    elif isinstance(p.leadership, str):
        against = f"its leadership {p.leadership}, counted as {check.args[0]}"
    else:
        against = f"its leadership {p.leadership}"
    return f"A sniper's covert move: quality {dice['quality']} to roll higher than {against}"


def _markers_title(p: MarkersParams, check: Check[Any]) -> str:
    die = str(check.dice[0][1])
    if p.units == 1:
        return f"Suspicious-place markers for one camouflaged unit: {die}"
    return f"Suspicious-place markers for {p.units} camouflaged units: {die} each, pooled"


def _markers(n: int) -> str:
    return "1 marker" if n == 1 else f"{n} markers"


# Every total the marker dice can show: up to six units of the largest die a scenario may set.
MARKER_LABELS = {str(n): _markers(n) for n in range(1, 6 * 12 + 1)}

ODDS = {
    q.name: q
    for q in (
        OddsQuery(
            "observe",
            "An observation test (SW-R10..R14): the marker's range die against quality + means.",
            ObserveParams,
            _observe_check,
            {
                "nothing": N_("nothing (no change)"),
                "flipped": N_("flipped (one die higher)"),
                "revealed": N_("revealed (both dice higher)"),
                "betrayed_nothing": N_("sniper betrayed, nothing seen"),
                "betrayed_flipped": N_("sniper betrayed, one die higher"),
            },
            title=_observe_title,
            rules="SW-R10..R14, SW-R35",
        ),
        OddsQuery(
            "fire",
            "A shot (SW-R15, R21, R30, R32): the target's range die against quality + weapon.",
            FireParams,
            _fire_check,
            {
                "miss": N_("miss (no die higher)"),
                "partial": N_("partial (one die higher)"),
                "full": N_("full success (both dice higher)"),
                "betrayed_miss": N_("sniper betrayed, miss"),
                "betrayed_partial": N_("sniper betrayed, one die higher"),
            },
            title=_fire_title,
            rules="SW-R15, SW-R21, SW-R30, SW-R32, SW-R35, SW-A17",
        ),
        OddsQuery(
            "covert-move",
            "A sniper's covert move (SW-R36): quality die higher than its own leadership.",
            CovertMoveParams,
            _covert_check,
            {
                "success": N_("success"),
                "failure": N_("failure"),
                "betrayed": N_("betrayed (rolled 1)"),
            },
            title=_covert_title,
            rules="SW-R36, SW-R35, SW-A11",
        ),
        OddsQuery(
            "markers",
            "Suspicious-place markers for camouflaged units (SW-R02): d6 each, pooled.",
            MarkersParams,
            _markers_check,
            MARKER_LABELS,
            title=_markers_title,
            rules="SW-R02, SW-A04",
        ),
    )
}


class SuspiciousPlaces(Ruleset[SuspiciousPlacesScenario, Board]):
    id = "suspicious-places"
    title = N_("Стальная война: camouflage, observation, lone figures and snipers")
    summary = N_("Squads hide under d6 suspicious-place markers; step-dice observation finds them.")
    map_modes = ("table", "map")
    scenario_model = SuspiciousPlacesScenario
    commands = COMMANDS
    orders = words.ORDERS
    odds_queries = ODDS
    # What a marker hides is recorded once, in the event every side sees (SW-R03/R04), and
    # never rewritten: its opening proves that event. A sniper marker's "true" is not fixed:
    # a covert move changes it (SW-R36).
    fixed_secrets = frozenset({"content", "unit"})
    secret_words: ClassVar[Mapping[str, SecretWords]] = {
        "content": SecretWords(
            N_("What {piece} hides"),
            (
                ("unit", N_("a unit")),
                ("mine", N_("a mine")),
                ("ied", N_("an improvised explosive device")),
                ("nothing", N_("nothing")),
            ),
        ),
        "unit": SecretWords(N_("The unit {piece} hides")),
        "true": SecretWords(
            N_("What {piece} hides"),
            ((True, N_("the sniper")), (False, N_("nothing: a false sniper marker"))),
        ),
    }

    def secret_facts(self, scenario: SuspiciousPlacesScenario) -> int:
        # A unit: its marker, hidden suppression and a note (a sniper's). A suspicious-place
        # marker: its group, content, unit and note, and at most the largest marker roll of
        # every unit plus the scenario's extras are laid (SW-R02). A sniper lies under
        # three markers with one "true" fact each; when it hides again (SW-R37) the old
        # three were removed, and a removed piece's facts give their slots back.
        die = Die.parse(scenario.switches.markers_per_unit)
        most = die.faces + die.plus
        bound: Counter[str] = Counter()
        for unit in scenario.units:
            bound[unit.side] += 3 + 4 * most + (3 if unit.kind is UnitKind.SNIPER else 0)
        for side in bound:
            bound[side] += 4 * scenario.extra_markers
        return max(bound.values(), default=0)

    def new_board(self, scenario: SuspiciousPlacesScenario) -> Board:
        return Board()

    def setup(self, ruling: Ruling[Any, Board], scenario: SuspiciousPlacesScenario) -> None:
        setup.create_units(ruling, scenario)
        setup.roll_marker_pool(ruling, scenario)

    def may_act(self, state: GameState[Any, Board], side: str, command: type[Command]) -> bool:
        board = state.board
        scenario = state.scenario
        assert isinstance(scenario, SuspiciousPlacesScenario)
        if state.phase is Phase.SETUP:
            if side in board.ready:
                return False
            if command is PlaceMarkers:
                # Unpooled (SW-A04), all of a side's markers come in one order (setup.py).
                return board.pool.get(side, 0) > 0 and (
                    scenario.switches.pooled_markers or not state.owned(side, MARKER)
                )
            if command is Hide:
                return (
                    side == scenario.camouflage_side()
                    and side in board.pool
                    and side not in board.hidden
                )
            if command is PlaceSniper:
                return any(_unplaced_sniper(state, u) for u in state.owned(side, UNIT))
            return command is Ready
        name = command.model_fields["type"].default
        if name in BOOKKEEPING:
            return True
        if side != board.active:
            return False
        if command in (Activate, Pass):
            return board.activation is None
        return board.activation is not None and (name in ACTIONS or command is EndActivation)

    def resolve(self, ruling: Ruling[Any, Board], command: Command) -> None:
        scenario = ruling.state.scenario
        assert isinstance(scenario, SuspiciousPlacesScenario)
        side = ruling.side
        assert side is not None
        match command:
            case PlaceMarkers():
                setup.place_markers(ruling, scenario, side, command)
            case Hide():
                setup.hide(ruling, scenario, side, command)
            case PlaceSniper():
                setup.place_sniper(ruling, scenario, side, command)
            case Ready():
                setup.ready(ruling, scenario, side)
            case Activate():
                activation.activate(ruling, scenario, side, command)
            case Pass():
                activation.pass_turn(ruling, scenario, side, command)
            case EndActivation():
                activation.end_activation(ruling, scenario, side, command)
            case Observe():
                observation.observe(ruling, scenario, side, command)
            case Fire():
                shooting.fire(ruling, scenario, side, command)
            case Move():
                movement.move(ruling, scenario, side, command)
            case CovertMove():
                sniper.covert(ruling, scenario, side, command)
            case Rehide():
                sniper.rehide(ruling, scenario, side, command)
            case OtherAction():
                activation.other_action(ruling, scenario, side, command)
            case Suppress():
                bookkeeping.suppress(ruling, scenario, side, command)
            case Morale():
                bookkeeping.morale(ruling, scenario, side, command)
            case RemovePanic():
                bookkeeping.remove_panic(ruling, scenario, side, command)
            case Join():
                bookkeeping.join(ruling, scenario, side, command)
            case Leave():
                bookkeeping.leave(ruling, scenario, side, command)
            case EndGame():
                bookkeeping.end_game(ruling, scenario, side, command)
            case _:
                raise AssertionError(command)

    def fold(self, board: Board, change: BoardChange) -> Board:
        return fold(board, change)

    def table_view(self, scenario: SuspiciousPlacesScenario) -> dict[str, Any]:
        return scenario.table_view

    def board_view(self, state: GameState[Any, Board], observer: str) -> dict[str, Any]:
        scenario = state.scenario
        assert isinstance(scenario, SuspiciousPlacesScenario)
        board = state.board
        out: dict[str, Any] = {
            "ready": sorted(board.ready),
            "turn": board.turn,
            "active": board.active,
            "activation": (
                {"unit": board.activation.unit, "actions_left": board.activation.actions}
                if board.activation
                else None
            ),
            "activated": sorted(board.activated),
            "passes": board.passes,
        }
        # The marker pool and its rolls are the owner's own business.
        if observer == REFEREE:
            out["markers_to_place"] = dict(board.pool)
        elif observer in board.pool:
            out["markers_to_place"] = board.pool[observer]
            out["marker_rolls"] = dict(board.rolls.get(observer, {}))
        return out

    def odds(self, state: GameState[Any, Board], side: str, command: Command) -> Check[Any] | None:
        scenario = state.scenario
        assert isinstance(scenario, SuspiciousPlacesScenario)
        if state.board.activation is None or side != state.board.active:
            return None
        # The same planning as the roll itself, on a ruling that is never finished.
        ruling = Ruling(state, side, RandomDice(), RandomIds())
        match command:
            case Observe():
                return observation.plan(ruling, scenario, side, command).check
            case Fire():
                return shooting.plan(ruling, scenario, side, command).check
            case CovertMove():
                return sniper.plan_covert(ruling, scenario, side, command)[3]
        return None

    def describe(self, state: GameState[Any, Board], observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: GameState[Any, Board], observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def map_view(self, state: GameState[Any, Board], observer: str) -> MapView | None:
        from .map import map_view

        return map_view(state, observer)

    def candidates(self, state: GameState[Any, Board], side: str) -> list[Facts]:
        from .candidates import candidates

        return candidates(state, side)


def _unplaced_sniper(state: GameState[Any, Board], unit: Any) -> bool:
    return bool(
        unit.public["unit_kind"] == UnitKind.SNIPER
        and unit.public["status"] == Status.HIDDEN
        and not any(
            p.kind == SNIPER_MARKER and p.public["sniper"] == unit.id for p in state.pieces.values()
        )
    )


__all__ = ["MARKER", "SNIPER_MARKER", "UNIT", "Face", "Status", "SuspiciousPlaces"]
