"""suspicious-places: camouflage, observation, lone figures and snipers (Стальная война).

RULES-SPEC §3 (SW-*). Camouflaged squads wait off the table under one of the d6
"suspicious place" markers their owner laid out; observation with step dice flips or removes
markers; firing at a marker may flush out what it hides; mines and IEDs sit under markers
too; snipers hide under three markers of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ghillie.dice.check import Check
from ghillie.dice.steps import Die
from ghillie.events import Change
from ghillie.maps import MapView
from ghillie.ruleset import Command, Rule, Ruleset, SecretWords
from ghillie.state import Facts, Piece
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

from . import activation, bookkeeping, movement, observation, setup, shooting, sniper, words
from .acting import may_act
from .board import MARKER, SNIPER_MARKER, UNIT, Board, Face, Rules, State, Status, board_view
from .candidates import candidates
from .changes import CHANGES, fold
from .commands import (
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
from .map import map_view
from .odds import ODDS, odds
from .scenario import SuspiciousPlacesScenario, UnitKind


class SuspiciousPlaces(Ruleset[SuspiciousPlacesScenario, Board]):
    id = "suspicious-places"
    map_reads = ("pieces", "knowledge")  # pieces and what is known of them, no board
    title = N_("Стальная война: camouflage, observation, lone figures and snipers")
    summary = N_("Squads hide under d6 suspicious-place markers; step-dice observation finds them.")
    map_modes = ("table", "map")
    scenario_model = SuspiciousPlacesScenario
    rules: ClassVar[Mapping[type[Command], Rule]] = {
        PlaceMarkers: setup.place_markers,
        Hide: setup.hide,
        PlaceSniper: setup.place_sniper,
        Ready: setup.ready,
        Activate: activation.activate,
        Pass: activation.pass_turn,
        EndActivation: activation.end_activation,
        Observe: observation.observe,
        Fire: shooting.fire,
        Move: movement.move,
        CovertMove: sniper.covert,
        Rehide: sniper.rehide,
        OtherAction: activation.other_action,
        Suppress: bookkeeping.suppress,
        Morale: bookkeeping.morale,
        RemovePanic: bookkeeping.remove_panic,
        Join: bookkeeping.join,
        Leave: bookkeeping.leave,
        EndGame: bookkeeping.end_game,
    }
    board_changes: ClassVar[tuple[type[Change], ...]] = CHANGES
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

    def setup(self, ruling: Rules, scenario: SuspiciousPlacesScenario) -> None:
        setup.create_units(ruling, scenario)
        setup.roll_marker_pool(ruling, scenario)

    def may_act(self, state: State, side: str, command: type[Command]) -> bool:
        return may_act(state, side, command)

    def fold(self, board: Board, change: Change) -> Board:
        return fold(board, change)

    def table_view(self, scenario: SuspiciousPlacesScenario) -> dict[str, Any]:
        return scenario.table_view

    def board_view(self, state: State, observer: str) -> dict[str, Any]:
        return board_view(state, observer)

    def odds(self, state: State, side: str, command: Command) -> Check[Any] | None:
        return odds(state, side, command)

    def describe(self, state: State, observer: str, piece: Piece) -> PieceWords:
        return words.describe(state, observer, piece)

    def status(self, state: State, observer: str) -> list[str | Say]:
        return words.status(state, observer)

    def map_view(self, state: State, observer: str) -> MapView | None:
        return map_view(state, observer)

    def candidates(self, state: State, side: str) -> list[Facts]:
        return candidates(state, side)


__all__ = ["MARKER", "SNIPER_MARKER", "UNIT", "Face", "Status", "SuspiciousPlaces"]
