"""Phones at a table: ``ghillie serve --lan`` (or ``--host 0.0.0.0``) and ``--public-url``
build every link and QR code from the address the players' phones open, even when the host
creates the game from 127.0.0.1."""

from __future__ import annotations

import ipaddress
import json
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import segno
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ghillie.cli import app as cli
from ghillie.server.app import create_app
from ghillie.server.lan import checked_public_url, terminal_qr
from ghillie.store import MemoryStore
from tests.server.pages import serve

SERVE = [sys.executable, "-m", "ghillie.cli", "serve"]
# ghillie serve as if this machine had no address but loopback.
SERVE_OFFLINE = [
    sys.executable,
    "-c",
    "import ghillie.server.run as run; run.lan_address = lambda: None; "
    "from ghillie.cli import main; main()",
    "serve",
]


def machine_addresses() -> set[str]:
    """This machine's non-loopback IPv4 addresses, as ``ip`` lists them (found apart from
    ghillie's own way of finding them)."""
    ip = shutil.which("ip")
    if ip is None:
        pytest.skip("no ip command to list this machine's addresses")
    listed = subprocess.run([ip, "-4", "-o", "addr", "show"], capture_output=True, text=True)
    found = {m.group(1) for m in re.finditer(r"\binet (\d+\.\d+\.\d+\.\d+)/", listed.stdout)}
    return {a for a in found if not ipaddress.IPv4Address(a).is_loopback}


def create(base: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/games",
        data=json.dumps({"scenario": "grid-ambush-table", "chains": "host"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.load(answer))


def qr_of(url: str) -> str:
    """The QR code the server builds of ``url`` (app._qr)."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2))


def view_at(url: str) -> dict[str, Any]:
    """The view a link opens, asked for at the link's own address."""
    base, rest = url.split("/play/", 1)
    game, token = rest.split("#", 1)
    request = urllib.request.Request(
        f"{base}/api/games/{game}/view", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.load(answer))


def assert_links_use(created: dict[str, Any], start: str, local: str) -> None:
    """Every link of ``created`` is at ``start`` and its QR code encodes that very link, not
    the ``local`` address the request was sent to."""
    # Two sides, the referee and the table screen.
    assert len(created["links"]) == 4
    for link in created["links"]:
        url = link["url"]
        page = "table" if link["observer"] == "spectator" else "play"
        assert url.startswith(f"{start}{page}/{created['game_id']}#"), url
        assert link["qr_svg"] == qr_of(url)
        assert link["qr_svg"] != qr_of(url.replace(start.rstrip("/"), local))


@pytest.mark.parametrize("listen", [["--lan"], ["--host", "0.0.0.0"]], ids=["lan", "host"])
def test_serve_on_every_interface_links_to_this_machines_network_address(
    tmp_path: Path, listen: list[str]
) -> None:
    addresses = machine_addresses()
    if not addresses:
        pytest.skip("this machine has no network address but loopback")
    with serve(tmp_path, [*SERVE, *listen]) as local:
        printed = (tmp_path / "server.log").read_text(encoding="utf-8")
        found = re.search(r"Phones on this network: open (http://([\d.]+):(\d+)/)", printed)
        assert found, printed
        start, address, port = found.groups()
        assert address in addresses
        assert local == f"http://127.0.0.1:{port}"
        assert "0.0.0.0" not in printed  # neither ghillie's words nor uvicorn's
        assert terminal_qr(start) in printed  # the start page's QR code, in the terminal
        # The host creates the game at 127.0.0.1; the links are for the phones.
        created = create(local)
        assert_links_use(created, start, local)
        # And the server answers at that address: a phone's link opens its side's view.
        sides = {link["observer"]: link["url"] for link in created["links"]}
        assert view_at(sides["jungle"])["you"] == "jungle"


def test_serve_public_url_builds_every_link_from_it(tmp_path: Path) -> None:
    with serve(tmp_path, [*SERVE, "--public-url", "https://ghillie.example.org/"]) as local:
        printed = (tmp_path / "server.log").read_text(encoding="utf-8")
        assert "Players open https://ghillie.example.org/ " in printed
        assert terminal_qr("https://ghillie.example.org/") in printed
        assert_links_use(create(local), "https://ghillie.example.org/", local)


def test_serve_on_a_machine_with_no_network_says_so_and_keeps_serving(tmp_path: Path) -> None:
    with serve(tmp_path, [*SERVE_OFFLINE, "--lan"]) as local:
        printed = (tmp_path / "server.log").read_text(encoding="utf-8")
        assert "no network address" in printed
        assert "Phones on this network" not in printed
        # Links fall back to the address the request was sent to.
        created = create(local)
        for link in created["links"]:
            assert link["url"].startswith((f"{local}/play/", f"{local}/table/"))
            assert link["qr_svg"] == qr_of(link["url"])


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("ftp://ghillie.example.org/", "http:// or https://"),
        ("ghillie.example.org", "http:// or https://"),
        ("https://", "names no host"),
        ("https://ghillie.example.org:99999/", "not a web address"),
        ("https://ghillie.example.org/games/", "root of its address"),
        ("https://ghillie.example.org/?x=1", "query or fragment"),
        ("https://me:secret@ghillie.example.org/", "user name or password"),
    ],
)
def test_serve_refuses_a_public_url_that_will_not_do(url: str, said: str) -> None:
    # Refused before any database is opened or port bound.
    result = CliRunner().invoke(cli, ["serve", "--public-url", url, "--db", "/nonexistent/x"])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.split())


def test_serve_refuses_lan_with_another_host() -> None:
    result = CliRunner().invoke(cli, ["serve", "--lan", "--host", "127.0.0.1"])
    assert result.exit_code == 2, result.output
    assert "--lan" in result.output


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("https://ghillie.example.org/", "https://ghillie.example.org"),
        ("http://192.0.2.7:8000", "http://192.0.2.7:8000"),
        ("HTTPS://Ghillie.Example.org:8443/", "https://ghillie.example.org:8443"),
        ("http://[2001:db8::1]:8000/", "http://[2001:db8::1]:8000"),
    ],
)
def test_a_public_url_is_kept_without_its_trailing_slash(given: str, kept: str) -> None:
    assert checked_public_url(given) == kept


def test_the_app_builds_links_from_its_public_url_whatever_address_it_is_asked_at() -> None:
    with TestClient(create_app(MemoryStore(), public_url="https://ghillie.example.org/")) as c:
        created = c.post("/api/games", json={"scenario": "grid-ambush"}).json()
    assert_links_use(created, "https://ghillie.example.org/", "http://testserver")
    with TestClient(create_app(MemoryStore())) as c:  # none: the request's own address
        created = c.post("/api/games", json={"scenario": "grid-ambush"}).json()
    assert_links_use(created, "http://testserver/", "http://elsewhere")
