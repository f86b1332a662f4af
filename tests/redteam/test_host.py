"""Red team, issue 24: a dishonest host against signed orders, the rolls that go on without a
page, and the audit (tests/redteam/host.py: the real hub, the host free to call or patch it).

Held (guards): an order carried out at another roll than the one it was signed for, under
another command id, as another command, or unsigned for a side with a key — each fails the
audit, the victim's page having refused its element (tests/server/test_fairplay_js.py plays
the page's side of each).

Found, and fixed (each test now guards it; the fixes are in audit/receipts.py ``seat``,
audit/replay.py ``elements`` and ``answered``, and cli/audit.py):

1. **A roll drawn "without" a page whose element came** (high): ``fair.missing`` was the
   host's word. A host that has a page's element can throw it away and draw the roll
   without it — after seeing both results, since it knows its own element and the other
   sides' — and neither the page (a note: "it did not give it in time") nor the audit,
   given that page's receipts, objected. Fixed in the audit: a roll drawn without a side
   whose page kept the host's request for it (a page keeps one it refuses only for an order
   of its side it did not give, which the orders check names first) fails. Left to the
   page (fairplay.js): the alarm, and keeping when it was asked and when it answered, so
   that a page that answered only as the wait ran out is the network's, not the host's.
2. **A seat key swapped at the set-up passed the audit with the victim's receipts**
   (medium): the page keeps the key it signs with (``receipts.seat``), but the audit never
   compared it with the set-up's ``seats``; a host that registered its own key for a side
   signs orders in its name and draws their rolls without that page. Fixed: the key a page
   kept must be the set-up's for its side (a page that took its seat over: one that
   ``fair.keys`` gave it).
3. **A seat key changed in mid-game while the page followed the game** (medium): the same
   with ``fair.keys``, the way a seat taken over is recorded. A seat taken over shows the
   old device nothing more (``seat_taken``), so a page whose receipts go on past the event
   that gave its side another key was never taken over. Fixed: the audit fails that event.
4. **Rolls drawn without a page in a game that waits for ever** (low): ``setup.wait`` null
   promises every page that no roll goes on without it; the audit took ``fair.missing``
   all the same. Fixed: only a time-out's roll, without the sides whose time ran out.
5. **``ghillie audit`` named neither missing rolls nor host-acted orders** (low). Fixed: a
   passed audit names them by side and event, the seat keys that changed and the protocol
   version, in words and in ``--json``.
"""

from __future__ import annotations

from typing import Any

import pytest

from ghillie.fairness.audit import audit
from ghillie.fairness.hashlog import HostKey, order_message
from ghillie.fairness.ledger import HOST, Order
from ghillie.fairness.stream import roll_key
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

from ..timed import registered
from .host import END, SHOOT, STEP, Page, answer, give, pages, run, start

__all__ = ["registered"]
pytestmark = pytest.mark.usefixtures("registered")
HOST_SEAT = HostKey.from_bytes(bytes([99]) * 32)  # a seat key the host made for blue


async def _end(hub: Hub, game: str, sides: dict[str, Page], k: int) -> dict[str, Any]:
    """Red ends the game (signed, every page answering) and the record is published."""
    ended = give(hub, game, "red", END, f"end-{k}", sides["red"].sign(game, k, f"end-{k}", END))
    await answer(hub, game, sides, k)
    await ended
    return await hub.record(game)


# --- held: an order the side did not sign for this roll, as this command --------------------


@pytest.mark.parametrize("how", ["another roll", "another id", "another command", "unsigned"])
def test_an_order_the_side_did_not_sign_so_fails_the_audit(how: str) -> None:
    """The host carries out, in blue's name, an order blue's page did not sign as carried
    out: the signature of its order for roll 1 again at roll 2, under another command id,
    for another command, or none. Blue's page refuses its element (the request quotes no
    order it signed for that roll), so the host draws the roll without it; the audit names
    the event."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        sides = pages()
        honest = hub.commands._order

        async def dishonest(
            ledger: Any, side: Any, command_id: str, raw: Any, signed: Any
        ) -> Order | None:
            if command_id != "forged":
                return await honest(ledger, side, command_id, raw, signed)
            if how == "unsigned":
                return None
            _, old = first  # blue's signature of its order for roll 1
            command = STEP if how == "another roll" else dict(raw)
            return Order("forged" if how == "another id" else "s1", command, old)

        try:
            game = await start(hub, sides)
            first = sides["blue"].sign(game, 1, "s1", STEP)
            stepped = give(hub, game, "blue", STEP, "s1", first)
            await answer(hub, game, sides, 1)
            await stepped
            shot = give(hub, game, "red", SHOOT, "a2", sides["red"].sign(game, 2, "a2", SHOOT))
            await answer(hub, game, sides, 2)
            await shot
            hub.commands._order = dishonest  # type: ignore[method-assign]
            forged = give(
                hub, game, "blue", END if how == "another command" else STEP, "forged", None
            )
            await answer(hub, game, sides, 3, "red")  # blue's page refuses its element
            await hub.give_up(game, 3)
            await forged
            hub.commands._order = honest  # type: ignore[method-assign]
            live = hub.games.get(game)
            assert live is not None
            assert live.events[3].fair is not None
            assert live.events[3].fair["missing"] == ["blue"]
            if how != "another command":  # a step: red answers, then ends the game
                red = sides["red"]
                shot = give(hub, game, "red", SHOOT, "a4", red.sign(game, 4, "a4", SHOOT))
                await answer(hub, game, sides, 4)
                await shot
                record = await _end(hub, game, sides, len(live.events))
            else:  # the end of the game, in blue's name
                record = await hub.record(game)
            for kept in ((), [("blue", sides["blue"].receipts(record))]):
                report = audit(record, kept_by=kept)
                assert not report.ok
                assert (report.findings[0].check, report.findings[0].seq) == ("orders", 3)
        finally:
            hub.close()

    run(play)


# --- found ------------------------------------------------------------------------------------


async def _shot(hub: Hub, game: str, sides: dict[str, Page], k: int) -> None:
    """Red answers the window blue's step opened (its page signs, every page answers)."""
    shot = give(hub, game, "red", SHOOT, f"a{k}", sides["red"].sign(game, k, f"a{k}", SHOOT))
    await answer(hub, game, sides, k)
    await shot


def test_a_roll_drawn_without_a_page_whose_element_came_fails_the_audit() -> None:
    """Found by the red team (``fair.missing`` was the host's word), and fixed: red's page
    kept the host's request for roll 1 and answered it, so the audit, given red's receipts,
    fails the roll drawn without it. The record alone cannot tell (it passes)."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        sides = pages()
        try:
            game = await start(hub, sides, wait=60)
            stepped = give(hub, game, "blue", STEP, "s1", sides["blue"].sign(game, 1, "s1", STEP))
            # Both pages answer at once; the host keeps red's element to itself.
            await answer(hub, game, sides, 1, "blue")
            live = hub.games.get(game)
            assert live is not None
            assert live.ledger is not None
            host, blue = live.ledger.held(HOST, 1), sides["blue"].chain.element(1)
            assert host is not None
            # The host knows the roll either way, and picks: with red's element or without.
            red = sides["red"].chain.element(1)
            assert roll_key([host, blue, red]) != roll_key([host, blue, b""])
            await hub.give_up(game, 1)  # at once, not after the game's 60 s
            await stepped
            assert live.events[1].fair is not None
            assert live.events[1].fair["missing"] == ["red"]
            await _shot(hub, game, sides, 2)
            record = await _end(hub, game, sides, 3)
            assert audit(record).ok
            report = audit(record, kept_by=[("red", sides["red"].receipts(record))])
            assert report.missing == [(1, "red")]
            assert not report.ok, "the audit takes a roll drawn without red's page, which answered"
            finding = report.findings[0]
            assert (finding.check, finding.seq) == ("randomness", 1), finding
            assert "without red's page, yet that page was asked" in finding.message
        finally:
            hub.close()

    run(play)


@pytest.mark.parametrize("swapped", [True, False], ids=["the host's key", "none (host-acted)"])
def test_a_seat_key_the_host_swapped_at_the_set_up_fails_the_audit(swapped: bool) -> None:
    """The host registers blue's page's anchor with a key of its own making, or with none
    (blue "forgot" to register one: its orders are the host's, "host-acted"). Found by the
    red team (the audit never compared the key a page kept with the set-up's), and fixed:
    with blue's receipts the audit fails at the set-up; without them the record passes,
    "signed by blue" (by the host's key) or "host-acted"."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        sides = pages()
        key = HOST_SEAT.public if swapped else None
        try:
            game = await start(hub, sides, keys={"blue": key})  # type: ignore[dict-item]
            live = hub.games.get(game)
            assert live is not None
            assert live.events[0].fair is not None
            assert live.events[0].fair["setup"]["seats"]["blue"] == key
            sig = HOST_SEAT.sign(order_message(game, 1, "blue", "forged", STEP))
            forged = give(hub, game, "blue", STEP, "forged", (1, sig) if swapped else None)
            await answer(hub, game, sides, 1, "red")  # blue's page refuses its element
            await hub.give_up(game, 1)
            await forged
            await _shot(hub, game, sides, 2)
            record = await _end(hub, game, sides, 3)
            alone = audit(record)
            assert alone.ok
            assert alone.signed.get("blue", 0) == (1 if swapped else 0)
            assert alone.host_acted == ({} if swapped else {"blue": [1]})
            report = audit(record, kept_by=[("blue", sides["blue"].receipts(record))])
            assert not report.ok, "blue's page signs with another key than the set-up names"
            finding = report.findings[0]
            assert (finding.check, finding.seq) == ("receipts", 0), finding
            assert "blue's page signs its orders with another key" in finding.message
        finally:
            hub.close()

    run(play)


def test_a_seat_key_changed_while_the_page_followed_the_game_fails_the_audit() -> None:
    """Found by the red team (a new seat key in ``fair.keys`` was the host's word), and
    fixed: blue's page, which signs with the key before, kept every head to the end of the
    game, so its seat was never taken over; the audit fails the event that changed it."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        sides = pages()
        try:
            game = await start(hub, sides)
            live = hub.games.get(game)
            assert live is not None
            assert live.ledger is not None
            live.ledger.new_key("blue", HOST_SEAT.public, 1)  # "blue's seat was taken over"
            sig = HOST_SEAT.sign(order_message(game, 1, "blue", "forged", STEP))
            forged = give(hub, game, "blue", STEP, "forged", (1, sig))
            await answer(hub, game, sides, 1, "red")
            await hub.give_up(game, 1)
            await forged
            assert live.events[1].fair is not None
            assert live.events[1].fair["keys"] == {"blue": HOST_SEAT.public}
            await _shot(hub, game, sides, 2)
            record = await _end(hub, game, sides, 3)
            kept = sides["blue"].receipts(record)  # every head, to the end of the game
            alone = audit(record)
            assert alone.ok
            assert alone.new_keys == [("blue", 1)]
            assert "from event 1 on, Blue's orders are signed with a new key" in _said(record)
            report = audit(record, kept_by=[("blue", kept)])
            assert not report.ok, "blue's page followed the game past its 'taken over' seat"
            finding = report.findings[0]
            assert (finding.check, finding.seq) == ("receipts", 1), finding
            assert "its seat was never taken over" in finding.message
            # A page that was taken over is shown nothing more: its receipts end before.
            before = {**kept, "heads": kept["heads"][:1], "requests": kept["requests"][:1]}
            assert audit(record, kept_by=[("blue", before)]).ok
        finally:
            hub.close()

    run(play)


def _said(record: dict[str, Any]) -> str:
    """What ``ghillie audit`` prints of ``record``, its lines joined."""
    import json
    import tempfile
    from pathlib import Path

    from typer.testing import CliRunner

    from ghillie.cli import app

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_text(json.dumps(record))
        return " ".join(CliRunner().invoke(app, ["audit", str(path)]).output.split())


def test_a_roll_drawn_without_a_page_in_a_game_that_waits_for_ever_fails_the_audit() -> None:
    """Found by the red team (the audit took ``fair.missing`` whatever the set-up's wait),
    and fixed: a game set up to wait for every page (``setup.wait`` null) draws no roll
    without one, but a time-out's, without the sides whose time ran out."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        sides = pages()
        try:
            game = await start(hub, sides, wait=None)
            stepped = give(hub, game, "blue", STEP, "s1", sides["blue"].sign(game, 1, "s1", STEP))
            await answer(hub, game, sides, 1, "blue")
            await hub.give_up(game, 1)
            await stepped
            await _shot(hub, game, sides, 2)
            record = await _end(hub, game, sides, 3)
            assert record["events"][0]["fair"]["setup"]["wait"] is None
            assert record["events"][1]["fair"]["missing"] == ["red"]
            report = audit(record)
            assert not report.ok
            finding = report.findings[0]
            assert (finding.check, finding.seq) == ("randomness", 1), finding
            assert "wait for every page" in finding.message
        finally:
            hub.close()

    run(play)


def test_ghillie_audit_names_rolls_drawn_without_a_page_and_host_acted_orders(
    tmp_path: Any,
) -> None:
    """Found by the red team (``ghillie audit`` said nothing of them, in words or in
    ``--json``), and fixed: a passed audit names the protocol, every roll drawn without a
    side's page and every order the host gave in a side's name, by side and event."""
    import json

    from typer.testing import CliRunner

    from ghillie.cli import app

    async def play() -> dict[str, Any]:
        hub = Hub(MemoryStore())
        sides = pages()
        try:
            game = (await hub.create(_timed_scenario(), clients=True, wait=60)).game_id
            await hub.commands.anchor(
                game, "blue", sides["blue"].chain.anchor.hex(), sides["blue"].public
            )
            await hub.commands.anchor(game, "red", sides["red"].chain.anchor.hex(), None)  # no key
            await answer(hub, game, sides, 0)
            stepped = give(hub, game, "blue", STEP, "s1", sides["blue"].sign(game, 1, "s1", STEP))
            await answer(hub, game, sides, 1, "blue")
            await hub.give_up(game, 1)  # drawn without red's page
            await stepped
            shot = give(hub, game, "red", SHOOT, "a2", None)  # red has no key: host-acted
            await answer(hub, game, sides, 2)
            await shot
            ended = give(hub, game, "red", END, "e3", None)
            await answer(hub, game, sides, 3)
            await ended
            return await hub.record(game)
        finally:
            hub.close()

    import asyncio

    record = asyncio.run(play())
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    said = runner.invoke(app, ["audit", str(path)])
    assert said.exit_code == 0, said.output
    as_json = json.loads(runner.invoke(app, ["audit", str(path), "--json"]).output)
    words = said.output.lower()
    assert "without" in words, said.output  # roll 1, without red's page
    assert "red" in words, said.output
    assert "event 2" in words or "host" in words, said.output  # red's orders: the host's
    assert as_json.get("missing"), as_json
    assert as_json.get("host_acted"), as_json
    said = " ".join(said.output.split())
    assert "written under fairness protocol 4" in said
    assert "drawn without the share of a side's page" in said
    assert "Red: event 1" in said
    assert "the host gave some orders in a side's name" in said
    assert "Red: events 2, 3" in said
    assert as_json["version"] == 4
    assert as_json["missing"] == [{"event": 1, "side": "red"}]
    assert as_json["host_acted"] == {"red": [2, 3]}


def _timed_scenario() -> Any:
    from ..server.test_deadlines import _timed

    return _timed(600)
