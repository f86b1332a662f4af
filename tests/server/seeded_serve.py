"""``ghillie serve`` whose hub takes its piece ids and secrets from a seed, so that a browser
test can play a game whose fair dice it worked out beforehand (``ambush_story``): the
server's first game is exactly ``Game.create(scenario, seed=SEED)``. For tests only: a
seeded host's secrets are no secret.

    python tests/server/seeded_serve.py SEED --port PORT --db FILE
"""

from __future__ import annotations

import argparse

from ghillie.fairness.ledger import seeded_bytes
from ghillie.ids import SeededIds
from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.run import build, serve


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("seed", type=int)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    args = parser.parse_args()
    configure()
    limits = Limits()
    app, store = build(
        args.db, limits, ids=SeededIds(args.seed), random_bytes=seeded_bytes(args.seed)
    )
    try:
        serve(app, "127.0.0.1", args.port, limits)
    finally:
        app.state.hub.close()
        store.close()


if __name__ == "__main__":
    main()
