"""Scripted players for ``benchmarks/load.py --mix realistic``: each one reads only its own
side's view, as a page does, and picks its next command from the view's ``commands`` (the
offers, with the pieces each field may name) and from what the view shows (its pieces, the
pieces it knows of, the map and the table). No rules code is imported: the players are
clients over the wire.

Two bundled scenarios, chosen for the expensive paths:

- ``suspicious-places`` (map mode): the Lianra lay out their markers and record in secret
  what lies under each (commitments written), the Keno lay out their sniper's three markers
  (one true: a commitment); in play, units activate in turn (a camouflaged squad that
  activates is revealed: an opening), observe and fire at markers (the range die is rolled in
  secret; a marker that is exposed or removed opens what it hid), move on the markers (a
  marker in the open in sight, or under the squad, is removed: an opening), and the hidden
  sniper makes covert moves (a secret roll that may rewrite which marker is true).
- ``ambush-fields`` (map mode): the Cylons hide behind a field; every turn both fleets plot
  their moves in secret (commitments), declare scanners (secret rolls at the end of the
  Movement Phase, which locate the field: openings), and in the Combat Phase fire at what
  they see, spend scout points on EW and identify counters.

A game is ended (``end_game``) after a few turns, and the load generator starts a new one, so
that set-ups (where most commitments are written) keep coming.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

View = dict[str, Any]
Command = dict[str, Any]
XY = tuple[float, float]

SCENARIOS = ("suspicious-places", "ambush-fields")
TURNS = {"suspicious-places": 3, "ambush-fields": 2}  # turns played before ending the game
LENGTH = {"suspicious-places": 84, "ambush-fields": 36}  # commands in such a game, about


def merge(view: View, update: Mapping[str, Any]) -> None:
    """Apply a websocket ``update`` to a view held in full (docs/api.md, Websocket, 3):
    append the log, replace every other key it holds, drop keys that come as null."""
    for key, value in update.items():
        if key == "log":
            view["log"] = [*view.get("log", ()), *value]
        elif value is None:
            view.pop(key, None)
        else:
            view[key] = value


def offers(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["type"]: c for c in view.get("commands", ())}


def choices(offer: Mapping[str, Any], path: str) -> list[Any]:
    return [c["value"] for c in offer.get("choices", {}).get(path, ())]


class Player:
    """One side of one game: the next command it gives, from its view (or None: nothing to
    do now). ``refused`` is told of every refusal, so that a command refused once is not
    given again in the same situation."""

    def __init__(self, scenario: str, side: str, rng: random.Random) -> None:
        self.scenario, self.side, self.rng = scenario, side, rng
        self.avoid: set[str] = set()  # repr of commands refused at this seq
        self.avoid_seq = -1
        self.given: dict[tuple[Any, ...], list[str]] = {}  # phase -> commands given in it
        self.last: tuple[int, tuple[Any, ...], Command] = (-1, (), {})

    def refused(self) -> None:
        """The last command given was refused: not again in the same situation."""
        seq, _, command = self.last
        if seq != self.avoid_seq:
            self.avoid, self.avoid_seq = set(), seq
        self.avoid.add(repr(sorted(command.items())))

    def accepted(self) -> None:
        """The last command given was accepted."""
        _, key, command = self.last
        if key not in self.given:
            self.given = {key: []}
        self.given[key].append(command["type"])

    def ok(self, view: View, command: Command) -> bool:
        return view["seq"] != self.avoid_seq or repr(sorted(command.items())) not in self.avoid

    def phase_key(self, view: View) -> tuple[Any, ...]:
        board = view["board"]
        return (view["phase"], board.get("turn"), board.get("step"))

    def next(self, view: View) -> Command | None:
        command = self.pick(view)
        if command is not None:
            self.last = (view["seq"], self.phase_key(view), command)
        return command

    def end_now(self, view: View) -> Command | None:
        """End the game now, if this side may (in play: ambush-fields asks both sides
        during the set-up)."""
        if view["phase"] != "play" or "end_game" not in offers(view):
            return None
        command = {"type": "end_game"}
        self.last = (view["seq"], self.phase_key(view), command)
        return command

    def pick(self, view: View) -> Command | None:
        if view["phase"] == "over" or not view.get("your_move"):
            return None
        offered = offers(view)
        turn = int(view["board"].get("turn", 0))
        if view["phase"] == "play" and turn > TURNS[self.scenario] and "end_game" in offered:
            return {"type": "end_game"}
        pick = SuspiciousPlaces if self.scenario == "suspicious-places" else AmbushFields
        for command in pick(self, view, offered).commands():
            if command is not None and self.ok(view, command):
                return command
        return None


# --- suspicious-places ------------------------------------------------------------------


class SuspiciousPlaces:
    def __init__(self, player: Player, view: View, offered: dict[str, dict[str, Any]]) -> None:
        self.player, self.view, self.offered = player, view, offered
        self.rng = player.rng
        self.board = view["board"]
        self.blocking = [t["outline"] for t in view["table"]["terrain"] if t.get("blocks_sight")]
        self.points: dict[str, list[XY]] = {}
        for token in (view.get("map") or {}).get("tokens", ()):
            if token.get("id"):
                models = token.get("models") or [token["at"]]
                self.points[token["id"]] = [(p[0], p[1]) for p in models]

    def commands(self) -> Sequence[Command | None]:
        if self.view["phase"] == "setup":
            return self.setup()
        activation = self.board.get("activation")
        if activation is None:
            return [self.activate(), {"type": "pass"} if "pass" in self.offered else None]
        if activation["actions_left"] <= 0 or "end_activation" not in self.offered:
            return [{"type": "end_activation"}]
        return [*self.actions(activation), {"type": "end_activation"}]

    # Set-up: markers laid out, what they hide recorded, the sniper's markers, then ready.
    def setup(self) -> list[Command | None]:
        out: list[Command | None] = []
        left = int(self.board.get("markers_to_place", 0))
        if left and "place_markers" in self.offered:
            out.append({"type": "place_markers", "markers": [{"at": p} for p in self.spots(left)]})
        if "hide" in self.offered:
            out.append(self.hide())
        if "place_sniper" in self.offered:
            offer = self.offered["place_sniper"]
            x, y = self.rng.uniform(8, 30), self.rng.uniform(8, 14)
            for sniper in choices(offer, "sniper"):
                out.append(
                    {
                        "type": "place_sniper",
                        "sniper": sniper,
                        "markers": [[x, y], [x + 4, y], [x + 2, y + 3]],
                        "true_marker": self.rng.randrange(3),
                        "note": "in the hedge",
                    }
                )
        if not out and "ready" in self.offered:
            out.append({"type": "ready"})
        return out

    def spots(self, n: int) -> list[list[float]]:
        """Most markers in the birch grove, some in the ravine, one in the open (exposed when
        play begins, if the Keno see it)."""
        rng = self.rng
        out = []
        for i in range(n):
            if i == n - 1 and n > 2:
                out.append([rng.uniform(20, 26), rng.uniform(20, 24)])  # in the open
            elif i % 3 == 2:
                out.append([rng.uniform(5, 19), rng.uniform(27, 30)])  # the ravine
            else:
                out.append([rng.uniform(29, 45), rng.uniform(31, 43)])  # the birch grove
        return out

    def hide(self) -> Command:
        pieces = self.view["pieces"]
        markers = [p["id"] for p in pieces if p["kind"] == "marker"]
        units = [
            p["id"]
            for p in pieces
            if p["kind"] == "unit" and p["public"].get("status") == "camouflaged"
        ]
        self.rng.shuffle(markers)
        hidings: list[dict[str, Any]] = [
            {"marker": m, "unit": u, "note": "dug in"} for m, u in zip(markers, units, strict=False)
        ]
        for n, m in enumerate(markers[len(units) :]):
            hidings.append({"marker": m, "content": ("mine", "ied", "nothing")[n % 3]})
        return {"type": "hide", "hidings": hidings}

    # Play.
    def activate(self) -> Command | None:
        units = choices(self.offered.get("activate", {}), "unit")
        if not units:
            return None
        return {"type": "activate", "unit": self.rng.choice(units)}

    def actions(self, activation: Mapping[str, Any]) -> list[Command | None]:
        unit = next((p for p in self.view["pieces"] if p["id"] == activation["unit"]), None)
        if unit is None:
            return []
        public = unit["public"]
        here = self.where(unit)
        out: list[Command | None] = []
        if public.get("status") == "hidden":  # a hidden sniper: slip between its markers
            mine = [
                p["id"]
                for p in self.view["pieces"]
                if p["kind"] == "sniper_marker" and p["public"].get("sniper") == unit["id"]
            ]
            if self.rng.random() < 0.5 and "covert_move" in self.offered:
                out.append({"type": "covert_move", "to": self.rng.choice(mine)} if mine else None)
        if public.get("attached_to"):
            return out
        markers, units = self.targets()
        seen_markers = [m for m in markers if self.sees(here, m)]
        seen_units = [u for u in units if self.sees(here, u)]
        roll = self.rng.random()
        if seen_markers and "observe" in self.offered and roll < 0.55:
            out.append({"type": "observe", "marker": self.rng.choice(seen_markers)["id"]})
        if (seen_units or seen_markers) and "fire" in self.offered and roll < 0.85:
            target = self.rng.choice(seen_units or seen_markers)
            out.append({"type": "fire", "target": target["id"]})
        if "move" in self.offered and public.get("status") == "on_table" and public.get("at"):
            out.append(self.move(public["at"], markers))
        if seen_markers and "observe" in self.offered:
            out.append({"type": "observe", "marker": self.rng.choice(seen_markers)["id"]})
        return out

    def move(self, at: Sequence[float], markers: list[dict[str, Any]]) -> Command:
        """Six inches towards the nearest enemy marker (or back towards the middle)."""
        goal: Sequence[float] = (36.0, 24.0)
        if markers:
            goal = min((m["public"]["at"] for m in markers), key=lambda q: _dist(at, q))
        dx, dy = goal[0] - at[0], goal[1] - at[1]
        length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        step = min(6.0, length)
        x = min(max(at[0] + dx / length * step, 4.0), 68.0)
        y = min(max(at[1] + dy / length * step, 4.0), 44.0)
        return {"type": "move", "to": [round(x, 2), round(y, 2)]}

    def targets(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        markers, units = [], []
        for p in self.view.get("known", ()):
            public = p["public"]
            if p["kind"] in ("marker", "sniper_marker") and public.get("at"):
                if public.get("face") != "minefield":
                    markers.append(p)
            elif (
                p["kind"] == "unit"
                and public.get("status") == "on_table"
                and not public.get("attached_to")
                and public.get("at")
            ):
                units.append(p)
        return markers, units

    def where(self, unit: Mapping[str, Any]) -> list[XY]:
        if unit["public"].get("status") == "hidden":  # a sniper acts from its true marker
            for p in self.view["pieces"]:
                mine = p["kind"] == "sniper_marker" and p["public"].get("sniper") == unit["id"]
                if mine and p.get("secret", {}).get("true"):
                    return [(p["public"]["at"][0], p["public"]["at"][1])]
            return []
        at = unit["public"].get("at")
        return self.points.get(unit["id"]) or ([(at[0], at[1])] if at else [])

    def sees(self, here: list[XY], target: Mapping[str, Any]) -> bool:
        at = target["public"]["at"]
        there = self.points.get(target["id"]) or [(at[0], at[1])]
        return any(self.clear(a, b) for a in here for b in there)

    def clear(self, a: XY, b: XY) -> bool:
        for outline in self.blocking:
            if _inside(a, outline) or _inside(b, outline):
                continue
            if any(_crosses(a, b, p, q) for p, q in _edges(outline)):
                return False
        return True


def _dist(a: Sequence[float], b: Sequence[float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def _edges(outline: Sequence[Sequence[float]]) -> list[tuple[Sequence[float], Sequence[float]]]:
    return list(zip(outline, [*outline[1:], outline[0]], strict=True))


def _inside(p: XY, outline: Sequence[Sequence[float]]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in _edges(outline):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _crosses(a: XY, b: XY, c: Sequence[float], d: Sequence[float]) -> bool:
    """Do segments ab and cd meet (touching counts, as shapely's intersects does)?"""

    def orient(p: Sequence[float], q: Sequence[float], r: Sequence[float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    def on(p: Sequence[float], q: Sequence[float], r: Sequence[float]) -> bool:
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(
            p[1], q[1]
        )

    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return True
    return bool(
        (d1 == 0 and on(c, d, a))
        or (d2 == 0 and on(c, d, b))
        or (d3 == 0 and on(a, b, c))
        or (d4 == 0 and on(a, b, d))
    )


# --- ambush-fields ----------------------------------------------------------------------


class AmbushFields:
    """Both sides act in every phase; a phase ends when both have ended it."""

    def __init__(self, player: Player, view: View, offered: dict[str, dict[str, Any]]) -> None:
        self.player, self.view, self.offered = player, view, offered
        self.rng = player.rng
        self.board = view["board"]

    def commands(self) -> Sequence[Command | None]:
        if self.view["phase"] == "setup":
            return [{"type": "ready"}] if "ready" in self.offered else []
        step = self.board.get("step")
        done = self.done_this_phase()
        out: list[Command | None] = []
        if step == "movement":
            if "plot" in self.offered and "plot" not in done:
                out.append(self.plot())
            if "scan" in self.offered and "scan" not in done:
                ships = choices(self.offered["scan"], "ships")
                if ships:
                    out.append({"type": "scan", "ships": ships})
            if "launch" in self.offered and "launch" not in done and self.rng.random() < 0.3:
                carriers = choices(self.offered["launch"], "carrier")
                out.append({"type": "launch", "carrier": carriers[0]} if carriers else None)
        elif step == "combat":
            if "fire" in self.offered and done.count("fire") < 2:
                offer = self.offered["fire"]
                ships, targets = choices(offer, "ship"), choices(offer, "target")
                if ships and targets:
                    out.append(
                        {
                            "type": "fire",
                            "ship": self.rng.choice(ships),
                            "target": self.rng.choice(targets),
                        }
                    )
            if "identify" in self.offered and "identify" not in done:
                offer = self.offered["identify"]
                scouts, targets = choices(offer, "scout"), choices(offer, "target")
                if scouts and targets:
                    out.append(
                        {
                            "type": "identify",
                            "scout": scouts[0],
                            "target": self.rng.choice(targets),
                            "points": 2,
                        }
                    )
            if "assign_ew" in self.offered and "assign_ew" not in done:
                offer = self.offered["assign_ew"]
                scouts, targets = choices(offer, "scout"), choices(offer, "target")
                if scouts and targets:
                    out.append(
                        {
                            "type": "assign_ew",
                            "scout": scouts[0],
                            "target": self.rng.choice(targets),
                            "points": 1,
                        }
                    )
        if "end_phase" in self.offered:
            out.append({"type": "end_phase"})
        return out

    def done_this_phase(self) -> list[str]:
        """What this side already gave in this phase (the player remembers, as a page's
        form would)."""
        return self.player.given.get(self.player.phase_key(self.view), [])

    def plot(self) -> Command | None:
        offer = self.offered["plot"]
        own = {p["id"]: p for p in self.view["pieces"] if p["kind"] == "ship"}
        moves = []
        colonials = self.player.side == "colonials"
        for ship in choices(offer, "moves.ship"):
            at = own.get(ship, {}).get("public", {}).get("at")
            if not at or len(at) != 4:
                continue
            column, row = int(at[:2]), int(at[2:])
            step = self.rng.choice((0, 1, 1, 2)) if colonials and row > 9 else 0
            moves.append(
                {
                    "ship": ship,
                    "to": f"{column:02d}{row - step:02d}",
                    "heading": "A",
                    "speed": step,
                    "note": "",
                }
            )
        return {"type": "plot", "moves": moves} if moves else None


def tally(
    referee_log: Sequence[Mapping[str, Any]], first: int = 0, last: int | None = None
) -> dict[str, int]:
    """From a game's log as the referee reads it (every event whole, the host's private
    part included), events ``first`` to ``last``: how many of the sides' commands made events
    that rolled dice (and dice rolled in secret), opened committed facts to a side
    (reveals) and wrote facts to a side's commitment roster (commitments written)."""
    out = {"events": 0, "rolls": 0, "secret_rolls": 0, "reveals": 0, "commitments": 0}
    for entry in referee_log:
        seq = int(entry["seq"])
        if entry.get("side") is None or seq < first or (last is not None and seq > last):
            continue  # the set-up and the host's time-outs too
        fair = entry.get("fair") or {}
        rolls = entry.get("rolls") or []
        out["events"] += 1
        out["rolls"] += bool(rolls)
        out["secret_rolls"] += any(r.get("secret") for r in rolls)
        out["reveals"] += any((fair.get("openings") or {}).values())
        out["commitments"] += bool((fair.get("private") or {}).get("facts"))
    return out
