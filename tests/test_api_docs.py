"""docs/api.md against the code: every refusal code, every key a client receives, the map's
style vocabulary and the command descriptions' words are documented, and nothing the doc
lists has gone from the code.

The codes are read from the source itself (every ``Refusal(<code>, …)`` and
``Problem(<code>, …)`` call, its code resolved to the string constant it names), so a code
added anywhere makes this fail naming it. The keys are read from real views: every bundled
scenario's first view for each side, the referee and a spectator, every view of the demo
games, and the server's own answers.
"""

from __future__ import annotations

import ast
import json
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ghillie
from ghillie import examples, forms, maps, registry
from ghillie.demo import new_game, play, scripts
from ghillie.game import Game
from ghillie.server.app import create_app
from ghillie.server.problems import STATUS
from ghillie.state import REFEREE, SPECTATOR, Level, Phase
from ghillie.store import MemoryStore
from ghillie.view import view
from ghillie.words import catalog, speaker

SRC = Path(ghillie.__file__).parent
DOC_PATH = Path(__file__).parent.parent / "docs" / "api.md"
DOC = DOC_PATH.read_text(encoding="utf-8")
REFUSALS = "Problems and refusal codes"  # the doc's section with the tables of codes


# --- the doc ------------------------------------------------------------------------------


def section(title: str, *, own: bool = False) -> str:
    """The text under the heading ``title`` (any level), down to the next heading of the
    same or a higher level: its subsections included, unless ``own``."""
    lines = DOC.splitlines()
    for i, line in enumerate(lines):
        found = re.fullmatch(r"(#+) (.*)", line)
        if found and found.group(2).strip() == title:
            level = len(found.group(1))
            body = []
            for later in lines[i + 1 :]:
                heading = re.match(r"(#+) ", later)
                if heading and (own or len(heading.group(1)) <= level):
                    break
                body.append(later)
            return "\n".join(body)
    raise AssertionError(f"docs/api.md has no heading {title!r}")


def subsections(text: str, level: int = 3) -> dict[str, str]:
    """The subsections of ``text`` at ``level`` by title."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        heading = re.fullmatch(r"(#+) (.*)", line)
        if heading and len(heading.group(1)) <= level:
            current = out.setdefault(heading.group(2).strip(), [])
            continue
        if current is not None:
            current.append(line)
    return {title: "\n".join(body) for title, body in out.items()}


def rows(text: str) -> Iterator[list[str]]:
    """The cells of every table row in ``text`` (header rows too, separators not)."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and not re.fullmatch(r"\|[\s:|-]+\|", line):
            yield [cell.strip() for cell in line.strip("|").split("|")]


def documented_keys(title: str, *, own: bool = False) -> set[str]:
    """The names a section's field tables document: code spans in a row's first cell."""
    text = section(title, own=own)
    return {span for cells in rows(text) for span in re.findall(r"`([^`]+)`", cells[0])}


def code_spans(title: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", section(title)))


def missing(found: dict[str, str], title: str, own: bool) -> list[str]:
    """The keys in ``found`` (key -> where it was seen) that ``title``'s tables leave out."""
    known = documented_keys(title, own=own)
    return [f"`{key}` (in {where})" for key, where in sorted(found.items()) if key not in known]


def assert_documented(found: dict[str, str], title: str, what: str, *, own: bool = False) -> None:
    gaps = missing(found, title, own)
    where_ = "before its first subsection" if own else "or its subsections"
    assert not gaps, (
        f"docs/api.md does not document these keys of {what} in a table row of its section "
        f"{title!r} ({where_}; a row whose first cell is the key in backquotes): "
        f"{', '.join(gaps)}"
    )


# --- the codes in the source ----------------------------------------------------------------


@dataclass(frozen=True)
class Raised:
    code: str
    at: str  # "rules/grid_ambush/turn.py:26"
    status: int | None  # None: a status chosen at run time
    defined: str  # the module whose constant (or literal) the code is: "ghillie.errors"

    @property
    def ruleset(self) -> str | None:
        """The ruleset whose folder raises it, if any."""
        found = re.match(r"rules/([^/]+)/", self.at)
        return found.group(1).replace("_", "-") if found else None


class Modules:
    """The source's modules, parsed once, with their string constants and imports."""

    def __init__(self) -> None:
        self.trees: dict[str, ast.Module] = {}
        self.paths: dict[str, Path] = {}
        for path in sorted(SRC.rglob("*.py")):
            parts = path.relative_to(SRC.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            self.trees[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
            self.paths[name] = path

    def package(self, module: str) -> str:
        return module if self.paths[module].name == "__init__.py" else module.rpartition(".")[0]

    def imported(self, module: str, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.package(module)
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        return f"{base}.{node.module}" if node.module else base

    def resolve(self, module: str, expr: ast.expr, seen: int = 0) -> list[tuple[str, str]]:
        """The codes an expression names, each with the module that defines it; [] if it
        cannot be told from the source."""
        if seen > 10:
            return []
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return [(expr.value, module)]
        if isinstance(expr, ast.Name):
            return self.named(module, expr.id, seen)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            target = self.module_alias(module, expr.value.id)
            return self.named(target, expr.attr, seen) if target else []
        if isinstance(expr, ast.Subscript):  # CODES[fault]: any of the dict's values
            return self.resolve(module, expr.value, seen + 1)
        if isinstance(expr, ast.Dict):
            return [c for v in expr.values for c in self.resolve(module, v, seen + 1)]
        return []

    def named(self, module: str, name: str, seen: int) -> list[tuple[str, str]]:
        tree = self.trees.get(module)
        if tree is None:
            return []
        for node in tree.body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign) and node.value is not None
                else []
            )
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                value = node.value
                assert value is not None
                return self.resolve(module, value, seen + 1)
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        source = self.imported(module, node)
                        if f"{source}.{alias.name}" in self.trees:
                            return []  # a module, not a constant
                        return self.named(source, alias.name, seen + 1)
        return []

    def module_alias(self, module: str, name: str) -> str | None:
        for node in self.trees[module].body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname == name or (alias.asname is None and alias.name == name):
                        return alias.name
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        candidate = f"{self.imported(module, node)}.{alias.name}"
                        if candidate in self.trees:
                            return candidate
        return None


@cache
def raised() -> tuple[list[Raised], list[str]]:
    """Every code the source refuses with, and every call whose code cannot be told."""
    modules = Modules()
    found: list[Raised] = []
    unknown: list[str] = []
    for module, tree in modules.trees.items():
        rel = modules.paths[module].relative_to(SRC).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if name not in ("Refusal", "Problem"):
                continue
            at = f"{rel}:{node.lineno}"
            first = node.args[0] if node.args else None
            first = next((k.value for k in node.keywords if k.arg == "code"), first)
            codes = modules.resolve(module, first) if first is not None else []
            if not codes:
                unknown.append(f"{at}: {ast.unparse(node)[:120]}")
                continue
            given = node.args[2] if len(node.args) > 2 else None
            given = next((k.value for k in node.keywords if k.arg == "status"), given)
            for code, defined in codes:
                if given is None:
                    status: int | None = STATUS.get(code, 409)
                elif isinstance(given, ast.Constant) and isinstance(given.value, int):
                    status = given.value
                else:
                    status = None
                found.append(Raised(code, at, status, defined))
    return found, unknown


def codes_by(predicate: Any) -> dict[str, list[Raised]]:
    out: dict[str, list[Raised]] = {}
    for r in raised()[0]:
        if predicate(r):
            out.setdefault(r.code, []).append(r)
    return out


def table_rows() -> dict[str, dict[str, list[str]]]:
    """The refusal tables: subsection title -> code -> the row's cells."""
    out: dict[str, dict[str, list[str]]] = {}
    for title, body in subsections(section(REFUSALS)).items():
        for cells in rows(body):
            code = re.fullmatch(r"`([a-z0-9_]+)`", cells[0])
            if code:
                out.setdefault(title, {})[code.group(1)] = cells
    return out


def ruleset_table(ruleset: str) -> str:
    titles = [t for t in table_rows() if t.split()[0].strip("`") == ruleset]
    assert titles, (
        f"docs/api.md's section {REFUSALS!r} has no table for the ruleset {ruleset} "
        f"(a subsection whose title starts with {ruleset})"
    )
    return titles[0]


def where(found: list[Raised]) -> str:
    places = sorted({r.at for r in found})
    return ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")


def row_hint(code: str, found: list[Raised]) -> str:
    statuses = "/".join(str(s) for s in sorted({r.status for r in found if r.status}))
    return f"| `{code}` | {statuses} | what it means; what a client should do |"


# --- (a) refusal codes ----------------------------------------------------------------------


def test_every_refusal_call_names_a_code_the_source_spells_out() -> None:
    found, unknown = raised()
    assert not unknown, (
        "These refusals' codes cannot be read from the source (give a string literal or a "
        "module constant, or teach tests/test_api_docs.py the new pattern): " + "; ".join(unknown)
    )
    # The walk finds codes of every kind of origin: a guard against it finding nothing.
    codes = {r.code for r in found}
    for code in (
        "not_your_turn",  # ghillie.errors
        "wrong_kind",  # ghillie.lookup
        "unknown_game",  # the server
        "too_many_requests",  # the server's limits
        "roll_pending",  # the roll protocol
        "square_taken",  # grid-ambush, a constant of codes.py
        "not_in_jungle_or_woods",  # grid-ambush, a value of POSITION_CODES
        "not_movement_phase",  # grid-ambush, a literal
        "no_points_left",  # ambush-fields
        "too_far_apart",  # suspicious-places
    ):
        assert code in codes


def test_every_code_the_core_raises_is_in_a_core_table() -> None:
    """Codes raised or defined outside the rulesets' folders (the engine, piece lookup, the
    roll protocol, the server) are in one of the tables that are not a ruleset's."""
    rulesets = set(registry.rulesets())
    core_tables = {t: r for t, r in table_rows().items() if t.split()[0].strip("`") not in rulesets}
    listed = {code for table in core_tables.values() for code in table}
    core = codes_by(lambda r: r.ruleset is None or not r.defined.startswith("ghillie.rules."))
    gaps = [
        f"{code} (raised at {where(found)}): add {row_hint(code, found)}"
        for code, found in sorted(core.items())
        if code not in listed
    ]
    assert not gaps, (
        f"refusal codes missing from docs/api.md's core tables (section {REFUSALS!r}): "
        + "; ".join(gaps)
    )
    stale = sorted(listed - set(core))
    assert not stale, f"docs/api.md's core refusal tables list codes the core never raises: {stale}"


@pytest.mark.parametrize("ruleset", sorted(registry.rulesets()))
def test_every_code_a_ruleset_raises_is_in_its_table(ruleset: str) -> None:
    """A ruleset's table lists exactly the codes raised in its folder, the engine's codes it
    reuses (``not_now``, ``off_table``, …) included, so a client knows what each ruleset
    may answer."""
    title = ruleset_table(ruleset)
    listed = table_rows()[title]
    own = codes_by(lambda r: r.ruleset == ruleset)
    gaps = [
        f"{code} (raised at {where(found)}): add {row_hint(code, found)}"
        for code, found in sorted(own.items())
        if code not in listed
    ]
    assert not gaps, f"refusal codes of {ruleset} missing from docs/api.md ({title}): " + "; ".join(
        gaps
    )
    stale = sorted(set(listed) - set(own))
    assert not stale, f"docs/api.md's table {title!r} lists codes {ruleset} never raises: {stale}"


def test_every_row_gives_the_status_the_server_answers_and_a_meaning() -> None:
    every = codes_by(lambda r: True)
    wrong = []
    for title, table in table_rows().items():
        for code, cells in table.items():
            assert len(cells) >= 3, f"{code} in {title!r}: a row has a code, a status, a meaning"
            assert cells[2], f"{code} in {title!r} has no meaning sentence"
            statuses = set(re.findall(r"\b[1-5]\d\d\b", cells[1]))
            expected = {str(r.status) for r in every.get(code, []) if r.status is not None}
            if not expected <= statuses:
                wrong.append(f"{code} ({title}): the server answers {sorted(expected)}")
    assert not wrong, "docs/api.md gives the wrong HTTP status for: " + "; ".join(wrong)


# --- (b) the keys a client receives ----------------------------------------------------------


@cache
def all_views() -> list[tuple[str, dict[str, Any]]]:
    """(where, view): every bundled scenario's first view for each observer, and every view
    of the demo games after every step."""
    out = []
    for name in examples.names():
        game = Game.create(examples.load(name), seed=1)
        for observer in (*game.state.sides, REFEREE, SPECTATOR):
            out.append((f"{name}, {observer}", view(game, observer)))
    for ruleset, script in scripts().items():
        game = new_game(script)
        for played in play(script, game):
            for observer, seen in played.views.items():
                out.append((f"demo {ruleset} step {played.number}, {observer}", seen))
            referee = view(game, REFEREE)
            out.append((f"demo {ruleset} step {played.number}, referee", referee))
    return out


def keys_of(items: Iterator[tuple[str, Any]]) -> dict[str, str]:
    """Every key of the mappings given, with where it was first seen."""
    found: dict[str, str] = {}
    for where_, item in items:
        if isinstance(item, dict):
            for key in item:
                found.setdefault(key, where_)
    return found


def each(key: str, views: list[tuple[str, dict[str, Any]]]) -> Iterator[tuple[str, Any]]:
    for where_, v in views:
        for item in v.get(key) or []:
            yield where_, item


def test_every_key_of_a_view_is_documented() -> None:
    views = all_views()
    found = keys_of(iter(views))
    assert {"you", "pieces", "commands", "your_move", "waiting_for", "log"} <= set(found)
    found.update(keys_of(iter(server()["views"])))  # fairness: added by the server
    assert_documented(found, "The view", "a view", own=True)


def test_every_key_of_a_piece_is_documented() -> None:
    views = all_views()
    pieces = list(each("pieces", views)) + list(each("known", views))
    found = keys_of(iter(pieces))
    assert {"name", "about", "details", "level", "facts"} <= set(found)
    details = [(w, d) for w, p in pieces for d in p.get("details", [])]
    assert_documented(found, "Pieces", "a piece")
    assert_documented(keys_of(iter(details)), "Pieces", "a piece's details")
    knowledge = [
        (w, k)
        for w, v in views
        for known in v.get("knowledge", {}).values()
        for k in known.values()
    ]
    assert_documented(keys_of(iter(knowledge)), "Pieces", "the referee's knowledge")


def test_every_key_of_an_offered_command_is_documented() -> None:
    offers = list(each("commands", all_views()))
    found = keys_of(iter(offers))
    assert {"type", "choices", "defaults"} <= set(found)
    choices = [(w, c) for w, o in offers for cs in o.get("choices", {}).values() for c in cs]
    assert "fills" in keys_of(iter(choices))
    assert_documented(found, "Offered commands", "an offered command")
    assert_documented(keys_of(iter(choices)), "Offered commands", "a choice")


def test_every_key_of_a_log_entry_is_documented() -> None:
    entries = list(each("log", all_views()))
    found = keys_of(iter(entries))
    assert {"lines", "said", "proof", "told", "effects"} <= set(found)
    assert_documented(found, "The log", "a log entry")
    said = [
        (w, s)
        for w, e in entries
        for s in (
            e["said"] if isinstance(e["said"], list) else [x for v in e["said"].values() for x in v]
        )
    ]
    spoken = keys_of(iter(said)) | dict.fromkeys(("text", "rules"), "ghillie.view.spoken")
    assert_documented(spoken, "The log", "a line as said")
    proofs = [(w, e["proof"]) for w, e in entries if "proof" in e]
    assert_documented(keys_of(iter(proofs)), "The log", "an entry's proof")
    fair = [(w, e["fair"]) for w, e in entries if "fair" in e]
    assert_documented(keys_of(iter(fair)), "The log", "a referee's entry's fair")
    rolls = [(w, r) for w, e in entries for r in e.get("rolls", [])]
    assert_documented(keys_of(iter(rolls)), "The log", "a roll")
    effects = [(w, x) for w, e in entries for x in e.get("effects", [])]
    assert_documented(keys_of(iter(effects)), "The log", "an effect")
    ops = {x["op"] for _, x in effects}
    gaps = sorted(op for op in ops if op not in code_spans("The log"))
    assert not gaps, f"docs/api.md's section 'The log' does not name the effect ops {gaps}"


def test_every_key_of_a_map_is_documented() -> None:
    maps_ = [(w, v["map"]) for w, v in all_views() if "map" in v]
    found = keys_of(iter(maps_))
    assert {"units", "size", "hexes", "squares", "focus", "schematic"} <= set(found)
    assert_documented(found, "The map", "a map", own=True)
    hexes = [(w, m["hexes"]) for w, m in maps_ if "hexes" in m]
    assert_documented(keys_of(iter(hexes)), "The map", "a hex map's hexes", own=True)
    legend = [(w, x) for w, m in maps_ for x in m["legend"]]
    assert_documented(keys_of(iter(legend)), "The map", "a legend entry", own=True)
    layers = [(w, x) for w, m in maps_ for x in m["layers"]]
    assert {"polygons", "hexes", "titles"} <= set(keys_of(iter(layers)))
    assert_documented(keys_of(iter(layers)), "Layers", "a map layer")
    tokens = [(w, x) for w, m in maps_ for x in m["tokens"]]
    assert {"models", "heading", "id"} <= set(keys_of(iter(tokens)))
    assert_documented(keys_of(iter(tokens)), "Tokens", "a map token")
    shapes = set(typing.get_args(maps.Shape))
    assert shapes <= code_spans("Tokens"), f"token shapes {sorted(shapes)} are not all named"


def test_the_command_descriptions_are_documented() -> None:
    described = [
        (f"{rid} {name}", c)
        for rid, r in registry.rulesets().items()
        for name, c in forms.describe(r, speaker(rid)).items()
    ]
    found = keys_of(iter(described))
    # Keys a ruleset may leave out are documented too, whether or not one uses them now.
    found.update(dict.fromkeys(("help", "confirm", "only", "rules"), "forms.Order.json"))
    assert_documented(found, "Command descriptions", "a command description")
    fields = [(w, f) for w, c in described for f in c["fields"].values()]
    every = dict.fromkeys(
        ("label", "help", "kind", "options", "where", "unit", "only", "item"), "forms.Ask.json"
    )
    assert_documented(keys_of(iter(fields)) | every, "Fields", "a command's field")
    options = [(w, o) for w, f in fields for o in f.get("options", [])]
    assert_documented(keys_of(iter(options)), "Fields", "a choice field's option")
    words = code_spans("Fields")
    for literal in (forms.Kind, forms.Where, forms.Mode):
        values = set(typing.get_args(literal))
        assert values <= words, f"docs/api.md's 'Fields' does not name {sorted(values - words)}"


def test_the_style_vocabulary_is_listed() -> None:
    listed = code_spans("Styles")
    gaps = sorted(maps.STYLES - listed)
    assert not gaps, f"map styles missing from docs/api.md's section 'Styles': {gaps}"
    stale = sorted(s for s in documented_keys("Styles") if s not in maps.STYLES and s != "style")
    assert not stale, f"docs/api.md's 'Styles' lists styles maps.STYLES does not have: {stale}"


def test_levels_phases_and_languages_are_named() -> None:
    spans = code_spans("The view") | code_spans("Pieces")
    for level in Level:
        assert level.name.lower() in spans, f"knowledge level {level.name.lower()} not named"
    for phase in Phase:
        assert phase.value in spans, f"phase {phase.value} not named in 'The view'"
    languages = code_spans("Languages")
    assert set(catalog.LANGUAGES) <= languages


# --- the server's own answers ----------------------------------------------------------------


@cache
def server() -> dict[str, Any]:
    """Answers of a real server: creation, views with the roll protocol's status, a
    command's answer, the rulesets, odds, and the websocket's messages."""
    out: dict[str, Any] = {"views": [], "messages": []}
    with TestClient(create_app(MemoryStore())) as client:
        # A game whose pages hold their chains: joining, then the request for roll 0.
        created = client.post("/api/games", json={"scenario": "grid-ambush", "chains": "clients"})
        body = created.json()
        out["created"] = body
        tokens = {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}
        game = body["game_id"]

        def get(side: str) -> dict[str, Any]:
            return client.get(  # type: ignore[no-any-return]
                f"/api/games/{game}/view", headers={"Authorization": f"Bearer {tokens[side]}"}
            ).json()

        out["views"].append(("a clients game before it starts", get("jungle")))
        for i, side in enumerate(("jungle", "marines")):
            client.post(
                f"/api/games/{game}/anchor",
                json={"anchor": f"{i + 1}" * 64},
                headers={"Authorization": f"Bearer {tokens[side]}"},
            )
        out["views"].append(("a clients game asking for roll 0", get("jungle")))
        # A game whose chains the host holds: a command and its answer.
        body = client.post("/api/games", json={"scenario": "grid-ambush"}).json()
        tokens = {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}
        game = body["game_id"]
        answer = client.post(
            f"/api/games/{game}/commands",
            json={"command_id": "1", "command": {"type": "record_ambushes", "orders": []}},
            headers={"Authorization": f"Bearer {tokens['jungle']}"},
        )
        out["answer"] = answer.json()
        out["views"].append(("a host game", get("jungle")))
        out["rulesets"] = client.get("/api/rulesets").json()
        with client.websocket_connect(f"/api/games/{game}/ws") as socket:
            socket.send_json({"type": "auth", "token": tokens["marines"], "lang": ["en"]})
            out["messages"].append(socket.receive_json())
            socket.send_json({"type": "resync", "after": 0})
            out["messages"].append(socket.receive_json())
            socket.send_json({"type": "command", "command_id": "2", "command": {"type": "ready"}})
            out["messages"].append(socket.receive_json())
            socket.send_json({"type": "anchor", "anchor": "0" * 64})
            out["messages"].append(socket.receive_json())
            socket.send_json({"type": "nonsense"})
            out["messages"].append(socket.receive_json())
    return out


def test_the_servers_answers_are_documented() -> None:
    answers = server()
    assert_documented(keys_of(iter([("POST /api/games", answers["created"])])), "HTTP", "it")
    links = [("a link", link) for link in answers["created"]["links"]]
    assert_documented(keys_of(iter(links)), "HTTP", "a link")
    assert_documented(keys_of(iter([("a command", answers["answer"])])), "HTTP", "an answer")
    rulesets = [("GET /api/rulesets", r) for r in answers["rulesets"]]
    assert_documented(keys_of(iter(rulesets)), "HTTP", "a ruleset")
    fairness = [(w, v["fairness"]) for w, v in answers["views"]]
    found = keys_of(iter(fairness))
    assert {"joining", "request"} <= set(found)
    assert_documented(found, "The roll protocol's status", "fairness")
    requests = [(w, f["request"]) for w, f in fairness if f["request"]]
    assert requests
    assert_documented(keys_of(iter(requests)), "The roll protocol's status", "a roll request")
    problem = [("a problem", answers["messages"][-1]["problem"])]
    assert_documented(keys_of(iter(problem)), REFUSALS, "a problem document")


def test_the_odds_answer_is_documented() -> None:
    from ghillie.server.odds import odds_for

    script = scripts()["suspicious-places"]
    game = new_game(script)
    for played in play(script, game):
        if played.step.command.get("type") == "activate":
            break
    command = {"type": "observe", "marker": "M1", "measured": {"range": 30, "line_of_sight": True}}
    odds = odds_for(game.state, "keno", command)
    assert odds["outcomes"]
    assert_documented(keys_of(iter([("odds", odds)])), "HTTP", "an odds answer")
    assert_documented(keys_of(iter(("an outcome", o) for o in odds["outcomes"])), "HTTP", "odds")


def test_every_websocket_message_type_is_documented() -> None:
    """The message types socket.py reads and the fan-out and socket.py send (the frames'
    models, ghillie.server.frames, and the fan-out's own)."""
    from typing import get_args

    from ghillie.server.frames import FrameIn, FrameOut

    models = [*FrameIn.__subclasses__(), *FrameOut.__subclasses__()]
    types: set[str] = {
        t for model in models for t in get_args(model.model_fields["type"].annotation)
    }
    for name in ("socket.py", "fanout.py"):
        tree = ast.parse((SRC / "server" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "type"
                        and isinstance(value, ast.Constant)
                    ):
                        types.add(value.value)
            if isinstance(node, ast.Compare):
                left = ast.unparse(node.left)
                if left in ("kind", "message['type']", "hello.get('type')"):
                    for c in node.comparators:
                        for const in ast.walk(c):
                            if isinstance(const, ast.Constant) and isinstance(const.value, str):
                                types.add(const.value)
    assert {"auth", "view", "update", "answer", "problem", "resync", "command", "fair"} <= types
    text = section("Websocket")
    gaps = sorted(t for t in types if f'"type": "{t}"' not in text)
    assert not gaps, f"docs/api.md's section 'Websocket' shows no message of type {gaps}"
    seen = {m["type"] for m in server()["messages"]}
    assert seen <= types


def test_the_json_examples_parse() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC, re.DOTALL)
    assert len(blocks) >= 5
    for block in blocks:
        json.loads(block)
