"""A dishonest host, for the audit's tests (ported from the red team's reproductions): it
holds the signing key, so it can rehash and resign any record it writes, rebuild roots and
openings from the facts it writes in, and set a game up with roll parties of its choosing."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ghillie import engine, examples, registry
from ghillie.events import event_from_json
from ghillie.fairness import referee
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.chains import Chain
from ghillie.fairness.encoding import sha256
from ghillie.fairness.hashlog import (
    HostKey,
    event_hash,
    genesis,
    head_message_v2,
    shown_content,
    shown_digest_v2,
    shown_salt,
)
from ghillie.fairness.ledger import HOST, Ledger, Secrets, hashed, opened, seeded_bytes
from ghillie.fairness.roster import Roster
from ghillie.ids import SeededIds

from .games import PagesGame, _drive


def resign(record: dict[str, Any], private_key: str) -> dict[str, Any]:
    """``record`` with every hash, every side's digest of what it was shown and every head
    signature recomputed, as its host can."""
    out = copy.deepcopy(record)
    key = HostKey.from_bytes(bytes.fromhex(private_key))
    dummy = bytes.fromhex(out["secrets"]["dummy"])
    sides = _scenario(out).side_ids()
    head = genesis(out["game"])
    for raw in out["events"]:
        fair = raw["fair"]
        head = event_hash(head, hashed(raw))
        fair["hash"] = head.hex()
        digests = []
        for side in sides:
            salt = shown_salt(dummy, side, raw["seq"])
            content = shown_content(raw["seq"], fair, raw["told"].get(side, []), side)
            digest = shown_digest_v2(salt, content)
            fair["shown"][side] = {"salt": salt.hex(), "digest": digest.hex()}
            digests.append(digest)
        fair["sig"] = key.sign(head_message_v2(out["game"], raw["seq"], head, digests))
    return out


def rebuild_commitments(record: dict[str, Any]) -> dict[str, Any]:
    """Every root and every opening recomputed from the facts the record writes (the slots
    included, as written), the way the audit rebuilds them, without its slot checks."""
    out = copy.deepcopy(record)
    scenario = _scenario(out)
    setup = out["events"][0]["fair"]["setup"]
    sides = tuple(p["party"] for p in setup["parties"] if p["party"] != HOST)
    anchors = {p["party"]: p["anchor"] for p in setup["parties"]}
    secrets = Secrets.from_json({**out["secrets"], "key": "00" * 32})
    ledger = Ledger(
        out["game"],
        sides,
        secrets,
        anchors,
        size=roster_size(scenario),
        fixed=fixed_secrets(scenario),
    )
    state = engine.empty(registry.of(scenario), scenario)
    for raw in out["events"]:
        event = event_from_json(raw)
        shown: dict[str, list[Any]] = {}
        for to, piece, key in opened(event):
            owner = state.pieces[piece].owner
            if (piece, key) in ledger.rosters[owner].slots:
                shown.setdefault(to, []).append(
                    ledger.rosters[owner].opening(piece, key, event.seq - 1)
                )
        raw["fair"]["openings"] = shown
        raw["fair"]["roots"] = ledger.restore(state, event_from_json(raw))
        state = engine.replay_one(state, event)
    return out


def _scenario(record: Mapping[str, Any]) -> Any:
    from ghillie.game import load_scenario

    return load_scenario({**record["scenario"], "ruleset": record["ruleset"]})


class Showing(Ledger):
    """A dishonest host's ledger that still signs what every side of the scenario was shown,
    as an honest one does (its chain checks out: what it lies about is elsewhere)."""

    everyone: tuple[str, ...] = ()

    def shown_to(self) -> Sequence[str]:
        return self.everyone


class ShadowLedger(Showing):
    """Rolls with parties host, each side, each side again; event 0 lists every side first
    with its page's anchor (what the page reads), then with the host's own (what a reader of
    a mapping keeps)."""

    real: Mapping[str, str]
    shown: tuple[str, ...]

    def setup(self) -> dict[str, Any]:
        out = super().setup()
        host = out["parties"][0]
        firsts = [{"party": s, "anchor": self.real[s], "held": False} for s in self.shown]
        seconds = [{"party": s, "anchor": self.anchors[s], "held": False} for s in self.shown]
        out["parties"] = [host, *firsts, *seconds]
        return out


class ShadowGame(PagesGame):
    """Both pages give their elements for every roll and keep every receipt; the host throws
    their elements away and rolls from chains it made for them."""

    def __init__(self, scenario: str, pages: Mapping[str, Chain], host: int) -> None:
        self.scenario = examples.load(scenario)
        sides = self.scenario.side_ids()
        self.chains = {s: Chain.from_seed(sha256(f"host's own {s}".encode())) for s in sides}
        self.game_id = "shadow"
        self.ids = SeededIds(host)
        draw = seeded_bytes(host)
        fake = {s: self.chains[s].anchor.hex() for s in sides}
        ledger = ShadowLedger(
            self.game_id,
            (*sides, *sides),
            Secrets.new([], draw),
            fake,
            draw,
            size=roster_size(self.scenario),
            fixed=fixed_secrets(self.scenario),
        )
        ledger.real = {s: pages[s].anchor.hex() for s in sides}
        ledger.shown = sides
        ledger.everyone = sides
        self.ledger = ledger
        self.receipts = {s: {"key": ledger.key.public, "heads": [], "requests": []} for s in sides}
        self.events = []
        self.fresh = {}
        request = self._ask(None, referee.scenario_payload(self.scenario))
        first, self.state = referee.create(
            ledger, self.scenario, self.ids, self._elements(0), request=request
        )
        self._keep(first)


class LeftOut(PagesGame):
    """Event 0 lists only the host and ``kept`` as roll parties; every side's page is still
    asked and keeps its receipts, and every side still has a roster."""

    def __init__(
        self, scenario: str, chains: Mapping[str, Chain], kept: tuple[str, ...], host: int
    ) -> None:
        self.scenario = examples.load(scenario)
        self.chains = chains
        self.game_id = "left-out"
        self.ids = SeededIds(host)
        draw = seeded_bytes(host)
        size, fixed = roster_size(self.scenario), fixed_secrets(self.scenario)
        anchors = {side: chains[side].anchor.hex() for side in kept}
        self.ledger = Showing(
            self.game_id, kept, Secrets.new([], draw), anchors, draw, size=size, fixed=fixed
        )
        self.ledger.everyone = self.scenario.side_ids()
        dummy = self.ledger.secrets.dummy
        self.ledger.rosters = {
            side: Roster(self.game_id, side, dummy, size, fixed)
            for side in self.scenario.side_ids()
        }
        self.receipts = {
            side: {"key": self.ledger.key.public, "heads": [], "requests": []}
            for side in self.scenario.side_ids()
        }
        self.events = []
        self.fresh = {}
        request = self._ask(None, referee.scenario_payload(self.scenario))
        first, self.state = referee.create(
            self.ledger, self.scenario, self.ids, self._elements(0), request=request
        )
        self._keep(first)

    def _elements(self, k: int) -> dict[str, bytes]:
        return {side: self.chains[side].element(k) for side in self.ledger.sides}


def shadow(scenario: str, pages: Mapping[str, Chain], host: int) -> ShadowGame:
    game = ShadowGame(scenario, pages, host)
    _drive(game, host, 80)
    return game


def left_out(
    scenario: str, chains: Mapping[str, Chain], kept: tuple[str, ...], host: int
) -> LeftOut:
    game = LeftOut(scenario, chains, kept, host)
    _drive(game, host, 80)
    return game
