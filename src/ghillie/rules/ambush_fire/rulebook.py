# ruff: noqa: E501  (generated data: one rule's words to a line)
"""The rules of this ruleset by their RULES-SPEC ids (BMF-…): each rule's name and
one short line of its statement, for the § beside a log line or an order.

Written by scripts/rulebook from RULES-SPEC.md: edit the spec and run it again, not
this file. The words are the catalogues' like any other (scripts/catalogues)."""

from ghillie.words import N_

RULES: dict[str, tuple[str, str]] = {
    "BMF-R01": (
        N_("Trigger"),
        N_(
            'Challenge Fire is taken at a target "when a target moves from one concealed position to another"…'
        ),
    ),
    "BMF-R02": (
        N_("Firer eligibility"),
        N_(
            "The firer must have been stationary, with no movement and not even turret rotation, for one or more…"
        ),
    ),
    "BMF-R03": (
        N_("Penalty"),
        N_("The firer's chance to hit is normal − 10."),
    ),
    "BMF-R04": (
        N_("Return fire"),
        N_(
            "The target may fire back at the challenging firer at normal − 20, even if the challenge fire…"
        ),
    ),
    "BMF-R05": (
        N_("No further fire"),
        N_("A unit that takes (performs) Challenge Fire may not fire again until next turn."),
    ),
    "BMF-R06": (
        N_("Column stop"),
        N_(
            "If the first vehicle of a column passing the challenged location is destroyed, the rest of the…"
        ),
    ),
    "BMF-R07": (
        N_("Eligibility"),
        N_(
            "The firer is concealed, and did not move or fire during the previous turn, and has not moved or…"
        ),
    ),
    "BMF-R09": (
        N_("Reveal area"),
        N_(
            "Ambush Fire reveals an area centred on the firer: 250 m wide for infantry, 1250 m wide for AT guns…"
        ),
    ),
    "BMF-R10": (
        N_("ATGMs"),
        N_('"ATGMs firing in AMBUSH hit immediately, if range is less than 1250m".'),
    ),
    "BMF-R11": (
        N_("Casualties first"),
        N_("Casualties from Ambush Fire are removed immediately, before any return fire."),
    ),
    "BMF-R12": (
        N_("Return fire"),
        N_(
            'Targets that were not destroyed may return fire at the ambusher at normal − 10, "since the return…'
        ),
    ),
    "BMF-R13": (
        N_("Retreat"),
        N_(
            "After the return fire, surviving ambushers may immediately retreat up to 50 m away from the enemy…"
        ),
    ),
    "BMF-R14": (
        N_("Eligibility"),
        N_(
            "The attacker is concealed, and did not move or fire during the previous turn, and has not moved or…"
        ),
    ),
    "BMF-R16": (
        N_("Casualties first"),
        N_("Casualties are removed immediately, before any return close combat."),
    ),
    "BMF-R17": (
        N_("Defence"),
        N_(
            'Surviving targets may fight a defensive close combat against the ambusher "at a 10% reduction in…'
        ),
    ),
    "BMF-R18": (
        N_("Retreat"),
        N_(
            'Afterwards, surviving ambushers may immediately retreat up to 50 m away from the enemy, "except in…'
        ),
    ),
    "BMF-R19": (
        N_("Failed contact"),
        N_(
            "If the attacker fails to make physical contact, it is left in the open with no close combat."
        ),
    ),
    "BMF-A02": (
        N_("10% reduction in strength in close combat"),
        N_("If the host close combat uses a % chance: −10 points."),
    ),
    "BMF-A04": (
        N_("Must the challenged location be designated in advance"),
        N_("Yes."),
    ),
    "BMF-A05": (
        N_("Order of resolution in Challenge Fire"),
        N_("Simultaneous: the challenge shot and the return shot are both resolved, then…"),
    ),
    "BMF-A08": (
        N_("All forces within that area are revealed: whose"),
        N_("Every concealed unit of either side inside the area is revealed to…"),
    ),
    "BMF-A09": (
        N_("ATGMs… hit immediately"),
        N_(
            "Timing: the missile arrives with no flight time (no intervening phases or reactions), but the…"
        ),
    ),
    "BMF-A10": (
        N_("The range boundary"),
        N_(
            "Ambush fire at exactly 1250 m is legal (the maximum is inclusive), but an ATGM at exactly 1250 m…"
        ),
    ),
    "BMF-A16": (
        N_("Where a failed attacker ends up"),
        N_("At the farthest point it reached along its dash toward the target."),
    ),
    "BMF-A17": (
        N_("When in the turn Ambush Fire happens"),
        N_("As a reaction during the enemy's movement or at the start of the fire phase…"),
    ),
    "BMF-A18": (
        N_("Weapon facing the firer"),
        N_("Vehicles: the firer is inside the turret's or weapon's arc."),
    ),
    "BMF-A20": (
        N_("Stationary for one or more turns"),
        N_("The firer had no move and no turret turn in the whole previous turn, and none so far…"),
    ),
    "BMF-A22": (
        N_("Does Challenge Fire (or any fire other than Ambush Fire)…"),
        N_("Yes: the firer is revealed to every enemy unit it fired at…"),
    ),
    "BMF-A23": (
        N_("When an ATGM's ambush reveal happens"),
        N_("At launch, before the missile arrives (bmf.atgm_reveal_at)."),
    ),
    "BMF-S2": (
        N_("Exposed in transit"),
        N_("a unit moving between concealed positions, visible and open to Challenge Fire"),
    ),
    "BMF-S3": (
        N_("Revealed"),
        N_("unit, position and type"),
    ),
}
