"""``ghillie audit``: check a finished game's record without the server or its database.

The checks, in order (TRUST.md §1.4); the first problem found is named:

0. **record** — the record is in the one form ghillie writes (:mod:`ghillie.fairness.strict`):
   no unknown field, no number or flag spelled another way, even where the meaning and the
   hashes would be the same; roots, contributions and views for exactly the sides; facts
   with seq 0, a rewrite in its own slot, a new fact in a free one. A record that cannot be
   read at all (nested too deep to hash, say) is a finding, not an error;
1. **chain** — every event's hash follows from the one before, and every head is signed by
   the game's key together with each side's salted digest of what the record says it was
   shown (``fair.shown``; before protocol 4, a signature of its own for each side);
2. **receipts** — every head and roll request a side's page kept is signed by the host key
   the page kept, which must be the record's key, and lies on this chain: a signed head or
   request that disagrees with the record is proof that the host showed two histories or
   asked for a roll again to get another result. A receipt that does not verify, or one
   kept without the key, fails the audit: what cannot be checked is not skipped. What a
   page was shown of each event, as its kept head signs it, is what the record holds; and
   (protocol 4) the host's time is held to the page's account of its windows and orders
   (:mod:`~ghillie.fairness.audit.time`);
3. **randomness** — the roll parties are the host and each side once, held exactly when
   their seeds are revealed, with chains of :data:`~ghillie.fairness.chains.LENGTH`; a
   page's kept anchor is its side's, and (protocol 4) its kept seat key the one the record
   gives its side's seat, with no receipt of an event after the record gave that seat
   another key; the host's and every host-held chain regrow from their seeds, every element
   links to the one before, every request opens to the command it was for, and a roll is
   drawn without a side's page only where the game's set-up lets it (not in a game that
   waits for every page, but a time-out's) and never without a page that kept the host's
   request for it;
4. **orders** (protocol 4) — a side's command is signed by the seat key that side held at
   that event, over the command exactly as sent and the roll it is for, and its roll request
   quoted that signature; a command given for a side with no seat key is the host's
   ("host-acted": named in the report, never a side's);
   **replay** — each event is ruled on again by the rules engine from the command, the dice
   recomputed from every party's element and the ids it drew: effects, rolls and what each
   side was told must come out exactly as recorded;
5. **commitments** — each side's roster is rebuilt from the revealed salts and facts: every
   published root must match, and every opening shown at a reveal must be exactly the one
   the rules called for, and check against the root published before it. An opening of a
   fact the ruleset fixes once written (``Ruleset.fixed_secrets``) must say when it was
   written (``written``), no later than that root, and check against the root published
   then; no other opening may say so; and no fixed fact may be written twice.

Every protocol version ghillie has written since version 2 is checked, each by its own
rules (``setup.version`` in the first event).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ghillie import registry
from ghillie.errors import ScenarioError
from ghillie.events import Event, event_from_json
from ghillie.fairness import strict
from ghillie.fairness.audit import receipts as receipts_
from ghillie.fairness.audit import time
from ghillie.fairness.audit.replay import Replay, parties
from ghillie.fairness.audit.report import Finding, Report, Stop, cannot_read, fail
from ghillie.fairness.capacity import check_capacity, roster_size
from ghillie.fairness.chains import LENGTH, Chain
from ghillie.fairness.encoding import as_is
from ghillie.fairness.hashlog import (
    event_hash,
    genesis,
    head_message,
    head_message_v2,
    shown_content,
    shown_digest,
    shown_digest_v2,
    shown_message,
    shown_salt,
)
from ghillie.fairness.ledger import HOST, VERSION, Secrets, hashed
from ghillie.fairness.record import FORMAT
from ghillie.fairness.signatures import Signatures, signatures
from ghillie.scenario import Scenario, parse_scenario

__all__ = ["Finding", "Report", "audit"]

# The protocol versions this audit checks: 2 and 3 (rosters v2; 3 proves fixed facts' writes)
# and 4 (rosters v3, one head signature, signed orders). Version 1 kept a Merkle tree per
# roster, for a day of development (before 099f1e5): ghillie at 950c1b3 audits its records.
VERSIONS = (2, 3, VERSION)


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
    except Stop:
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
        report.findings.append(Finding("record", None, cannot_read(exc)))
    return report


def _settle(report: Report, queued: Signatures) -> None:
    """If a queued signature check fails, the first of them is the audit's finding: each
    was queued where it used to run, so it comes before anything the audit found after."""
    problem = queued.first_problem()
    if problem is not None:
        report.findings[:] = []
        fail(report, *problem)


def version_of(record: Mapping[str, Any]) -> Any:
    """The protocol version a record says it was written under (event 0's set-up), as
    written; None if it says none."""
    try:
        return record["events"][0]["fair"]["setup"]["version"]
    except (KeyError, IndexError, TypeError):
        return None


def _audit(
    record: Mapping[str, Any],
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    report: Report,
    queued: Signatures,
) -> None:
    game = _record(report, record)
    hashes, shown = _chain(report, game, queued)
    _receipts(report, game, receipts, hashes, shown)
    anchors, pages = _randomness(report, game, receipts, queued)
    _replay(report, game, anchors, pages, queued)


@dataclass(frozen=True)
class _Game:
    """The record as every check after the first reads it: in the one form, its events
    parsed, its scenario as the rules read it."""

    record: Mapping[str, Any]
    version: int
    id: str
    events: list[Event]
    setup: Mapping[str, Any]
    key: str
    scenario: Scenario
    sides: tuple[str, ...]
    secrets: Secrets


def _record(report: Report, record: Mapping[str, Any]) -> _Game:
    """0. one form only: a record that means the same but is written otherwise is another
    record, and the hashes cannot always tell (RFC 8785 writes 0.0 as 0)."""
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        fail(report, "record", None, f"is not a {FORMAT} record")
    wrong = strict.problem(strict.RecordForm, record)
    if wrong:
        fail(report, "record", None, f"is not in the form ghillie writes ({wrong})")
    version = version_of(record)
    if version is None:
        fail(report, "record", 0, "the first event does not set the game up")
    if type(version) is not int or version not in VERSIONS:
        fail(report, "record", 0, _unknown_version(version))
    report.version = version
    event_form, _ = strict.forms(version)
    for index, raw in enumerate(record["events"]):
        wrong = strict.problem(event_form, raw)
        if not wrong and ("setup" in raw["fair"]) != (index == 0):
            wrong = "fair.setup: only the first event sets the game up"
        if wrong:
            fail(report, "record", index, f"is not in the form ghillie writes ({wrong})")
    report.game, report.ruleset = record["game"], record["ruleset"]
    events = [event_from_json(e) for e in record["events"]]
    report.events = len(events)
    setup = events[0].fair["setup"] if events[0].fair else {}
    key = setup["key"]
    scenario = _scenario(report, record)
    return _Game(
        record,
        version,
        record["game"],
        events,
        setup,
        key,
        scenario,
        scenario.side_ids(),
        # The audit never signs: the host's signing key is not in the record.
        Secrets.from_json({**record["secrets"], "key": "00" * 32}),
    )


def _chain(report: Report, game: _Game, queued: Signatures) -> tuple[list[str], list[list[str]]]:
    """1. chain, and what each side was shown: every event's hash and (protocol 4) the
    sides' digests its head signs."""
    hashes: list[str] = []
    shown: list[list[str]] = []
    head = genesis(game.id)
    for index, (event, raw) in enumerate(zip(game.events, game.record["events"], strict=True)):
        fair = event.fair or {}
        if event.seq != index:
            fail(report, "chain", index, f"is numbered {event.seq}: an event is missing or moved")
        body = hashed(raw)
        # Walked once for what canonical JSON must not write as it is (a float, say): what
        # each side was shown is parts of it.
        plain = as_is(body)
        head = event_hash(head, body, known_as_is=plain)
        if fair.get("hash") != head.hex():
            fail(report, "chain", event.seq, "its hash does not follow from the log before it")
        if game.version >= 4:
            digests = _shown(report, game.secrets.dummy, event, game.sides, plain)
            message = head_message_v2(game.id, event.seq, head, digests)
            shown.append([d.hex() for d in digests])
        else:
            message = head_message(game.id, event.seq, head)
        # One spelling only: a signature in capitals would verify, yet be another record.
        queued.check(
            game.key,
            message,
            fair.get("sig", ""),
            ("chain", event.seq, "the host's signature on this head is not valid"),
        )
        hashes.append(head.hex())
    time.outages(report, game.events)
    return hashes, shown


def _receipts(
    report: Report,
    game: _Game,
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    hashes: list[str],
    shown: list[list[str]],
) -> None:
    """2. receipts: every page's kept heads and requests lie on this chain, and (protocol
    4) its account of time agrees with the record's."""
    _, receipts_form = strict.forms(game.version)
    chain = receipts_.Chain(
        game.id, game.key, game.events, hashes, shown, receipts_form, game.sides
    )
    for side, kept in receipts:
        receipts_.check(report, chain, kept)
        if game.version >= 4:
            time.check(report, side, kept, game.events)


def _randomness(
    report: Report,
    game: _Game,
    receipts: list[tuple[str | None, Mapping[str, Any]]],
    queued: Signatures,
) -> tuple[dict[str, str], list[tuple[str, Mapping[str, Any]]]]:
    """3. randomness: who rolls, the seeds behind every chain and the key behind the
    signatures. Gives every party's anchor, and the pages that kept receipts by side."""
    setup, sides, secrets, events = game.setup, game.sides, game.secrets, game.events
    anchors = parties(report, setup, sides, secrets)
    receipts_.page_anchors(report, receipts, anchors, sides, secrets, events)
    pages = receipts_.owners(receipts, anchors, sides, events) if game.version >= 4 else []
    for side, kept in pages:
        receipts_.seat(report, side, kept, setup, events)
    if game.version < 4:
        # What each side was shown of each event, signed by the host for each side alone
        # (fair.shown), and what its page kept of it (receipts.shown).
        views = _shown_v3(report, game.id, game.key, events, sides, queued)
        for page, kept in receipts:
            receipts_.views_v3(report, game.id, game.key, page, kept, views, sides)
    report.held = sorted(secrets.held)
    for party, seed in [(HOST, secrets.host_seed), *secrets.held.items()]:
        if Chain.from_seed(seed, LENGTH).anchor.hex() != anchors.get(party):
            fail(report, "randomness", 0, f"{party}'s revealed seed does not grow its anchor")
    if setup.get("dice") == "injected":
        fail(report, "randomness", 0, "the dice were injected, not drawn from the chains")
    size = roster_size(game.scenario)
    if setup.get("roster") != size:
        fail(report, "record", 0, f"it does not set up rosters of {size} slots")
    return anchors, pages


def _replay(
    report: Report,
    game: _Game,
    anchors: dict[str, str],
    pages: list[tuple[str, Mapping[str, Any]]],
    queued: Signatures,
) -> None:
    """4 and 5, orders, replay and commitments: every event ruled on again, its roll
    recomputed, its rosters rebuilt."""
    # Which page was asked for which roll, and answered (it kept the host's request).
    asked = {(req["k"], side) for side, kept in pages for req in kept["requests"]}
    Replay(report, game.record, game.scenario, game.secrets, anchors, queued, asked).run(
        game.events
    )


def _unknown_version(version: Any) -> str:
    if version == 1:
        return (
            "it was written under protocol version 1 (Merkle rosters, before 1 December "
            "2026), which this ghillie cannot check: audit it with ghillie at commit 950c1b3"
        )
    return f"it was written under protocol version {version!r}, which this ghillie cannot check"


def _shown(
    report: Report, dummy: bytes, event: Event, sides: tuple[str, ...], event_as_is: bool
) -> list[bytes]:
    """Each side's salted digest of what the record says it was shown of ``event``, in the
    game's side order; the record's own (``fair.shown``) must be exactly these.
    ``event_as_is``: as :func:`~ghillie.fairness.hashlog.shown_digest_v2`'s."""
    fair = event.fair or {}
    recorded = fair["shown"]
    if sorted(recorded) != sorted(sides):
        fail(
            report,
            "record",
            event.seq,
            "is not in the form ghillie writes (fair.shown: not one for each side)",
        )
    digests = []
    for side in sides:
        salt = shown_salt(dummy, side, event.seq)
        content = shown_content(event.seq, fair, event.told.get(side, []), side)
        digest = shown_digest_v2(salt, content, event_as_is=event_as_is)
        if recorded[side] != {"salt": salt.hex(), "digest": digest.hex()}:
            fail(
                report,
                "chain",
                event.seq,
                f"what {side} was shown at event {event.seq} is not what the record holds",
            )
        digests.append(digest)
    return digests


def _shown_v3(
    report: Report,
    game_id: str,
    public_key: str,
    events: list[Event],
    sides: tuple[str, ...],
    queued: Signatures,
) -> list[dict[str, str]]:
    """Protocol 3 and before: every event's ``fair.shown[side]`` is the host's valid
    signature over what the record says that side was shown (its lines and its proof).
    Gives the digest of each, by event and side, for the pages' receipts."""
    views: list[dict[str, str]] = []
    for event in events:
        fair = event.fair or {}
        shown = fair["shown"]
        if sorted(shown) != sorted(sides):
            fail(
                report,
                "record",
                event.seq,
                "is not in the form ghillie writes (fair.shown: not one for each side)",
            )
        digests = {}
        for side in sides:
            content = shown_content(event.seq, fair, event.told.get(side, []), side)
            digest = shown_digest(content)
            queued.check(
                public_key,
                shown_message(game_id, event.seq, side, digest),
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


def _scenario(report: Report, record: Mapping[str, Any]) -> Scenario:
    # The one look-up of the registry: the audit is an edge, as the CLI and the server are.
    try:
        data = {**record["scenario"], "ruleset": record["ruleset"]}
        scenario = parse_scenario(registry.get(str(data["ruleset"])).scenario_model, data)
        check_capacity(scenario)
    except (ScenarioError, KeyError, ValueError) as exc:
        fail(report, "record", 0, f"its scenario cannot be read ({exc})")
        raise  # unreachable: _fail raises
    # The host records the scenario as the rules read it; a reader that accepts true for 1
    # or 0.0 for 0 would let another record of the same game pass.
    if strict.exact(scenario.model_dump(mode="json", by_alias=True)) != strict.exact(
        record["scenario"]
    ):
        fail(report, "record", 0, "its scenario is not in the form ghillie writes")
    return scenario
