"""A game told as text: what each side, the spectators and the referee read after each step.

The golden transcripts (``tests/golden/<ruleset>.txt``, written by ``scripts/golden``) and
``ghillie replay`` are made here, from the very views the pages draw
(:func:`ghillie.view.view`): a step's order in the words of the form the giver filled in,
with pieces named as the giver knows them, then per observer its status lines, the new
lines of its log, its pieces, what it knows of the enemy, the orders it may give and the
tokens of its map. A section unchanged since the observer was last shown it in full is
written "as at step N". Hashes, signatures, roots and openings are left out of the text: they
are the proof material, kept apart (:attr:`Told.proof`).

No piece id is ever written: a piece is named as its reader knows it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ghillie import engine, forms, registry
from ghillie.errors import Refusal
from ghillie.events import Event, event_from_json
from ghillie.state import REFEREE, SPECTATOR, GameState
from ghillie.words import Speaker, speaker

HEX_ID = re.compile(r"\b[0-9a-f]{32}\b")
UNKNOWN = "an unknown piece"
INDENT = "  "


@dataclass
class Told:
    """One step as text: its head (the order, its refusal, the caption) and, per observer,
    what that observer read; ``proof`` holds, per observer, the proof material of each new
    log entry (the side's receipt, hash, roots and openings; the referee's whole record)."""

    number: int
    head: list[str]
    parts: dict[str, list[str]] = field(default_factory=dict)
    proof: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [*self.head]
        for part in self.parts.values():
            out += ["", *part]
        return out


class Teller:
    """Tells one game step by step. Give it, after each step, the views of the observers to
    tell (each a whole view, or one whose log holds only the entries new since the last)."""

    def __init__(self, ruleset: str, side_names: Mapping[str, str], lang: str = "en") -> None:
        self.ruleset = registry.get(ruleset)
        self.words: Speaker = speaker(ruleset, lang)
        self.orders = forms.describe(self.ruleset, self.words)
        self.side_names = dict(side_names)
        self.before: dict[str, dict[str, Any]] = {}  # observer -> the last view it was shown
        self.seen: dict[str, int] = {}  # observer -> the last log entry it was shown
        self.sections: dict[tuple[str, str], tuple[list[str], int]] = {}
        self.names: dict[str, str] = {}  # every piece id named so far, as the referee knows it
        self.label = "Step"  # what a step is called: "Step" of a script, "Event" of a record

    # --- a step ------------------------------------------------------------------------

    def step(
        self,
        number: int,
        side: str | None,
        command: Mapping[str, Any] | None,
        views: Mapping[str, Mapping[str, Any]],
        *,
        caption: str = "",
        refusal: Refusal | None = None,
        giver: Mapping[str, Any] | None = None,
    ) -> Told:
        """``giver`` is the view the giver filled the order in from (by default the last
        one it was shown here)."""
        for view in views.values():
            self._learn(view)
        head = [f"{self.label} {number} · " + self._headline(side, command)]
        if command and side:
            head += [
                INDENT + line for line in self.order(command, giver or self.before.get(side or ""))
            ]
        if refusal is not None:
            detail = refusal.spoken(self.words)
            head.append(f"{INDENT}Refused ({refusal.code}): {detail}")
        if caption and caption != self._headline(side, command):
            head.append(f"{INDENT}Narrator: {caption}")
        told = Told(number, head)
        for observer, view in views.items():
            told.parts[observer] = self._observer(number, observer, view)
            proofs = [self._proof(observer, e) for e in self._new(observer, view)]
            if any(proofs):
                told.proof[observer] = [p for p in proofs if p]
            self.seen[observer] = max(
                [self.seen.get(observer, -1)] + [e["seq"] for e in view["log"]]
            )
            self.before[observer] = dict(view)
        return told

    def _headline(self, side: str | None, command: Mapping[str, Any] | None) -> str:
        if not command:
            return "The game is created."
        if not side:  # the host's own commands: a window's time-out, or its extension
            if command.get("type") == "extend":
                return "The host: it was down, and the time to answer is extended."
            return "The host: the time to answer ran out."
        return f"{self.side_name(side)}: {self.title(str(command.get('type', '')))}"

    def side_name(self, side: str) -> str:
        if side == SPECTATOR:
            return "Spectators"
        if side == REFEREE:
            return "Referee"
        return self.side_names.get(side, side)

    def title(self, name: str) -> str:
        found = self.orders.get(name)
        return str(found["title"]) if found else name

    def _learn(self, view: Mapping[str, Any]) -> None:
        for piece in [*view.get("pieces", []), *view.get("known", [])]:
            if view.get("you") == REFEREE or piece["id"] not in self.names:
                self.names[piece["id"]] = piece["name"]

    # --- an order, as its giver reads it ------------------------------------------------

    def order(self, command: Mapping[str, Any], giver: Mapping[str, Any] | None) -> list[str]:
        """The fields of an order as the form the giver filled in words them: its labels,
        the choices' words, pieces by the names the giver knows them by."""
        name = str(command.get("type", ""))
        fields: Mapping[str, Any] = self.orders.get(name, {}).get("fields", {})
        offered: Mapping[str, Any] = next(
            (c for c in (giver or {}).get("commands", []) if c["type"] == name), {}
        )
        choices = {
            path: {_key(c["value"]): c["label"] for c in found}
            for path, found in offered.get("choices", {}).items()
        }
        # A piece the giver cannot see (an order that names one it should not know of) is
        # named as the referee knows it, and said to be unseen.
        names = {pid: f"{name} (unseen by the giver)" for pid, name in self.names.items()}
        for piece in [*(giver or {}).get("pieces", []), *(giver or {}).get("known", [])]:
            names[piece["id"]] = piece["name"]
            # A piece may be named by a handle (lookup.HANDLES), public or, for the giver's
            # own pieces, in its secret facts (ambush-fields names a ship by its key).
            for part in ("public", "secret"):
                for handle in ("key", "label"):
                    value = (piece.get(part) or {}).get(handle)
                    if isinstance(value, str) and value:
                        names.setdefault(value, piece["name"])
        reader = _Reader(self.words, fields, choices, names)
        return reader.group({k: v for k, v in command.items() if k != "type"}, "")

    # --- what one observer read ---------------------------------------------------------

    def _observer(self, number: int, observer: str, view: Mapping[str, Any]) -> list[str]:
        out = [f"── {self.side_name(observer)} read:"]
        out += [f"{INDENT}Status: {line}" for line in view.get("status", [])]
        if view.get("your_move"):
            out.append(f"{INDENT}Your move.")
        else:
            waiting = [self.side_name(s) for s in view.get("waiting_for", [])]
            out.append(
                INDENT
                + (f"Waiting for {', '.join(waiting)}." if waiting else "Waiting for nobody.")
            )
        new = self._new(observer, view)
        lines = [line for entry in new for line in self._log_lines(observer, entry)]
        out.append(f"{INDENT}New in the log:" if lines else f"{INDENT}New in the log: nothing.")
        out += [INDENT * 2 + line for line in lines]
        if observer == REFEREE:
            sections = [
                ("pieces", "Every piece", self._referee_pieces(view)),
                ("known", "What each side knows", self._knowledge(view)),
            ]
        elif observer == SPECTATOR:
            sections = [
                ("known", "Pieces every side sees", [_piece(p) for p in view.get("known", [])])
            ]
        else:
            sections = [
                ("pieces", "Your pieces", [_piece(p) for p in view.get("pieces", [])]),
                ("known", "Enemy pieces you know of", [_known(p) for p in view.get("known", [])]),
                ("orders", "Orders you may give", self._offered(view)),
            ]
        if "map" in view:
            sections.append(
                (
                    "map",
                    "On your map" if observer in self.side_names else "On the map",
                    _tokens(view["map"]),
                )
            )
        for key, title, body in sections:
            out += self._section(number, observer, key, title, body)
        return out

    def _section(
        self, number: int, observer: str, key: str, title: str, body: list[str]
    ) -> list[str]:
        last = self.sections.get((observer, key))
        if last is not None and last[0] == body:
            return [f"{INDENT}{title}: as at {self.label.lower()} {last[1]}."]
        self.sections[(observer, key)] = (body, number)
        if not body:
            return [f"{INDENT}{title}: none."]
        return [f"{INDENT}{title}:", *(INDENT * 2 + line for line in body)]

    def _new(self, observer: str, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        after = self.seen.get(observer, -1)
        return [e for e in view.get("log", []) if e["seq"] > after]

    def _log_lines(self, observer: str, entry: Mapping[str, Any]) -> list[str]:
        if observer != REFEREE:
            return [_said(s) for s in entry.get("said", []) if s.get("text")]
        out = []
        for roll in entry.get("rolls", []):
            how = (
                f" (typed in by {self.side_name(roll['by'])})"
                if roll["entered"]
                else " (secret)"
                if roll["secret"]
                else ""
            )
            bonus = f", {roll['value']} with its bonus" if roll["value"] != roll["face"] else ""
            out.append(f"Roll {roll['label']}: {roll['die']} showed {roll['face']}{bonus}{how}")
        # Those told the same lines are named together: "To everyone" when all were.
        groups: dict[tuple[str, ...], list[str]] = {}
        for side, said in entry.get("said", {}).items():
            lines = tuple(_said(s) for s in said if s.get("text"))
            if lines:
                groups.setdefault(lines, []).append(side)
        everyone = {*self.side_names, SPECTATOR}
        for lines, sides in groups.items():
            who = "everyone" if set(sides) >= everyone else ", ".join(map(self.side_name, sides))
            out += [f"To {who}: {line}" for line in lines]
        return out

    def _proof(self, observer: str, entry: Mapping[str, Any]) -> dict[str, Any] | None:
        found = entry.get("fair") if observer == REFEREE else entry.get("proof")
        return {"seq": entry["seq"], **found} if found else None

    def _referee_pieces(self, view: Mapping[str, Any]) -> list[str]:
        return [f"{self.side_name(p['owner'])} · {_piece(p)}" for p in view.get("pieces", [])]

    def _knowledge(self, view: Mapping[str, Any]) -> list[str]:
        out = []
        for side, known in view.get("knowledge", {}).items():
            for pid, k in known.items():
                facts = "; ".join(f"{key} {_plain(v, self.names)}" for key, v in k["facts"].items())
                name = self.names.get(pid, UNKNOWN)
                out.append(
                    f"{self.side_name(side)} knows {name}: {k['level']}"
                    + (f" ({facts})" if facts else "")
                )
        return out

    def _offered(self, view: Mapping[str, Any]) -> list[str]:
        out = []
        for command in view.get("commands", []):
            fields = self.orders.get(command["type"], {}).get("fields", {})
            asked = [
                f"{_label(fields, path)}: "
                + (" | ".join(c["label"] for c in found) or "nothing to choose")
                for path, found in command.get("choices", {}).items()
            ]
            title = self.title(command["type"])
            out.append(f"{title} ({'; '.join(asked)})" if asked else title)
        return out


# --- a game from its record (ghillie replay) ------------------------------------------


def tell_record(record: Mapping[str, Any]) -> Iterator[Told]:
    """A finished game's record told event by event, every secret shown: the referee's
    view after each event, which holds what each side was told."""
    from ghillie.game import load_scenario
    from ghillie.view import project

    scenario = load_scenario(record["scenario"])
    ruleset = registry.get(scenario.ruleset)
    names = {s.id: s.name for s in scenario.sides}
    teller = Teller(scenario.ruleset, names)
    teller.label = "Event"
    state: GameState[Any, Any] = engine.empty(ruleset, scenario)
    for raw in record["events"]:
        event: Event = event_from_json(raw)
        giver = None
        if event.side in state.sides:
            giver = project(state, [], event.side)
        state = engine.replay_one(state, event)
        view = project(state, [event], REFEREE)
        yield teller.step(event.seq, event.side, event.command, {REFEREE: view}, giver=giver)


# --- words ---------------------------------------------------------------------------


class _Reader:
    """Reads a command's fields back in the words of its form."""

    def __init__(
        self,
        words: Speaker,
        fields: Mapping[str, Any],
        choices: Mapping[str, Mapping[str, str]],
        names: Mapping[str, str],
    ) -> None:
        self.words = words
        self.fields = fields
        self.choices = choices
        self.names = names

    def group(self, values: Mapping[str, Any], prefix: str) -> list[str]:
        out: list[str] = []
        for key, value in values.items():
            if value is None:
                continue  # a field left empty (a record holds every field of the command)
            path = f"{prefix}{key}"
            label = _label(self.fields, path)
            if isinstance(value, Mapping):
                inner = self.group(value, f"{path}.")
                out += [f"{label}:", *(INDENT + line for line in inner)] if inner else []
            elif isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
                out.append(f"{label}:")
                for n, item in enumerate(value, start=1):
                    inner = self.group(item, f"{path}.") or ["(empty)"]
                    lead = f"{n}. "
                    out.append(INDENT + lead + inner[0])
                    out += [INDENT + " " * len(lead) + line for line in inner[1:]]
            else:
                out.append(f"{label}: {self.value(path, value)}")
        return out

    def value(self, path: str, value: Any, *, entry: bool = False) -> str:
        ask = self.fields.get(path, {})
        kind = ask.get("kind")
        # A list field's value is its entries ("item"), even two numbers that look like a
        # point (two typed dice); an entry of it may be a point (a waypoint).
        listed = ask.get("item") and not entry
        if isinstance(value, list) and (listed or not _point(value)):
            return ", ".join(self.value(path, v, entry=True) for v in value) if value else "none"
        if path in self.choices and _key(value) in self.choices[path]:
            return self.choices[path][_key(value)]
        options = {_key(o["value"]): o["label"] for o in ask.get("options", [])}
        if _key(value) in options:
            return str(options[_key(value)])
        if kind in ("piece", None) and isinstance(value, str) and value in self.names:
            return self.names[value]
        if isinstance(value, bool):
            return self.words.text(value)
        return _plain(value, self.names)


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _label(fields: Mapping[str, Any], path: str) -> str:
    found = fields.get(path)
    if found:
        return str(found["label"])
    return path.rsplit(".", 1)[-1].replace("_", " ").capitalize()


def _point(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _plain(value: Any, names: Mapping[str, str]) -> str:
    """A value in plain words: points as (x, y), numbers without a needless ".0", piece ids
    as the names they stand for."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None or value == "":
        return "—"
    if _point(value):
        return f"({_number(value[0])}, {_number(value[1])})"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, list):
        return ", ".join(_plain(v, names) for v in value) if value else "none"
    if isinstance(value, Mapping):
        return "; ".join(f"{k} {_plain(v, names)}" for k, v in value.items())
    return HEX_ID.sub(lambda m: names.get(m.group(0), UNKNOWN), str(value))


def _said(said: Mapping[str, Any]) -> str:
    rules = said.get("rules") or []
    return str(said["text"]) + (f" [{', '.join(rules)}]" if rules else "")


def _piece(piece: Mapping[str, Any]) -> str:
    details = "; ".join(f"{d['label']}: {d['value']}" for d in piece.get("details", []))
    return " — ".join(part for part in (piece["name"], piece.get("about", ""), details) if part)


def _known(piece: Mapping[str, Any]) -> str:
    return _piece({**piece, "name": f"{piece['name']} ({piece['level']})"})


def _tokens(drawn: Mapping[str, Any]) -> list[str]:
    out = []
    for token in drawn.get("tokens", []):
        at = token["at"]
        where = f"hex {at}" if isinstance(at, str) else _plain(at, {})
        heading = f", heading {token['heading']}" if token.get("heading") else ""
        if token.get("facing") is not None:
            heading += f", facing {token['facing']:g}°"
        if token.get("arc") and token["arc"][1] < 360:
            heading += f", weapon arc {token['arc'][1]:g}° toward {token['arc'][0]:g}°"
        out.append(f"{token['label']} at {where}{heading}")
    return out


def text(told: Sequence[Told], title: Sequence[str] = ()) -> str:
    """The whole story as one text: a title, then the steps apart by a blank line."""
    out = [*title]
    for step in told:
        out += ["", "═" * 78, *step.lines()]
    return "\n".join(out).strip("\n") + "\n"
