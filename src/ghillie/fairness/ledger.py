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

The engine stays pure: this module only wraps its events (:meth:`Ledger.seal`). The ledger
composes one part per concept, each in its own module: the parties' chains and the dice
(:mod:`~ghillie.fairness.parties`), each side's committed facts
(:mod:`~ghillie.fairness.facts`), the seat keys its orders are signed with
(:mod:`~ghillie.fairness.seat_keys`), and the log's head with the requests and heads the
host signs (:mod:`~ghillie.fairness.heads`). Their public names are importable from here.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ghillie.events import Event
from ghillie.fairness.chains import LENGTH
from ghillie.fairness.encoding import sha256
from ghillie.fairness.facts import Facts, Rosters, Write, opened, removed, writes
from ghillie.fairness.hashlog import HostKey
from ghillie.fairness.heads import Heads, Request, hashed, head_receipt
from ghillie.fairness.parties import HOST, PartyChains
from ghillie.fairness.roster import Roster
from ghillie.fairness.seat_keys import Order, SeatKeys
from ghillie.fairness.stream import StreamDice
from ghillie.state import GameState

__all__ = [
    "HOST",
    "VERSION",
    "Ledger",
    "Order",
    "RandomBytes",
    "Request",
    "Rosters",
    "Secrets",
    "hashed",
    "head_receipt",
    "opened",
    "protocol_of",
    "removed",
    "seeded_bytes",
    "writes",
]

# 2: rosters blinded afresh for every event; 3: fixed facts prove their write; 4: rosters
# re-blinded only where their leaves can be shown, one host signature per event (over the
# head and each side's salted digest of what it was shown), orders signed by their seats.
VERSION = 4
RandomBytes = Callable[[int], bytes]


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
        self.wait = wait
        self.size = size
        self.fixed = fixed
        self.sides = sides
        self.secrets = secrets_
        self.key = HostKey.from_bytes(secrets_.key)
        self.chain_length = chain_length
        seeds = {HOST: secrets_.host_seed, **secrets_.held}
        self.chains = PartyChains(game_id, sides, seeds, anchors, chain_length)
        self.seat_keys = SeatKeys(sides, keys)
        self.facts = Facts(game_id, sides, secrets_.dummy, size, fixed, random_bytes, roster)
        self.heads = Heads(game_id, self.key, secrets_.host_seed, secrets_.dummy)
        self.next_k = 0
        self.injected_dice = False  # tests that script their dice; the audit refuses them

    # --- the parts' state, as the server, the audit and the tests read it ---------------

    @property
    def parties(self) -> tuple[str, ...]:
        return self.chains.parties

    @property
    def anchors(self) -> dict[str, str]:
        return self.chains.anchors

    @property
    def fresh(self) -> dict[str, tuple[str, int]]:
        return self.chains.fresh

    @property
    def chain_start(self) -> dict[str, int]:
        return self.chains.chain_start

    @property
    def keys(self) -> dict[str, str | None]:
        return self.seat_keys.keys

    @property
    def rosters(self) -> dict[str, Rosters]:
        return self.facts.rosters

    @rosters.setter
    def rosters(self, rosters: dict[str, Rosters]) -> None:
        self.facts.rosters = rosters

    def setup(self) -> dict[str, Any]:
        """The public facts every check later starts from (recorded in event 0)."""
        return {
            "version": VERSION,
            "key": self.key.public,
            "parties": self.chains.listed(),
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
        roots = self.facts.restore(before, event, private["facts"])
        elements = {HOST: bytes.fromhex(private["host"])}
        elements.update({s: bytes.fromhex(e) for s, e in fair["contributions"].items()})
        self.chains.sealed(event.seq, fair.get("chains") or {}, elements)
        self.seat_keys.sealed(fair.get("keys") or {})
        self.heads.head = bytes.fromhex(fair["hash"])
        self.next_k = event.seq + 1
        return roots

    # --- rolls: each one-line call is documented where it is done ------------------------

    def request(
        self, side: str | None, payload: Any, *, sign: bool = True, order: str = ""
    ) -> Request:
        """Ask for roll ``k`` for ``payload``. Unsigned when no page will be asked (every
        chain is the host's): a signature then proves nothing to anyone. ``order`` is the
        digest of the side's signature on its command (hashlog.order_digest), if signed."""
        return self.heads.request(self.next_k, side, payload, sign, order)

    def held(self, party: str, k: int) -> bytes | None:
        return self.chains.held(party, k)

    def accepts(self, party: str, k: int, element: bytes) -> bool:
        """Is ``element`` the party's next link, for the roll now asked for?"""
        return k == self.next_k and self.chains.links(party, k, element)

    def new_chain(self, side: str, anchor: str, from_k: int) -> None:
        self.chains.new_chain(side, anchor, from_k, self.next_k)

    def renew(self, side: str, anchor: str) -> int:
        return self.chains.renew(side, anchor, self.next_k)

    def new_key(self, side: str, key: str, from_k: int) -> None:
        self.seat_keys.new_key(side, key, from_k, self.next_k)

    def key_for(self, side: str, k: int) -> str | None:
        return self.seat_keys.key_for(side, k)

    def dice(self, request: Request, elements: Mapping[str, bytes]) -> StreamDice:
        return self.chains.dice(request.k, elements)

    def elements_for(
        self, k: int, given: Mapping[str, bytes] | None = None, without: Collection[str] = ()
    ) -> dict[str, bytes]:
        return self.chains.elements_for(k, given, without)

    # --- sealing an event -----------------------------------------------------------------

    def check_room(self, before: GameState[Any, Any], event: Event) -> list[Write]:
        return self.facts.check_room(before, event)

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
        left for :meth:`finish` to sign (the server does it on its writer thread, off the
        event loop, just before the event is written)."""
        assert request.k == self.next_k == event.seq
        found = self.facts.check_room(before, event)
        openings = self.facts.openings(before, event)
        written = self.facts.write(found, event.seq)
        roots = self.facts.seal(before, event)
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
        chains = self.chains.starting(event.seq)
        if chains:
            fair["chains"] = chains
        keys = self.seat_keys.starting(event.seq)
        if keys:
            fair["keys"] = keys
        sealed = replace(event, fair=fair)
        self.heads.sealed(event.seq)
        drawn = {p: elements[p] for p in self.parties if p in elements}
        self.chains.sealed(event.seq, chains, drawn)
        self.seat_keys.sealed(keys)
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
        self.heads.finish(event, self.shown_to())


def protocol_of(first: Event) -> Any:
    """The fairness protocol a game was set up under, as its first event says."""
    return ((first.fair or {}).get("setup") or {}).get("version")


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
