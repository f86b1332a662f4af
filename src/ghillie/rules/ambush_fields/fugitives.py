"""Fugitive ships: hiding from pursuers that have left the board (BSG-R27, A19).

A ship that is already identified when it enters one of its side's fields keeps the field's
protection but cannot hide: its pursuers have its signature (R27). Its pursuers are the
enemy ships on the board when it entered (A19) — on its side's board: the counters it sees,
since hidden units are "taken off the board" (R05). Once none of them is on the board at
the end of some Movement Phase, the fugitive may hide if it is in the field ("it could have
shut down its engines and power sources and created a new signal for itself"), and it stays
hidden when they return.

"May": its owner chooses, with the ``hide`` command, in any phase while it is still in one
of its side's active fields. The ship then goes dark: the identified counter leaves the
enemy's board, and the ship goes on under a new id, hidden like any unit in the field, so
that no one can tie a counter seen later to the ship that was identified. A side that has
located a field it is in sees a new face-down counter where it was (R17 DEFAULT: every unit
in a located field stays detected) — hiding is never refused for that: the rules let the
fugitive go dark, and its owner is told that the enemy sees the new counter.

The pursuers are kept in the fugitive's secret part as piece ids its side can see; an empty
list means it has shaken them off. A ship that leaves its side's fields is no fugitive any
more: entering again starts a new pursuit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ghillie.errors import Refusal
from ghillie.state import SPECTATOR, Level, Piece
from ghillie.words import say, says

from .board import FieldState, Rules, ScanDeclared, State
from .commands import Hide
from .fields import Visibility, hiding_fields
from .pieces import FIELD, on_board, own_ship, ships, visibility, where
from .pieces import fields as field_geometry
from .story import ship_name, sight, tell_sighted

STILL_PURSUED = "still_pursued"
NOT_IN_A_FIELD = "not_in_a_field"
PURSUERS = "pursuers"


def track(ruling: Rules, was_in: Mapping[str, Sequence[str]]) -> None:
    """At the end of a Movement Phase, once containment is settled: start a pursuit for each
    identified ship that has just entered its side's fields, and end the pursuit of each
    fugitive whose pursuers are all off the board. ``was_in`` holds each ship's friendly
    fields at the previous check."""
    state = ruling.state
    for ship in ships(state):
        inside = list(ship.secret.get("in_fields", []))
        tracked = [
            o
            for o in state.others(ship.owner)
            if visibility(state, o, ship) is Visibility.IDENTIFIED
        ]
        if not inside or not tracked:
            if PURSUERS in ship.secret:
                ruling.update(ship.id, unset=(PURSUERS,))
            continue
        name = ship.secret["name"]
        pursuers = ship.secret.get(PURSUERS)
        if pursuers is None:
            if was_in.get(ship.id):
                continue  # identified while in the field, not on entering it: no fugitive
            pursuers = sorted(
                p.id
                for p in ships(state)
                if p.owner != ship.owner and on_board(state, ship.owner, p.id)
            )
            ruling.update(ship.id, secret={PURSUERS: pursuers})
            if pursuers:
                ruling.tell(
                    ship.owner,
                    {
                        "event": "fugitive",
                        "ship": ship.id,
                        "text": says(
                            "{ship} is in your field and has its protection, but the enemy has "
                            "its signature: it stays identified until the enemy ship now on "
                            "the board has left it.",
                            "{ship} is in your field and has its protection, but the enemy has "
                            "its signature: it stays identified until the {n} enemy ships now "
                            "on the board have left it.",
                            len(pursuers),
                            ship=name,
                            rules=("BSG-R27", "BSG-A19"),
                        ),
                    },
                )
                continue
        elif not pursuers:
            continue  # shaken off already
        if any(on_board(state, ship.owner, p) for p in pursuers):
            continue
        if pursuers:
            ruling.update(ship.id, secret={PURSUERS: []})
        ruling.tell(
            ship.owner,
            {
                "event": "pursuit_lost",
                "ship": ship.id,
                "text": say(
                    "{ship} has shaken off its pursuers: it may hide while it stays in the field.",
                    ship=name,
                    rules=("BSG-R27", "BSG-A19"),
                ),
            },
        )


def may_hide(state: State, ship: Piece) -> bool:
    """Has this fugitive shaken off its pursuers, and is it in one of its side's fields?"""
    at = where(state, ship)
    if ship.secret.get(PURSUERS) != [] or at is None:
        return False
    return bool(hiding_fields(at, ship.owner, field_geometry(state)))


def hide(ruling: Rules, side: str, command: Hide) -> None:
    state = ruling.state
    old = own_ship(state, side, command.ship)
    at = where(state, old)
    if old.secret.get(PURSUERS) != []:
        raise Refusal(STILL_PURSUED, "Only a ship that has shaken off its pursuers can hide.")
    inside = hiding_fields(at, side, field_geometry(state)) if at is not None else []
    if not inside:
        raise Refusal(NOT_IN_A_FIELD, "A ship can hide only inside one of your fields.")
    watchers = [o for o in state.others(side) if visibility(state, o, old) is not Visibility.HIDDEN]
    lost = {o: ship_name(state, o, old, first=True) for o in watchers}
    spectated = ship_name(state, SPECTATOR, old, first=True)
    # The new counter is placed before the old one goes (one more ship's facts for an
    # event: Ruleset.secret_facts counts them).
    new = Piece(
        ruling.new_id(),
        side,
        old.kind,
        dict(old.public),
        {k: v for k, v in old.secret.items() if k != PURSUERS},
    )
    ruling.place(new)
    for piece in list(state.pieces.values()):
        if piece.kind == FIELD and piece.secret.get("controller") == old.id:
            ruling.update(piece.id, secret={"controller": new.id})
    scanning = ruling.board.scanners.get(side, frozenset())
    if old.id in scanning:
        ruling.change(ScanDeclared(side, sorted((scanning - {old.id}) | {new.id})))
    ruling.remove(old.id)
    before = sight(state)
    for other in state.others(side):
        # R17 DEFAULT: in a field this side has located, every unit is at least detected.
        if any(ruling.board.knows(other, f.key) is FieldState.LOCATED for f in inside):
            ruling.reveal(new.id, other, Level.DETECTED)
    name = old.secret["name"]
    ruling.tell(
        side,
        {
            "event": "hidden",
            "ship": new.id,
            "text": say(
                "{ship} goes dark in the field and hides: the enemy loses its trail.",
                ship=name,
                rules=("BSG-R27", "BSG-A19"),
            ),
        },
    )
    for other, what in lost.items():
        ruling.tell(
            other,
            {
                "event": "trail_lost",
                "text": say("{ship} goes dark: its trail is lost.", ship=what, rules=("BSG-R27",)),
            },
        )
    if watchers and len(watchers) == len(state.others(side)):
        ruling.tell(
            SPECTATOR,
            {
                "event": "trail_lost",
                "text": say(
                    "{ship} goes dark: its trail is lost.", ship=spectated, rules=("BSG-R27",)
                ),
            },
        )
    tell_sighted(ruling, before, rules=("BSG-R17", "BSG-A12"))
