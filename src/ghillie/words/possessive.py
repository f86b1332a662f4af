"""The English possessive of a name: "Orlov's", and "Nomads'" for a name that ends in s.

Sentences write a possessive as ``{side}'s`` in their English template; the speaker
(``speak._fill``) gives the argument its possessive form here, so a side called "Nomads"
reads "Nomads' page", never "Nomads's page". A translation that words it its own way (no
``'s``) is left as it is. The pages do the same in their own words (i18n.js ``t``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# ``{name}'s`` in a template: the argument ``name`` in the possessive.
TAKES_S = re.compile(r"\{(\w+)\}'s\b")


def possessive(name: str) -> str:
    """``name`` with the English possessive: an apostrophe alone after a final s."""
    return f"{name}'" if name[-1:] in ("s", "S") else f"{name}'s"


def fill(template: str, args: Mapping[str, str]) -> tuple[str, Mapping[str, str]]:
    """The template with each ``{name}'s`` it holds turned into a field of its own, and the
    arguments with that field's possessive form (the template as it is when it has none)."""
    if "}'s" not in template:
        return template, args
    extra: dict[str, str] = {}

    def field(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in args:
            return match.group(0)  # the template's own error to raise, as without it
        extra[f"{key}__possessive"] = possessive(args[key])
        return f"{{{key}__possessive}}"

    return TAKES_S.sub(field, template), {**args, **extra}
