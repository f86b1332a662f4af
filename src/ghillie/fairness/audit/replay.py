"""The audit's replay of a record, event by event: the roll of each event from every party's
element (check 3), its command ruled on again (check 4, held to its side's seat key since
protocol 4) and each side's roster rebuilt (check 5). What each event announces beside its
ruling is checked as it goes (:mod:`~ghillie.fairness.audit.announced`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ghillie import engine, registry
from ghillie.errors import Refusal
from ghillie.events import Event, event_to_json
from ghillie.fairness import roster, roster_v2, strict
from ghillie.fairness.audit import announced, commitments, orders
from ghillie.fairness.audit.report import Report, fail
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.chains import LENGTH, Chain, generation, links
from ghillie.fairness.facts import Facts
from ghillie.fairness.ledger import HOST, Secrets
from ghillie.fairness.referee import ReplayIds, scenario_payload
from ghillie.fairness.signatures import Signatures
from ghillie.fairness.stream import StreamDice, roll_context, roll_key
from ghillie.scenario import Scenario
from ghillie.state import GameState, Phase


class Replay:
    """A record's game, ruled on again from its first event."""

    def __init__(
        self,
        report: Report,
        record: Mapping[str, Any],
        scenario: Scenario,
        secrets: Secrets,
        anchors: Mapping[str, str],
        queued: Signatures,
        asked: Collection[tuple[int, str]] = (),
    ) -> None:
        self.report = report
        self.record = record
        self.game_id: str = record["game"]
        self.scenario = scenario
        self.sides = scenario.side_ids()
        self.queued = queued
        setup = record["events"][0]["fair"]["setup"]
        self.version: int = setup["version"]
        # How long a roll waits for a page (None: for ever), and (roll, side) for every roll
        # a side's page kept the host's request for: each since protocol 4.
        self.wait: int | None = setup.get("wait")
        self.asked = asked
        self.size = roster_size(scenario)
        legacy = self.version < 4
        self.check_opening = roster_v2.check_opening if legacy else roster.check_opening
        # The rosters alone, rebuilt as the host built them: the rest of a ledger (the chains,
        # grown from their seeds a second time, the seat keys, the head) checks nothing here.
        self.facts = Facts(
            self.game_id,
            self.sides,
            secrets.dummy,
            self.size,
            # Protocol 2 proved no write: none of its facts counts as fixed.
            fixed_secrets(scenario) if self.version >= 3 else frozenset(),
            _no_salts,
            roster_v2.Roster if legacy else roster.Roster,
        )
        self.secrets = secrets
        # Each party's last element and the roll it was for (-1: its anchor).
        self.last = {party: (bytes.fromhex(anchors[party]), -1) for party in (HOST, *self.sides)}
        self.keys = {} if legacy else orders.seats(report, setup, self.sides)
        self.state: GameState[Any, Any] = engine.empty(registry.of(scenario), scenario)

    def run(self, events: list[Event]) -> None:
        for event in events:
            self.event(event, events)
        self.report.over = self.state.phase is Phase.OVER

    def event(self, event: Event, events: list[Event]) -> None:
        report, sides, fair = self.report, self.sides, event.fair or {}
        missing = fair.get("missing") or []
        announced.one_each(report, event, sides, missing)
        elements = self.elements(event)
        command = event.command
        if self.version >= 4:
            command = orders.check(report, self.game_id, event, self.keys, self.queued)
            self.answered(event, missing)
        payload = scenario_payload(self.scenario) if event.seq == 0 else event.command
        announced.request(report, self.game_id, event, payload)
        if self.version >= 4:
            announced.said_when(report, event, self.state.window)

        # 4. replay
        dice = StreamDice(
            roll_key([elements.get(p, b"") for p in (HOST, *sides)]),
            roll_context(self.game_id, event.seq),
        )
        ids = ReplayIds(fair["private"]["ids"])
        try:
            if event.seq == 0:
                again, after = engine.create(self.state.ruleset, self.scenario, dice, ids)
            else:
                # The host's time-out has no side; an event ruled at a time replays at it.
                again, after = engine.apply(
                    self.state, event.side, command or {}, dice, ids, event.at
                )
        except (Refusal, LookupError, ValueError, KeyError) as exc:
            fail(report, "replay", event.seq, f"the rules do not accept it again ({exc})")
        recorded = self.record["events"][event.seq]
        if self.version < 4:
            # Before protocol 4 a typed die did not say who typed it (the command's side did,
            # as event_from_json reads it): compared as it reads now.
            recorded = {**event_to_json(event), "fair": recorded["fair"]}
        announced.same(report, recorded, again)
        report.rolls += sum(1 for r in event.rolls if not r.entered)
        typers = dict.fromkeys(r.by for r in event.rolls if r.by is not None)
        for by in typers:
            report.typed.append((event.seq, by, tuple(r.face for r in event.rolls if r.by == by)))
        self.commitments(event, events)
        self.state = after

    def elements(self, event: Event) -> dict[str, bytes]:
        """Every party's element for the event's roll, each following its last (check 3);
        a side the roll was drawn without (``fair.missing``) gives none, and its next element
        follows across the gap."""
        fair = event.fair or {}
        elements = {HOST: bytes.fromhex(fair["private"]["host"])}
        elements.update({s: bytes.fromhex(e) for s, e in fair["contributions"].items()})
        for side in fair.get("missing") or []:
            if self.version < 4 or side in self.secrets.held:
                fail(self.report, "record", event.seq, f"it draws the roll without {side}")
            if self.wait is None and side not in self.timed_out(event):
                fail(
                    self.report,
                    "randomness",
                    event.seq,
                    f"it draws the roll without {side}'s page, though the game was set up to "
                    "wait for every page",
                )
            self.report.missing.append((event.seq, side))
        for side, anchor in (fair.get("chains") or {}).items():
            # A new chain: a page's (its device lost, its seat moved, or its chain used up)
            # may start anywhere; the host's and a host-held side's start when the one before
            # runs out, and are the ones their first seed grows (chains.renewed). Its element
            # for this roll must follow the new anchor; no roll before changes.
            held = side == HOST or side in self.secrets.held
            if event.seq == 0 or (side not in self.sides and side != HOST):
                fail(self.report, "record", event.seq, f"it starts a new chain for {side} here")
            if held and anchor != self._renewed(side, event.seq):
                fail(
                    self.report,
                    "randomness",
                    event.seq,
                    f"{side}'s new chain is not the one its first seed grows",
                )
            self.last[side] = (bytes.fromhex(anchor), event.seq - 1)
            self.report.new_chains.append((side, event.seq))
        for party, element in elements.items():
            last, at = self.last[party]
            if not links(last, element, event.seq - at):
                fail(
                    self.report,
                    "randomness",
                    event.seq,
                    f"{party}'s element does not follow its last",
                )
            self.last[party] = (element, event.seq)
        return elements

    def timed_out(self, event: Event) -> tuple[str, ...]:
        """The sides whose time ran out in the window ``event`` times out (none, unless it is
        the host's time-out): its roll never waits for them, whatever the game's wait."""
        window = self.state.window
        command = event.command or {}
        if event.side is not None or event.seq == 0 or command.get("type") != "time_out":
            return ()
        if window is None or command.get("window") != window.opened:
            return ()
        return tuple(s for s in window.asks if s not in window.answers)

    def answered(self, event: Event, missing: list[str]) -> None:
        """A roll drawn without a side whose page kept the host's request for it: the page
        answered it (a page keeps a request it refuses only for an order of its side it did
        not give, which check 4 names first), so the host threw its element away, free to
        draw the roll with it or without it, whichever it liked."""
        for side in missing:
            if (event.seq, side) in self.asked:
                fail(
                    self.report,
                    "randomness",
                    event.seq,
                    f"it draws the roll without {side}'s page, yet that page was asked for "
                    "this roll and answered (it kept the host's request)",
                )

    def _renewed(self, party: str, seq: int) -> str | None:
        """The anchor of the host-held chain that starts at roll ``seq`` (None: none does)."""
        if seq % LENGTH:
            return None
        first = self.secrets.host_seed if party == HOST else self.secrets.held[party]
        return Chain.from_seed(generation(first, seq // LENGTH), LENGTH).anchor.hex()

    def commitments(self, event: Event, events: list[Event]) -> None:
        """Every opening shown checks against its roots first, so that a false one is named
        for what is false in it; then the rosters are rebuilt with the event's writes."""
        report, facts, state, fair = self.report, self.facts, self.state, event.fair or {}
        for to, shown in fair["openings"].items():
            for opening in shown:
                commitments.opening(
                    report,
                    self.game_id,
                    events,
                    event.seq,
                    to,
                    opening,
                    self.size,
                    facts,
                    self.check_opening,
                )
                report.openings += 1
        # The openings the rules call for, made as the host makes them, from the rosters
        # this replay rebuilt (never from what the record says it showed).
        called = facts.openings(state, event)
        for to, expected in ((to, e) for to, found in called.items() for e in found):
            if expected not in fair["openings"].get(to, []):
                fail(
                    report,
                    "commitments",
                    event.seq,
                    f"{to} was not shown an opening the rules call for",
                )
        if sum(len(v) for v in fair["openings"].values()) != sum(len(v) for v in called.values()):
            fail(report, "commitments", event.seq, "it shows openings the rules do not call for")
        if not strict.same(called, fair["openings"]):
            fail(
                report, "record", event.seq, "its openings are not in the form ghillie writes them"
            )
        commitments.slots(report, facts, event)
        try:
            roots = facts.restore(state, event, fair["private"]["facts"])
        except (ValueError, KeyError) as exc:
            fail(
                report,
                "commitments",
                event.seq,
                f"its committed facts do not match its writes ({exc})",
            )
        for side in self.sides:
            if roots[side] != fair["roots"].get(side):
                fail(
                    report,
                    "commitments",
                    event.seq,
                    f"{side}'s published root does not open to its secrets",
                )


def _no_salts(n: int) -> bytes:
    raise AssertionError("the audit rebuilds the rosters from the record's salts: it draws none")


def parties(
    report: Report, setup: Mapping[str, Any], sides: tuple[str, ...], secrets: Secrets
) -> dict[str, str]:
    """Event 0's roll parties, exactly as ghillie writes them: the host, then every side of
    the scenario once, in its order, each marked held exactly when the host held its chain.
    Any other list lets the host roll from chains of its own: a side left out (its page
    answers, its element counts for nothing), or named twice (a page reads the first entry,
    with its own anchor; a reader of a mapping, the last, with the host's). Checked before
    any chain is grown: the length is the one every chain has."""
    parties = setup["parties"]
    names = [p["party"] for p in parties]
    if names != [HOST, *sides]:
        fail(
            report,
            "randomness",
            0,
            f"the roll parties are {names}, not the host and each side once ({[HOST, *sides]})",
        )
    if setup["length"] != LENGTH:
        fail(report, "randomness", 0, f"its chains are not {LENGTH} elements long")
    if not parties[0]["held"]:
        fail(report, "randomness", 0, "the host's own chain is not marked as held by the host")
    if not set(secrets.held) <= set(sides):
        fail(report, "randomness", 0, "it reveals the seed of a chain no side rolls with")
    for party in parties[1:]:
        if party["held"] != (party["party"] in secrets.held):
            fail(
                report,
                "randomness",
                0,
                f"{party['party']}'s chain is marked "
                + ("host-held" if party["held"] else "page-held")
                + ", yet its seed is "
                + ("not revealed" if party["held"] else "revealed as the host's"),
            )
    return {p["party"]: p["anchor"] for p in parties}
