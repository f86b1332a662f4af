"""grid-ambush in the players' words: its orders, its units and where the game stands.

Everything a chooser offers, and everything said of the state of play, is built from what
the reader can see: its own units (their public facts and their secrets, which are its
own), what the enemy's units show to everyone, and the turn as everyone sees it
(ghillie.forms). Nothing here reads another side's secrets: the two-worlds tests hold every
view to that.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ghillie.forms import Ask, Choice, Order
from ghillie.scenario import Mode
from ghillie.state import REFEREE, Facts, Phase, Piece
from ghillie.words import N_, Say, say, says
from ghillie.words.piece import PieceWords

from .board import State, Status, Step, can_ambush
from .commands import Weapon
from .scenario import ScanPhase
from .story import name as _name
from .turn import revealed_too_recently

UNIT = "unit"

# --- what a field may name ---------------------------------------------------------------


def _units(state: State, side: str, *statuses: Status) -> list[Piece]:
    """The side's own units, in the order its army list gives them."""
    return [
        u for u in state.owned(side, UNIT) if not statuses or Status(u.public["status"]) in statuses
    ]


def _pick(units: list[Piece]) -> list[Choice]:
    return [Choice(u.id, _name(u)) for u in units]


def _living(unit: Piece) -> list[tuple[int, Facts]]:
    return [(i, m) for i, m in enumerate(unit.public["models"]) if not m["lost"]]


def _scanned_now(unit: Piece, turn: int) -> set[int]:
    return {int(i) for i, when in (unit.public.get("scanned") or {}).items() if when == turn}


def _fired_now(unit: Piece, turn: int) -> set[str]:
    return {str(w["weapon"]) for w in unit.public.get("fired") or [] if w["turn"] == turn}


def ambushers(state: State, side: str) -> list[Choice]:
    """Units the side's army list lets set up in ambush (a public mark)."""
    return _pick([u for u in _units(state, side) if u.public["ambush"]])


def ambush_rows(state: State, side: str) -> Mapping[str, Any]:
    """The orders start with one row per unit that may ambush, its unit chosen."""
    return {"orders": [{"unit": c.value} for c in ambushers(state, side)]}


def may_reveal_now(state: State, side: str) -> bool:
    """Is it the beginning of ``side``'s own turn, before anything else has happened?"""
    board = state.board
    return (
        state.phase is Phase.PLAY
        and board.pending is None
        and board.active == side
        and board.step is Step.MOVEMENT
        and not board.turn_begun
        and (board.turn != 1 or state.scenario.switches.reveal_turn_one)
    )


def in_ambush(state: State, side: str) -> list[Choice]:
    """Own units still hiding, while they may be revealed (the start of one's turn)."""
    if not may_reveal_now(state, side):
        return []
    return _pick(_units(state, side, Status.IN_AMBUSH))


def to_set_up(state: State, side: str) -> list[Choice]:
    """The revealed unit waiting for its owner to set it up; on a map, choosing it gives
    one empty place per model to fill in."""
    pending = state.board.pending
    unit = state.pieces.get(pending) if pending is not None else None
    if unit is None or unit.owner != side:
        return []
    fills: dict[str, Any] = {}
    if state.scenario.mode is Mode.MAP:
        fills["models"] = [None] * len(unit.public["models"])
    return [Choice(unit.id, _name(unit), fills)]


def casualties(state: State, side: str) -> list[Choice]:
    """The models of the unit waiting to be set up, named as its set-up's refusals name
    them: by name, or by number and name where several share one ("model 3 (veteran)")."""
    found = to_set_up(state, side)
    if not found:
        return []
    models = state.pieces[found[0].value].public["models"]
    names = [str(m["name"]) for m in models]
    return [
        Choice(
            i, name if names.count(name) == 1 else say("model {n} ({model})", n=i + 1, model=name)
        )
        for i, name in enumerate(names)
    ]


def set_up_defaults(state: State, side: str) -> Mapping[str, Any]:
    found = to_set_up(state, side)
    return {"unit": found[0].value, **found[0].fills} if found else {}


def movers(state: State, side: str) -> list[Choice]:
    """Own units on the table that may move now; on a map, choosing one starts its
    models' new positions from where they stand."""
    board = state.board
    scenario = state.scenario
    if board.step is not Step.MOVEMENT or board.active != side:
        return []
    out = []
    for unit in _units(state, side, Status.ON_TABLE):
        if revealed_too_recently(scenario, board, unit):
            continue
        fills: dict[str, Any] = {}
        if scenario.mode is Mode.MAP:
            fills["models"] = [m["at"] for _, m in _living(unit)]
        out.append(Choice(unit.id, _name(unit), fills))
    return out


def _shooting(state: State, side: str) -> Iterator[tuple[Piece, list[tuple[int, Facts]]]]:
    """Own units that may fire now, each with the models that may: not one that scanned."""
    board = state.board
    if board.step is not Step.SHOOTING or board.active != side:
        return
    for unit in _units(state, side, Status.ON_TABLE):
        scanned = _scanned_now(unit, board.player_turn)
        models = [(i, m) for i, m in _living(unit) if i not in scanned]
        if models:
            yield unit, models


def shooters(state: State, side: str) -> list[Choice]:
    return _pick([unit for unit, _ in _shooting(state, side)])


def firing_models(state: State, side: str) -> list[Choice]:
    """The models of the unit chosen that may fire ("Sergeant Arvin", "marine 2")."""
    return [
        Choice(i, _model_in(unit, models_of, i), when={"unit": unit.id})
        for unit, models in _shooting(state, side)
        for models_of in [[m for _, m in _living(unit)]]
        for i, _ in models
    ]


def _model_in(unit: Piece, living: list[Facts], i: int) -> str | Say:
    """A model by its name, numbered where its unit has several of that name."""
    name = str(unit.public["models"][i]["name"])
    same = [j for j, m in enumerate(unit.public["models"]) if m["name"] == name]
    if len(same) == 1:
        return name
    return say("{model} {n}", model=name, n=same.index(i) + 1)


def _either(names: list[str | Say]) -> str | Say:
    """One choice naming several units' models: "A or B or C"."""
    said = names[0]
    for name in names[1:]:
        said = say("{a} or {b}", a=said, b=name)
    return said


def assaulters(state: State, side: str) -> list[Choice]:
    """Own units on the table that may assault: none that fired heavy or rapid fire
    weapons this turn."""
    board = state.board
    if board.step is not Step.ASSAULT or board.active != side:
        return []
    stops = {Weapon.HEAVY.value, Weapon.RAPID_FIRE.value}
    return _pick(
        [
            u
            for u in _units(state, side, Status.ON_TABLE)
            if not _fired_now(u, board.player_turn) & stops
        ]
    )


def _scanners(state: State, side: str) -> list[tuple[Piece, int, Facts]]:
    """Own models with an auspex or scanner that may scan now: at the start of a shooting
    phase (the side's own, unless any may), before anyone fires, not scanned already."""
    board = state.board
    if board.step is not Step.SHOOTING or board.shooting_started:
        return []
    if state.scenario.switches.scan_phase is ScanPhase.OWN and board.active != side:
        return []
    return [
        (unit, i, model)
        for unit in _units(state, side, Status.ON_TABLE)
        for i, model in _living(unit)
        if model["scanner"] and i not in _scanned_now(unit, board.player_turn)
    ]


def scan_units(state: State, side: str) -> list[Choice]:
    """Units with a model that may scan now; choosing one chooses its (first) scanner."""
    out: list[Choice] = []
    for unit, i, _ in _scanners(state, side):
        if all(c.value != unit.id for c in out):
            out.append(Choice(unit.id, _name(unit), {"model": i}))
    return out


def scan_models(state: State, side: str) -> list[Choice]:
    """The models of the unit chosen that may scan now, by the names its unit's players call
    them ("Sergeant Arvin", "marine 2"): the unit is chosen just above."""
    return [
        Choice(i, _model_in(unit, [], i), when={"unit": unit.id})
        for unit, i, _ in _scanners(state, side)
    ]


def scan_defaults(state: State, side: str) -> Mapping[str, Any]:
    """With a single model that may scan, the form starts with it chosen."""
    found = _scanners(state, side)
    if len(found) != 1:
        return {}
    unit, i, _ = found[0]
    return {"unit": unit.id, "model": i}


# --- the orders ----------------------------------------------------------------------------

WEAPONS = (
    (Weapon.HEAVY.value, N_("heavy weapons")),
    (Weapon.RAPID_FIRE.value, N_("rapid fire weapons")),
    (Weapon.ASSAULT.value, N_("assault weapons")),
    (Weapon.PISTOL.value, N_("pistols")),
    (Weapon.OTHER.value, N_("other weapons")),
)
MODELS = N_("models")

ORDERS: dict[str, Order] = {
    "record_ambushes": Order(
        N_("Write down your ambush orders"),
        N_(
            "In secret, before either army sets up: the square each ambushing unit hides "
            "in. For each order, either choose the unit and its square, or write the order "
            "as you would on paper. No two units may hide in one square, and none in the "
            "enemy's deployment zone. Units you leave out set up as usual. Write them down "
            "even if no unit hides: the enemy learns only that you wrote, never how many."
        ),
        {
            "orders": Ask(N_("Ambush orders"), item=N_("order")),
            "orders.unit": Ask(
                N_("Unit"),
                N_("One of your units that may set up in ambush."),
                pieces=ambushers,
            ),
            "orders.square": Ask(
                N_("Square"),
                N_("The grid square it hides in, like D2."),
                kind="place",
                where="square",
            ),
            "orders.text": Ask(
                N_("Or the order as you would write it"),
                N_(
                    "Instead of the unit and square, for example: Patrol led by Sgt. Graw "
                    "setting up ambush in square D2. If you write it, the written order counts."
                ),
            ),
            "orders.note": Ask(N_("Private note"), N_("For you alone: the enemy never reads it.")),
        },
        defaults=ambush_rows,
        rules=("DWV-R01", "DWV-R04", "DWV-R05", "DWV-A01"),
    ),
    "ready": Order(
        N_("Ready"),
        N_(
            "Your army is set up, and your ambush orders are written if your army may "
            "ambush. Play starts when both sides are ready."
        ),
        rules=("DWV-R04",),
    ),
    "reveal": Order(
        N_("Reveal an ambush"),
        N_(
            "At the beginning of your turn, before anything else. The unit appears in the "
            "square written down and you set it up there at once; it cannot move this turn, "
            "but it may shoot as if it had not moved."
        ),
        {"unit": Ask(N_("Unit"), N_("One of your units still in ambush."), pieces=in_ambush)},
        rules=("DWV-R06", "DWV-R08", "DWV-R09", "DWV-A13"),
    ),
    "set_up": Order(
        N_("Set up the revealed unit"),
        N_(
            "One model in the recorded square, in jungle or woods and at least 1 inch from "
            "every enemy model; the others in coherency, in jungle or woods, at least 1 inch "
            "from the enemy, and at least half the unit in the square. A set-up that breaks "
            "a rule is refused with the reason; a model that cannot be set up anywhere is "
            "removed as a casualty once you list it."
        ),
        {
            "unit": Ask(N_("Unit"), pieces=to_set_up),
            "models": Ask(
                N_("Where each model is set up"),
                N_(
                    "One place per model, in the unit's order; leave a model's place empty "
                    "if there is no room for it."
                ),
                item=N_("model"),
                only="map",
            ),
            "in_square": Ask(
                N_("Models set up in the recorded square"),
                N_("How many of the models you set up stand in the square written down."),
                unit=MODELS,
                only="table",
            ),
            "casualties": Ask(
                N_("Models that cannot be set up"),
                N_(
                    "The models you remove as casualties because there is no legal place for "
                    "them; on a map, exactly those left without a place."
                ),
                item=N_("model"),
                pieces=casualties,
            ),
        },
        defaults=set_up_defaults,
        rules=("DWV-R08", "DWV-A08", "DWV-A09"),
    ),
    "move": Order(
        N_("Move a unit"),
        N_(
            "In your Movement phase. A unit cannot move in the turn it was revealed; an "
            "ambush stays hidden even when your models move through its square."
        ),
        {
            "unit": Ask(N_("Unit"), pieces=movers),
            "models": Ask(
                N_("New positions"),
                N_("One for every model still in the unit, starting from where they stand."),
                item=N_("model"),
                only="map",
            ),
        },
        rules=("DWV-R06", "DWV-R09", "DWV-A07"),
    ),
    "end_phase": Order(
        N_("End the phase"),
        N_(
            "Movement, then Shooting, then Assault; ending the Assault phase hands the turn "
            "to the enemy."
        ),
        confirm=N_("End this phase? Your units cannot act in it any more."),
    ),
    "scan": Order(
        N_("Scan for ambushers"),
        N_(
            "At the start of the Shooting phase, before anyone fires: a model with an auspex "
            "or scanner scans the square it stands in, and finds any ambusher hiding there. "
            "That model cannot fire this phase; the rest of its unit can."
        ),
        {
            "unit": Ask(N_("Unit"), pieces=scan_units),
            "model": Ask(
                N_("Scanning model"),
                N_("The model with the auspex or scanner."),
                pieces=scan_models,
            ),
            "square": Ask(
                N_("Square it stands in"),
                N_("The grid square the scanning model stands in, like D2."),
                kind="place",
                where="square",
                only="table",
            ),
        },
        defaults=scan_defaults,
        rules=("DWV-R07", "DWV-A04", "DWV-A05", "DWV-A06", "DWV-A14"),
    ),
    "fire": Order(
        N_("Fire"),
        N_(
            "In your Shooting phase. Targets and hits are for the game's own rules; ghillie "
            "keeps what the ambush rules need: which weapons fired, and which models."
        ),
        {
            "unit": Ask(N_("Unit"), pieces=shooters),
            "weapon": Ask(
                N_("Weapons fired"),
                N_(
                    "Heavy or rapid fire weapons stop the unit from assaulting this turn. A "
                    "unit that moved cannot fire heavy weapons, but one revealed this turn "
                    "counts as not having moved."
                ),
                options=WEAPONS,
            ),
            "models": Ask(
                N_("Models that fire"),
                N_("Leave this out and every model that may fire does: all but one that scanned."),
                item=N_("model"),
                pieces=firing_models,
            ),
        },
        rules=("DWV-R07", "DWV-R09"),
    ),
    "assault": Order(
        N_("Assault"),
        N_(
            "In your Assault phase, the unit makes an assault move. A unit that fired heavy "
            "or rapid fire weapons this turn cannot."
        ),
        {"unit": Ask(N_("Unit"), pieces=assaulters)},
        rules=("DWV-R09",),
    ),
    "end_game": Order(
        N_("End the game"),
        N_(
            "The game ends for both sides. What becomes of units still in ambush is as the "
            "scenario says."
        ),
        confirm=N_("End the game for everyone? This cannot be taken back."),
        rules=("DWV-A11",),
    ),
}

# --- units and the state of play ----------------------------------------------------------------

STATUS = {
    Status.ON_TABLE: N_("on the table"),
    Status.IN_AMBUSH: N_("in ambush"),
    Status.REVEALED: N_("revealed, waiting to be set up"),
    Status.DESTROYED: N_("destroyed"),
    Status.RESERVE: N_("not on the table"),
}
PHASES = {
    Step.MOVEMENT: N_("Movement phase"),
    Step.SHOOTING: N_("Shooting phase"),
    Step.ASSAULT: N_("Assault phase"),
}


def describe(state: State, observer: str, piece: Piece) -> PieceWords:
    """A unit as ``observer`` knows it: its owner (and the referee) with the square and the
    order written for it, anyone else with what the table shows. Words of the piece and of
    what the observer knows of it only, never of the turn: a view rebuilds them only when
    an event changed a piece (view.project_update)."""
    if piece.kind != UNIT:
        return PieceWords(_name(piece))
    p = piece.public
    own = observer in (piece.owner, REFEREE)
    status = Status(p["status"])
    # The square is the owner's secret until a reveal or a scan makes it public.
    square = (piece.secret.get("square") if own else None) or p.get("square")
    about: list[str | Say] = []
    if status is Status.IN_AMBUSH and square:
        about.append(say("in ambush in square {square}", square=square))
    elif status is Status.REVEALED and square:
        about.append(say("revealed in square {square}, waiting to be set up", square=square))
    else:
        about.append(STATUS[status])
    models = p["models"]
    living = len(_living(piece))
    if status is Status.ON_TABLE and living < len(models):
        about.append(says("{n} model left", "{n} models left", living))
    elif status is not Status.DESTROYED:
        about.append(says("{n} model", "{n} models", len(models)))
    details: list[tuple[str, Any]] = []
    if p.get("leader") and p["leader"] != _name(piece):
        details.append((N_("Leader"), p["leader"]))
    details.append((N_("Models"), _roster(piece)))
    if living < len(models):
        details.append((N_("Lost"), says("{n} model", "{n} models", len(models) - living)))
    scanners = [m["name"] for _, m in _living(piece) if m["scanner"]]
    if scanners:
        details.append((N_("Can scan for ambushers"), scanners))
    if p.get("ambush"):
        details.append((N_("May set up in ambush"), True))
    if own and piece.secret.get("order"):
        details.append((N_("Written order"), piece.secret["order"]))
    if own and piece.secret.get("note"):
        details.append((N_("Private note"), piece.secret["note"]))
    return PieceWords(_name(piece), about, details)


def _roster(unit: Piece) -> list[Say]:
    """The living models, alike ones counted: "Sergeant Arvin with auspex and bolt pistol,
    7 × marine, marine with flamer"."""
    counts: dict[tuple[str, tuple[str, ...]], int] = {}
    for _, model in _living(unit):
        key = (str(model["name"]), tuple(model.get("wargear") or ()))
        counts[key] = counts.get(key, 0) + 1
    out = []
    for (name, wargear), n in counts.items():
        one = say("{model} with {wargear}", model=name, wargear=list(wargear)) if wargear else None
        if n == 1:
            out.append(one or say("{model}", model=name))
        else:
            out.append(say("{n} × {model}", n=n, model=one or name))
    return out


def status(state: State, observer: str) -> list[str | Say]:
    scenario = state.scenario
    board = state.board
    if state.phase is Phase.OVER:
        return [N_("The game is over.")]
    if state.phase is Phase.SETUP:
        return _setting_up(state, observer)
    lines: list[str | Say] = []
    if board.active is not None:
        lines.append(
            say(
                "Turn {turn}: {side} to play — {phase}.",
                turn=board.turn,
                side=scenario.side_name(board.active),
                phase=say(PHASES[board.step]),
            )
        )
    pending = state.pieces.get(board.pending) if board.pending is not None else None
    if pending is not None:
        # Revealed: its name and square are public now.
        square = pending.public.get("square", "?")
        if pending.owner == observer:
            lines.append(
                say("Set up {unit} now, in square {square}.", unit=_name(pending), square=square)
            )
        else:
            lines.append(
                say(
                    "Waiting for {unit} to be set up in square {square}.",
                    unit=_name(pending),
                    square=square,
                )
            )
    if observer in state.sides:
        if in_ambush(state, observer):
            lines.append(N_("You may reveal an ambush now, before anything else this turn."))
        if _scanners(state, observer):
            lines.append(
                N_("Before anyone fires, a model with an auspex or scanner may scan its square.")
            )
        lines.extend(_enemy_in_ambush(state, observer))
        empty = list(board.found_empty.get(observer, ()))
        if empty:
            lines.append(say("Scanned and found empty: {squares}.", squares=empty))
    elif observer == REFEREE:
        hidden = sum(1 for p in state.pieces.values() if p.public.get("status") == Status.IN_AMBUSH)
        if hidden:
            lines.append(says("Units still in ambush: {n}.", "Units still in ambush: {n}.", hidden))
    return lines


def _setting_up(state: State, observer: str) -> list[str | Say]:
    """Set-up: who is ready, and whose ambush orders are still to be written (DWV-R04)."""
    scenario = state.scenario
    board = state.board
    ready = [scenario.side_name(s) for s in state.sides if s in board.ready]
    lines: list[str | Say] = [
        say("Setting up. Ready: {sides}.", sides=ready) if ready else N_("Setting up.")
    ]
    if not board.ready:
        # DWV-R04: orders are written before either army sets up.
        for side in state.sides:
            if side in board.recorded or not can_ambush(state, side):
                continue
            if side == observer:
                lines.append(
                    N_("Write down your ambush orders: no army sets up until they are written.")
                )
            else:
                lines.append(
                    say(
                        "Waiting for {side} to write down their ambush orders.",
                        side=scenario.side_name(side),
                    )
                )
    return lines


def _enemy_in_ambush(state: State, observer: str) -> list[str | Say]:
    """DWV-A12: with the rosters public, how many enemy units are still hiding — counted
    from the enemy units the side knows, all of them when the rosters are public."""
    if not state.scenario.switches.roster_public:
        return []
    enemy = [
        state.pieces[pid]
        for pid in state.knowledge.get(observer, {})
        if pid in state.pieces
        and state.pieces[pid].owner != observer
        and state.pieces[pid].kind == UNIT
    ]
    hidden = sum(1 for p in enemy if p.public["status"] == Status.IN_AMBUSH)
    if hidden:
        return [
            says(
                "Enemy units still in ambush: {n}.",
                "Enemy units still in ambush: {n}.",
                hidden,
                rules=("DWV-A12",),
            )
        ]
    if any(p.public.get("ambush") for p in enemy):
        return [N_("No enemy unit is left in ambush.")]
    return []
