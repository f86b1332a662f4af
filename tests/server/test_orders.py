"""Orders signed by the seat that gives them, and rolls that do not wait for ever (issue 24,
findings 1 and 8), through the hub as the pages and the API reach it.

- A side that registered a seat key (with its anchor, or with the seat it takes) has every
  order checked against it, for the roll the game is at: unsigned, signed by another key or
  for another roll, it is refused and nothing is asked; the roll request quotes the
  signature's digest, the record keeps the signed order, and the audit verifies it. A side
  with no key is "host-acted", and the audit says so.
- A roll waits for a page's element only as long as the game says: then it goes on without
  it, the event names the side, the audit lists the roll, and that page's next element links
  across the gap.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from ghillie import Refusal
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.hashlog import HostKey, order_digest, order_message
from ghillie.fairness.ledger import head_receipt
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

from ..scenarios import timeless
from ..timed import registered, scenario
from .test_deadlines import _timed

__all__ = ["registered"]  # the fixture, used by name

pytestmark = pytest.mark.usefixtures("registered")
SIDES = ("blue", "red")
END = {"type": "end_game"}
STEP = {"type": "step"}
SHOOT = {"type": "shoot", "fire": False}


class Page:
    """A side's page, as fairplay.js plays it: its chain, its seat key, its receipts."""

    def __init__(self, side: str, seed: int, signs: bool = True) -> None:
        self.side = side
        self.chain = Chain.from_seed(bytes([seed]) * 32)
        self.key = HostKey.from_bytes(bytes([seed + 100]) * 32) if signs else None
        self.requests: list[dict[str, Any]] = []

    @property
    def public(self) -> str | None:
        return self.key.public if self.key is not None else None

    def sign(self, game: str, k: int, command_id: str, command: dict[str, Any]) -> tuple[int, str]:
        assert self.key is not None
        return k, self.key.sign(order_message(game, k, self.side, command_id, command))


async def _until(done: Callable[[], bool], seconds: float = 3) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "not within the time"
        await asyncio.sleep(0.02)


async def _started(hub: Hub, pages: dict[str, Page]) -> str:
    game = (await hub.create(_timed(600), clients=True)).game_id
    for page in pages.values():
        await hub.commands.anchor(game, page.side, page.chain.anchor.hex(), page.public)
    await _answer(hub, game, pages, 0)
    await _until(lambda: hub.games.get(game).state.seq == 0)  # type: ignore[union-attr]
    return game


async def _answer(hub: Hub, game: str, pages: dict[str, Page], k: int, *only: str) -> None:
    """The pages named (every page by default) give their elements for roll ``k``, once it
    is asked for, keeping the request as their receipt."""
    live = hub.games.get(game)
    assert live is not None
    await _until(lambda: live.pending is not None and live.pending.request.k == k)
    assert live.pending is not None
    request = live.pending.request.public(game)
    for page in pages.values():
        if only and page.side not in only:
            continue
        page.requests.append(request)
        await hub.commands.contribute(game, page.side, k, page.chain.element(k).hex())


async def _give(
    hub: Hub, game: str, pages: dict[str, Page], side: str, command: dict[str, Any], cid: str
) -> Awaitable[dict[str, Any]]:
    """``side`` gives ``command`` signed for the next roll, and every page answers its roll."""
    live = hub.games.get(game)
    assert live is not None
    k = live.state.seq + 1
    page = pages[side]
    signed = page.sign(game, k, cid, command) if page.key is not None else None
    task = asyncio.ensure_future(hub.commands.command(game, side, cid, command, signed=signed))
    await _answer(hub, game, pages, k)
    return task


def _run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())


def _pages(*, red_signs: bool = True) -> dict[str, Page]:
    return {"blue": Page("blue", 1), "red": Page("red", 2, signs=red_signs)}


def _receipts(record: dict[str, Any], page: Page) -> dict[str, Any]:
    heads = [head_receipt(e["seq"], e["fair"], SIDES) for e in record["events"]]
    return {
        "key": record["events"][0]["fair"]["setup"]["key"],
        "heads": heads,
        "requests": page.requests,
        "anchor": page.chain.anchor.hex(),
    }


def test_a_signed_order_is_carried_out_its_request_quotes_it_and_the_audit_checks_it() -> None:
    async def play() -> None:
        hub = Hub(MemoryStore())
        pages = _pages(red_signs=False)
        try:
            game = await _started(hub, pages)
            setup = hub.games.get(game).events[0].fair["setup"]  # type: ignore[union-attr,index]
            assert setup["seats"] == {"blue": pages["blue"].public, "red": None}
            await (await _give(hub, game, pages, "blue", STEP, "s1"))
            # The request the pages answered quoted the blue page's signature.
            asked = pages["red"].requests[-1]
            _k, sig = pages["blue"].sign(game, 1, "s1", STEP)
            assert asked["order"] == order_digest(sig)
            event = hub.games.get(game).events[1]  # type: ignore[union-attr]
            assert event.fair is not None
            assert event.fair["order"] == order_digest(sig)
            assert event.fair["private"]["order"] == {"id": "s1", "command": STEP, "sig": sig}
            await (await _give(hub, game, pages, "red", SHOOT, "a1"))  # red has no key
            await (await _give(hub, game, pages, "blue", END, "e1"))
            record = await hub.record(game)
            report = audit(record, kept_by=[(p.side, _receipts(record, p)) for p in pages.values()])
            assert report.ok, report.findings
            assert report.signed == {"blue": 2}
            assert report.host_acted == {"red": [2]}  # no key: the host's word for it
        finally:
            hub.close()

    _run(play)


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("unsigned", "bad_order_signature"),
        ("another key", "bad_order_signature"),
        ("another command", "bad_order_signature"),
        ("another command id", "bad_order_signature"),
        ("an earlier roll", "stale_order"),
        ("a later roll", "stale_order"),
        ("a malformed signature", "bad_order_signature"),
    ],
)
def test_an_order_not_signed_by_its_seat_for_this_roll_is_refused_and_asks_nothing(
    how: str, code: str
) -> None:
    async def play() -> None:
        hub = Hub(MemoryStore())
        pages = _pages()
        try:
            game = await _started(hub, pages)
            page = pages["blue"]
            k, sig = page.sign(game, 1, "c1", END)
            signed: tuple[Any, Any] | None = {
                "unsigned": None,
                "another key": (k, HostKey.from_bytes(bytes(32)).sign(b"x" * 10)),
                "another command": page.sign(game, 1, "c1", {"type": "ready"}),
                "another command id": page.sign(game, 1, "c2", END),
                "an earlier roll": page.sign(game, 0, "c1", END),
                "a later roll": page.sign(game, 2, "c1", END),
                "a malformed signature": (k, sig.upper()),
            }[how]
            live = hub.games.get(game)
            assert live is not None
            with pytest.raises(Refusal) as refused:
                await hub.commands.command(game, "blue", "c1", END, signed=signed)
            assert refused.value.code == code
            assert live.pending is None  # nothing asked of anyone
            assert live.state.seq == 0
        finally:
            hub.close()

    _run(play)


def test_a_seat_taken_with_a_key_signs_from_the_next_roll_and_the_event_records_it() -> None:
    async def play() -> None:

        hub = Hub(MemoryStore())
        pages = _pages(red_signs=False)
        try:
            game = await _started(hub, pages)
            key = HostKey.from_bytes(bytes([77]) * 32)
            await hub.seats.take(game, "red", "ab" * 16, signing=key.public)
            await (await _give(hub, game, pages, "blue", STEP, "s1"))
            event = hub.games.get(game).events[1]  # type: ignore[union-attr]
            assert event.fair is not None
            assert event.fair["keys"] == {"red": key.public}
            # From now on red's orders are refused unsigned.
            with pytest.raises(Refusal) as refused:
                await hub.commands.command(game, "red", "a1", SHOOT)
            assert refused.value.code == "bad_order_signature"
            pages["red"].key = key
            await (await _give(hub, game, pages, "red", SHOOT, "a1"))
            await (await _give(hub, game, pages, "blue", END, "e1"))
            report = audit(await hub.record(game))
            assert report.ok, report.findings
            assert report.signed == {"blue": 2, "red": 1}
            assert report.host_acted == {}
        finally:
            hub.close()

    _run(play)


def test_a_roll_goes_on_without_a_page_that_does_not_answer_in_time() -> None:
    async def play() -> None:
        hub = Hub(MemoryStore())
        pages = _pages()
        try:
            game = (await hub.create(_timed(600), clients=True, wait=1)).game_id
            for page in pages.values():
                await hub.commands.anchor(game, page.side, page.chain.anchor.hex(), page.public)
            await _answer(hub, game, pages, 0)
            live = hub.games.get(game)
            assert live is not None
            assert live.events[0].fair["setup"]["wait"] == 1  # type: ignore[index]
            # Red's page is away: roll 1 waits for it a second, then goes on.
            k, sig = pages["blue"].sign(game, 1, "s1", STEP)
            task = asyncio.ensure_future(
                hub.commands.command(game, "blue", "s1", STEP, signed=(k, sig))
            )
            await _answer(hub, game, pages, 1, "blue")
            started = time.monotonic()
            await asyncio.wait_for(task, 5)
            assert 0.5 < time.monotonic() - started < 3
            event = live.events[1]
            assert event.fair is not None
            assert event.fair["missing"] == ["red"]
            assert set(event.fair["contributions"]) == {"blue"}
            view = await hub.view(game, "red")
            assert view["log"][-1]["proof"]["missing"] == ["red"]
            # Back, red's page gives its element for roll 2: it links across roll 1.
            await (await _give(hub, game, pages, "red", SHOOT, "a1"))
            await (await _give(hub, game, pages, "blue", END, "e1"))
            report = audit(await hub.record(game))
            assert report.ok, report.findings
            assert report.missing == [(1, "red")]
        finally:
            hub.close()

    _run(play)


def test_over_http_a_command_whose_roll_waits_is_answered_202_and_its_answer_polled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 24, finding 4: a command whose roll waited longer than the call did was
    answered 503 and then carried out. It is answered 202 with where to poll, and the poll
    gives the answer once the roll is through (404 for a command id never given)."""
    from fastapi.testclient import TestClient

    from ghillie.server.app import create_app
    from ghillie.server.routes import play

    from .test_api import auth

    monkeypatch.setattr(play, "ROLL_WAIT", 0.3)
    pages = _pages(red_signs=False)
    with TestClient(create_app(MemoryStore())) as client:
        body = client.post(
            "/api/games", json={"scenario_data": scenario(600), "chains": "clients"}
        ).json()
        game = body["game_id"]
        tokens = {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}
        for page in pages.values():
            anchor = {"anchor": page.chain.anchor.hex(), "key": page.public}
            client.post(f"/api/games/{game}/anchor", json=anchor, headers=auth(tokens[page.side]))
        for page in pages.values():
            element = {"k": 0, "element": page.chain.element(0).hex()}
            client.post(
                f"/api/games/{game}/contributions", json=element, headers=auth(tokens[page.side])
            )
        k, sig = pages["blue"].sign(game, 1, "s1", STEP)
        given = {"command_id": "s1", "command": STEP, "k": k, "sig": sig}
        sent = client.post(f"/api/games/{game}/commands", json=given, headers=auth(tokens["blue"]))
        assert sent.status_code == 202, sent.text
        poll = sent.json()["poll"]
        assert poll == f"/api/games/{game}/commands/s1"
        assert client.get(poll, headers=auth(tokens["blue"])).status_code == 202
        for page in pages.values():  # the pages give their elements: the roll goes through
            element = {"k": 1, "element": page.chain.element(1).hex()}
            client.post(
                f"/api/games/{game}/contributions", json=element, headers=auth(tokens[page.side])
            )
        answered = client.get(poll, headers=auth(tokens["blue"]))
        assert answered.status_code == 200
        assert answered.json()["seq"] == 1
        never = client.get(f"/api/games/{game}/commands/nope", headers=auth(tokens["blue"]))
        assert never.status_code == 404


def test_a_page_gives_its_next_chain_ahead_and_every_page_is_told_where_it_starts() -> None:
    """Issue 24, finding 11: a page's chain of 4,096 elements runs out; ahead of that it
    gives the anchor of the next, which every page's status lists from the roll it starts."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        pages = _pages()
        try:
            game = await _started(hub, pages)
            following = Chain.from_seed(bytes([9]) * 32)
            status = await hub.commands.renew(game, "blue", following.anchor.hex())
            assert status["new_chains"] == [{"side": "blue", "from": 4096}]
            assert await hub.commands.renew(game, "blue", following.anchor.hex())  # again: the same
            with pytest.raises(Refusal) as refused:
                await hub.commands.renew(game, "blue", "ab" * 32)
            assert refused.value.code == "anchor_fixed"
            view = await hub.view(game, "red")
            assert view["fairness"]["new_chains"] == [{"side": "blue", "from": 4096}]
        finally:
            hub.close()

    _run(play)


def test_a_page_whose_chain_ran_out_cannot_start_the_next_one_in_the_past() -> None:
    """Issue 24, finding 11: the next chain starts at the roll after the last of the chain in
    use. When that roll is over (the page gave its anchor too late), the page is refused
    with a stable code, nothing changes, and the game is not broken by a server error."""

    async def play() -> None:
        hub = Hub(MemoryStore())
        pages = _pages()
        try:
            game = await _started(hub, pages)
            live = hub.games.get(game)
            assert live is not None
            assert live.ledger is not None
            # As if blue's chain had begun a whole chain's length before roll 0: its last
            # element was for a roll already drawn.
            live.ledger.chain_start["blue"] -= live.ledger.chain_length
            before = timeless(await hub.view(game, "red"))
            following = Chain.from_seed(bytes([9]) * 32)
            with pytest.raises(Refusal) as refused:
                await hub.commands.renew(game, "blue", following.anchor.hex())
            assert refused.value.code == "anchor_fixed"
            assert "ran out" in str(refused.value)
            assert live.ledger.fresh == {}
            assert timeless(await hub.view(game, "red")) == before
        finally:
            hub.close()

    _run(play)
