"""What a ruleset is: data about itself, typed commands, and a few narrow hooks.

The engine owns the invariants — the game is running, the side may act now, the command is
well-formed — and checks them once for every ruleset before any hook runs. A ruleset never
re-checks them. See docs/architecture.md.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

from ghillie.bounds import Bounded
from ghillie.dice.check import Check
from ghillie.events import BoardChange, Change
from ghillie.forms import Order
from ghillie.maps import MapView
from ghillie.ruling import Ruling
from ghillie.scenario import Scenario
from ghillie.state import Facts, GameState, Phase, Piece, Window
from ghillie.words import N_, Say
from ghillie.words.piece import PieceWords

S = TypeVar("S", bound=Scenario)
B = TypeVar("B")
C = TypeVar("C", bound="Command")


class Command(Bounded):
    """A command a side gives. Subclasses set ``type`` to a ``Literal`` of their name.

    Every string, number and list in it is bounded (:mod:`ghillie.bounds`): the parts of a
    command (an order, a marker's place) subclass :class:`~ghillie.bounds.Bounded` too."""

    phases: ClassVar[frozenset[Phase]] = frozenset({Phase.PLAY})
    # A command a side may give at any time its phase allows (end the game), even while a
    # reaction window waits: offering it does not mean the game waits for that side.
    anytime: ClassVar[bool] = False
    # The fields that carry a secret (which square, which marker, a private note): they never
    # reach another side, and two commands that differ only in them must look the same to it.
    secret_fields: ClassVar[frozenset[str]] = frozenset()

    type: str

    def entered_rolls(self) -> Mapping[str, int]:
        """Physical rolls entered with the command, by label (open rolls only)."""
        if "rolls" not in type(self).model_fields:
            return {}
        rolls = getattr(self, "rolls", None)
        if isinstance(rolls, BaseModel):
            return {k: v for k, v in rolls.model_dump().items() if v is not None}
        return {}


class Params(BaseModel):
    """The parameters of an odds query, in the rule text's own words."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def param_error(
    params: BaseModel, name: str, code: str, message: str, **ctx: Any
) -> ValidationError:
    """The refusal of parameter ``name`` by a model validator that weighs several at once
    (a fighter's range, a flag only a sniper may set): raised, it names ``name`` as a field's
    own check would, so the command line can say which option is wrong. ``message`` is a
    format string over ``ctx``."""
    error = PydanticCustomError(code, message, ctx or None)
    return ValidationError.from_exception_data(
        type(params).__name__,
        [InitErrorDetails(type=error, loc=(name,), input=getattr(params, name))],
    )


@dataclass(frozen=True)
class OddsQuery:
    """``ghillie odds <ruleset> <name> --param ...``: the exact odds of one check.

    ``check`` builds the very :class:`Check` the rules roll, from the parameters and the
    ruleset's switches (defaults unless a scenario is given). A parameter the rules cannot
    have (a d7, a range past the longest there is) is refused by ``params`` itself, so the
    check is only ever built for a situation that can arise in a game.
    """

    name: str
    help: str
    params: type[Params]
    check: Callable[[Any, Any], Check[Any]]
    labels: Mapping[str, str]  # outcome value -> the words a player reads
    # ``--plot FILE``: a chart of this check's odds across one parameter, every other
    # parameter as given (path, params, switches).
    plot: Callable[[Path, Any, Any], Path] | None = None
    # What the odds are of, in players' words, from the parameters and the check built:
    # "Observing a marker 30" away in soft cover: ...". No RULES-SPEC ids: those are ``rules``.
    title: Callable[[Any, Check[Any]], str] = field(kw_only=True)
    rules: str = field(kw_only=True)  # the RULES-SPEC ids the check follows, e.g. "SW-R10..R14"


@dataclass(frozen=True)
class SecretWords:
    """One secret fact a rule may open to another side, as its players name it, for the
    line a side's page writes when it checks the opening: ``what`` names the fact of a
    piece (``"What {piece} hides"``), and ``values`` word the values that are not shown as
    they are (``("mine", "a mine")``). Both are marked with ``N_`` and spoken in the
    reader's language."""

    what: str
    values: tuple[tuple[Any, str], ...] = ()


@dataclass(frozen=True)
class Reaction:
    """A reaction window a ruleset's rules may open (``Ruling.open_window``): the command
    that answers it, and the sentence every page shows while it waits (``N_``, with
    ``{side}`` for the side awaited), as a pending roll shows whom it waits for.

    A window opened with a time limit needs ``default``: the answer command's fields that
    the host gives for a side whose time runs out (``{"fire": False}``: hold fire; recorded
    as its answer without ``resolve``, so one the rules always accept), and
    ``timed_out``, what every side is then told (``N_``, with ``{side}``)."""

    answer: str  # the name of the command that answers the window
    waiting: str  # "{side} is declaring AROs."
    default: Mapping[str, Any] | None = None  # the answer given when the time runs out
    timed_out: str = N_("Time ran out: {side} did not answer.")


# A rule function: what one command does, given the ruling, the side that gave it and the
# command, typed (``Ruleset.rules``).
Rule = Callable[[Ruling[Any, Any], str, Any], None]


@functools.cache  # asked for every command of every view by a ruleset's turn structure
def command_name(model: type[Command]) -> str:
    """A command's name: its ``type`` field's one value."""
    name = model.model_fields["type"].default
    assert isinstance(name, str), f"{model.__name__} has no default type"
    return name


# The parts of a GameState that change as a game moves on (seq aside: the count of events).
STATE_PARTS = ("board", "phase", "pieces", "knowledge", "window")


class Ruleset(ABC, Generic[S, B]):
    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    map_modes: ClassVar[tuple[str, ...]]
    scenario_model: ClassVar[type[Scenario]]
    # Each command's rule function, by the command's class: the one dispatch table from
    # which ``commands`` is derived and by which ``resolve`` rules.
    rules: ClassVar[Mapping[type[Command], Rule]] = {}
    commands: ClassVar[Mapping[str, type[Command]]] = {}
    # Each kind of change to the board, as its frozen dataclass (ghillie.events.Change),
    # and (derived) each kind by the name the record writes.
    board_changes: ClassVar[tuple[type[Change], ...]] = ()
    _changes: ClassVar[Mapping[str, type[Change]]] = {}
    # Each command in the players' words, and what each of its fields asks for (forms.py).
    orders: ClassVar[Mapping[str, Order]] = {}
    odds_queries: ClassVar[Mapping[str, OddsQuery]] = {}
    # The secret keys whose value never changes once written (an ambush's square, what a
    # marker hides). An opening of such a fact also proves the event that wrote it, so a
    # side sees that the square was fixed before it moved (docs/fairness.md). Declare a key
    # only if the event that writes it is one every side knows of (the orders written down,
    # the markers' contents recorded): the proof names that event. Writing such a key of a
    # piece a second time is a bug, and the ledger raises (ghillie.fairness.roster).
    fixed_secrets: ClassVar[frozenset[str]] = frozenset()
    # The secret facts a rule may open to another side, in the players' words, by key; every
    # fixed key among them (the pages then demand its proof of its write).
    secret_words: ClassVar[Mapping[str, SecretWords]] = {}
    # The reaction windows its rules open, by name. While one is open the engine lets only
    # its answer be given, by the side awaited (and any-time orders by anyone); a window's
    # answer command can be given at no other time.
    reactions: ClassVar[Mapping[str, Reaction]] = {}
    # The parts of a game's state ``map_view`` draws from (of STATE_PARTS; the scenario and
    # the sides never change). The view draws a reader's map again only when one of them is
    # a new object (a state's parts are replaced, never changed, as it moves on): a ruleset
    # whose map reads no board need not draw it for every turn of the board. Declaring too
    # few is a bug that tests/test_map_reads.py finds.
    map_reads: ClassVar[tuple[str, ...]] = STATE_PARTS

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "rules" in cls.__dict__:
            cls.commands = {command_name(model): model for model in cls.rules}
        cls._changes = {change.name: change for change in cls.board_changes}

    @abstractmethod
    def new_board(self, scenario: S) -> B:
        """The ruleset's board before the first event."""

    @abstractmethod
    def setup(self, ruling: Ruling[S, B], scenario: S) -> None:
        """Create the scenario's pieces: the game's first event."""

    @abstractmethod
    def secret_facts(self, scenario: S) -> int:
        """At most how many secret facts — one ``(piece, key)`` of a piece's secret part —
        one side can hold at once in a game of this scenario. It sizes every side's roster
        (:mod:`ghillie.fairness.capacity`); the contract tests hold random games to it."""

    @abstractmethod
    def may_act(self, state: GameState[S, B], side: str, command: type[Command]) -> bool:
        """May ``side`` give a command of this type now? (whose turn, whose activation)"""

    def validate(self, state: GameState[S, B], side: str, command: Command) -> None:
        """Raise a Refusal if the rules forbid this command; the default forbids nothing."""

    def resolve(self, ruling: Ruling[S, B], command: Command) -> None:
        """Write the command's effects, rolls and what each side is told: the command's rule
        function (``rules``), given the side that gave it."""
        assert ruling.side is not None, "only a side's command is resolved"
        self.rules[type(command)](ruling, ruling.side, command)

    def close(self, ruling: Ruling[S, B], window: Window) -> None:
        """Every side asked has answered ``window`` (its ``answers``, by side): go on with
        the order it interrupted. Runs in the event of the last answer."""
        raise NotImplementedError(f"{self.id} opens no reaction window")

    def fold(self, board: B, change: Any) -> B:
        """``board`` after one of its changes (one of ``board_changes``)."""
        raise ValueError(f"{self.id} has no board change {change.name!r}")

    def fold_recorded(self, board: B, change: BoardChange) -> B:
        """``board`` after a change as the record writes it: read back as its typed kind."""
        kind = self._changes.get(change.name)
        if kind is None:
            raise ValueError(f"{self.id} has no board change {change.name!r}")
        return self.fold(board, kind(**change.data))

    def table_view(self, scenario: S) -> dict[str, Any]:
        """The table as every side sees it (size, terrain, grid): it never changes in a
        game, so it is sent once, not with every update."""
        return {}

    def board_view(self, state: GameState[S, B], observer: str) -> dict[str, Any]:
        """The ruleset's state of play in ``observer``'s view, built from what it may see."""
        return {}

    def odds(self, state: GameState[S, B], side: str, command: Command) -> Check[Any] | None:
        """The check ``command`` would roll if ``side`` gave it now, built exactly as
        ``resolve`` would build it and only from what that side knows; None if it rolls no
        dice. May raise the Refusal the command would get."""
        return None

    def has_odds(self, command: str) -> bool:
        """May :meth:`odds` give a check for this command (the page then shows its odds
        while the order is being given)? By default: an odds query is named after it."""
        return any(q.name.replace("-", "_") == command for q in self.odds_queries.values())

    def odds_labels(self, command: Command) -> Mapping[str, str]:
        """The words of each outcome of the check :meth:`odds` gives for ``command``: by
        default those of the odds query named after the command (``covert-move`` prices
        ``covert_move``)."""
        return next(
            (
                q.labels
                for q in self.odds_queries.values()
                if q.name.replace("-", "_") == command.type
            ),
            {},
        )

    def describe(self, state: GameState[S, B], observer: str, piece: Piece) -> PieceWords:
        """``piece`` in words as ``observer`` knows it (its own, another side's it knows of,
        or any piece for the referee): built only from what that observer may see."""
        p = piece.public
        return PieceWords(p.get("name") or p.get("label") or p.get("key") or piece.kind)

    def map_view(self, state: GameState[S, B], observer: str) -> MapView | None:
        """``observer``'s map (ghillie.maps), from what it may see; None: no map to draw."""
        return None

    def status(self, state: GameState[S, B], observer: str) -> list[str | Say]:
        """Where the game stands, in a few sentences for ``observer`` (turn, phase, whose
        move, what is awaited), from what it may see."""
        return []

    def candidates(self, state: GameState[S, B], side: str) -> list[Facts]:
        """Commands that ``side`` could sensibly give now, built only from what that side
        knows. Used by the contract tests' random games and by clients to offer choices."""
        return []
