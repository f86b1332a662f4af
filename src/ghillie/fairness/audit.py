"""``ghillie audit``: check a finished game's record without the server or its database.

The checks, in order (TRUST.md §1.4); the first problem found is named:

0. **record** — the record is in the one form ghillie writes (:mod:`ghillie.fairness.strict`):
   no unknown field, no number or flag spelled another way, even where the meaning and the
   hashes would be the same; roots, contributions and views for exactly the sides; facts
   with seq 0, a rewrite in its own slot, a new fact in a free one. A record that cannot be
   read at all (nested too deep to hash, say) is a finding, not an error;
1. **chain** — every event's hash follows from the one before, every head is signed by
   the game's key, and so is what the record says each side was shown (``fair.shown``);
2. **receipts** — every head and roll request a side's page kept is signed by the host key
   the page kept, which must be the record's key, and lies on this chain: a signed head or
   request that disagrees with the record is proof that the host showed two histories or
   asked for a roll again to get another result. A receipt that does not verify, or one
   kept without the key, fails the audit: what cannot be checked is not skipped. Every view
   a page kept (``receipts.shown``) is signed and is what the record says it was shown;
3. **randomness** — the roll parties are the host and each side once, held exactly when
   their seeds are revealed, with chains of :data:`~ghillie.fairness.chains.LENGTH`; a
   page's kept anchor is its side's; the host's and every host-held chain regrow from their
   seeds, every element links to the one before, and every request opens to the command it
   was for;
4. **replay** — each event is ruled on again by the rules engine from the command, the dice
   recomputed from every party's element and the ids it drew: effects, rolls and what each
   side was told must come out exactly as recorded;
5. **commitments** — each side's roster is rebuilt from the revealed salts and facts: every
   published root must match, and every opening shown at a reveal must be exactly the one
   the rules called for, and check against the root published before it. An opening of a
   fact the ruleset fixes once written (``Ruleset.fixed_secrets``) must say when it was
   written (``written``), no later than that root, and check against the root published
   then; no other opening may say so; and no fixed fact may be written twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ghillie import engine
from ghillie.errors import Refusal, ScenarioError
from ghillie.events import Event, event_from_json, event_to_json
from ghillie.fairness import strict
from ghillie.fairness.capacity import fixed_secrets, roster_size
from ghillie.fairness.chains import LENGTH, Chain, links
from ghillie.fairness.commitment import opens
from ghillie.fairness.hashlog import (
    SIGNATURE,
    event_hash,
    genesis,
    head_message,
    shown_content,
    shown_digest,
    shown_message,
    verify,
    verify_head,
    verify_request,
)
from ghillie.fairness.ledger import HOST, VERSION, Ledger, Secrets, hashed, opened
from ghillie.fairness.record import FORMAT
from ghillie.fairness.referee import ReplayIds, scenario_payload
from ghillie.fairness.roster import check_opening
from ghillie.fairness.signatures import Signatures, signatures
from ghillie.fairness.stream import StreamDice, roll_context, roll_key
from ghillie.scenario import Scenario
from ghillie.state import Phase


@dataclass(frozen=True)
class Finding:
    check: str
    seq: int | None
    message: str

    def __str__(self) -> str:
        where = f"event {self.seq}: " if self.seq is not None else ""
        return f"{self.check}: {where}{self.message}"


@dataclass
class Report:
    game: str = ""
    ruleset: str = ""
    events: int = 0
    rolls: int = 0
    openings: int = 0
    receipts: int = 0
    held: list[str] = field(default_factory=list)
    # (side, event): from that event on, the side's rolls use a new dice chain.
    new_chains: list[tuple[str, int]] = field(default_factory=list)
    # (event, side, faces): dice a side typed in, rolled at the table, not drawn from the
    # chains. A record with them passes; the audit says whose word each rests on.
    typed: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    over: bool = False
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings


class _Stop(Exception):
    pass


def audit(
    record: Mapping[str, Any],
    receipts: Iterable[Mapping[str, Any]] = (),
    *,
    finished: bool = True,
    kept_by: Iterable[tuple[str, Mapping[str, Any]]] = (),
) -> Report:
    """Check ``record`` (and any receipts kept by the sides' clients: ``receipts`` of no
    known side, ``kept_by`` as ``(side, receipts)``, and the record's own, by side). A record
    must reach the end of the game unless ``finished`` is False: a cut-short log is otherwise
    a valid log of a shorter game."""
    report = Report()
    try:
        own = record.get("receipts") if isinstance(record, Mapping) else None
        labelled: list[tuple[str | None, Mapping[str, Any]]] = [
            *(own.items() if isinstance(own, Mapping) else ()),
            *kept_by,
            *((None, kept) for kept in receipts),
        ]
        with signatures() as queued:
            try:
                _audit(record, labelled, report, queued)
            except Exception:
                _settle(report, queued)  # a signature queued before it failed comes first
                raise
            _settle(report, queued)
        if finished and report.ok and not report.over:
            report.findings.append(
                Finding("record", report.events - 1, "the game is not over: the log is cut short")
            )
    except _Stop:
        pass
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        IndexError,
        OverflowError,
        RecursionError,
    ) as exc:
        # A record so mangled that it cannot even be read is itself the finding (nested
        # too deep to hash, say: a host-signed command of 990 nested lists).
        report.findings.append(Finding("record", None, _cannot_read(exc)))
    return report


def _cannot_read(exc: Exception) -> str:
    """The finding for a record the audit could not read, naming why."""
    if isinstance(exc, RecursionError):
        why = "it is nested too deeply"
    elif isinstance(exc, OverflowError):
        why = "a number in it is too large"
    else:
        why = type(exc).__name__
    detail = str(exc).splitlines()[0][:200] if str(exc) and type(exc) is ValueError else ""
    return f"the record cannot be read: {why}" + (f" ({detail})" if detail else "")


def _settle(report: Report, queued: Signatures) -> None:
    """If a queued signature check fails, the first of them is the audit's finding: each
    was queued where it used to run, so it comes before anything the audit found after."""
    problem = queued.first_problem()
    if problem is not None:
        report.findings[:] = []
        _fail(report, *problem)


def _fail(report: Report, check: str, seq: int | None, message: str) -> None:
    report.findings.append(Finding(check, seq, message))
    raise _Stop


def _audit(
    record: Mapping[str, Any],
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    report: Report,
    queued: Signatures,
) -> None:
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        _fail(report, "record", None, f"is not a {FORMAT} record")
    # 0. one form only: a record that means the same but is written otherwise is another
    # record, and the hashes cannot always tell (RFC 8785 writes 0.0 as 0).
    wrong = strict.problem(strict.RecordForm, record)
    if wrong:
        _fail(report, "record", None, f"is not in the form ghillie writes ({wrong})")
    for index, raw in enumerate(record["events"]):
        wrong = strict.problem(strict.EventForm, raw)
        if not wrong and ("setup" in raw["fair"]) != (index == 0):
            wrong = "fair.setup: only the first event sets the game up"
        if wrong:
            _fail(report, "record", index, f"is not in the form ghillie writes ({wrong})")
    game_id = record["game"]
    report.game, report.ruleset = game_id, record["ruleset"]
    events = [event_from_json(e) for e in record["events"]]
    report.events = len(events)
    if not events or events[0].fair is None or "setup" not in events[0].fair:
        _fail(report, "record", 0, "the first event does not set the game up")
    setup = events[0].fair["setup"] if events[0].fair else {}
    public_key = setup["key"]

    # 1. chain
    hashes: list[str] = []
    head = genesis(game_id)
    for index, (event, raw) in enumerate(zip(events, record["events"], strict=True)):
        fair = event.fair or {}
        if event.seq != index:
            _fail(report, "chain", index, f"is numbered {event.seq}: an event is missing or moved")
        head = event_hash(head, hashed(raw))
        if fair.get("hash") != head.hex():
            _fail(report, "chain", event.seq, "its hash does not follow from the log before it")
        # One spelling only: a signature in capitals would verify, yet be another record.
        queued.check(
            public_key,
            head_message(game_id, event.seq, head),
            fair.get("sig", ""),
            ("chain", event.seq, "the host's signature on this head is not valid"),
        )
        hashes.append(head.hex())

    # 2. receipts
    for _, kept in receipts:
        _check_receipts(report, game_id, public_key, kept, events, hashes)

    scenario = _scenario(report, record)

    # 3. randomness: who rolls, the seeds behind every chain and the key behind the signatures
    sides = scenario.side_ids()
    # The audit never signs: the host's signing key is not in the record.
    secrets = Secrets.from_json({**record["secrets"], "key": "00" * 32})
    anchors = _parties(report, setup, sides, secrets)
    _page_anchors(report, receipts, anchors, sides, secrets, events)
    # What each side was shown of each event, signed by the host (fair.shown), and what its
    # page kept of it (receipts.shown): both must be what the record holds.
    views = _check_shown(report, game_id, public_key, events, sides, queued)
    for side, kept in receipts:
        _check_views(report, game_id, public_key, side, kept, views, sides)
    report.held = sorted(secrets.held)
    for party, seed in [(HOST, secrets.host_seed), *secrets.held.items()]:
        if Chain.from_seed(seed, LENGTH).anchor.hex() != anchors.get(party):
            _fail(report, "randomness", 0, f"{party}'s revealed seed does not grow its anchor")
    injected = setup.get("dice") == "injected"
    if injected:
        _fail(report, "randomness", 0, "the dice were injected, not drawn from the chains")

    size = roster_size(scenario)
    if setup.get("version") != VERSION or setup.get("roster") != size:
        _fail(report, "record", 0, f"it does not set up version {VERSION} rosters of {size} slots")
    ledger = Ledger(
        game_id,
        sides,
        secrets,
        {s: anchors[s] for s in sides},
        size=size,
        fixed=fixed_secrets(scenario),
    )
    last = {party: bytes.fromhex(anchors[party]) for party in (HOST, *sides)}
    state = engine.replay(scenario, [])
    for event in events:
        fair = event.fair or {}
        private = fair["private"]
        for name in ("contributions", "roots"):
            if sorted(fair[name]) != sorted(sides):
                _fail(
                    report,
                    "record",
                    event.seq,
                    f"is not in the form ghillie writes (fair.{name}: not one for each side)",
                )
        elements = {HOST: bytes.fromhex(private["host"])}
        elements.update({s: bytes.fromhex(fair["contributions"][s]) for s in sides})
        for side, anchor in (fair.get("chains") or {}).items():
            # A side's new chain (its device lost, or its seat moved): its element for this
            # roll must follow the new anchor; no roll before changes.
            if event.seq == 0 or side not in sides or side in secrets.held:
                _fail(report, "record", event.seq, f"it starts a new chain for {side} here")
            last[side] = bytes.fromhex(anchor)
            report.new_chains.append((side, event.seq))
        for party, element in elements.items():
            if not links(last[party], element):
                _fail(
                    report, "randomness", event.seq, f"{party}'s element does not follow its last"
                )
        last = elements
        payload = scenario_payload(scenario) if event.seq == 0 else event.command
        salt = bytes.fromhex(private["salt"])
        if not opens(
            fair["request"], "request", game_id, event.side or "", event.seq, payload, salt
        ):
            _fail(report, "randomness", event.seq, "the request does not open to this command")

        # 4. replay
        dice = StreamDice(
            roll_key([elements[p] for p in (HOST, *sides)]), roll_context(game_id, event.seq)
        )
        ids = ReplayIds(private["ids"])
        try:
            if event.seq == 0:
                again, after = engine.create(scenario, dice, ids)
            else:
                # The host's time-out has no side; an event ruled at a time replays at it.
                again, after = engine.apply(
                    state, event.side, event.command or {}, dice, ids, event.at
                )
        except (Refusal, LookupError, ValueError, KeyError) as exc:
            _fail(report, "replay", event.seq, f"the rules do not accept it again ({exc})")
        _same(report, record["events"][event.seq], again)
        report.rolls += sum(1 for r in event.rolls if not r.entered)
        typers = dict.fromkeys(r.by for r in event.rolls if r.by is not None)
        for by in typers:
            report.typed.append((event.seq, by, tuple(r.face for r in event.rolls if r.by == by)))

        # 5. commitments. Every opening shown checks against its roots first, so that a
        # false one is named for what is false in it.
        for to, shown in fair["openings"].items():
            for opening in shown:
                _check_opening(report, game_id, events, event.seq, to, opening, size, ledger)
                report.openings += 1
        called: dict[str, list[dict[str, Any]]] = {}
        for to, piece, key in opened(event):
            owner = state.pieces[piece].owner
            if (piece, key) in ledger.rosters[owner].slots:
                expected = ledger.rosters[owner].opening(piece, key, event.seq - 1)
                called.setdefault(to, []).append(expected)
                shown = fair["openings"].get(to, [])
                if expected not in shown:
                    _fail(
                        report,
                        "commitments",
                        event.seq,
                        f"{to} was not shown an opening the rules call for",
                    )
        expected_count = len(
            [
                1
                for to, piece, key in opened(event)
                if (piece, key) in ledger.rosters[state.pieces[piece].owner].slots
            ]
        )
        if sum(len(v) for v in fair["openings"].values()) != expected_count:
            _fail(report, "commitments", event.seq, "it shows openings the rules do not call for")
        if strict.exact(called) != strict.exact(fair["openings"]):
            _fail(
                report, "record", event.seq, "its openings are not in the form ghillie writes them"
            )
        _slots(report, ledger, event)
        try:
            ledger.restore(state, event)
        except (ValueError, KeyError) as exc:
            _fail(
                report,
                "commitments",
                event.seq,
                f"its committed facts do not match its writes ({exc})",
            )
        for side in sides:
            if ledger.rosters[side].root(event.seq) != fair["roots"].get(side):
                _fail(
                    report,
                    "commitments",
                    event.seq,
                    f"{side}'s published root does not open to its secrets",
                )
        state = after
    report.over = state.phase is Phase.OVER


def _parties(
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
        _fail(
            report,
            "randomness",
            0,
            f"the roll parties are {names}, not the host and each side once ({[HOST, *sides]})",
        )
    if setup["length"] != LENGTH:
        _fail(report, "randomness", 0, f"its chains are not {LENGTH} elements long")
    if not parties[0]["held"]:
        _fail(report, "randomness", 0, "the host's own chain is not marked as held by the host")
    if not set(secrets.held) <= set(sides):
        _fail(report, "randomness", 0, "it reveals the seed of a chain no side rolls with")
    for party in parties[1:]:
        if party["held"] != (party["party"] in secrets.held):
            _fail(
                report,
                "randomness",
                0,
                f"{party['party']}'s chain is marked "
                + ("host-held" if party["held"] else "page-held")
                + ", yet its seed is "
                + ("not revealed" if party["held"] else "revealed as the host's"),
            )
    return {p["party"]: p["anchor"] for p in parties}


def _page_anchors(
    report: Report,
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    anchors: Mapping[str, str],
    sides: tuple[str, ...],
    secrets: Secrets,
    events: list[Event],
) -> None:
    """A page keeps the anchor of the chain it held beside its receipts (and, for a new
    chain, the roll it starts at): the record must roll with that very chain for that side,
    from that roll, and say the page held it. Receipts of no known side must name the
    anchor of some page-held side."""
    used = {(s, 0, anchors[s]) for s in sides}  # (side, from roll, anchor)
    for event in events:
        chains = (event.fair or {}).get("chains") or {}
        used.update((s, event.seq, a) for s, a in chains.items())
    for side, kept in receipts:
        anchor = kept.get("anchor")
        if anchor is None:
            continue
        start = kept.get("chain_from") or 0
        if side is None:
            ok = any((s, start, anchor) in used and s not in secrets.held for s in sides)
        else:
            ok = side in sides and (side, start, anchor) in used and side not in secrets.held
        if not ok:
            _fail(
                report,
                "receipts",
                0,
                "a side's page gave another chain than the record uses"
                + (f" ({side})" if side is not None else ""),
            )


def _check_shown(
    report: Report,
    game_id: str,
    public_key: str,
    events: list[Event],
    sides: tuple[str, ...],
    queued: Signatures,
) -> list[dict[str, str]]:
    """Every event's ``fair.shown[side]`` is the host's valid signature over what the record
    says that side was shown (its lines and its proof). Gives the digest of each, by event
    and side, for the pages' receipts."""
    views: list[dict[str, str]] = []
    for event in events:
        fair = event.fair or {}
        shown = fair["shown"]
        if sorted(shown) != sorted(sides):
            _fail(
                report,
                "record",
                event.seq,
                "is not in the form ghillie writes (fair.shown: not one for each side)",
            )
        digests = {}
        for side in sides:
            content = shown_content(event.seq, fair, event.told.get(side, []), side)
            digest = shown_digest(content)
            message = shown_message(game_id, event.seq, side, digest)
            # One spelling only, as for the heads: hex in lowercase of its length.
            queued.check(
                public_key,
                message,
                shown[side],
                (
                    "chain",
                    event.seq,
                    f"what {side} was shown at event {event.seq} is not what the record holds",
                ),
            )
            digests[side] = digest.hex()
        views.append(digests)
    return views


def _check_views(
    report: Report,
    game_id: str,
    public_key: str,
    side: str | None,
    kept: Mapping[str, Any],
    views: list[dict[str, str]],
    sides: tuple[str, ...],
) -> None:
    """A page keeps the host's signature on what it was shown of each event, with the digest
    it computed of it: each must verify under the record's key (what cannot be checked is
    not skipped), and the digest must be the record's for that side and event. Receipts of no
    known side are taken as the side whose name the signature verifies under."""
    for item in kept.get("shown") or []:
        seq, digest, sig = item["seq"], item["digest"], item["sig"]
        # Of a page's JSON numbers, only whole ones it carries exactly name an event.
        signed = [
            s
            for s in (sides if side is None else (side,))
            if 0 <= seq <= 2**53 - 1
            and verify(public_key, shown_message(game_id, seq, s, bytes.fromhex(digest)), sig)
        ]
        if not SIGNATURE.fullmatch(sig) or not signed:
            _fail(
                report,
                "receipts",
                seq,
                "a side kept a view of an event that the host's key did not sign",
            )
        report.receipts += 1
        if not any(seq < len(views) and views[seq].get(s) == digest for s in signed):
            _fail(
                report,
                "receipts",
                seq,
                f"{signed[0]} was shown something at event {seq} that the record does not hold",
            )


def _check_opening(
    report: Report,
    game_id: str,
    events: list[Event],
    seq: int,
    to: str,
    opening: dict[str, Any],
    size: int,
    ledger: Ledger,
) -> None:
    """One opening shown at event ``seq`` checks against the root it names, and one of a
    fixed fact against the root of the event that wrote it too (which only such an opening
    names, and which is no later than the first)."""

    def root(at: Any) -> str:
        fair = events[at].fair if type(at) is int and 0 <= at < len(events) else None
        return str(fair["roots"].get(opening["side"], "")) if fair else ""

    written = opening.get("written")
    if not check_opening(
        game_id,
        {k: v for k, v in opening.items() if k != "written"},
        root(opening["root_seq"]),
        size,
    ):
        _fail(
            report, "commitments", seq, f"an opening shown to {to} does not check against its root"
        )
    fixed = opening["key"] in ledger.fixed
    if written is None and fixed:
        _fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} does not say when its fact, which never changes, "
            "was written",
        )
    if written is None:
        return
    if not fixed:
        _fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} says when a fact was written that the rules may change",
        )
    # (Its form, an int, is the strict check's: a record of another form never gets here.)
    if written["seq"] > opening["root_seq"]:
        _fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} says its fact was written after the root it opens against",
        )
    if not check_opening(game_id, opening, root(opening["root_seq"]), size, root(written["seq"])):
        _fail(
            report,
            "commitments",
            seq,
            f"an opening shown to {to} does not check against the root of the event that "
            "wrote its fact",
        )


def _slots(report: Report, ledger: Ledger, event: Event) -> None:
    """Facts are written as ghillie writes them: with seq 0, a rewrite in its own slot, a new
    fact in a free one, and a fact the rules fix once written never again. A fact moved
    elsewhere would leave its old commitment behind as a leaf nobody can tell from the
    rest, a second commitment to the same fact."""
    where = {
        side: {fact: w.slot for fact, w in roster.slots.items()}
        for side, roster in ledger.rosters.items()
    }
    for fact in (event.fair or {})["private"]["facts"]:
        if fact["seq"] != 0:
            _fail(report, "record", event.seq, "a fact is committed with a seq other than 0")
        mine = where.get(fact["side"])
        if mine is None:
            continue  # not a side: restore names it
        name, slot = (fact["piece"], fact["key"]), fact["slot"]
        if name in mine and fact["key"] in ledger.fixed:
            _fail(
                report,
                "commitments",
                event.seq,
                "a fact the rules fix once written is written again",
            )
        if name in mine:
            if mine[name] != slot:
                _fail(report, "commitments", event.seq, "a rewritten fact moves to another slot")
        elif slot in mine.values():
            _fail(report, "commitments", event.seq, "two facts are committed in one slot")
        mine[name] = slot


def _scenario(report: Report, record: Mapping[str, Any]) -> Scenario:
    from ghillie.game import load_scenario

    try:
        scenario = load_scenario({**record["scenario"], "ruleset": record["ruleset"]})
    except (ScenarioError, KeyError, ValueError) as exc:
        _fail(report, "record", 0, f"its scenario cannot be read ({exc})")
        raise  # unreachable: _fail raises
    # The host records the scenario as the rules read it; a reader that accepts true for 1
    # or 0.0 for 0 would let another record of the same game pass.
    if strict.exact(scenario.model_dump(mode="json", by_alias=True)) != strict.exact(
        record["scenario"]
    ):
        _fail(report, "record", 0, "its scenario is not in the form ghillie writes")
    return scenario


def _same(report: Report, recorded: Mapping[str, Any], again: Event) -> None:
    """The recorded event (its JSON, as written) is exactly what the rules give again."""
    b = event_to_json(again)
    for key in ("side", "command", "rolls", "effects", "told"):
        if recorded.get(key) != b.get(key):
            _fail(report, "replay", again.seq, f"the rules give different {key} than announced")
    a = {k: v for k, v in recorded.items() if k != "fair"}
    if strict.exact(a) != strict.exact({k: v for k, v in b.items() if k != "fair"}):
        _fail(report, "record", again.seq, "it is not in the form ghillie writes its rulings")


def _check_receipts(
    report: Report,
    game_id: str,
    public_key: str,
    kept: Mapping[str, Any],
    events: list[Event],
    hashes: list[str],
) -> None:
    # The key first: receipts that do not say which key signed them (kept by an older page)
    # cannot be checked, and a key other than the record's means the record was signed anew.
    if not isinstance(kept, Mapping) or "key" not in kept:
        _fail(
            report,
            "receipts",
            None,
            "a side's receipts do not say which host key signed them, so they cannot be checked",
        )
    if kept["key"] != public_key:
        _fail(
            report,
            "receipts",
            None,
            "a side's page kept another host key than this record's: the record was signed anew",
        )
    wrong = strict.problem(strict.Receipts, kept)
    if wrong:
        _fail(report, "receipts", None, f"are not in the form a page keeps them ({wrong})")
    for head in kept["heads"]:
        seq, digest = head["seq"], head["hash"]
        if not verify_head(public_key, game_id, head):
            _fail(report, "receipts", seq, "a side kept a head that the host's key did not sign")
        report.receipts += 1
        if seq >= len(hashes):
            _fail(
                report, "receipts", seq, "a side was shown a signed head the record does not reach"
            )
        if hashes[seq] != digest:
            _fail(
                report, "receipts", seq, "a side was shown a different signed head (two histories)"
            )
    for req in kept["requests"]:
        k = req["k"]
        if req["game"] != game_id or not verify_request(public_key, game_id, req):
            _fail(report, "receipts", k, "a side kept a roll request the host's key did not sign")
        report.receipts += 1
        prev = bytes.fromhex(hashes[k - 1]) if 0 < k <= len(hashes) else genesis(game_id)
        if k >= len(events):
            _fail(report, "receipts", k, "a roll was requested and never resolved")
        fair = events[k].fair or {}
        if (
            fair.get("request") != req["commitment"]
            or req["prev"] != prev.hex()
            or events[k].side != req["side"]
        ):
            _fail(
                report,
                "receipts",
                k,
                "a roll was requested for another command, then resolved for this one (superseded)",
            )
