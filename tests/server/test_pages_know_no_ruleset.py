"""The pages know no ruleset: no ruleset's id, command, field, piece kind or board key is
spelled in their code. A ruleset added later needs no page code (its words and its map come
from the server: ghillie.forms, ghillie.maps)."""

from __future__ import annotations

import re
from importlib import resources

from ghillie import examples, forms, registry
from ghillie.game import Game

STATIC = resources.files("ghillie.server") / "static"
# What a page's code may spell although a ruleset uses the same word: the generic
# vocabulary of forms and maps.
GENERIC = {"type", "unit", "square", "hex", "point", "piece", "choice", "note", "at", "field"}


def _code(name: str) -> str:
    """A page module without its comments."""
    text = (STATIC / name).read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)(^|[^:])//.*$", r"\1", text)


def _ruleset_words() -> set[str]:
    """Ruleset ids, command names and piece kinds; field names and board keys of two words
    or more (a single word such as "text" is any page's word too)."""
    words: set[str] = set()
    compound: set[str] = set()
    for ruleset in registry.rulesets().values():
        words.add(ruleset.id)
        for name, model in ruleset.commands.items():
            words.add(name)
            compound |= {p.split(".")[-1] for p in forms.paths(model)}
    for name in examples.names():
        game = Game.create(examples.load(name), seed=1)
        words |= {p.kind for p in game.state.pieces.values()}
        compound |= set(game.view("referee")["board"])
    words |= {w for w in compound if "_" in w}
    return {w for w in words if w not in GENERIC and len(w) > 2}


def test_no_page_spells_a_rulesets_id_command_field_kind_or_board_key() -> None:
    words = _ruleset_words()
    assert "record_ambushes" in words  # the check knows what it looks for
    modules = [p.name for p in STATIC.iterdir() if p.name.endswith(".js")]
    assert {"forms.js", "play.js", "table.js"} <= set(modules)  # the table screen's too
    found = []
    for module in modules:
        code = _code(module)
        for literal in re.findall(r"""["'`]([A-Za-z_][\w-]*)["'`]""", code):
            if literal in words:
                found.append(f"{module}: {literal!r}")
        for member in re.findall(r"\.([a-z]+_[a-z_]+)\b", code):
            if member in words:
                found.append(f"{module}: .{member}")
    assert found == [], "page code that knows a ruleset: " + ", ".join(sorted(set(found)))
