"""The grid-ambush log as a story: what each side is told, in the players' words.

Every line a rule tells is a :class:`~ghillie.words.Say`: an English template, its
arguments (units by their names, models as players call them, squares, counts) and the
RULES-SPEC ids it applies, kept apart from the words (a tooltip, never text). A line is
built for one reader and names only what that reader can see: a unit still hidden is named
only to its owner, and nothing here reads another side's secrets.
"""

from __future__ import annotations

from ghillie.state import Facts, Piece
from ghillie.words import N_, Say, say, says

from .commands import Weapon
from .scenario import SCANNING_WARGEAR


def name(piece: Piece) -> str:
    """A unit by its name, as its army list gives it (public: the rosters name the units)."""
    return str(piece.public.get("name") or piece.public.get("key") or "?")


def model_name(unit: Piece, model: Facts, *, first: bool = False) -> str | Say:
    """A model as players call it: "Sergeant Arvin (Tactical squad Arvin)"; a unit of one
    named model (Marbo) is just its name. ``first``: it starts a sentence, so a name the
    army list writes in lower case ("marine") starts with a capital."""
    if model["name"] == name(unit):
        return name(unit)
    called = str(model["name"])
    if first:
        called = called[:1].upper() + called[1:]
    return say("{model} ({unit})", model=called, unit=name(unit))


def models(n: int) -> Say:
    """A count of models: "1 model", "10 models"."""
    return says("{n} model", "{n} models", n)


def device(model: Facts) -> str | None:
    """The auspex or scanner a model carries, as its wargear names it; None for a model
    that scans without one (a listed model, or one flagged as a scanner)."""
    return next(
        (str(w) for w in model.get("wargear") or () if str(w).casefold() in SCANNING_WARGEAR),
        None,
    )


# --- scans (DWV-R07, A06, A14) ------------------------------------------------------------------

# What a scan found, as told to the side that scanned and to everyone watching; the
# hidden unit's owner is told which unit was found (FOUND_YOURS). With a device and without.
FOUND = (
    N_("{model} scans with the {device}: ambushers found in {square}!"),
    N_("{model} scans: ambushers found in {square}!"),
)
FOUND_YOURS = (
    N_("{model} scans with the {device} and finds {unit} in {square}!"),
    N_("{model} scans and finds {unit} in {square}!"),
)
EMPTY = (
    N_("{model} scans with the {device}: no ambushers found in {square}."),
    N_("{model} scans: no ambushers found in {square}."),
)
FOUND_ALREADY = (
    N_("{model} scans with the {device}: the ambushers in {square} were found already."),
    N_("{model} scans: the ambushers in {square} were found already."),
)
UNREPORTED = (
    N_("{model} scans {square} with the {device}."),
    N_("{model} scans {square}."),
)


def scan_told(
    templates: tuple[str, str],
    scanner: Piece,
    model: Facts,
    square: str,
    rules: tuple[str, ...],
    /,
    **args: str | Say,
) -> Say:
    """One scan told: the scanning model by name (``model`` of the unit ``scanner``), the
    device it scans with, the square; ``args`` for the template's other words."""
    carried = device(model)
    template = templates[0] if carried else templates[1]
    extra = {"device": carried} if carried else {}
    return say(
        template,
        rules=rules,
        model=model_name(scanner, model, first=True),
        square=square,
        **extra,
        **args,
    )


# --- fire (DWV-R09) ------------------------------------------------------------------------------

# The weapons fired, as one firing model's or as several models'.
WEAPONS = {
    Weapon.HEAVY: (N_("a heavy weapon"), N_("heavy weapons")),
    Weapon.RAPID_FIRE: (N_("a rapid fire weapon"), N_("rapid fire weapons")),
    Weapon.ASSAULT: (N_("an assault weapon"), N_("assault weapons")),
    Weapon.PISTOL: (N_("a pistol"), N_("pistols")),
    Weapon.OTHER: (N_("a weapon of another kind"), N_("other weapons")),
}


def weapons(weapon: Weapon, firing: int) -> Say:
    one, several = WEAPONS[weapon]
    return says(one, several, firing)
