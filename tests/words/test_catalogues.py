"""The message catalogues: every word the code marks is translated, keeps its placeholders
and has every plural form (scripts/catalogues --check, in-process); a view in Russian
speaks Russian where the ruleset has a catalogue, and English where it has none."""

from __future__ import annotations

import json

import pytest
from babel.messages.catalog import Catalog

from ghillie import Game, examples, view
from ghillie.demo import new_game, scripts
from ghillie.words.catalog import negotiate
from ghillie.words.extract import domains, extract, load, message_problems, placeholders, problems

TRANSLATED = ("core", "pages", "suspicious-places")


def test_the_catalogued_domains_are_the_core_the_pages_and_suspicious_places() -> None:
    assert domains() == list(TRANSLATED)


@pytest.mark.parametrize("domain", TRANSLATED)
def test_every_message_has_a_russian_translation(domain: str) -> None:
    assert problems(domain, "ru") == []


@pytest.mark.parametrize("domain", TRANSLATED)
def test_every_translation_keeps_its_placeholders_and_plurals_have_three_forms(
    domain: str,
) -> None:
    catalogue = load(domain, "ru")
    assert catalogue is not None
    assert catalogue.num_plurals == 3
    wanted = {m.id if isinstance(m.id, str) else tuple(m.id) for m in extract(domain) if m.id}
    checked = 0
    for message in catalogue:
        if not message.id:
            continue
        if isinstance(message.id, str):
            assert isinstance(message.string, str), message.id
            assert message.string.strip(), message.id
            assert placeholders(message.string) == placeholders(message.id), message.id
        else:
            singular, plural = message.id
            forms = list(message.string)
            assert len(forms) == 3, singular
            for form in forms:
                assert form.strip(), singular
                assert placeholders(form) == placeholders(singular) | placeholders(plural)
        assert not message.fuzzy, message.id
        checked += 1
    assert checked == len(wanted)


def test_the_extractor_finds_templates_plurals_words_and_refusal_details() -> None:
    sp = {m.id if isinstance(m.id, str) else tuple(m.id) for m in extract("suspicious-places")}
    assert "Marker {label} is removed ({why}): nothing was there." in sp  # say()
    assert ("{n} model", "{n} models") in sp  # says()
    assert "stereo telescope" in sp  # N_()
    assert "That marker is a known minefield." in sp  # Refusal(code, detail)
    core = {m.id for m in extract("core")}
    assert {"{side} gave an order.", "Fill in this field.", "Range", "yes"} <= core
    assert "The game is over." in core  # engine refusal details
    assert not any("rules/" in loc for m in extract("core") for loc, _ in m.locations)


def test_the_check_catches_a_missing_a_fuzzy_and_a_wrong_translation() -> None:
    catalogue = Catalog(locale="ru")
    catalogue.add("{unit} moves.", "{unit} передвигается.")
    catalogue.add("{side} passes.", "Сторона пасует.")  # lost {side}
    catalogue.add("{unit} ends its activation.", "{unit} завершает.", flags=["fuzzy"])
    catalogue.add(("{n} model", "{n} models"), ("{n} фигурка", "{n} фигурки"))  # two forms
    assert message_problems(catalogue, "{unit} moves.") == []
    assert message_problems(catalogue, "{side} passes.")
    assert message_problems(catalogue, "{unit} ends its activation.")
    assert message_problems(catalogue, "Setting up.")
    assert message_problems(catalogue, ("{n} model", "{n} models")) == [
        "'{n} model' has 2 plural forms, not 3"
    ]


def _demo_game() -> Game:
    script = scripts()["suspicious-places"]
    game = new_game(script)
    for step in script.steps[:8]:  # up to the machine-gun position revealed by observation
        game.command(step.side, step.command)
    return game


def test_a_suspicious_places_view_in_russian_speaks_the_rule_texts_words() -> None:
    assert negotiate(["ru-RU", "en"], "suspicious-places") == "ru"
    game = _demo_game()
    keno = view(game, "keno", "ru")
    assert keno["lang"] == "ru"
    assert keno["status"] == [
        "Ход 1: действует сторона «Keno army».",
        "Keno regulars (sergeant): активация, осталось 0 действий.",
    ]
    own = next(p for p in keno["pieces"] if p["public"]["key"] == "sergeant")
    assert own["about"] == "на столе · 6 фигурок"
    assert {"label": "Качество", "value": "к8"} in own["details"]
    lines = [line["text"] for entry in keno["log"] for line in entry["said"]]
    assert (
        "Сторона «Lianra defenders» выкладывает 3 маркера «подозрительное место»: M1, M2 и M3."
        in lines
    )
    assert lines[-1] == (
        "Keno regulars (sergeant) наблюдает за маркером M1 невооружённым глазом: выпало 5 "
        "(куб качества к8) и 4 (глаза к4). Куб дальности к10: 30″ — это 3-я зона (зоны по "
        "12″), к8, +1 степень за «мягкое» укрытие. Маркер M1 снимается, и на его месте "
        "выставляется Machine-gun position."
    )
    # The rules a line applies stay a tooltip, apart from the words.
    assert keno["log"][-1]["said"][0]["rules"][:2] == ["SW-R10", "SW-R13"]
    lianra = view(game, "lianra", "ru")
    told = [line["text"] for entry in lianra["log"] for line in entry["said"]]
    assert (
        "Вы выбросили 3 за «Machine-gun position»: выложить 3 маркера «подозрительное место»."
        in told
    )
    # The same game in English: one record, two languages.
    english = view(game, "keno")
    assert english["lang"] == "en"
    assert english["log"][-1]["said"][0]["text"].startswith(
        "Keno regulars (sergeant) observes marker M1 with the naked eye"
    )


def test_a_grid_ambush_view_asked_for_in_russian_stays_english() -> None:
    assert negotiate(["ru"], "grid-ambush") == "en"
    game = Game.create(examples.load("grid-ambush-table"), seed=1)
    asked = view(game, "jungle", "ru")
    assert asked["lang"] == "en"
    assert json.dumps(asked, sort_keys=True) == json.dumps(view(game, "jungle"), sort_keys=True)


def test_a_page_counts_in_russian_as_the_catalogue_says() -> None:
    """The Fairness panel's "{n} commitment(s)" is a plural message: /api/words gives its
    forms by the plural category a browser's Intl.PluralRules names for a count (the same
    CLDR rules as Babel's), so 1 обязательство, 2 обязательства, 5 обязательств."""
    from babel.core import Locale

    from ghillie.words.catalog import page_plurals

    forms = page_plurals("ru")["{side}: {n} commitment to its secrets received"]
    ru = Locale.parse("ru")

    def said(n: int) -> str:
        return forms[str(ru.plural_form(n))].format(side="Кено", n=n)

    assert said(1) == "Кено: получено 1 обязательство о её тайнах"
    assert said(2) == "Кено: получено 2 обязательства о её тайнах"
    assert said(5) == "Кено: получено 5 обязательств о её тайнах"
    assert said(11) == "Кено: получено 11 обязательств о её тайнах"
    assert said(21) == "Кено: получено 21 обязательство о её тайнах"
    assert said(24) == "Кено: получено 24 обязательства о её тайнах"
    assert page_plurals("en") == {}
