"""``view(game, observer)``: the only path from a game to anything a side receives.

A view is built up from what the observer may see — its own pieces, its knowledge of
others' pieces, the lines of the log addressed to it, the ruleset's view of the board for
it — never by taking the full state and deleting what it may not see.
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ghillie import engine, offered
from ghillie.events import Event, Know, Place, Remove, Update, event_to_json, piece_to_json
from ghillie.scenario import Scenario
from ghillie.state import REFEREE, SPECTATOR, GameState, Level, Phase, Piece
from ghillie.words import Say, Speaker, say, speaker
from ghillie.words.rulebook import rule_lines
from ghillie.words.say import from_json
from ghillie.words.speak import rules_of, worded

if TYPE_CHECKING:
    from ghillie.ruleset import Ruleset


class Played(Protocol):
    """A game as the view reads it: its state and its log (``ghillie.Game``, a server's
    live game), whoever keeps them."""

    @property
    def state(self) -> GameState[Any, Any]: ...

    def events(self) -> Sequence[Event]: ...


def view(game: Played, observer: str, lang: str = "en") -> dict[str, Any]:
    """What ``observer`` (a side id, ``"referee"`` or ``"spectator"``) may know of the game,
    in words of ``lang`` (a language of :mod:`ghillie.words.catalog`)."""
    return project(game.state, game.events(), observer, lang)


def project(
    state: GameState[Any, Any], events: Sequence[Event], observer: str, lang: str = "en"
) -> dict[str, Any]:
    """The view of ``state`` for ``observer``, with the log of ``events``."""
    return _build(state, events, observer, pieces=True, lang=lang)


def project_update(
    state: GameState[Any, Any],
    new: Sequence[Event],
    observer: str,
    held: Mapping[str, Any],
    lang: str = "en",
    spoken: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What changed for ``observer`` since it was shown ``held`` (a view without its log),
    given the events since then: ``(update, view now without its log)``. The update has the
    new log entries and every other part of the view that differs from ``held``. Pieces and
    knowledge are rebuilt only if one of the new events placed, changed or removed a piece or
    changed what a side knows; otherwise they are as held. ``spoken``, kept by the caller
    for this reader from one update to the next, holds the parts last put into words (the
    map, the status lines, the choices of each order's fields): a part the rules draw as
    before is not worded again."""
    effects = {type(effect) for event in new for effect in event.effects}
    pieces = bool(effects & _PIECE_EFFECTS) or "pieces" not in held
    view = _build(state, new, observer, pieces=pieces, lang=lang, spoken=spoken)
    log = view.pop("log")
    if not pieces:
        view.update({k: held[k] for k in _PIECE_KEYS if k in held})
    update = {k: v for k, v in view.items() if held.get(k) != v}
    # A page merges an update into the view it holds: a key the view no longer has must
    # come as null, or the page would go on showing it (a reaction window long closed).
    update |= {k: None for k in _COMES_AND_GOES if k in held and k not in view}
    update["log"] = log
    return update, view


_PIECE_EFFECTS = {Place, Update, Remove, Know}
_PIECE_KEYS = ("pieces", "known", "knowledge")
_COMES_AND_GOES = ("reaction",)  # view keys present only at times


def _build(
    state: GameState[Any, Any],
    events: Sequence[Event],
    observer: str,
    *,
    pieces: bool,
    lang: str,
    spoken: dict[str, Any] | None = None,
) -> dict[str, Any]:
    ruleset = state.ruleset
    scenario = state.scenario
    if observer not in (*state.sides, REFEREE, SPECTATOR):
        raise ValueError("unknown observer")
    words = speaker(ruleset.id, lang)
    out: dict[str, Any] = {
        "ruleset": ruleset.id,
        **scenario.header_view,
        "lang": words.lang,
        "you": observer,
        "phase": state.phase.value,
        "seq": state.seq,
        "table": ruleset.table_view(scenario),
        "board": ruleset.board_view(state, observer),
        "status": worded(
            spoken,
            "status",
            [*_reaction_status(state, ruleset), *ruleset.status(state, observer)],
            lambda lines: [
                words.word(line) if isinstance(line, str) else words.text(line) for line in lines
            ],
        ),
        "waiting_for": offered.waiting_for(state),
    }
    if state.window is not None:
        # A reaction window is public: who opened it and whose answer it waits for (engine).
        out["reaction"] = {"by": state.window.by, "waiting_for": state.window.awaiting}
        if state.window.limit is not None:
            # The same for every reader, so that a page can count down: the host's time
            # (ghillie.clock) when the host answers with the default for a side still awaited.
            # `opened` names the window (the event that opened it): a page keeps when each
            # window reached it, and raises the alarm if it came with much less time left.
            out["reaction"] |= {
                "limit": state.window.limit,
                "ends": state.window.ends,
                "opened": state.window.opened,
            }

    drawn = _map(state, observer, words, spoken)
    if drawn is not None:
        out["map"] = drawn

    def described(piece: Piece) -> dict[str, Any]:
        # Worded again only if the rules describe it differently: most events move or
        # reveal one piece of many.
        drawn = ruleset.describe(state, observer, piece)
        found: dict[str, Any] = worded(spoken, f"piece {piece.id}", drawn, lambda d: d.json(words))
        return found

    if observer == REFEREE:
        if pieces:
            out["pieces"] = [piece_to_json(p) | described(p) for p in state.pieces.values()]
            out["knowledge"] = {
                side: {
                    pid: {"level": k.level.name.lower(), "facts": dict(k.facts)}
                    for pid, k in known.items()
                }
                for side, known in state.knowledge.items()
            }
        over = state.phase is Phase.OVER
        out["log"] = [_referee_entry(e, words, scenario, over) for e in events]
        return out
    if observer == SPECTATOR:
        if pieces:
            out["pieces"] = []
            out["known"] = [_known(p, level, {}) | described(p) for p, level in _public(state)]
    else:
        if pieces:
            out["pieces"] = [
                piece_to_json(p) | described(p)
                for p in state.pieces.values()
                if p.owner == observer
            ]
            out["known"] = [
                _known(state.pieces[pid], k.level, k.facts) | described(state.pieces[pid])
                for pid, k in state.knowledge.get(observer, {}).items()
                if pid in state.pieces and state.pieces[pid].owner != observer
            ]
        offers = offered.offered(
            state, observer, engine.allowed_commands(state, observer), words, spoken
        )
        out["commands"] = offers
        out["your_move"] = any(not ruleset.commands[c["type"]].anytime for c in offers)
        # How the page names what the rules open to this side, when it checks an opening,
        # and which of those facts never change, whose openings must prove their write (a
        # list, not an object keyed by the secrets' keys: no view has a "content" field).
        out["secret_words"] = _secret_words(ruleset, words)
    out["log"] = [_entry(e, observer, words, scenario) for e in events]
    return out


def _map(
    state: GameState[Any, Any], observer: str, words: Speaker, spoken: dict[str, Any] | None
) -> dict[str, Any] | None:
    """``observer``'s map in words. Not drawn again for a reader while the parts of the
    state the map is drawn from (``Ruleset.map_reads``) are the objects it was drawn from
    last time; drawn the same, not worded again."""
    ruleset = state.ruleset
    reads = tuple(getattr(state, part) for part in ruleset.map_reads)
    if spoken is not None:
        held = spoken.get("map reads")
        if held is not None and all(a is b for a, b in zip(held[0], reads, strict=True)):
            found: dict[str, Any] | None = held[1]
            return found
    drawn = ruleset.map_view(state, observer)
    # Drawn otherwise than last time (a piece moved): the parts drawn as before keep their
    # words (MapView.json).
    before = spoken.get("map") if spoken is not None else None
    out = None if drawn is None else worded(spoken, "map", drawn, lambda d: d.json(words, before))
    if spoken is not None:
        spoken["map reads"] = (reads, out)
    return out


@functools.cache  # a ruleset's secrets and their words never change: worded once a language
def _secret_words(ruleset: Ruleset[Any, Any], words: Speaker) -> list[dict[str, Any]]:
    """How the page names what the rules open to a side (shared by every view: never
    changed once built)."""
    return [
        {
            "key": key,
            "what": words.word(said.what),
            "values": [[value, words.word(text)] for value, text in said.values],
            "fixed": key in ruleset.fixed_secrets,
        }
        for key, said in ruleset.secret_words.items()
    ]


def _reaction_status(state: GameState[Any, Any], ruleset: Ruleset[Any, Any]) -> list[Say]:
    """The first status line while a reaction window waits: whom it waits for, shown to
    everyone alike (the window is the turn structure's, never a secret's)."""
    window = state.window
    if window is None or window.awaiting is None:
        return []
    waiting = ruleset.reactions[window.name].waiting
    return [say(waiting, side=state.scenario.side_name(window.awaiting))]


def _entry(event: Event, observer: str, words: Speaker, scenario: Scenario) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "seq": event.seq,
        # The lines exactly as the record keeps them (the host signs what each side is shown
        # of them), and beside them what the reader reads.
        "lines": list(event.told.get(observer, ())),
        "said": _said(event, observer, words, scenario),
    }
    if event.fair is not None:
        entry["proof"] = proof(event.fair, observer)
    return entry


def _referee_entry(event: Event, words: Speaker, scenario: Scenario, over: bool) -> dict[str, Any]:
    entry = event_to_json(event)
    fair = entry.get("fair")
    if not over and isinstance(fair, dict):
        # The referee's page is the host's, often on a screen at the table: while the game is
        # on it shows no element of the host's chain, no salt and no signed order (from which
        # a reader could work out a roll in advance, or test a guess at a side's lines). The
        # record publishes them all once the game is over.
        fair = {k: v for k, v in fair.items() if k != "private"}
        if isinstance(fair.get("shown"), dict):
            fair["shown"] = {
                side: {"digest": s["digest"]} if isinstance(s, dict) else s
                for side, s in fair["shown"].items()
            }
        entry["fair"] = fair
    entry["said"] = {
        side: [spoken(line, words, scenario) for line in lines]
        for side, lines in event.told.items()
    }
    return entry


# What an event's lines say to one reader never changes: spoken once, not for every view
# (a live game's events are long-lived objects). A weak reference to the event stands
# beside its words, so a game that leaves memory is not held by them and an id reused by a
# later object never finds them.
_SAID: OrderedDict[tuple[int, str, str], tuple[weakref.ref[Event], list[dict[str, Any]]]] = (
    OrderedDict()
)
_SAID_MAX = 20_000


def _said(event: Event, observer: str, words: Speaker, scenario: Scenario) -> list[dict[str, Any]]:
    key = (id(event), observer, words.lang)
    found = _SAID.get(key)
    if found is not None and found[0]() is event:
        _SAID.move_to_end(key)
        return [dict(line) for line in found[1]]
    said = [spoken(line, words, scenario) for line in event.told.get(observer, ())]
    _SAID[key] = (weakref.ref(event), said)
    if len(_SAID) > _SAID_MAX:
        _SAID.popitem(last=False)
    return [dict(line) for line in said]


def spoken(line: Mapping[str, Any], words: Speaker, scenario: Scenario) -> dict[str, Any]:
    """A log line as its reader reads it: ``{"text": …}``, the sentence in the reader's
    language, and ``"rules"``, the rules it applies (shown as a tooltip, never in the text)."""
    out: dict[str, Any] = {"text": ""}
    if line.get("event") == "acted":
        # Deny by default (engine.py): a side told nothing of an event learns only who acted.
        by = line.get("by")
        if by is None:
            out["text"] = words.text(say("The game is set up."))
        else:
            out["text"] = words.text(say("{side} gave an order.", side=scenario.side_name(by)))
    elif "text" in line:
        said = from_json(line["text"])  # turned back from its stored form once, not twice
        out["text"] = words.text(said)
        rules = rules_of(said)
        if rules:
            out["rules"] = rules
            out["rule_lines"] = rule_lines(rules, words)  # the § tooltip: names, not ids
    return out


def proof(fair: Mapping[str, Any], observer: str) -> dict[str, Any]:
    """What a side may hold of an event's fairness data: the signed head (its receipt), every
    side's roster root, the sides' roll contributions and the openings shown to it. Never the
    host's element, the salts or the ids (ghillie.fairness.ledger keeps those private)."""
    out = {
        "hash": fair["hash"],
        "sig": fair["sig"],
        "roots": fair["roots"],
        "contributions": fair["contributions"],
        "openings": fair["openings"].get(observer, []),
    }
    if "setup" in fair:
        out["setup"] = fair["setup"]
    for name in ("chains", "keys", "order", "missing"):
        # A side's new dice chain or seat key, from this event on; the digest of the signed
        # order this event carries out; the sides whose elements the roll was drawn without.
        if name in fair:
            out[name] = fair[name]
    shown = fair.get("shown", {})
    mine = shown.get(observer)
    if isinstance(mine, Mapping):
        # The head's one signature covers every side's salted digest of what it was shown:
        # this side gets its own salt (to compute its digest of this very entry) and the
        # others' digests, never their salts.
        out["shown"] = {
            "salt": mine["salt"],
            "digests": {side: s["digest"] for side, s in shown.items() if side != observer},
        }
    elif mine is not None:
        out["shown"] = mine  # before protocol 4: the host's signature on this very entry
    return out


def _known(piece: Piece, level: Level, facts: Any) -> dict[str, Any]:
    # The public part of a piece is, by definition, what anyone who sees it sees.
    return {
        "id": piece.id,
        "owner": piece.owner,
        "kind": piece.kind,
        "level": level.name.lower(),
        "public": dict(piece.public),
        "facts": dict(facts),
    }


def _public(state: GameState[Any, Any]) -> list[tuple[Piece, Level]]:
    """Pieces every non-owning side can see, at the lowest level any of them knows."""
    shown = []
    for piece in state.pieces.values():
        levels = [state.known(side, piece.id).level for side in state.sides if side != piece.owner]
        if levels and min(levels) >= Level.SUSPECTED:
            shown.append((piece, min(levels)))
    return shown
