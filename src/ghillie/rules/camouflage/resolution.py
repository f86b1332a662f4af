"""Rolling an Order once every skill and ARO is declared: Discovers first (a Discover +
Attack needs its Discover), then the Attacks — Face to Face where two troopers aim at each
other (INF-T01 d), Normal Rolls otherwise — then the saving rolls the hits call for.

Every roll is open, so the side that gives the command may type in real dice — its own
troopers' only, in the order this module draws them; ghillie rolls the other side's (issue
24: a Face to Face die is its roller's). The record numbers every die in the order drawn,
"die 1", "die 2", ..., and the log says whose each one was."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from ghillie.dice.steps import Die
from ghillie.errors import NOT_YOUR_DIE, Refusal
from ghillie.state import Piece
from ghillie.words import N_, Say, say, says

from . import camo, cancelled, checks, declare
from .board import MARKER, Rules, Save, Stage, State
from .changes import LockedOut, OrderDone, Saved, SavesOwed, StageReached
from .codes import TOO_FEW_DICE
from .commands import ResolveOrder, SavingRolls
from .odds import discover_check
from .orders import SKILL_WORDS, label
from .skills import SkillName
from .where import at
from .zone import within

D20 = Die(20)
COVER_MOD = -3  # the base game's Cover MOD to an attack on a target in cover
COVER_ARM = 3  # and its bonus to the target's saving roll


Draw = Callable[[str, Die], int]


class _Dice:
    """The d20s of one command. Each is its trooper's owner's: the side giving the command
    types in its own, numbered among its own ("die 1" is its first), and ghillie rolls every
    other. How many are its own follows from what was declared and from the dice it typed,
    never from a die ghillie rolls, so the trial of a command refuses what its ruling would."""

    def __init__(self, ruling: Rules) -> None:
        self.ruling = ruling
        self.drawn: Iterator[int] = itertools.count(1)
        self.own: Iterator[int] = itertools.count(1)
        self.typed = ruling.typed_left()  # how many dice the command typed in
        self.mine = 0  # how many of the giver's own dice were drawn

    def of(self, trooper: str) -> Draw:
        """The draw of one trooper's dice."""
        side = self.ruling.piece(trooper).owner
        return lambda _label, die: self._roll(side, die)

    def pair(self, a: str, b: str) -> Draw:
        """The draw of a Face to Face Roll: its ``a`` dice are ``a``'s, its ``b`` dice ``b``'s."""
        sides = {"a": self.ruling.piece(a).owner, "b": self.ruling.piece(b).owner}
        return lambda label, die: self._roll(sides[label[0]], die)

    def _roll(self, side: str, die: Die) -> int:
        if side == self.ruling.side:
            self.mine += 1
        typed = f"die {next(self.own)}" if side == self.ruling.side else None
        return self.ruling.roll(f"die {next(self.drawn)}", die, of=side, typed=typed)

    def all_taken(self, saves: bool = False) -> None:
        """Refuse the command unless it typed in none of its side's own dice or every one:
        one too many could be the other side's (``not_your_die``); one too few is surely a
        die forgotten, not one left for ghillie to roll (``too_few_dice``). Either way the
        refusal says how many this command rolls of the side's own."""
        if not self.typed or self.typed == self.mine:
            return
        n = self.mine
        if saves:
            text = says(
                "Your saving rolls take {n} die: type in just that one, or none and ghillie "
                "rolls it.",
                "Your saving rolls take {n} dice: type in all {n}, in the order they are "
                "rolled, or none and ghillie rolls them.",
                n,
            )
        elif n == 0:
            text = say(
                "This Order rolls none of your own troopers' dice: type in none. ghillie rolls "
                "the other side's."
            )
        else:
            text = says(
                "This Order rolls {n} die for your own troopers: type in just that one, or "
                "none and ghillie rolls it. ghillie rolls the other side's.",
                "This Order rolls {n} dice for your own troopers: type in all {n}, in the "
                "order they are rolled, or none and ghillie rolls them. ghillie rolls the "
                "other side's.",
                n,
            )
        if self.typed > self.mine:
            raise Refusal(NOT_YOUR_DIE, text, field="rolls.dice")
        raise Refusal(TOO_FEW_DICE, text, field="rolls.dice")


def resolve_order(ruling: Rules, side: str, command: ResolveOrder) -> None:
    """The Order resolved, in the order INF-R10 rolls it: the Discovers and Sensors, the
    Attacks (Face to Face where the target answered with one), the other rolls, then
    whoever a Template caught; the saves owed, if any, are the next stage."""
    order = ruling.board.order
    assert order is not None
    assert order.stage is Stage.RESOLVE
    dice = _Dice(ruling)
    active = ruling.state.piece(order.piece)
    skills = [dict(order.first)] + ([dict(order.second)] if order.second else [])
    # Copies: the numbers measured are written into them, never into the board's own.
    reactions = {reactor: dict(aro) for reactor, aro in order.aros.items()}
    _move(ruling, active, skills)
    saves: dict[str, Save] = {}
    _discovers(ruling, active, skills, reactions, dice)
    attack = next((f for f in skills if f["skill"] == SkillName.BS_ATTACK), None)
    struck, landed = _attacks(ruling, active, attack, reactions, dice, saves)
    _other_rolls(ruling, active, skills, dice)
    # The Attack's Template, if it has one, lands only where the Attack hits.
    if attack is not None and attack.get("caught"):
        _under_template(ruling, attack, struck, saves)
    for reactor, facts in reactions.items():
        if facts.get("caught"):
            _under_template(ruling, facts, landed.get(reactor, 0), saves)
    dice.all_taken()

    if saves:
        ruling.change(SavesOwed(saves=tuple(saves.values())))
        ruling.change(StageReached(stage=Stage.SAVES))
    else:
        ruling.change(OrderDone())


Reactions = dict[str, dict[str, Any]]


def _discovers(
    ruling: Rules, active: Piece, skills: list[dict[str, Any]], reactions: Reactions, dice: _Dice
) -> None:
    """Discovers, the active trooper's and the AROs', and its Sensor (INF-R10)."""
    for facts in skills:
        if facts["skill"] == SkillName.DISCOVER:
            target = facts["target"]
            if target in ruling.state.pieces:
                _discover(ruling, active.id, target, facts, dice.of(active.id))
            else:
                _say(
                    ruling,
                    say(
                        "{who}'s Discover needs no roll: the marker revealed itself.",
                        who=_name(ruling, active.id),
                    ),
                )
    for facts in skills:
        if facts["skill"] == SkillName.SENSOR:
            _sensor(ruling, active.id, facts, dice.of(active.id))
    for reactor, facts in reactions.items():
        if facts["aro"] == SkillName.DISCOVER:
            marker = facts.get("marker")
            if marker is None or marker not in ruling.state.pieces:
                _say(
                    ruling,
                    say(
                        "{who}'s Discover needs no roll: the trooper revealed itself.",
                        who=_name(ruling, reactor),
                    ),
                )
                continue
            _discover(ruling, reactor, marker, facts, dice.of(reactor))


def _attacks(
    ruling: Rules,
    active: Piece,
    attack: dict[str, Any] | None,
    reactions: Reactions,
    dice: _Dice,
    saves: dict[str, Save],
) -> tuple[int, dict[str, int]]:
    """The active trooper's Attack, then each ARO's Attack or other roll (those answered
    Face to Face are rolled already): (the Attack's hits on its target, the hits of each
    ARO's Attack)."""
    struck = 0
    landed: dict[str, int] = {}
    answered: set[str] = set()
    if attack is not None:
        aimed_at = _now(ruling, attack["target"])
        if aimed_at is None or aimed_at.kind == MARKER:
            _say(
                ruling,
                say("The Attack is lost: the marker was not Discovered.", rules=("INF-R09",)),
            )
            attack = None
    if attack is not None:
        aimed = _now(ruling, attack["target"])
        assert aimed is not None
        mine = _value(ruling, active.id, aimed, attack)
        back = reactions.get(aimed.id)
        if back is not None and back["aro"] in (SkillName.BS_ATTACK, SkillName.DODGE):
            answered.add(aimed.id)
            theirs = _aro_value(ruling, aimed.id, active.id, back)
            draw = dice.pair(active.id, aimed.id)
            struck, landed[aimed.id] = _face_to_face(
                ruling, active.id, mine, aimed.id, theirs, back, attack, draw, saves
            )
        else:
            struck = _unopposed(
                ruling, active.id, aimed.id, mine, attack, dice.of(active.id), saves
            )
    for reactor, facts in reactions.items():
        if reactor not in answered and SkillName(facts["aro"]) is SkillName.BS_ATTACK:
            value = _aro_value(ruling, reactor, active.id, facts)
            landed[reactor] = _unopposed(
                ruling, reactor, active.id, value, facts, dice.of(reactor), saves
            )
        elif reactor not in answered:
            _other_roll(ruling, reactor, SkillName(facts["aro"]), dice)
    return struck, landed


_OTHER_ROLLS = (SkillName.DODGE, SkillName.RESET, SkillName.OTHER_ROLL)


def _other_roll(ruling: Rules, trooper: str, name: SkillName, dice: _Dice) -> None:
    if name in _OTHER_ROLLS:
        _plain_roll(ruling, trooper, name, dice.of(trooper))


def _other_rolls(ruling: Rules, active: Piece, skills: list[dict[str, Any]], dice: _Dice) -> None:
    """The active trooper's rolls that are not Attacks (Dodge, Reset, another roll), and
    its going back into Camouflage."""
    for facts in skills:
        name = SkillName(facts["skill"])
        _other_roll(ruling, active.id, name, dice)
        if name is SkillName.CAMOUFLAGE:
            camo.recamouflage(ruling, active.id)


def _now(ruling: Rules, ref: str) -> Piece | None:
    """What a target named at declaration is now: itself, or the model that replaced the
    marker it was (INF-R14: a reveal holds for the whole Order)."""
    if ref in ruling.state.pieces:
        return ruling.piece(ref)
    return camo.stood_for(ruling.state, ref)


def _say(ruling: Rules, text: Say) -> None:
    ruling.tell_public({"text": text})


def _name(ruling: Rules, trooper: str) -> Say | str:
    return label(declare.shown(ruling.state, ruling.piece(trooper)))


def _move(ruling: Rules, active: Piece, skills: list[dict[str, Any]]) -> None:
    stops = [f["to"] for f in skills if f.get("to")]
    if stops:
        shown = declare.shown(ruling.state, active)
        ruling.update(shown.id, public={"at": list(stops[-1])})


def _discover(
    ruling: Rules,
    by: str,
    marker_id: str,
    facts: dict[str, Any],
    draw: Draw,
) -> bool:
    """A Discover, rolled with the very check its odds were shown from (odds.py), on the
    range and cover measured when it was declared."""
    marker = ruling.piece(marker_id)
    p = ruling.piece(by).public
    check = discover_check(
        p["wip"],
        facts["range"],
        marker.public["mimetism"],
        p["msv"],
        facts["cover"],
        ruling.scenario.switches,
    )
    (value,) = check.args
    _rolled, outcome = check.roll(draw)
    if outcome == "success":
        _say(
            ruling,
            say(
                "{who} Discovers Marker {marker} (rolled {die} needing {value} or less).",
                who=_name(ruling, by),
                marker=marker.public["number"],
                die=next(iter(_rolled.values())),
                value=value,
                rules=("INF-R10",),
            ),
        )
        camo.reveal(ruling, marker_id, "discovered")
        return True
    # INF-R10: a failed Discover shows only "failed" (§6.2), and locks that trooper out of
    # that marker until the next Player Turn.
    ruling.change(LockedOut(trooper=by, marker=marker_id, turn=ruling.board.turn))
    _say(
        ruling,
        say(
            "{who} fails to Discover Marker {marker} (rolled {die} needing {value} or less): it "
            "cannot try that marker again until the next Player Turn.",
            who=_name(ruling, by),
            marker=marker.public["number"],
            die=next(iter(_rolled.values())),
            value=value,
            rules=("INF-R10", "INF-A05"),
        ),
    )
    return False


def _sensor(
    ruling: Rules,
    by: str,
    facts: dict[str, Any],
    draw: Draw,
) -> None:
    """Sensor (RULES-SPEC §5.1, INF-A08): a Normal WIP+6 Roll with no Range or Mimetism
    MOD; if it passes, every enemy marker inside the trooper's Zone of Control (8") is
    Discovered, with no line of fire needed. At a real table the players list those
    markers; on the map ghillie finds them. A failure locks nothing: it is no Discover."""
    scenario = ruling.scenario
    trooper = ruling.piece(by)
    check = discover_check(
        int(trooper.public["wip"]), 0, 0, 0, False, scenario.switches, sensor=True
    )
    (value,) = check.args
    rolled, outcome = check.roll(draw)
    die = next(iter(rolled.values()))
    state = ruling.state
    if scenario.mode.value == "map":
        here = facts.get("to") or facts.get("from")
        zone = [
            p.id
            for p in state.pieces.values()
            if p.kind == MARKER
            and p.owner != trooper.owner
            and here is not None
            and (where := at(p)) is not None
            and within((here[0], here[1]), where)
        ]
    else:
        zone = [
            m for m in facts.get("zone", []) if m in state.pieces and state.pieces[m].kind == MARKER
        ]
    if outcome != "success":
        _say(
            ruling,
            say(
                "{who}'s Sensor fails (rolled {die} needing {value} or less).",
                who=_name(ruling, by),
                die=die,
                value=value,
                rules=("INF-A08",),
            ),
        )
        return
    _say(
        ruling,
        says(
            "{who}'s Sensor passes (rolled {die} needing {value} or less): {n} marker in "
            "its Zone of Control is Discovered.",
            "{who}'s Sensor passes (rolled {die} needing {value} or less): {n} markers in "
            "its Zone of Control are Discovered.",
            len(zone),
            who=_name(ruling, by),
            die=die,
            value=value,
            rules=("INF-A08",),
        ),
    )
    for marker in zone:
        camo.reveal(ruling, marker, "discovered")


def _value(ruling: Rules, by: str, aimed: Piece, facts: dict[str, Any]) -> int:
    """An attack's Success Value: BS, the weapon's range MOD and any other MODs as entered,
    the target's Mimetism after the attacker's Multispectral Visor, and Cover (as measured
    when the attack was declared: orders.measured)."""
    attacker = ruling.piece(by)
    attack = facts.get("attack") or {}
    value = (
        int(attacker.public["bs"]) + int(attack.get("range_mod", 0)) + int(attack.get("mods", 0))
    )
    value += checks.effective_mimetism(aimed.public["mimetism"], attacker.public["msv"])
    if facts["cover"]:
        value += COVER_MOD
    return value


def _aro_value(ruling: Rules, reactor: str, active: str, facts: dict[str, Any]) -> int:
    if facts["aro"] == SkillName.DODGE:
        return int(ruling.piece(reactor).public["ph"])
    return _value(ruling, reactor, ruling.piece(active), facts)


def _burst(facts: dict[str, Any]) -> int:
    return int((facts.get("attack") or {}).get("burst", 1))


def _owe(
    saves: dict[str, Save],
    ruling: Rules,
    target: str,
    hits: int,
    crits: int,
    facts: dict[str, Any],
) -> None:
    if hits <= 0:
        return
    piece = ruling.piece(target)
    ps = int((facts.get("attack") or {}).get("ps", 5))
    value = ps + int(piece.public["arm"]) + (COVER_ARM if facts.get("cover") else 0)
    count = hits + crits  # N5: each Critical adds a Saving Roll
    old = saves.get(target)
    saves[target] = Save(target, count + (old.count if old else 0), value)


def _face_to_face(
    ruling: Rules,
    a: str,
    a_value: int,
    b: str,
    b_value: int,
    b_facts: dict[str, Any],
    a_facts: dict[str, Any],
    draw: Draw,
    saves: dict[str, Save],
) -> tuple[int, int]:
    """Roll ``a``'s Attack Face to Face against ``b``'s ARO; return each one's hits."""
    scenario = ruling.scenario
    check = checks.face_to_face(
        a_value,
        _burst(a_facts),
        b_value,
        _burst(b_facts) if b_facts["aro"] == SkillName.BS_ATTACK else 1,
        criticals=scenario.switches.critical_clash,
    )
    rolled, (a_hits, a_crits, b_hits, b_crits) = check.roll(draw)
    a_dice = [v for k, v in rolled.items() if k.startswith("a")]
    b_dice = [v for k, v in rolled.items() if k.startswith("b")]
    _say(
        ruling,
        say(
            'Face to Face Roll: {a} rolls {a_dice} needing {a_value} or less (range {a_range}"), '
            '{b} rolls {b_dice} needing {b_value} or less (range {b_range}").',
            a=_name(ruling, a),
            a_dice=", ".join(map(str, a_dice)),
            a_value=a_value,
            a_range=f"{a_facts['range']:g}",
            b=_name(ruling, b),
            b_dice=", ".join(map(str, b_dice)),
            b_value=b_value,
            b_range=f"{b_facts['range']:g}" if "range" in b_facts else "-",
            rules=("INF-T01",),
        ),
    )
    # Why: what failed, what cancelled what, what stands (the players read the judge's work).
    sides = (
        cancelled.Side(_name(ruling, a), a_dice, a_value),
        cancelled.Side(_name(ruling, b), b_dice, b_value),
    )
    _say(ruling, cancelled.explain(*sides, scenario.switches.critical_clash))
    _hits_line(ruling, a, b, a_hits, a_crits)
    _owe(saves, ruling, b, a_hits, a_crits, a_facts)
    if b_facts["aro"] == SkillName.BS_ATTACK:
        _hits_line(ruling, b, a, b_hits, b_crits)
        _owe(saves, ruling, a, b_hits, b_crits, b_facts)
        return a_hits, b_hits
    dodged = say("{who} Dodges.", who=_name(ruling, b))
    _say(ruling, dodged if b_hits else say("{who} fails to Dodge.", who=_name(ruling, b)))
    return a_hits, 0


def _hits_line(ruling: Rules, by: str, target: str, hits: int, crits: int) -> None:
    if hits:
        _say(
            ruling,
            says(
                "{who} hits {target} once.",
                "{who} hits {target} {n} times.",
                hits,
                who=_name(ruling, by),
                target=_name(ruling, target),
            )
            if not crits
            else says(
                "{who} hits {target} once, with a Critical.",
                "{who} hits {target} {n} times, {crits} of them Criticals.",
                hits,
                who=_name(ruling, by),
                target=_name(ruling, target),
                crits=crits,
            ),
        )
    else:
        _say(
            ruling,
            say(
                "{who} does not hit {target}.", who=_name(ruling, by), target=_name(ruling, target)
            ),
        )


def _unopposed(
    ruling: Rules,
    by: str,
    target: str,
    value: int,
    facts: dict[str, Any],
    draw: Draw,
    saves: dict[str, Save],
) -> int:
    """Roll an Attack no one opposes (a Normal Roll per die); return its hits."""
    dice = [draw("", D20) for _ in range(_burst(facts))]
    results = [checks.die_result(d, value) for d in dice]
    hits = sum(1 for r in results if r)
    crits = sum(1 for r in results if r == checks.CRITICAL)
    _say(
        ruling,
        say(
            '{who} rolls {dice} needing {value} or less (range {range}").',
            who=_name(ruling, by),
            dice=", ".join(map(str, dice)),
            value=value,
            range=f"{facts['range']:g}",
        ),
    )
    _hits_line(ruling, by, target, hits, crits)
    _owe(saves, ruling, target, hits, crits, facts)
    return hits


def _plain_roll(ruling: Rules, by: str, name: SkillName, draw: Draw) -> None:
    trooper = ruling.piece(by)
    value = int(trooper.public["ph"] if name is SkillName.DODGE else trooper.public["wip"])
    die = draw("", D20)
    outcome = N_("passes") if checks.die_result(die, value) else N_("fails")
    _say(
        ruling,
        say(
            "{who} rolls {die} for {skill} needing {value} or less: it {outcome}.",
            who=_name(ruling, by),
            die=die,
            skill=Say(SKILL_WORDS[name]),
            value=value,
            outcome=Say(outcome),
        ),
    )


def _under_template(
    ruling: Rules, facts: dict[str, Any], hits: int, saves: dict[str, Save]
) -> None:
    """INF-A07, R13 e: a Template aimed at another target affects the markers under it only
    where its Attack hits. A hit (a success its target did not cancel) forces each of them
    to make a Saving Roll per hit, which cancels its Camouflaged State; the Criticals' extra
    saves are the target's alone. A missed or cancelled Attack affects nobody under it: no
    save is owed, so no marker is revealed."""
    if hits <= 0:
        _say(
            ruling,
            say("The Attack misses: nothing under the Template is affected.", rules=("INF-A07",)),
        )
        return
    for ref in facts["caught"]:
        piece = _now(ruling, ref)
        if piece is None or piece.public.get("state") == State.DOWN:
            continue
        if piece.kind == MARKER:
            hidden = piece.secret["hides"]
            camo.reveal(ruling, piece.id, "save")
            piece = ruling.piece(hidden)
        _owe(saves, ruling, piece.id, hits, 0, facts)


def saving_rolls(ruling: Rules, side: str, command: SavingRolls) -> None:
    dice = _Dice(ruling)
    owed = [s for s in ruling.board.saves if ruling.piece(s.piece).owner == side]
    for save in owed:
        check = checks.saving_rolls(save.value, save.count)
        rolled, failed = check.roll(dice.of(save.piece))
        piece = ruling.piece(save.piece)
        left = max(0, int(piece.public["wounds_left"]) - failed)
        public: dict[str, Any] = {"wounds_left": left}
        if left == 0:
            public["state"] = State.DOWN
        ruling.update(piece.id, public=public)
        _say(
            ruling,
            says(
                "{who} makes {n} saving roll needing {value} or less: {dice}; {failed} failed.",
                "{who} makes {n} saving rolls needing {value} or less: {dice}; {failed} failed.",
                save.count,
                who=str(piece.public["name"]),
                value=save.value,
                dice=", ".join(map(str, rolled.values())),
                failed=failed,
            ),
        )
        if left == 0:
            _say(ruling, say("{who} is out of the game.", who=str(piece.public["name"])))
    dice.all_taken(saves=True)
    ruling.change(Saved(pieces=[s.piece for s in owed]))
    if not ruling.board.saves:
        ruling.change(OrderDone())
