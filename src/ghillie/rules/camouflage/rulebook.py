# ruff: noqa: E501  (generated data: one rule's words to a line)
"""The rules of this ruleset by their RULES-SPEC ids (INF-…): each rule's name and
one short line of its statement, for the § beside a log line or an order.

Written by scripts/rulebook from RULES-SPEC.md: edit the spec and run it again, not
this file. The words are the catalogues' like any other (scripts/catalogues)."""

from ghillie.words import N_

RULES: dict[str, tuple[str, str]] = {
    "INF-R01": (
        N_("At deployment"),
        N_(
            "Camouflaged State is automatic during the Deployment Phase, for troopers entitled to it (the…"
        ),
    ),
    "INF-R02": (
        N_("Returning to the state"),
        N_(
            "During its Active Turn, a trooper may return to the state only by spending a Long Skill, while…"
        ),
    ),
    "INF-R03": (
        N_("The marker replaces the model"),
        N_("The model is not placed; a Camouflaged Marker is placed instead."),
    ),
    "INF-R08": (
        N_("Fireteams"),
        N_("A Camouflaged trooper cannot be in a Fireteam."),
    ),
    "INF-R09": (
        N_("Restrictions on enemies"),
        N_("No enemy may enter Silhouette contact with an enemy Camouflaged Marker."),
    ),
    "INF-R10": (
        N_("Discover"),
        N_(
            "To reveal a marker, an enemy must pass a Discover Roll (Normal WIP Roll), applying the MODs listed…"
        ),
    ),
    "INF-R11": (
        N_("AROs against a marker"),
        N_(
            "The only AROs that may be declared against a Camouflaged Marker are Discover, Dodge, Look Out!…"
        ),
    ),
    "INF-R12": (
        N_("Delayed ARO"),
        N_(
            "When a Camouflaged trooper is activated, each Reactive trooper may delay its ARO declaration until…"
        ),
    ),
    "INF-R13": (
        N_("Triggers"),
        N_("The state is cancelled whenever the marker:"),
    ),
    "INF-R14": (
        N_("Scope"),
        N_(
            "Cancellation applies to the entire Order in which it happens, including skills declared earlier in…"
        ),
    ),
    "INF-R15": (
        N_("On cancellation"),
        N_(
            "The model replaces the marker, facing as its owner chooses, and the opponent receives the trooper's…"
        ),
    ),
    "INF-A02": (
        N_("Outside the LoF of enemy Markers or Troopers"),
        N_("Checked when the Long Skill is declared, against enemy Models and Markers…"),
    ),
    "INF-A05": (
        N_('How "until the next Player Turn" works'),
        N_("The lock ends when the next Player Turn begins, whichever player's it is, so a…"),
    ),
    "INF-A07": (
        N_("Templates"),
        N_(
            "A legal Template aimed at another target may catch a Camouflaged Marker; if that forces a Saving…"
        ),
    ),
    "INF-A08": (
        N_("Sensor and Multispectral Visor"),
        N_("Implemented as data-driven MOD modifiers: MSV reduces Mimetism; Sensor ignores Range…"),
    ),
    "INF-A09": (
        N_("What the opponent knows about a marker before Discover"),
        N_("Its position, its S value and its Mimetism level only. may hint…"),
    ),
    "INF-A12": (
        N_("What the opponent knows of a trooper that re-enters the…"),
        N_("It keeps what it already knew: the new marker is shown as the…"),
    ),
    "INF-T01": (
        N_("Worked example: camouflage and Surprise Attack"),
        N_("A Camouflaged Caliban declares Move (first skill) toward a point in…"),
    ),
}
