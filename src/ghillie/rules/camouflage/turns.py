"""Between Orders: the end of a Player Turn, and what the base game does to a trooper that
the Camouflaged State answers to (INF-R13 f), a model's facing (INF-R15), the game's end."""

from __future__ import annotations

from ghillie import lookup
from ghillie.errors import Refusal
from ghillie.state import Level, Phase
from ghillie.words import say

from . import camo, declare
from .board import TROOPER, Rules
from .changes import GameOver, PlayerTurn
from .codes import NOT_IN_PLAY
from .commands import EndGame, EndTurn, Face, Impetuous, Retreat


def end_turn(ruling: Rules, side: str, command: EndTurn) -> None:
    scenario = ruling.scenario
    board = ruling.board
    turn = board.turn + 1
    if turn > 2 * scenario.rounds:
        end_game(ruling, side, command)
        return
    active = declare.active_in(scenario, turn)
    ruling.change(PlayerTurn(turn=turn, active=active))
    ruling.tell_public(
        {
            "text": say(
                "Player Turn {turn}: {side} are the active player.",
                turn=turn,
                side=scenario.side_name(active),
            )
        }
    )


def impetuous(ruling: Rules, side: str, command: Impetuous) -> None:
    trooper = declare.actor(ruling.state, side, command.piece, "piece")
    ruling.update(trooper.id, public={"impetuous": True})
    marker = trooper.public.get("marker")
    if marker:
        camo.reveal(ruling, marker, "impetuous")
    else:
        ruling.tell_public({"text": say("{who} is Impetuous.", who=trooper.public["name"])})


def retreat(ruling: Rules, side: str, command: Retreat) -> None:
    said = say("{side} enter the Retreat! State.", side=ruling.scenario.side_name(side))
    ruling.tell_public({"text": said})
    for piece in ruling.state.owned(side, TROOPER):
        marker = piece.public.get("marker")
        if marker and piece.public["state"] != "down":
            camo.reveal(ruling, marker, "retreat")


def face(ruling: Rules, side: str, command: Face) -> None:
    piece = lookup.own(ruling.state, side, command.piece, [TROOPER, "equipment"])
    if not piece.public.get("face_due"):
        raise Refusal(
            NOT_IN_PLAY,
            "Only a model that has just replaced its marker is turned here.",
            field="piece",
        )
    ruling.update(piece.id, public={"facing": command.facing, "face_due": False})
    ruling.tell_public(
        {
            "text": say(
                "{who} is placed facing {facing}°, as its owner chooses.",
                who=piece.public["name"],
                facing=command.facing,
                rules=("INF-R15",),
            )
        }
    )


def end_game(ruling: Rules, side: str, command: EndGame | EndTurn) -> None:
    """The game ends when a side ends it, or with the last Player Turn's end."""
    ruling.change(GameOver())
    ruling.set_phase(Phase.OVER)
    # Private Information opens at the end (N5): what every marker still on the table
    # stands for is shown, with its proof, and that trooper's Public Information.
    for piece in list(ruling.state.pieces.values()):
        if piece.kind == "marker":
            for other in ruling.state.others(piece.owner):
                ruling.open(piece.id, other, "hides")
                ruling.reveal(piece.secret["hides"], other, Level.IDENTIFIED)
            ruling.tell_public(
                {
                    "text": say(
                        "Marker {marker} stood for {piece}.",
                        marker=piece.public["number"],
                        piece=ruling.piece(piece.secret["hides"]).public["name"],
                    )
                }
            )
    ruling.tell_public({"text": say("The game is over.")})
