"""The parties to every roll — the host and each side — and their chains: the element each
gives next, the host-held parties' own elements, new chains, and each roll's dice.

A party's elements come from a hash chain (:mod:`ghillie.fairness.chains`), given from its
anchor on, one per roll; a roll drawn without a page's element leaves a gap its next element
hashes across. A host-held party's chain is the host's to grow (every ``chain_length`` rolls
its first seed grows the next); a page-held side's next chain is given by its page (a device
lost, a seat moved, or a chain running out) and starts at the roll its event records.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ghillie.fairness.chains import Chain, generation, links
from ghillie.fairness.stream import StreamDice, roll_context, roll_key

HOST = "host"


class PartyChains:
    def __init__(
        self,
        game_id: str,
        sides: tuple[str, ...],
        seeds: Mapping[str, bytes],
        anchors: Mapping[str, str],
        chain_length: int,
    ) -> None:
        """``seeds`` are the first seeds of the host-held parties' chains (the host's and
        any host-held side's); ``anchors`` every other side's, as its page gave it."""
        self.game_id = game_id
        self.sides = sides
        self.seeds = dict(seeds)
        self.chain_length = chain_length
        self.chains = {party: Chain.from_seed(seed, chain_length) for party, seed in seeds.items()}
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

    @property
    def parties(self) -> tuple[str, ...]:
        return (HOST, *self.sides)

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
            first = self.seeds[party]
            self.chains[party] = Chain.from_seed(generation(first, wanted), self.chain_length)
            self.generations[party] = wanted
        return self.chains[party]

    def starting(self, k: int) -> dict[str, str]:
        """The anchor of every chain whose first element is for roll ``k``, by party: a
        page's new chain, and the host-held parties' own every ``chain_length`` rolls
        (recorded in that event's ``fair.chains``)."""
        chains = {s: a for s, (a, at) in sorted(self.fresh.items()) if at == k}
        if k and not k % self.chain_length:
            for party in self.chains:
                chain = self._held_chain(party, k)
                assert chain is not None
                chains[party] = chain.anchor.hex()
        return dict(sorted(chains.items()))

    def links(self, party: str, k: int, element: bytes) -> bool:
        """Is ``element`` the party's next link, for roll ``k``? (After rolls drawn without
        its element, the link is across them.)"""
        if party not in self.last:
            return False
        base, at = self.last[party], self.last_k[party]
        fresh = self.fresh.get(party)
        if fresh is not None and fresh[1] <= k:
            base, at = bytes.fromhex(fresh[0]), fresh[1] - 1
        return links(base, element, k - at)

    def listed(self) -> list[dict[str, Any]]:
        """Every party as event 0's set-up lists it: its anchor, and whether the host holds
        its chain."""
        return [
            {"party": p, "anchor": self.anchors[p], "held": p in self.seeds} for p in self.parties
        ]

    def new_chain(self, side: str, anchor: str, from_k: int, next_k: int) -> None:
        """``side``'s rolls from ``from_k`` on use the chain of ``anchor``; every roll before
        stays as it was (``next_k``: the roll asked for now, the first a new chain may start
        at). Before event 0 is sealed the new anchor simply replaces the old one in the
        set-up; later, the event ``from_k`` records it (``fair.chains``), so that its element
        is checked against it, by the pages and by the audit."""
        if side not in self.sides or side in self.seeds:
            raise ValueError(f"{side} has no page-held chain in this game")
        if from_k < next_k:
            raise ValueError(f"roll {from_k} is over: a new chain starts with a later one")
        if from_k == 0:
            self.anchors[side] = anchor
            self.last[side] = bytes.fromhex(anchor)
            self.fresh.pop(side, None)
        else:
            self.fresh[side] = (anchor, from_k)

    def renew(self, side: str, anchor: str, next_k: int) -> int:
        """A page-held side gives the anchor of the chain that follows its chain in use,
        whose elements run out: its first element is for the roll after the last. Returns
        that roll. (The same anchor given again changes nothing.)"""
        from_k = self.chain_start[side] + self.chain_length
        self.new_chain(side, anchor, from_k, next_k)
        return from_k

    def dice(self, k: int, elements: Mapping[str, bytes]) -> StreamDice:
        """Roll ``k``'s dice, from every party's element; a side whose page never gave its
        element for this roll counts as an empty one (the roll was drawn without it)."""
        key = roll_key([elements.get(p, b"") for p in self.parties])
        return StreamDice(key, roll_context(self.game_id, k))

    def elements_for(
        self, k: int, given: Mapping[str, bytes] | None = None, without: Collection[str] = ()
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

    def sealed(self, seq: int, chains: Mapping[str, str], elements: Mapping[str, bytes]) -> None:
        """Event ``seq`` is sealed with the new ``chains`` it records and the ``elements``
        it was drawn from: each is the last link its party's next element follows."""
        for party, anchor in chains.items():
            self.last[party], self.last_k[party] = bytes.fromhex(anchor), seq - 1
            self.chain_start[party] = seq
            self.fresh.pop(party, None)
        for party, element in elements.items():
            self.last[party], self.last_k[party] = element, seq
