"""Pairs of worlds for the bluff-versus-move simulation: one where the hidden side's secrets
change, one where they do not, alike in everything the other side is told.

- :func:`sniper_pair`: suspicious-places played through the rules, as SW-R36 has it: Keno
  observes a marker (it is removed and what it hid opened), Lianra's hidden sniper makes a
  covert move that succeeds — to another marker (a move) or with no marker named (a bluff)
  — and Keno observes another marker. The dice are the same in both worlds; the game's
  secrets and the host's keys come from the seed.
- :func:`trace_pair`: every ruleset, through the host's real ledger (rosters v3, openings,
  write proofs, roots, signed heads): the events of a random game of a bundled scenario are
  sealed again, and in one world one event also rewrites one of the hidden side's secret
  facts with a fresh salt, as a move does (the sniper's ``true``, a concealed unit's
  ``route``, a ship's ``plot``); where the rules give the hidden side no fact that may change
  (camouflage's ``hides`` and grid-ambush's ``square`` and ``order`` are written once), the
  rewrite is of a fact the rules never write again — a stand-in, to try the proofs' secrecy
  over that ruleset's sequence of reveals and removals all the same.

A world is what the watching side receives: its log entries (lines and proof) and, for the
games played through the rules, the rest of its view.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

from ghillie import Game, examples, registry
from ghillie.engine import empty, replay_one
from ghillie.events import Event, Open, Update
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.ledger import Ledger, Secrets, opened, seeded_bytes
from ghillie.view import proof
from tests.registered import entry

Transcript = list[Any]


# --- suspicious-places through the rules ------------------------------------------------------


def sniper_world(seed: int, moves: bool) -> Transcript:
    from tests.rules.suspicious_places.helpers import (
        KENO,
        LIANRA,
        QueuedDice,
        activate,
        at_table,
        end,
        observe,
        setup_table,
        table_data,
    )
    from tests.rules.suspicious_places.test_snipers import (
        COVERLESS,
        _covert,
        _other_label,
        _true_label,
    )

    rng = random.Random(seed)
    dice = QueuedDice()
    true = rng.randrange(3)
    game = setup_table(table_data(), dice, markers=[COVERLESS] * 3, seed=seed, sniper_true=true)
    activate(game, KENO, "sergeant")
    observe(game, dice, "M2", (3, 5, 2), measured=at_table(10))  # removed: M2's content opened
    end(game, KENO)
    activate(game, LIANRA, "sniper")
    was = _true_label(game, "sniper")
    _covert(game, dice, _other_label(game) if moves else None, (6, 3))  # a success
    assert (_true_label(game, "sniper") != was) is moves
    end(game, LIANRA)
    game.command(KENO, {"type": "pass"})
    game.command(LIANRA, {"type": "pass"})
    activate(game, KENO, "sergeant")
    observe(game, dice, "M3", (3, 5, 2), measured=at_table(10))  # removed: M3's content opened
    view = game.view(KENO)
    rest = {k: v for k, v in view.items() if k != "log"}
    return [*view["log"], rest]


def sniper_pair(seed: int) -> tuple[Transcript, Transcript]:
    return sniper_world(seed, True), sniper_world(seed, False)


# --- every ruleset through the ledger --------------------------------------------------------

# Per ruleset: the secret keys a covert change rewrites (none: the rules change no secret
# once written, and the stand-in below is used). Every registered ruleset needs an entry.
CHANGES: dict[str, tuple[str, ...]] = {
    "suspicious-places": ("true",),  # SW-R36: the sniper's true marker
    "ambush-fire": ("route", "at", "history"),  # a concealed unit moving unseen (BMF-A08)
    "ambush-fields": ("plot",),  # a hidden ship's plotted move (BSG)
    "camouflage": (),  # hides: written once, at deployment or going back into the state
    "grid-ambush": (),  # square, order: written once, before the game
    "scout-search": ("square",),  # the Scout's square, rewritten by every move (or stay)
}
STAND_IN = "redteam"  # the stand-in fact's key, never written by any rule


# The bundled scenario a ruleset is tried on, where it is not its main example (the one its
# id names): suspicious-places at a table, whose random games open more of the hidden
# side's facts.
TRACED = {"suspicious-places": "suspicious-places-table"}


@cache
def base_games(scenario: str, games: int = 4) -> tuple[tuple[str, tuple[Event, ...]], ...]:
    """Games of a bundled scenario whose hidden side has facts opened at two events or more,
    where the rules give any (ambush-fields opens none): random ones (tests.fairness.games),
    and for ambush-fire, whose random games seldom set a standing order off, one played to
    two of them (:func:`ambush_fire_game`)."""
    from tests.fairness.games import play_random

    if examples.data(scenario)["ruleset"] == "ambush-fire":
        game = ambush_fire_game()
        return ((game.id, tuple(replace(e, fair=None) for e in game.events())),)
    out = []
    for seed in range(12):
        game = play_random(scenario, seed, steps=150)
        events = tuple(replace(e, fair=None) for e in game.events())
        if sum(1 for e in events if any(isinstance(x, Open) for x in e.effects)) >= 2:
            out.append((game.id, events))
        if len(out) == games:
            break
    if not out:  # no rule opens anything: the watcher sees roots alone
        game = play_random(scenario, 0, steps=150)
        out.append((game.id, tuple(replace(e, fair=None) for e in game.events())))
    return tuple(out)


def ambush_fire_game() -> Game:
    """The Germans' PaK takes Challenge Fire at the first T-34 through the gap (its standing
    order opened at event 7); next turn their grenadiers' Ambush Fire takes the second T-34
    (opened at event 13). Between the two, a concealed unit may move unseen, or hold."""
    from tests.rules.ambush_fire.test_challenge import GAP, SECOND_TANK, column_move
    from tests.rules.ambush_fire.test_scenario import SCENARIO

    germans, soviets = "germans", "soviets"
    game = Game.create({**SCENARIO, "units": [*SCENARIO["units"], SECOND_TANK]}, seed=3)
    concealed = [{"unit": "pak", "at": [1000, 300]}, {"unit": "grenadiers", "at": [200, 200]}]
    game.command(germans, {"type": "conceal", "units": concealed})
    orders = [
        {"unit": unit, "reaction": reaction, "trigger": trigger, "chance": 60}
        for unit, reaction, trigger in (
            ("pak", "challenge", GAP),
            ("grenadiers", "ambush", {"within": 150, "target_class": "vehicle"}),
        )
    ]
    game.command(germans, {"type": "ready", "orders": orders})
    game.command(soviets, {"type": "ready"})
    game.command(germans, {"type": "end_step"})
    game.command(soviets, column_move())  # the PaK fires
    game.command(soviets, {"type": "return_fire", "fire": False})
    for side in (soviets, soviets, germans, germans):
        game.command(side, {"type": "end_step"})
    path = [[1050, 450], [260, 450], [260, 320]]
    game.command(soviets, {"type": "move", "units": [{"unit": "t34_2", "path": path}]})
    return game


def _hider(scenario: str, events: tuple[Event, ...]) -> tuple[str, str]:
    """(hidden side, watching side): the side whose facts are opened most often."""
    sides = examples.load(scenario).side_ids()
    counts = dict.fromkeys(sides, 0)
    loaded = examples.load(scenario)
    state = empty(registry.of(loaded), loaded)
    for event in events:
        for _to, piece, _key in opened(event):
            if piece in state.pieces:
                counts[state.pieces[piece].owner] += 1
        state = replay_one(state, event)
    hider = max(sides, key=lambda s: counts[s])
    return hider, next(s for s in sides if s != hider)


def trace_pair(ruleset: str, seed: int) -> tuple[Transcript, Transcript]:
    scenario = TRACED.get(ruleset, ruleset)
    pool = base_games(scenario)
    game_id, events = pool[seed % len(pool)]
    rng = random.Random(seed)
    hider, watcher = _hider(scenario, events)
    # Where the hidden side's facts are shown to the watcher: the change goes between two.
    shown_at = [
        e.seq for e in events if any(o.side == watcher for o in e.effects if isinstance(o, Open))
    ]
    lo, hi = (shown_at[0], shown_at[-1]) if len(shown_at) >= 2 else (1, len(events) - 1)
    at = rng.randrange(lo, hi) + 1 if hi > lo else max(1, lo)
    host = rng.randrange(2**32)
    return (
        _reseal(scenario, ruleset, game_id, events, hider, watcher, host, at, rng.random()),
        _reseal(scenario, ruleset, game_id, events, hider, watcher, host, None, 0.0),
    )


def _reseal(
    scenario_name: str,
    ruleset: str,
    game_id: str,
    events: tuple[Event, ...],
    hider: str,
    watcher: str,
    host: int,
    change_at: int | None,
    pick: float,
) -> Transcript:
    scenario = examples.load(scenario_name)
    sides = scenario.side_ids()
    draw = seeded_bytes(host)
    ledger = Ledger(
        game_id,
        sides,
        Secrets.new(list(sides), draw),
        {},
        draw,
        size=roster_size(scenario),
        fixed=fixed_secrets(scenario),
    )
    state = empty(registry.of(scenario), scenario)
    out: Transcript = []
    for event in events:
        sealed_as = event
        if event.seq == change_at:
            sealed_as = replace(
                event, effects=(*event.effects, _change(ruleset, state, hider, pick, ledger))
            )
        request = ledger.request(event.side, event.command or {}, sign=False)
        sealed = ledger.seal(state, sealed_as, request, ledger.elements_for(event.seq), [])
        assert sealed.fair is not None
        out.append(
            {
                "seq": event.seq,
                "lines": list(event.told.get(watcher, ())),
                "proof": proof(sealed.fair, watcher),
            }
        )
        state = replay_one(state, event)
    return out


def _change(ruleset: str, state: Any, hider: str, pick: float, ledger: Ledger) -> Update:
    """The hidden side's covert change: one of its facts the rules may change, written again
    with its own value under a fresh salt (or the stand-in fact, where there is none)."""
    keys = entry(CHANGES, ruleset, "CHANGES in tests/redteam/worlds.py (or () for none)")
    roster = ledger.rosters[hider]
    live = sorted(
        (piece, key) for (piece, key) in roster.slots if key in keys and piece in state.pieces
    )
    if live:
        piece = live[int(pick * len(live))][0]
        return Update(piece, secret={k: roster.values[(p, k)] for p, k in live if p == piece})
    mine = sorted(p.id for p in state.pieces.values() if p.owner == hider)
    piece = mine[int(pick * len(mine))]
    return Update(piece, secret={STAND_IN: 0})
