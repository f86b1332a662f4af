"""The message catalogues: one for the core's words and one per ruleset, as Babel ``.po``.

English is the source language (the templates themselves). A ruleset speaks another
language when its folder has ``locale/<lang>.po``; the core's ``words/locale/<lang>.po``
gives the words every page shares. The ``.po`` files are read at run time (no compile
step), so the catalogues in the repository are the ones that run.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from babel.core import Locale, negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

SOURCE = "en"
LANGUAGES = ("en", "ru")
_CORE = Path(__file__).parent / "locale"
_RULES = Path(__file__).parent.parent / "rules"


PAGES = "pages"  # the pages' own words (headings, buttons, alarms): static/*.js, t("…")


def catalogue_path(domain: str, lang: str) -> Path:
    """Where a domain's catalogue for ``lang`` lives ("core", "pages" or a ruleset's id)."""
    if domain == "core":
        return _CORE / f"{lang}.po"
    if domain == PAGES:
        return _CORE / f"pages-{lang}.po"
    return _RULES / domain.replace("-", "_") / "locale" / f"{lang}.po"


@cache
def languages(domain: str) -> tuple[str, ...]:
    """The languages a ruleset's pages, forms and log can be read in."""
    return (SOURCE, *(lang for lang in LANGUAGES[1:] if catalogue_path(domain, lang).exists()))


def negotiate(preferred: Sequence[str], domain: str) -> str:
    """The reader's language for a ruleset, from the browser's list (``navigator.languages``
    or Accept-Language), falling back to English."""
    wanted = [p.strip().replace("_", "-") for p in preferred if p and p.strip()]
    found = negotiate_locale(wanted, list(languages(domain)), sep="-")
    if found is None:
        # "ru-RU" against "ru": Babel matches exact tags and aliases; try the language alone.
        found = negotiate_locale([w.split("-")[0] for w in wanted], list(languages(domain)))
    return found or SOURCE


def _load(path: Path, lang: str) -> Translations | None:
    if not path.exists():
        return None
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return Translations(buffer)


@cache
def page_words(lang: str) -> dict[str, str]:
    """The pages' own words in ``lang``, English message to translation (the page's ``t``);
    empty for English or a language the pages do not speak."""
    path = catalogue_path(PAGES, lang)
    if lang == SOURCE or not path.exists():
        return {}
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    return {
        str(m.id): str(m.string)
        for m in catalogue
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
    }


@cache
def page_plurals(lang: str) -> dict[str, dict[str, str]]:
    """The pages' sentences with a count in ``lang``: English singular to its forms, each
    under the CLDR category (one, few, many, other) that the browser's ``Intl.PluralRules``
    names for a count, so a page picks "1 обязательство", "2 обязательства", "5
    обязательств" as Babel's catalogue says. Empty for English."""
    path = catalogue_path(PAGES, lang)
    if lang == SOURCE or not path.exists():
        return {}
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    compiled = _load(path, lang)
    assert compiled is not None
    locale = Locale.parse(lang)
    # Which form of the catalogue each category takes: its counts, through the catalogue's
    # own plural rule (a category whose counts disagree keeps the first; "other", which
    # integers never reach in Russian, takes the last form).
    index: dict[str, int] = {}
    for n in range(200):
        index.setdefault(str(locale.plural_form(n)), int(compiled.plural(n)))
    out = {}
    for m in catalogue:
        if not m.pluralizable or not isinstance(m.string, tuple) or not all(m.string):
            continue
        forms = [str(f) for f in m.string]
        out[str(m.id[0])] = {
            category: forms[index.get(category, len(forms) - 1)]
            for category in ("zero", "one", "two", "few", "many", "other")
        }
    return out


@cache
def translations(lang: str, domain: str) -> NullTranslations:
    """The ruleset's catalogue for ``lang``, falling back to the core's, then to English."""
    if lang == SOURCE or lang not in languages(domain):
        return NullTranslations()
    own = _load(catalogue_path(domain, lang), lang)
    core = _load(catalogue_path("core", lang), lang)
    if own is None:
        return core or NullTranslations()
    if core is not None:
        own.add_fallback(core)
    return own
