"""The server's routes, one router to a concern; ``app.create_app`` assembles them.

Every route reaches the hub and who is asking through the dependencies of
:mod:`~ghillie.server.routes.depends`.
"""

from __future__ import annotations

from fastapi import APIRouter

from ghillie.server.routes import games, odds, pages, play, reference, seating

# In this order in the API's documentation.
ROUTERS: tuple[APIRouter, ...] = (
    reference.router,
    games.router,
    play.router,
    seating.router,
    odds.router,
    pages.router,
)
