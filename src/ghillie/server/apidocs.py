"""``/docs``: Swagger UI for the API, served from this server alone.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script; the
pages' Content-Security-Policy (scripts from this server only, no inline scripts) blocks
both, so it showed a blank page. Here the assets come from the ``fastapi-offline`` package
(pinned in pyproject.toml) and the start-up script is a file of its own.
"""

from __future__ import annotations

from importlib import resources

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response

from ghillie.server.problems import NOT_FOUND, Problem

ASSETS = resources.files("fastapi_offline") / "static"
FILES = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon.png": "image/png",
}
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ghillie API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/start.js"></script>
</body>
</html>
"""
START = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""


def add_docs(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets (the app is made with ``docs_url=None``)."""

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return HTMLResponse(PAGE)

    @app.get("/docs/assets/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name == "start.js":
            return Response(START, media_type="text/javascript; charset=utf-8")
        if name not in FILES:
            raise Problem(NOT_FOUND, "There is nothing here.")
        # Read once per request: ~1.5 MB, served rarely (a developer opening /docs).
        return Response(
            (ASSETS / name).read_bytes(),
            media_type=FILES[name],
            headers={"Cache-Control": "public, max-age=86400"},
        )
