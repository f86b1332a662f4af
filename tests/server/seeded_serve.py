"""``ghillie serve`` with its ids and the host's randomness grown from one seed, so that a
browser test of a game whose host holds the dice chains plays the same rolls every run (the
story its script tells). For tests only.

    python tests/server/seeded_serve.py --port PORT --db FILE --seed N
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ghillie.fairness.ledger import seeded_bytes
from ghillie.ids import SeededIds
from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.run import build, serve


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--seed", type=int, required=True)
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
