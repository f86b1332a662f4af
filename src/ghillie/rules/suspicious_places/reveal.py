"""Taking markers off the table and putting what they hid on it.

RULES-SPEC SW-R06..R09: "Во всех случаях маркер снимается, и на его месте выставляется
отделение, если оно там вообще есть" — in every case the marker is removed and the squad, if
there is one at all, is placed centred on its spot. A mine or IED becomes a known minefield
marker (SW-A07); a sniper is placed at its true marker and all its markers go (SW-R35).
"""

from __future__ import annotations

from typing import Any

from ghillie.measure.tabletop import group_covers
from ghillie.ruling import Ruling
from ghillie.scenario import Mode
from ghillie.state import Facts, GameState, Level, Piece

from .board import MARKER, SNIPER_MARKER, UNIT, Board, Face, Status, model_points
from .scenario import InsideSquad, SuspiciousPlacesScenario


def expose(
    ruling: Ruling[Board], marker: Piece, *, suppression: int = 0, cap: int | None = None
) -> Facts:
    """Remove a suspicious-place marker; return what every side may now read about it.

    ``suppression`` markers come with the unit (SW-R16); ``cap`` bounds the total when they
    come from a sniper's fire (SW-R31: never more than 3)."""
    content = marker.secret.get("content", "nothing")
    label = marker.public["label"]
    keys = ("content", "unit") if content == "unit" else ("content",)
    for other in ruling.state.others(marker.owner):
        # What the marker was committed to hide when it was laid, proved to the other side.
        ruling.open(marker.id, other, *keys)
    if content == "unit":
        unit = ruling.piece(marker.secret["unit"])
        total = unit.public["suppression"] + suppression + unit.secret.get("hidden_suppression", 0)
        if cap is not None:
            total = min(total, cap)
        ruling.remove(marker.id)
        ruling.update(
            unit.id,
            public={
                "status": Status.ON_TABLE.value,
                "at": marker.public.get("at"),
                "suppression": total,
            },
            unset=("marker", "hidden_suppression"),
        )
        for other in ruling.state.others(unit.owner):
            ruling.reveal(unit.id, other, Level.IDENTIFIED)
        placed = f"{unit.public['name']} is there and is placed"
        if total:
            placed += f" with {total} suppression marker(s)"
        return {"revealed": "unit", "unit": unit.id, "text": f"{label} removed: {placed}."}
    if content in ("mine", "ied"):
        ruling.update(marker.id, public={"face": Face.MINEFIELD.value, "content": content})
        for other in ruling.state.others(marker.owner):
            ruling.reveal(marker.id, other, Level.IDENTIFIED)
        what = "a minefield" if content == "mine" else "an IED"
        return {
            "revealed": content,
            "text": f"{label}: {what} — a known minefield marker stays there.",
        }
    ruling.remove(marker.id)
    return {"revealed": "nothing", "text": f"{label} removed: nothing was there."}


def flip(ruling: Ruling[Board], marker: Piece) -> None:
    """SW-R14, h = 1 on a unit: "там точно что-то есть" — certainly someone is there."""
    ruling.update(marker.id, public={"face": Face.FLIPPED.value})
    for other in ruling.state.others(marker.owner):
        ruling.reveal(marker.id, other, Level.DETECTED)


def sniper_markers(ruling: Ruling[Any], sniper_id: str) -> list[Piece]:
    return [
        p
        for p in ruling.state.pieces.values()
        if p.kind == SNIPER_MARKER and p.public["sniper"] == sniper_id
    ]


def reveal_sniper(ruling: Ruling[Board], sniper: Piece, why: str) -> Facts:
    """SW-R35: place the sniper at its true marker and remove all its sniper markers."""
    markers = sniper_markers(ruling, sniper.id)
    true = next(m for m in markers if m.secret["true"])
    for marker in markers:
        for other in ruling.state.others(sniper.owner):
            ruling.open(marker.id, other, "true")
        ruling.remove(marker.id)
    ruling.update(sniper.id, public={"status": Status.ON_TABLE.value, "at": true.public.get("at")})
    for other in ruling.state.others(sniper.owner):
        ruling.reveal(sniper.id, other, Level.IDENTIFIED)
    return {
        "revealed": "sniper",
        "unit": sniper.id,
        "marker": true.id,
        "text": f"{sniper.public['name']} {why}: placed at {true.public['label']}; "
        "all its sniper markers are removed.",
    }


# --- SW-R07 / SW-R08: markers an enemy unit exposes on a map ---------------------------------


def exposed_on_map(
    state: GameState[Any], scenario: SuspiciousPlacesScenario, unit: Piece
) -> list[Piece]:
    """Enemy markers lying in the open that ``unit`` now sees (SW-R07), or that now lie
    inside it (SW-R08, SW-A05)."""
    table = scenario.tabletop
    points = model_points(unit)
    hull = scenario.switches.inside_squad is InsideSquad.HULL_OR_CONTACT
    radius = scenario.table.base_radius
    exposed = []
    for marker in list(state.pieces.values()):
        if marker.owner == unit.owner or marker.kind not in (MARKER, SNIPER_MARKER):
            continue
        at = tuple(marker.public["at"])
        inside = group_covers(points, radius, at, hull=hull)
        in_sight = table.in_open(at) and any(table.line_of_sight(p, at) for p in points)
        if inside or in_sight:
            exposed.append(marker)
    return exposed


def expose_markers(
    ruling: Ruling[Board], scenario: SuspiciousPlacesScenario, markers: list[Piece]
) -> list[Facts]:
    """Remove exposed markers and place what they hid; a line for each."""
    lines = []
    for marker in markers:
        if marker.id not in ruling.state.pieces:
            continue  # gone with an earlier one (a sniper's other markers)
        if marker.kind == SNIPER_MARKER:
            if not scenario.switches.open_sight_reveals_snipers:
                continue  # SW-A15: the marker rules do not apply to snipers
            lines.append(_expose_sniper_marker(ruling, marker))
        elif marker.public["face"] != Face.MINEFIELD:
            lines.append(expose(ruling, marker))
    return lines


def _expose_sniper_marker(ruling: Ruling[Board], marker: Piece) -> Facts:
    if marker.secret["true"]:
        return reveal_sniper(ruling, ruling.piece(marker.public["sniper"]), "is exposed")
    for other in ruling.state.others(marker.owner):
        ruling.open(marker.id, other, "true")
    ruling.remove(marker.id)
    return {
        "revealed": "nothing",
        "text": f"{marker.public['label']} removed: a false sniper marker.",
    }


def expose_at_start(ruling: Ruling[Board], scenario: SuspiciousPlacesScenario) -> None:
    """SW-R07/R08 when play starts on a map: "Если противник оказывается в прямой
    видимости от маркера, лежащего на открытой местности" — an enemy that already stands in
    sight of a marker in the open (or on top of one) exposes it; it need not move first."""
    if scenario.mode is not Mode.MAP:
        return
    for unit in list(ruling.state.pieces.values()):
        if unit.kind != UNIT or unit.public["status"] != Status.ON_TABLE:
            continue
        found = expose_markers(ruling, scenario, exposed_on_map(ruling.state, scenario, unit))
        for line in found:
            ruling.tell_public({"event": "exposed", **line})
