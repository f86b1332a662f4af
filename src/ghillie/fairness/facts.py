"""Each side's secret facts, committed in its roster (:mod:`ghillie.fairness.roster`): what
an event writes, removes and opens, the room a roster has, and each side's root of it.

A fact is written into a slot of its owner's roster with a fresh salt, so that every write
is a new commitment; a rule that reveals it opens it against the root published the event
before; a removed piece gives its slots back once the event is sealed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ghillie.errors import SECRETS_FULL, Refusal
from ghillie.events import Event, Open, Place, Remove, Update
from ghillie.fairness.roster import FixedRewrite, Roster, Written
from ghillie.state import GameState

# A fact an event writes: (owner, piece, key, value); an unset fact's value is None.
Write = tuple[str, str, str, Any]


def writes(state: GameState[Any, Any], event: Event) -> list[Write]:
    """Every secret fact ``event`` writes, in order: ``(owner, piece, key, value)``.
    An unset fact is written as ``None``. (Only the pieces the event touches are looked
    at: this runs for every event, and a game may hold many pieces.)"""
    known: dict[str, tuple[str, set[str]]] = {}  # piece -> (owner, its secret keys now)

    def of(pid: str) -> tuple[str, set[str]]:
        if pid not in known:
            piece = state.pieces[pid]
            known[pid] = (piece.owner, set(piece.secret))
        return known[pid]

    out: list[Write] = []
    for effect in event.effects:
        if isinstance(effect, Place):
            piece = effect.piece
            known[piece.id] = (piece.owner, set(piece.secret))
            out.extend((piece.owner, piece.id, k, v) for k, v in sorted(piece.secret.items()))
        elif isinstance(effect, Update) and (effect.secret or effect.unset):
            owner, keys = of(effect.id)
            out.extend((owner, effect.id, k, v) for k, v in sorted(effect.secret.items()))
            keys.update(effect.secret)
            for key in effect.unset:
                if key in keys:
                    keys.discard(key)
                    out.append((owner, effect.id, key, None))
    return out


def removed(state: GameState[Any, Any], event: Event) -> list[tuple[str, str]]:
    """``(owner, piece)`` for every piece ``event`` removes: its facts give their slots back
    once the event is sealed (a sniper that hides again lays three new markers, SW-R37)."""
    placed = {e.piece.id: e.piece.owner for e in event.effects if isinstance(e, Place)}
    out = []
    for effect in event.effects:
        if isinstance(effect, Remove):
            if effect.id in placed:
                out.append((placed[effect.id], effect.id))
            elif effect.id in state.pieces:
                out.append((state.pieces[effect.id].owner, effect.id))
    return out


def opened(event: Event) -> list[tuple[str, str, str]]:
    """``(to side, piece, key)`` for every committed fact a rule opens in ``event``."""
    return [
        (effect.side, effect.id, key)
        for effect in event.effects
        if isinstance(effect, Open)
        for key in effect.keys
    ]


class Rosters(Protocol):
    """A side's roster as the ledger uses it: :class:`ghillie.fairness.roster.Roster`, or the
    version-2 one (:mod:`ghillie.fairness.roster_v2`) the audit checks older records with."""

    slots: dict[tuple[str, str], Written]

    def free_slot(self, choose: int) -> int: ...
    def write(self, written: Written, value: Any, seq: int) -> None: ...
    def forget(self, piece: str, seq: int) -> None: ...
    def seal(self, seq: int, opened: bool) -> str: ...
    def root(self, seq: int) -> str: ...
    def opening(self, piece: str, key: str, root_seq: int) -> dict[str, Any]: ...


class Facts:
    def __init__(
        self,
        game_id: str,
        sides: tuple[str, ...],
        dummy: bytes,
        size: int,
        fixed: frozenset[str],
        random_bytes: Callable[[int], bytes],
        roster: Callable[[str, str, bytes, int, frozenset[str]], Rosters] = Roster,
    ) -> None:
        self.sides = sides
        self.size = size
        self.fixed = fixed
        self.random_bytes = random_bytes
        self.rosters = {side: roster(game_id, side, dummy, size, fixed) for side in sides}

    def check_room(self, before: GameState[Any, Any], event: Event) -> list[Write]:
        """Refuse an event that would give a side more secret facts than its roster holds.
        The scenario's bound makes this unreachable; if a bound is ever wrong, the command
        is refused (asked for nothing, sealed nothing) rather than breaking the game.

        An event that writes a fixed fact again (``Ruleset.fixed_secrets``) is a bug in the
        rules: :class:`~ghillie.fairness.roster.FixedRewrite` is raised, before anything is
        asked or sealed. Gives the event's writes (:func:`writes`), for :meth:`write`."""
        found = writes(before, event)
        new: dict[str, set[tuple[str, str]]] = {}
        for owner, piece, key, _ in found:
            held = (piece, key) in self.rosters[owner].slots
            if key in self.fixed and (held or (piece, key) in new.get(owner, ())):
                raise FixedRewrite(
                    f"event {event.seq} writes {owner}'s {key} of {piece} again: the rules "
                    "declare it fixed once written"
                )
            if not held:
                new.setdefault(owner, set()).add((piece, key))
        for owner, facts in new.items():
            if len(self.rosters[owner].slots) + len(facts) > self.size:
                raise Refusal(SECRETS_FULL, "This game cannot keep any more secrets.")
        return found

    def openings(self, before: GameState[Any, Any], event: Event) -> dict[str, list[Any]]:
        """The openings of the committed facts a rule opens in ``event``, by the side they
        are shown to, each against the root published the event before."""
        out: dict[str, list[dict[str, Any]]] = {}
        for to, piece, key in opened(event):
            owner = before.pieces[piece].owner
            if (piece, key) in self.rosters[owner].slots:
                opening = self.rosters[owner].opening(piece, key, event.seq - 1)
                out.setdefault(to, []).append(opening)
        return out

    def write(self, found: list[Write], seq: int) -> list[dict[str, Any]]:
        """Write the event's facts (from :meth:`check_room`), each in its slot (a new one
        drawn at random) with a fresh salt; gives each as the record keeps it."""
        written = []
        for owner, piece, key, value in found:
            roster = self.rosters[owner]
            old = roster.slots.get((piece, key))
            slot = old.slot if old else roster.free_slot(int.from_bytes(self.random_bytes(4)))
            # Written with seq 0, not the event's: an opening must not tell when a secret
            # last changed (a sniper's true marker moved covertly, say). The fresh salt
            # makes every write a new commitment, and the root binds it in time.
            w = Written(piece, key, slot, self.random_bytes(32).hex(), 0)
            roster.write(w, value, seq)
            written.append({"side": owner, **w.to_json()})
        return written

    def restore(
        self, before: GameState[Any, Any], event: Event, facts: list[dict[str, Any]]
    ) -> dict[str, str]:
        """Write a stored event's facts as it committed them (loading a game, or auditing
        one), checked against what it writes; gives each side's root of it."""
        found = writes(before, event)
        if len(found) != len(facts):
            raise ValueError(f"event {event.seq} commits {len(facts)} facts, writes {len(found)}")
        for (owner, piece, key, value), w in zip(found, facts, strict=True):
            if (w["side"], w["piece"], w["key"]) != (owner, piece, key):
                raise ValueError(f"event {event.seq} commits facts out of order")
            self.rosters[owner].write(
                Written(piece, key, w["slot"], w["salt"], w["seq"]), value, event.seq
            )
        return self.seal(before, event)

    def seal(self, before: GameState[Any, Any], event: Event) -> dict[str, str]:
        """Every side's root for ``event``, once its writes are in: removed pieces give their
        slots back, and a roster whose facts the event opens is blinded afresh."""
        # Which rosters are opened is read before removals: a piece revealed and removed in
        # one event (a sniper shot as it is found) is opened all the same, and its roster's
        # other leaves, shown in the opening, must never be seen again (issue 24, red team).
        opens = {
            before.pieces[piece].owner
            for _, piece, key in opened(event)
            if (piece, key) in self.rosters[before.pieces[piece].owner].slots
        }
        for owner, piece in removed(before, event):
            self.rosters[owner].forget(piece, event.seq)
        return {side: self.rosters[side].seal(event.seq, side in opens) for side in self.sides}
