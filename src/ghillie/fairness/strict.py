"""The one form of a record and of a page's receipts, for the audit.

A record the audit accepts must be exactly what ghillie writes, not merely something that
means the same: RFC 8785 writes ``0.0`` as ``0``, so the hash chain cannot tell them apart,
and Python's ``==`` says ``True == 1`` and ``0.0 == 0``, so neither can a comparison of
values. Whatever the audit recomputes (the events' rulings, the roots, the openings, the
scenario) it compares with :func:`exact`; the rest (secrets, proofs, ids, receipts) must
have exactly these fields, of exactly these JSON types, hex in lowercase of its length.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

Hex32 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{128}$")]
Named = Annotated[str, StringConstraints(min_length=1)]


def exact(value: Any) -> str:
    """JSON text that tells ``1``, ``1.0`` and ``true`` apart (key order aside)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, allow_nan=False)


_SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def same(a: Any, b: Any) -> bool:
    """Do ``a`` and ``b`` hold the same JSON, ``1``, ``1.0`` and ``true`` told apart (key
    order aside)? As ``exact(a) == exact(b)``, at a fifth of the cost (the audit compares
    every event it rules on again): ``==`` first, which tells every value apart but those
    three, then orjson's text, which tells them apart. orjson writes NaN as null where
    ``exact`` refuses it; ``==`` tells NaN from null, and an event holding NaN never gets
    here (its hash, RFC 8785, refuses it first)."""
    if a != b:
        return False
    try:
        return orjson.dumps(a, option=_SORTED) == orjson.dumps(b, option=_SORTED)
    except TypeError:  # an integer past 64 bits: the standard library's text
        return exact(a) == exact(b)


class _Strict(BaseModel):
    # strict: no coercion (0.0 is not an int, true is not 1); forbid: no unknown field.
    model_config = ConfigDict(strict=True, extra="forbid")


class Party(_Strict):
    party: str
    anchor: Hex32
    held: bool


class SetupV3(_Strict):
    version: int
    key: Hex32
    parties: list[Party]
    roster: int
    length: int
    dice: Literal["injected"] | None = None


class Setup(SetupV3):
    # Each side's seat key at the start: its orders carry its signature (null: host-acted).
    seats: dict[str, Hex32 | None]
    wait: int | None  # seconds a roll waits for a page's element (null: for ever)


class Fact(_Strict):
    side: str
    piece: str
    key: str
    slot: int
    salt: Hex32
    seq: int


class PrivateV3(_Strict):
    host: Hex32
    salt: Hex32
    facts: list[Fact]
    ids: list[str]


class SignedOrder(_Strict):
    """A side's command as its seat key signed it (hashlog.order_message)."""

    id: Named
    command: dict[str, Any]
    sig: Hex64


class Private(PrivateV3):
    order: SignedOrder | None = None


class WrittenAtV3(_Strict):
    """When a fact that never changes was written: its blinding value and the leaves of the
    root published then (ghillie.fairness.roster_v2)."""

    seq: int
    blind: Hex32
    leaves: list[Hex32]


class WrittenAt(WrittenAtV3):
    nonce: Hex32  # the nonce of that root (ghillie.fairness.roster)


class OpeningV3(_Strict):
    # The value is any JSON: it is compared whole with the one recomputed, as is the rest.
    side: str
    piece: str
    key: str
    value: Any
    salt: Hex32
    blind: Hex32
    root_seq: int
    leaves: list[Hex32]
    written: WrittenAtV3 | None = None  # only for the ruleset's fixed facts, and never null


class Opening(OpeningV3):
    nonce: Hex32
    written: WrittenAt | None = None


class FairV3(_Strict):
    request: Hex32
    contributions: dict[str, Hex32]
    roots: dict[str, Hex32]
    openings: dict[str, list[OpeningV3]]  # and compared whole with the ones recomputed
    private: PrivateV3
    setup: SetupV3 | None = None
    chains: dict[str, Hex32] | None = None  # sides whose new dice chain starts here
    hash: Hex32
    sig: Hex64
    shown: dict[str, Hex64]


class ShownTo(_Strict):
    """A side's salted digest of what it was shown of an event (signed with the head)."""

    salt: Hex32
    digest: Hex32


class Fair(_Strict):
    request: Hex32
    order: Hex32 | None = None  # the digest of the signed order the event carries out
    contributions: dict[str, Hex32]
    roots: dict[str, Hex32]
    openings: dict[str, list[Opening]]  # and compared whole with the ones recomputed
    private: Private
    setup: Setup | None = None
    chains: dict[str, Hex32] | None = None  # sides whose new dice chain starts here
    keys: dict[str, Hex32] | None = None  # sides whose new seat key starts here
    missing: list[str] | None = None  # sides the roll was drawn without
    hash: Hex32
    sig: Hex64
    shown: dict[str, ShownTo]


class EventFormV3(_Strict):
    # The ruling itself (command, effects, rolls, told) is compared with the replay's.
    seq: int
    side: str | None
    command: dict[str, Any] | None
    effects: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    told: dict[str, list[dict[str, Any]]]
    at: str | None = None  # the host's time, for an event whose ruling read it
    fair: FairV3


class EventForm(EventFormV3):
    fair: Fair  # type: ignore[assignment]


class Secrets(_Strict):
    host_seed: Hex32
    dummy: Hex32
    held: dict[str, Hex32]


class RecordForm(_Strict):
    format: str
    game: str
    ruleset: str
    scenario: dict[str, Any]
    secrets: Secrets
    events: list[dict[str, Any]]  # each checked as an EventForm, to name the event
    receipts: dict[str, dict[str, Any]] | None = None


class HeadV3(_Strict):
    seq: int
    hash: str  # the spelling of hash and sig is the signature check's to judge
    sig: str


class Head(HeadV3):
    shown: list[str]  # every side's digest of what it was shown, signed with the head


class AskedV3(_Strict):
    game: str
    k: int
    side: Named | None  # null for event 0, as the page writes it; never "" (it signs the same)
    commitment: str
    prev: str
    sig: str


class Asked(AskedV3):
    order: str  # the digest of the signed order it is for ("" for none)


class Shown(_Strict):
    """The host's signature on what a side's page was shown of one event (its digest)."""

    seq: int
    digest: Hex32
    sig: str


class ReceiptsV3(_Strict):
    """What a side's page keeps: the host's key, and every head and request it was shown."""

    # The host's signature on what the page was shown of each event (older pages kept none).
    shown: list[Shown] = []
    key: str
    heads: list[HeadV3]
    requests: list[AskedV3]
    anchor: Hex32 | None = None  # the anchor of the chain the page held, if it held one
    # The roll that chain's first element is for: a page that took a seat over with a new
    # chain (docs/fairness.md, "Seats"); absent for the chain of the set-up.
    chain_from: int | None = None


class KeptOrder(_Strict):
    """An order a page signed and sent: its command id, the roll it was signed for, the
    digest of its signature (what the host's request must quote), when the page sent it
    (the page's own clock, in milliseconds) and, if the host refused it, the refusal's code."""

    id: str
    k: int
    digest: Hex32
    sent: int
    refused: Named | None = None


class KeptWindow(_Strict):
    """A timed reaction window as it reached a page: the event that opened it, its limit in
    seconds, how long the host said was left (milliseconds, its end against its time then),
    when it came by the page's clock (milliseconds), whether it came on a connection the page
    already had (``live``: not in the whole view of a new one) and whether it asked this side."""

    seq: int
    limit: int
    left: int
    received: int
    live: bool
    asked: bool


class Receipts(_Strict):
    """What a side's page keeps since protocol 4: the host's key, every head (with every
    side's digest of what it was shown) and request it was shown, the orders it signed, and
    its seat key."""

    key: str
    heads: list[Head]
    requests: list[Asked]
    anchor: Hex32 | None = None  # the anchor of the chain the page held, if it held one
    chain_from: int | None = None
    seat: Hex32 | None = None  # the public seat key its orders were signed with
    orders: list[KeptOrder] = []
    windows: list[KeptWindow] = []


def forms(version: int) -> tuple[type[BaseModel], type[BaseModel]]:
    """The form of each event, and of a page's receipts, in a record of ``version``."""
    if version >= 4:
        return EventForm, Receipts
    return EventFormV3, ReceiptsV3


_WORDS = {
    "extra_forbidden": "a field ghillie does not write",
    "missing": "a field is missing",
    "int_type": "not a whole number",
    "bool_type": "not true or false",
    "string_type": "not text",
    "string_pattern_mismatch": "not lowercase hex of the right length",
    "string_too_short": "empty",
    "dict_type": "not an object",
    "list_type": "not a list",
    "literal_error": "not a value ghillie writes",
}


def problem(model: type[BaseModel], value: Any) -> str | None:
    """None if ``value`` has exactly the form of ``model``; else where and what is wrong."""
    try:
        model.model_validate(value)
    except ValidationError as error:
        first = error.errors(include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "the top level"
        return f"{where}: {_WORDS.get(first['type'], 'malformed')}"
    return None
