"""A ruleset's orders as the players read them: titles, help, and what each field asks for.

A ruleset declares one :class:`Order` per command, in its own folder, as data: the words a
player reads and, for each field, what kind of answer it takes — a piece chosen from the
pieces that field may name now, a place on the table (a square, a hex or a point), a named
choice, a number with its unit, a flag, some text — and whether it belongs at a real table
or on a map only. The pages draw every form from this and from the command's JSON Schema,
so they know no ruleset.

What may change as the game goes on — which commands apply now, which pieces a field may
name, the values a form starts from — comes in each side's view (:func:`offered`), built
only from what that side can see.

Field paths are dotted field names with list positions left out: ``orders.unit`` is the
``unit`` of every entry of ``orders``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from ghillie.words import N_, Say, Speaker
from ghillie.words.rulebook import rule_lines

if TYPE_CHECKING:
    from ghillie.ruleset import Ruleset
    from ghillie.state import GameState

Kind = Literal["piece", "place", "choice", "number", "text", "flag", "group", "list", "hidden"]
Where = Literal["square", "hex", "point"]
Mode = Literal["table", "map"]


# slots=True on the choices: each reader's last view in a live game holds dozens of them
# (benchmarks/memory.py --part served), and a __dict__ costs about 40 bytes each.
@dataclass(frozen=True, slots=True)
class Choice:
    """One answer a field may take: the value sent, the words shown, and the values it fills
    in elsewhere in the form (by field path relative to the choice's own group) when
    picked — choosing a ship starts its move from where it stands."""

    value: Any
    label: str | Say
    fills: Mapping[str, Any] = field(default_factory=dict)
    # Offered only while these other fields of its group hold these values: the models of
    # the unit chosen, not every unit's.
    when: Mapping[str, Any] = field(default_factory=dict)
    # What choosing it would cost, shown beside the field once it is chosen (a unit whose
    # move voids its own standing order): the side's own business, from its own pieces.
    warn: tuple[str | Say, ...] = ()

    def json(self, speaker: Speaker) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value, "label": speaker.text(self.label)}
        if self.fills:
            out["fills"] = dict(self.fills)
        if self.when:
            out["when"] = dict(self.when)
        if self.warn:
            out["warn"] = [speaker.text(w) for w in self.warn]
        return out


Chooser = Callable[["GameState[Any, Any]", str], list[Choice]]
Defaults = Callable[["GameState[Any, Any]", str], Mapping[str, Any]]
# Whether an order applies now to any of the side's own pieces (a sniper's covert move, while
# the unit activated is a squad, does not): from what the side can see, like its choices.
Applies = Callable[["GameState[Any, Any]", str], bool]
# Words beside some fields that depend on the game now (how many dice a roll takes, and
# whose), by field path: from what the side can see, like its choices.
Notes = Callable[["GameState[Any, Any]", str], Mapping[str, "str | Say | None"]]


@dataclass(frozen=True)
class Ask:
    """What one field of an order asks for."""

    label: str
    help: str = ""
    kind: Kind | None = None  # None: read from the schema (number, flag, text, group, list)
    pieces: Chooser | None = None  # kind "piece": the pieces the field may name now
    options: tuple[tuple[Any, str], ...] = ()  # kind "choice": value and words, in order
    where: Where | None = None  # kind "place"
    # A point that must lie on a line of the map (maps.Line.name): the page moves a tap
    # there onto the nearest point of that line, when the map shows it.
    snap: str = ""
    unit: str = ""  # a number's unit, in words ("inches")
    only: Mode | None = None  # shown only at a real table, or only on a map
    # Dice rolled at the table and typed in: shown only in a game that takes them
    # (Scenario.typed_dice).
    typed: bool = False
    item: str = ""  # kind "list": what one entry is called ("order", "marker")
    # Asked only while other fields of its group hold one of these values (an Attack's
    # numbers only for an Attack): the page hides the field otherwise, and leaves it out.
    when: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # A place being planned is drawn on the map as it is entered (issue 25). ``line``: a list
    # of points joined in order (a path, a gap, a street), not points apart (a unit's
    # models). ``starts``: the piece field of its group, or of a group around it, whose
    # piece the place is reached from (a unit's path, a ship's move): drawn from it.
    line: bool = False
    starts: str = ""

    def json(self, speaker: Speaker) -> dict[str, Any]:
        kind = self.kind or ("piece" if self.pieces else "choice" if self.options else None)
        out: dict[str, Any] = {"label": speaker.word(self.label)}
        if kind:
            out["kind"] = kind
        if self.help:
            out["help"] = speaker.word(self.help)
        if self.options:
            out["options"] = [{"value": v, "label": speaker.word(w)} for v, w in self.options]
        for key in ("where", "snap", "only", "typed", "line", "starts"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.unit:
            out["unit"] = speaker.word(self.unit)
        if self.item:
            out["item"] = speaker.word(self.item)
        if self.when:
            out["when"] = {name: list(values) for name, values in self.when.items()}
        return out


@dataclass(frozen=True)
class Order:
    """A command as a player reads it."""

    title: str
    help: str = ""
    fields: Mapping[str, Ask] = field(default_factory=dict)
    confirm: str = ""  # asked before sending, for a command that cannot be taken back
    only: Mode | None = None
    defaults: Defaults | None = None  # the values the form starts from, from the side's view
    notes: Notes | None = None  # words beside fields, from the side's view now
    # Offered only while it applies (None: whenever the turn structure allows it). The rules
    # still refuse it, with a code of their own, if it is given anyway.
    applies: Applies | None = None
    rules: tuple[str, ...] = ()  # RULES-SPEC ids: a tooltip beside the title, never text

    def json(self, speaker: Speaker) -> dict[str, Any]:
        out: dict[str, Any] = {
            "title": speaker.word(self.title),
            "fields": {path: ask.json(speaker) for path, ask in self.fields.items()},
        }
        if self.help:
            out["help"] = speaker.word(self.help)
        if self.confirm:
            out["confirm"] = speaker.word(self.confirm)
        if self.only:
            out["only"] = self.only
        if self.rules:
            out["rules"] = list(self.rules)
            out["rule_lines"] = rule_lines(self.rules, speaker)  # the § tooltip
        return out


def order(ruleset: Ruleset[Any, Any], name: str) -> Order:
    """The words of one command (a ruleset must declare every command's: test_forms)."""
    found = ruleset.orders.get(name)
    return found if found is not None else Order(title=name.replace("_", " ").capitalize())


def describe(ruleset: Ruleset[Any, Any], speaker: Speaker) -> dict[str, Any]:
    """Every command of a ruleset as the pages draw it: schema, words and secret fields."""
    return {
        name: {
            **order(ruleset, name).json(speaker),
            **({"odds": True} if ruleset.has_odds(name) else {}),
            **({"anytime": True} if model.anytime else {}),
            "phases": sorted(p.value for p in model.phases),
            "secret_fields": sorted(model.secret_fields),
            "schema": model.model_json_schema(),
        }
        for name, model in ruleset.commands.items()
    }


def paths(model: type[BaseModel]) -> set[str]:
    """Every field path of a command, nested models and lists included (for the tests that
    hold each ruleset to describing every field)."""
    found: set[str] = set()
    _walk(model, "", found)
    found.discard("type")
    return found


def _walk(model: type[BaseModel], prefix: str, found: set[str]) -> None:
    for name, info in model.model_fields.items():
        path = f"{prefix}{name}"
        found.add(path)
        for inner in models_in(info.annotation):
            _walk(inner, f"{path}.", found)


def models_in(annotation: Any) -> list[type[BaseModel]]:
    """The models a field's annotation holds (``tuple[Order, ...]``: ``Order``)."""
    import typing

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in models_in(arg)]


def measured(path: str = "measured") -> dict[str, Ask]:
    """The words of :class:`ghillie.measure.Measured`, which players enter at a real table
    (a map measures for itself)."""
    return {
        path: Ask(
            N_("Measured at the table"),
            N_(
                "Measure with the tape and look across the table; leave out what you agree "
                "does not matter."
            ),
            only="table",
        ),
        f"{path}.range": Ask(N_("Range"), unit=N_("inches")),
        f"{path}.cover": Ask(
            N_("Cover"),
            options=(("none", N_("none")), ("soft", N_("soft")), ("hard", N_("hard"))),
        ),
        f"{path}.line_of_sight": Ask(N_("Line of sight")),
    }


def entered(path: str, dice: Mapping[str, str]) -> dict[str, Ask]:
    """The words of a command's physical rolls: dice rolled at the table and typed in."""
    out = {
        path: Ask(
            N_("Dice rolled at the table"),
            N_("Leave this closed and ghillie rolls; open it to type in dice you rolled."),
            typed=True,
        )
    }
    for name, label in dice.items():
        out[f"{path}.{name}"] = Ask(label)
    return out
