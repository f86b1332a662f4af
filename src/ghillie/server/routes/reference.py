"""Reference data, the same for every game: the rulesets, their example scenarios, and the
pages' own words."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ghillie import examples, forms, registry
from ghillie.server.problems import NOT_FOUND, Problem
from ghillie.server.routes.depends import accepted
from ghillie.words import speaker
from ghillie.words.catalog import LANGUAGES, languages, negotiate, page_plurals, page_words

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


@router.get("/api/rulesets")
async def rulesets(request: Request) -> list[dict[str, Any]]:
    """Every ruleset, its commands (JSON Schemas and the words a form shows), and its
    example scenarios, in the reader's language (``?lang=`` or Accept-Language)."""
    return ruleset_catalogue(accepted(request))


@router.get("/api/scenarios")
async def scenarios() -> list[dict[str, Any]]:
    """The bundled example scenarios."""
    out = []
    for name in examples.names():
        data = examples.data(name)
        out.append(
            {
                "name": name,
                "ruleset": data["ruleset"],
                "title": data.get("title", name),
                "description": data.get("description", ""),
                "mode": data.get("mode", "table"),
            }
        )
    return out


@router.get("/api/scenarios/{name}")
async def scenario(name: str) -> dict[str, Any]:
    if name not in examples.names():
        raise Problem(NOT_FOUND, "There is no such example scenario.")
    return examples.data(name)


@router.get("/api/words")
async def words(lang: str = "en") -> dict[str, Any]:
    """The pages' own words (headings, buttons, messages) in ``lang``: English message
    to translation, and the sentences with a count, English singular to each plural
    category's form. A page asks for the language its game's view is in."""
    found = page_words(lang if lang in LANGUAGES else "en")
    plurals = page_plurals(lang) if found else {}
    return {"lang": lang if found else "en", "words": found, "plurals": plurals}


def ruleset_catalogue(langs: list[str] | None = None) -> list[dict[str, Any]]:
    out = []
    for ruleset in registry.rulesets().values():
        words = speaker(ruleset.id, negotiate(langs or [], ruleset.id))
        out.append(
            {
                "id": ruleset.id,
                "title": words.word(ruleset.title),
                "summary": words.word(ruleset.summary),
                "modes": list(ruleset.map_modes),
                "examples": [
                    n for n in examples.names() if examples.data(n)["ruleset"] == ruleset.id
                ],
                "odds": list(ruleset.odds_queries),
                "lang": words.lang,
                "languages": list(languages(ruleset.id)),
                "commands": forms.describe(ruleset, words),
            }
        )
    return out
