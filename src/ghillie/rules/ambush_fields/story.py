"""The ambush-fields log as a story: ships and fields named as each reader knows them, and
what a side newly sees of the other's ships told to both of them.

Every line a rule tells is a :class:`~ghillie.words.Say` built for one reader from what that
reader may see: its own ships and fields by name; an enemy ship by name once identified,
as "the ship counter at hex 1206" while only detected (BSG-R10: its category, nothing
more), and not at all while hidden; an enemy field as "the ambush field of the Cylons
around hex 1206" once located (R17), as "an ambush field" before. The spectators see what
every side sees, and never a name the sides learned (their view carries no facts).

Who learns what a side has seen of the other's ships (RULES-SPEC §1.6): a detected ship is
a face-down counter placed on the board, an identified one a labelled counter, so the
owner sees it happen at the table. :func:`tell_sighted` tells the seeing side what appears
on its board and the owner what the enemy now sees of its fleet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.state import REFEREE, Level, Piece
from ghillie.words import N_, Say, say, says

from .board import Rules, State, Step
from .fields import Visibility
from .pieces import ships, visibility, where

CATEGORY = {"ship": N_("ship"), "fighter flight": N_("fighter flight"), "shuttle": N_("shuttle")}
PHASES = {
    Step.INITIATIVE: N_("Initiative Phase"),
    Step.MOVEMENT: N_("Movement Phase"),
    Step.COMBAT: N_("Combat Phase"),
}


def category(ship: Piece) -> Say:
    """What a counter shows (BSG-R10): "ship", "fighter flight" or "shuttle", in words."""
    found = str(ship.public.get("category", "ship"))
    return say(CATEGORY.get(found, found))


def phase(step: Step) -> Say:
    return say(PHASES[step])


def level(state: State, reader: str, ship: Piece) -> Visibility:
    """How ``reader`` sees ``ship``: its owner and the referee see it whole; a spectator as
    the side that knows it least (view.py shows spectators only that)."""
    if reader in (ship.owner, REFEREE):
        return Visibility.IDENTIFIED
    if reader in state.sides:
        return visibility(state, reader, ship)
    levels = [visibility(state, s, ship) for s in state.others(ship.owner)]
    lowest = min(levels, key=lambda v: v.rank, default=Visibility.HIDDEN)
    # A spectator is told no name: only what a counter shows.
    return Visibility.DETECTED if lowest is Visibility.IDENTIFIED else lowest


def counter(ship: Piece, *, first: bool = False, at: str | None = None) -> Say:
    """A detected ship as the board shows it: "the ship counter at hex 1206"."""
    hex_ = at or ship.public.get("at") or ship.public.get("left_from")
    if not hex_:
        return say(
            "A {category} counter" if first else "a {category} counter", category=category(ship)
        )
    template = (
        "The {category} counter at hex {hex}" if first else "the {category} counter at hex {hex}"
    )
    return say(template, category=category(ship), hex=hex_)


def ship_name(state: State, reader: str, ship: Piece, *, first: bool = False) -> str | Say:
    """A ship as ``reader`` knows it; ``first``: it starts a sentence."""
    seen = level(state, reader, ship)
    if reader in (ship.owner, REFEREE):
        return str(ship.secret["name"])
    if seen is Visibility.IDENTIFIED:
        name = state.known(reader, ship.id).facts.get("name")
        if name:
            return str(name)
    if seen is not Visibility.HIDDEN:
        return counter(ship, first=first)
    return say("An enemy ship you cannot see" if first else "an enemy ship you cannot see")


def identified_as(state: State, reader: str, ship: Piece) -> str | Say:
    """An identified enemy ship with what identifying told: "Basestar Nemesis (Basestar)"."""
    facts = state.known(reader, ship.id).facts if reader in state.sides else {}
    if reader in (ship.owner, REFEREE):
        facts = ship.secret
    name, kind = facts.get("name"), facts.get("type")
    if name and kind:
        return say("{name} ({type})", name=name, type=kind)
    return str(name) if name else counter(ship)


def field_name(state: State, reader: str, field: Piece, *, first: bool = False) -> str | Say:
    """A field as ``reader`` knows it: its owner by its key and controller; a side that has
    located it by the side it hides and where it is now (R17); anyone else only as a field
    of that side."""
    side = state.scenario.side_name(field.owner)
    controller = state.pieces.get(field.secret["controller"])
    if reader == field.owner:
        if controller is None:
            return say("Your field {key}" if first else "your field {key}", key=field.secret["key"])
        return say(
            "Your field {key} ({controller})" if first else "your field {key} ({controller})",
            key=field.secret["key"],
            controller=controller.secret["name"],
        )
    if reader == REFEREE:
        return say(
            "The field {key} of {side}" if first else "the field {key} of {side}",
            key=field.secret["key"],
            side=side,
        )
    at = located_at(state, reader, field)
    if at is not None:
        return say(
            "The ambush field of {side} around hex {hex}"
            if first
            else "the ambush field of {side} around hex {hex}",
            side=side,
            hex=at,
        )
    return say("An ambush field of {side}" if first else "an ambush field of {side}", side=side)


def located_at(state: State, reader: str, field: Piece) -> str | None:
    """The hex a side that has located ``field`` sees it centred on now; None for a side
    that has not located it (or for a field whose controller has gone)."""
    if reader not in state.sides or state.known(reader, field.id).level < Level.DETECTED:
        return None
    controller = state.pieces.get(field.secret["controller"])
    at = where(state, controller) if controller is not None else None
    return state.scenario.hex_map.to_label(at) if at is not None else None


def dropped(state: State, reader: str, field: Piece, why: str) -> Say:
    """A field's drop as the other side hears of it: ``why`` is "dropped" (R29) or "lost"
    (its controller destroyed, R28)."""
    side = state.scenario.side_name(field.owner)
    at = located_at(state, reader, field)
    if why == "lost":
        if at is not None:
            return say(
                "The ambush field of {side} around hex {hex} drops with its controlling ship: "
                "every ship that was in it is identified.",
                side=side,
                hex=at,
                rules=("BSG-R28", "BSG-R30"),
            )
        return say(
            "An ambush field of {side} drops with its controlling ship: every ship that was "
            "in it is identified.",
            side=side,
            rules=("BSG-R28", "BSG-R30"),
        )
    if at is not None:
        return say(
            "{side} drop their ambush field around hex {hex}: every ship that was in it is "
            "identified.",
            side=side,
            hex=at,
            rules=("BSG-R29", "BSG-R30"),
        )
    return say(
        "{side} drop an ambush field: every ship that was in it is identified.",
        side=side,
        rules=("BSG-R29", "BSG-R30"),
    )


# --- what a side newly sees ------------------------------------------------------------------

Sighted = dict[tuple[str, str], Visibility]  # (seeing side, ship id) → how it sees the ship


def sight(state: State) -> Sighted:
    """How every side sees every enemy ship now: taken before a rule acts, for
    :func:`tell_sighted` after it."""
    return {
        (side, ship.id): visibility(state, side, ship)
        for ship in ships(state)
        for side in state.others(ship.owner)
    }


def tell_sighted(
    ruling: Rules,
    before: Mapping[tuple[str, str], Visibility],
    *,
    rules: Sequence[str] = (),
    seer: bool = True,
    owner: bool = True,
) -> list[tuple[str, str, Visibility, Visibility]]:
    """Tell each side what has newly appeared on its board since ``before`` (new counters,
    ships identified) and each owner what the enemy now sees of its ships. Returns the
    changes, as (seeing side, ship id, before, now)."""
    state = ruling.state
    changes = []
    for (side, ship_id), now in sight(state).items():
        was = before.get((side, ship_id), Visibility.HIDDEN)
        if now.rank > was.rank:
            changes.append((side, ship_id, was, now))
    by_seer: dict[str, list[tuple[Piece, Visibility, Visibility]]] = {}
    for side, ship_id, was, now in changes:
        by_seer.setdefault(side, []).append((state.pieces[ship_id], was, now))
    for side, seen in by_seer.items():
        if seer:
            _tell_seer(ruling, side, seen, rules)
        if owner:
            _tell_owners(ruling, side, seen, rules)
    return changes


def _tell_seer(
    ruling: Rules,
    side: str,
    seen: list[tuple[Piece, Visibility, Visibility]],
    rules: Sequence[str],
) -> None:
    state = ruling.state
    counters = [s for s, was, now in seen if now is Visibility.DETECTED]
    out_of_hiding = [
        s for s, was, now in seen if now is Visibility.IDENTIFIED and was is Visibility.HIDDEN
    ]
    unmasked = [
        s for s, was, now in seen if now is Visibility.IDENTIFIED and was is Visibility.DETECTED
    ]
    if counters:
        text = (
            say(
                "A {category} counter appears on your board at hex {hex}.",
                category=category(counters[0]),
                hex=counters[0].public.get("at"),
                rules=rules,
            )
            if len(counters) == 1
            else says(
                "{n} counter appears on your board: {counters}.",
                "{n} counters appear on your board: {counters}.",
                len(counters),
                counters=[counter(s) for s in counters],
                rules=rules,
            )
        )
        _line(ruling, side, "detected", counters, text)
    if out_of_hiding:
        named = [
            say("{ship} at hex {hex}", ship=identified_as(state, side, s), hex=s.public.get("at"))
            for s in out_of_hiding
        ]
        text = (
            say("{ship} appears on your board, identified.", ship=named[0], rules=rules)
            if len(named) == 1
            else says(
                "{n} enemy ship appears on your board, identified: {ships}.",
                "{n} enemy ships appear on your board, identified: {ships}.",
                len(named),
                ships=named,
                rules=rules,
            )
        )
        _line(ruling, side, "identified", out_of_hiding, text)
    if unmasked:
        named = [
            say("{counter} is {ship}", counter=counter(s), ship=identified_as(state, side, s))
            for s in unmasked
        ]
        text = (
            say(
                "Identified: {counter} is {ship}.",
                counter=counter(unmasked[0]),
                ship=identified_as(state, side, unmasked[0]),
                rules=rules,
            )
            if len(named) == 1
            else says(
                "{n} counter identified: {ships}.",
                "{n} counters identified: {ships}.",
                len(named),
                ships=named,
                rules=rules,
            )
        )
        _line(ruling, side, "identified", unmasked, text)


def _tell_owners(
    ruling: Rules,
    side: str,
    seen: list[tuple[Piece, Visibility, Visibility]],
    rules: Sequence[str],
) -> None:
    owners = {s.owner for s, _, _ in seen}
    for owner in sorted(owners):
        mine = [(s, now) for s, _, now in seen if s.owner == owner]
        detected = [s for s, now in mine if now is Visibility.DETECTED]
        identified = [s for s, now in mine if now is Visibility.IDENTIFIED]
        if detected:
            named = [
                say("{ship} at hex {hex}", ship=s.secret["name"], hex=s.public.get("at"))
                for s in detected
            ]
            text = says(
                "The enemy now sees {ships} as a face-down counter: detected, not identified.",
                "The enemy now sees {n} of your ships as face-down counters, detected but not "
                "identified: {ships}.",
                len(named),
                ships=named,
                rules=rules,
            )
            _line(ruling, owner, "seen_by_enemy", detected, text, level="detected")
        if identified:
            named = [
                say("{ship} at hex {hex}", ship=s.secret["name"], hex=s.public.get("at"))
                for s in identified
            ]
            text = says(
                "The enemy has identified {ships}.",
                "The enemy has identified {n} of your ships: {ships}.",
                len(named),
                ships=named,
                rules=rules,
            )
            _line(ruling, owner, "seen_by_enemy", identified, text, level="identified")


def _line(
    ruling: Rules,
    side: str,
    event: str,
    pieces: list[Piece],
    text: Say,
    **more: Any,
) -> None:
    ruling.tell(side, {"event": event, "ships": [p.id for p in pieces], **more, "text": text})
