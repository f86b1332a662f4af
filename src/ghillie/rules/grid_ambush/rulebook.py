# ruff: noqa: E501  (generated data: one rule's words to a line)
"""The rules of this ruleset by their RULES-SPEC ids (DWV-…): each rule's name and
one short line of its statement, for the § beside a log line or an order.

Written by scripts/rulebook from RULES-SPEC.md: edit the spec and run it again, not
this file. The words are the catalogues' like any other (scripts/catalogues)."""

from ghillie.words import N_

RULES: dict[str, tuple[str, str]] = {
    "DWV-R01": (
        N_("Eligibility"),
        N_(
            'Only units of a Deathworld Veterans army, and only those its list marks as ambush-capable ("Certain…'
        ),
    ),
    "DWV-R02": (
        N_("Declaration and disclosure"),
        N_("Before deploying, the owner decides which units ambush."),
    ),
    "DWV-R03": (
        N_("Grid"),
        N_(
            "The table is divided into 1' (12\") squares, each with a grid reference: lettered columns and…"
        ),
    ),
    "DWV-R04": (
        N_("Recording"),
        N_(
            "Timing: after table edges and deployment zones are fixed, and before either army sets up."
        ),
    ),
    "DWV-R05": (
        N_("Placement limits"),
        N_("At most one ambushing unit per square."),
    ),
    "DWV-R06": (
        N_("Staying hidden"),
        N_(
            "The unit stays hidden until its owner reveals it at the beginning of one of the owner's own turns."
        ),
    ),
    "DWV-R07": (
        N_("Scanning"),
        N_(
            "An enemy model that is in the same square as the hidden unit and carries an auspex, a scanner or a…"
        ),
    ),
    "DWV-R08": (
        N_("Setting up a revealed unit"),
        N_("This applies whether the owner revealed it or an enemy scan did."),
    ),
    "DWV-R09": (
        N_("After the reveal"),
        N_("The unit cannot move in the turn it is revealed."),
    ),
    "DWV-A01": (
        N_("Squares within the enemy's deployment zone: wholly or…"),
        N_("Forbidden if any part of the square overlaps the enemy…"),
    ),
    "DWV-A04": (
        N_('When is a model "in the same square"'),
        N_("When the centre of its base is in the square (for a vehicle, the hull centre)."),
    ),
    "DWV-A05": (
        N_('Whose "start of the shooting phase"'),
        N_("The scanning model's own shooting phase (its player's turn)."),
    ),
    "DWV-A06": (
        N_("A scan of an empty square"),
        N_('Reported as "no ambushers found".'),
    ),
    "DWV-A07": (
        N_("Units can't move on the turn that they are revealed when…"),
        N_("No voluntary movement in that enemy turn."),
    ),
    "DWV-A08": (
        N_("At least half the unit"),
        N_("At least ceil(n/2) of the models actually set up are in the recorded square."),
    ),
    "DWV-A09": (
        N_("The first model cannot be placed (no jungle or woods in the…"),
        N_("The whole unit is removed as casualties."),
    ),
    "DWV-A11": (
        N_("A unit never revealed by the end of the game"),
        N_("Not in the text."),
    ),
    "DWV-A12": (
        N_("Does the opponent know which units are in ambush"),
        N_("They know the public roster, so they can infer which units have not…"),
    ),
    "DWV-A13": (
        N_("Owner reveal on turn 1"),
        N_("Allowed, at the start of the owner's turn 1."),
    ),
    "DWV-A14": (
        N_("Several enemy scanners in the same square in the same phase"),
        N_("The first scan reveals; the others may still choose not to…"),
    ),
}
