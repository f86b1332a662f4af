"""The game's first event and the Deployment Phase: troopers, and the markers that stand
for the camouflaged ones (INF-R01, R03, R04, R06)."""

from __future__ import annotations

from typing import Any

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.state import SPECTATOR, Level, Phase, Piece
from ghillie.words import say, says

from .board import EQUIPMENT, MARKER, TROOPER, Game, Rules, State
from .changes import Deployed, MarkersLaid, PlayerTurn
from .codes import BAD_DEPLOYMENT
from .commands import Deploy
from .scenario import CamouflageScenario, TrooperSpec


def profile(t: TrooperSpec) -> dict[str, Any]:
    """A trooper's complete Public Information (INF-R15), as the army list gives it."""
    return {
        "key": t.key,
        "name": t.name,
        "wip": t.wip,
        "bs": t.bs,
        "ph": t.ph,
        "arm": t.arm,
        "wounds": t.wounds,
        "silhouette": t.silhouette,
        "camouflage": t.camouflage,
        "mimetism": t.mimetism,
        "msv": t.msv,
        "sensor": t.sensor,
        "impetuous": t.impetuous,
        "weapons": list(t.weapons),
        "equipment": list(t.equipment),
        "skills": list(t.skills),
    }


def create(ruling: Rules, scenario: CamouflageScenario) -> None:
    for t in scenario.troopers:
        public: dict[str, Any] = {
            **profile(t),
            "state": State.CAMOUFLAGED if t.camouflaged else State.MODEL,
            "wounds_left": t.wounds,
            "fireteam": t.fireteam,
        }
        if not t.camouflaged and t.at is not None:
            public["at"] = list(t.at)
        piece = Piece(
            ruling.new_id(), t.side, TROOPER if t.kind == "trooper" else EQUIPMENT, public
        )
        # A model on the table is seen by everyone; a camouflaged one is not there at all
        # (INF-R03): its marker, laid at deployment, is all the enemy will see.
        known = (
            {} if t.camouflaged else dict.fromkeys(ruling.state.others(t.side), Level.IDENTIFIED)
        )
        ruling.place(piece, known)
    ruling.tell_public({"text": say("The armies are drawn up. Each side lays out its markers.")})


def camouflaged(state: Game, side: str) -> list[Piece]:
    return [
        p
        for p in state.owned(side)
        if p.kind in (TROOPER, EQUIPMENT)
        and p.public["state"] == State.CAMOUFLAGED
        and not p.public.get("marker")
    ]


def lay_marker(
    ruling: Rules, side: str, hides: Piece, at: list[float] | None, note: str = ""
) -> Piece:
    """A new Camouflaged Marker for ``hides``: its number is the side's next, its public
    facts its Silhouette and Mimetism level only (INF-A09); what it hides is its owner's
    secret, recorded in this very event (fixed: the opening proves it)."""
    # Numbered across both sides, so that "Marker 3" names one marker at the table.
    number = sum(ruling.board.markers.values()) + 1
    ruling.change(MarkersLaid(side=side, count=ruling.board.markers.get(side, 0) + 1))
    p = hides.public
    public: dict[str, Any] = {
        "label": f"M{number}",
        "number": number,
        # INF-R06: a weapon's or an item's marker has S2; a trooper's, its own.
        "silhouette": 2 if hides.kind == EQUIPMENT else p["silhouette"],
        "mimetism": p["mimetism"],  # INF-R04
    }
    if at is not None:
        public["at"] = list(at)
    secret = {"hides": hides.id, **({"note": note} if note else {})}
    marker = Piece(ruling.new_id(), side, MARKER, public, secret)
    everyone = dict.fromkeys(ruling.state.others(side), Level.SUSPECTED)
    ruling.place(marker, everyone)
    ruling.update(hides.id, public={"state": State.CAMOUFLAGED, "marker": marker.id}, unset=("at",))
    return marker


def deploy(ruling: Rules, side: str, command: Deploy) -> None:
    state, scenario = ruling.state, ruling.scenario
    owed = {p.id for p in camouflaged(state, side)}
    named: list[Piece] = []
    for i, entry in enumerate(command.markers):
        piece = lookup.own(state, side, entry.piece, [TROOPER, EQUIPMENT])
        if piece.id not in owed or piece.id in {n.id for n in named}:
            raise Refusal(
                BAD_DEPLOYMENT,
                "Give each camouflaged trooper and item one marker, and nothing else a marker.",
                field=f"markers.{i}.piece",
            )
        on_map = scenario.mode.value == "map"
        if on_map and (entry.at is None or not scenario.table.on_table(entry.at)):
            raise Refusal(BAD_DEPLOYMENT, "Place the marker on the table.", field=f"markers.{i}.at")
        named.append(piece)
    if len(named) != len(owed):
        raise Refusal(
            BAD_DEPLOYMENT,
            "Give each camouflaged trooper and item one marker, and nothing else a marker.",
            field="markers",
        )
    # The markers are numbered in an order that has nothing to do with what they hide: by
    # their random ids, not by the order the owner listed them in (which a page may take
    # from the scenario, which the enemy reads too).
    entries = sorted(zip(command.markers, named, strict=True), key=lambda e: ruling.new_id())
    laid = []
    for entry, piece in entries:
        at = list(entry.at) if entry.at is not None else None
        marker = lay_marker(ruling, side, piece, at, entry.note)
        laid.append(marker)
        ruling.tell(
            side,
            {
                "text": say(
                    "Marker {marker} stands for {piece}.",
                    marker=marker.public["number"],
                    piece=piece.public["name"],
                    rules=("INF-R01", "INF-R03"),
                )
            },
        )
    name = scenario.side_name(side)
    for reader in (*state.others(side), SPECTATOR):
        ruling.tell(
            reader,
            {
                "text": says(
                    "{side} lay out {n} Camouflaged Marker.",
                    "{side} lay out {n} Camouflaged Markers.",
                    len(laid),
                    side=name,
                    rules=("INF-R03", "INF-A09"),
                )
            },
        )
    ruling.change(Deployed(side=side))
    if ruling.board.deployed >= set(state.sides):
        ruling.set_phase(Phase.PLAY)
        ruling.change(PlayerTurn(turn=1, active=scenario.first))
        ruling.tell_public(
            {
                "text": say(
                    "Player Turn 1: {side} are the active player.",
                    side=scenario.side_name(scenario.first),
                )
            }
        )
