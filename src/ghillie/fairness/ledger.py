"""The host's side of fairness for one game: it asks for roll contributions, derives each
event's dice, commits every secret, opens what rules reveal, and chains and signs the log.

Every event ``s`` (the game's creation is event 0) is preceded by a *request*: a signed
statement that roll ``k = s`` is for one command (committed to, salted, so that the request
says nothing of it). Each party — the host and every side — then gives its chain element for
``k``, and the event's dice come from all of them (:mod:`ghillie.fairness.stream`). Every
event asks, whether or not its command rolls anything, so that a request never tells the
other side what kind of command was given. A side whose chain is held by the host
("host-held", for play over the bare API or the command line) gets no protection from the
host; the record says which parties were held.

The engine stays pure: this module only wraps its events (:meth:`Ledger.seal`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ghillie.errors import CHAIN_EXHAUSTED, SECRETS_FULL, Refusal
from ghillie.events import Event, Open, Place, Remove, Update, event_to_json
from ghillie.fairness.chains import LENGTH, Chain, links
from ghillie.fairness.commitment import commit
from ghillie.fairness.encoding import canonical, lp, sha256, tag, u64
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message,
    request_message,
    shown_content,
    shown_digest,
    shown_message,
)
from ghillie.fairness.roster import FixedRewrite, Roster, Written
from ghillie.fairness.stream import StreamDice, roll_context, roll_key
from ghillie.state import GameState

HOST = "host"
VERSION = 3  # 2: rosters blinded afresh for every event; 3: fixed facts prove their write
RandomBytes = Callable[[int], bytes]


@dataclass(frozen=True)
class Request:
    """The host asks every party for roll ``k``; ``commitment`` binds the command."""

    k: int
    side: str | None
    commitment: str
    prev: str  # hex hash of the log head the request follows
    sig: str
    salt: str  # host-private until the game ends
    payload: Any  # host-private: what is committed to

    def public(self, game_id: str) -> dict[str, Any]:
        return {
            "game": game_id,
            "k": self.k,
            "side": self.side,
            "commitment": self.commitment,
            "prev": self.prev,
            "sig": self.sig,
        }


@dataclass
class Secrets:
    """What the host keeps to itself until the game ends, then publishes in the record."""

    host_seed: bytes
    key: bytes
    dummy: bytes
    held: dict[str, bytes] = field(default_factory=dict)  # side -> seed of a host-held chain

    @classmethod
    def new(cls, held_sides: list[str], random_bytes: RandomBytes) -> Secrets:
        return cls(
            host_seed=random_bytes(32),
            key=random_bytes(32),
            dummy=random_bytes(32),
            held={side: random_bytes(32) for side in held_sides},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "host_seed": self.host_seed.hex(),
            "key": self.key.hex(),
            "dummy": self.dummy.hex(),
            "held": {side: seed.hex() for side, seed in self.held.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Secrets:
        return cls(
            bytes.fromhex(data["host_seed"]),
            bytes.fromhex(data["key"]),
            bytes.fromhex(data["dummy"]),
            {side: bytes.fromhex(seed) for side, seed in data["held"].items()},
        )


def writes(state: GameState[Any], event: Event) -> list[tuple[str, str, str, Any]]:
    """Every secret fact ``event`` writes, in order: ``(owner, piece, key, value)``.
    An unset fact is written as ``None``."""
    owners = {pid: p.owner for pid, p in state.pieces.items()}
    secret_keys = {pid: set(p.secret) for pid, p in state.pieces.items()}
    out: list[tuple[str, str, str, Any]] = []
    for effect in event.effects:
        if isinstance(effect, Place):
            piece = effect.piece
            owners[piece.id] = piece.owner
            secret_keys[piece.id] = set(piece.secret)
            out.extend((piece.owner, piece.id, k, v) for k, v in sorted(piece.secret.items()))
        elif isinstance(effect, Update):
            owner = owners[effect.id]
            known = secret_keys.setdefault(effect.id, set())
            out.extend((owner, effect.id, k, v) for k, v in sorted(effect.secret.items()))
            known.update(effect.secret)
            for key in effect.unset:
                if key in known:
                    known.discard(key)
                    out.append((owner, effect.id, key, None))
    return out


def removed(state: GameState[Any], event: Event) -> list[tuple[str, str]]:
    """``(owner, piece)`` for every piece ``event`` removes: its facts give their slots back
    once the event is sealed (a sniper that hides again lays three new markers, SW-R37)."""
    owners = {pid: p.owner for pid, p in state.pieces.items()}
    for effect in event.effects:
        if isinstance(effect, Place):
            owners[effect.piece.id] = effect.piece.owner
    return [
        (owners[effect.id], effect.id)
        for effect in event.effects
        if isinstance(effect, Remove) and effect.id in owners
    ]


def opened(event: Event) -> list[tuple[str, str, str]]:
    """``(to side, piece, key)`` for every committed fact a rule opens in ``event``."""
    return [
        (effect.side, effect.id, key)
        for effect in event.effects
        if isinstance(effect, Open)
        for key in effect.keys
    ]


class Ledger:
    def __init__(
        self,
        game_id: str,
        sides: tuple[str, ...],
        secrets_: Secrets,
        anchors: Mapping[str, str],
        random_bytes: RandomBytes = secrets.token_bytes,
        chain_length: int = LENGTH,
        *,
        size: int,
        fixed: frozenset[str],
    ) -> None:
        """``size`` is every side's roster size, from the scenario
        (:func:`ghillie.fairness.capacity.roster_size`); ``fixed`` the secret keys that never
        change once written (the ruleset's ``fixed_secrets``)."""
        self.game_id = game_id
        self.size = size
        self.fixed = fixed
        self.sides = sides
        self.secrets = secrets_
        self.key = HostKey.from_bytes(secrets_.key)
        self.random_bytes = random_bytes
        self.chain_length = chain_length
        self.chains: dict[str, Chain] = {HOST: Chain.from_seed(secrets_.host_seed, chain_length)}
        for side, seed in secrets_.held.items():
            self.chains[side] = Chain.from_seed(seed, chain_length)
        self.anchors = {HOST: self.chains[HOST].anchor.hex()}
        for side in sides:
            self.anchors[side] = (
                self.chains[side].anchor.hex() if side in self.chains else anchors[side]
            )
        self.last: dict[str, bytes] = {p: bytes.fromhex(a) for p, a in self.anchors.items()}
        # A side that started a new dice chain (its device lost, or its seat moved): the new
        # chain's anchor and the roll its first element is for, until that event is sealed.
        self.fresh: dict[str, tuple[str, int]] = {}
        self.rosters = {side: Roster(game_id, side, secrets_.dummy, size, fixed) for side in sides}
        self.head = genesis(game_id)
        self.next_k = 0
        self.injected_dice = False  # tests that script their dice; the audit refuses them

    @property
    def parties(self) -> tuple[str, ...]:
        return (HOST, *self.sides)

    def setup(self) -> dict[str, Any]:
        """The public facts every check later starts from (recorded in event 0)."""
        return {
            "version": VERSION,
            "key": self.key.public,
            "parties": [
                {
                    "party": p,
                    "anchor": self.anchors[p],
                    "held": p == HOST or p in self.secrets.held,
                }
                for p in self.parties
            ],
            "roster": self.size,
            "length": self.chain_length,
            **({"dice": "injected"} if self.injected_dice else {}),
        }

    @classmethod
    def from_header(
        cls,
        game_id: str,
        sides: tuple[str, ...],
        header: Mapping[str, Any],
        first: Event | None = None,
        *,
        size: int,
        fixed: frozenset[str],
    ) -> Ledger:
        """The ledger of a stored game; sides' anchors come from its first event."""
        fair = header["fair"]
        anchors = dict(fair.get("anchors", {}))
        if first is not None and first.fair is not None:
            anchors.update({p["party"]: p["anchor"] for p in first.fair["setup"]["parties"]})
        return cls(game_id, sides, Secrets.from_json(fair), anchors, size=size, fixed=fixed)

    def header(self) -> dict[str, Any]:
        """What the store keeps beside the log (host-private until the game ends)."""
        return {**self.secrets.to_json(), "anchors": dict(self.anchors)}

    def restore(self, before: GameState[Any], event: Event) -> None:
        """Catch up with a stored, sealed event (loading a game, or auditing one): the
        proofs of when fixed facts were written are rebuilt as the events are replayed."""
        fair = event.fair or {}
        private = fair["private"]
        facts = private["facts"]
        found = writes(before, event)
        if len(found) != len(facts):
            raise ValueError(f"event {event.seq} commits {len(facts)} facts, writes {len(found)}")
        for (owner, piece, key, value), w in zip(found, facts, strict=True):
            if (w["side"], w["piece"], w["key"]) != (owner, piece, key):
                raise ValueError(f"event {event.seq} commits facts out of order")
            self.rosters[owner].write(Written(piece, key, w["slot"], w["salt"], w["seq"]), value)
        for owner, piece in removed(before, event):
            self.rosters[owner].forget(piece)
        for roster in self.rosters.values():
            roster.sealed(event.seq)
        self.last[HOST] = bytes.fromhex(private["host"])
        for side, element in fair["contributions"].items():
            self.last[side] = bytes.fromhex(element)
        self.head = bytes.fromhex(fair["hash"])
        self.next_k = event.seq + 1

    # --- rolls ----------------------------------------------------------------------------

    def request(self, side: str | None, payload: Any, *, sign: bool = True) -> Request:
        """Ask for roll ``k`` for ``payload``. Unsigned when no page will be asked (every
        chain is the host's): a signature then proves nothing to anyone."""
        k = self.next_k
        if k >= self.chain_length:
            # Every party fixed this many elements at the start; new anchors mid-game are
            # not supported yet (docs/fairness.md), so the game stops rather than reuse one.
            raise Refusal(CHAIN_EXHAUSTED, "This game has used every roll its chains hold.")
        # Derived, not drawn: asking again for the same command gets the same request, so a
        # retry after a crash is not a second request, and a trial run sees the real dice.
        salt = sha256(
            tag("request-salt/v1"), lp(self.secrets.host_seed), u64(k), lp(canonical(payload))
        )
        commitment = commit("request", self.game_id, side or "", k, payload, salt)
        message = request_message(self.game_id, k, side, commitment, self.head)
        sig = self.key.sign(message) if sign else ""
        return Request(k, side, commitment, self.head.hex(), sig, salt.hex(), payload)

    def held(self, party: str, k: int) -> bytes | None:
        chain = self.chains.get(party)
        return chain.element(k) if chain is not None else None

    def accepts(self, party: str, k: int, element: bytes) -> bool:
        """Is ``element`` the party's next link, for the roll now asked for?"""
        if k != self.next_k or party not in self.last:
            return False
        fresh = self.fresh.get(party)
        if fresh is not None and fresh[1] == k:
            return links(bytes.fromhex(fresh[0]), element)
        return links(self.last[party], element)

    def new_chain(self, side: str, anchor: str, from_k: int) -> None:
        """``side``'s rolls from ``from_k`` on use the chain of ``anchor``; every roll before
        stays as it was. Before event 0 is sealed the new anchor simply replaces the old one
        in the set-up; later, the event ``from_k`` records it (``fair.chains``), so that its
        element is checked against it, by the pages and by the audit."""
        if side not in self.sides or side in self.secrets.held:
            raise ValueError(f"{side} has no page-held chain in this game")
        if from_k < self.next_k:
            raise ValueError(f"roll {from_k} is over: a new chain starts with a later one")
        if from_k == 0:
            self.anchors[side] = anchor
            self.last[side] = bytes.fromhex(anchor)
            self.fresh.pop(side, None)
        else:
            self.fresh[side] = (anchor, from_k)

    def dice(self, request: Request, elements: Mapping[str, bytes]) -> StreamDice:
        key = roll_key([elements[p] for p in self.parties])
        return StreamDice(key, roll_context(self.game_id, request.k))

    def elements_for(self, k: int, given: Mapping[str, bytes] | None = None) -> dict[str, bytes]:
        """Every party's element for roll ``k``: the host-held ones and those ``given``."""
        out = dict(given or {})
        for party in self.parties:
            if party not in out:
                element = self.held(party, k)
                if element is None:
                    raise LookupError(f"no contribution from {party}")
                out[party] = element
        return out

    # --- sealing an event -----------------------------------------------------------------

    def check_room(self, before: GameState[Any], event: Event) -> None:
        """Refuse an event that would give a side more secret facts than its roster holds.
        The scenario's bound makes this unreachable; if a bound is ever wrong, the command
        is refused (asked for nothing, sealed nothing) rather than breaking the game.

        An event that writes a fixed fact again (``Ruleset.fixed_secrets``) is a bug in the
        rules: :class:`~ghillie.fairness.roster.FixedRewrite` is raised, before anything is
        asked or sealed."""
        new: dict[str, set[tuple[str, str]]] = {}
        for owner, piece, key, _ in writes(before, event):
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

    def seal(
        self,
        before: GameState[Any],
        event: Event,
        request: Request,
        elements: Mapping[str, bytes],
        ids: list[str],
    ) -> Event:
        """Commit, open, chain and sign ``event``; advance to the next roll."""
        assert request.k == self.next_k == event.seq
        self.check_room(before, event)
        openings: dict[str, list[dict[str, Any]]] = {}
        for to, piece, key in opened(event):
            owner = before.pieces[piece].owner
            if (piece, key) in self.rosters[owner].slots:
                opening = self.rosters[owner].opening(piece, key, event.seq - 1)
                openings.setdefault(to, []).append(opening)
        written = []
        for owner, piece, key, value in writes(before, event):
            roster = self.rosters[owner]
            old = roster.slots.get((piece, key))
            slot = old.slot if old else roster.free_slot(int.from_bytes(self.random_bytes(4)))
            # Written with seq 0, not the event's: an opening must not tell when a secret
            # last changed (a sniper's true marker moved covertly, say). The fresh salt
            # makes every write a new commitment, and the root binds it in time.
            w = Written(piece, key, slot, self.random_bytes(32).hex(), 0)
            roster.write(w, value)
            written.append({"side": owner, **w.to_json()})
        for owner, piece in removed(before, event):
            self.rosters[owner].forget(piece)
        roots = {side: self.rosters[side].root(event.seq) for side in self.sides}
        for roster in self.rosters.values():
            roster.sealed(event.seq)  # after the root: its leaves are computed once
        fair: dict[str, Any] = {
            "request": request.commitment,
            "contributions": {p: elements[p].hex() for p in self.sides},
            "roots": roots,
            "openings": openings,
            "private": {
                "host": elements[HOST].hex(),
                "salt": request.salt,
                "facts": written,
                "ids": ids,
            },
        }
        if event.seq == 0:
            fair["setup"] = self.setup()
        chains = {s: a for s, (a, k) in sorted(self.fresh.items()) if k == event.seq}
        if chains:
            fair["chains"] = chains
        sealed = replace(event, fair=fair)
        digest = event_hash(self.head, hashed(event_to_json(sealed)))
        sig = self.key.sign(head_message(self.game_id, event.seq, digest))
        fair = {**fair, "hash": digest.hex(), "sig": sig}
        fair["shown"] = {
            side: self.key.sign(
                shown_message(
                    self.game_id,
                    event.seq,
                    side,
                    shown_digest(shown_content(event.seq, fair, event.told.get(side, ()), side)),
                )
            )
            for side in self.sides
        }
        sealed = replace(sealed, fair=fair)
        self.head = digest
        for party in self.parties:
            self.last[party] = elements[party]
        for side in chains:
            del self.fresh[side]
        self.next_k += 1
        return sealed


def hashed(event_json: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an event's JSON its hash covers: all but its own hash and signatures
    (the per-side ``shown`` ones sign that hash, so they come after it)."""
    out = dict(event_json)
    fair = out.get("fair")
    if isinstance(fair, Mapping):
        out["fair"] = {k: v for k, v in fair.items() if k not in ("hash", "sig", "shown")}
    return out


def seeded_bytes(seed: int) -> RandomBytes:
    """Reproducible 'random' bytes for tests, demos and golden transcripts only."""
    state = {"n": 0}

    def draw(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += sha256(b"ghillie/test-bytes", str(seed).encode(), state["n"].to_bytes(8, "big"))
            state["n"] += 1
        return out[:n]

    return draw
