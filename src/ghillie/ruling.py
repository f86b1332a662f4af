"""A ruling in progress: what a ruleset's ``resolve`` hook writes one command's event with.

Each effect is folded into the working state as soon as it is added, so a rule can read the
consequences of what it has just done; the live state and a replay of the log use the same
fold. Knowledge changes only through :meth:`Ruling.reveal`; a side learns something only
through :meth:`Ruling.tell`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ghillie.clock import later
from ghillie.dice.steps import Die
from ghillie.errors import BAD_ROLL, NOT_YOUR_DIE, Refusal
from ghillie.events import (
    Answer,
    Change,
    CloseWindow,
    Effect,
    Event,
    ExtendWindow,
    Know,
    Open,
    OpenWindow,
    Place,
    Remove,
    Roll,
    SetPhase,
    Update,
    acted,
)
from ghillie.fold import fold_effect
from ghillie.state import REFEREE, SPECTATOR, Facts, GameState, Level, Phase, Piece, Window
from ghillie.words import says
from ghillie.words.say import to_json

if TYPE_CHECKING:
    from ghillie.dice.source import DiceSource
    from ghillie.ids import IdSource
    from ghillie.ruleset import Ruleset
    from ghillie.scenario import Scenario

S = TypeVar("S", bound="Scenario")
B = TypeVar("B")


class Ruling(Generic[S, B]):
    def __init__(
        self,
        state: GameState[S, B],
        side: str | None,
        dice: DiceSource,
        ids: IdSource,
        entered: Mapping[str, int] | None = None,
        *,
        now: str | None = None,
        acting: str | None = None,
    ) -> None:
        """``side`` gave the command (None: the game's creation, or the host's time-out);
        ``acting`` is the side whose order goes on — ``side``, or for a time-out the side
        whose order the window interrupted. ``now`` is the host's time (ghillie.clock), for
        a ruling that reads it."""
        self.state = state
        self.ruleset: Ruleset[S, B] = state.ruleset
        self.side = side
        self.acting = acting if acting is not None else side
        self._now = now
        self._read_clock = False
        self._dice = dice
        self._ids = ids
        self._entered = dict(entered or {})
        self._used_entries: set[str] = set()
        self._effects: list[Effect] = []
        self._rolls: list[Roll] = []
        self._told: dict[str, list[Facts]] = {}

    # --- reading ------------------------------------------------------------------------

    @property
    def board(self) -> B:
        return self.state.board

    @property
    def scenario(self) -> S:
        return self.state.scenario

    def piece(self, piece_id: str) -> Piece:
        return self.state.pieces[piece_id]

    # --- effects ------------------------------------------------------------------------

    def _add(self, effect: Effect) -> None:
        self._effects.append(effect)
        self.state = fold_effect(self.state, effect)

    def new_id(self) -> str:
        return self._ids.new_id()

    def clock(self) -> str:
        """The host's time for this ruling (ghillie.clock); the event records it. Raises
        ValueError if the ruling was given none (a replay of a record that lacks it)."""
        if self._now is None:
            raise ValueError("this ruling reads the clock, and was given no time")
        self._read_clock = True
        return self._now

    def place(self, piece: Piece, known: Mapping[str, Level] | None = None) -> Piece:
        """Create a piece. No other side knows of it unless ``known`` says so."""
        piece = replace(piece, public=_plain(piece.public), secret=_plain(piece.secret))
        self._add(Place(piece))
        for side, level in (known or {}).items():
            self.reveal(piece.id, side, level)
        return piece

    def update(
        self,
        piece_id: str,
        *,
        public: Facts | None = None,
        secret: Facts | None = None,
        unset: tuple[str, ...] = (),
    ) -> Piece:
        self._add(Update(piece_id, _plain(dict(public or {})), _plain(dict(secret or {})), unset))
        return self.state.pieces[piece_id]

    def remove(self, piece_id: str) -> None:
        self._add(Remove(piece_id))

    def reveal(self, piece_id: str, to: str, level: Level, facts: Facts | None = None) -> None:
        """Set what side ``to`` knows of a piece (DESIGN.md: ``reveal(piece, to, level)``)."""
        self._add(Know(to, piece_id, level, dict(facts or {})))

    def open(self, piece_id: str, to: str, *keys: str) -> None:
        """Show side ``to`` that these secret facts of a piece are what was committed before
        this event: for a rule that reveals them (the piece's owner gets nothing)."""
        if self.state.pieces[piece_id].owner != to:
            self._add(Open(to, piece_id, keys))

    def set_phase(self, phase: Phase) -> None:
        self._add(SetPhase(phase))

    def change(self, change: Change) -> None:
        """Change the ruleset's own board (one of its ``board_changes``)."""
        self._add(change.recorded())

    # --- reaction windows (engine.py owns them) --------------------------------------------

    def open_window(
        self,
        name: str,
        *,
        about: Facts | None = None,
        asks: tuple[str, ...] | None = None,
        limit: int | None = None,
    ) -> None:
        """Open the reaction window ``name`` (one of the ruleset's ``reactions``): the game
        now waits for the sides in ``asks`` to answer, in that order — by default every
        other side, in turn order from the acting side. Who is asked must follow from the
        turn structure and public facts alone, never from a side's secrets: being asked is
        itself something the asked side and everyone watching learn.

        With ``limit`` (whole seconds), the sides asked have that long from now, after
        which the host answers for each one still awaited with the reaction's ``default``
        (``engine.time_out``). The limit is public, like the window: give every prompt of a
        kind the same one, or its length says what being asked cannot."""
        by = self.acting
        assert by is not None, "the game's first event opens no window"
        if asks is None:
            sides = self.state.sides
            start = sides.index(by)
            asks = tuple(s for s in sides[start + 1 :] + sides[:start])
        ends = None
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
                raise ValueError("a window's time limit is a whole number of seconds, at least 1")
            if self.ruleset.reactions[name].default is None:
                raise ValueError(f"reaction {name!r} has a time limit and no default answer")
            ends = later(self.clock(), limit)
        self._add(OpenWindow(name, by, asks, dict(about or {}), limit, ends))

    def extend_window(self, ends: str) -> None:
        """Move the open timed window's end to ``ends`` (``engine.extend``)."""
        self._add(ExtendWindow(ends))

    def answer_window(self, side: str, answer: Facts) -> Window | None:
        """The engine records ``side``'s answer; the window, if that was the last answer
        awaited, closes and is returned with every answer, for the ruleset to go on."""
        self._add(Answer(side, answer))
        window = self.state.window
        assert window is not None
        if window.awaiting is not None:
            return None
        self._add(CloseWindow())
        return window

    def close_window(self) -> None:
        """Close the open window unanswered: the game ended while it waited (engine.py)."""
        self._add(CloseWindow())

    # --- what each side is told -----------------------------------------------------------

    def tell(self, side: str, line: Facts) -> None:
        """Tell ``side`` one line: facts, and its ``text`` as a :class:`~ghillie.words.Say`
        (kept as data, spoken in each reader's language when a view is built)."""
        self._told.setdefault(side, []).append(_stored(line))

    def tell_each(self, line: Facts, sides: tuple[str, ...] | None = None) -> None:
        # Stored once, each side given its own copy of the line (as _tell_typed does): the
        # audit rules on every event again, and most lines go to every side.
        stored = _stored(line)
        for side in sides if sides is not None else self.state.sides:
            self._told.setdefault(side, []).append(dict(stored))

    def tell_public(self, line: Facts) -> None:
        """Tell every side and the spectators: for facts that lie open on the table."""
        self.tell_each(line, (*self.state.sides, SPECTATOR))

    # --- dice ------------------------------------------------------------------------------

    def roll(
        self,
        label: str,
        die: Die,
        *,
        secret: bool = False,
        of: str | None = None,
        typed: str | None = None,
    ) -> int:
        """Roll ``die`` and record it. ``of`` is the side whose die it is: the side whose
        trooper or unit rolls it (None: no side's, as a die ghillie rolls for a marker).

        A die a command may carry typed in (a physical die rolled at the table) has the name
        it is typed under, ``typed``; without one, ghillie always rolls it. Only the side
        that gives the command types dice, and only its own: a typed die of another side
        is refused (``not_your_die``), whatever the die turns out to be for, so the refusal
        says nothing of any piece. A secret roll is always ghillie's own."""
        if typed is not None and typed in self._entered:
            if of is None or of != self.side:
                raise Refusal(
                    NOT_YOUR_DIE, "Type in only your own side's dice: ghillie rolls the others."
                )
            if not secret:
                face = self._entered[typed]
                if not 1 <= face <= die.faces:
                    raise Refusal(BAD_ROLL, "An entered roll cannot show on the die it is for.")
                self._used_entries.add(typed)
                value = face + die.plus
                self._rolls.append(Roll(label, str(die), face, value, secret, True, self.side))
                return value
        face = self._dice.roll(die.faces)
        value = face + die.plus
        self._rolls.append(Roll(label, str(die), face, value, secret, False))
        return value

    def typed_left(self) -> int:
        """How many of the dice the command typed in no roll has taken (yet)."""
        return len(set(self._entered) - self._used_entries)

    def _tell_typed(self) -> None:
        """Every side and the table screen read who typed which dice in, after the event's
        other lines: a typed die is the typer's word, not a draw from every party's chain.
        Typed dice are open rolls, which every side reads anyway."""
        faces = [str(r.face) for r in self._rolls if r.by is not None]
        if not faces:
            return
        assert self.side is not None
        text = says(
            "{side} typed in {n} die rolled at the table: {dice}.",
            "{side} typed in {n} dice rolled at the table: {dice}.",
            len(faces),
            side=self.state.scenario.side_name(self.side),
            dice=", ".join(faces),
        )
        line = {"event": "typed", "by": self.side, "text": to_json(text)}
        for observer in (*self.state.sides, SPECTATOR):
            self._told.setdefault(observer, []).append(dict(line))

    # --- the event -----------------------------------------------------------------------

    def finish(self, seq: int, command: Facts | None) -> Event:
        if set(self._entered) - self._used_entries:
            raise Refusal(BAD_ROLL, "An entered roll is for a die this command does not roll.")
        self._tell_typed()
        told = {side: tuple(lines) for side, lines in self._told.items() if side != REFEREE}
        for side in (*self.state.sides, SPECTATOR):
            told.setdefault(side, (acted(self.side),))
        at = self._now if self._read_clock else None
        return Event(seq, self.side, command, tuple(self._effects), tuple(self._rolls), told, at)


def _stored(line: Facts) -> dict[str, Any]:
    """A line as an event stores it: sentences as data, whole floats as ints."""
    return {k: _plain(to_json(v)) for k, v in line.items()}


def _plain(value: Any) -> Any:
    """``value`` with every whole float as an int (60.0 as 60): the record's canonical JSON
    writes them so, and a state folded from the record must equal the state as ruled, or
    the audit's replay would find another ruling (a ruleset's metres are floats)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
