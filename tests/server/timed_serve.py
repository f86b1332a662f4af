"""``ghillie serve`` with the toy timed ruleset of ``tests/timed.py`` registered, for the
browser test of a reaction window's countdown. For tests only.

    python tests/server/timed_serve.py --port PORT --db FILE
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ghillie import registry
from ghillie.server.limits import Limits
from ghillie.server.logs import configure
from ghillie.server.run import build, serve
from tests.timed import Timed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    args = parser.parse_args()
    configure()
    registry.rulesets()["timed"] = Timed()
    limits = Limits()
    app, store = build(args.db, limits)
    try:
        serve(app, "127.0.0.1", args.port, limits)
    finally:
        app.state.hub.close()
        store.close()


if __name__ == "__main__":
    main()
