"""/docs is served from this server alone, and the CSP lets pages connect only to it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from ghillie.server.app import create_app
from ghillie.store import MemoryStore


def test_docs_and_every_asset_it_loads_come_from_this_server() -> None:
    with TestClient(create_app(MemoryStore())) as client:
        page = client.get("/docs")
        assert page.status_code == 200
        html = page.text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # no inline script
        assets = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert len(assets) == 4
        for asset in assets:
            assert asset.startswith("/docs/assets/"), asset  # no CDN, no other host
            answer = client.get(asset)
            assert answer.status_code == 200, asset
            assert len(answer.content) > 10
        assert client.get("/docs/assets/../app.py").status_code == 404
        assert client.get("/docs/assets/nothing.js").json()["code"] == "not_found"
        assert client.get("/redoc").status_code == 404  # it loaded a CDN script too


def test_the_csp_lets_pages_connect_to_their_own_origin_only() -> None:
    with TestClient(create_app(MemoryStore())) as client:
        for path in ("/", "/docs", "/api/health"):
            policy = client.get(path).headers["content-security-policy"]
            directives = dict(
                ([*d.strip().split(" ", 1), ""])[:2] for d in policy.split(";") if d.strip()
            )
            assert directives["connect-src"] == "'self'"
            assert directives["default-src"] == "'self'"
            assert "ws:" not in policy
