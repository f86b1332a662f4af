"""Seats (ghillie.server.seats): a side's seat, and its dice chain, belong to the first device
that takes it; a second device is told, and so is the holder; the seat moves with the code
its device shows, or — the device lost — is taken again with a new chain from the next roll
on, which the record and the audit show. No roll before it changes, and no game stays stuck
on a lost phone."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ghillie import examples
from ghillie.errors import Refusal
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.record import make_record
from ghillie.server import seats
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.server.problems import Problem
from ghillie.store import MemoryStore
from ghillie.store.base import EventStore

from .test_durability import Server, free_port, request

SIDES = ("jungle", "orks")
KEY_A, KEY_B, KEY_C = "a1" * 16, "b2" * 16, "c3" * 16  # three devices' seat keys

# The Veterans write their ambush orders (none) before any side is ready (DWV-R04).
NO_AMBUSHES = {"type": "record_ambushes", "orders": []}


def _run(test: Callable[[Hub], Awaitable[None]], store: EventStore | None = None) -> None:
    async def main() -> None:
        hub = Hub(store or MemoryStore())
        try:
            await test(hub)
        finally:
            hub.close()

    asyncio.run(main())


async def _started(hub: Hub) -> tuple[str, dict[str, Chain]]:
    """A clients game whose pages took their seats (jungle with KEY_A) and started it."""
    created = await hub.create(examples.load("grid-ambush-table"), clients=True)
    game_id = created.game_id
    chains = {side: Chain.fresh(64)[1] for side in SIDES}
    await hub.seats.take(game_id, "jungle", KEY_A)
    for side in SIDES:
        await hub.commands.anchor(game_id, side, chains[side].anchor.hex())
    for side in SIDES:
        await hub.commands.contribute(game_id, side, 0, chains[side].element(0).hex())
    return game_id, chains


async def _refused(call: Awaitable[object]) -> str:
    with pytest.raises(Refusal) as refused:
        await call
    return refused.value.code


def test_a_seat_belongs_to_the_first_device_that_takes_it() -> None:
    async def test(hub: Hub) -> None:
        created = await hub.create(examples.load("grid-ambush-table"), clients=True)
        game_id = created.game_id
        game = await hub.games.live(game_id)
        # Free: the token alone plays the side, as before seats (scripts, the bare API).
        await hub.seats.check(game, "jungle", None)
        assert seats.state(game, "jungle", None) == {
            "state": "free",
            "side": "jungle",
            "chain": "client",
        }
        first, device = await hub.seats.take(game_id, "jungle", KEY_A)
        assert first["state"] == "yours"
        assert (await hub.seats.take(game_id, "jungle", KEY_A))[0]["state"] == "yours"
        second, _ = await hub.seats.take(game_id, "jungle", KEY_B)
        assert second["state"] == "taken"
        assert second["since"] == first["since"]
        # The second device is refused everything of the side; the holder is not.
        assert await _refused(hub.seats.check(game, "jungle", seats.device_of(KEY_B))) == (
            "seat_taken"
        )
        assert await _refused(hub.seats.check(game, "jungle", None)) == "seat_taken"
        await hub.seats.check(game, "jungle", device)
        await hub.seats.check(game, "orks", None)  # the other seat is still free
        assert seats.public(game)["jungle"]["taken"] is True
        assert seats.public(game)["orks"] == {"taken": False, "since": None}
        assert await _refused(hub.seats.take(game_id, "jungle", "not hex")) == "bad_seat_key"

    _run(test)


def test_the_holder_is_told_when_another_device_opens_its_seat() -> None:
    async def test(hub: Hub) -> None:
        created = await hub.create(examples.load("grid-ambush-table"), clients=True)
        game_id = created.game_id
        game = await hub.games.live(game_id)
        _, device = await hub.seats.take(game_id, "jungle", KEY_A)
        holder = hub.fanout.watch(game, "jungle")
        holder.device = device
        other = hub.fanout.watch(game, "jungle")  # opened the link before the seat was taken
        await _refused(hub.seats.check(game, "jungle", seats.device_of(KEY_B)))
        told = holder.queue.get_nowait()
        assert told["type"] == "seat"
        assert told["seat"]["state"] == "yours"
        assert len(told["seat"]["visits"]) == 1
        # The device that had the link open without the seat is told and let go.
        assert other.queue.get_nowait() == {
            "type": "seat",
            "seat": seats.state(game, "jungle", None),
        }
        assert other.queue.get_nowait() is None
        assert other not in game.watchers

    _run(test)


def test_a_seat_moves_with_its_code_and_the_new_device_chain_starts_at_the_next_roll() -> None:
    async def test(hub: Hub) -> None:
        game_id, chains = await _started(hub)
        game = await hub.games.live(game_id)
        assert await _refused(hub.seats.offer(game_id, "jungle", seats.device_of(KEY_B))) == (
            "seat_taken"
        )
        code = (await hub.seats.offer(game_id, "jungle", seats.device_of(KEY_A)))["code"]
        assert len(code) == seats.CODE_LENGTH
        phone = Chain.fresh(64)[1]
        wrong = hub.seats.move(game_id, "jungle", "0000000000", KEY_B, phone.anchor.hex())
        assert await _refused(wrong) == "bad_move_code"
        typed = f"{code[:5].lower()}-{code[5:]}"  # as a player types it off the other phone
        moved, device = await hub.seats.move(game_id, "jungle", typed, KEY_B, phone.anchor.hex())
        assert moved["state"] == "yours"
        assert (await hub.view(game_id, "orks"))["fairness"]["new_chains"] == [
            {"side": "jungle", "from": 1}
        ]
        # The code is used up; the old device is refused.
        again = hub.seats.move(game_id, "jungle", code, KEY_C, phone.anchor.hex())
        assert await _refused(again) == "bad_move_code"
        assert await _refused(hub.seats.check(game, "jungle", seats.device_of(KEY_A))) == (
            "seat_taken"
        )
        await hub.seats.check(game, "jungle", device)
        # Roll 1: the old chain's element no longer follows; the new one's does.
        waiting = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", NO_AMBUSHES))
        await asyncio.sleep(0.05)
        await hub.commands.contribute(game_id, "orks", 1, chains["orks"].element(1).hex())
        old = hub.commands.contribute(game_id, "jungle", 1, chains["jungle"].element(1).hex())
        assert await _refused(old) == "bad_contribution"
        await hub.commands.contribute(game_id, "jungle", 1, phone.element(0).hex())
        await waiting
        event = game.events[1]
        assert event.fair is not None
        assert event.fair["chains"] == {"jungle": phone.anchor.hex()}
        assert "new_chains" not in (await hub.view(game_id, "orks"))["fairness"]

    _run(test)


def test_a_roll_stuck_on_a_lost_phone_goes_on_with_a_new_chain() -> None:
    async def test(hub: Hub) -> None:
        game_id, chains = await _started(hub)
        game = await hub.games.live(game_id)
        waiting = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", NO_AMBUSHES))
        await asyncio.sleep(0.05)
        await hub.commands.contribute(game_id, "orks", 1, chains["orks"].element(1).hex())
        assert (await hub.view(game_id, "orks"))["fairness"]["waiting"] == ["jungle"]
        # While the holding device is online, it must move the seat itself.
        online = hub.fanout.watch(game, "jungle")
        online.device = seats.device_of(KEY_A)
        phone = Chain.fresh(64)[1]
        busy = hub.seats.new_chain(game_id, "jungle", KEY_B, phone.anchor.hex())
        assert await _refused(busy) == "seat_in_use"
        hub.fanout.unwatch(game, online)  # the phone died
        await hub.seats.new_chain(game_id, "jungle", KEY_B, phone.anchor.hex())
        assert (await hub.view(game_id, "orks"))["fairness"]["new_chains"] == [
            {"side": "jungle", "from": 1}
        ]
        await hub.commands.contribute(game_id, "jungle", 1, phone.element(0).hex())
        answer = await asyncio.wait_for(waiting, 5)
        assert answer["seq"] == 1
        # The next roll takes the new chain's next element, and the audit says from where.
        task = asyncio.create_task(hub.commands.command(game_id, "orks", "c2", {"type": "ready"}))
        await asyncio.sleep(0.05)
        await hub.commands.contribute(game_id, "orks", 2, chains["orks"].element(2).hex())
        await hub.commands.contribute(game_id, "jungle", 2, phone.element(1).hex())
        assert (await asyncio.wait_for(task, 5))["seq"] == 2
        assert game.ledger is not None
        header = {**game.header, "fair": game.ledger.header()}
        report = audit(make_record(game_id, header, await game.events.after()), finished=False)
        assert report.ok, report.findings
        assert report.new_chains == [("jungle", 1)]

    _run(test)


def test_seats_and_a_new_chain_survive_a_restart() -> None:
    store = MemoryStore()
    phone = Chain.fresh(64)[1]
    state: dict[str, object] = {}

    async def before(hub: Hub) -> None:
        game_id, chains = await _started(hub)
        state["game"], state["chains"] = game_id, chains
        await hub.seats.new_chain(game_id, "jungle", KEY_B, phone.anchor.hex())

    async def after(hub: Hub) -> None:
        game_id = str(state["game"])
        chains = state["chains"]
        assert isinstance(chains, dict)
        game = await hub.games.live(game_id)  # loaded from the store, as after kill -9
        assert seats.state(game, "jungle", seats.device_of(KEY_B))["state"] == "yours"
        assert await _refused(hub.seats.check(game, "jungle", seats.device_of(KEY_A))) == (
            "seat_taken"
        )
        assert (await hub.view(game_id, "orks"))["fairness"]["new_chains"] == [
            {"side": "jungle", "from": 1}
        ]
        waiting = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", NO_AMBUSHES))
        await asyncio.sleep(0.05)
        await hub.commands.contribute(game_id, "orks", 1, chains["orks"].element(1).hex())
        await hub.commands.contribute(game_id, "jungle", 1, phone.element(0).hex())
        assert (await asyncio.wait_for(waiting, 5))["seq"] == 1

    _run(before, store)
    _run(after, store)


def test_a_seat_of_a_host_held_chain_moves_without_any_chain() -> None:
    async def test(hub: Hub) -> None:
        created = await hub.create(examples.load("grid-ambush-table"))
        game_id = created.game_id
        await hub.seats.take(game_id, "orks", KEY_A)
        code = (await hub.seats.offer(game_id, "orks", seats.device_of(KEY_A)))["code"]
        moved, _ = await hub.seats.move(game_id, "orks", code, KEY_B, None)
        assert moved["state"] == "yours"
        assert "new_chains" not in (await hub.view(game_id, "orks"))["fairness"]
        lost = hub.seats.new_chain(game_id, "orks", KEY_C, "ab" * 32)
        assert await _refused(lost) == "bad_contribution"  # the host holds that chain

    _run(test)


# --- over the wire, on a real server -------------------------------------------------------------


def test_a_taken_seat_survives_kill_9_and_its_move_code_is_good_once(tmp_path: Path) -> None:
    """Taking a seat is answered only once it is stored: kill -9 right after, and the seat
    is still that device's; taking it again is the same answer; another device is refused."""
    server = Server(tmp_path / "ghillie.db", free_port())
    server.start()
    try:
        status, created = request(
            server.port, "POST", "/api/games", {"scenario": "grid-ambush-table", "chains": "host"}
        )
        assert status == 201, created
        game = created["game_id"]
        token = next(link["url"] for link in created["links"] if link["observer"] == "orks")
        token = token.split("#")[1]
        seat = f"/api/games/{game}/seat"
        status, taken = request(server.port, "POST", seat, {"seat": KEY_A}, token)
        assert (status, taken["state"]) == (200, "yours")
        server.kill()
        server.start()
        status, again = request(server.port, "POST", seat, {"seat": KEY_A}, token)
        assert (status, again["state"], again["since"]) == (200, "yours", taken["since"])
        status, other = request(server.port, "POST", seat, {"seat": KEY_B}, token)
        assert (status, other["state"]) == (200, "taken")
        view = f"/api/games/{game}/view"
        assert request(server.port, "GET", view, None, token)[1]["code"] == "seat_taken"
        assert request(server.port, "GET", view, None, token, KEY_A)[0] == 200
        # A move code, offered by the holder, moves the seat once; the old key is then out.
        offer = f"/api/games/{game}/seat/offer"
        status, offered = request(server.port, "POST", offer, None, token, KEY_A)
        assert status == 200, offered
        assert offered["url"].endswith(f"#{token}&seat-code={offered['code']}")
        assert offered["qr_svg"].startswith("<svg")
        move = f"/api/games/{game}/seat/move"
        body = {"code": offered["code"], "seat": KEY_C}
        assert request(server.port, "POST", move, body, token)[1]["state"] == "yours"
        again_ = request(server.port, "POST", move, {**body, "seat": KEY_B}, token)[1]
        assert again_["code"] == "bad_move_code"
        assert request(server.port, "GET", view, None, token, KEY_A)[1]["code"] == "seat_taken"
        assert request(server.port, "GET", view, None, token, KEY_C)[0] == 200
        status, listed = request(server.port, "GET", f"/api/games/{game}/seats", None, token)
        assert listed["seats"]["orks"]["taken"] is True
        assert listed["seats"]["jungle"] == {"taken": False, "since": None}
    finally:
        server.kill()


def test_a_device_without_the_seat_is_sent_nothing_of_the_game() -> None:
    """Over the websocket: a device that does not hold the side's taken seat receives only
    its seat's state — no view, no log, no secret — whatever it sends."""
    app = create_app(MemoryStore())
    with TestClient(app) as client:
        created = client.post(
            "/api/games", json={"scenario": "grid-ambush-table", "chains": "host"}
        ).json()
        game = created["game_id"]
        token = next(
            link["url"].split("#")[1] for link in created["links"] if link["observer"] == "jungle"
        )
        headers = {"Authorization": f"Bearer {token}"}
        canary = "canary-Seat7-by-the-river"
        order = {"unit": "graw", "square": "D2", "note": canary}
        answer = client.post(
            f"/api/games/{game}/commands",
            json={"command_id": "c1", "command": {"type": "record_ambushes", "orders": [order]}},
            headers=headers,
        )
        assert answer.status_code == 200, answer.json()
        assert client.post(f"/api/games/{game}/seat", json={"seat": KEY_A}, headers=headers)
        with client.websocket_connect(f"/api/games/{game}/ws") as other:
            other.send_json({"type": "auth", "token": token, "seat": KEY_B})
            frames = [other.receive_text()]
            for message in (
                {"type": "resync", "after": -1},
                {"type": "command", "command_id": "c2", "command": {"type": "ready"}},
                {"type": "move_seat", "code": "0000000000", "seat": KEY_B},
            ):
                other.send_json(message)
                frames.append(other.receive_text())
        assert all(json.loads(f)["type"] == "seat" for f in frames), frames
        assert all(canary not in f and '"log"' not in f for f in frames)
        assert json.loads(frames[0])["seat"]["state"] == "taken"
        with client.websocket_connect(f"/api/games/{game}/ws") as holder:
            holder.send_json({"type": "auth", "token": token, "seat": KEY_A})
            whole = holder.receive_text()
            assert json.loads(whole)["seat"]["state"] == "yours"
            assert canary in whole  # the holder's view, with its own secret


class _SharedMemory(MemoryStore):
    """One store two hubs use, as two server processes share one PostgreSQL database."""

    shared = True


def test_a_seat_taken_through_another_process_refuses_a_command_this_one_thought_free() -> None:
    # Process A last read the seat as free; a device takes it through process B. A command
    # from another device through A is checked against A's copy (no read per command), so
    # its write must find the seat changed: nothing is recorded, and the device is told the
    # seat is taken, as it would be had A read the store first.
    async def main() -> None:
        store = _SharedMemory()
        first, second = Hub(store), Hub(store)
        try:
            created = await first.create(examples.load("grid-ambush-table"))
            game_id = created.game_id
            await first.commands.command(game_id, "jungle", "r1", NO_AMBUSHES)
            game = await first.games.live(game_id)
            await first.seats.check(game, "orks", None, exact=False)  # free, as A knows it
            await second.seats.take(game_id, "orks", KEY_B)
            await first.seats.check(game, "orks", None, exact=False)  # A still thinks so
            with pytest.raises(Problem):
                await first.commands.command(game_id, "orks", "r2", {"type": "ready"})
            assert [e.seq for e in store.events(game_id)] == [0, 1]
            again = await first.games.live(game_id)  # the copy that could not be saved is gone
            assert again is not game
            assert await _refused(first.seats.check(again, "orks", None)) == "seat_taken"
            await first.seats.check(again, "jungle", None)  # the other seat is still free
        finally:
            first.close()
            second.close()

    asyncio.run(main())
