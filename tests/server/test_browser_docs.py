"""/docs and the Content-Security-Policy in a real browser (issue 10, finding 9): Swagger UI
renders from this server's own assets under the pages' CSP, the play page's websocket still
connects under ``connect-src 'self'``, and a websocket to any other host is refused."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import urlparse

from . import test_browser
from .test_browser import TIMEOUT_MS

server = test_browser.server
browser = test_browser.browser


def test_swagger_ui_renders_from_this_server_under_its_csp(browser: Any, server: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    origins: set[str] = set()
    console: list[str] = []
    page.on("request", lambda request: origins.add(_origin(request.url)))
    page.on("console", lambda message: console.append(message.text))
    page.on("pageerror", lambda error: console.append(str(error)))
    try:
        page.goto(server + "/docs")
        # The operations come from /openapi.json, listed by Swagger UI once it runs.
        page.wait_for_selector('.swagger-ui .opblock-summary-path[data-path="/api/games"]')
        assert "ghillie" in page.locator(".swagger-ui .info .title").inner_text()
    finally:
        context.close()
    assert origins == {_origin(server)}  # nothing from a CDN or anywhere else
    assert not [line for line in console if "Content Security Policy" in line], console


def test_the_play_page_websocket_connects_and_no_other_host_can_be_reached(
    browser: Any, server: str
) -> None:
    body = json.dumps({"scenario": "grid-ambush-table"}).encode()
    request = urllib.request.Request(
        f"{server}/api/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        links = {link["observer"]: link["url"] for link in json.load(answer)["links"]}
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(links["orks"])
        page.wait_for_selector("#conn[data-state=live]")  # its websocket is open: 'self'
        port = urlparse(server).port
        refused = page.evaluate(
            """(port) => new Promise((resolve) => {
                document.addEventListener('securitypolicyviolation', (e) =>
                    resolve(e.violatedDirective), { once: true });
                try {
                    // The same server under another name: another origin. Unblocked, it
                    // opens (and the test fails); blocked, CSP reports the violation.
                    const socket = new WebSocket(`ws://localhost:${port}/api/games/x/ws`);
                    socket.onopen = () => resolve('opened');
                } catch (error) {
                    resolve('thrown: ' + error.name);
                }
            })""",
            port,
        )
    finally:
        context.close()
    assert refused.startswith(("connect-src", "thrown")), refused


def _origin(url: str) -> str:
    parts = urlparse(url)
    return f"{parts.scheme}://{parts.netloc}"
