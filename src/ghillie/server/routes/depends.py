"""What every route asks for first: the hub, and who is asking (FastAPI dependencies).

A side is named only by its capability token (``Authorization: Bearer …``), and a device by
its seat key (``X-Ghillie-Seat``), never by anything in the URL. A :class:`Caller` holds
both, unread: a route asks it for the observer once the request itself is well-formed, so a
malformed request is refused 400 before any token or seat is looked at (FastAPI calls a
dependency before it validates the route's body), and a taken seat's holder is told only of
requests that reach the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from ghillie.server import seats
from ghillie.server.hub import Hub
from ghillie.server.limits import Limits
from ghillie.words.catalog import negotiate


def the_hub(connection: HTTPConnection) -> Hub:
    return connection.app.state.hub  # type: ignore[no-any-return]


def the_limits(connection: HTTPConnection) -> Limits:
    return connection.app.state.limits  # type: ignore[no-any-return]


TheHub = Annotated[Hub, Depends(the_hub)]
TheLimits = Annotated[Limits, Depends(the_limits)]


def base_url(request: Request) -> str:
    """Where links are built from: the app's ``public_url``, else where this request went."""
    public: str | None = request.app.state.public_url
    return public or str(request.base_url).rstrip("/")


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


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization[:7].lower() == "bearer ":
        return authorization[7:].strip()
    return None


@dataclass(frozen=True)
class Caller:
    """Who asks about one game: the link's token and, if it gave one, its device's seat key."""

    hub: Hub
    game_id: str
    request: Request
    token: str | None
    seat: str | None = None

    async def observer(self) -> str:
        """The side (or referee, or table screen) the link is for: any link of the game."""
        return await self.hub.games.observer(self.game_id, self.token)

    async def seated(self) -> str:
        """The observer, once this device may act for it: a side whose seat another device
        took is refused (``X-Ghillie-Seat`` names this device's key)."""
        observer = await self.observer()
        game = await self.hub.games.live(self.game_id)
        await self.hub.seats.check(game, observer, self.device())
        return observer

    def device(self) -> str | None:
        return seats.device_of(self.seat)

    async def lang(self) -> str:
        """The language the reader reads, of those the game's ruleset has."""
        game = await self.hub.games.live(self.game_id)
        return negotiate(accepted(self.request), game.scenario.ruleset)


def any_link(
    game_id: str,
    request: Request,
    hub: TheHub,
    authorization: Annotated[str | None, Header()] = None,
) -> Caller:
    return Caller(hub, game_id, request, bearer(authorization))


def a_seat(
    game_id: str,
    request: Request,
    hub: TheHub,
    authorization: Annotated[str | None, Header()] = None,
    x_ghillie_seat: Annotated[str | None, Header()] = None,
) -> Caller:
    return Caller(hub, game_id, request, bearer(authorization), x_ghillie_seat)


# A route of any link of the game; a route that acts for a side, from its seat's device.
AnyLink = Annotated[Caller, Depends(any_link)]
ASeat = Annotated[Caller, Depends(a_seat)]
