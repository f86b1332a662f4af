# ruff: noqa: E501  (generated data: one rule's words to a line)
"""The rules of this ruleset by their RULES-SPEC ids (SW-…): each rule's name and
one short line of its statement, for the § beside a log line or an order.

Written by scripts/rulebook from RULES-SPEC.md: edit the spec and run it again, not
this file. The words are the catalogues' like any other (scripts/catalogues)."""

from ghillie.words import N_

RULES: dict[str, tuple[str, str]] = {
    "SW-R01": (
        N_("When it applies"),
        N_("Only if the scenario is an attack on a prepared enemy, or an ambush."),
    ),
    "SW-R02": (
        N_("Markers"),
        N_(
            "For each camouflaged unit the owner rolls d6 and receives that many suspicious place markers."
        ),
    ),
    "SW-R03": (
        N_("Secret assignment"),
        N_(
            "For each squad in ambush the owner secretly records which marker it is under; the marker is the…"
        ),
    ),
    "SW-R04": (
        N_("Mines under markers"),
        N_(
            "The same markers are used for minefields, IEDs and the like, so a marker may hide a squad, a…"
        ),
    ),
    "SW-R06": (
        N_("When a suspicious-place marker is removed"),
        N_("The owner activates the hidden squad → it is revealed."),
    ),
    "SW-R07": (
        N_("When a suspicious-place marker is removed"),
        N_("An enemy comes into direct line of sight of a marker lying in open terrain →…"),
    ),
    "SW-R08": (
        N_("When a suspicious-place marker is removed"),
        N_("The marker ends up inside an enemy squad → the marker is removed."),
    ),
    "SW-R09": (
        N_("When a suspicious-place marker is removed"),
        N_("An enemy makes a successful observation (both dice higher) → the marker is…"),
    ),
    "SW-R10": (
        N_("The action"),
        N_("Observation is an action a squad takes in its own activation."),
    ),
    "SW-R11": (
        N_("Range die"),
        N_('zone = ceil(distance / 12"), so zone 1 is anything up to 12".'),
    ),
    "SW-R12": (
        N_("Who rolls the range die"),
        N_(
            "The owner of the camouflaged unit (in a program, the referee) rolls it, even for an empty…"
        ),
    ),
    "SW-R13": (
        N_("Observer's dice"),
        N_(
            "The observer rolls its squad quality die plus its observation-means die: eyes d4, binoculars d6…"
        ),
    ),
    "SW-R14": (
        N_("Result"),
        N_(
            'Compare each observer die with the single target roll; "higher" means strictly greater.'
        ),
    ),
    "SW-R15": (
        N_("Firing at markers"),
        N_(
            "Any suspicious-place marker, flipped or not, may be fired at under the general shooting rules."
        ),
    ),
    "SW-R16": (
        N_("Firing at markers"),
        N_("On a full success (both of the shooter's dice higher), the marker is removed."),
    ),
    "SW-R17": (
        N_("Firing at markers"),
        N_("If a sniper, mines or an IED was under the marker, it is not removed."),
    ),
    "SW-R18": (
        N_("What they are"),
        N_(
            "Lone figures (officers, medics carrying wounded, and the like; snipers excepted) count as a group…"
        ),
    ),
    "SW-R19": (
        N_("Joining squads"),
        N_("A lone figure may join and leave squads at will."),
    ),
    "SW-R20": (
        N_("Fire at a lone figure inside a squad"),
        N_("General rules; hits are spread randomly through the squad, so the lone figure can…"),
    ),
    "SW-R21": (
        N_("Fire at a lone figure outside a squad"),
        N_("General rules, but its range die gets +1 step."),
    ),
    "SW-R22": (
        N_("Morale"),
        N_("Reaction tests follow the general rules."),
    ),
    "SW-R30": (
        N_("Double range zones"),
        N_(
            "For shooting, a sniper's range zones are twice as long: zone length = 2 × the number of faces on…"
        ),
    ),
    "SW-R31": (
        N_("Double suppression"),
        N_(
            "Whenever a group fired on by a sniper would receive one suppression marker, it receives two, but no…"
        ),
    ),
    "SW-R32": (
        N_("Sniper accuracy"),
        N_("The sniper rolls quality die + weapon die against the target's range die."),
    ),
    "SW-R33": (
        N_("Sniper stealth setup"),
        N_("The sniper figure is not placed."),
    ),
    "SW-R35": (
        N_("Revealing a sniper, in one of two ways"),
        N_("(a) observation under the general rules against a sniper marker;"),
    ),
    "SW-R36": (
        N_("Covert move between markers"),
        N_("The sniper rolls its quality die and must roll higher than its own leadership."),
    ),
    "SW-R37": (
        N_("Re-hiding"),
        N_(
            "A revealed sniper may hide again under three markers if it passes a reaction test at threat level…"
        ),
    ),
    "SW-A03": (
        N_('Zone boundary: is exactly 12" zone 1 or zone 2'),
        N_('ceil(d/12), so exactly 12" is zone 1.'),
    ),
    "SW-A04": (
        N_("How many markers, and are they pooled"),
        N_("Roll 1d6 per camouflaged unit; place all of them; one common pool; at most one…"),
    ),
    "SW-A05": (
        N_("The marker ends up inside an enemy squad"),
        N_("The marker point is inside the convex hull of the enemy squad's bases, or…"),
    ),
    "SW-A07": (
        N_("A full success (h=2) on a mine or IED marker"),
        N_("The minefield or IED is revealed: the marker is replaced by a known…"),
    ),
    "SW-A08": (
        N_("Firing at a marker with only one die higher (general rules…"),
        N_("No effect."),
    ),
    "SW-A10": (
        N_("Observing a sniper marker"),
        N_(
            'Apply the table per marker: a false marker counts as "nothing" and is removed on h ≥ 1; the…'
        ),
    ),
    "SW-A11": (
        N_("Own leadership: a number or a die"),
        N_("If leadership is a number L: success if quality roll > L."),
    ),
    "SW-A12": (
        N_("Does the covert move cost an action"),
        N_("Yes, one action."),
    ),
    "SW-A14": (
        N_("Can a hidden squad move while hidden"),
        N_("No."),
    ),
    "SW-A15": (
        N_("Does the open-terrain reveal apply to sniper markers"),
        N_("No."),
    ),
    "SW-A16": (
        N_("A sniper shot with h=1: is there also double suppression"),
        N_("Apply (one random hit) and whatever suppression the host…"),
    ),
    "SW-A17": (
        N_("Zone length for shooting (as opposed to observation, which…"),
        N_("Zone length = the shooter's quality die in inches (d8…"),
    ),
}
