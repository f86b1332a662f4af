"""The table screen: the spectator's link, its page, and that it shows no secret.

A game's ``links`` hold one for the table screen (the spectator observer): ``/table/{game}``
shows the public state large — the map, what lies on the table, where the game stands, the
latest public news and the commitments each event published — from the spectator's view
and nothing else. The spectator gives no orders, anchors, contributions or odds requests:
it is refused them like the referee, with ``unknown_side``, whatever the game's state.

In the browser, a game of every bundled scenario (with a map and without) is played through
the API while the table screen is open at 1280×800 and 390×844. The server is seeded
(``seeded_serve.py``) and a twin hub in this process, seeded alike, plays every game and
command in the same order, so its state is the server's: the commands are drawn from the
ruleset's candidates with a canary in every secret note, and the twin's spectator view says
what the screen must show. The screen follows the game, never receives a canary (page text,
HTTP bodies, websocket frames) nor the id of a piece the spectator never saw, gives no way
to order anything, and passes axe and the forbidden-text checks (tests/server/pages.py).
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie import Game, examples
from ghillie.fairness.ledger import seeded_bytes
from ghillie.ids import SeededIds
from ghillie.server import seats
from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.state import SPECTATOR
from ghillie.store import MemoryStore
from ghillie.view import project

from ..contract.harness import with_canary
from . import pages

SEED = 7_311
ACCEPTED = 6  # commands each browser game plays
ATTEMPTS = 60  # candidates tried, refusals included, to play them


def tokens_of(body: dict[str, Any]) -> dict[str, str]:
    return {link["observer"]: link["url"].split("#", 1)[1] for link in body["links"]}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- the link, the page, the view: over the API ---------------------------------------------------


@pytest.fixture
def api() -> Iterator[tuple[TestClient, Hub]]:
    hub = Hub(MemoryStore())
    with TestClient(create_app(MemoryStore(), hub=hub)) as client:
        yield client, hub


@pytest.mark.parametrize("scenario", ["grid-ambush", "suspicious-places-table"])
def test_the_table_screens_link_opens_the_spectators_view_and_nothing_more(
    api: tuple[TestClient, Hub], scenario: str
) -> None:
    client, hub = api
    body = client.post("/api/games", json={"scenario": scenario}).json()
    game = body["game_id"]
    (link,) = [link for link in body["links"] if link["observer"] == SPECTATOR]
    assert link["name"] == "Table screen"
    assert link["url"].startswith(f"http://testserver/table/{game}#")
    assert link["qr_svg"].startswith("<svg")
    # Stored hashed, like every other token: the store never holds the token itself.
    token = link["url"].split("#", 1)[1]
    assert token not in json.dumps(client.portal.call(hub.store.header, game))  # type: ignore[union-attr]

    page = client.get(f"/table/{game}")
    assert page.status_code == 200
    assert '<script type="module" src="/static/table.js">' in page.text
    for name in ("table.js", "table.css"):
        assert client.get(f"/static/{name}").status_code == 200

    seen = client.get(f"/api/games/{game}/view", headers=auth(token)).json()
    live = client.portal.call(hub.games.live, game)  # type: ignore[union-attr]
    expected = json.loads(
        json.dumps(project(live.state, client.portal.call(live.events.after), SPECTATOR))
    )
    assert seen["you"] == SPECTATOR
    assert {k: v for k, v in seen.items() if k != "fairness"} == expected
    assert seen["pieces"] == []
    assert "commands" not in seen
    assert "secret_words" not in seen
    with client.websocket_connect(f"/api/games/{game}/ws") as socket:
        socket.send_json({"type": "auth", "token": token, "lang": ["en"]})
        # No side's seat to take: the spectator's view says so.
        first = socket.receive_json()
        assert first["seat"] == {"state": "none"}  # the table screen has no seat
    assert first["type"] == "view"
    assert {k: v for k, v in first["view"].items() if k != "fairness"} == expected


@pytest.mark.parametrize("chains", ["host", "clients"])
def test_the_spectator_and_the_referee_are_refused_orders_anchors_contributions_and_odds(
    api: tuple[TestClient, Hub], chains: str
) -> None:
    client, hub = api
    body = client.post("/api/games", json={"scenario": "grid-ambush-table", "chains": chains})
    game = body.json()["game_id"]
    tokens = tokens_of(body.json())
    order = {"type": "ready"}
    if chains == "clients":
        # Every page joins: roll 0 now waits for their elements. A side's order is refused
        # for it (roll_pending); the spectator's and the referee's are refused as always.
        for i, side in enumerate(("jungle", "orks")):
            client.post(
                f"/api/games/{game}/anchor",
                json={"anchor": f"{i + 1}" * 64},
                headers=auth(tokens[side]),
            )
        waiting = client.post(
            f"/api/games/{game}/commands",
            json={"command_id": "j", "command": order},
            headers=auth(tokens["jungle"]),
        )
        assert waiting.json()["code"] == "roll_pending"
    live = client.portal.call(hub.games.live, game)  # type: ignore[union-attr]
    before = live.state.seq
    for observer in (SPECTATOR, "referee"):
        headers = auth(tokens[observer])
        answers = [
            client.post(
                f"/api/games/{game}/commands",
                json={"command_id": "c", "command": order},
                headers=headers,
            ),
            client.post(f"/api/games/{game}/anchor", json={"anchor": "a" * 64}, headers=headers),
            client.post(
                f"/api/games/{game}/contributions",
                json={"k": 0, "element": "a" * 64},
                headers=headers,
            ),
            client.post(f"/api/games/{game}/odds", json={"command": order}, headers=headers),
        ]
        # Nor does it take a seat (ghillie.server.seats): a side's device does.
        key = {"seat": "5e" * 16}
        answers += [
            client.post(f"/api/games/{game}/seat", json=key, headers=headers),
            client.post(
                f"/api/games/{game}/seat/move",
                json={**key, "code": seats.new_code(), "anchor": "c" * 64},
                headers=headers,
            ),
            client.post(
                f"/api/games/{game}/seat/chain", json={**key, "anchor": "c" * 64}, headers=headers
            ),
        ]
        for answer in answers:
            assert (answer.status_code, answer.json()["code"]) == (403, "unknown_side"), answer.text
        offered = client.post(f"/api/games/{game}/seat/offer", headers=headers)
        assert offered.status_code == 409, offered.text  # no seat of its own to move
        with client.websocket_connect(f"/api/games/{game}/ws") as socket:
            socket.send_json({"type": "auth", "token": tokens[observer]})
            whole = socket.receive_json()
            assert (whole["type"], whole["seat"]) == ("view", {"state": "none"})
            socket.send_json({"type": "command", "command_id": "w", "command": order})
            assert socket.receive_json()["problem"]["code"] == "unknown_side"
            socket.send_json({"type": "anchor", "anchor": "b" * 64})
            assert socket.receive_json()["problem"]["code"] == "unknown_side"
            socket.send_json({"type": "contribute", "k": 0, "element": "b" * 64})
            assert socket.receive_json()["problem"]["code"] == "unknown_side"
            socket.send_json({"type": "take_seat", **key})
            assert socket.receive_json()["problem"]["code"] == "unknown_side"
    assert live.state.seq == before
    assert live.seats == {}
    assert not any(observer in (SPECTATOR, "referee") for observer, _ in live.answers)


# --- in a real browser --------------------------------------------------------------------------


@dataclass
class Played:
    """One game on the server and its twin here: the same ids, secrets and dice."""

    scenario: str
    server: pages.Game
    tokens: dict[str, str]  # the twin's tokens (the server's are in server.links)
    canaries: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)  # piece ids the spectator has been shown


class Twin:
    """A hub in this process, seeded as the server is, fed every creation and command in the
    same order: its state is the server's."""

    def __init__(self, base: str, client: TestClient, hub: Hub) -> None:
        self.base, self.client, self.hub = base, client, hub

    def create(self, scenario: str) -> Played:
        served = pages.create_game(self.base, scenario)
        body = self.client.post("/api/games", json={"scenario": scenario}).json()
        assert body["game_id"] == served.game_id, "the twin is not the server's"
        played = Played(scenario, served, tokens_of(body))
        played.seen |= self.visible(played)
        return played

    def live(self, played: Played) -> Any:
        return self.client.portal.call(self.hub.games.live, played.server.game_id)  # type: ignore[union-attr]

    def view(self, played: Played) -> dict[str, Any]:
        answer = self.client.get(
            f"/api/games/{played.server.game_id}/view", headers=auth(played.tokens[SPECTATOR])
        )
        return answer.json()  # type: ignore[no-any-return]

    def visible(self, played: Played) -> set[str]:
        view = self.view(played)
        tokens = (view.get("map") or {}).get("tokens", [])
        return {p["id"] for p in view["known"]} | {t["id"] for t in tokens if t.get("id")}

    def command(self, played: Played, side: str, command: dict[str, Any]) -> bool:
        """Give the command on the server and here; True if both accepted it."""
        answer = pages.command(self.base, played.server, side, command)
        mine = self.client.post(
            f"/api/games/{played.server.game_id}/commands",
            json={"command_id": uuid.uuid4().hex, "command": command},
            headers=auth(played.tokens[side]),
        )
        accepted = "status" not in answer
        assert accepted == (mine.status_code == 200), (answer, mine.text)
        if accepted:
            played.seen |= self.visible(played)
        return accepted


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    script = Path(__file__).with_name("seeded_serve.py")
    command = [sys.executable, str(script), str(SEED)]
    with pages.serve(tmp_path_factory.mktemp("table-server"), command) as base:
        yield base


@pytest.fixture(scope="module")
def twin(server: str) -> Iterator[Twin]:
    hub = Hub(MemoryStore(), ids=SeededIds(SEED), random_bytes=seeded_bytes(SEED))
    with TestClient(create_app(MemoryStore(), hub=hub)) as client:
        yield Twin(server, client, hub)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with pages.chromium() as chromium:
        yield chromium


class Screen:
    """The table screen in a browser, with every HTTP body and websocket frame it received."""

    def __init__(self, browser: Any, url: str, size: int, locale: str = "en-GB") -> None:
        self.frames: list[str] = []
        self.responses: list[Any] = []

        def listen(page: Any) -> None:
            page.on("websocket", lambda socket: socket.on("framereceived", self._frame))
            page.on("response", lambda response: self.responses.append(response))

        self.open = pages.open_page(browser, url, size, locale, listen)
        self.page = self.open.page

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload.decode() if isinstance(payload, bytes) else payload)

    def received(self) -> list[str]:
        # Only answers without a body are skipped (the websocket's 101, redirects).
        kept = [r for r in self.responses if not (r.status in (101, 204) or 300 <= r.status < 400)]
        return [r.text() for r in kept] + self.frames

    def wait_seq(self, seq: int) -> None:
        self.page.wait_for_function(
            "n => window.ghillie && window.ghillie.view && window.ghillie.view.seq >= n", arg=seq
        )
        self.open.settle(100, 2000)

    def texts(self, selector: str) -> list[str]:
        return [text.strip() for text in self.page.locator(selector).all_inner_texts()]

    def close(self) -> None:
        self.open.close()


def expected_news(view: dict[str, Any]) -> list[str]:
    lines = [said["text"] for entry in view["log"] for said in entry["said"] if said["text"]]
    return list(reversed(lines[-8:]))


def assert_shows(screen: Screen, view: dict[str, Any]) -> None:
    """The screen shows the spectator's view: title, status, news, pieces, map, commitments."""
    page = screen.page
    assert page.inner_text("#title") == view["title"]
    status = page.inner_text("#status")
    for line in view["status"]:
        assert line in status
    assert screen.texts("#news > li") == expected_news(view)
    pieces = page.inner_text("#pieces")
    for piece in view["known"]:
        assert piece["name"] in pieces
    assert page.locator("#map-box").is_hidden() == ("map" not in view)
    if "map" in view:
        assert page.locator("#map svg g.token").count() == len(view["map"]["tokens"])
    proofs = [entry["proof"] for entry in view["log"] if "proof" in entry]
    codes = screen.texts("#commitments code")
    if proofs:
        latest = proofs[-1]
        roots = [latest["roots"][side["id"]][:12] for side in view["sides"]]
        assert codes == [latest["hash"][:12], *roots]


def assert_no_secret(screen: Screen, played: Played, twin: Twin) -> None:
    """No canary on the page or in anything it received, nor the id of a piece it never saw."""
    content = screen.page.content()
    received = screen.received()
    for canary in played.canaries:
        assert canary not in content, f"{canary} is on the table screen"
        leaks = [text[:200] for text in received if canary in text]
        assert not leaks, f"{canary} was sent to the table screen: {leaks}"
    unseen = set(twin.live(played).state.pieces) - played.seen
    for piece in unseen:
        assert not [text[:200] for text in received if piece in text], "an unseen piece's id"


def problems(screen: Screen) -> list[str]:
    out = [f"error: {error}" for error in screen.open.errors]
    out += [f"axe {v['impact']} {v['id']}: {v['nodes'][:3]}" for v in screen.open.axe()]
    out += [f"text: {line}" for line in pages.forbidden_text(screen.open.visible_text())]
    return out


def play(
    twin: Twin, played: Played, screens: list[Screen], rng: random.Random
) -> tuple[int, set[str]]:
    """Play candidate commands, each secret note with a canary, until ACCEPTED are in; after
    each, every screen shows the twin's spectator view. The number accepted, and every
    status the wide screen showed."""
    live = twin.live(played)
    ruleset = live.state.ruleset
    accepted = 0
    statuses = {screens[0].page.inner_text("#status")}
    for attempt in range(ATTEMPTS):
        if accepted >= ACCEPTED:
            break
        state = twin.live(played).state
        sides = list(state.sides)
        rng.shuffle(sides)
        side = next((s for s in sides if ruleset.candidates(state, s)), None)
        if side is None:
            break
        canary = f"canary-{attempt:02d}-{uuid.uuid4().hex[:8]}-table"
        command, secret = with_canary(rng.choice(ruleset.candidates(state, side)), canary)
        if not twin.command(played, side, command):
            continue
        accepted += 1
        if secret:
            played.canaries.append(canary)
        view = twin.view(played)
        for screen in screens:
            screen.wait_seq(view["seq"])
            assert_shows(screen, view)
        statuses.add(screens[0].page.inner_text("#status"))
    return accepted, statuses


def test_the_bundled_scenarios_have_games_with_a_map_and_without() -> None:
    """So that the browser test below opens the table screen on both."""
    games = [Game.create(examples.load(name), seed=1) for name in pages.scenarios()]
    maps = {"map" in game.view(SPECTATOR) for game in games}
    assert maps == {True, False}


@pytest.mark.parametrize("scenario", pages.scenarios())
def test_the_table_screen_follows_the_game_and_shows_no_secret(
    browser: Any, twin: Twin, scenario: str
) -> None:
    played = twin.create(scenario)
    link = played.server.links[SPECTATOR]
    screens = [Screen(browser, link, 1280), Screen(browser, link, 390)]
    try:
        for screen in screens:
            screen.open.rendered()
            assert_shows(screen, twin.view(played))
        news_before = screens[0].texts("#news > li")

        rng = random.Random(f"{SEED}-{scenario}")
        accepted, statuses = play(twin, played, screens, rng)
        assert accepted >= 3, f"only {accepted} commands were accepted"
        view = twin.view(played)
        wide, narrow = screens
        # It followed the game: new news, and the status as the game moved on.
        assert wide.texts("#news > li") != news_before
        assert len(statuses) >= 2, statuses
        for screen in screens:
            assert_shows(screen, view)
            assert_no_secret(screen, played, twin)
            # A screen to look at: nothing to order with, nothing to pick on the map.
            orders = "form, details.command, button.send, button.command-button, .pick-bar:visible"
            assert screen.page.locator(orders).count() == 0
        # Read from across the table: large words, the wide screen whole without scrolling,
        # the phone no wider than itself.
        sizes = wide.page.evaluate(
            """() => {
                const size = (css) =>
                    parseFloat(getComputedStyle(document.querySelector(css)).fontSize);
                return {
                    status: size('#status .phase'),
                    news: size('#news > li'),
                    tall: document.documentElement.scrollHeight - window.innerHeight,
                };
            }"""
        )
        assert sizes["status"] >= 30, sizes
        assert sizes["news"] >= 18, sizes
        assert sizes["tall"] <= 0, sizes
        assert narrow.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        found = [
            f"{n}: {p}" for n, s in zip((1280, 390), screens, strict=True) for p in problems(s)
        ]
        assert found == [], "\n".join(found)
    finally:
        for screen in screens:
            screen.close()


def test_the_table_screen_speaks_russian_to_a_russian_reader_and_refuses_a_bad_link(
    browser: Any, twin: Twin
) -> None:
    played = twin.create("suspicious-places-table")
    russian = Screen(browser, played.server.links[SPECTATOR], 390, "ru-RU")
    bad = Screen(browser, played.server.links[SPECTATOR].split("#")[0] + "#not-a-token", 390)
    try:
        russian.open.rendered()
        russian.page.wait_for_function("() => document.documentElement.lang === 'ru'")
        russian.open.settle()
        assert "Экран стола" in russian.page.inner_text("header")
        assert "обязательства" in russian.page.inner_text("#commit-box").lower()
        bad.page.wait_for_selector("#conn[data-state=bad-link]")
        assert "This link does not open a game" in bad.page.inner_text("#app")
        assert russian.open.errors == []
    finally:
        russian.close()
        bad.close()
