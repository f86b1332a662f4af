"""Two worlds whose set-ups differ only in how many secrets one side writes (issue 24).

In world A the hiding side writes as few secrets as the rules let it: it gets ready as soon
as the game takes its ready, and otherwise gives the set-up command it must, with the fewest
secrets its candidates offer (no standing orders, no ambush orders, no notes, markers that
hide only the units). In world B it writes as many as they offer: every set-up command it is
offered, once, with the most secrets, then its ready with the most (eight standing orders,
every unit in ambush, a note on every marker). The other sides set up alike in both. Both
worlds stay within the scenario's bounds: every command is one the rules accept.

Whatever a ruleset's set-up commands, the other sides and the table screen must receive the
same in both worlds: a side that wrote more secrets must not have given more commands.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ghillie import Game, Refusal
from ghillie.state import Facts, Phase

Given = set[str]


def secrets(game: Game, command: Facts) -> int:
    """How many secret values ``command`` writes: the non-empty values in its secret fields."""
    model = game.state.ruleset.commands[command["type"]]

    def count(value: Any) -> int:
        if isinstance(value, dict):
            return sum(count(v) for v in value.values())
        if isinstance(value, list):
            return sum(count(v) for v in value)
        return 0 if value in (None, "", []) else 1

    return sum(count(command[k]) for k in model.secret_fields if k in command)


def public(game: Game, command: Facts) -> str:
    model = game.state.ruleset.commands[command["type"]]
    return repr(sorted((k, repr(v)) for k, v in command.items() if k not in model.secret_fields))


def _taken(game: Game, side: str, command: Facts) -> bool:
    try:
        game.trial(side, command)
    except Refusal:
        return False
    return True


def _offered(game: Game, side: str) -> list[Facts]:
    ruleset = game.state.ruleset
    return [
        c
        for c in ruleset.candidates(game.state, side)
        if c["type"] != "end_game" and _taken(game, side, c)
    ]


def fewest(game: Game, side: str, given: Given) -> Facts | None:
    """World A's next set-up command for ``side``: its ready as soon as it is taken, else
    the set-up command it must give first, with the fewest secrets."""
    offered = _offered(game, side)
    ready = [c for c in offered if c["type"] == "ready"]
    if ready:
        return min(ready, key=lambda c: secrets(game, c))
    return _pick(game, [c for c in offered if c["type"] != "ready"], min)


def most(game: Game, side: str, given: Given) -> Facts | None:
    """World B's: every set-up command it is offered, once each (by its public part), with
    the most secrets; then its ready, with the most."""
    offered = _offered(game, side)
    others = [c for c in offered if c["type"] != "ready" and public(game, c) not in given]
    if others:
        return _pick(game, others, max)
    ready = [c for c in offered if c["type"] == "ready"]
    return max(ready, key=lambda c: secrets(game, c)) if ready else None


def _pick(game: Game, offered: list[Facts], which: Any) -> Facts | None:
    """Of the commands with the first one's public part, the one with the fewest or most
    secrets."""
    if not offered:
        return None
    alike = [c for c in offered if public(game, c) == public(game, offered[0])]
    chosen: Facts = which(alike, key=lambda c: secrets(game, c))
    return chosen


def set_up(a: Game, b: Game, hider: str) -> Iterator[tuple[str, Facts | None, Facts | None]]:
    """The set-up of both worlds, step by step, as (side, A's command, B's command), each
    given before it is yielded (None: that world's side gave nothing at this step). The
    hiding side goes first whenever it has something to give in either world; the others
    give, alike in both worlds, what a side with nothing to hide gives."""
    given: dict[str, Given] = {side: set() for side in a.state.sides}
    for _ in range(4 * len(a.state.pieces) + 20):
        if a.state.phase is not Phase.SETUP and b.state.phase is not Phase.SETUP:
            return
        one = fewest(a, hider, given[hider]) if a.state.phase is Phase.SETUP else None
        other = most(b, hider, given[hider]) if b.state.phase is Phase.SETUP else None
        if one is not None or other is not None:
            for game, command in ((a, one), (b, other)):
                if command is not None:
                    game.command(hider, command)
            if other is not None:
                given[hider].add(public(b, other))
            yield hider, one, other
            continue
        for side in a.state.sides:
            if side == hider:
                continue
            command = fewest(a, side, given[side])
            if command is not None:
                for game in (a, b):
                    game.command(side, command)
                yield side, command, command
                break
        else:
            return
