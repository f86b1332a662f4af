"""The ambush field as geometry and as a barrier, and who it hides (RULES-SPEC §1, BSG-*).

Pure functions over plain data: no game state and no engine. The ruleset's hooks build
:class:`Field` and :class:`UnitAt` views from the truth store and act on the decisions these
functions return.

Decisions this module settles (each also noted where it is made):

* BSG-R04: a field is every hex within its radius of the controller's **current** hex; a
  dropped field (R28–R30) contains nothing.
* BSG-A01: range to a field under ``bsg.range_to``; a ship inside has no range (R26).
* BSG-A16: hidden inside **any** friendly field; the protective modifier is the **maximum**
  rating among fields holding the target and not the source, never a sum.
* BSG-R21: the field protects its **owner's** units. An enemy unit that has moved in gets no
  protection from it: the text's attackers "firing from outside to inside the screen" are
  the field's enemies. Flag to designers (the text says "all ships within the field").
* BSG-R22: knowing is not bypassing — no function here takes what a side knows.
* BSG-A17: a unit's visibility only ever rises (hidden → detected → identified).
* BSG-R26 over A16: a unit in a field an enemy has entered is identified even if another
  friendly field also holds it ("all units within the field are detected and identified").
* BSG-R30 with A16: when a field is lost, a unit still inside another active friendly field
  stays hidden (the same containment test as R06). Flag to designers.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict

from ghillie.measure.arcs import DEFAULT_ARCS, ArcScheme, arc_of, arcs_containing
from ghillie.measure.hexes import HEXSIDES, Hex, check_direction, disc, distance
from ghillie.rules.ambush_fields.detection import CAP, RATINGS
from ghillie.rules.ambush_fields.scenario import ArcReport, FieldSpec, RangeTo, ShipClass


class Visibility(StrEnum):
    """A unit as the opposing side sees it (RULES-SPEC §1.6, S1–S3), in rising order."""

    HIDDEN = "hidden"  # S1: not on the board
    DETECTED = "detected"  # S2: face-down counter, category only (BSG-R10)
    IDENTIFIED = "identified"  # S3: labelled counter

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Visibility.HIDDEN: 0, Visibility.DETECTED: 1, Visibility.IDENTIFIED: 2}


def raised(current: Visibility, to: Visibility) -> Visibility:
    """``current`` raised to at least ``to``: visibility never goes back down (BSG-A17).

    >>> raised(Visibility.IDENTIFIED, Visibility.DETECTED).value
    'identified'
    """
    return current if current.rank >= to.rank else to


@dataclass(frozen=True)
class Field:
    """A field as it stands now: ``centre`` is its controller's current hex (BSG-R04)."""

    key: str
    owner: str  # the side whose units it hides
    centre: Hex
    radius: int
    rating: int
    active: bool = True  # False once dropped (BSG-R28, R29): it contains nothing

    def __post_init__(self) -> None:
        if self.radius < 0:
            raise ValueError(f"a field's radius is 0 or more, not {self.radius} (BSG-R04)")
        if self.rating not in RATINGS:
            raise ValueError(f"a field's rating is 1, 2 or 3, not {self.rating} (BSG-R03)")

    @classmethod
    def of(cls, spec: FieldSpec, owner: str, centre: Hex, *, active: bool = True) -> Field:
        """The view of a scenario's field whose controller is now at ``centre``."""
        return cls(spec.key, owner, centre, spec.radius, spec.rating, active)


def contains(field: Field, at: Hex) -> bool:
    """Whether ``at`` is in the field: within its radius of the controller's current hex
    (BSG-R04). A dropped field contains nothing.

    >>> veil = Field("veil", "cylons", Hex(0, 0), radius=2, rating=2)
    >>> contains(veil, Hex(2, 0)), contains(veil, Hex(3, 0))
    (True, False)
    """
    return field.active and distance(at, field.centre) <= field.radius


def range_to_field(ship: Hex, field: Field, range_to: RangeTo = RangeTo.NEAREST_HEX) -> int | None:
    """The detection range from ``ship`` to the field (BSG-A01, ``bsg.range_to``), or None
    when the ship is inside it: no roll, BSG-R26 handles it.

    ``nearest_hex`` (DEFAULT): to the field's nearest hex, ``max(1, d − r)``, at least 1
    outside. ``controller``: to the controller's hex, ``d``. ValueError for a dropped field,
    which is no longer there to detect (BSG-T12).

    >>> veil = Field("veil", "cylons", Hex(0, 0), radius=2, rating=2)
    >>> range_to_field(Hex(6, 0), veil), range_to_field(Hex(6, 0), veil, RangeTo.CONTROLLER)
    (4, 6)
    >>> range_to_field(Hex(1, 0), veil) is None
    True
    """
    if not field.active:
        raise ValueError(f"field {field.key} has been dropped: it has no range (BSG-T12)")
    if contains(field, ship):
        return None
    d = distance(ship, field.centre)
    if RangeTo(range_to) is RangeTo.CONTROLLER:
        return d
    return max(1, d - field.radius)


def hiding_fields(at: Hex, side: str, fields: Iterable[Field]) -> list[Field]:
    """The active fields of ``side`` that contain ``at``: a unit of ``side`` there is hidden
    (unless already seen) if this is not empty (BSG-R05, A16: inside ANY friendly field)."""
    return [f for f in fields if f.owner == side and contains(f, at)]


def cover_rating(at: Hex, side: str, fields: Iterable[Field]) -> int | None:
    """The highest rating among ``side``'s fields holding ``at`` (BSG-A16), or None if none
    does — the R a scout must match to Identify a unit there (BSG-R24)."""
    return max((f.rating for f in hiding_fields(at, side, fields)), default=None)


# --- the field as a barrier (BSG-R21, R22, A16) ----------------------------------------------


def protective_modifier(source: Hex, target: Hex, target_side: str, fields: Iterable[Field]) -> int:
    """The field modifier against fire or EW from ``source`` at a unit of ``target_side`` at
    ``target`` (BSG-R21): the highest rating among active fields of the target's side that
    contain the target and not the source (BSG-A16: the highest, not a sum). 0 from inside to
    outside and from inside to inside, for weapons and scout EW alike.

    BSG-R22, knowing is not bypassing: there is deliberately no parameter for what the firing
    side knows. A located field, an identified target: the modifier is the same.

    >>> veil = Field("veil", "cylons", Hex(0, 0), radius=2, rating=2)
    >>> [protective_modifier(s, t, "cylons", [veil]) for s, t in
    ...     ((Hex(5, 0), Hex(1, 0)), (Hex(1, 0), Hex(5, 0)), (Hex(-1, 0), Hex(1, 0)))]
    [2, 0, 0]
    """
    return max(
        (
            f.rating
            for f in fields
            if f.owner == target_side and contains(f, target) and not contains(f, source)
        ),
        default=0,
    )


def capped(total: int) -> int:
    """The host's normal maximum of ±3 on combat and EW modifiers (BSG-R21: "Normal maximum
    modifiers of ±3 are still in force"). Detection rolls are not capped (BSG-A08).

    >>> capped(5), capped(-4), capped(2)
    (3, -3, 2)
    """
    return max(-CAP, min(CAP, total))


def fire_modifier(
    source: Hex,
    target: Hex,
    target_side: str,
    fields: Iterable[Field],
    other_modifiers: int = 0,
) -> int:
    """The field modifier plus the host's other modifiers, capped at ±3 (BSG-R21, T10).

    >>> veil = Field("veil", "cylons", Hex(0, 0), radius=2, rating=2)
    >>> fire_modifier(Hex(5, 0), Hex(1, 0), "cylons", [veil], other_modifiers=2)
    3
    """
    return capped(protective_modifier(source, target, target_side, fields) + other_modifiers)


# --- containment at the end of the Movement Phase (BSG-R06, R11, R16, R26) -------------------


@dataclass(frozen=True)
class UnitAt:
    """A unit on the map (or plotted off it) as the containment check sees it.

    ``visibility`` is how the opposing side sees it now. ``was_in`` are the keys of the
    friendly fields it was hiding in at the last check (the end of the previous Movement
    Phase, or set-up): a hidden unit that leaves gives the enemy PI on those (BSG-R16).
    ``ship_class`` does not change containment — "All units within this radius" (BSG-R05),
    fighters launched inside included (R07) — it is carried for what a reveal shows (R10).
    """

    key: str
    side: str
    at: Hex
    visibility: Visibility
    ship_class: ShipClass = ShipClass.CAPITAL
    was_in: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reveal:
    """``unit`` is now seen by the opposing side as ``visibility``, by ``rule``; ``field``
    names the field involved (the one entered, left or lost), if any."""

    unit: str
    visibility: Visibility
    rule: str
    field: str | None = None


@dataclass(frozen=True)
class Containment:
    """What the end of a Movement Phase changes. Every field key names a field whose
    opposing side (the side that does not own it) gains the thing. PI on a field that side
    located earlier changes nothing; the ruleset, which knows that, may skip it."""

    reveals: tuple[Reveal, ...]  # at most one per unit
    partial_information: tuple[str, ...]  # automatic PI, flag only (BSG-R16, A14)
    located: tuple[str, ...]  # located by an enemy moving in (BSG-R26, A15)


def invaded(units: Iterable[UnitAt], fields: Iterable[Field]) -> list[Field]:
    """The active fields with a unit of the other side inside (BSG-R26). Any unit counts,
    fighters and shuttles too ("any unit"), and a unit hidden in its own overlapping field."""
    units = list(units)
    return [f for f in fields if any(u.side != f.owner and contains(f, u.at) for u in units)]


def invasion(field: Field, units: Iterable[UnitAt]) -> list[Reveal]:
    """BSG-R26: an enemy is inside ``field``, so every unit of its owner in it becomes
    identified to the enemy (and the field is located: the caller records that).

    At the end of the Movement Phase (BSG-A15 DEFAULT) :func:`end_of_movement` calls this;
    under ``bsg.enter_trigger = immediate`` the ruleset calls it at the moment of entry.
    """
    return [
        Reveal(u.key, Visibility.IDENTIFIED, "BSG-R26", field.key)
        for u in units
        if u.side == field.owner
        and contains(field, u.at)
        and u.visibility is not Visibility.IDENTIFIED
    ]


def end_of_movement(units: Sequence[UnitAt], fields: Sequence[Field]) -> Containment:
    """Containment at the end of a Movement Phase, on final positions only (BSG-R06).

    * BSG-R26 / A15: a field with an enemy unit inside is located, and every unit of its
      owner in it becomes identified (this wins over A16's "any friendly field").
    * BSG-R06: a hidden unit outside every friendly field becomes identified and is placed
      on the board; the enemy gains automatic PI on the fields it was in (R16, A14: the
      −1 flag only), unless such a field is located this phase or dropped.
    * BSG-R11: a detected unit outside every friendly field becomes identified.
    * BSG-R05 / A17: nothing becomes less visible; a unit inside a friendly field keeps its
      visibility (a fugitive stays identified, BSG-R27).
    """
    reveals: dict[str, Reveal] = {}
    located: list[str] = []
    for field in invaded(units, fields):
        located.append(field.key)
        for reveal in invasion(field, units):
            reveals.setdefault(reveal.unit, reveal)
    active = {f.key for f in fields if f.active}
    partial: list[str] = []
    for unit in units:
        if unit.key in reveals or unit.visibility is Visibility.IDENTIFIED:
            continue
        if hiding_fields(unit.at, unit.side, fields):
            continue  # BSG-R05: still hidden (or still only detected)
        if unit.visibility is Visibility.HIDDEN:
            left = unit.was_in[0] if unit.was_in else None
            reveals[unit.key] = Reveal(unit.key, Visibility.IDENTIFIED, "BSG-R06", left)
            partial.extend(k for k in unit.was_in if k in active and k not in located)
        else:
            reveals[unit.key] = Reveal(unit.key, Visibility.IDENTIFIED, "BSG-R11")
    return Containment(
        reveals=tuple(reveals[u.key] for u in units if u.key in reveals),
        partial_information=tuple(dict.fromkeys(partial)),
        located=tuple(located),
    )


def field_lost(field: Field, units: Iterable[UnitAt], fields: Iterable[Field]) -> list[Reveal]:
    """BSG-R28–R30: ``field`` is dropped (Initiative Phase) or its controller destroyed
    (Combat segment 10); every unit of its owner that was in it becomes identified — except
    one still inside another active friendly field (A16, the R06 test). Pass ``field`` as it
    stood (active); ``fields`` are the fields remaining afterwards.
    """
    if not field.active:
        raise ValueError(f"field {field.key} was already dropped (BSG-R29: once only)")
    others = [f for f in fields if f.key != field.key]
    return [
        Reveal(u.key, Visibility.IDENTIFIED, "BSG-R30", field.key)
        for u in units
        if u.side == field.owner
        and contains(field, u.at)
        and u.visibility is not Visibility.IDENTIFIED
        and not hiding_fields(u.at, u.side, others)
    ]


def fugitive_may_hide(
    in_friendly_field: bool, pursuers: Collection[str], enemy_on_board: Collection[str]
) -> bool:
    """BSG-R27 / A19: an identified ship of the owner in its own field may become hidden at
    the end of a Movement Phase once none of its ``pursuers`` (the enemy ships on the board
    when it entered the field) is on the board. Until then it keeps the field's modifiers
    (:func:`protective_modifier` does not ask) but stays identified.

    The ruleset keeps ``pursuers`` per fugitive, and forgets them once the fugitive hides:
    "it stays hidden when they return".

    >>> fugitive_may_hide(True, {"galactica"}, {"galactica", "viper"})
    False
    >>> fugitive_may_hide(True, {"galactica"}, {"viper"})
    True
    """
    return in_friendly_field and not any(p in enemy_on_board for p in pursuers)


# --- partial information (BSG-R15, A07, T07) ----------------------------------------------


class PartialInformation(TypedDict, total=False):
    """Exactly what a partial result tells the detecting player (BSG-R15): one of ``arc``
    or ``arcs``, the unmodified ``base_number``, and ``heading`` only if the field moves.
    Never the speed, the rating, the range or the radius."""

    arc: str
    arcs: list[str]
    base_number: int
    heading: str


def partial_information(
    detector: Hex,
    detector_heading: int,
    field: Field,
    arc_scheme: ArcScheme = DEFAULT_ARCS,
    arc_report: ArcReport = ArcReport.CENTRE,
    *,
    base_number: int,
    moving: bool,
    heading: int | None = None,
) -> PartialInformation:
    """The disclosure on a partial result (BSG-R15, T07).

    ``arc``: the detecting ship's arc holding the field's centre (BSG-A07 DEFAULT), or
    ``arcs``: every arc the field overlaps (``bsg.arc_report = every``). ``base_number``: the
    unmodified N for this ship against this field (the caller's :func:`~.detection.
    base_number`). ``heading``: the controller's direction of travel as a hexside letter,
    only if it is moving this turn — never its speed.

    >>> veil = Field("veil", "cylons", Hex(0, -6), radius=2, rating=2)
    >>> partial_information(Hex(0, 0), 0, veil, base_number=4, moving=True, heading=3)
    {'arc': 'F', 'base_number': 4, 'heading': 'D'}
    """
    if contains(field, detector):
        raise ValueError("a ship inside the field does not roll (BSG-R26)")
    if base_number < 1:
        raise ValueError(f"a base number is at least 1, not {base_number} (BSG-R14)")
    info: PartialInformation = {}
    if ArcReport(arc_report) is ArcReport.EVERY:
        info["arcs"] = arcs_containing(
            detector, detector_heading, disc(field.centre, field.radius), arc_scheme
        )
    else:
        info["arc"] = arc_of(detector, detector_heading, field.centre, arc_scheme)
    info["base_number"] = base_number
    if moving:
        if heading is None:
            raise ValueError("a moving field's direction of travel is needed (BSG-R15)")
        check_direction(heading)
        info["heading"] = HEXSIDES[heading]
    return info


__all__ = [
    "Containment",
    "Field",
    "PartialInformation",
    "Reveal",
    "UnitAt",
    "Visibility",
    "capped",
    "contains",
    "cover_rating",
    "end_of_movement",
    "field_lost",
    "fire_modifier",
    "fugitive_may_hide",
    "hiding_fields",
    "invaded",
    "invasion",
    "partial_information",
    "protective_modifier",
    "raised",
    "range_to_field",
]
