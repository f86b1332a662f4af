"""Setting up: units, the marker pool, markers on the table, the secret of what lies under
them, and snipers' three markers (RULES-SPEC SW-R01..R05, SW-R33, SW-A04)."""

from __future__ import annotations

import itertools
import math
from typing import Any

from ghillie import lookup
from ghillie.dice.steps import Die
from ghillie.errors import OFF_TABLE, Refusal
from ghillie.scenario import Mode
from ghillie.state import SPECTATOR, Level, Phase, Piece
from ghillie.words import Say, say, says

from .board import MARKER, SNIPER_MARKER, UNIT, Face, Rules, State, Status
from .changes import Hidden, Labelled, MarkersPlaced, MarkersRolled, SideReady, Started
from .commands import Hide, PlaceMarkers, PlaceSniper, Ready
from .reveal import expose_at_start
from .scenario import SuspiciousPlacesScenario, UnitKind
from .words import name

NO_MARKERS_LEFT = "no_markers_left"
BAD_MARKER = "bad_marker"
MARKERS_LEFT = "markers_left"
ALREADY_HIDDEN = "already_hidden"
BAD_HIDING = "bad_hiding"
NOT_CAMOUFLAGED = "not_camouflaged"
DUPLICATE = "duplicate"
UNIT_UNASSIGNED = "unit_unassigned"
WRONG_GROUP = "wrong_group"
TOO_FAR_APART = "too_far_apart"
ALREADY_PLACED = "already_placed"
SETUP_INCOMPLETE = "setup_incomplete"

EXTRA = ""  # the group of a scenario's extra markers when markers are not pooled (SW-A04)


def create_units(ruling: Rules, scenario: SuspiciousPlacesScenario) -> None:
    """Every unit of the scenario becomes a piece; each side sees the other's roster, with
    the camouflaged units "beside the table" (SW-R01) and hidden snipers as such."""
    for spec in scenario.units:
        if spec.kind is UnitKind.SNIPER and spec.camouflaged:
            status = Status.HIDDEN
        elif spec.camouflaged:
            status = Status.CAMOUFLAGED
        else:
            status = Status.ON_TABLE
        on_map = scenario.mode is Mode.MAP and status is Status.ON_TABLE
        unit = Piece(
            ruling.new_id(),
            spec.side,
            UNIT,
            {
                "key": spec.key,
                "name": spec.name,
                "unit_kind": spec.kind.value,
                "quality": spec.quality,
                "leadership": spec.leadership,
                "officer": spec.officer,
                "models": spec.models,
                "means": list(spec.means),
                "weapon": spec.weapon,
                "status": status.value,
                "at": list(spec.at) if on_map and spec.at else None,
                "formation": [list(p) for p in spec.formation()],
                "suppression": 0,
                "panic": False,
                "attached_to": None,
            },
        )
        ruling.place(unit, dict.fromkeys(ruling.state.others(spec.side), Level.IDENTIFIED))


def roll_marker_pool(ruling: Rules, scenario: SuspiciousPlacesScenario) -> None:
    """SW-R02: the owner rolls d6 markers for each camouflaged unit (SW-A04: one pool)."""
    side = scenario.camouflage_side()
    if side is None:
        return
    die = Die.parse(scenario.switches.markers_per_unit)
    units = [u for u in ruling.state.owned(side, UNIT) if u.public["status"] == Status.CAMOUFLAGED]
    rolls = {u.id: ruling.roll(f"markers:{u.public['key']}", die, secret=True) for u in units}
    pool = sum(rolls.values()) + scenario.extra_markers
    if pool == 0:
        return
    ruling.change(MarkersRolled(side, rolls, pool))
    ruling.tell(
        side,
        {
            "event": "marker_pool",
            "rolls": rolls,
            "pool": pool,
            "text": _pool(ruling, rolls, pool),
        },
    )
    names = [name(u) for u in units]
    told = (
        says(
            "{side} declares {n} unit camouflaged and in ambush: {units}. Its suspicious-place "
            "markers will be laid out.",
            "{side} declares {n} units camouflaged and in ambush: {units}. Their "
            "suspicious-place markers will be laid out.",
            len(units),
            rules=("SW-R01", "SW-R02"),
            side=scenario.side_name(side),
            units=names,
        )
        if units
        else say(
            "{side} will lay out suspicious-place markers.",
            rules=("SW-R02", "SW-R04"),
            side=scenario.side_name(side),
        )
    )
    for other in ruling.state.others(side):
        ruling.tell(other, {"event": "camouflage", "units": [u.id for u in units], "text": told})


def _pool(ruling: Rules, rolls: dict[str, int], pool: int) -> Say:
    """The owner's marker rolls, unit by unit (SW-R02, SW-A04)."""
    scenario = ruling.scenario
    rolled = [
        say("{roll} for {unit}", roll=roll, unit=name(ruling.piece(unit)))
        for unit, roll in rolls.items()
    ]
    extra = scenario.extra_markers
    if rolled and extra:
        return says(
            "You rolled {rolls}, and the scenario gives {extra} more: {n} suspicious-place "
            "marker to lay out.",
            "You rolled {rolls}, and the scenario gives {extra} more: {n} suspicious-place "
            "markers to lay out.",
            pool,
            rules=("SW-R02", "SW-A04"),
            rolls=rolled,
            extra=extra,
        )
    if rolled:
        return says(
            "You rolled {rolls}: {n} suspicious-place marker to lay out.",
            "You rolled {rolls}: {n} suspicious-place markers to lay out.",
            pool,
            rules=("SW-R02", "SW-A04"),
            rolls=rolled,
        )
    return says(
        "The scenario gives you {n} suspicious-place marker to lay out.",
        "The scenario gives you {n} suspicious-place markers to lay out.",
        pool,
        rules=("SW-R02", "SW-R04"),
    )


def place_markers(ruling: Rules, side: str, command: PlaceMarkers) -> None:
    scenario = ruling.scenario
    left = ruling.board.pool.get(side, 0)
    if len(command.markers) > left:
        raise Refusal(NO_MARKERS_LEFT, "You have fewer markers left to place than that.")
    table = scenario.tabletop
    groups: list[str] = []
    ids = sorted(ruling.new_id() for _ in command.markers)
    placed: list[Piece] = []
    for marker_id, spec in zip(ids, command.markers, strict=True):
        if scenario.mode is Mode.MAP:
            if spec.at is None or spec.cover is not None or spec.open is not None:
                raise Refusal(
                    BAD_MARKER, "On a map, give each marker's position; ghillie reads the terrain."
                )
            if not table.on_table(spec.at):
                raise Refusal(OFF_TABLE, "A marker must lie on the table.")
            at: list[float] | None = list(spec.at)
            cover, is_open = table.cover_at(spec.at), table.in_open(spec.at)
        else:
            if spec.at is not None or spec.cover is None or spec.open is None:
                raise Refusal(
                    BAD_MARKER,
                    "At a table, give each marker's agreed cover and whether it lies in the open.",
                )
            at, cover, is_open = None, spec.cover, spec.open
        secret = {}
        if not scenario.switches.pooled_markers:
            group = _marker_group(ruling, side, spec.group, groups)
            groups.append(group)
            if group != EXTRA:
                secret["group"] = group
        label = f"M{ruling.board.labels.get('M', 0) + len(placed) + 1}"
        placed.append(
            Piece(
                marker_id,
                side,
                MARKER,
                {
                    "label": label,
                    "at": at,
                    "cover": cover.value,
                    "open": is_open,
                    "face": Face.UP.value,
                },
                secret,
            )
        )
    if (
        not scenario.switches.pooled_markers
        and scenario.switches.place_all_markers
        and len(placed) < left
    ):
        # SW-A04's other reading: which markers are which unit's is the owner's secret, and
        # markers laid in several orders would tell it by how they were batched, so a side
        # lays them all in one (issue 24).
        raise Refusal(MARKERS_LEFT, "Each unit lays its own markers: lay them all in one order.")
    ruling.change(Labelled("M", len(placed)))
    ruling.change(MarkersPlaced(side, len(placed), groups))
    for marker in placed:
        ruling.place(marker, dict.fromkeys(ruling.state.others(side), Level.SUSPECTED))
    ruling.tell_public(
        {
            "event": "markers_placed",
            "markers": [m.id for m in placed],
            "text": says(
                "{side} lays out {n} suspicious-place marker: {labels}.",
                "{side} lays out {n} suspicious-place markers: {labels}.",
                len(placed),
                rules=("SW-R02",),
                side=scenario.side_name(side),
                labels=[m.public["label"] for m in placed],
            ),
        }
    )


def _marker_group(ruling: Rules, side: str, ref: str | None, groups: list[str]) -> str:
    """SW-A04 option (``sw.pooled_markers = false``): each unit lays only the markers it
    rolled. A marker naming no unit is one of the scenario's ``extra_markers`` (for mines and
    IEDs), so that those can still be laid and the side can get ready."""
    scenario = ruling.scenario
    if ref is None:
        if ruling.board.placed_by_group.get(EXTRA, 0) + groups.count(EXTRA) >= (
            scenario.extra_markers
        ):
            raise Refusal(WRONG_GROUP, "Say which unit's markers these are.")
        return EXTRA
    unit = lookup.own(ruling.state, side, ref, [UNIT])
    rolled = ruling.board.rolls.get(side, {}).get(unit.id)
    if (
        rolled is None
        or ruling.board.placed_by_group.get(unit.id, 0) + groups.count(unit.id) >= rolled
    ):
        raise Refusal(WRONG_GROUP, "That unit has no markers left to place.")
    return unit.id


def _checked(ruling: Rules, side: str, command: Hide) -> set[str]:
    """The markers the hidings name, each hiding checked (SW-R03): one unit or one content
    under a marker, every camouflaged unit under one of them (its own, unpooled)."""
    scenario = ruling.scenario
    camouflaged = {
        u.id for u in ruling.state.owned(side, UNIT) if u.public["status"] == Status.CAMOUFLAGED
    }
    markers: set[str] = set()
    units: set[str] = set()
    for hiding in command.hidings:
        marker = lookup.own(ruling.state, side, hiding.marker, [MARKER])
        if (hiding.unit is None) == (hiding.content is None):
            raise Refusal(
                BAD_HIDING, "Each marker hides either one unit or a mine, an IED or nothing."
            )
        if marker.id in markers:
            raise Refusal(DUPLICATE, "A marker is the centre of one unit at most.")
        markers.add(marker.id)
        if hiding.unit is not None:
            unit = lookup.own(ruling.state, side, hiding.unit, [UNIT])
            if unit.id not in camouflaged:
                raise Refusal(NOT_CAMOUFLAGED, "Only camouflaged units hide under markers.")
            if unit.id in units:
                raise Refusal(DUPLICATE, "A unit sits under one marker.")
            if not scenario.switches.pooled_markers and marker.secret.get("group") != unit.id:
                raise Refusal(WRONG_GROUP, "A unit hides under one of its own markers.")
            units.add(unit.id)
    if units != camouflaged:
        raise Refusal(UNIT_UNASSIGNED, "Every camouflaged unit must sit under a marker.")
    return markers


def hide(ruling: Rules, side: str, command: Hide) -> None:
    """SW-R03/R04: which marker hides which unit, mine or IED — recorded once, in secret."""
    scenario = ruling.scenario
    if side in ruling.board.hidden:
        raise Refusal(ALREADY_HIDDEN, "What lies under your markers is already recorded.")
    if scenario.switches.place_all_markers and ruling.board.pool.get(side, 0) > 0:
        raise Refusal(MARKERS_LEFT, "Place every marker you rolled first.")
    markers = _checked(ruling, side, command)
    recorded = []
    under: dict[str, Say] = {}
    for hiding in command.hidings:
        marker = lookup.own(ruling.state, side, hiding.marker, [MARKER])
        label = marker.public["label"]
        if hiding.unit is not None:
            unit = lookup.own(ruling.state, side, hiding.unit, [UNIT])
            ruling.update(
                marker.id, secret={"content": "unit", "unit": unit.id, "note": hiding.note}
            )
            ruling.update(unit.id, secret={"marker": marker.id})
            recorded.append({"marker": marker.id, "unit": unit.id})
            under[marker.id] = say("{unit} under marker {label}", unit=name(unit), label=label)
        else:
            assert hiding.content is not None
            ruling.update(marker.id, secret={"content": hiding.content.value, "note": hiding.note})
            recorded.append({"marker": marker.id, "content": hiding.content.value})
            under[marker.id] = _under(hiding.content.value, label)
    for marker_piece in ruling.state.owned(side, MARKER):
        if marker_piece.id not in markers:
            ruling.update(marker_piece.id, secret={"content": "nothing"})
            under[marker_piece.id] = _under("nothing", marker_piece.public["label"])
    ruling.change(Hidden(side))
    in_order = sorted(ruling.state.owned(side, MARKER), key=_label_order)
    ruling.tell(
        side,
        {
            "event": "hidden",
            "hidings": recorded,
            "text": say(
                "You record in secret what lies under your markers: {hidings}.",
                rules=("SW-R03", "SW-R04"),
                hidings=[under[m.id] for m in in_order if m.id in under],
            ),
        },
    )
    for other in ruling.state.others(side):
        ruling.tell(
            other,
            {
                "event": "hidden",
                "text": say(
                    "{side} records in secret what lies under its markers.",
                    rules=("SW-R03",),
                    side=scenario.side_name(side),
                ),
            },
        )


def _under(content: str, label: str) -> Say:
    if content == "mine":
        return say("mines under marker {label}", label=label)
    if content == "ied":
        return say("an improvised explosive device under marker {label}", label=label)
    return say("nothing under marker {label}", label=label)


def _label_order(piece: Piece) -> tuple[int, str]:
    label = str(piece.public.get("label", ""))
    digits = "".join(c for c in label if c.isdigit())
    return (int(digits) if digits else 0, label)


def place_sniper(ruling: Rules, side: str, command: PlaceSniper) -> None:
    """SW-R33: the sniper is not placed; three markers are, no more than 6" apart, one true."""
    scenario = ruling.scenario
    sniper = lookup.own(ruling.state, side, command.sniper, [UNIT])
    if sniper.public["unit_kind"] != UnitKind.SNIPER or sniper.public["status"] != Status.HIDDEN:
        raise Refusal(NOT_CAMOUFLAGED, "Only a hiding sniper takes sniper markers.")
    if any(
        p.kind == SNIPER_MARKER and p.public["sniper"] == sniper.id
        for p in ruling.state.pieces.values()
    ):
        raise Refusal(ALREADY_PLACED, "That sniper's markers are already on the table.")
    points = check_sniper_spots(scenario, command.markers)
    lay_sniper_markers(ruling, sniper, points, command.true_marker, command.note)


def check_sniper_spots(
    scenario: SuspiciousPlacesScenario, spots: tuple[tuple[float, float], ...] | None
) -> list[list[float] | None]:
    if scenario.mode is Mode.TABLE:
        if spots is not None:
            raise Refusal(BAD_MARKER, "At a table, lay the sniper markers there; no positions.")
        return [None, None, None]
    if spots is None:
        raise Refusal(BAD_MARKER, "On a map, give the three sniper markers' positions.")
    table = scenario.tabletop
    if not all(table.on_table(p) for p in spots):
        raise Refusal(OFF_TABLE, "A marker must lie on the table.")
    spread = scenario.switches.sniper_spread
    if any(math.dist(a, b) > spread + 1e-9 for a, b in itertools.combinations(spots, 2)):
        raise Refusal(TOO_FAR_APART, 'Sniper markers lie no more than 6" from each other.')
    return [list(p) for p in spots]


def lay_sniper_markers(
    ruling: Rules,
    sniper: Piece,
    spots: list[list[float] | None],
    true_index: int,
    note: str,
    *,
    again: bool = False,
) -> None:
    """SW-R33 (and SW-R37 when ``again``): three markers, one of them true."""
    # Labels follow the order the markers are laid in (S1 the first laid), as a real table
    # sees them laid: the player chose which of them is true, so the order tells the enemy
    # no more than watching them laid would, and "the first marker" of the order is S1.
    # Hiding again lays the true one first, where the sniper stands (SW-R37 DEFAULT): there
    # the labels follow the random ids instead, so that the first label never means the true
    # marker.
    entries = [(ruling.new_id(), i) for i in range(3)]
    if again or ruling.scenario.sniper_labels == "ids":
        entries.sort()
    first = ruling.board.labels.get("S", 0) + 1
    ruling.change(Labelled("S", 3))
    for n, (marker_id, i) in enumerate(entries):
        ruling.place(
            Piece(
                marker_id,
                sniper.owner,
                SNIPER_MARKER,
                {"label": f"S{first + n}", "at": spots[i], "sniper": sniper.id},
                {"true": i == true_index},
            ),
            dict.fromkeys(ruling.state.others(sniper.owner), Level.SUSPECTED),
        )
    ruling.update(
        sniper.id, public={"status": Status.HIDDEN.value, "at": None}, secret={"note": note}
    )
    labels = [f"S{first + n}" for n in range(3)]
    true = next(f"S{first + n}" for n, (_, i) in enumerate(entries) if i == true_index)
    scenario = ruling.state.scenario
    args: dict[str, Any] = {
        "sniper": name(sniper),
        "labels": labels,
        "side": scenario.side_name(sniper.owner),
    }
    if again:
        seen = say(
            "{sniper} passes his reaction test at threat +2 and hides again under sniper "
            "markers {labels}; only {side} knows which one is true.",
            rules=("SW-R37",),
            **args,
        )
        own = say(
            "{sniper} passes his reaction test at threat +2 and hides again under sniper "
            "markers {labels}; he is really under {true}, where he stood.",
            rules=("SW-R37",),
            true=true,
            **args,
        )
    else:
        seen = say(
            "{sniper} is not placed: he hides under sniper markers {labels}; only {side} knows "
            "which one is true.",
            rules=("SW-R33",),
            **args,
        )
        own = say(
            "{sniper} is not placed: he hides under sniper markers {labels}; he is really "
            "under {true}.",
            rules=("SW-R33",),
            true=true,
            **args,
        )
    line = {
        "event": "sniper_markers",
        "unit": sniper.id,
        "markers": [marker_id for marker_id, _ in entries],
    }
    ruling.tell(sniper.owner, {**line, "text": own})
    for other in (*ruling.state.others(sniper.owner), SPECTATOR):
        ruling.tell(other, {**line, "text": seen})


def ready(ruling: Rules, side: str, command: Ready) -> None:
    scenario = ruling.scenario
    board = ruling.board
    if side == scenario.camouflage_side():
        if scenario.switches.place_all_markers and board.pool.get(side, 0) > 0:
            raise Refusal(SETUP_INCOMPLETE, "Place every suspicious-place marker first.")
        camouflaged = any(
            u.public["status"] == Status.CAMOUFLAGED for u in ruling.state.owned(side, UNIT)
        )
        if (side in board.pool or camouflaged) and side not in board.hidden:
            raise Refusal(SETUP_INCOMPLETE, "Record what lies under your markers first.")
    if any(unplaced_sniper(ruling.state, u) for u in ruling.state.owned(side, UNIT)):
        raise Refusal(SETUP_INCOMPLETE, "Lay out your sniper markers first.")
    ruling.change(SideReady(side))
    ruling.tell_public(
        {
            "event": "ready",
            "side": side,
            "text": say("{side} is ready.", side=scenario.side_name(side)),
        }
    )
    if ruling.board.ready == frozenset(scenario.side_ids()):
        first = scenario.first or scenario.side_ids()[0]
        ruling.set_phase(Phase.PLAY)
        ruling.change(Started(first))
        ruling.tell_public(
            {
                "event": "turn",
                "turn": 1,
                "side": first,
                "text": say(
                    "Turn {turn}: {side} activates first.", turn=1, side=scenario.side_name(first)
                ),
            }
        )
        expose_at_start(ruling)


def unplaced_sniper(state: State, unit: Piece) -> bool:
    """Is ``unit`` a hidden sniper whose three markers are still to be laid (SW-R33)?"""
    return bool(
        unit.public["unit_kind"] == UnitKind.SNIPER
        and unit.public["status"] == Status.HIDDEN
        and not any(
            p.kind == SNIPER_MARKER and p.public["sniper"] == unit.id for p in state.pieces.values()
        )
    )
