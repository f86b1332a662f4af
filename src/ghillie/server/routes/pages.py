"""The pages: HTML for the start page, a side's page, the table screen and the replay, and
the files under ``static/`` they load."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from ghillie.server.problems import NOT_FOUND, Problem

router = APIRouter(include_in_schema=False)

STATIC = resources.files("ghillie.server") / "static"
_STATIC_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*")


@router.get("/replay/{game_id}")
async def replay_page(game_id: str) -> Response:
    return _page("replay.html")


@router.get("/")
async def start_page() -> Response:
    return _page("index.html")


@router.get("/play/{game_id}")
async def play_page(game_id: str) -> Response:
    return _page("play.html")


@router.get("/table/{game_id}")
async def table_page(game_id: str) -> Response:
    return _page("table.html")


@router.get("/static/{name:path}")
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


def _page(name: str) -> Response:
    html = (STATIC / name).read_text(encoding="utf-8")
    return HTMLResponse(html, headers={"Cache-Control": "no-cache"})
