"""The ASGI application: the JSON API, a websocket per side, and the pages.

Everything a side receives — response bodies, websocket frames, error bodies — is built from
``view(game, observer)`` or from a refusal's fixed code and detail. A side is identified only
by its capability token (``Authorization: Bearer …``; on the websocket, the first message),
never by anything in the URL, so tokens do not end up in access logs or browser history.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import quote

import orjson
import segno
from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ghillie import examples, forms, registry
from ghillie.bounds import MAGNITUDE
from ghillie.errors import UNKNOWN_SIDE, Refusal, ScenarioError
from ghillie.game import load_scenario
from ghillie.scenario import MAX_DEPTH, Scenario, loads_toml
from ghillie.server import seats
from ghillie.server.apidocs import add_docs
from ghillie.server.hub import COMMAND_ID_LENGTH, WAIT, Hub
from ghillie.server.limits import CreationLimit, CreationMeter, Limits
from ghillie.server.middleware import PROBLEM_JSON, AccessLog, BodyLimit, SecureHeaders
from ghillie.server.odds import odds_for
from ghillie.server.problems import (
    BAD_REQUEST,
    BAD_SCENARIO,
    NOT_FOUND,
    TOO_LARGE,
    Problem,
    internal_error,
    where,
)
from ghillie.server.socket import serve_socket
from ghillie.state import REFEREE, SPECTATOR
from ghillie.store.base import EventStore
from ghillie.words import N_, speaker
from ghillie.words.catalog import LANGUAGES, languages, negotiate, page_plurals, page_words

log = logging.getLogger("ghillie.server")

ROLL_WAIT = 30.0  # seconds an API call waits for the sides' contributions before answering
STATIC = resources.files("ghillie.server") / "static"
_STATIC_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


class NewGame(BaseModel):
    """Create a game from a bundled example (by name) or from scenario data or TOML text."""

    model_config = ConfigDict(extra="forbid")

    scenario: str | None = Field(None, max_length=80, description="a bundled example's name")
    scenario_data: dict[str, Any] | None = Field(None, description="a scenario as JSON")
    # No maxLength here: the whole request is bounded by ``ghillie serve --max-scenario``
    # (413 too_large), which a schema could not follow.
    scenario_toml: str | None = Field(
        None, description="a scenario file (the request: 256 KiB at most by default)"
    )
    chains: Literal["clients", "host"] = Field(
        "host",
        description="who holds each side's roll chain: each side's page ('clients', the "
        "game starts once every page has joined) or the host ('host': a side using the bare "
        "API; the host could then steer that side's rolls)",
    )
    wait_for_pages: Annotated[int, Field(ge=5, le=3600)] | Literal["always"] = Field(
        WAIT,
        description="seconds a roll waits for a side's page to give its element before it "
        "goes on without it (every page is told, and the record names the roll); 'always': "
        "it waits for ever",
    )


class Link(BaseModel):
    observer: str
    name: str
    url: str
    qr_svg: str


class CreatedGame(BaseModel):
    game_id: str
    ruleset: str
    title: str
    links: list[Link]


# The public key a device signs its side's orders with (docs/fairness.md, "Orders").
Signing = Annotated[
    str | None,
    Field(
        min_length=64,
        max_length=64,
        description="the public Ed25519 key this device signs the side's orders with, hex",
    ),
]


class CommandRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command_id: str = Field(
        min_length=1,
        max_length=COMMAND_ID_LENGTH,
        description="chosen by the client; a retry with the same id gets the first answer",
    )
    command: dict[str, Any] = Field(description="one of the ruleset's commands, with its type")
    k: int | None = Field(
        None,
        ge=0,
        le=MAGNITUDE,
        description="the roll the side's seat key signed the command for (its page's next "
        "roll: one after the last event it holds)",
    )
    sig: str | None = Field(
        None,
        min_length=128,
        max_length=128,
        description="the seat key's Ed25519 signature of the order (docs/fairness.md, Orders)",
    )


class Anchor(BaseModel):
    model_config = ConfigDict(extra="forbid")

    anchor: str = Field(min_length=64, max_length=64, description="x_0 of the side's chain, hex")
    key: Signing = None


class Contribution(BaseModel):
    model_config = ConfigDict(extra="forbid")

    k: int = Field(
        ge=0, le=MAGNITUDE, description="the roll asked for (fairness.request.k in the view)"
    )
    element: str = Field(min_length=64, max_length=64, description="x_{k+1} of the chain, hex")


class TakeSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: str = Field(
        max_length=64, description="the seat key this device keeps: 32 to 64 lowercase hex"
    )
    signing: Signing = None


class MoveSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(max_length=40, description="the code the seat's device shows")
    seat: str = Field(max_length=64, description="the new device's own seat key")
    anchor: str | None = Field(
        None, max_length=64, description="its new dice chain's anchor (page-held chains)"
    )
    signing: Signing = None


class NewChain(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: str = Field(max_length=64, description="the new device's own seat key")
    anchor: str = Field(min_length=64, max_length=64, description="its new chain's x_0, hex")
    signing: Signing = None


class CommandAnswer(BaseModel):
    command_id: str
    seq: int
    lines: list[dict[str, Any]] = Field(description="what the acting side was told, as recorded")
    said: list[dict[str, Any]] = Field(
        default_factory=list, description="the same lines in the reader's words: text, rules"
    )


class CommandWaiting(BaseModel):
    """A command taken but not answered yet: its roll waits for a side's page (202)."""

    command_id: str
    status: Literal["waiting"] = "waiting"
    detail: str
    poll: str = Field(description="GET it for the answer once the roll is through")


class OddsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: dict[str, Any]


class OddsAnswer(BaseModel):
    check: str | None = None
    dice: dict[str, str] = Field(default_factory=dict)
    outcomes: list[dict[str, Any]] = Field(default_factory=list)
    refused: dict[str, str] | None = Field(
        None, description="the refusal the command would get now: code, detail, field"
    )


class ProblemBody(BaseModel):
    type: str
    title: str
    status: int
    code: str
    detail: str
    field: str | None = Field(None, description="the command field the refusal concerns")


# Every API answer that is not a success is one of these problem documents.
PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {"model": ProblemBody, "content": {PROBLEM_JSON: {}}, "description": title}
    for status, title in (
        (400, "the request is not well-formed"),
        (404, "unknown game, or a link that is not valid"),
        (409, "refused by the rules"),
        (413, "too large"),
        (422, "malformed command or scenario"),
        (429, "too many games created: wait for the Retry-After header's seconds"),
        (503, "the game could not be saved"),
    )
}


def create_app(
    store: EventStore,
    *,
    hub: Hub | None = None,
    limits: Limits | None = None,
    public_url: str | None = None,
) -> FastAPI:
    """The app on ``store``. ``public_url`` (``http://192.0.2.2:8000``: ``ghillie serve
    --lan``, ``--public-url``) is the address every link and QR code is built from; None
    builds them from the address each request was sent to."""
    limits = limits or Limits()
    public = public_url.rstrip("/") if public_url else None

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.hub = hub or Hub(store, limits=limits)
        # Timers of windows left open and rolls left waiting run from start-up on.
        await app.state.hub.resume_timers()
        sweeping = asyncio.create_task(app.state.hub.sweep_every(limits.sweep_seconds))
        beating = asyncio.create_task(app.state.hub.outages.beat_every())
        yield
        for task in (sweeping, beating):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if hub is None:
            app.state.hub.close()

    app = FastAPI(
        title="ghillie",
        summary="A neutral referee for hidden units in wargames",
        version="0.1.0",
        lifespan=lifespan,
        responses=PROBLEMS,
        docs_url=None,  # served by add_docs, from this server (apidocs.py)
        redoc_url=None,  # it too loaded its script from a CDN the CSP blocks
    )
    add_docs(app)
    if hub is not None:
        app.state.hub = hub

    # One creation's CPU work (parsing, hashing the chains) at a time: in threads, several
    # would each take the GIL in turn from the event loop that serves everyone's games.
    setting_up = asyncio.Semaphore(1)

    def the_hub(request: Request) -> Hub:
        return request.app.state.hub  # type: ignore[no-any-return]

    # --- errors: problem documents only ---------------------------------------------------------

    @app.exception_handler(Problem)
    async def _problem(_request: Request, exc: Problem) -> Response:
        return JSONResponse(exc.body(), status_code=exc.status, media_type=PROBLEM_JSON)

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> Response:
        # A rule's fixed sentence, in the reader's language for that game's ruleset.
        ruleset = the_hub(request).ruleset_of(str(request.path_params.get("game_id", "")))
        words = speaker(ruleset, negotiate(accepted(request), ruleset)) if ruleset else None
        return await _problem(request, Problem.of(exc, words))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, _exc: RequestValidationError) -> Response:
        # Never the validator's own report: it would echo the input (TRUST.md §3.5).
        return await _problem(_request, Problem(BAD_REQUEST, "The request is not well-formed."))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return await _problem(_request, Problem(NOT_FOUND, "There is nothing here."))
        problem = Problem(BAD_REQUEST, "The request cannot be served.", exc.status_code)
        return JSONResponse(problem.body(), status_code=exc.status_code, media_type=PROBLEM_JSON)

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> Response:
        log.error("unhandled error: %s", where(exc))
        problem = internal_error()
        return JSONResponse(problem.body(), status_code=500, media_type=PROBLEM_JSON)

    # --- reference data -------------------------------------------------------------------------

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/api/rulesets")
    async def rulesets(request: Request) -> list[dict[str, Any]]:
        """Every ruleset, its commands (JSON Schemas and the words a form shows), and its
        example scenarios, in the reader's language (``?lang=`` or Accept-Language)."""
        return ruleset_catalogue(accepted(request))

    @app.get("/api/scenarios")
    async def scenarios() -> list[dict[str, Any]]:
        """The bundled example scenarios."""
        out = []
        for name in examples.names():
            data = examples.data(name)
            out.append(
                {
                    "name": name,
                    "ruleset": data["ruleset"],
                    "title": data.get("title", name),
                    "description": data.get("description", ""),
                    "mode": data.get("mode", "table"),
                }
            )
        return out

    @app.get("/api/scenarios/{name}")
    async def scenario(name: str) -> dict[str, Any]:
        if name not in examples.names():
            raise Problem(NOT_FOUND, "There is no such example scenario.")
        return examples.data(name)

    # --- games ------------------------------------------------------------------------------------

    @app.post(
        "/api/games",
        status_code=201,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": NewGame.model_json_schema()}},
            }
        },
    )
    async def create_game(request: Request) -> CreatedGame:
        """Start a game; the answer holds one private link per side, one for the referee and
        one for the table screen (the spectator: public facts only).
        Rate-limited per client address and overall (429 with ``Retry-After``)."""
        # The body is read and parsed here, not by FastAPI, so that a large scenario is
        # parsed and validated in a worker thread: on the event loop it would hold up every
        # other game (a 3.4 MB scenario blocked the loop for 0.8 s).
        raw = await _read_body(request, limits.max_scenario)
        async with setting_up:
            body, scenario = await asyncio.to_thread(_new_game_of, raw)
            wait = None if body.wait_for_pages == "always" else body.wait_for_pages
            created = await the_hub(request).create(
                scenario, clients=body.chains == "clients", wait=wait
            )
        base = public or str(request.base_url).rstrip("/")
        words = speaker(scenario.ruleset, negotiate(accepted(request), scenario.ruleset))
        names = {s.id: s.name for s in scenario.sides} | {REFEREE: words.word(N_("Referee"))}
        # Public facts only, for a screen everyone sees.
        names[SPECTATOR] = words.word(N_("Table screen"))
        page = {SPECTATOR: "table"}  # every other link opens the side's (or referee's) page
        urls = {
            o: f"{base}/{page.get(o, 'play')}/{created.game_id}#{t}"
            for o, t in created.tokens.items()
        }
        codes = await asyncio.to_thread(lambda: {o: _qr(url) for o, url in urls.items()})
        links = [
            Link(observer=o, name=names[o], url=url, qr_svg=codes[o]) for o, url in urls.items()
        ]
        return CreatedGame(
            game_id=created.game_id, ruleset=created.ruleset, title=created.title, links=links
        )

    @app.get("/api/games/{game_id}/view")
    async def view(
        game_id: str,
        request: Request,
        after: int = -1,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """What the link's side may know of the game; ``after`` limits the log to later events."""
        hub = the_hub(request)
        observer = await _seated(hub, game_id, authorization, x_ghillie_seat)
        lang = await _reader(hub, game_id, request)
        return await hub.view(game_id, observer, max(after, -1), lang)

    waiting_responses: dict[int | str, dict[str, Any]] = {
        202: {"model": CommandWaiting, "description": "taken; its roll still waits"}
    }

    @app.post(
        "/api/games/{game_id}/commands",
        response_model=CommandAnswer,
        responses=waiting_responses,
    )
    async def command(
        game_id: str,
        body: CommandRequest,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> Any:
        """Give a command as the link's side. Acknowledged only once it is durably saved. If
        its roll still waits for a side's page after a while, the answer is 202 with where to
        poll for it (the command goes on: it is never answered 503 and then carried out)."""
        hub = the_hub(request)
        observer = await _seated(hub, game_id, authorization, x_ghillie_seat)
        lang = await _reader(hub, game_id, request)
        given = hub.command(
            game_id,
            observer,
            body.command_id,
            body.command,
            lang=lang,
            signed=None if body.sig is None else (body.k, body.sig),
        )
        try:
            answer = await asyncio.wait_for(given, ROLL_WAIT)
        except TimeoutError:
            return _waiting(game_id, body.command_id)
        return CommandAnswer(**answer)

    @app.get(
        "/api/games/{game_id}/commands/{command_id}",
        response_model=CommandAnswer,
        responses=waiting_responses,
    )
    async def command_answer(
        game_id: str,
        command_id: str,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> Any:
        """The answer to a command this side gave (200), or 202 while its roll still waits;
        404 for a command id this side never gave."""
        hub = the_hub(request)
        observer = await _seated(hub, game_id, authorization, x_ghillie_seat)
        lang = await _reader(hub, game_id, request)
        answer = await hub.commands.answer_of(game_id, observer, command_id, lang)
        if answer is None:
            return _waiting(game_id, command_id)
        return CommandAnswer(**answer)

    def _waiting(game_id: str, command_id: str) -> JSONResponse:
        body = CommandWaiting(
            command_id=command_id,
            detail="The roll is waiting for a side's page; the command goes on. Poll for its "
            "answer, or send it again with the same command_id.",
            poll=f"/api/games/{game_id}/commands/{quote(command_id, safe='')}",
        )
        return JSONResponse(body.model_dump(), status_code=202)

    @app.post("/api/games/{game_id}/anchor")
    async def anchor(
        game_id: str,
        body: Anchor,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A side's page gives the anchor of the roll chain it holds, before the game starts
        (games created with ``chains: clients``). Answers the roll protocol's status."""
        hub = the_hub(request)
        observer = await _seated(hub, game_id, authorization, x_ghillie_seat)
        return await hub.anchor(game_id, observer, body.anchor, body.key)

    @app.post("/api/games/{game_id}/contributions")
    async def contribute(
        game_id: str,
        body: Contribution,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A side's page gives its chain element for the roll the view says is asked for."""
        hub = the_hub(request)
        observer = await _seated(hub, game_id, authorization, x_ghillie_seat)
        return await hub.contribute(game_id, observer, body.k, body.element)

    # --- seats: which device plays a side (ghillie.server.seats) ----------------------------

    @app.get("/api/games/{game_id}/seats")
    async def seats_taken(
        game_id: str,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Which sides' seats a device has taken, and since when (any link of the game)."""
        hub = the_hub(request)
        await hub.observer(game_id, _bearer(authorization))
        game = await hub.live(game_id)
        await seats.refresh(hub, game)
        return {"seats": seats.public(game)}

    @app.post("/api/games/{game_id}/seat")
    async def take_seat(
        game_id: str,
        body: TakeSeat,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Take the link's seat for this device (its seat key); taken already, it stays
        with the device that holds it, and the answer says so."""
        hub = the_hub(request)
        observer = await hub.observer(game_id, _bearer(authorization))
        seat, _ = await seats.take(hub, game_id, observer, body.seat, signing=body.signing)
        return seat

    @app.post("/api/games/{game_id}/seat/offer")
    async def offer_move(
        game_id: str,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The device holding the seat: a one-time code that moves it to another device,
        with a link (and its QR code) that opens the seat there and types the code in."""
        hub = the_hub(request)
        token = _bearer(authorization)
        observer = await hub.observer(game_id, token)
        offered = await seats.offer(hub, game_id, observer, seats.device_of(x_ghillie_seat))
        base = public or str(request.base_url).rstrip("/")
        url = f"{base}/play/{game_id}#{token}&seat-code={offered['code']}"
        return {**offered, "url": url, "qr_svg": await asyncio.to_thread(_qr, url)}

    @app.post("/api/games/{game_id}/seat/move")
    async def move_seat(
        game_id: str,
        body: MoveSeat,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Take the seat over with the code its device shows, and this device's new chain."""
        hub = the_hub(request)
        observer = await hub.observer(game_id, _bearer(authorization))
        seat, _ = await seats.move(
            hub, game_id, observer, body.code, body.seat, body.anchor, body.signing
        )
        return seat

    @app.post("/api/games/{game_id}/seat/chain")
    async def new_chain(
        game_id: str,
        body: NewChain,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The seat's device is lost: take the seat with a new dice chain, from the next
        roll on (refused while that device is online; every page is told)."""
        hub = the_hub(request)
        observer = await hub.observer(game_id, _bearer(authorization))
        seat, _ = await seats.new_chain(
            hub, game_id, observer, body.seat, body.anchor, body.signing
        )
        return seat

    @app.get("/api/games/{game_id}/record")
    async def record(
        game_id: str,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """The complete record of a finished game, every secret in it, for ``ghillie audit``."""
        hub = the_hub(request)
        await hub.observer(game_id, _bearer(authorization))
        return await hub.record(game_id)

    @app.get("/api/words")
    async def words(lang: str = "en") -> dict[str, Any]:
        """The pages' own words (headings, buttons, messages) in ``lang``: English message
        to translation, and the sentences with a count, English singular to each plural
        category's form. A page asks for the language its game's view is in."""
        found = page_words(lang if lang in LANGUAGES else "en")
        plurals = page_plurals(lang) if found else {}
        return {"lang": lang if found else "en", "words": found, "plurals": plurals}

    @app.get("/api/games/{game_id}/story")
    async def story(
        game_id: str,
        request: Request,
        seq: int = 0,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """After the game: every side's view and the referee's as they stood after event
        ``seq``, to step through the game with each side's view beside the truth."""
        hub = the_hub(request)
        await hub.observer(game_id, _bearer(authorization))
        return await hub.story(game_id, seq, await _reader(hub, game_id, request))

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return _page("replay.html")

    @app.post("/api/games/{game_id}/odds")
    async def odds(
        game_id: str,
        body: OddsRequest,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_ghillie_seat: Annotated[str | None, Header()] = None,
    ) -> OddsAnswer:
        """The exact odds of the check a command would roll, as far as this side may know
        them before giving it; empty when the command rolls no dice."""
        hub = the_hub(request)
        observer = await _seated(hub, game_id, authorization, x_ghillie_seat)
        game = await hub.live(game_id)
        if observer not in game.state.sides:
            # Odds are a side's, built from what it may know: the referee and the table
            # screen give no orders to weigh.
            raise Refusal(UNKNOWN_SIDE, "There is no such side in this game.")
        words = speaker(game.scenario.ruleset, await _reader(hub, game_id, request))
        return OddsAnswer(**odds_for(game.state, observer, body.command, words))

    @app.websocket("/api/games/{game_id}/ws")
    async def websocket(socket: WebSocket, game_id: str) -> None:
        await serve_socket(the_hub_ws(socket), socket, game_id)

    def the_hub_ws(socket: WebSocket) -> Hub:
        return socket.app.state.hub  # type: ignore[no-any-return]

    # --- pages ------------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def start_page() -> Response:
        return _page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str) -> Response:
        return _page("play.html")

    @app.get("/table/{game_id}", include_in_schema=False)
    async def table_page(game_id: str) -> Response:
        return _page("table.html")

    @app.get("/static/{name:path}", include_in_schema=False)
    async def static(name: str) -> Response:
        # Folders too (the vendored libraries, static/vendor/), but only plain names: no
        # empty, dotted or escaping parts, so nothing outside static/ can be named.
        parts = name.split("/")
        if not all(_STATIC_PART.fullmatch(part) for part in parts):
            raise Problem(NOT_FOUND, "There is nothing here.")
        target = STATIC.joinpath(*parts)
        if not target.is_file():
            raise Problem(NOT_FOUND, "There is nothing here.")
        with resources.as_file(target) as path:
            return FileResponse(Path(path), headers={"Cache-Control": "no-cache"})

    # Outermost first: secure headers on every answer, then the size limit, then the log,
    # then the creation meter (before anything reads a creation's body).
    app.add_middleware(CreationLimit, meter=CreationMeter(limits))
    app.add_middleware(AccessLog)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecureHeaders)
    return app


def accepted(request: Request) -> list[str]:
    """The languages a request's reader reads, best first: ``?lang=`` or Accept-Language."""
    asked = request.query_params.get("lang")
    if asked:
        return asked.split(",")[:8]
    header = request.headers.get("accept-language", "")
    tags = []
    for part in header.split(",")[:16]:
        tag, _, weight = part.strip().partition(";q=")
        try:
            tags.append((float(weight) if weight else 1.0, tag.strip()))
        except ValueError:
            continue
    return [tag for _, tag in sorted(tags, key=lambda t: -t[0]) if tag and tag != "*"]


async def _reader(hub: Hub, game_id: str, request: Request) -> str:
    return negotiate(accepted(request), (await hub.live(game_id)).scenario.ruleset)


def ruleset_catalogue(langs: list[str] | None = None) -> list[dict[str, Any]]:
    out = []
    for ruleset in registry.rulesets().values():
        words = speaker(ruleset.id, negotiate(langs or [], ruleset.id))
        out.append(
            {
                "id": ruleset.id,
                "title": words.word(ruleset.title),
                "summary": words.word(ruleset.summary),
                "modes": list(ruleset.map_modes),
                "examples": [
                    n for n in examples.names() if examples.data(n)["ruleset"] == ruleset.id
                ],
                "odds": list(ruleset.odds_queries),
                "lang": words.lang,
                "languages": list(languages(ruleset.id)),
                "commands": forms.describe(ruleset, words),
            }
        )
    return out


async def _read_body(request: Request, limit: int) -> bytes:
    """The request's body, refused with 413 past ``limit`` bytes (declared or sent)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Problem(TOO_LARGE, f"A scenario may be at most {limit // 1024} KiB.")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise Problem(TOO_LARGE, f"A scenario may be at most {limit // 1024} KiB.")
        chunks.append(chunk)
    return b"".join(chunks)


def _new_game_of(raw: bytes) -> tuple[NewGame, Scenario]:
    """Parse and validate a creation request (in a worker thread: it may be large)."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "depth" in str(exc) or "recursion" in str(exc):  # orjson stops at 1,024 deep
            deep = f"The scenario nests deeper than {MAX_DEPTH} levels."
            raise Problem(BAD_SCENARIO, deep) from None
        raise Problem(BAD_REQUEST, "The request is not well-formed.") from None
    try:
        body = NewGame.model_validate(data)
    except ValidationError:
        # Never the validator's own report: it would echo the input (TRUST.md §3.5).
        raise Problem(BAD_REQUEST, "The request is not well-formed.") from None
    return body, _scenario_of(body)


def _scenario_of(body: NewGame) -> Scenario:
    given = [v for v in (body.scenario, body.scenario_data, body.scenario_toml) if v is not None]
    if len(given) != 1:
        raise Problem(BAD_SCENARIO, "Give one scenario: an example's name, its data, or a file.")
    try:
        if body.scenario is not None:
            if body.scenario not in examples.names():
                raise Problem(BAD_SCENARIO, "There is no such example scenario.")
            return examples.load(body.scenario)
        if body.scenario_toml is not None:
            return load_scenario(loads_toml(body.scenario_toml))
        assert body.scenario_data is not None
        return load_scenario(body.scenario_data)
    except ScenarioError as exc:
        # The scenario's own author reads this: it names the offending keys.
        raise Problem(BAD_SCENARIO, str(exc)[:2000]) from None


async def _seated(hub: Hub, game_id: str, authorization: str | None, seat: str | None) -> str:
    """The observer of the request's token, once its device may act for it: a side whose
    seat another device took is refused (``X-Ghillie-Seat`` names this device's key)."""
    observer = await hub.observer(game_id, _bearer(authorization))
    await seats.check(hub, await hub.live(game_id), observer, seats.device_of(seat))
    return observer


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    return None


def _qr(url: str) -> str:
    buffer = segno.make(url, error="m").svg_inline(scale=4, border=2)
    return str(buffer)


def _page(name: str) -> Response:
    html = (STATIC / name).read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})
