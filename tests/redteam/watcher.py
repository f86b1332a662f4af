"""A curious opponent that watches everything its side receives and guesses whether the other
side's secrets changed (issue 24's bluff-versus-move simulation).

A *transcript* is what one side receives: a list of JSON messages (its log entries with their
proofs, its statuses). The watcher reads only what is there, never the other side's secrets:

- every list of leaves it is shown (an opening's, and a write proof's), by the side and event
  of the root it belongs to; how many leaves two lists of different events share (a list
  shown at event ``s`` and one shown later share exactly the leaves of the slots that were
  not written in between, if the roster was not blinded afresh between them);
- every 64-hex-digit string (roots, nonces, blinding values, salts, digests, signatures,
  leaves) and where it repeats across messages;
- how many messages, strings and bytes it received.

Each of these is a number per transcript (:func:`features`). The watcher learns, on half of
the seeds, the rule on one number that best tells a move from a bluff (a threshold, either
way round) and is scored on the other half (:func:`score`). It is scored beside a paired
check that needs no learning: for each seed, the two worlds' transcripts with every proof
string replaced by the place it first appeared (``tests.contract.harness.comparable``) —
identical patterns mean nothing in the proofs can tell the worlds apart.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HEX = re.compile(r"^[0-9a-f]{64,}$")


def _walk(value: Any, path: tuple[Any, ...] = ()) -> Iterable[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, Mapping):
        for key in sorted(value):
            yield from _walk(value[key], (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, (*path, i))


def shown_lists(transcript: Sequence[Any]) -> dict[tuple[str, int], frozenset[str]]:
    """Every list of leaves the transcript shows, by (owning side, event of its root)."""
    out: dict[tuple[str, int], frozenset[str]] = {}
    for message in transcript:
        for _, value in _walk(message):
            if not (isinstance(value, Mapping) and "leaves" in value and "side" in value):
                continue
            side = value["side"]
            if isinstance(value.get("root_seq"), int):
                out.setdefault((side, value["root_seq"]), frozenset(value["leaves"]))
            written = value.get("written")
            if isinstance(written, Mapping) and isinstance(written.get("seq"), int):
                out.setdefault((side, written["seq"]), frozenset(written["leaves"]))
    return out


def features(transcript: Sequence[Any]) -> dict[str, float]:
    lists = shown_lists(transcript)
    shared = [
        len(lists[a] & lists[b])
        for a, b in itertools.combinations(sorted(lists), 2)
        if a[0] == b[0]
    ]
    where: dict[str, set[int]] = defaultdict(set)
    for index, message in enumerate(transcript):
        for _, value in _walk(message):
            if isinstance(value, str) and HEX.match(value):
                where[value].add(index)
    text = json.dumps(transcript, sort_keys=True)
    return {
        "lists shown": len(lists),
        "most leaves two lists share": max(shared, default=0),
        "leaves shared in all": sum(shared),
        "lists that share a leaf": sum(1 for n in shared if n),
        "strings repeated across messages": sum(1 for w in where.values() if len(w) > 1),
        "distinct strings": len(where),
        "messages": len(transcript),
        "bytes": len(text),
    }


def pattern(transcript: Sequence[Any]) -> str:
    """The transcript with every proof string replaced by where it first appeared."""
    from tests.contract.harness import comparable

    return json.dumps(comparable({"t": list(transcript)}), sort_keys=True)


@dataclass
class Score:
    seeds: int
    accuracy: float  # the learned watcher's, on the held-out half
    low: float  # 95 % Wilson interval
    high: float
    feature: str  # the number it chose
    same_pattern: int  # seeds whose two worlds show identical patterns of repeats
    means: dict[str, tuple[float, float]]  # feature -> (mean in moves, mean in bluffs)

    def __str__(self) -> str:
        spread = ", ".join(f"{k}: {a:.1f}/{b:.1f}" for k, (a, b) in self.means.items() if a != b)
        return (
            f"{self.seeds} seeds: the watcher told a move from a bluff in {self.accuracy:.1%} "
            f"(95% CI {self.low:.1%}-{self.high:.1%}) using '{self.feature}'; "
            f"identical patterns in {self.same_pattern}/{self.seeds} pairs"
            + (f"; means move/bluff differ: {spread}" if spread else "")
        )


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _best_rule(rows: list[tuple[dict[str, float], bool]]) -> tuple[str, float, bool]:
    """The feature, threshold and direction (moves above?) that best split ``rows``."""
    best = ("messages", math.inf, True)
    best_right = -1
    for name in rows[0][0]:
        values = sorted({r[0][name] for r in rows})
        cuts = [(a + b) / 2 for a, b in itertools.pairwise(values)] or [math.inf]
        for cut in cuts:
            for above in (True, False):
                right = sum(1 for f, moved in rows if (f[name] > cut) == (moved == above))
                if right > best_right:
                    best, best_right = (name, cut, above), right
    return best


def public(transcript: Sequence[Any]) -> str:
    """Everything in a transcript but its proof strings: what the watcher knows of the
    game's public course (the same in both worlds of a pair), to compare like with like."""

    def strip(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        if isinstance(value, str) and HEX.match(value):
            return "#"
        return value

    return json.dumps(strip(list(transcript)), sort_keys=True)


def score(pairs: Sequence[tuple[Sequence[Any], Sequence[Any]]]) -> Score:
    """``pairs``: per seed, (what the watcher received when the secret changed, when it
    did not). Of the seeds of each public course, every other one trains the watcher and
    the rest score it. The watcher knows the
    game's public course, so it learns its rule for each course apart (a course it never
    trained on gets the rule learnt over all)."""
    rows = [(features(m), features(b), public(m)) for m, b in pairs]
    for m, b in pairs:
        assert public(m) == public(b), "the two worlds differ in what they tell openly"
    train: dict[str, list[tuple[dict[str, float], bool]]] = defaultdict(list)
    everything: list[tuple[dict[str, float], bool]] = []
    # Alternate along the seeds sorted by course: each course of two seeds or more is both
    # learnt and scored.
    order = sorted(range(len(rows)), key=lambda i: (rows[i][2], i))
    trains = [False] * len(rows)
    for n, i in enumerate(order):
        trains[i] = n % 2 == 0
    for (fm, fb, course), trained in zip(rows, trains, strict=True):
        if trained:
            train[course] += [(fm, True), (fb, False)]
            everything += [(fm, True), (fb, False)]
    overall = _best_rule(everything)
    rules = {course: _best_rule(r) for course, r in train.items()}
    right = total = 0
    chosen: dict[str, int] = defaultdict(int)
    for (fm, fb, course), trained in zip(rows, trains, strict=True):
        if trained:
            continue
        name, cut, above = rules.get(course, overall)
        chosen[name] += 1
        for f, moved in ((fm, True), (fb, False)):
            total += 1
            right += (f[name] > cut) == (moved == above)
    low, high = wilson(right, total)
    same = sum(1 for m, b in pairs if pattern(m) == pattern(b))
    means = {
        k: (
            sum(r[0][k] for r in rows) / len(rows),
            sum(r[1][k] for r in rows) / len(rows),
        )
        for k in rows[0][0]
    }
    feature = max(chosen, key=lambda k: chosen[k]) if chosen else overall[0]
    return Score(len(pairs), right / max(total, 1), low, high, feature, same, means)
