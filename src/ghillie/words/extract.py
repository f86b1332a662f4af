"""Keeping the message catalogues in step with the code (``scripts/catalogues``).

Every sentence ghillie may show a player is marked where it is written: a ``say`` or
``says`` template, an ``N_`` word, or the fixed ``detail`` of a ``Refusal(code, detail)``.
Babel's extractor finds them; :func:`update` merges them into each ``.po`` catalogue
(translations kept, new messages left empty, changed ones fuzzy with the old translation
as a guess), and :func:`problems` says what a catalogue still lacks.

The domains are the core (``src/ghillie`` outside its rulesets, server, command line and
storage) and each ruleset with a ``locale`` folder.
"""

from __future__ import annotations

import argparse
import re
import string
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from ghillie.words.catalog import LANGUAGES, PAGES, SOURCE, catalogue_path

# say(template, ...), says(singular, plural, n, ...), N_(word), Refusal(code, detail, ...).
KEYWORDS: Mapping[str, tuple[int, ...] | None] = {
    "say": None,
    "says": (1, 2),
    "N_": None,
    "Refusal": (2,),
}
PACKAGE = Path(__file__).resolve().parent.parent
RULES = PACKAGE / "rules"
# Not the players' words in a game: the rulesets (their own domains), the command line and
# storage. The server's refusals (a seat taken, a game not over yet) are the core's words;
# its pages have their own domain (PAGES).
NOT_CORE = frozenset({"rules", "cli", "store"})
# Files of the core's folders that hold no players' words.
NOT_CORE_FILES: tuple[str, ...] = ()
_FORMATTER = string.Formatter()
_STAMP = datetime(2026, 1, 1, tzinfo=UTC)  # a catalogue made here: no date to churn the diff

MessageId = str | tuple[str, str]
HEADER = """\
# {language} words of ghillie: {domain}.
# Kept in step with the code by scripts/catalogues (which marks new messages empty and
# changed ones fuzzy); a translation keeps every {{placeholder}} of its message."""


STATIC = PACKAGE / "server" / "static"


def domains() -> list[str]:
    """The core, the pages and every ruleset that has catalogues (a ``locale`` folder)."""
    rulesets = sorted(p.parent.name.replace("_", "-") for p in RULES.glob("*/locale") if p.is_dir())
    return ["core", PAGES, *rulesets]


def source(domain: str) -> Path:
    if domain == "core":
        return PACKAGE
    if domain == PAGES:
        return STATIC
    return RULES / domain.replace("-", "_")


_DATA_T = re.compile(r"<[a-z0-9]+[^>]*\sdata-t[\s>][^>]*?>?([^<]+)</", re.IGNORECASE)


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for the pages' HTML: the text of every element marked
    ``data-t`` (the page translates it when it learns the reader's language)."""
    text = fileobj.read().decode("utf-8")
    for match in _DATA_T.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        yield line, "t", match.group(1).strip(), []


def extract(domain: str) -> Catalog:
    """Every message the domain's code marks, as a template catalogue (no translations)."""
    root = source(domain)

    def wanted(path: str) -> bool:
        rel = Path(path).relative_to(root).parts
        if domain == PAGES:
            return not rel or rel[0] != "vendor"
        return not (rel[-1].startswith((".", "_")) or (domain == "core" and rel[0] in NOT_CORE))

    template = Catalog(project="ghillie", creation_date=_STAMP, fuzzy=False)
    pages = domain == PAGES
    for filename, lineno, message, comments, context in extract_from_dir(
        root,
        method_map=(
            [("*.js", "javascript"), ("*.html", "ghillie.words.extract:extract_html")]
            if pages
            else [
                *((f, "ignore") for f in (NOT_CORE_FILES if domain == "core" else ())),
                ("**.py", "python"),
            ]
        ),
        keywords={"t": None, "tn": (1, 2)} if pages else KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
        directory_filter=wanted,
        # t("…") inside a `template ${string}` is a message too.
        options_map={"*.js": {"parse_template_string": "1"}},
    ):
        if not message or (isinstance(message, tuple) and not all(message)):
            continue
        location = (f"{root.name}/{filename}".replace("\\", "/"), lineno)
        msgid: MessageId = message if isinstance(message, str) else (message[0], message[1])
        if isinstance(message, tuple) and len(message) != 2:
            continue
        template.add(msgid, locations=[location], auto_comments=comments, context=context)
    return template


def load(domain: str, lang: str) -> Catalog | None:
    path = catalogue_path(domain, lang)
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=domain)


def update(domain: str, lang: str) -> tuple[Path, Catalog]:
    """Merge the domain's messages into its ``lang`` catalogue and write it back."""
    template = extract(domain)
    catalogue = load(domain, lang) or Catalog(
        locale=lang,
        domain=domain,
        header_comment=HEADER.format(language=Locale.parse(lang).english_name, domain=domain),
        project="ghillie",
        msgid_bugs_address="",
        creation_date=_STAMP,
        revision_date=_STAMP,
        fuzzy=False,
    )
    template.creation_date = catalogue.creation_date
    catalogue.update(template, update_creation_date=False)
    path = catalogue_path(domain, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalogue, ignore_obsolete=True, include_lineno=False, width=100)
    return path, catalogue


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a template fills in (``str.format`` fields)."""
    return {name for _, name, _, _ in _FORMATTER.parse(text) if name is not None}


def problems(domain: str, lang: str) -> list[str]:
    """What the ``lang`` catalogue of ``domain`` lacks or gets wrong, one line each: a
    message without a translation (or only a fuzzy one), a translation whose placeholders
    differ from its message's, a plural entry without every plural form of the language."""
    catalogue = load(domain, lang)
    path = catalogue_path(domain, lang)
    if catalogue is None:
        return [f"{path}: no catalogue"]
    found: list[str] = []
    for message in extract(domain):
        if message.id:
            found.extend(f"{path}: {p}" for p in message_problems(catalogue, message.id))
    return found


def message_problems(catalogue: Catalog, msgid: str | Sequence[str]) -> list[str]:
    singular = msgid if isinstance(msgid, str) else msgid[0]
    name = repr(singular)
    have = catalogue.get(singular)
    if have is None or not _translated(have):
        return [f"no translation for {name}"]
    if have.fuzzy:
        return [f"only a fuzzy translation for {name}"]
    forms = _strings(have)
    if isinstance(msgid, str):
        if have.pluralizable:
            return [f"{name} is a plural message in the catalogue, not in the code"]
        if placeholders(forms[0]) != placeholders(msgid):
            return [f"the translation of {name} does not use exactly {sorted(placeholders(msgid))}"]
        return []
    out = []
    if not have.pluralizable or tuple(have.id) != tuple(msgid):
        out.append(f"{name} must be a plural message with the plural {msgid[1]!r}")
    if len(forms) != catalogue.num_plurals:
        out.append(f"{name} has {len(forms)} plural forms, not {catalogue.num_plurals}")
    expected = placeholders(msgid[0]) | placeholders(msgid[1])
    for i, form in enumerate(forms):
        if placeholders(form) != expected:
            out.append(f"plural form {i} of {name} does not use exactly {sorted(expected)}")
    return out


def _strings(message: Message) -> list[str]:
    value = message.string
    strings = list(value) if isinstance(value, (list, tuple)) else [value]
    return [s if isinstance(s, str) else "" for s in strings]


def _translated(message: Message) -> bool:
    return all(s.strip() for s in _strings(message))


def _languages(domain: str, asked: Sequence[str]) -> list[str]:
    if asked:
        return list(asked)
    return [lang for lang in LANGUAGES if lang != SOURCE and catalogue_path(domain, lang).exists()]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/catalogues",
        description="Extract the players' words from the code and update the .po catalogues.",
    )
    parser.add_argument(
        "domains",
        nargs="*",
        help="core or a ruleset id (default: core and every ruleset with a locale folder)",
    )
    parser.add_argument(
        "--lang",
        action="append",
        default=[],
        choices=[lang for lang in LANGUAGES if lang != SOURCE],
        help="a language to update or check (default: each catalogue the domain has); "
        "updating creates it",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if a catalogue lacks a translation, has a fuzzy one, or "
        "a translation's placeholders or plural forms are wrong",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    chosen = args.domains or domains()
    unknown = [d for d in chosen if not source(d).is_dir()]
    if unknown:
        parser.error(f"no such domain: {', '.join(unknown)}")
    if args.check:
        found = [p for d in chosen for lang in _languages(d, args.lang) for p in problems(d, lang)]
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)" if found else "every catalogue is complete")
        return 1 if found else 0
    for domain in chosen:
        for lang in _languages(domain, args.lang):
            path, catalogue = update(domain, lang)
            messages = [m for m in catalogue if m.id]
            empty = sum(1 for m in messages if not _translated(m))
            fuzzy = sum(1 for m in messages if m.fuzzy and _translated(m))
            print(f"{path}: {len(messages)} messages, {empty} untranslated, {fuzzy} fuzzy")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
