"""The house's import picture (docs/architecture.md, "Imports"): the core is handed its
ruleset and never reaches for the registry, a ruleset, the server, the store or the fairness
layer; and no import circle runs through it. Every import counts, those inside functions too
(a lazy import hides a circle, it does not remove one); only ``if TYPE_CHECKING:`` blocks
are left out, as they run no code."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import ghillie

SRC = Path(ghillie.__file__).parent
# The core: the engine, the view, the rulings and their vocabulary, which every ruleset
# builds on. A ruleset imports these; they import no ruleset.
CORE = (
    "ghillie.bounds",
    "ghillie.clock",
    "ghillie.dice",
    "ghillie.engine",
    "ghillie.errors",
    "ghillie.events",
    "ghillie.fold",
    "ghillie.forms",
    "ghillie.host",
    "ghillie.ids",
    "ghillie.lookup",
    "ghillie.maps",
    "ghillie.measuring",
    "ghillie.offered",
    "ghillie.ranges",
    "ghillie.ruleset",
    "ghillie.ruling",
    "ghillie.scenario",
    "ghillie.state",
    "ghillie.view",
    "ghillie.words",
)
# What only the edges may import: they look rulesets up, store, serve and audit games.
EDGES = (
    "ghillie.registry",
    "ghillie.rules",
    "ghillie.game",
    "ghillie.server",
    "ghillie.cli",
    "ghillie.store",
    "ghillie.fairness",
    "ghillie.story",
    "ghillie.demo",
    "ghillie.examples",
)


def _name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {_name(p): p for p in SRC.rglob("*.py")}


def _in(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _type_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_only(child):
            found.extend(n for c in child.orelse for n in _walk(c))
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            found.append(child)
        found.extend(_walk(child))
    return found


@cache
def imports(module: str) -> frozenset[str]:
    """The ghillie modules ``module`` imports when it runs (``from a import b``: ``a.b`` if
    that is a module, else ``a``)."""
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in _walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("ghillie"))
            continue
        base = node.module or ""
        if node.level:
            up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join([*up, *([base] if base else [])])
        if not base.startswith("ghillie"):
            continue
        for alias in node.names:
            full = f"{base}.{alias.name}"
            out.add(full if full in modules() else base)
    return frozenset(m for m in out if m in modules() and m != module)


def _reaches(start: str, goal: str) -> list[str] | None:
    """A path of imports from ``start`` to ``goal``, if there is one."""
    seen = {start}
    paths = [[start]]
    while paths:
        path = paths.pop()
        for nxt in sorted(imports(path[-1])):
            if nxt == goal:
                return [*path, nxt]
            if nxt not in seen:
                seen.add(nxt)
                paths.append([*path, nxt])
    return None


def test_the_core_imports_no_edge() -> None:
    wrong = sorted(
        f"{m} imports {i}" for m in modules() if _in(m, CORE) for i in imports(m) if _in(i, EDGES)
    )
    assert wrong == [], "the core must be handed its ruleset, not look for it:\n" + "\n".join(wrong)


def test_no_import_circle_runs_through_the_core() -> None:
    circles = []
    for module in sorted(m for m in modules() if _in(m, CORE)):
        path = _reaches(module, module)
        if path is not None:
            circles.append(" -> ".join(path))
    assert circles == [], "import circles through the core:\n" + "\n".join(circles)


def test_geometry_knows_no_game() -> None:
    # ghillie.measure is plain geometry (inches, squares, hexes): it imports nothing of
    # ghillie but itself and the bounds of a coordinate.
    wrong = sorted(
        f"{m} imports {i}"
        for m in modules()
        if _in(m, ("ghillie.measure",))
        for i in imports(m)
        if not _in(i, ("ghillie.measure", "ghillie.bounds"))
    )
    assert wrong == []


def test_the_picture_sees_imports_inside_functions_and_leaves_out_type_checking() -> None:
    # The test is only as good as its reading of the imports: forms names the ruleset only
    # for the type checker, and the CLI imports the registry.
    assert "ghillie.ruleset" not in imports("ghillie.forms")
    assert "ghillie.registry" in imports("ghillie.cli")
    assert "ghillie.engine" in imports("ghillie.offered")
