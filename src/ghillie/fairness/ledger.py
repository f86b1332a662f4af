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

import hashlib
import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ghillie.errors import SECRETS_FULL, Refusal
from ghillie.events import Event, Open, Place, Remove, Update, event_to_json
from ghillie.fairness.chains import LENGTH, Chain, generation, links
from ghillie.fairness.commitment import commit_after, commit_head
from ghillie.fairness.encoding import canonical, lp, sha256, tag, u64
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message_v2,
    request_message,
    shown_content,
    shown_digest_v2,
    shown_salt,
)
from ghillie.fairness.roster import FixedRewrite, Roster, Written
from ghillie.fairness.stream import StreamDice, roll_context, roll_key
from ghillie.state import GameState

HOST = "host"
# 2: rosters blinded afresh for every event; 3: fixed facts prove their write; 4: rosters
# re-blinded only where their leaves can be shown, one host signature per event (over the
# head and each side's salted digest of what it was shown), orders signed by their seats.
VERSION = 4
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
    # The digest of the signature the side gave its command with (hashlog.order_digest):
    # "" for the host's own commands and for a side with no key ("host-acted").
    order: str = ""

    def public(self, game_id: str) -> dict[str, Any]:
        return {
            "game": game_id,
            "k": self.k,
            "side": self.side,
            "commitment": self.commitment,
            "prev": self.prev,
            "order": self.order,
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


def writes(state: GameState[Any, Any], event: Event) -> list[tuple[str, str, str, Any]]:
    """Every secret fact ``event`` writes, in order: ``(owner, piece, key, value)``.
    An unset fact is written as ``None``. (Only the pieces the event touches are looked
    at: this runs for every event, and a game may hold many pieces.)"""
    known: dict[str, tuple[str, set[str]]] = {}  # piece -> (owner, its secret keys now)

    def of(pid: str) -> tuple[str, set[str]]:
        if pid not in known:
            piece = state.pieces[pid]
            known[pid] = (piece.owner, set(piece.secret))
        return known[pid]

    out: list[tuple[str, str, str, Any]] = []
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


@dataclass(frozen=True)
class Order:
    """A command as its side's seat key signed it (hashlog.order_message): the command id,
    the command exactly as sent, and the signature. Host-private until the game ends."""

    command_id: str
    command: Mapping[str, Any]
    sig: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.command_id, "command": dict(self.command), "sig": self.sig}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Order:
        return cls(data["id"], data["command"], data["sig"])


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
        keys: Mapping[str, str | None] | None = None,
        roster: Callable[[str, str, bytes, int, frozenset[str]], Rosters] = Roster,
        wait: int | None = None,
    ) -> None:
        """``size`` is every side's roster size, from the scenario
        (:func:`ghillie.fairness.capacity.roster_size`); ``fixed`` the secret keys that never
        change once written (the ruleset's ``fixed_secrets``); ``keys`` each side's seat
        key (the public key its orders are signed with), where it has one from the start;
        ``wait`` how many seconds a roll waits for a page's element before it goes on
        without it (None: for ever)."""
        self.game_id = game_id
        self._request_head = commit_head("request", game_id)
        self.wait = wait
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
        # Which of its chains each host-held party rolls with now (the n-th follows when the
        # one before runs out: chains.renewed).
        self.generations: dict[str, int] = dict.fromkeys(self.chains, 0)
        self.anchors = {HOST: self.chains[HOST].anchor.hex()}
        for side in sides:
            self.anchors[side] = (
                self.chains[side].anchor.hex() if side in self.chains else anchors[side]
            )
        self.last: dict[str, bytes] = {p: bytes.fromhex(a) for p, a in self.anchors.items()}
        # The roll each party's last element was for (-1: its anchor): a roll drawn without a
        # page's element leaves a gap its next element hashes across.
        self.last_k: dict[str, int] = dict.fromkeys(self.anchors, -1)
        # A side that started a new dice chain (its device lost, its seat moved, or its chain
        # about to run out): the new chain's anchor and the roll its first element is for,
        # until that event is sealed.
        self.fresh: dict[str, tuple[str, int]] = {}
        # The roll each page-held side's chain in use started at (0, or its last new chain's).
        self.chain_start: dict[str, int] = dict.fromkeys(sides, 0)
        # Each side's seat key: its orders must carry its signature (None: "host-acted").
        self.keys: dict[str, str | None] = {side: (keys or {}).get(side) for side in sides}
        # A side's new seat key (a seat taken, moved or taken over) and the roll from which
        # its orders are signed with it, until that event is sealed and records it.
        self.fresh_keys: dict[str, tuple[str, int]] = {}
        self.rosters = {side: roster(game_id, side, secrets_.dummy, size, fixed) for side in sides}
        self.head = genesis(game_id)
        self._salt_head = tag("request-salt/v1") + lp(secrets_.host_seed)
        # The event sealed and not yet hashed and signed (finish), with the head before it.
        self._unfinished: tuple[int, bytes] | None = None
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
            # Each side's seat key at the start (None: the host gives its orders).
            "seats": {side: self.keys[side] for side in self.sides},
            "roster": self.size,
            "length": self.chain_length,
            # How long a roll waits for a page's element before it goes on without it.
            "wait": self.wait,
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
        """The ledger of a stored game; sides' anchors and seat keys come from its first
        event (or, before it is sealed, from the header)."""
        fair = header["fair"]
        anchors = dict(fair.get("anchors", {}))
        keys = dict(fair.get("seats", {}))
        if first is not None and first.fair is not None:
            setup = first.fair["setup"]
            anchors.update({p["party"]: p["anchor"] for p in setup["parties"]})
            keys.update(setup.get("seats", {}))
        return cls(
            game_id,
            sides,
            Secrets.from_json(fair),
            anchors,
            size=size,
            fixed=fixed,
            keys=keys,
            wait=fair.get("wait"),
        )

    def header(self) -> dict[str, Any]:
        """What the store keeps beside the log (host-private until the game ends)."""
        return {**self.secrets.to_json(), "anchors": dict(self.anchors)}

    def restore(self, before: GameState[Any, Any], event: Event) -> dict[str, str]:
        """Catch up with a stored, sealed event (loading a game, or auditing one): the
        rosters are rebuilt as the events are replayed. Gives each side's root of it."""
        fair = event.fair or {}
        private = fair["private"]
        facts = private["facts"]
        found = writes(before, event)
        if len(found) != len(facts):
            raise ValueError(f"event {event.seq} commits {len(facts)} facts, writes {len(found)}")
        for (owner, piece, key, value), w in zip(found, facts, strict=True):
            if (w["side"], w["piece"], w["key"]) != (owner, piece, key):
                raise ValueError(f"event {event.seq} commits facts out of order")
            self.rosters[owner].write(
                Written(piece, key, w["slot"], w["salt"], w["seq"]), value, event.seq
            )
        roots = self._seal_rosters(before, event)
        for side, anchor in (fair.get("chains") or {}).items():
            self.last[side], self.last_k[side] = bytes.fromhex(anchor), event.seq - 1
            self.chain_start[side] = event.seq
            self.fresh.pop(side, None)
        self.last[HOST], self.last_k[HOST] = bytes.fromhex(private["host"]), event.seq
        for side, element in fair["contributions"].items():
            self.last[side], self.last_k[side] = bytes.fromhex(element), event.seq
        for side, key in (fair.get("keys") or {}).items():
            self.keys[side] = key
            self.fresh_keys.pop(side, None)
        self.head = bytes.fromhex(fair["hash"])
        self.next_k = event.seq + 1
        return roots

    def _seal_rosters(self, before: GameState[Any, Any], event: Event) -> dict[str, str]:
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

    # --- rolls ----------------------------------------------------------------------------

    def request(
        self, side: str | None, payload: Any, *, sign: bool = True, order: str = ""
    ) -> Request:
        """Ask for roll ``k`` for ``payload``. Unsigned when no page will be asked (every
        chain is the host's): a signature then proves nothing to anyone. ``order`` is the
        digest of the side's signature on its command (hashlog.order_digest), if signed."""
        k = self.next_k
        if self._unfinished is not None:
            raise RuntimeError("the last event is not finished: its hash is the next head")
        # Derived, not drawn: asking again for the same command gets the same request, so a
        # retry after a crash is not a second request, and a trial run sees the real dice.
        said = canonical(payload)
        salt = hashlib.sha256(self._salt_head + u64(k) + lp(said)).digest()
        commitment = commit_after(self._request_head, side or "", k, said, salt)
        sig = ""
        if sign:
            sig = self.key.sign(
                request_message(self.game_id, k, side, commitment, self.head, order)
            )
        return Request(k, side, commitment, self.head.hex(), sig, salt.hex(), payload, order)

    def held(self, party: str, k: int) -> bytes | None:
        """A host-held party's element for roll ``k``: from the chain of its generation
        (every ``chain_length`` rolls a new one, chains.renewed)."""
        chain = self._held_chain(party, k)
        return chain.element(k % self.chain_length) if chain is not None else None

    def _held_chain(self, party: str, k: int) -> Chain | None:
        if party not in self.chains:
            return None
        wanted = k // self.chain_length
        if self.generations[party] != wanted:
            first = self.secrets.host_seed if party == HOST else self.secrets.held[party]
            self.chains[party] = Chain.from_seed(generation(first, wanted), self.chain_length)
            self.generations[party] = wanted
        return self.chains[party]

    def renewals(self, k: int) -> dict[str, str]:
        """The new chains of the host-held parties whose roll ``k`` starts one: every
        ``chain_length`` rolls (recorded in that event's ``fair.chains``, as a page's new
        chain is)."""
        if k == 0 or k % self.chain_length:
            return {}
        out = {}
        for party in self.chains:
            chain = self._held_chain(party, k)
            assert chain is not None
            out[party] = chain.anchor.hex()
        return out

    def accepts(self, party: str, k: int, element: bytes) -> bool:
        """Is ``element`` the party's next link, for the roll now asked for? (After rolls
        drawn without its element, the link is across them.)"""
        if k != self.next_k or party not in self.last:
            return False
        base, at = self.last[party], self.last_k[party]
        fresh = self.fresh.get(party)
        if fresh is not None and fresh[1] <= k:
            base, at = bytes.fromhex(fresh[0]), fresh[1] - 1
        return links(base, element, k - at)

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

    def renew(self, side: str, anchor: str) -> int:
        """A page-held side gives the anchor of the chain that follows its chain in use,
        whose elements run out: its first element is for the roll after the last. Returns
        that roll. (The same anchor given again changes nothing.)"""
        from_k = self.chain_start[side] + self.chain_length
        self.new_chain(side, anchor, from_k)
        return from_k

    def new_key(self, side: str, key: str, from_k: int) -> None:
        """``side``'s orders from roll ``from_k`` on are signed with seat key ``key``.
        Before event 0 is sealed it is simply the side's key in the set-up; later, the event
        ``from_k`` records it (``fair.keys``), and every order from that event on must carry
        its signature."""
        if side not in self.sides:
            raise ValueError(f"{side} is no side of this game")
        if from_k < self.next_k:
            raise ValueError(f"roll {from_k} is over: a new key starts with a later one")
        if from_k == 0:
            self.keys[side] = key
            self.fresh_keys.pop(side, None)
        else:
            self.fresh_keys[side] = (key, from_k)

    def key_for(self, side: str, k: int) -> str | None:
        """The seat key ``side``'s order for roll ``k`` must be signed with (None: none)."""
        fresh = self.fresh_keys.get(side)
        if fresh is not None and fresh[1] <= k:
            return fresh[0]
        return self.keys.get(side)

    def dice(self, request: Request, elements: Mapping[str, bytes]) -> StreamDice:
        """The roll's dice, from every party's element; a side whose page never gave its
        element for this roll counts as an empty one (the roll was drawn without it)."""
        key = roll_key([elements.get(p, b"") for p in self.parties])
        return StreamDice(key, roll_context(self.game_id, request.k))

    def elements_for(
        self,
        k: int,
        given: Mapping[str, bytes] | None = None,
        without: Collection[str] = (),
    ) -> dict[str, bytes]:
        """Every party's element for roll ``k``: the host-held ones and those ``given``, but
        for the sides in ``without`` (their pages did not give theirs in time)."""
        out = dict(given or {})
        for party in self.parties:
            if party not in out and party not in without:
                element = self.held(party, k)
                if element is None:
                    raise LookupError(f"no contribution from {party}")
                out[party] = element
        return out

    # --- sealing an event -----------------------------------------------------------------

    def check_room(
        self, before: GameState[Any, Any], event: Event
    ) -> list[tuple[str, str, str, Any]]:
        """Refuse an event that would give a side more secret facts than its roster holds.
        The scenario's bound makes this unreachable; if a bound is ever wrong, the command
        is refused (asked for nothing, sealed nothing) rather than breaking the game.

        An event that writes a fixed fact again (``Ruleset.fixed_secrets``) is a bug in the
        rules: :class:`~ghillie.fairness.roster.FixedRewrite` is raised, before anything is
        asked or sealed. Gives the event's writes (:func:`writes`), for :meth:`seal`."""
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

    def seal(
        self,
        before: GameState[Any, Any],
        event: Event,
        request: Request,
        elements: Mapping[str, bytes],
        ids: list[str],
        order: Order | None = None,
        *,
        sign: bool = True,
    ) -> Event:
        """Commit, open, chain and sign ``event``; advance to the next roll. ``order`` is
        the side's signed command, if it gave it signed. With ``sign`` False the head is
        left for :meth:`sign` to sign (the server does it on its writer thread, off the
        event loop, just before the event is written)."""
        assert request.k == self.next_k == event.seq
        found = self.check_room(before, event)
        openings: dict[str, list[dict[str, Any]]] = {}
        for to, piece, key in opened(event):
            owner = before.pieces[piece].owner
            if (piece, key) in self.rosters[owner].slots:
                opening = self.rosters[owner].opening(piece, key, event.seq - 1)
                openings.setdefault(to, []).append(opening)
        written = []
        for owner, piece, key, value in found:
            roster = self.rosters[owner]
            old = roster.slots.get((piece, key))
            slot = old.slot if old else roster.free_slot(int.from_bytes(self.random_bytes(4)))
            # Written with seq 0, not the event's: an opening must not tell when a secret
            # last changed (a sniper's true marker moved covertly, say). The fresh salt
            # makes every write a new commitment, and the root binds it in time.
            w = Written(piece, key, slot, self.random_bytes(32).hex(), 0)
            roster.write(w, value, event.seq)
            written.append({"side": owner, **w.to_json()})
        roots = self._seal_rosters(before, event)
        private: dict[str, Any] = {
            "host": elements[HOST].hex(),
            "salt": request.salt,
            "facts": written,
            "ids": ids,
        }
        missing = [p for p in self.sides if p not in elements]
        fair: dict[str, Any] = {
            "request": request.commitment,
            "contributions": {p: elements[p].hex() for p in self.sides if p in elements},
            "roots": roots,
            "openings": openings,
            "private": private,
        }
        if missing:
            # Drawn without these sides' elements: their pages did not give them in time (or
            # they timed out): the host and the other sides could have known this roll.
            fair["missing"] = missing
        if order is not None:
            fair["order"] = request.order
            private["order"] = order.to_json()
        if event.seq == 0:
            fair["setup"] = self.setup()
        chains = {s: a for s, (a, k) in sorted(self.fresh.items()) if k == event.seq}
        chains |= self.renewals(event.seq)
        if chains:
            fair["chains"] = dict(sorted(chains.items()))
        keys = {s: key for s, (key, k) in sorted(self.fresh_keys.items()) if k == event.seq}
        if keys:
            fair["keys"] = keys
        sealed = replace(event, fair=fair)
        self._unfinished = (event.seq, self.head)
        for side in chains:
            self.last[side], self.last_k[side] = bytes.fromhex(chains[side]), event.seq - 1
            self.chain_start[side] = event.seq
            self.fresh.pop(side, None)
        for party in self.parties:
            if party in elements:
                self.last[party], self.last_k[party] = elements[party], event.seq
        for side, key in keys.items():
            self.keys[side] = key
            del self.fresh_keys[side]
        self.next_k += 1
        if sign:
            self.finish(sealed)
        return sealed

    def shown_to(self) -> Sequence[str]:
        """The sides whose view of each event the head's signature covers: every side."""
        return self.sides

    def finish(self, event: Event) -> None:
        """Hash ``event`` into the log, digest what each side is shown of it and sign both;
        the head moves to it. The server does this on its writer thread, just before the
        event is written (the game's next command waits for that write, and with it for the
        head): the event loop pays for none of it. Thread-safe for one game at a time."""
        fair = event.fair
        assert isinstance(fair, dict)
        assert self._unfinished is not None
        assert self._unfinished[0] == event.seq
        digest = event_hash(self._unfinished[1], hashed(event_to_json(event)))
        fair["hash"] = digest.hex()
        # What each side is shown of the event, salted (so that no side can test a guess at
        # another's lines from its digest), under the one signature of the head.
        shown: dict[str, dict[str, str]] = {}
        fair["shown"] = shown
        sides = self.shown_to()
        for side in sides:
            salt = shown_salt(self.secrets.dummy, side, event.seq)
            content = shown_content(event.seq, fair, event.told.get(side, ()), side)
            shown[side] = {"salt": salt.hex(), "digest": shown_digest_v2(salt, content).hex()}
        digests = [bytes.fromhex(shown[side]["digest"]) for side in sides]
        fair["sig"] = self.key.sign(head_message_v2(self.game_id, event.seq, digest, digests))
        self.head = digest
        self._unfinished = None


def protocol_of(first: Event) -> Any:
    """The fairness protocol a game was set up under, as its first event says."""
    return ((first.fair or {}).get("setup") or {}).get("version")


def head_receipt(seq: int, fair: Mapping[str, Any], sides: tuple[str, ...]) -> dict[str, Any]:
    """The receipt a side's page keeps of a sealed event (fairplay.js does the same from its
    view): the head, its signature and every side's digest of what it was shown, in the
    game's side order, which is what the signature covers."""
    return {
        "seq": seq,
        "hash": fair["hash"],
        "sig": fair["sig"],
        "shown": [fair["shown"][side]["digest"] for side in sides],
    }


def hashed(event_json: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an event's JSON its hash covers: all but its own hash, its signature and
    what each side was shown of it (which the signature covers with the hash)."""
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
