"""The game record: the whole log, every secret now revealed, in one JSON file.

A record is what ``ghillie audit`` checks and ``ghillie replay`` prints. It holds the header
(ruleset and scenario), the host's secrets (its chain seed, its signing key, the roster dummy
key and the seeds of host-held chains) and every event as stored, each with its hash and the
host's signature. A side's page adds the receipts it kept during play under ``receipts``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ghillie.events import Event, event_to_json

FORMAT = "ghillie-record/1"


def make_record(game_id: str, header: Mapping[str, Any], events: Sequence[Event]) -> dict[str, Any]:
    fair = dict(header["fair"])
    return {
        "format": FORMAT,
        "game": game_id,
        "ruleset": header["ruleset"],
        # A copy: a record is its caller's to keep or alter (the audit's tests do), and a
        # live game's header shares its scenario with every game of that scenario.
        "scenario": copy.deepcopy(header["scenario"]),
        # Never the signing key: published, it would let anyone forge the signed heads the
        # sides keep as receipts. The public key is in the first event.
        "secrets": {k: fair[k] for k in ("host_seed", "dummy", "held")},
        "events": [event_to_json(e) for e in events],
    }
