"""kill -9 a real ``ghillie serve`` again and again while a page-held game's roll waits for
one side's element (issue 10, finding 3), with the two sides' pages played by this test
over the API, each holding its own chain.

Every time: the ordering side's page has given its element, the other's has not; the server
is killed and started again on the same SQLite file. Afterwards the same signed request is
shown, with the element already in; the other side's order given meanwhile is refused
(``roll_pending``), not asked for; the other page's element resolves the roll; the original
command's retry (same id) gets its answer. At the end the record passes ``ghillie audit``
with every request either side was shown as its receipts: no roll was asked for twice.
``GHILLIE_ROLL_KILLS`` sets the number of kills (10 by default).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import threading
import time
from collections import Counter
from typing import Any

from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.ledger import head_receipt

from .test_durability import Server, request

STATS: Counter[str] = Counter()
KILLS = int(os.environ.get("GHILLIE_ROLL_KILLS", "10"))
SIDES = ("jungle", "orks")


class Table:
    """The game over the API: both sides' tokens and chains, and every request shown."""

    def __init__(self, server: Server, game: str, tokens: dict[str, str]) -> None:
        self.server, self.game, self.tokens = server, game, tokens
        self.chains = {side: Chain.fresh(KILLS + 16)[1] for side in SIDES}
        self.requests: list[dict[str, Any]] = []
        self.key = ""

    def call(self, side: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return request(
            self.server.port, method, f"/api/games/{self.game}{path}", body, self.tokens[side]
        )

    def fairness(self) -> dict[str, Any]:
        status, view = self.call("orks", "GET", "/view")
        assert status == 200, view
        fair: dict[str, Any] = view["fairness"]
        self.key = self.key or fair["key"]
        if fair["request"] is not None and fair["request"] not in self.requests:
            self.requests.append(fair["request"])
        return fair

    def until(self, what: str, condition: Any) -> dict[str, Any]:
        """Poll the status until ``condition`` holds (a bound, not a timing)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            fair = self.fairness()
            if condition(fair):
                return fair
            time.sleep(0.01)
        raise AssertionError(f"never: {what}")

    def give(self, side: str, k: int) -> None:
        element = self.chains[side].element(k).hex()
        status, answer = self.call(side, "POST", "/contributions", {"k": k, "element": element})
        assert status == 200, answer

    def order(self, side: str, command_id: str, command: dict[str, Any]) -> threading.Thread:
        """Send a command in the background: its answer waits for the roll (or the kill)."""

        def send() -> None:
            with contextlib.suppress(OSError, http.client.HTTPException):
                self.call(side, "POST", "/commands", {"command_id": command_id, "command": command})

        thread = threading.Thread(target=send, daemon=True)
        thread.start()
        return thread


def test_a_page_held_roll_survives_repeated_kill_9_between_request_and_contributions(
    tmp_path: Any,
) -> None:
    from .test_durability import free_port

    server = Server(tmp_path / "ghillie.db", free_port())
    server.start()
    try:
        status, created = request(
            server.port,
            "POST",
            "/api/games",
            {"scenario": "grid-ambush-table", "chains": "clients"},
        )
        assert status == 201
        tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
        table = Table(server, created["game_id"], tokens)
        for side in SIDES:
            table.call(side, "POST", "/anchor", {"anchor": table.chains[side].anchor.hex()})
        for side in SIDES:
            table.give(side, 0)
        # The Veterans write their ambush orders (none, DWV-R04); both sides get ready.
        orders = {"type": "record_ambushes", "orders": []}
        ready = {"type": "ready"}
        for k, side, command in ((1, "jungle", orders), (2, "jungle", ready), (3, "orks", ready)):
            sent = table.order(side, f"c{k}", command)
            table.until(f"roll {k} asked", lambda f, k=k: f["request"] and f["request"]["k"] == k)
            for party in SIDES:
                table.give(party, k)
            sent.join(10)

        for kill in range(KILLS):
            k = 4 + kill
            side = SIDES[(kill // 3) % 2]  # three phases a turn, then the other side's
            other = SIDES[1 - SIDES.index(side)]
            sent = table.order(side, f"c{k}", {"type": "end_phase"})
            asked = table.until(
                f"roll {k} asked", lambda f, k=k: f["request"] and f["request"]["k"] == k
            )["request"]
            table.give(side, k)  # the ordering side's page answers; the other's is away
            table.until("one element in", lambda f, o=other: f["waiting"] == [o])
            server.kill()
            sent.join(10)
            server.start()
            STATS["kill -9 survived with a roll waiting"] += 1
            fair = table.fairness()
            assert fair["request"] == asked, "another request for the same roll"
            assert fair["waiting"] == [other]
            status, refused = table.call(
                other, "POST", "/commands", {"command_id": f"o{k}", "command": {"type": "end_game"}}
            )
            assert (status, refused["code"]) == (409, "roll_pending"), refused
            STATS["other orders refused while the roll waited"] += 1
            table.give(other, k)
            status, answer = table.call(
                side, "POST", "/commands", {"command_id": f"c{k}", "command": {"type": "end_phase"}}
            )
            assert (status, answer["seq"]) == (200, k), answer
            STATS["original commands answered after the restart"] += 1

        k = 4 + KILLS
        sent = table.order("jungle", "end", {"type": "end_game"})
        table.until("the last roll asked", lambda f: f["request"] and f["request"]["k"] == k)
        for party in SIDES:
            table.give(party, k)
        sent.join(10)
        status, record = table.call("jungle", "GET", "/record")
        assert status == 200, record
    finally:
        server.kill()
    heads = [head_receipt(e["seq"], e["fair"], SIDES) for e in record["events"]]
    requests = [
        {key: r[key] for key in ("game", "k", "side", "commitment", "prev", "order", "sig")}
        for r in table.requests
    ]
    kept = {"key": table.key, "heads": heads, "requests": requests}
    report = audit({**record, "receipts": dict.fromkeys(SIDES, kept)})
    assert report.ok, report.findings
    assert report.events == k + 1
    assert sorted(r["k"] for r in requests) == list(range(1, k + 1))  # each roll asked once
    print(f"\n{dict(STATS)}")
