"""Taking markers off the table and putting what they hid on it.

RULES-SPEC SW-R06..R09: "Во всех случаях маркер снимается, и на его месте выставляется
отделение, если оно там вообще есть" — in every case the marker is removed and the squad, if
there is one at all, is placed centred on its spot. A mine or IED becomes a known minefield
marker (SW-A07); a sniper is placed at its true marker and all its markers go (SW-R35).
"""

from __future__ import annotations

from typing import Any

from ghillie.ruling import Ruling
from ghillie.state import Facts, Level, Piece

from .board import SNIPER_MARKER, Board, Face, Status


def expose(ruling: Ruling[Board], marker: Piece, *, suppression: int = 0) -> Facts:
    """Remove a suspicious-place marker; return what every side may now read about it."""
    content = marker.secret.get("content", "nothing")
    label = marker.public["label"]
    if content == "unit":
        unit = ruling.piece(marker.secret["unit"])
        total = unit.public["suppression"] + suppression + unit.secret.get("hidden_suppression", 0)
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
