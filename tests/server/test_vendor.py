"""The vendored JavaScript libraries (static/vendor/) are exactly what scripts/vendor-js
wrote from the pinned, integrity-checked npm tarballs: every file listed with its SHA-256,
nothing unlisted, the versions and integrity values the script pins, a licence with each
package, no bare module specifier a browser could not load, and every file served and
installed with the package. The test-only library (axe-core, in tests/server/vendor/) is
checked against its own manifest the same way, and is neither served nor installed."""

from __future__ import annotations

import hashlib
import json
import re
import runpy
import zipfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ghillie.server.app import create_app
from ghillie.store import MemoryStore

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "src" / "ghillie" / "server" / "static" / "vendor"
TEST_VENDOR = ROOT / "tests" / "server" / "vendor"
SCRIPT: dict[str, Any] = runpy.run_path(str(ROOT / "scripts" / "vendor-js"))
MANIFEST: dict[str, Any] = json.loads((VENDOR / "MANIFEST.json").read_text(encoding="utf-8"))
TEST_MANIFEST: dict[str, Any] = json.loads(
    (TEST_VENDOR / "MANIFEST.json").read_text(encoding="utf-8")
)


def listed(vendor: Path = VENDOR, manifest: dict[str, Any] = MANIFEST) -> dict[Path, str]:
    out = {}
    for package in manifest["packages"].values():
        for name, digest in package["files"].items():
            out[vendor / package["folder"] / name] = digest
    return out


def test_the_manifest_carries_the_pinned_versions_and_integrity() -> None:
    pins = SCRIPT["PINS"]
    assert set(MANIFEST["packages"]) == set(pins) == {"@noble/hashes", "@noble/curves"}
    for name, (version, integrity) in pins.items():
        package = MANIFEST["packages"][name]
        assert package["version"] == version
        assert package["integrity"] == integrity
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity)
        assert "LICENSE" in package["files"]
    # Exact versions, and the two in step: @noble/curves 2.4.0 requires @noble/hashes 2.4.0.
    assert pins["@noble/hashes"][0] == pins["@noble/curves"][0] == "2.4.0"


def test_the_test_manifest_carries_the_pinned_versions_and_integrity() -> None:
    pins = SCRIPT["TEST_PINS"]
    assert set(TEST_MANIFEST["packages"]) == set(pins) == {"axe-core"}
    assert SCRIPT["TEST_VENDOR"] == TEST_VENDOR
    for name, (version, integrity) in pins.items():
        package = TEST_MANIFEST["packages"][name]
        assert package["version"] == version
        assert package["integrity"] == integrity
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity)
        assert set(package["files"]) == set(SCRIPT["TEST_FILES"][name])
        assert "LICENSE" in package["files"]
    # The file itself says which version it is: the one pinned.
    axe = TEST_MANIFEST["packages"]["axe-core"]
    head = (TEST_VENDOR / axe["folder"] / "axe.min.js").read_text(encoding="utf-8")[:200]
    assert head.startswith(f"/*! axe v{axe['version']}\n"), head[:40]


@pytest.mark.parametrize(
    ("vendor", "manifest"),
    [(VENDOR, MANIFEST), (TEST_VENDOR, TEST_MANIFEST)],
    ids=["pages", "tests"],
)
def test_every_vendored_file_is_listed_and_unchanged(
    vendor: Path, manifest: dict[str, Any]
) -> None:
    files = listed(vendor, manifest)
    on_disk = {p for p in vendor.rglob("*") if p.is_file() and p.name != "MANIFEST.json"}
    assert on_disk == set(files)
    changed = [
        p for p, digest in files.items() if hashlib.sha256(p.read_bytes()).hexdigest() != digest
    ]
    assert changed == []


def test_the_modules_import_nothing_but_relative_files_that_exist() -> None:
    pattern = re.compile(r"""^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]""", re.M)
    for path in listed():
        if path.suffix != ".js":
            continue
        for spec in pattern.findall(path.read_text(encoding="utf-8")):
            assert spec.startswith(("./", "../")), (path, spec)
            assert (path.parent / spec).resolve().is_file(), (path, spec)


def test_the_pages_can_load_every_vendored_file() -> None:
    client = TestClient(create_app(MemoryStore()))
    for path in listed():
        url = "/static/" + path.relative_to(VENDOR.parent).as_posix()
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.content == path.read_bytes()
        if path.suffix == ".js":
            assert "javascript" in answer.headers["content-type"]
    for bad in ("vendor/.hidden", "vendor/%2e%2e/index.html", "vendor//x.js", "vendor/nothing.js"):
        assert client.get("/static/" + bad).status_code == 404, bad
    # The tests' own library is not the pages' to load.
    for path in listed(TEST_VENDOR, TEST_MANIFEST):
        name = path.relative_to(TEST_VENDOR).as_posix()
        assert client.get("/static/vendor/" + name).status_code == 404, name


def test_the_vendored_files_are_installed_with_the_package(tmp_path: Path) -> None:
    # What a wheel holds is what pyproject's package-data names; built here to be sure.
    import subprocess
    import sys

    assert "server/static/vendor/**/*" in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = tmp_path.glob("ghillie-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in [*listed(), VENDOR / "MANIFEST.json"]:
        assert "ghillie/" + path.relative_to(ROOT / "src" / "ghillie").as_posix() in names
    assert not [name for name in names if "axe" in name.lower()]
