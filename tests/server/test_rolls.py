"""The roll protocol through the hub (TRUST.md F4): a game whose sides' pages hold their own
roll chains starts only when every page has given its anchor and its element for roll 0;
every command then waits for every party's element, a side that does not give it stalls the
roll where everyone can see it, and nothing else can bias or replace the roll."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from ghillie import examples
from ghillie.errors import Refusal
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.server.hub import Hub, LiveGame
from ghillie.store import MemoryStore

SIDES = ("jungle", "orks")
# The Veterans write their ambush orders (none) before any side is ready (DWV-R04).
NO_AMBUSHES = {"type": "record_ambushes", "orders": []}


def _run(test: Callable[[Hub], Awaitable[None]]) -> None:
    async def main() -> None:
        hub = Hub(MemoryStore())
        try:
            await test(hub)
        finally:
            hub.close()

    asyncio.run(main())


async def _started(hub: Hub) -> tuple[str, dict[str, Chain], LiveGame]:
    """A clients game, joined and started: every page gave its anchor and roll 0."""
    created = await hub.create(examples.load("grid-ambush-table"), clients=True)
    game_id = created.game_id
    chains = {side: Chain.fresh(64)[1] for side in SIDES}
    game = await hub.games.live(game_id)
    assert game.state.seq == -1
    for side in SIDES:
        await hub.commands.anchor(game_id, side, chains[side].anchor.hex())
    assert (await hub.view(game_id, "jungle"))["fairness"]["waiting"] == list(SIDES)
    for side in SIDES:
        await hub.commands.contribute(game_id, side, 0, chains[side].element(0).hex())
    assert game.state.seq == 0
    return game_id, chains, game


def test_a_clients_game_waits_for_every_page_before_it_starts() -> None:
    async def test(hub: Hub) -> None:
        created = await hub.create(examples.load("grid-ambush-table"), clients=True)
        game_id = created.game_id
        view = await hub.view(game_id, "orks")
        assert view["seq"] == -1
        assert view["fairness"]["joining"] == list(SIDES)
        assert view["fairness"]["chains"] == {"jungle": "client", "orks": "client"}
        with pytest.raises(Refusal) as refused:
            await hub.commands.command(game_id, "orks", "c1", {"type": "ready"})
        assert refused.value.code == "not_started"
        chain = Chain.fresh(8)[1]
        await hub.commands.anchor(game_id, "jungle", chain.anchor.hex())
        view = await hub.view(game_id, "orks")
        assert view["fairness"]["joining"] == ["orks"]
        with pytest.raises(Refusal) as bad:
            await hub.commands.anchor(game_id, "orks", "XYZ")
        assert bad.value.code == "bad_contribution"

    _run(test)


def test_a_command_waits_for_every_sides_element_and_a_stall_is_visible() -> None:
    async def test(hub: Hub) -> None:
        game_id, chains, _game = await _started(hub)
        waiting = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", NO_AMBUSHES))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        status = (await hub.view(game_id, "orks"))["fairness"]
        assert status["request"]["k"] == 1
        assert status["request"]["side"] == "jungle"
        assert sorted(status["waiting"]) == list(SIDES)
        # Another command cannot slip in while the roll waits.
        with pytest.raises(Refusal) as busy:
            await hub.commands.command(game_id, "orks", "c2", {"type": "ready"})
        assert busy.value.code == "roll_pending"
        await hub.commands.contribute(game_id, "jungle", 1, chains["jungle"].element(1).hex())
        await asyncio.sleep(0.05)
        assert not waiting.done()  # the orks' page has not answered: the roll is stalled
        assert (await hub.view(game_id, "jungle"))["fairness"]["waiting"] == ["orks"]
        await hub.commands.contribute(game_id, "orks", 1, chains["orks"].element(1).hex())
        answer = await asyncio.wait_for(waiting, 5)
        assert answer["seq"] == 1
        assert (await hub.view(game_id, "jungle"))["fairness"]["request"] is None

    _run(test)


@pytest.mark.parametrize(
    "element",
    [
        lambda chains: chains["orks"].element(2),  # a later link: would pre-empt a roll
        lambda chains: chains["orks"].element(0),  # a used link: would replay a roll
        lambda chains: chains["jungle"].element(1),  # another side's link
        lambda chains: bytes(32),  # anything else
    ],
)
def test_only_the_sides_next_link_is_taken(element: Callable[[dict[str, Chain]], bytes]) -> None:
    async def test(hub: Hub) -> None:
        game_id, chains, game = await _started(hub)
        waiting = asyncio.create_task(hub.commands.command(game_id, "jungle", "c1", NO_AMBUSHES))
        await asyncio.sleep(0.05)
        await hub.commands.contribute(game_id, "jungle", 1, chains["jungle"].element(1).hex())
        with pytest.raises(Refusal) as refused:
            await hub.commands.contribute(game_id, "orks", 1, element(chains).hex())
        assert refused.value.code == "bad_contribution"
        assert not waiting.done()
        assert game.state.seq == 0
        waiting.cancel()

    _run(test)


def test_a_contribution_for_no_roll_is_refused_and_changes_nothing() -> None:
    async def test(hub: Hub) -> None:
        game_id, chains, game = await _started(hub)
        with pytest.raises(Refusal) as refused:
            await hub.commands.contribute(game_id, "orks", 1, chains["orks"].element(1).hex())
        assert refused.value.code == "no_roll_pending"
        with pytest.raises(Refusal) as fixed:
            await hub.commands.anchor(game_id, "orks", Chain.fresh(8)[1].anchor.hex())
        assert fixed.value.code == "anchor_fixed"
        assert game.state.seq == 0

    _run(test)


def test_a_refused_command_asks_nobody_for_anything() -> None:
    async def test(hub: Hub) -> None:
        game_id, _chains, _game = await _started(hub)
        with pytest.raises(Refusal):
            await hub.commands.command(game_id, "orks", "c1", {"type": "scan", "unit": "nobody"})
        assert (await hub.view(game_id, "orks"))["fairness"]["request"] is None

    _run(test)


def test_a_game_played_by_pages_passes_the_audit_with_no_host_held_chain() -> None:
    async def test(hub: Hub) -> None:
        game_id, chains, game = await _started(hub)

        async def give(side: str, n: int, command: dict[str, Any]) -> None:
            k = game.state.seq + 1
            task = asyncio.create_task(hub.commands.command(game_id, side, f"c{n}", command))
            await asyncio.sleep(0)
            for party in SIDES:
                await hub.commands.contribute(game_id, party, k, chains[party].element(k).hex())
            await asyncio.wait_for(task, 5)

        await give("jungle", 1, NO_AMBUSHES)
        await give("jungle", 2, {"type": "ready"})
        await give("orks", 3, {"type": "ready"})
        await give("jungle", 4, {"type": "end_game"})
        record = await hub.record(game_id)
        report = audit(record)
        assert report.ok, report.findings
        assert report.held == []
        assert report.events == 5

    _run(test)


def test_the_record_waits_for_the_end_of_the_game() -> None:
    async def test(hub: Hub) -> None:
        game_id, _, _ = await _started(hub)
        with pytest.raises(Refusal) as refused:
            await hub.record(game_id)
        assert refused.value.code == "game_not_over"

    _run(test)


def test_before_the_start_a_page_is_offered_no_command() -> None:
    async def test(hub: Hub) -> None:
        created = await hub.create(examples.load("grid-ambush-table"), clients=True)
        assert (await hub.view(created.game_id, "orks"))["commands"] == []

    _run(test)


def test_no_secret_reaches_the_other_page_through_the_roll_protocol() -> None:
    # The canary check of the contract tests, on what a pages-held game pushes besides
    # views: roll requests, parties in, the start. The demo's secret notes carry canaries.
    import copy
    import json

    from ghillie.demo import scripts
    from ghillie.errors import Refusal

    script = scripts()["suspicious-places"]
    canaries = {}
    laid = {"count": 0}

    def marked(command: dict[str, Any], pool: int) -> dict[str, Any]:
        # The marker pool is rolled from the pages' chains here, not the demo's dice: lay
        # as many markers as were rolled, and hide only under those.
        command = copy.deepcopy(command)
        if command["type"] == "place_markers":
            laid["count"] = pool  # markers still to place, before any is laid
            command["markers"] = [command["markers"][i % 3] for i in range(pool)]
        if command["type"] == "hide":
            labels = {f"M{i + 1}" for i in range(laid["count"])}
            command["hidings"] = [h for h in command["hidings"] if h["marker"] in labels]
            for hiding in command["hidings"]:
                hiding["note"] = canaries[hiding["marker"]] = f"CANARY-{hiding['marker']}"
        return command

    async def test(hub: Hub) -> None:
        created = await hub.create(examples.load(script.scenario), clients=True)
        game_id = created.game_id
        sides = ("keno", "lianra")
        chains = {side: Chain.fresh(64)[1] for side in sides}
        game = await hub.games.live(game_id)
        watchers = {side: hub.fanout.watch(game, side) for side in sides}
        for side in sides:
            await hub.commands.anchor(game_id, side, chains[side].anchor.hex())
        for side in sides:
            await hub.commands.contribute(game_id, side, 0, chains[side].element(0).hex())
        pushed: dict[str, list[Any]] = {side: [] for side in sides}

        def drain() -> None:
            for side, watcher in watchers.items():
                while not watcher.queue.empty():
                    pushed[side].append(watcher.queue.get_nowait())

        for n, step in enumerate(script.steps):
            k = game.state.seq + 1
            command = marked(step.command, game.state.board.pool.get("lianra", 0))
            task = asyncio.create_task(hub.commands.command(game_id, step.side, f"s{n}", command))
            # Until the request is asked for (stored first, then shown) or the command refused.
            while game.pending is None and not task.done():
                await asyncio.sleep(0.001)
            drain()
            if game.pending is not None:
                for side in sides:
                    await hub.commands.contribute(game_id, side, k, chains[side].element(k).hex())
                    drain()
            with contextlib.suppress(Refusal):
                await asyncio.wait_for(task, 5)
            drain()
        assert not any(w.dropped for w in watchers.values())
        assert any(m["view"].get("fairness", {}).get("request") for m in pushed["keno"])
        received = {
            side: json.dumps(pushed[side]) + json.dumps(await hub.view(game_id, side))
            for side in sides
        }
        assert canaries
        for canary in canaries.values():
            assert canary in received["lianra"]  # the owner sees its notes: the check can fail
            assert canary not in received["keno"]
        kept = game.header["fair"]
        host = Chain.from_seed(bytes.fromhex(kept["host_seed"]), game.ledger.chain_length)
        for side in sides:
            for k in range(game.state.seq + 1):
                assert host.element(k).hex() not in received[side]

    _run(test)
