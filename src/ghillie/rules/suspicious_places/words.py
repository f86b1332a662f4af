"""suspicious-places in the players' words: its orders, its pieces and where the game stands.

Everything a chooser offers is built from what the choosing side can see: its own pieces
and the enemy pieces it knows of (ghillie.forms)."""

from __future__ import annotations

import functools
from typing import Any

from ghillie.dice.steps import Die
from ghillie.forms import Ask, Choice, Order, entered, measured
from ghillie.state import REFEREE, SPECTATOR, Phase, Piece
from ghillie.words import N_, Say, say, says
from ghillie.words.piece import PieceWords

from .board import MARKER, SNIPER_MARKER, UNIT, Face, State, Status
from .scenario import UnitKind

# --- what a field may name ---------------------------------------------------------------


def name(piece: Piece) -> str | Say:
    """A piece as every side knows it: a marker by its label, a unit by its name."""
    p = piece.public
    if piece.kind == MARKER:
        return say("marker {label}", label=p.get("label", "?"))
    if piece.kind == SNIPER_MARKER:
        return say("sniper marker {label}", label=p.get("label", "?"))
    return str(p.get("name") or p.get("key") or "?")


def die(value: str | int | Die) -> Say | str:
    """A die as the rules write it: d8 in English, к8 in Russian (a number stays a number:
    a leadership of 5)."""
    if isinstance(value, int):
        return str(value)
    d = Die.parse(value) if isinstance(value, str) else value
    if d.plus:
        return say("d{faces}+{plus}", faces=d.faces, plus=d.plus)
    return say("d{faces}", faces=d.faces)


def _pick(pieces: list[Piece]) -> list[Choice]:
    return [Choice(p.id, name(p)) for p in sorted(pieces, key=_order)]


def _order(piece: Piece) -> tuple[int, str]:
    return _label_order(str(piece.public.get("label") or piece.public.get("name") or ""))


@functools.lru_cache(maxsize=4096)  # every list of choices in every view sorts by it
def _label_order(label: str) -> tuple[int, str]:
    digits = "".join(c for c in label if c.isdigit())
    return (int(digits) if digits else 0, label)


def _units(state: State, side: str, *statuses: Status) -> list[Piece]:
    return [u for u in state.owned(side, UNIT) if not statuses or u.public["status"] in statuses]


def _known(state: State, side: str) -> list[Piece]:
    return [
        state.pieces[pid]
        for pid in state.knowledge.get(side, {})
        if pid in state.pieces and state.pieces[pid].owner != side
    ]


def enemy_markers(state: State, side: str) -> list[Choice]:
    return _pick(
        [
            p
            for p in _known(state, side)
            if p.kind in (MARKER, SNIPER_MARKER) and p.public.get("face") != Face.MINEFIELD
        ]
    )


def targets(state: State, side: str) -> list[Choice]:
    units = [
        p
        for p in _known(state, side)
        if p.kind == UNIT and p.public["status"] == Status.ON_TABLE and not p.public["attached_to"]
    ]
    return enemy_markers(state, side) + _pick(units)


def to_activate(state: State, side: str) -> list[Choice]:
    board = state.board
    return _pick(
        [
            u
            for u in state.owned(side, UNIT)
            if u.id not in board.activated and u.public["status"] != Status.OFF_TABLE
        ]
    )


def _activated_sniper(state: State, side: str, status: Status) -> bool:
    """Is the unit activated now one of the side's snipers, hidden or on the table?"""
    activation = state.board.activation
    unit = state.pieces.get(activation.unit) if activation is not None else None
    return bool(
        unit is not None
        and unit.owner == side
        and unit.public["unit_kind"] == UnitKind.SNIPER
        and unit.public["status"] == status
    )


def hidden_sniper_acts(state: State, side: str) -> bool:
    """SW-R36: only a sniper under its markers moves between them."""
    return _activated_sniper(state, side, Status.HIDDEN)


def revealed_sniper_acts(state: State, side: str) -> bool:
    """SW-R37: only a revealed sniper, on the table, hides again."""
    return _activated_sniper(state, side, Status.ON_TABLE)


def acting(state: State, side: str) -> list[Choice]:
    """Who takes an action: the activated unit, or a squad acting with its officer's."""
    return _pick(_units(state, side, Status.ON_TABLE, Status.HIDDEN))


def snipers_to_place(state: State, side: str) -> list[Choice]:
    placed = {p.public["sniper"] for p in state.pieces.values() if p.kind == SNIPER_MARKER}
    return _pick(
        [
            u
            for u in _units(state, side, Status.HIDDEN)
            if u.public["unit_kind"] == UnitKind.SNIPER and u.id not in placed
        ]
    )


def own_markers(state: State, side: str) -> list[Choice]:
    return _pick(state.owned(side, MARKER))


def camouflaged(state: State, side: str) -> list[Choice]:
    return _pick(_units(state, side, Status.CAMOUFLAGED))


def groups(state: State, side: str) -> list[Choice]:
    """Whose markers these are, where each unit rolls its own (sw.pooled_markers off)."""
    scenario = state.scenario
    if scenario.switches.pooled_markers:
        return []
    return _pick(_units(state, side, Status.CAMOUFLAGED))


def sniper_spots(state: State, side: str) -> list[Choice]:
    activation = state.board.activation
    if activation is None:
        return []
    return _pick(
        [p for p in state.owned(side, SNIPER_MARKER) if p.public["sniper"] == activation.unit]
    )


def on_table(state: State, side: str) -> list[Choice]:
    """Units a host-game result may be recorded on: one's own and the enemy's in sight."""
    enemy = [p for p in _known(state, side) if p.kind == UNIT]
    units = _units(state, side) + enemy
    return _pick([u for u in units if u.public["status"] == Status.ON_TABLE])


def lone_figures(state: State, side: str) -> list[Choice]:
    return _pick(
        [u for u in _units(state, side, Status.ON_TABLE) if u.public["unit_kind"] == UnitKind.LONE]
    )


def attached(state: State, side: str) -> list[Choice]:
    return _pick(
        [u for u in _units(state, side, Status.ON_TABLE) if u.public["attached_to"] is not None]
    )


def squads(state: State, side: str) -> list[Choice]:
    return _pick(
        [u for u in _units(state, side, Status.ON_TABLE) if u.public["unit_kind"] == UnitKind.SQUAD]
    )


def markers_left(state: State, side: str) -> dict[str, Any]:
    """A new form of markers starts with one row per marker still to lay out."""
    left = state.board.pool.get(side, 0)
    return {"markers": [{} for _ in range(left)]} if left else {}


# --- the orders ----------------------------------------------------------------------------

DICE = tuple((d, d) for d in ("d4", "d6", "d8", "d10", "d12"))
MEANS = (
    ("eyes", N_("eyes")),
    ("binoculars", N_("binoculars")),
    ("stereo", N_("stereo telescope")),
    ("electronic", N_("electronic means")),
)
UNIT_HELP = N_("Leave empty for the activated unit; a squad may act with its officer's actions.")

ORDERS: dict[str, Order] = {
    "place_markers": Order(
        N_("Lay out suspicious-place markers"),
        N_("Put down the markers your rolls gave you. Any of them may hide a unit."),
        {
            "markers": Ask(N_("Markers"), item=N_("marker")),
            "markers.at": Ask(N_("Where"), kind="place", where="point", only="map"),
            "markers.cover": Ask(
                N_("Cover at the marker"),
                options=(("none", N_("none")), ("soft", N_("soft")), ("hard", N_("hard"))),
                only="table",
            ),
            "markers.open": Ask(N_("In open terrain"), only="table"),
            "markers.group": Ask(
                N_("Whose marker"),
                N_(
                    "Each unit lays its own markers: lay them all, every unit's, in this one order."
                ),
                pieces=groups,
            ),
        },
        defaults=markers_left,
        rules=("SW-R02",),
    ),
    "hide": Order(
        N_("Record what the markers hide"),
        N_(
            "In secret, say what lies under each of your markers: one of your camouflaged "
            "units, a mine, an improvised explosive device or nothing. Markers left out "
            "hide nothing."
        ),
        {
            "hidings": Ask(N_("Under the markers"), item=N_("marker")),
            "hidings.marker": Ask(N_("Marker"), pieces=own_markers),
            "hidings.unit": Ask(N_("Unit hidden there"), pieces=camouflaged),
            "hidings.content": Ask(
                N_("Or else"),
                options=(
                    ("mine", N_("a mine")),
                    ("ied", N_("an improvised explosive device")),
                    ("nothing", N_("nothing")),
                ),
            ),
            "hidings.note": Ask(N_("Private note")),
        },
        rules=("SW-R03", "SW-R04"),
    ),
    "place_sniper": Order(
        N_("Place a sniper's three markers"),
        N_(
            "Three markers within 6 inches of one another; in secret, say which one the "
            "sniper is really under."
        ),
        {
            "sniper": Ask(N_("Sniper"), pieces=snipers_to_place),
            "markers": Ask(N_("The three markers"), kind="group", only="map"),
            "markers.0": Ask(N_("First marker"), kind="place", where="point"),
            "markers.1": Ask(N_("Second marker"), kind="place", where="point"),
            "markers.2": Ask(N_("Third marker"), kind="place", where="point"),
            "true_marker": Ask(
                N_("The sniper is under"),
                options=(
                    (0, N_("the first marker")),
                    (1, N_("the second marker")),
                    (2, N_("the third marker")),
                ),
            ),
            "note": Ask(N_("Private note")),
        },
        rules=("SW-R33",),
    ),
    "ready": Order(N_("Ready"), N_("Your side is set up.")),
    "activate": Order(
        N_("Activate a unit"),
        N_(
            "The unit gets two actions. A camouflaged squad is revealed; a hidden sniper "
            "stays hidden."
        ),
        {"unit": Ask(N_("Unit"), pieces=to_activate)},
        rules=("SW-R10", "SW-R18", "SW-R06"),
    ),
    "pass": Order(
        N_("Pass"),
        N_("Activate nothing now. Two passes in a row end the turn."),
        confirm=N_("Pass, activating nothing now? Two passes in a row end the turn."),
    ),
    "end_activation": Order(
        N_("End the activation"),
        N_("Give up the actions left."),
        confirm=N_("End this activation and give up the actions left?"),
    ),
    "observe": Order(
        N_("Observe a marker"),
        N_("One action: look at a marker to find out what is there."),
        {
            "marker": Ask(N_("Marker"), pieces=enemy_markers),
            "unit": Ask(N_("Who observes"), UNIT_HELP, pieces=acting),
            "means": Ask(N_("With"), N_("Leave empty for the eyes."), options=MEANS),
            **measured(),
            **entered("rolls", {"quality": N_("Quality die"), "means": N_("Means die")}),
        },
        rules=("SW-R10", "SW-R11", "SW-R12", "SW-R13", "SW-R14"),
    ),
    "fire": Order(
        N_("Fire"),
        N_("One action: fire at a marker or at an enemy unit on the table."),
        {
            "target": Ask(N_("Target"), pieces=targets),
            "unit": Ask(N_("Who fires"), UNIT_HELP, pieces=acting),
            "weapon": Ask(N_("Weapon die"), N_("Leave empty for the unit's own."), options=DICE),
            **measured(),
            **entered("rolls", {"quality": N_("Quality die"), "weapon": N_("Weapon die")}),
            # The range die is the target's owner's (SW-R12): never the shooter's to type.
            "rolls.target": Ask(N_("Target's die"), kind="hidden"),
        },
        rules=("SW-R15", "SW-R16", "SW-R17"),
    ),
    "move": Order(
        N_("Move"),
        N_(
            "One action. On a map, ghillie removes the enemy markers your move shows to be "
            "empty; at a table, say which markers the move exposed."
        ),
        {
            "unit": Ask(N_("Who moves"), UNIT_HELP, pieces=acting),
            "to": Ask(N_("To"), kind="place", where="point", only="map", starts="unit"),
            "exposes": Ask(N_("Markers this move exposed"), pieces=enemy_markers, only="table"),
        },
        rules=("SW-R07", "SW-R08"),
    ),
    "covert_move": Order(
        N_("Covert move"),
        N_(
            "A hidden sniper tries to slip to another of its markers, or rolls and stays to "
            "bluff. The enemy never learns which."
        ),
        {
            "to": Ask(N_("To"), N_("Leave empty to stay and bluff."), pieces=sniper_spots),
            **entered("rolls", {"quality": N_("Quality die"), "leadership": N_("Leadership die")}),
        },
        applies=hidden_sniper_acts,
        rules=("SW-R36",),
    ),
    "rehide": Order(
        N_("Hide the sniper again"),
        N_(
            "A revealed sniper that passed its reaction test at threat +2 hides again under "
            "three markers."
        ),
        {
            "passed_reaction_test": Ask(N_("Passed the reaction test")),
            "markers": Ask(N_("The two false markers"), kind="group", only="map"),
            "markers.0": Ask(N_("First false marker"), kind="place", where="point"),
            "markers.1": Ask(N_("Second false marker"), kind="place", where="point"),
            "note": Ask(N_("Private note")),
        },
        applies=revealed_sniper_acts,
        rules=("SW-R37",),
    ),
    "other_action": Order(
        N_("Another action"),
        N_("An action the rules of the game decide (take cover, reload…): ghillie counts it."),
        {
            "unit": Ask(N_("Who acts"), UNIT_HELP, pieces=acting),
            "what": Ask(N_("What"), N_("For the log, for example: take cover.")),
        },
    ),
    "suppress": Order(
        N_("Record suppression"),
        N_(
            "Suppression the rules of the game give a unit on the table. From a sniper's fire "
            "it is doubled, to at most 3."
        ),
        {
            "unit": Ask(N_("Unit"), pieces=on_table),
            "markers": Ask(N_("Suppression markers"), unit=N_("markers")),
            "by_sniper": Ask(N_("From a sniper's fire")),
        },
        rules=("SW-R31",),
    ),
    "morale": Order(
        N_("Record a morale test"),
        N_("The result of a lone figure's morale test."),
        {
            "unit": Ask(N_("Lone figure"), pieces=lone_figures),
            "result": Ask(
                N_("Result"),
                options=(
                    ("passed", N_("passed")),
                    ("failed", N_("failed")),
                    ("failed_two_steps", N_("failed by two steps")),
                ),
            ),
        },
        rules=("SW-R22",),
    ),
    "remove_panic": Order(
        N_("Try to remove panic"),
        N_("A lone figure tries to remove its panic; failing, it leaves the table."),
        {"unit": Ask(N_("Lone figure"), pieces=lone_figures), "passed": Ask(N_("Passed"))},
        rules=("SW-R22",),
    ),
    "join": Order(
        N_("Join a squad"),
        N_("A lone figure joins a squad."),
        {
            "unit": Ask(N_("Lone figure"), pieces=lone_figures),
            "squad": Ask(N_("Squad"), pieces=squads),
        },
        rules=("SW-R19",),
    ),
    "leave": Order(
        N_("Leave the squad"),
        N_("A lone figure leaves its squad."),
        {
            "unit": Ask(N_("Lone figure"), pieces=attached),
            "at": Ask(N_("Where it stands"), kind="place", where="point", only="map"),
        },
        rules=("SW-R19",),
    ),
    "end_game": Order(
        N_("End the game"),
        N_("The game ends for both sides."),
        confirm=N_("End the game for everyone? This cannot be taken back."),
    ),
}

# --- pieces and the state of play -------------------------------------------------------------

STATUS = {
    Status.ON_TABLE: N_("on the table"),
    Status.CAMOUFLAGED: N_("camouflaged under a marker"),
    Status.HIDDEN: N_("hidden under its sniper markers"),
    Status.OFF_TABLE: N_("off the table"),
}
FACES = {
    Face.UP: N_("face up"),
    Face.FLIPPED: N_("turned over: someone is there"),
    Face.MINEFIELD: N_("a known minefield"),
}
CONTENT = {
    "mine": N_("a mine"),
    "ied": N_("an improvised explosive device"),
    "nothing": N_("nothing"),
}
COVER = {"soft": N_("soft cover"), "hard": N_("hard cover")}


def describe(state: State, observer: str, piece: Piece) -> PieceWords:
    p, secret = piece.public, piece.secret
    # A piece's secrets are for its owner and the referee; a spectator is no owner.
    own = observer in (piece.owner, REFEREE)
    if piece.kind == MARKER:
        about: list[str | Say] = [FACES.get(Face(p["face"]), "") if p.get("face") else ""]
        if p.get("cover") in COVER:
            about.append(COVER[p["cover"]])
        if p.get("open"):
            about.append(N_("in the open"))
        details: list[tuple[str, Any]] = []
        if own and secret.get("unit") in state.pieces:
            details.append((N_("Hides"), name(state.pieces[secret["unit"]])))
        elif own and secret.get("content"):
            content = str(secret["content"])
            details.append((N_("Hides"), say(CONTENT.get(content) or content)))
        if own and secret.get("note"):
            details.append((N_("Your note"), str(secret["note"])))
        return PieceWords(name(piece), [a for a in about if a], details)
    if piece.kind == SNIPER_MARKER:
        details = []
        if own and "true" in secret:
            details.append((N_("The sniper is here"), bool(secret["true"])))
        sniper = state.pieces.get(p.get("sniper", ""))
        about = [say("a marker of {sniper}", sniper=name(sniper))] if sniper and own else []
        return PieceWords(name(piece), about, details)
    about = [STATUS.get(Status(p["status"]), "")]
    if p["status"] == Status.ON_TABLE:
        about.append(says("{n} model", "{n} models", int(p.get("models") or 0)))
    if p.get("suppression"):
        about.append(says("{n} suppression", "{n} suppression", int(p["suppression"])))
    if p.get("panic"):
        about.append(N_("in panic"))
    if p.get("attached_to") in state.pieces:
        about.append(say("with {squad}", squad=name(state.pieces[p["attached_to"]])))
    details = [(N_("Quality"), die(p["quality"])), (N_("Weapon"), die(p["weapon"]))]
    if p.get("leadership"):
        details.append((N_("Leadership"), die(p["leadership"])))
    means = [say(dict(MEANS).get(m) or str(m)) for m in p.get("means", [])]
    details.append((N_("Can observe with"), means))
    if own and secret.get("note"):
        details.append((N_("Your note"), str(secret["note"])))
    return PieceWords(name(piece), [a for a in about if a], details)


def _sees(state: State, observer: str, piece: Piece) -> bool:
    """May ``observer`` be told of ``piece`` by name: the referee always, a spectator when
    every other side can see it, a side when it can."""
    if observer == REFEREE:
        return True
    if observer == SPECTATOR:
        return all(state.can_see(s, piece.id) for s in state.sides)
    return state.can_see(observer, piece.id)


def status(state: State, observer: str) -> list[str | Say]:
    scenario = state.scenario
    board = state.board
    if state.phase is Phase.OVER:
        return [say("The game is over.")]
    if state.phase is Phase.SETUP:
        ready = [scenario.side_name(s) for s in state.sides if s in board.ready]
        lines: list[str | Say] = [
            say("Setting up. Ready: {sides}.", sides=ready) if ready else say("Setting up.")
        ]
        left = board.pool.get(observer) if observer in state.sides else None
        if left:
            lines.append(
                says("You have {n} marker to lay out.", "You have {n} markers to lay out.", left)
            )
        return lines
    lines = []
    if board.active is not None:
        lines.append(
            say(
                "Turn {turn}: {side} to act.",
                turn=board.turn,
                side=scenario.side_name(board.active),
            )
        )
    if board.activation is not None:
        unit = state.pieces.get(board.activation.unit)
        if unit is not None and _sees(state, observer, unit):
            lines.append(
                says(
                    "{unit} is activated: {n} action left.",
                    "{unit} is activated: {n} actions left.",
                    board.activation.actions,
                    unit=name(unit),
                )
            )
        else:
            lines.append(
                says(
                    "A unit is activated: {n} action left.",
                    "A unit is activated: {n} actions left.",
                    board.activation.actions,
                )
            )
    if board.passes:
        lines.append(N_("One pass so far: another ends the turn."))
    return lines


# The kinds of terrain the rule text names ("рощах, зданиях, оврагах": groves, buildings,
# ravines) and the bundled scenarios use: a scenario's kind is spoken in the reader's
# language when the catalogue has it (ghillie.maps.terrain_layers).
TERRAIN_KINDS = (
    N_("wood"),
    N_("grove"),
    N_("building"),
    N_("ravine"),
    N_("hill"),
    N_("field"),
    N_("road"),
    N_("river"),
    N_("marsh"),
    N_("hedge"),
    N_("wall"),
    N_("ruins"),
)

# The dice of a check, as the odds a form shows name them ("target d10, quality d8").
DICE_LABELS = (N_("target"), N_("quality"), N_("means"), N_("weapon"), N_("leadership"))
