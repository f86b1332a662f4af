"""The address players' phones use: this machine's address on the local network, or the
public address a reverse proxy serves ghillie at.

Links and QR codes are built from it (``create_app(public_url=…)``), so a phone that scans
a code opens this machine even when the host's browser is at http://127.0.0.1:8000/.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
import sys
from typing import IO
from urllib.parse import urlsplit

import ifaddr
import segno

# Listening on these means every interface: the address phones use must be found.
ALL_INTERFACES = frozenset({"0.0.0.0", "::", ""})

# The route to this address is the default route. A UDP socket's connect only picks the
# route and the source address: no packet is sent (it is a documentation address anyway).
_ROUTED = ("198.51.100.1", 9)


def lan_address() -> str | None:
    """This machine's IPv4 address that phones on the same network can reach: the default
    route's source address, else the first usable address of any interface; None if there
    is none but loopback."""
    routed = _default_route_address()
    if routed is not None and _usable(routed):
        return routed
    others = addresses()
    return others[0] if others else None


def addresses() -> list[str]:
    """Every non-loopback IPv4 address of this machine's interfaces, link-local ones
    (169.254.x.x: no DHCP server answered) last."""
    found: list[str] = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        return found
    for adapter in adapters:
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str) and _usable(ip.ip) and ip.ip not in found:
                found.append(ip.ip)
    return sorted(found, key=lambda a: ipaddress.IPv4Address(a).is_link_local)


def _default_route_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTED)
            return str(probe.getsockname()[0])
    except OSError:  # no route at all
        return None


def _usable(address: str) -> bool:
    try:
        parsed = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (parsed.is_loopback or parsed.is_unspecified or parsed.is_multicast)


def checked_public_url(text: str) -> str:
    """``text`` as the address players open (``https://ghillie.example.org``, no trailing
    slash); ValueError, saying what is wrong, if it will not do."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port  # ValueError for a port that is not a number in range
    except ValueError:
        raise ValueError(f"{text!r} is not a web address.") from None
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"{text!r} must start with http:// or https://.")
    if not parts.hostname:
        raise ValueError(f"{text!r} names no host.")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{text!r} must not hold a user name or password.")
    if parts.query or parts.fragment or text.strip().endswith(("?", "#")):
        raise ValueError(f"{text!r} must not have a query or fragment.")
    if parts.path not in ("", "/"):
        raise ValueError(
            f"{text!r} has a path: ghillie must be at the root of its address "
            "(its pages ask for /api/… and /static/…)."
        )
    host = parts.hostname
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None else "")


def terminal_qr(url: str) -> str:
    """A QR code of ``url`` drawn with block characters, for a terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def print_qr(url: str, stream: IO[str] | None = None) -> None:
    """Print ``url``'s QR code; a terminal that cannot show its block characters is told
    so instead."""
    stream = stream or sys.stdout
    text = terminal_qr(url)
    try:
        stream.write(text)
    except UnicodeEncodeError:
        with contextlib.suppress(UnicodeEncodeError):
            stream.write("(this terminal cannot show the QR code)\n")
    stream.flush()
