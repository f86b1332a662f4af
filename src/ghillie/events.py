"""Events: the source of truth. One accepted command makes exactly one event.

An event holds the command as given (referee only), the effects folded into the state, the
rolls made, and — separately, explicitly — what each side is told. Deny by default: a side
is told nothing of an event unless the rule that made it says so; the engine then gives that
side one fixed-shape line, the same for every such event (``{"event": "acted", "by": side}``),
so that the number of events, which every side can count, says nothing more than that a
command was accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ghillie.state import Facts, Level, Phase, Piece


# slots=True on the commonest effects, rolls and events: a live game holds hundreds of them
# (benchmarks/memory.py --part served), and a __dict__ costs about 40 bytes each.
@dataclass(frozen=True, slots=True)
class Place:
    """A piece comes into being (on the table, beside it, or only in its owner's notes)."""

    piece: Piece


@dataclass(frozen=True, slots=True)
class Update:
    """Merge facts into a piece; ``unset`` removes keys from either part."""

    id: str
    public: Facts = field(default_factory=dict)
    secret: Facts = field(default_factory=dict)
    unset: tuple[str, ...] = ()


@dataclass(frozen=True)
class Remove:
    id: str


@dataclass(frozen=True, slots=True)
class Know:
    """Set what ``side`` knows of piece ``id``: the only way knowledge changes."""

    side: str
    id: str
    level: Level
    facts: Facts = field(default_factory=dict)


@dataclass(frozen=True)
class SetPhase:
    phase: Phase


@dataclass(frozen=True, slots=True)
class BoardChange:
    """A change to the ruleset's own board as the record writes it: its kind's ``name`` and
    its fields. The ruleset folds the typed :class:`Change` it reads back from this."""

    name: str
    data: Facts = field(default_factory=dict)


@dataclass(frozen=True)
class Change:
    """One kind of change to a ruleset's own board: a frozen dataclass per kind, folded by
    type like the core's effects (``Ruleset.fold``), declared in ``Ruleset.board_changes``.
    ``name`` is the kind as the record writes it; the fields are its data."""

    name: ClassVar[str]

    def recorded(self) -> BoardChange:
        """The change as the record writes it (JSON: tuples and sets as lists, whole floats
        as ints), so that the change the live ruling folds is the one a replay folds."""
        return BoardChange(self.name, {f.name: _json(getattr(self, f.name)) for f in fields(self)})


def _json(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, frozenset | set):
        return sorted(_json(v) for v in value)
    return value


@dataclass(frozen=True)
class Open:
    """A rule shows side ``side`` facts of a piece as they were committed: the host opens
    those commitments to it (ghillie.fairness). Changes nothing in the state."""

    side: str
    id: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class OpenWindow:
    """A reaction window opens (:class:`ghillie.state.Window`): the engine waits for the
    answers of ``asks``, in that order — with a time ``limit``, until ``ends``."""

    name: str
    by: str
    asks: tuple[str, ...]
    about: Facts = field(default_factory=dict)
    limit: int | None = None
    ends: str | None = None


@dataclass(frozen=True)
class ExtendWindow:
    """The open window's time now ends at ``ends``: the host was down while it ran
    (``engine.extend``), and its clock does not run while nobody can answer."""

    ends: str


@dataclass(frozen=True)
class Answer:
    """``side`` answered the open window with ``answer`` (the command as given)."""

    side: str
    answer: Facts


@dataclass(frozen=True)
class CloseWindow:
    """Every side asked has answered: the window closes and the rules go on."""


Effect = (
    Place
    | Update
    | Remove
    | Know
    | SetPhase
    | BoardChange
    | Open
    | OpenWindow
    | ExtendWindow
    | Answer
    | CloseWindow
)


@dataclass(frozen=True, slots=True)
class Roll:
    """One die as it was rolled. ``face`` is what the die showed, ``value`` adds its bonus."""

    label: str
    die: str
    face: int
    value: int
    secret: bool  # rolled by the referee, shown only to the sides a rule names
    entered: bool  # a physical roll a player entered, not drawn by ghillie
    # The side that typed it in (an entered roll only): always its own die (ruling.py).
    by: str | None = None


# Weakly referable: view.py keeps each event's spoken lines as long as the event lives.
@dataclass(frozen=True, slots=True, weakref_slot=True)
class Event:
    seq: int
    side: str | None  # who gave the command; None for the event that creates the game
    command: Facts | None
    effects: tuple[Effect, ...]
    rolls: tuple[Roll, ...]
    told: Mapping[str, tuple[Facts, ...]]
    # When the host ruled it (ghillie.clock), recorded only for an event whose ruling read
    # the clock: a timed window opened, or its time ran out. Replays rule with it again.
    at: str | None = None
    # Fairness: commitments, roll contributions, the event's hash and the host's signature
    # (ghillie.fairness.ledger). Not part of the rules: the fold never reads it.
    fair: Facts | None = None


def acted(side: str | None) -> Facts:
    """The fixed-shape line a side gets for an event no rule told it about."""
    return {"event": "acted", "by": side}


# --- JSON form, for storage and export -------------------------------------------------


def effect_to_json(effect: Effect) -> dict[str, Any]:
    match effect:
        case Place(piece):
            return {"op": "place", "piece": piece_to_json(piece)}
        case Update(id, public, secret, unset):
            return {
                "op": "update",
                "id": id,
                "public": dict(public),
                "secret": dict(secret),
                "unset": list(unset),
            }
        case Remove(id):
            return {"op": "remove", "id": id}
        case Know(side, id, level, facts):
            return {"op": "know", "side": side, "id": id, "level": int(level), "facts": facts}
        case SetPhase(phase):
            return {"op": "phase", "phase": phase.value}
        case BoardChange(name, data):
            return {"op": "board", "name": name, "data": dict(data)}
        case Open(side, id, keys):
            return {"op": "open", "side": side, "id": id, "keys": list(keys)}
        case OpenWindow(name, by, asks, about, limit, ends):
            out: dict[str, Any] = {
                "op": "window",
                "name": name,
                "by": by,
                "asks": list(asks),
                "about": about,
            }
            if limit is not None:  # absent: no limit, as every record before limits was
                out |= {"limit": limit, "ends": ends}
            return out
        case ExtendWindow(ends):
            return {"op": "extend", "ends": ends}
        case Answer(side, answer):
            return {"op": "answer", "side": side, "answer": dict(answer)}
        case CloseWindow():
            return {"op": "close"}


def effect_from_json(data: Mapping[str, Any]) -> Effect:
    op = data["op"]
    if op == "place":
        return Place(piece_from_json(data["piece"]))
    if op == "update":
        return Update(data["id"], data["public"], data["secret"], tuple(data["unset"]))
    if op == "remove":
        return Remove(data["id"])
    if op == "know":
        return Know(data["side"], data["id"], Level(data["level"]), data["facts"])
    if op == "phase":
        return SetPhase(Phase(data["phase"]))
    if op == "board":
        return BoardChange(data["name"], data["data"])
    if op == "open":
        return Open(data["side"], data["id"], tuple(data["keys"]))
    if op == "window":
        return OpenWindow(
            data["name"],
            data["by"],
            tuple(data["asks"]),
            data["about"],
            data.get("limit"),
            data.get("ends"),
        )
    if op == "extend":
        return ExtendWindow(data["ends"])
    if op == "answer":
        return Answer(data["side"], data["answer"])
    if op == "close":
        return CloseWindow()
    raise ValueError(f"unknown effect op {op!r}")


def piece_to_json(piece: Piece) -> dict[str, Any]:
    return {
        "id": piece.id,
        "owner": piece.owner,
        "kind": piece.kind,
        "public": dict(piece.public),
        "secret": dict(piece.secret),
    }


def piece_from_json(data: Mapping[str, Any]) -> Piece:
    return Piece(data["id"], data["owner"], data["kind"], data["public"], data["secret"])


def roll_to_json(roll: Roll) -> dict[str, Any]:
    out: dict[str, Any] = {
        "label": roll.label,
        "die": roll.die,
        "face": roll.face,
        "value": roll.value,
        "secret": roll.secret,
        "entered": roll.entered,
    }
    if roll.entered:
        out["by"] = roll.by  # who typed it; ghillie's own dice carry no "by"
    return out


def roll_from_json(data: Mapping[str, Any], side: str | None) -> Roll:
    """A roll as recorded. One entered before the record named its typer (no ``by``) was
    typed by the side that gave the command: no other side could type a die then."""
    by = data.get("by", side if data["entered"] else None)
    return Roll(
        data["label"], data["die"], data["face"], data["value"], data["secret"], data["entered"], by
    )


def event_to_json(event: Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "side": event.side,
        "command": event.command,
        "effects": [effect_to_json(e) for e in event.effects],
        "rolls": [roll_to_json(r) for r in event.rolls],
        "told": {side: list(lines) for side, lines in event.told.items()},
        **({"at": event.at} if event.at is not None else {}),
        **({"fair": event.fair} if event.fair is not None else {}),
    }


def event_from_json(data: Mapping[str, Any]) -> Event:
    return Event(
        seq=data["seq"],
        side=data["side"],
        command=data["command"],
        effects=tuple(effect_from_json(e) for e in data["effects"]),
        rolls=tuple(roll_from_json(r, data["side"]) for r in data["rolls"]),
        told={side: tuple(lines) for side, lines in data["told"].items()},
        at=data.get("at"),
        fair=data.get("fair"),
    )
