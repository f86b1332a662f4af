"""The Movement Phase's secret orders: each ship's move, plotted (BSG-R05) and carried out
when both sides have ended the phase (movement.py), and the ships declared to scan
(BSG-A06), which roll at its end. A carrier's launches and landings are hangar.py's."""

from __future__ import annotations

from ghillie.errors import Refusal
from ghillie.words import Say, say, says

from .board import Rules, ScanDeclared
from .commands import Plot, Scan
from .pieces import OFF_BOARD, is_edge, is_off_board, own_ship
from .setup import OFF_MAP

NOT_AN_EDGE = "not_an_edge"


def plot(ruling: Rules, side: str, command: Plot) -> None:
    """Each move is kept secret until the phase ends. A ship leaves the board, or comes back
    onto it, only at an edge hex of the map."""
    hex_map = ruling.scenario.hex_map
    moves: list[Say] = []
    for move in command.moves:
        ship = own_ship(ruling.state, side, move.ship)
        try:
            to = hex_map.from_label(move.to)
        except ValueError:
            raise Refusal(OFF_MAP, "That hex is not on this map.") from None
        away = is_off_board(ship)
        if away and move.leave:
            raise Refusal(OFF_BOARD, "That ship is off the board: plot it back on at an edge hex.")
        if (away or move.leave) and not is_edge(hex_map, to):
            raise Refusal(NOT_AN_EDGE, "A ship leaves or comes back onto the board at an edge hex.")
        plotted = {"to": move.to, "heading": move.heading, "speed": move.speed, "note": move.note}
        if move.leave:
            plotted["leave"] = True
        ruling.update(ship.id, secret={"plot": plotted})
        if move.leave:
            moves.append(
                say("{ship} to leave the board at hex {hex}", ship=ship.secret["name"], hex=move.to)
            )
        else:
            moves.append(
                say(
                    "{ship} to hex {hex}, heading {heading}, speed {speed}",
                    ship=ship.secret["name"],
                    hex=move.to,
                    heading=move.heading,
                    speed=move.speed,
                )
            )
    ruling.tell(
        side,
        {
            "event": "plotted",
            "text": says(
                "In secret, you plot {n} move: {moves}. It is carried out when both sides have "
                "ended the Movement Phase.",
                "In secret, you plot {n} moves: {moves}. They are carried out together when "
                "both sides have ended the Movement Phase.",
                len(moves),
                moves=moves,
                rules=("BSG-R05", "BSG-R06"),
            ),
        },
    )


def scan(ruling: Rules, side: str, command: Scan) -> None:
    chosen = sorted({own_ship(ruling.state, side, ref).id for ref in command.ships})
    if any(is_off_board(ruling.piece(ship)) for ship in chosen):
        raise Refusal(OFF_BOARD, "A ship off the board cannot scan.")
    ruling.change(ScanDeclared(side, chosen))
    names = [ruling.piece(ship).secret["name"] for ship in chosen]
    ruling.tell(
        side,
        {
            "event": "scanning",
            "text": say(
                "In secret, you say {ships} will scan this turn: at the end of the Movement "
                "Phase each rolls against every enemy field.",
                ships=names,
                rules=("BSG-R12", "BSG-R13", "BSG-A06"),
            )
            if names
            else say("In secret, you say no ship of yours scans this turn.", rules=("BSG-A06",)),
        },
    )
