"""The README's nginx front before two ``ghillie serve`` processes on one PostgreSQL, run as
written: games made and played through it (the websocket too), each ruled by one process,
and a game whose owner is killed goes on through the front."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_durability import Player, Server, free_port, request
from .test_owners import _owner, play

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (scripts/services installs nginx-light)"
)


def _config(folder: Path, port: int, servers: list[int]) -> Path:
    """The README's configuration, on the test's ports, in a main configuration of its own
    (its files in ``folder``, in the foreground)."""
    block = re.search(r"```nginx\n(.*?)```", README, re.DOTALL)
    assert block is not None, "the README shows no nginx configuration"
    front = block[1].replace("listen 80;", f"listen 127.0.0.1:{port};")
    front = front.replace("127.0.0.1:8001", f"127.0.0.1:{servers[0]}")
    front = front.replace("127.0.0.1:8002", f"127.0.0.1:{servers[1]}")
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    temp += f" uwsgi_temp_path {folder / 'uwsgi'}; scgi_temp_path {folder / 'scgi'};"
    user = "user root;" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user} daemon off; worker_processes 1; pid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'};\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; {temp}\n{front}\n}}\n",
        encoding="utf-8",
    )
    return conf


@pytest.fixture
def front(
    tmp_path: Path, postgres_url: str, two_servers: tuple[Server, Server]
) -> Iterator[tuple[int, Server, Server, str]]:
    a, b = two_servers
    port = free_port()
    conf = _config(tmp_path, port, [a.port, b.port])
    nginx = subprocess.Popen(
        [str(NGINX), "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, http.client.HTTPException):
                if request(port, "GET", "/api/health")[0] == 200:
                    break
            time.sleep(0.05)
        yield port, a, b, postgres_url
    finally:
        nginx.terminate()  # the master stops its worker
        nginx.wait(timeout=10)


def test_games_through_the_readme_nginx_front_are_ruled_by_one_process_each(
    front: tuple[int, Server, Server, str],
) -> None:
    port, a, b, url = front
    addresses = {f"http://127.0.0.1:{s.port}": s for s in (a, b)}
    games = []
    for _ in range(6):
        status, created = request(port, "POST", "/api/games", {"scenario": "grid-ambush-table"})
        assert status == 201, created
        tokens = {link["observer"]: link["url"].split("#")[1] for link in created["links"]}
        games.append((created["game_id"], tokens))
    owners: dict[str, str | None] = {}
    for game, tokens in games:
        play(port, game, tokens, 4)
        owners[game] = _owner(url, game)
        assert owners[game] in addresses
    spread = {address: list(owners.values()).count(address) for address in addresses}
    print(f"\ngames by owner behind the front: {spread}")

    # The first game's owner killed: the front passes it over, the other process claims
    # the game once the lease is over, and the game goes on where it was.
    game, tokens = games[0]
    dead = addresses[str(owners[game])]
    dead.kill()
    player = Player(game, tokens)
    player.given = 4
    side, command = player.next()
    body = {"command_id": "after-the-kill", "command": command}
    for _ in range(400):
        # nginx's own 502 page is no JSON (ValueError): no process to take it yet.
        with contextlib.suppress(OSError, http.client.HTTPException, ValueError):
            status, answer = request(
                port, "POST", f"/api/games/{game}/commands", body, tokens[side]
            )
            if status == 200:
                break
            assert status == 503, answer  # the lease is not over yet
        time.sleep(0.05)
    assert (status, answer["seq"]) == (200, 5)
    survivor = next(s for s in (a, b) if s is not dead)
    assert _owner(url, game) == f"http://127.0.0.1:{survivor.port}"
