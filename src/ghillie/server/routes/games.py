"""Games as wholes: creating one (a link and QR code per side), a side's view of it, and,
once it is over, its record and its story step by step."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

import orjson
import segno
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ghillie import examples
from ghillie.errors import ScenarioError
from ghillie.game import load_scenario
from ghillie.scenario import MAX_DEPTH, Scenario, loads_toml
from ghillie.server.hub import WAIT, Created
from ghillie.server.problems import BAD_REQUEST, BAD_SCENARIO, TOO_LARGE, Problem
from ghillie.server.routes.depends import AnyLink, ASeat, TheHub, TheLimits, accepted, base_url
from ghillie.state import REFEREE, SPECTATOR
from ghillie.words import N_, speaker
from ghillie.words.catalog import negotiate

router = APIRouter()


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
    qr: bool = Field(
        True,
        description="each link with its QR code, as an SVG (the start page shows them); "
        "false for a client that draws its own or shows none (the CLI): each code costs "
        "the server some milliseconds",
    )


class Link(BaseModel):
    observer: str
    name: str
    url: str
    qr_svg: str | None = None  # with ``"qr": true`` (the default) only


class CreatedGame(BaseModel):
    game_id: str
    ruleset: str
    title: str
    links: list[Link]


@router.post(
    "/api/games",
    status_code=201,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": NewGame.model_json_schema()}},
        }
    },
)
async def create_game(request: Request, hub: TheHub, limits: TheLimits) -> CreatedGame:
    """Start a game; the answer holds one private link per side, one for the referee and
    one for the table screen (the spectator: public facts only).
    Rate-limited per client address and overall (429 with ``Retry-After``)."""
    # The body is read and parsed here, not by FastAPI, so that a large scenario is
    # parsed and validated in a worker thread: on the event loop it would hold up every
    # other game (a 3.4 MB scenario blocked the loop for 0.8 s).
    raw = await _read_body(request, limits.max_scenario)
    async with request.app.state.setting_up:
        body, scenario = await asyncio.to_thread(_new_game_of, raw)
        wait = None if body.wait_for_pages == "always" else body.wait_for_pages
        created = await hub.create(scenario, clients=body.chains == "clients", wait=wait)
    links = await _links(created, scenario, base_url(request), accepted(request), body.qr)
    return CreatedGame(
        game_id=created.game_id, ruleset=created.ruleset, title=created.title, links=links
    )


async def _links(
    created: Created, scenario: Scenario, base: str, langs: list[str], with_qr: bool
) -> list[Link]:
    """A link per observer, named in the reader's words, with its QR code if asked for (a
    code takes about 6 ms of pure Python, which holds up every other game meanwhile)."""
    words = speaker(scenario.ruleset, negotiate(langs, scenario.ruleset))
    names = {s.id: s.name for s in scenario.sides} | {REFEREE: words.word(N_("Referee"))}
    # Public facts only, for a screen everyone sees.
    names[SPECTATOR] = words.word(N_("Table screen"))
    page = {SPECTATOR: "table"}  # every other link opens the side's (or referee's) page
    urls = {
        o: f"{base}/{page.get(o, 'play')}/{created.game_id}#{t}" for o, t in created.tokens.items()
    }
    codes: dict[str, str | None] = dict.fromkeys(urls)
    if with_qr:
        codes |= await asyncio.to_thread(lambda: {o: qr(url) for o, url in urls.items()})
    return [Link(observer=o, name=names[o], url=url, qr_svg=codes[o]) for o, url in urls.items()]


@router.get("/api/games/{game_id}/view")
async def view(game_id: str, caller: ASeat, after: int = -1) -> dict[str, Any]:
    """What the link's side may know of the game; ``after`` limits the log to later events."""
    observer = await caller.seated()
    lang = await caller.lang()
    return await caller.hub.view(game_id, observer, max(after, -1), lang)


@router.get("/api/games/{game_id}/record")
async def record(game_id: str, caller: AnyLink) -> dict[str, Any]:
    """The complete record of a finished game, every secret in it, for ``ghillie audit``."""
    await caller.observer()
    return await caller.hub.record(game_id)


@router.get("/api/games/{game_id}/story")
async def story(game_id: str, caller: AnyLink, seq: int = 0) -> dict[str, Any]:
    """After the game: every side's view and the referee's as they stood after event
    ``seq``, to step through the game with each side's view beside the truth."""
    await caller.observer()
    return await caller.hub.story(game_id, seq, await caller.lang())


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


def qr(url: str) -> str:
    """A link's QR code, as the SVG a page shows."""
    buffer = segno.make(url, error="m").svg_inline(scale=4, border=2)
    return str(buffer)
