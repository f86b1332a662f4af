"""What moving a unit does to its own standing orders, for its owner's eyes only (issue 25,
table need 4): a unit that moves may not take Ambush Fire or Ambush Close Combat this turn
or next (BMF-R07, R14: "did not move ... during the previous turn and did not move ...
during the current turn"), nor Challenge Fire (R02, A20). Nothing forbids the move; the
owner is warned before it (the move form) and told after it, and its page's status says
the order cannot fire now, and why. The turns are read from the eligibility rules
themselves, not written here: each turn from this one on is looked at with the move added
to the unit's history.

Everything here reads the owner's own pieces (its units and its standing orders), so it is
shown only to the owner: never to the other side, whose view holds none of it.
"""

from __future__ import annotations

from ghillie.state import Piece
from ghillie.words import Say, say

from . import eligibility
from .board import ORDER, Did, State
from .scenario import Diet
from .words import REACTION_WORDS

# Eligibility looks back one turn (R07, R14, A20): two turns past the move are enough to
# find every turn it bars, and the rule, not this number, says which.
HORIZON = 3


def _barred(unit: Piece, history: eligibility.History, reaction: str, turn: int) -> bool:
    concealed = bool(unit.public.get("concealed"))
    if reaction == "challenge":
        return eligibility.challenge(history, turn) is not None
    if reaction == "ambush":
        return eligibility.ambush(concealed, history, turn) is not None
    return eligibility.close_combat(concealed, Diet(unit.public["diet"]), history, turn) is not None


def voided_turns(unit: Piece, reaction: str, turn: int, last: int) -> list[int]:
    """The turns (this one and later, up to ``last``) in which the unit could take
    ``reaction`` as things stand but could not if it moved now."""
    done = eligibility.history(unit)
    moved = {**done, str(turn): sorted({*done.get(str(turn), []), Did.MOVED.value})}
    return [
        t
        for t in range(turn, min(turn + HORIZON, last + 1))
        if _barred(unit, moved, reaction, t) and not _barred(unit, done, reaction, t)
    ]


def _when(turns: list[int], turn: int) -> Say:
    """The turns in the players' words, from the turn now ("this turn or next")."""
    offsets = [t - turn for t in turns]
    if offsets == [0, 1]:
        return say("this turn or next")
    if offsets == [0]:
        return say("this turn")
    if offsets == [1]:
        return say("next turn")
    return say("in turns {turns}", turns=", ".join(str(t) for t in turns))


def orders_of(state: State, unit: Piece) -> list[Piece]:
    """The unit's own standing orders still standing (its owner's pieces)."""
    return sorted(
        (
            p
            for p in state.owned(unit.owner, ORDER)
            if p.secret.get("unit") == unit.id and not p.public.get("live")
        ),
        key=lambda p: int(p.public["number"]),
    )


def warnings(state: State, unit: Piece) -> list[Say]:
    """What moving ``unit`` now would void, one sentence an order it would void:
    "Grenadiers: moving now means the Ambush Fire order cannot fire this turn or next." """
    turn = state.board.turn
    last = int(state.scenario.turns)
    out = []
    for order in orders_of(state, unit):
        reaction = str(order.secret["reaction"])
        turns = voided_turns(unit, reaction, turn, last)
        if turns:
            out.append(
                say(
                    "{unit}: moving now means the {reaction} order cannot fire {when}.",
                    unit=unit.public["name"],
                    reaction=REACTION_WORDS[reaction],
                    when=_when(turns, turn),
                )
            )
    return out


def told(state: State, unit: Piece, turns_of: dict[str, list[int]]) -> list[Say]:
    """After the move: the orders it voided, in the owner's words ("The Ambush Fire order of
    Grenadiers cannot fire this turn or next: they moved.")."""
    out = []
    turn = state.board.turn
    for order in orders_of(state, unit):
        turns = turns_of.get(order.id)
        if turns:
            out.append(
                say(
                    "{unit} moved: its {reaction} order cannot fire {when}.",
                    unit=unit.public["name"],
                    reaction=REACTION_WORDS[str(order.secret["reaction"])],
                    when=_when(turns, turn),
                )
            )
    return out


def not_ready(state: State, side: str) -> list[Say]:
    """The side's own standing orders that may not fire now, each with the eligibility
    rule's own reason ("Standing order 2, the Ambush Fire of Grenadiers, cannot fire now:
    Ambush Fire needs a firer that has not moved or taken Challenge Fire this turn."). An
    order whose missile is in flight is waiting for it, not barred: it is left out."""
    out = []
    firing = (state.board.pending or {}).get("order")  # the order being carried out now
    for order in sorted(state.owned(side, ORDER), key=lambda p: int(p.public["number"])):
        unit = state.pieces.get(str(order.secret.get("unit")))
        if unit is None or "flight" in order.secret or order.public.get("live"):
            continue
        if order.id == firing:
            continue
        reaction = str(order.secret["reaction"])
        why = eligibility.barred(unit, reaction, state.board.turn)
        if why is not None:
            out.append(
                say(
                    "Standing order {n}, the {reaction} of {unit}, cannot fire now: {why}",
                    n=order.public["number"],
                    reaction=REACTION_WORDS[reaction],
                    unit=unit.public["name"],
                    why=say(why),
                )
            )
    return out
