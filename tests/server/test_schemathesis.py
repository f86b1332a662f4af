"""API robustness: schemathesis generates requests from /openapi.json and finds no server
error, no undocumented status or content type, and no body that breaks its schema."""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.schemas import APIOperation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from ghillie.server.app import create_app
from ghillie.server.hub import Hub
from ghillie.store import MemoryStore

hub = Hub(MemoryStore())
app = create_app(MemoryStore(), hub=hub)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

with TestClient(app) as _client:
    _created = _client.post("/api/games", json={"scenario": "suspicious-places-table"}).json()
GAME = _created["game_id"]
TOKEN = _created["links"][0]["url"].split("#")[1]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
STATS: Counter[str] = Counter()


# One test per operation, each with an id of its own ("POST /api/games"): the tests that
# ``schema.parametrize()`` makes all share one node id, and pytest-xdist runs one of them.
OPERATIONS = [result.ok() for result in schema.get_all_operations()]


@pytest.mark.parametrize("operation", OPERATIONS, ids=[op.label for op in OPERATIONS])
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_api_survives_generated_requests(operation: APIOperation, data: st.DataObject) -> None:
    # Valid requests and invalid ones, as schemathesis makes by default.
    modes = [operation.as_strategy(generation_mode=mode) for mode in GenerationMode]
    case = data.draw(st.one_of(modes))
    # Half the requests reach a real game with a real token; the rest are strangers.
    if case.path_parameters and "game_id" in case.path_parameters and hash(str(case.body)) % 2:
        case.path_parameters["game_id"] = GAME
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {TOKEN}"}
    case.call_and_validate(checks=CHECKS)
    STATS["schemathesis examples"] += 1
