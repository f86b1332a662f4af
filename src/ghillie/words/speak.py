"""Speaking a ``Say`` in one language, with the catalogues of the core and of a ruleset."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypeVar

from babel.lists import format_list
from babel.numbers import format_decimal

from ghillie.words import possessive
from ghillie.words.catalog import SOURCE, languages, translations
from ghillie.words.say import N_, Say, from_json


@dataclass(frozen=True)
class Speaker:
    """Speaks sentences for one reader: the language negotiated for one ruleset."""

    lang: str
    domain: str  # the ruleset's id: its own catalogue first, then the core's

    def text(self, value: Any) -> str:
        """Words for a value: a ``Say`` (or its stored JSON form), a list (joined as the
        language joins lists: "A, B and C"), a number (a fraction as the language writes
        it: 23.5, 23,5), or a string as it is."""
        if type(value) is str:  # the most common value by far: nothing to turn back
            return value
        if type(value) is Say:  # the next most common: no stored form to turn back
            return self._say(value)
        value = from_json(value)
        if isinstance(value, Say):
            return self._say(value)
        if isinstance(value, (list, tuple)):
            return self.join([self.text(v) for v in value])
        if isinstance(value, bool):
            return self.word(N_("yes")) if value else self.word(N_("no"))
        if isinstance(value, float):
            # A measurement: 30, 23.5 — or 23,5 where the language writes it so.
            return format_decimal(round(value, 1), format="0.#", locale=self.lang)
        return "" if value is None else str(value)

    def word(self, message: str) -> str:
        """A fixed string marked with ``N_`` (a label, a help line, a refusal's detail)."""
        return _gettext(self.lang, self.domain, message)

    def join(self, items: Sequence[str]) -> str:
        return format_list(list(items), locale=self.lang) if items else ""

    def _say(self, said: Say) -> str:
        if said.plural is not None:
            template = _ngettext(
                self.lang, self.domain, said.template, said.plural, int(said.args["n"])
            )
        else:
            template = _gettext(self.lang, self.domain, said.template)
        args = {k: self.text(v) for k, v in said.args.items()}
        try:
            return _fill(template, args)
        except (KeyError, IndexError, ValueError):
            # A translation that names an argument the sentence lacks must not lose the line:
            # say it in English instead.
            return _fill(
                said.plural if said.plural and said.args.get("n") != 1 else said.template, args
            )

    def speak(self, value: Any) -> Any:
        """Every ``Say`` inside a structure (a view being built) turned into text."""
        if isinstance(value, Say):
            return self._say(value)
        if isinstance(value, Mapping):
            return {k: self.speak(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.speak(v) for v in value]
        return value


# A message's translation never changes while the server runs: looked up once (every view
# speaks its status lines, forms and map), not through the catalogue's fallbacks each time.
# Bounded: the messages are the catalogues' own, but a count makes a key of its own.
@lru_cache(maxsize=8192)
def _gettext(lang: str, domain: str, message: str) -> str:
    return translations(lang, domain).gettext(message)


@lru_cache(maxsize=8192)
def _ngettext(lang: str, domain: str, singular: str, plural: str, n: int) -> str:
    return translations(lang, domain).ngettext(singular, plural, n)


def _fill(template: str, args: Mapping[str, str]) -> str:
    # str.format_map, not string.Formatter: the same format, at C speed (every line of the
    # log is spoken for every view). "{side}'s" takes the possessive: "Nomads' page".
    template, args = possessive.fill(template, args)
    return template.format_map(args)


T = TypeVar("T")


def worded(spoken: dict[str, Any] | None, part: str, value: T, word: Callable[[T], Any]) -> Any:
    """A part of a view in words: as worded last time for this reader if the rules drew it
    the same (comparing what the rules drew costs a fraction of wording it again: the map
    of a grid and its captions, every view of every event). The words are shared with the
    view held before, which is never changed in place."""
    if spoken is None:
        return word(value)
    found = spoken.get(part)
    if found is not None and found[0] == value:
        return found[1]
    worded = word(value)
    spoken[part] = (value, worded)
    return worded


@cache
def speaker(domain: str, lang: str = "en") -> Speaker:
    """The speaker of a ruleset's words in ``lang``, or in English where the ruleset has no
    catalogue for it (so a view says which language it is really in)."""
    return Speaker(lang if lang in languages(domain) else SOURCE, domain)


def rules_of(value: Any) -> list[str]:
    """The RULES-SPEC ids a stored sentence (and the sentences inside it) applies."""
    value = from_json(value)
    found: list[str] = []
    if isinstance(value, Say):
        found.extend(value.rules)
        for arg in value.args.values():
            found.extend(r for r in rules_of(arg) if r not in found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found.extend(r for r in rules_of(item) if r not in found)
    return found
