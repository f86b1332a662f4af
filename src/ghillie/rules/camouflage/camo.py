"""Leaving the state and going back into it: the marker replaced by its model (INF-R10,
R13-R15), and a Long Skill out of every enemy's sight that lays a new marker (INF-R02)."""

from __future__ import annotations

from ghillie.state import SPECTATOR, Level, Piece
from ghillie.words import N_, Say, say

from .board import EQUIPMENT, MARKER, Game, Rules, State
from .deployment import lay_marker

# INF-R13: why the state ends, in words (a fragment of the reveal's sentence, for the
# catalogue: N_), with the rule each reason applies.
REASONS: dict[str, tuple[str, str]] = {
    "attack": (N_("it declared an Attack"), "INF-R13"),
    "look_out": (N_("it declared Look Out!"), "INF-R13"),
    "roll": (N_("it declared a skill that requires a Roll"), "INF-R13"),
    "long": (N_("it declared a Long Skill other than Cautious Movement"), "INF-R13"),
    "contact": (N_("it entered Silhouette contact with an enemy model"), "INF-R13"),
    "discovered": (N_("it was Discovered"), "INF-R10"),
    "save": (N_("it was forced to make a Saving Roll"), "INF-R13"),
    "impetuous": (N_("it is Impetuous"), "INF-R13"),
    "retreat": (N_("it entered the Retreat! State"), "INF-R13"),
}


def stood_for(state: Game, marker_id: str) -> Piece | None:
    """The model a marker stood for, once that is public (it replaced the marker)."""
    return next((p for p in state.pieces.values() if marker_id in p.public.get("were", [])), None)


def reveal(ruling: Rules, marker_id: str, why: str) -> Piece:
    """The Camouflaged State ends: the marker is replaced by its model, facing as its owner
    chooses (it is asked afterwards), and every enemy is given the trooper's complete Public
    Information and the proof of what the marker hid since it was laid (INF-R15)."""
    marker = ruling.piece(marker_id)
    assert marker.kind == MARKER
    piece = ruling.piece(marker.secret["hides"])
    side = marker.owner
    for other in ruling.state.others(side):
        ruling.open(marker.id, other, "hides")
    at = marker.public.get("at")
    # Which markers this model stood under is public once it replaces them: an Order that
    # named the marker (Discover + Attack) goes on against the model.
    were = [*piece.public.get("were", []), marker.id]
    public: dict[str, object] = {"state": State.MODEL, "face_due": True, "were": were}
    if at is not None:
        public["at"] = at
    ruling.update(piece.id, public=public, unset=("marker",))
    ruling.remove(marker.id)
    for other in ruling.state.others(side):
        ruling.reveal(piece.id, other, Level.IDENTIFIED)
    reason, rule = REASONS[why]
    what = (
        say(
            "Marker {marker} was {piece}, a camouflaged item.",
            marker=marker.public["number"],
            piece=piece.public["name"],
        )
        if piece.kind == EQUIPMENT
        else say(
            "Marker {marker} is {piece}, revealed because {reason}: the model replaces the marker.",
            marker=marker.public["number"],
            piece=piece.public["name"],
            reason=Say(reason),
            rules=(rule, "INF-R15"),
        )
    )
    ruling.tell_public({"text": what})
    return ruling.piece(piece.id)


def recamouflage(ruling: Rules, piece_id: str) -> Piece:
    """INF-R02: the model leaves the table and a new marker stands for it — a new marker
    for lock-outs (INF-R10) — and it leaves its Fireteam (INF-R08). Its opponent, who watched
    the model replaced, keeps what it knew (INF-A12, ``inf.recamo_keeps_identity``)."""
    piece = ruling.piece(piece_id)
    side = piece.owner
    at = piece.public.get("at")
    marker = lay_marker(ruling, side, piece, list(at) if at is not None else None)
    ruling.update(piece.id, public={"fireteam": "", "face_due": False})
    keeps = ruling.scenario.switches.recamo_keeps_identity
    for other in ruling.state.others(side):
        if keeps:
            ruling.reveal(marker.id, other, Level.SUSPECTED, {"stands_for": piece.id})
        else:
            ruling.reveal(piece.id, other, Level.UNKNOWN)
    left = piece.public.get("fireteam")
    for reader in (*ruling.state.sides, SPECTATOR):
        if reader == side or keeps:
            text = say(
                "{piece} goes back into Camouflaged State: Marker {marker} replaces the model.",
                piece=piece.public["name"],
                marker=marker.public["number"],
                rules=("INF-R02",),
            )
        else:
            text = say(
                "A model goes back into Camouflaged State: Marker {marker} replaces it.",
                marker=marker.public["number"],
                rules=("INF-R02", "INF-A12"),
            )
        ruling.tell(reader, {"text": text})
    if left:
        # Told to everyone who knows which marker it is now (INF-A12); with the switch off,
        # only its owner.
        ruling.tell_each(
            {
                "text": say(
                    "{piece} is no longer part of Fireteam {team}.",
                    piece=piece.public["name"],
                    team=left,
                    rules=("INF-R08",),
                )
            },
            (*ruling.state.sides, SPECTATOR) if keeps else (side,),
        )
    return marker
