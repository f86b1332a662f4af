"""Setting up: the armies, the written ambush orders (DWV-R02..R05), getting ready."""

from __future__ import annotations

from ghillie.errors import OFF_TABLE, Refusal
from ghillie.state import Level, Phase, Piece
from ghillie.words import say, says

from .board import Rules, Status, own_unit
from .changes import NextTurn, OrdersRecorded, SideReady
from .codes import DUPLICATE_UNIT, IN_ENEMY_ZONE, NOT_AMBUSH_CAPABLE, SQUARE_TAKEN, UNREADABLE_ORDER
from .commands import Ready, RecordAmbushes
from .orders import Named, parse_order
from .scenario import SCANNING_WARGEAR, GridAmbushScenario, UnitSpec
from .story import name


def create_units(ruling: Rules, scenario: GridAmbushScenario) -> None:
    for unit in scenario.units:
        ruling.place(
            Piece(
                ruling.new_id(),
                unit.side,
                "unit",
                {
                    "key": unit.key,
                    "name": unit.name,
                    "leader": unit.leader,
                    "ambush": unit.ambush,
                    "base_radius": unit.base_radius,
                    "status": deployed(scenario, unit).value,
                    "models": [
                        {
                            "name": m.name,
                            "wargear": list(m.wargear),
                            "scanner": is_scanner(
                                scenario, unit.side, m.name, m.wargear, m.scanner
                            ),
                            "at": list(m.at) if m.at else None,
                            "lost": False,
                        }
                        for m in unit.models
                    ],
                },
            )
        )
    ambusher = scenario.ambusher()
    if ambusher is not None:
        # RULES-SPEC DWV-R02: the opponent is told the Ambush rules are in use.
        ruling.tell_public(
            {
                "event": "ambush_rules",
                "text": say(
                    "The Ambush rules are in use: {side} may hide units in the grid's squares, "
                    "written down before the armies set up, and an auspex or scanner in the "
                    "same square finds them.",
                    side=scenario.side_name(ambusher),
                    rules=("DWV-R02", "DWV-R03", "DWV-R07"),
                ),
            }
        )


def deployed(scenario: GridAmbushScenario, unit: UnitSpec) -> Status:
    if scenario.mode.value == "map" and any(m.at is None for m in unit.models):
        return Status.RESERVE
    return Status.ON_TABLE


def is_scanner(
    scenario: GridAmbushScenario, side: str, name: str, wargear: tuple[str, ...], flag: bool
) -> bool:
    listed = scenario.switches.scanning_models.get(scenario.race(side), ())
    return flag or bool(SCANNING_WARGEAR & {w.casefold() for w in wargear}) or name in listed


def record(ruling: Rules, side: str, command: RecordAmbushes) -> None:
    scenario = ruling.scenario
    grid = scenario.grid
    own = ruling.state.owned(side, "unit")
    # Orders may name any of the side's units, so that naming one the army list does
    # not allow to ambush is refused as that (DWV-R01), not as an unreadable order.
    named = [Named(p.public["key"], p.public["name"], p.public["leader"]) for p in own]
    chosen: dict[str, tuple[str, str, str]] = {}  # piece id -> (square, order text, note)
    for entry in command.orders:
        if entry.text is not None:
            order = parse_order(entry.text, named)
            if order is None:
                raise Refusal(
                    UNREADABLE_ORDER,
                    "Write orders as 'Patrol led by Sgt. Graw setting up ambush in square D2'.",
                )
            unit = next(p for p in own if p.public["key"] == order.key)
            square, text = order.square, entry.text
        else:
            if entry.unit is None or entry.square is None:
                raise Refusal(UNREADABLE_ORDER, "An order names a unit and a square.")
            unit, square = own_unit(ruling.state, side, entry.unit), entry.square
            text = ""
        if not unit.public["ambush"]:
            # RULES-SPEC DWV-R01
            raise Refusal(NOT_AMBUSH_CAPABLE, "That unit may not set up in ambush.")
        if not grid.is_ref(square):
            raise Refusal(OFF_TABLE, "That square is not on this table's grid.")
        # One spelling per square, so that a scan of D2 finds an order written " d2".
        square = grid.canonical(square)
        text = text or f"{unit.public['name']} setting up ambush in square {square}"
        if unit.id in chosen:
            raise Refusal(DUPLICATE_UNIT, "Each unit has one order.")
        if any(square == sq for sq, _, _ in chosen.values()):
            # RULES-SPEC DWV-R05: no more than one ambushing unit per square
            raise Refusal(SQUARE_TAKEN, "No more than one ambushing unit may hide in a square.")
        if scenario.in_enemy_zone(side, square):
            raise Refusal(IN_ENEMY_ZONE, "Ambushes may not be set in the enemy's deployment zone.")
        chosen[unit.id] = (square, text, entry.note)
    for piece_id, (square, text, note) in chosen.items():
        piece = ruling.piece(piece_id)
        models = [{**m, "at": None} for m in piece.public["models"]]
        ruling.update(
            piece_id,
            public={"status": Status.IN_AMBUSH.value, "models": models},
            secret={
                "square": square,
                "order": text,
                "note": note,
                "recorded_at": ruling.state.seq + 1,
            },
        )
    ruling.change(OrdersRecorded(side))
    written = [
        say("{unit} in square {square}", unit=name(ruling.piece(pid)), square=sq)
        for pid, (sq, _, _) in chosen.items()
    ]
    ruling.tell(
        side,
        {
            "event": "ambushes_recorded",
            "orders": [{"unit": pid, "square": sq} for pid, (sq, _, _) in chosen.items()],
            "text": says(
                "In secret, you write down {n} ambush order: {orders}.",
                "In secret, you write down {n} ambush orders: {orders}.",
                len(written),
                orders=written,
                rules=("DWV-R04",),
            )
            if written
            else say(
                "You write down no ambush orders: all your units set up as usual.",
                rules=("DWV-R04",),
            ),
        },
    )
    for other in ruling.state.others(side):
        # The opponent learns that orders were written, never how many or where.
        ruling.tell(
            other,
            {
                "event": "ambushes_recorded",
                "text": say(
                    "{side} write down their ambush orders in secret.",
                    side=scenario.side_name(side),
                    rules=("DWV-R04",),
                ),
            },
        )


def ready(ruling: Rules, side: str, command: Ready) -> None:
    scenario = ruling.scenario
    ruling.change(SideReady(side))
    ruling.tell_public(
        {
            "event": "ready",
            "side": side,
            "text": say("{side} are set up and ready.", side=scenario.side_name(side)),
        }
    )
    if ruling.board.ready != frozenset(scenario.side_ids()):
        return
    # Both sides are set up: each sees the other's army, and (if rosters are public,
    # DWV-A12) which of the other's units are lying in ambush somewhere.
    for piece in list(ruling.state.pieces.values()):
        hidden = piece.public["status"] == Status.IN_AMBUSH.value
        if hidden and not scenario.switches.roster_public:
            continue
        for other in ruling.state.others(piece.owner):
            ruling.reveal(piece.id, other, Level.IDENTIFIED)
    first = scenario.first_turn or scenario.side_ids()[0]
    ruling.set_phase(Phase.PLAY)
    ruling.change(NextTurn(first))
    ruling.tell_public(
        {
            "event": "turn",
            "turn": 1,
            "side": first,
            "text": say("Turn {turn}: {side} to play.", turn=1, side=scenario.side_name(first)),
        }
    )
