"""The audit's signature checks, run on other threads while it goes on with the rest.

Verifying an Ed25519 signature is the audit's largest single cost (a head's an event, and
each order a page signed; about 100 µs each here). cryptography lets go of the GIL while
OpenSSL verifies only from pyca/cryptography#15164 (merged July 2026) on; 50.0.2 holds it (a
verifying thread and a busy one take as long as the two one after the other), so until then
these threads take turns with the replay, no slower than checking each in its place (both
measured for issue 28). What is verified does not change, nor which problem the audit names:
a signature check is queued where it used to run, and when the audit stops (a problem found,
or the record read to its end) the queued checks are settled in the order they were queued.
If one fails, it is the first problem (it came before anything found later), exactly as when
every check ran in its place.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

from ghillie.fairness.hashlog import SIGNATURE, verify

BATCH = 64  # checks a task: a task's hand-off costs the auditing thread, not its checks
WORKERS = 2

# What the audit names if a check fails: (check, event, message).
Problem = tuple[str, int | None, str]
_Check = tuple[str, bytes, str | None, Problem]


class Signatures:
    """Signature checks queued in order, verified by a pool of threads."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self._pool = pool
        self._batch: list[_Check] = []
        self._queued: list[Future[Problem | None]] = []

    def check(self, public: str, message: bytes, signature: str, problem: Problem) -> None:
        """Queue: ``signature`` must be the hex of a signature of ``message`` under
        ``public``; if not, ``problem`` is what the audit names. Its spelling is checked
        here, as before (a signature that is not text cannot be read: that stops the audit
        where it is found)."""
        spelled = SIGNATURE.fullmatch(signature) is not None
        self._batch.append((public, message, signature if spelled else None, problem))
        if len(self._batch) >= BATCH:
            self._send()

    def first_problem(self) -> Problem | None:
        """Wait for every queued check: the first one that fails, in the order queued."""
        self._send()
        for task in self._queued:
            problem = task.result()
            if problem is not None:
                return problem
        return None

    def _send(self) -> None:
        if self._batch:
            self._queued.append(self._pool.submit(_first_failing, self._batch))
            self._batch = []


def _first_failing(batch: list[_Check]) -> Problem | None:
    for public, message, signature, problem in batch:
        if signature is None or not verify(public, message, signature):
            return problem
    return None


@contextmanager
def signatures() -> Iterator[Signatures]:
    """A queue of checks with threads of its own, gone when the audit is done (checks left
    unsettled after a failure are dropped, not waited for)."""
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="ghillie-audit")
    try:
        yield Signatures(pool)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
