"""Taking markers off the table and putting what they hid on it.

RULES-SPEC SW-R06..R09: "Во всех случаях маркер снимается, и на его месте выставляется
отделение, если оно там вообще есть" — in every case the marker is removed and the squad, if
there is one at all, is placed centred on its spot. A mine or IED becomes a known minefield
marker (SW-A07); a sniper is placed at its true marker and all its markers go (SW-R35).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from shapely.geometry import Point

from ghillie.measure.tabletop import group_shape
from ghillie.scenario import Mode
from ghillie.state import Facts, Level, Piece
from ghillie.words import Say, say, says

from .board import MARKER, SNIPER_MARKER, UNIT, Face, Rules, State, Status, model_points
from .scenario import InsideSquad
from .words import name


def expose(
    ruling: Rules,
    marker: Piece,
    why: Say | None = None,
    *,
    rules: Sequence[str] = (),
    by_owner: bool = False,
    suppression: int = 0,
    cap: int | None = None,
) -> Facts:
    """Remove a suspicious-place marker; return what every side may now read about it, the
    sentence saying why (``why``: "in the open, in sight of Volk") and what was there.

    ``by_owner``: the unit under it comes out itself (SW-R06, SW-A14). ``suppression``
    markers come with the unit (SW-R16); ``cap`` bounds the total when they come from a
    sniper's fire (SW-R31: never more than 3)."""
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
        return {
            "revealed": "unit",
            "unit": unit.id,
            "text": _unit_found(name(unit), label, why, total, by_owner, rules),
        }
    if content in ("mine", "ied"):
        ruling.update(marker.id, public={"face": Face.MINEFIELD.value, "content": content})
        for other in ruling.state.others(marker.owner):
            ruling.reveal(marker.id, other, Level.IDENTIFIED)
        rules = (*rules, "SW-A07")
        if content == "mine":
            text = (
                say(
                    "Marker {label}: mines are there. It stays, as a known minefield.",
                    rules=rules,
                    label=label,
                )
                if why is None
                else say(
                    "Marker {label} ({why}): mines are there. It stays, as a known minefield.",
                    rules=rules,
                    label=label,
                    why=why,
                )
            )
        else:
            text = (
                say(
                    "Marker {label}: an improvised explosive device is there. It stays, as a "
                    "known minefield.",
                    rules=rules,
                    label=label,
                )
                if why is None
                else say(
                    "Marker {label} ({why}): an improvised explosive device is there. It stays, "
                    "as a known minefield.",
                    rules=rules,
                    label=label,
                    why=why,
                )
            )
        return {"revealed": content, "text": text}
    ruling.remove(marker.id)
    text = (
        say("Marker {label} is removed: nothing was there.", rules=rules, label=label)
        if why is None
        else say(
            "Marker {label} is removed ({why}): nothing was there.",
            rules=rules,
            label=label,
            why=why,
        )
    )
    return {"revealed": "nothing", "text": text}


def _unit_found(
    unit: str | Say,
    label: str,
    why: Say | None,
    suppression: int,
    by_owner: bool,
    rules: Sequence[str],
) -> Say:
    """The sentence of a unit placed where its marker lay (SW-R06..R09, with SW-R16's
    suppression)."""
    if by_owner:
        if suppression:
            return says(
                "{unit} comes out from under marker {label} and is placed on its spot with {n} "
                "suppression marker.",
                "{unit} comes out from under marker {label} and is placed on its spot with {n} "
                "suppression markers.",
                suppression,
                rules=rules,
                unit=unit,
                label=label,
            )
        return say(
            "{unit} comes out from under marker {label} and is placed on its spot.",
            rules=rules,
            unit=unit,
            label=label,
        )
    if why is None and suppression:
        return says(
            "Marker {label} is removed: {unit} was there and is placed on its spot with {n} "
            "suppression marker.",
            "Marker {label} is removed: {unit} was there and is placed on its spot with {n} "
            "suppression markers.",
            suppression,
            rules=rules,
            unit=unit,
            label=label,
        )
    if why is None:
        return say(
            "Marker {label} is removed: {unit} was there and is placed on its spot.",
            rules=rules,
            unit=unit,
            label=label,
        )
    if suppression:
        return says(
            "Marker {label} is removed ({why}): {unit} was there and is placed on its spot "
            "with {n} suppression marker.",
            "Marker {label} is removed ({why}): {unit} was there and is placed on its spot "
            "with {n} suppression markers.",
            suppression,
            rules=rules,
            unit=unit,
            label=label,
            why=why,
        )
    return say(
        "Marker {label} is removed ({why}): {unit} was there and is placed on its spot.",
        rules=rules,
        unit=unit,
        label=label,
        why=why,
    )


def flip(ruling: Rules, marker: Piece) -> None:
    """SW-R14, h = 1 on a unit: "там точно что-то есть" — certainly someone is there."""
    ruling.update(marker.id, public={"face": Face.FLIPPED.value})
    for other in ruling.state.others(marker.owner):
        ruling.reveal(marker.id, other, Level.DETECTED)


def sniper_markers(ruling: Rules, sniper_id: str) -> list[Piece]:
    return [
        p
        for p in ruling.state.pieces.values()
        if p.kind == SNIPER_MARKER and p.public["sniper"] == sniper_id
    ]


class Found(StrEnum):
    """How a hidden sniper comes to be placed on the table (SW-R35)."""

    SPOTTED = "spotted"  # an observation with both dice higher on his true marker (R35a)
    EXPOSED = "exposed"  # an enemy in sight of his marker in the open (SW-A15 option)
    BETRAYED = "betrayed"  # a 1 on his quality die (R35b)


def reveal_sniper(ruling: Rules, sniper: Piece, found: Found, why: Say | None = None) -> Facts:
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
    args: dict[str, Any] = {"sniper": name(sniper), "label": true.public["label"]}
    if found is Found.SPOTTED:
        text = say(
            "{sniper} is spotted under sniper marker {label}: he is placed there, and all his "
            "sniper markers are removed.",
            rules=("SW-R35", "SW-A10"),
            **args,
        )
    elif found is Found.EXPOSED:
        text = say(
            "{sniper} is exposed under sniper marker {label} ({why}): he is placed there, and "
            "all his sniper markers are removed.",
            rules=("SW-R35", "SW-A15"),
            why=why,
            **args,
        )
    else:
        text = say(
            "{sniper} gives himself away: his quality die shows 1. He is placed at sniper "
            "marker {label}, and all his sniper markers are removed.",
            rules=("SW-R35",),
            **args,
        )
    return {"revealed": "sniper", "unit": sniper.id, "marker": true.id, "text": text}


def false_sniper_marker(ruling: Rules, marker: Piece, why: Say | None = None) -> Facts:
    """SW-A10: a false sniper marker has nothing under it, and goes."""
    for other in ruling.state.others(marker.owner):
        ruling.open(marker.id, other, "true")
    ruling.remove(marker.id)
    label = marker.public["label"]
    text = (
        say("Sniper marker {label} is removed: it was a false one.", rules=("SW-A10",), label=label)
        if why is None
        else say(
            "Sniper marker {label} is removed ({why}): it was a false one.",
            rules=("SW-A10", "SW-A15"),
            label=label,
            why=why,
        )
    )
    return {"revealed": "nothing", "text": text}


# --- SW-R07 / SW-R08: markers an enemy unit exposes on a map ---------------------------------


def exposed_on_map(state: State, unit: Piece) -> list[tuple[Piece, Say]]:
    """Enemy markers lying in the open that ``unit`` now sees (SW-R07), or that now lie
    inside it (SW-R08, SW-A05), each with the reason it goes."""
    scenario = state.scenario
    table = scenario.tabletop
    points = model_points(unit)
    hull = scenario.switches.inside_squad is InsideSquad.HULL_OR_CONTACT
    radius = scenario.table.base_radius
    exposed = []
    inside = group_shape(points, radius, hull=hull)  # once for every marker
    for marker in list(state.pieces.values()):
        if marker.owner == unit.owner or marker.kind not in (MARKER, SNIPER_MARKER):
            continue
        at = tuple(marker.public["at"])
        if inside is not None and inside.covers(Point(at)):
            exposed.append(
                (marker, say("{unit} stands on it", rules=("SW-R08", "SW-A05"), unit=name(unit)))
            )
        elif table.in_open(at) and any(table.line_of_sight(p, at) for p in points):
            exposed.append(
                (
                    marker,
                    say("in the open, in sight of {unit}", rules=("SW-R07",), unit=name(unit)),
                )
            )
    return exposed


def exposed_at_table(unit: Piece, markers: list[Piece]) -> list[tuple[Piece, Say]]:
    """The markers a move at a real table exposed, as the moving side says (SW-R07, R08)."""
    why = say("{unit} moves and exposes it", rules=("SW-R07", "SW-R08"), unit=name(unit))
    return [(marker, why) for marker in markers]


def expose_markers(ruling: Rules, found: list[tuple[Piece, Say]]) -> list[Facts]:
    """Remove exposed markers and place what they hid; a line for each."""
    scenario = ruling.scenario
    lines = []
    for marker, why in found:
        if marker.id not in ruling.state.pieces:
            continue  # gone with an earlier one (a sniper's other markers)
        if marker.kind == SNIPER_MARKER:
            if not scenario.switches.open_sight_reveals_snipers:
                continue  # SW-A15: the marker rules do not apply to snipers
            if marker.secret["true"]:
                sniper = ruling.piece(marker.public["sniper"])
                lines.append(reveal_sniper(ruling, sniper, Found.EXPOSED, why))
            else:
                lines.append(false_sniper_marker(ruling, marker, why))
        elif marker.public["face"] != Face.MINEFIELD:
            lines.append(expose(ruling, marker, why))
    return lines


def expose_at_start(ruling: Rules) -> None:
    """SW-R07/R08 when play starts on a map: "Если противник оказывается в прямой
    видимости от маркера, лежащего на открытой местности" — an enemy that already stands in
    sight of a marker in the open (or on top of one) exposes it; it need not move first."""
    if ruling.scenario.mode is not Mode.MAP:
        return
    for unit in list(ruling.state.pieces.values()):
        if unit.kind != UNIT or unit.public["status"] != Status.ON_TABLE:
            continue
        found = expose_markers(ruling, exposed_on_map(ruling.state, unit))
        for line in found:
            ruling.tell_public({"event": "exposed", **line})
