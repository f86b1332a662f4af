"""``Say``: a sentence as data — a template, its arguments, and the rules it applies.

Templates are ``str.format`` strings in English; they are the catalogue's message ids, so
Babel's extractor finds them (keywords ``say``, ``says`` and ``N_``). Arguments are plain
values (a piece's name as the reader knows it, a number, a square) or further ``Say``
(a word that itself needs translating, such as "hit"). A ``Say`` is stored in events in its
JSON form, ``{"say": template, "args": {...}}``, so the log keeps the words' meaning, not one
language's rendering of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


def N_(template: str) -> str:
    """Mark a fixed string for the catalogue without translating it here (gettext's N_)."""
    return template


@dataclass(frozen=True)
class Say:
    template: str
    args: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None  # the template for counts other than one ("n" is the count)
    rules: tuple[str, ...] = ()  # RULES-SPEC ids the sentence applies: a tooltip, never text

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"say": self.template}
        if self.args:
            out["args"] = {k: to_json(v) for k, v in self.args.items()}
        if self.plural is not None:
            out["plural"] = self.plural
        if self.rules:
            out["rules"] = list(self.rules)
        return out


def say(template: str, /, *, rules: Sequence[str] = (), **args: Any) -> Say:
    return Say(template, args, rules=tuple(rules))


def says(singular: str, plural: str, n: int, /, *, rules: Sequence[str] = (), **args: Any) -> Say:
    """A sentence with a count: ``says("{n} model lost", "{n} models lost", 3)``."""
    return Say(singular, {"n": n, **args}, plural, tuple(rules))


def to_json(value: Any) -> Any:
    if isinstance(value, Say):
        return value.json()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


_PLAIN = frozenset({str, int, float, bool, type(None), Say})


def from_json(value: Any) -> Any:
    """A stored sentence back as a ``Say`` (any other value as it is)."""
    if type(value) in _PLAIN:  # most arguments: a name, a number (no ABC check: it is slow)
        return value
    if isinstance(value, Mapping) and isinstance(value.get("say"), str):
        args = {k: from_json(v) for k, v in (value.get("args") or {}).items()}
        return Say(value["say"], args, value.get("plural"), tuple(value.get("rules") or ()))
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value
