"""Fireteams, as far as the Camouflaged State text reaches them (INF-R08, INF-T05): a trooper
in Camouflaged State cannot be part of one — forming or joining one with it is refused — and
a member that goes back into the state leaves it (camo.recamouflage). Which troopers may
make which kind of Fireteam, and how many, is the base game's (docs/rulesets.md)."""

from __future__ import annotations

from ghillie.errors import Refusal
from ghillie.state import Piece
from ghillie.words import say, says

from . import declare
from .board import TROOPER, Rules, State
from .codes import CAMOUFLAGED_IN_FIRETEAM
from .commands import Fireteam


def fireteam(ruling: Rules, side: str, command: Fireteam) -> None:
    """The members join Fireteam ``team`` (formed if the side has none of that name), each
    leaving any other; with no team named, they leave their Fireteams. Fireteams are public,
    as the models in them are: every side reads the team as it now stands."""
    state = ruling.state
    members: list[Piece] = []
    for i, ref in enumerate(command.members):
        trooper = declare.actor(state, side, ref, f"members.{i}")
        if command.team and trooper.public["state"] == State.CAMOUFLAGED:
            raise Refusal(
                CAMOUFLAGED_IN_FIRETEAM,
                "A trooper in Camouflaged State cannot be part of a Fireteam.",
                field=f"members.{i}",
            )
        if trooper.id not in {m.id for m in members}:
            members.append(trooper)
    for trooper in members:
        ruling.update(trooper.id, public={"fireteam": command.team})
    if not command.team:
        ruling.tell_public(
            {
                "text": says(
                    "{who} is no longer part of a Fireteam.",
                    "{who} are no longer part of a Fireteam.",
                    len(members),
                    who=[str(m.public["name"]) for m in members],
                    rules=("INF-R08",),
                )
            }
        )
        return
    team = [
        str(p.public["name"])
        for p in ruling.state.owned(side, TROOPER)
        if p.public.get("fireteam") == command.team
    ]
    ruling.tell_public(
        {
            "text": say(
                "Fireteam {team}: {members}.", team=command.team, members=team, rules=("INF-R08",)
            )
        }
    )
