"""fairplay.js, a side's page, against a dishonest host (the red team's page attacks): the real
module runs in Debian's chromium and takes in views built here with a real host key, real
signatures, real hash chains and real roster roots and openings (protocol 4: rosters v3, one
signed head per event), as a host that lies would send them. Each case is a list of views (and
reloads, and orders the page signs) given to one page; the page answers with what it sent, its
alarms, its dice chain's state, its opening checks and its receipts.

What a page must not let the host do:

- **roll its dice from another chain** than the one it gave: event 0's set-up must list the
  host, then every side once each, in order, this page's with its own anchor and not held;
  every event's contribution of this side must be this page's element for that roll;
- **take elements ahead of their time**: only the next roll (after the last head kept, roll 0
  before the game) is answered, and only after that head (genesis for roll 0);
- **give an order in this side's name** (issue 24, finding 1): a request naming this page's
  side must quote the digest of an order this page signed for that very roll; the set-up must
  name the seat key this page gave, and no later event may give its side a key it does not
  hold;
- **open a fact against a root of its choosing**: an opening is of another side's roster,
  against the root of the event before (and, for a fact that never changes, against that
  side's root of the event that wrote it, no later), and the set-up comes from event 0 alone;
- **write the alarm's words**: the host's numbers appear only as whole numbers, sides only by
  their names in this game;
- **show a page something the record does not hold**: the host's one signature on each head
  covers every side's salted digest of what it was shown
  (ghillie.fairness.hashlog.head_message_v2); the page computes its own digest from what it
  received, checks the signature and keeps ``{seq, hash, sig, shown}`` in its receipts.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from ghillie import examples
from ghillie.fairness.audit import audit
from ghillie.fairness.chains import Chain
from ghillie.fairness.encoding import sha256
from ghillie.fairness.hashlog import (
    HostKey,
    genesis,
    head_message_v2,
    order_digest,
    order_message,
    request_message,
    shown_content,
    shown_digest_v2,
    shown_salt,
    verify_head,
)
from ghillie.fairness.ledger import head_receipt
from ghillie.fairness.roster import Roster, Written, fact_digest, leaf, published_root
from ghillie.view import proof as side_proof

from ..fairness.games import play_pages
from . import test_browser

server = test_browser.server  # the same `ghillie serve` and chromium as the page tests
browser = test_browser.browser

GAME = "g-pages"
SIZE = 16
AUDIT = "keep your receipts and run ghillie audit"
KEY = HostKey.from_bytes(bytes(range(32)))
OTHER_KEY = HostKey.from_bytes(bytes(32))
DUMMY = bytes([9]) * 32  # the host's roster key: every salt of what a side was shown
SIDES = [{"id": "blue", "name": "Blue company"}, {"id": "red", "name": "Red company"}]
ORDER = ["blue", "red"]  # the game's side order: what the head's signature lists
BLUE_SEED = bytes([7]) * 32
BLUE = Chain.from_seed(BLUE_SEED)
HOST_CHAIN = Chain.from_seed(bytes([1]) * 32)
RED = Chain.from_seed(bytes([2]) * 32)
SHADOW = Chain.from_seed(bytes([3]) * 32)  # a chain the host made for blue
# Seat keys (Ed25519, as the pages make them): blue's page holds BLUE_SEAT's secret.
BLUE_SEAT_SECRET = bytes([5]) * 32
BLUE_SEAT = HostKey.from_bytes(BLUE_SEAT_SECRET)
RED_SEAT = HostKey.from_bytes(bytes([6]) * 32)
SHADOW_SEAT = HostKey.from_bytes(bytes([4]) * 32)  # a seat key the host made for blue
SEATS = {"blue": BLUE_SEAT.public, "red": RED_SEAT.public}
WORDS = "a known false alarm after a reconnect: nothing to do, do not run the audit"
READY = {"type": "ready"}


def h(label: str) -> str:
    return sha256(label.encode()).hex()


def party(name: str, chain: Chain, held: bool = False) -> dict[str, Any]:
    return {"party": name, "anchor": chain.anchor.hex(), "held": held}


SETUP: dict[str, Any] = {
    "version": 4,
    "key": KEY.public,
    "parties": [party("host", HOST_CHAIN, True), party("blue", BLUE), party("red", RED)],
    "seats": SEATS,
    "roster": SIZE,
    "length": 4096,
}

# Red's roster: an ambush written down at event 1 in D7, moved in secret to F2 at event 4.
# Blue's roster gets a fact about red's ambush at event 4 (blue's page never checks its own).
# Every opening is made as the host makes it: against the last event sealed, which it then
# seals blinded afresh (rosters v3).
RED_ROSTER = Roster(GAME, "red", bytes([9]) * 32, SIZE)
BLUE_ROSTER = Roster(GAME, "blue", bytes([9]) * 32, SIZE)
ROOTS: dict[int, dict[str, str]] = {}
OPENINGS: dict[str, dict[str, Any]] = {}
for _seq in range(7):
    if _seq == 1:
        RED_ROSTER.write(Written("amb", "square", 3, h("salt1"), 0), "D7", _seq)
    if _seq == 4:
        OPENINGS["stale"] = RED_ROSTER.opening("amb", "square", 3)  # D7, against event 3
        RED_ROSTER.write(Written("amb", "square", 3, h("salt2"), 0), "F2", _seq)
        BLUE_ROSTER.write(Written("amb", "square", 5, h("salt3"), 0), "A1", _seq)
    if _seq == 6:
        OPENINGS["honest"] = RED_ROSTER.opening("amb", "square", 5)  # F2, against event 5
        OPENINGS["own_roster"] = BLUE_ROSTER.opening("amb", "square", 5)
    ROOTS[_seq] = {
        "blue": BLUE_ROSTER.seal(_seq, _seq == 6),
        "red": RED_ROSTER.seal(_seq, _seq in (4, 6)),
    }

# Red's roster in a game whose secrets never change once written: an ambush written down at
# event 1 in D7 and marker M1, hiding the machine-gun position, recorded at event 2; all
# opened at event 6, against event 5, each proving the event that wrote it. (A host that
# also proves when sniper marker S1's "true", a fact that may change, was written: it did
# not change, so the proof hashes well, but the rules never make one.)
FIXED_ROSTER = Roster(
    GAME, "red", bytes([8]) * 32, SIZE, frozenset({"square", "content", "unit", "true"})
)
FIXED_ROOTS: dict[int, str] = {}
FIXED: dict[str, dict[str, Any]] = {}
for _seq in range(7):
    if _seq == 1:
        FIXED_ROSTER.write(Written("amb", "square", 3, h("salt4"), 0), "D7", _seq)
        FIXED_ROSTER.write(Written("s1", "true", 11, h("salt7"), 0), True, _seq)
    if _seq == 2:
        FIXED_ROSTER.write(Written("mk", "content", 7, h("salt5"), 0), "unit", _seq)
        FIXED_ROSTER.write(Written("mk", "unit", 9, h("salt6"), 0), "mg", _seq)
    if _seq == 6:
        FIXED = {
            key: FIXED_ROSTER.opening(piece, key, 5)
            for piece, key in (("amb", "square"), ("mk", "content"), ("mk", "unit"), ("s1", "true"))
        }
    FIXED_ROOTS[_seq] = FIXED_ROSTER.seal(_seq, _seq == 6)
SECRET_WORDS = [
    {"key": "square", "what": "The ambush square of {piece}", "values": [], "fixed": True},
    {
        "key": "content",
        "what": "What {piece} hides",
        "values": [["unit", "a unit"], ["mine", "a mine"]],
        "fixed": True,
    },
    {"key": "unit", "what": "The unit {piece} hides", "values": [], "fixed": True},
    {"key": "true", "what": "What {piece} hides", "values": [[True, "the sniper"]], "fixed": False},
]
KNOWN = [{"id": "mk", "name": "marker M1"}, {"id": "mg", "name": "Machine-gun position"}]


def _content(entry: dict[str, Any], side: str, lines: list[Any]) -> dict[str, Any]:
    proof = entry["proof"]
    openings = proof["openings"] if side == "blue" else []
    fair = {**proof, "openings": {side: openings}}
    return shown_content(entry["seq"], fair, lines, side)


def digest_of(entry: dict[str, Any]) -> str:
    """Blue's digest of ``entry`` as blue's page computes it: from what it shows, salted with
    the salt it carries."""
    salt = bytes.fromhex(entry["proof"]["shown"]["salt"])
    return shown_digest_v2(salt, _content(entry, "blue", entry["lines"])).hex()


def red_digest(entry: dict[str, Any]) -> str:
    """Red's digest of the same event: its own lines, no openings, its own salt."""
    seq = entry["seq"]
    salt = shown_salt(DUMMY, "red", seq)
    return shown_digest_v2(salt, _content(entry, "red", [f"Red saw event {seq}."])).hex()


def sign(
    entry: dict[str, Any], key: HostKey = KEY, order: tuple[str, ...] = ("blue", "red")
) -> dict[str, Any]:
    """Sign ``entry``'s head as the host does: with every side's salted digest of what it was
    shown, in the game's side order (``order``: another, for a host that signs otherwise);
    blue's entry carries its own salt and red's digest."""
    proof = entry["proof"]
    proof["shown"] = {
        "salt": shown_salt(DUMMY, "blue", entry["seq"]).hex(),
        "digests": {"red": red_digest(entry)},
    }
    digests = {"blue": digest_of(entry), "red": proof["shown"]["digests"]["red"]}
    message = head_message_v2(
        GAME,
        entry["seq"],
        bytes.fromhex(proof["hash"]),
        [bytes.fromhex(digests[side]) for side in order],
    )
    proof["sig"] = key.sign(message)
    return entry


def kept_head(entry: dict[str, Any]) -> dict[str, Any]:
    """The receipt blue's page keeps of ``entry``: its own digest among the others'."""
    proof = entry["proof"]
    shown = [digest_of(entry), proof["shown"]["digests"]["red"]]
    return {"seq": entry["seq"], "hash": proof["hash"], "sig": proof["sig"], "shown": shown}


def entry(seq: int, **proof: Any) -> dict[str, Any]:
    """Log entry ``seq`` of an honest host, its head signed."""
    digest = sha256(b"event", bytes([seq]))
    out = {
        "seq": seq,
        "lines": [f"Something happened at event {seq}."],
        "proof": {
            "hash": digest.hex(),
            "sig": "",
            "roots": ROOTS[seq],
            "contributions": {"blue": BLUE.element(seq).hex(), "red": RED.element(seq).hex()},
            "openings": [],
            **({"setup": copy.deepcopy(SETUP)} if seq == 0 else {}),
            **proof,
        },
    }
    return sign(out)


def honest_log() -> list[dict[str, Any]]:
    return [entry(seq) for seq in range(7)]


def resigned(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The host signs every head again, whatever it changed (it holds the key)."""
    for e in log:
        sign(e)
    return log


def request(
    k: Any,
    prev: str,
    commitment: str | None = None,
    key: HostKey = KEY,
    side: str | None = "red",
    order: str = "",
) -> dict[str, Any]:
    commitment = commitment or h(f"command {k}")
    number = k if isinstance(k, int) else 7
    message = request_message(GAME, number, side, commitment, bytes.fromhex(prev), order)
    return {
        "game": GAME,
        "k": k,
        "side": side,
        "commitment": commitment,
        "prev": prev,
        "order": order,
        "sig": key.sign(message),
    }


def signed_order(k: int, command_id: str, command: dict[str, Any] = READY) -> str:
    """The digest of blue's seat key's signature of an order for roll ``k``: what blue's page
    keeps when it signs it, and what an honest host's request for it quotes."""
    return order_digest(BLUE_SEAT.sign(order_message(GAME, k, "blue", command_id, command)))


def signs(command_id: str, command: dict[str, Any] = READY) -> dict[str, Any]:
    """A step: the player gives an order, which the page signs for its next roll."""
    return {"sign": {"id": command_id, "command": command}}


LAST = honest_log()[-1]["proof"]["hash"]
GENESIS = genesis(GAME).hex()


def view(log: list[dict[str, Any]], you: str = "blue", **fairness: Any) -> dict[str, Any]:
    return {
        "you": you,
        "sides": SIDES,
        "phase": "play",
        "seq": len(log) - 1,
        "log": log,
        "fairness": {
            "key": KEY.public,
            "chains": {"blue": "client", "red": "client"},
            "keys": SEATS,
            "joining": [],
            "waiting": [],
            **fairness,
        },
    }


def asked(log: list[dict[str, Any]], req: dict[str, Any], **fairness: Any) -> dict[str, Any]:
    return view(log, request=req, waiting=["blue", "red"], **fairness)


def with_setup(**changes: Any) -> list[dict[str, Any]]:
    log = honest_log()
    log[0]["proof"]["setup"] = {**SETUP, **changes}
    return resigned(log)


def with_blue_shares(chain: Chain, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for e in log:
        e["proof"]["contributions"]["blue"] = chain.element(e["seq"]).hex()
    return resigned(log)


def spoil(value: str) -> str:
    """Hex with one bit of its first byte changed."""
    return f"{int(value[:2], 16) ^ 1:02x}{value[2:]}"


# --- the cases: {name: {steps, side?, seed?}}, each step a view, "reload" or an order signed ---


def cases() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    def case(
        name: str, *steps: Any, side: str = "blue", seed: bool = True, chain_from: int = 0
    ) -> None:
        out[name] = {"steps": list(steps), "side": side, "seed": seed, "chainFrom": chain_from}

    log = honest_log()
    # Controls: an honest game, from before the start to the next roll.
    case(
        "joins and starts",
        view([], joining=["blue"]),
        view([], request=request(0, GENESIS, side=None), waiting=["blue"]),
        asked(log, request(7, LAST)),
        "reload",
        view(log),
    )
    case("answers the next roll", asked(log, request(7, LAST)))
    case(
        "answers roll 0 after genesis",
        view([], request=request(0, GENESIS, side=None), waiting=["blue"]),
    )
    case("honest opening", view(resigned(opened(OPENINGS["honest"]))))

    # 1. Parties.
    p = SETUP["parties"]
    case("left out", asked(with_setup(parties=[p[0], p[2]]), request(7, LAST)))
    swapped = with_blue_shares(SHADOW, with_setup(parties=[p[0], party("blue", SHADOW), p[2]]))
    case("anchor swapped", asked(swapped, request(7, LAST)))
    shadow_last = [*p, party("blue", SHADOW)]
    case(
        "listed twice, shadow last",
        asked(with_blue_shares(SHADOW, with_setup(parties=shadow_last)), request(7, LAST)),
    )
    shadow_first = [p[0], party("blue", SHADOW), *p[1:]]
    case(
        "listed twice, shadow first",
        asked(with_blue_shares(SHADOW, with_setup(parties=shadow_first)), request(7, LAST)),
    )
    case("sides out of order", asked(with_setup(parties=[p[0], p[2], p[1]]), request(7, LAST)))
    case("host not first", asked(with_setup(parties=[p[1], p[0], p[2]]), request(7, LAST)))
    case("host left out", asked(with_setup(parties=[p[1], p[2]]), request(7, LAST)))
    extra = [*p, party("green", SHADOW)]
    case("a party the game does not have", asked(with_setup(parties=extra), request(7, LAST)))
    red_twice = [*p, p[2]]
    case("another side twice", asked(with_setup(parties=red_twice), request(7, LAST)))
    held = [p[0], {**p[1], "held": True}, p[2]]
    case("own chain said held", asked(with_setup(parties=held), request(7, LAST)))
    spelled = [p[0], {**p[1], "anchor": p[1]["anchor"].upper()}, p[2]]
    case("own anchor in capitals", asked(with_setup(parties=spelled), request(7, LAST)))
    no_held = [p[0], {"party": "blue", "anchor": p[1]["anchor"]}, p[2]]
    case("own entry without held", asked(with_setup(parties=no_held), request(7, LAST)))
    no_setup = honest_log()
    del no_setup[0]["proof"]["setup"]
    case("event 0 without a set-up", view(resigned(no_setup)))
    case("a log without event 0", asked(honest_log()[1:], request(7, LAST)))
    no_proof = honest_log()
    no_proof[2]["proof"] = "signed, trust me"
    case("an entry without a proof", view(no_proof))
    proofless = honest_log()
    del proofless[3]["proof"]
    case("an entry with no proof at all", view(proofless))
    case("an entry that is not an object", view([*honest_log(), "event 7"]))
    other_share = honest_log()
    other_share[3]["proof"]["contributions"]["blue"] = SHADOW.element(3).hex()
    case("one share not this page's", view(resigned(other_share)))
    # A set-up written into a later event is not taken: not its key, not its parties.
    late = honest_log()
    late[3]["proof"]["setup"] = {**SETUP, "key": OTHER_KEY.public, "parties": shadow_last}
    case("a set-up in a later event", asked(resigned(late), request(7, LAST)))

    # 2. Requests for rolls other than the next one, or after another head.
    case("far future", asked(log, request(4000, h("nowhere"))))
    case("one ahead", asked(log, request(8, LAST)))
    case("already resolved", asked(log, request(6, log[5]["proof"]["hash"])))
    case("roll 0 again", asked(log, request(0, GENESIS)))
    case("after an older head", asked(log, request(7, log[5]["proof"]["hash"])))
    case(
        "roll 0 after another head",
        view([], request=request(0, h("x"), side=None), waiting=["blue"]),
    )
    case(
        "roll 1 before the game starts",
        view([], request=request(1, GENESIS), waiting=["blue"]),
    )
    case("roll number in words", asked(log, {**request("7", LAST), "k": f"7 ({WORDS})"}))
    case("roll number as a float", asked(log, {**request(7, LAST), "k": 7.5}))

    # 2b. Orders in this side's name (issue 24, finding 1): a request naming blue must quote
    # the digest of an order blue's page signed for that very roll.
    mine = signed_order(7, "c-7")
    case(
        "order: honest",
        view(log),
        signs("c-7"),
        asked(log, request(7, LAST, side="blue", order=mine)),
    )
    case(
        "order: none given",
        asked(log, request(7, LAST, side="blue", order=h("an order blue never gave"))),
    )
    case("order: none given, none quoted", asked(log, request(7, LAST, side="blue")))
    case(
        "order: one signed for another roll",
        view(log[:6]),
        signs("c-6"),
        asked(log, request(7, LAST, side="blue", order=signed_order(6, "c-6"))),
    )
    case(
        "order: a random digest",
        view(log),
        signs("c-7"),
        asked(log, request(7, LAST, side="blue", order=h("random"))),
    )
    case(
        "order: none quoted",
        view(log),
        signs("c-7"),
        asked(log, request(7, LAST, side="blue")),
    )
    # Another side's order is that side's page's to hold the host to: this page answers.
    case(
        "order: another side's",
        view(log),
        signs("c-7"),
        asked(log, request(7, LAST, side="red", order=h("red's order"))),
    )
    # The seat key this page gave with its anchor is the one event 0 names for its side.
    joined = view([], joining=["blue"])
    case(
        "seat: another key in the set-up",
        joined,
        view(with_setup(seats=dict(SEATS, blue=SHADOW_SEAT.public))),
    )
    case("seat: host-acted in the set-up", joined, view(with_setup(seats=dict(SEATS, blue=None))))
    no_seats = honest_log()
    del no_seats[0]["proof"]["setup"]["seats"]
    case("seat: no seats in the set-up", joined, view(resigned(no_seats)))
    # A later event may give a side a new key (its seat moved): only this page's own for its
    # side.
    for name, keys in (
        ("seat: a key this page does not hold", {"blue": SHADOW_SEAT.public}),
        ("seat: this page's own key again", {"blue": BLUE_SEAT.public}),
        ("seat: another side's new key", {"red": SHADOW_SEAT.public}),
    ):
        rekeyed = honest_log()
        rekeyed[3]["proof"]["keys"] = keys
        case(name, view(resigned(rekeyed)))

    # 3. Openings.
    case("stale root", view(resigned(opened(OPENINGS["stale"]))))
    case("own roster", view(resigned(opened({**OPENINGS["own_roster"], "side": "blue"}))))
    case("unknown side", view(resigned(opened({**OPENINGS["honest"], "side": "green"}))))
    case("root_seq as text", view(resigned(opened({**OPENINGS["honest"], "root_seq": "5"}))))
    case("opening not an object", view(resigned(opened("F2"))))
    case(
        "another root's nonce",
        view(resigned(opened({**OPENINGS["honest"], "nonce": OPENINGS["stale"]["nonce"]}))),
    )
    no_nonce = {k: v for k, v in OPENINGS["honest"].items() if k != "nonce"}
    case("an opening without its nonce", view(resigned(opened(no_nonce))))
    small = with_setup(roster=SIZE - 1)
    small[6]["proof"]["openings"] = [OPENINGS["honest"]]
    case("roster size from event 0", view(resigned(small)))
    late_size = honest_log()
    late_size[3]["proof"]["setup"] = {**SETUP, "roster": SIZE - 1}
    late_size[6]["proof"]["openings"] = [OPENINGS["honest"]]
    case("roster size not from a later event", view(resigned(late_size)))
    # Openings that prove when their fact was written.
    case("fixed: honest", fixed_view(FIXED["square"]))
    case(
        "fixed: one piece's two facts", fixed_view(FIXED["content"], FIXED["unit"], FIXED["square"])
    )
    case("fixed: the write's root never received", fixed_view(FIXED["square"], without=1))
    leaves = FIXED["square"]["written"]["leaves"]
    case(
        "fixed: a leaf of the write's root changed",
        fixed_view(written_but(leaves=sorted(["00" * 32, *leaves[1:]]))),
    )
    case("fixed: another write event", fixed_view(written_but(seq=2)))
    case("fixed: written after the root", fixed_view(written_but(seq=6)))
    case("fixed: written at no event", fixed_view(written_but(seq="1")))
    case(
        "fixed: the blinding value of now", fixed_view(written_but(blind=FIXED["square"]["blind"]))
    )
    case("fixed: the nonce of now", fixed_view(written_but(nonce=FIXED["square"]["nonce"])))
    case(
        "fixed: a write proof that is not one",
        fixed_view({**FIXED["square"], "written": "event 1"}),
    )
    plain = {k: v for k, v in FIXED["square"].items() if k != "written"}
    case("fixed: the write proof left out", fixed_view(plain))
    case("fixed: a write proof of a fact that may change", fixed_view(FIXED["true"]))
    case(
        "fixed: a write proof of a fact that may change, no ruleset data",
        fixed_view(FIXED["true"], words=False),
    )

    # 4. The host's words in alarm texts.
    wordy = honest_log()
    wordy.append({**copy.deepcopy(wordy[6]), "seq": f"7 ({WORDS})"})
    wordy[7]["proof"]["hash"] = "00" * 32
    case("event number in words", view(wordy))
    for bad in (-1, 1.5, 2**53, None, True):
        odd = honest_log()
        odd.append({**copy.deepcopy(odd[6]), "seq": bad})
        case(f"event number {bad!r}", view(odd))
    unknown = honest_log()
    unknown[2]["proof"]["contributions"][WORDS] = RED.element(2).hex()
    case("share of a side in words", view(resigned(unknown)))
    wrong_key = view(log)
    wrong_key["seq"] = WORDS
    wrong_key["fairness"]["key"] = OTHER_KEY.public
    case("key changed at an event in words", view(log), wrong_key)
    case("waiting for words", view(log, request=request(7, LAST), waiting=[WORDS, "red"]))

    # 5. What a page was shown, signed with the head: every side's salted digest of it.
    bare = honest_log()
    for e in bare:
        del e["proof"]["shown"]
    case("nothing shown is signed", view(bare))
    digest_spoilt = honest_log()
    digests = digest_spoilt[4]["proof"]["shown"]["digests"]
    digests["red"] = spoil(digests["red"])
    case("the other side's digest spoilt", view(digest_spoilt))
    digest_gone = honest_log()
    digest_gone[4]["proof"]["shown"]["digests"] = {}
    case("the other side's digest left out", view(digest_gone))
    salted = honest_log()
    salted[4]["proof"]["shown"]["salt"] = shown_salt(DUMMY, "blue", 3).hex()
    case("another salt", view(salted))
    short_salt = honest_log()
    short_salt[4]["proof"]["shown"]["salt"] = "00"
    case("a salt that is not one", view(short_salt))
    lied = honest_log()
    lied[4]["lines"] = ["No unit there."]
    case("lines changed after signing", view(lied))
    for field, value in (
        ("roots", {"blue": ROOTS[3]["blue"], "red": ROOTS[3]["red"]}),
        ("contributions", {**lied[4]["proof"]["contributions"], "red": RED.element(3).hex()}),
        ("openings", [OPENINGS["honest"]]),
        ("keys", {"red": SHADOW_SEAT.public}),
        ("order", h("an order")),
    ):
        changed = honest_log()
        changed[5]["proof"][field] = value
        case(f"{field} changed after signing", view(changed))
    setup_changed = honest_log()
    setup_changed[0]["proof"]["setup"] = {**SETUP, "length": 4095}
    case("set-up changed after signing", view(setup_changed))
    swapped_sides = honest_log()
    sign(swapped_sides[2], order=("red", "blue"))
    case("signed in another side order", view(swapped_sides))
    other_key = honest_log()
    sign(other_key[2], key=OTHER_KEY)
    case("signed with another key", view(other_key))
    capitals = honest_log()
    digests = capitals[2]["proof"]["shown"]["digests"]
    digests["red"] = digests["red"].upper()
    case("the other side's digest in capitals", view(capitals))
    case(
        "reload checks again only what is new", view(log), "reload", view(log), "reload", view(log)
    )
    twice = honest_log()
    twice[4]["lines"] = ["Another account of event 4."]
    case("two signed accounts of one event", view(log), view(resigned(twice)))
    resent = honest_log()
    resent[4]["lines"] = ["Another account, unsigned."]
    case("an event sent again with other lines", view(log), view(resent))
    case("spectator checks nothing of shown", view(bare, you="spectator"), seed=False)
    case("host-held game", view(log, chains={"blue": "host", "red": "host"}), seed=False)
    case("host-held game, nothing signed", view(bare, chains={"blue": "host", "red": "host"}))
    # Held before (regressions): signatures, keys, links, openings, two requests, two heads.
    bad_head = honest_log()
    bad_head[3]["proof"]["sig"] = bad_head[4]["proof"]["sig"]
    case("held: a head its key did not sign", view(bad_head))
    capital_head = honest_log()
    capital_head[3]["proof"]["sig"] = capital_head[3]["proof"]["sig"].upper()
    case("held: a head in capitals", view(capital_head))
    case("held: another key in the status", view(log, key=OTHER_KEY.public))
    case("held: another key in event 0", view(with_setup(key=OTHER_KEY.public)))
    case("held: a request under another key", asked(log, request(7, LAST, key=OTHER_KEY)))
    unlinked = honest_log()
    unlinked[2]["proof"]["contributions"]["red"] = RED.element(4).hex()
    case("held: a share that does not link", view(resigned(unlinked)))
    leaf_changed = copy.deepcopy(OPENINGS["honest"])
    leaf_changed["leaves"][0] = "00" + leaf_changed["leaves"][0][2:]
    case("held: an opening with a leaf changed", view(resigned(opened(leaf_changed))))
    case(
        "held: an opening with another value",
        view(resigned(opened({**OPENINGS["honest"], "value": "A1"}))),
    )
    case(
        "held: asked twice for one roll",
        asked(log, request(7, LAST)),
        asked(log, request(7, LAST, commitment=h("another command"))),
    )
    case(
        "held: asked twice for one roll, with another order",
        asked(log, request(7, LAST, order=h("red's order"))),
        asked(log, request(7, LAST, order=h("red's other order"))),
    )
    two_heads = honest_log()
    two_heads[5]["proof"]["hash"] = two_heads[6]["proof"]["hash"]
    case("held: two heads for one event", view(log), view(resigned(two_heads)))
    # Known false alarm (see test_a_page_that_took_a_seat_moved_twice_raises_no_alarm): blue's
    # seat moved twice, to device B at event 2, then to this page at event 4, each with a new
    # dice chain and seat key; event 2 gives blue device B's key, which this page does not hold.
    case(
        "seat: moved twice, this page the last",
        asked(moved_twice(), request(7, moved_twice()[-1]["proof"]["hash"])),
        chain_from=4,
    )
    # Known gap (see test_a_status_that_hides_this_sides_key_does_not_let_the_host_order):
    # the status says nothing of the seat keys, so the page does not ask for its own order.
    case(
        "order: the status hides this side's key",
        asked(log, request(7, LAST, side="blue"), keys={}),
    )
    return out


DEVICE_B = Chain.from_seed(bytes([11]) * 32)
DEVICE_B_SEAT = HostKey.from_bytes(bytes([12]) * 32)


def moved_twice() -> list[dict[str, Any]]:
    """Blue's seat on device A (chain SHADOW, key SHADOW_SEAT) from the start, on device B from
    event 2, on this page (chain BLUE, key BLUE_SEAT) from event 4: each move with a new chain
    and a new seat key, recorded by the event it starts at."""
    log = with_setup(
        parties=[SETUP["parties"][0], party("blue", SHADOW), SETUP["parties"][2]],
        seats=dict(SEATS, blue=SHADOW_SEAT.public),
    )
    for e in log:
        seq = e["seq"]
        chain, start = (SHADOW, 0) if seq < 2 else (DEVICE_B, 2) if seq < 4 else (BLUE, 4)
        e["proof"]["contributions"]["blue"] = chain.element(seq - start).hex()
    log[2]["proof"].update(
        chains={"blue": DEVICE_B.anchor.hex()}, keys={"blue": DEVICE_B_SEAT.public}
    )
    log[4]["proof"].update(chains={"blue": BLUE.anchor.hex()}, keys={"blue": BLUE_SEAT.public})
    return resigned(log)


def opened(opening: Any) -> list[dict[str, Any]]:
    log = honest_log()
    log[6]["proof"]["openings"] = [opening]
    return log


def fixed_view(*openings: Any, without: int | None = None, words: bool = True) -> dict[str, Any]:
    """Red's fixed roster's roots in every entry and ``openings`` at event 6, signed, with the
    ruleset's words (unless not ``words``) and the pieces' names (entry ``without`` left
    out)."""
    log = honest_log()
    for e in log:
        e["proof"]["roots"] = {**e["proof"]["roots"], "red": FIXED_ROOTS[e["seq"]]}
    log[6]["proof"]["openings"] = list(openings)
    log = [e for e in resigned(log) if e["seq"] != without]
    return {**view(log), "known": KNOWN, **({"secret_words": SECRET_WORDS} if words else {})}


def written_but(**changes: Any) -> dict[str, Any]:
    return {**FIXED["square"], "written": {**FIXED["square"]["written"], **changes}}


RUN = """
async (casesJson) => {
  const cases = JSON.parse(casesJson);
  const { FairPlay, chainKey, chainFromKey, receiptsKey, signingKey } = await import(
    "/static/fairplay.js"
  );
  const out = {};
  for (const [name, c] of Object.entries(cases)) {
    localStorage.clear();
    if (c.seed) {
      localStorage.setItem(chainKey(c.game, c.side), c.blueSeed);
      localStorage.setItem(signingKey(c.game, c.side), c.blueSigning);
      if (c.chainFrom) localStorage.setItem(chainFromKey(c.game, c.side), String(c.chainFrom));
    }
    const sent = [];
    const hooks = { send: (m) => (sent.push(m), true), changed: () => {} };
    const make = () => new FairPlay(c.game, "token", hooks);
    let fp = make();
    const notes = [];
    const signed = [];
    let last = null;
    for (const step of c.steps) {
      if (step === "reload") {
        fp = make();
        continue;
      }
      if (step.sign) {
        signed.push(fp.sign(step.sign.id, step.sign.command));
        continue;
      }
      fp.observe(step, true);
      last = step;
      notes.push(fp.waiting(step), fp.joiningNote(step));
    }
    out[name] = {
      sent,
      signed,
      alarms: [...fp.alarms.values()],
      chain: fp.chainState,
      checks: Object.fromEntries(
        [...fp.checks].filter(([, v]) => v.length).map(([k, v]) => [k, v.map((x) => x.ok)])),
      receipts: JSON.parse(localStorage.getItem(receiptsKey(c.game, c.side))),
      panel: fp.panel(last).textContent,
      lines: (last.log || []).flatMap((e) => fp.openingLines(e).map((p) => p.textContent)),
      notes: notes.filter(Boolean),
    };
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def results(browser: Any, server: str) -> Iterator[dict[str, Any]]:
    context = browser.new_context()
    context.set_default_timeout(test_browser.TIMEOUT_MS)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server + "/")
        made = cases()
        for c in made.values():
            c.update(game=GAME, blueSeed=BLUE_SEED.hex(), blueSigning=BLUE_SEAT_SECRET.hex())
        out: dict[str, Any] = page.evaluate(RUN, json.dumps(made))
        assert errors == []
        assert set(out) == set(made)
        yield out
    finally:
        context.close()


def quiet(got: dict[str, Any]) -> None:
    assert got["alarms"] == [], got["alarms"]


def answered(got: dict[str, Any]) -> list[Any]:
    return [m["k"] for m in got["sent"] if m["type"] == "contribute"]


# --- controls ---------------------------------------------------------------------------------


def test_an_honest_game_raises_no_alarm_and_keeps_every_receipt(results: dict[str, Any]) -> None:
    got = results["joins and starts"]
    quiet(got)
    assert got["chain"] == "page"
    assert [m["type"] for m in got["sent"]] == ["anchor", "contribute", "contribute"]
    # The anchor goes with the public key this page signs its side's orders with.
    assert got["sent"][0] == {"type": "anchor", "anchor": BLUE.anchor.hex(), "key": SEATS["blue"]}
    assert answered(got) == [0, 7]
    kept = got["receipts"]
    assert set(kept) == {"key", "anchor", "seat", "heads", "requests", "orders", "windows"}
    assert kept["key"] == KEY.public
    assert kept["anchor"] == BLUE.anchor.hex()  # lowercase hex, the one it gave
    assert kept["seat"] == BLUE_SEAT.public
    assert kept["orders"] == []
    assert [r["k"] for r in kept["requests"]] == [0, 7]
    assert kept["requests"][1] == request(7, LAST)  # with the order it quotes ("": red's)
    # Each head with what the page was shown of it, as Python computes it, among the other
    # side's digest, in the game's side order: what the host's one signature covers.
    log = honest_log()
    assert kept["heads"] == [kept_head(e) for e in log]
    for head in kept["heads"]:
        assert verify_head(KEY.public, GAME, head)
    assert "Receipts kept: 9" in got["panel"]  # 7 heads, 2 requests
    assert "held by this page" in got["panel"]


def test_a_page_answers_the_next_roll_after_the_last_head(results: dict[str, Any]) -> None:
    for name, k in (("answers the next roll", 7), ("answers roll 0 after genesis", 0)):
        quiet(results[name])
        assert answered(results[name]) == [k], name
        assert results[name]["sent"][0]["element"] == BLUE.element(k).hex()


def test_an_honest_opening_matches(results: dict[str, Any]) -> None:
    got = results["honest opening"]
    quiet(got)
    assert got["checks"] == {"6": [True]}
    # A view without the ruleset's words for its secrets still names no field.
    assert got["lines"] == ["✓ A secret of amb (F2): matches the commitment published at event 5."]


def test_an_opening_of_a_fact_that_never_changes_names_the_event_that_wrote_it(
    results: dict[str, Any],
) -> None:
    got = results["fixed: honest"]
    quiet(got)
    assert got["checks"] == {"6": [True]}
    assert got["lines"] == [
        "✓ The ambush square of amb (D7) was written at event 1 and has not changed since: it "
        "matches the commitments published then and at event 5."
    ]
    # One piece's facts that checked alike read as one line, in the players' words.
    got = results["fixed: one piece's two facts"]
    quiet(got)
    assert got["checks"] == {"6": [True, True, True]}
    assert got["lines"] == [
        "✓ What marker M1 hides (a unit: Machine-gun position) was written at event 2 and has "
        "not changed since: it matches the commitments published then and at event 5.",
        "✓ The ambush square of amb (D7) was written at event 1 and has not changed since: it "
        "matches the commitments published then and at event 5.",
    ]
    assert "Revealed secrets checked against their commitments: 3 match." in got["panel"]


def test_a_write_proof_of_a_fact_that_may_change_raises_the_alarm(
    results: dict[str, Any],
) -> None:
    # It may hash well (the fact did not change), but the rules never make one: the page
    # demands a proof where the ruleset's words say the fact is fixed, and none elsewhere.
    got = results["fixed: a write proof of a fact that may change"]
    assert got["checks"] == {"6": [False]}
    alarm = f"Something revealed at event 6 does NOT match what was committed to — {AUDIT}."
    assert got["alarms"] == [alarm]
    # Without the ruleset's data the page cannot know: the proof checks; the audit finds it.
    got = results["fixed: a write proof of a fact that may change, no ruleset data"]
    quiet(got)
    assert got["checks"] == {"6": [True]}
    assert got["lines"] == [
        "✓ A secret of s1 (yes) was written at event 1 and has not changed since: it matches "
        "the commitments published then and at event 5."
    ]


def test_a_write_proof_the_page_cannot_check_says_so(results: dict[str, Any]) -> None:
    got = results["fixed: the write's root never received"]
    assert got["checks"] == {"6": [None]}
    assert got["lines"] == [
        "? The ambush square of amb (D7): this page never received the commitment of event 1 "
        "to check it against."
    ]
    assert not any("NOT match" in alarm for alarm in got["alarms"]), got["alarms"]


@pytest.mark.parametrize(
    "name",
    [
        "fixed: a leaf of the write's root changed",
        "fixed: another write event",
        "fixed: written after the root",
        "fixed: written at no event",
        "fixed: the blinding value of now",
        "fixed: the nonce of now",
        "fixed: a write proof that is not one",
        "fixed: the write proof left out",
    ],
)
def test_a_false_write_proof_raises_the_alarm(results: dict[str, Any], name: str) -> None:
    got = results[name]
    assert got["checks"] == {"6": [False]}, name
    assert got["alarms"] == [
        f"Something revealed at event 6 does NOT match what was committed to — {AUDIT}."
    ], name
    assert len(got["lines"]) == 1
    assert got["lines"][0].startswith("✗ The ambush square of amb (D7) does NOT match"), got
    assert not any(line.startswith("✓") for line in got["lines"]), got["lines"]


# --- 1. parties ---------------------------------------------------------------------------------

UNLISTED = (
    "The host's record of this game's set-up does not list this page's dice chain as the one "
    f"it gave — {AUDIT}."
)
PARTIES = (
    "The host's record of this game's set-up does not list the dice chains of the host and of "
    f"every side once each — {AUDIT}."
)


@pytest.mark.parametrize(
    ("name", "alarms"),
    [
        ("left out", [PARTIES, UNLISTED]),
        ("anchor swapped", [UNLISTED]),
        ("listed twice, shadow last", [PARTIES, UNLISTED]),
        ("listed twice, shadow first", [PARTIES, UNLISTED]),
        ("own anchor in capitals", [PARTIES, UNLISTED]),
        ("own entry without held", [PARTIES]),
    ],
)
def test_a_set_up_that_does_not_roll_from_this_pages_chain_raises_the_alarm(
    results: dict[str, Any], name: str, alarms: list[str]
) -> None:
    got = results[name]
    for alarm in alarms:
        assert alarm in got["alarms"], (name, got["alarms"])
    # The page no longer says the host cannot steer its rolls, and gives no element.
    assert got["chain"] != "page", name
    assert "held by this page" not in got["panel"]
    assert answered(got) == [], name
    # It still keeps the anchor it gave, for the audit to hold the record to.
    assert got["receipts"]["anchor"] == BLUE.anchor.hex()


@pytest.mark.parametrize(
    "name",
    [
        "sides out of order",
        "host not first",
        "host left out",
        "a party the game does not have",
        "another side twice",
    ],
)
def test_a_set_up_that_lists_the_parties_otherwise_raises_the_alarm(
    results: dict[str, Any], name: str
) -> None:
    assert PARTIES in results[name]["alarms"], (name, results[name]["alarms"])


def test_a_set_up_saying_the_host_holds_this_pages_chain_raises_the_alarm(
    results: dict[str, Any],
) -> None:
    got = results["own chain said held"]
    assert any("says the host holds your dice chain" in a for a in got["alarms"]), got["alarms"]
    assert got["chain"] != "page"
    assert answered(got) == []


def test_event_0_without_a_set_up_raises_the_alarm(results: dict[str, Any]) -> None:
    got = results["event 0 without a set-up"]
    assert f"The host's record of this game's set-up is missing — {AUDIT}." in got["alarms"]


def test_a_log_that_hides_event_0_raises_the_alarm(results: dict[str, Any]) -> None:
    got = results["a log without event 0"]
    assert got["alarms"] == [f"The host's record of this game's set-up is missing — {AUDIT}."]
    assert got["chain"] == "unlisted"
    assert answered(got) == []
    got = results["an entry without a proof"]
    assert got["alarms"] == [f"The host's record of event 2 carries no proof — {AUDIT}."]
    got = results["an entry with no proof at all"]
    assert got["alarms"] == [f"The host's record of event 3 carries no proof — {AUDIT}."]
    got = results["an entry that is not an object"]
    assert got["alarms"] == [
        f"The host sent a record of an event without a proper event number — {AUDIT}."
    ]


def test_a_share_that_is_not_this_pages_element_raises_the_alarm(
    results: dict[str, Any],
) -> None:
    got = results["one share not this page's"]
    expected = (
        f"The host's record of event 3 does not roll the dice with this page's share — {AUDIT}."
    )
    assert expected in got["alarms"], got["alarms"]


def test_only_event_0_gives_the_set_up(results: dict[str, Any]) -> None:
    got = results["a set-up in a later event"]
    quiet(got)  # neither its key nor its parties are taken
    assert got["chain"] == "page"
    assert answered(got) == [7]
    assert got["receipts"]["key"] == KEY.public
    # The roster size comes from event 0 only, too.
    assert results["roster size not from a later event"]["checks"] == {"6": [True]}
    assert results["roster size from event 0"]["checks"] == {"6": [False]}


# --- 2. rolls other than the next --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "k", "words"),
    [
        ("far future", 4000, "when the next roll is 7"),
        ("one ahead", 8, "when the next roll is 7"),
        ("already resolved", 6, "when the next roll is 7"),
        ("roll 0 again", 0, "when the next roll is 7"),
        ("roll 1 before the game starts", 1, "when the next roll is 0"),
        ("after an older head", 7, "after a history this page was never shown"),
        ("roll 0 after another head", 0, "after a history this page was never shown"),
    ],
)
def test_a_request_for_another_roll_than_the_next_is_refused_and_kept(
    results: dict[str, Any], name: str, k: int, words: str
) -> None:
    got = results[name]
    assert got["sent"] == [], name
    assert any(f"The host asked for roll {k} {words}" in a for a in got["alarms"]), got["alarms"]
    # Kept: a signed request the record does not resolve is what the audit flags.
    assert [r["k"] for r in got["receipts"]["requests"]] == [k]


def test_a_request_without_a_proper_roll_number_is_refused(results: dict[str, Any]) -> None:
    for name in ("roll number in words", "roll number as a float"):
        got = results[name]
        assert got["sent"] == [], name
        assert got["alarms"] == [
            "The host asked for a roll without a proper roll number, so this page did not "
            f"give its share — {AUDIT}."
        ], name
        assert WORDS not in " ".join(got["notes"] + [got["panel"]])


# --- 2b. orders in this side's name (issue 24, finding 1) --------------------------------------

ORDER_ALARM = (
    f"The host asked for roll 7 for an order of your side that this page did not give — {AUDIT}."
)


def test_a_page_answers_a_request_for_its_own_order_it_signed_for_that_roll(
    results: dict[str, Any],
) -> None:
    got = results["order: honest"]
    quiet(got)
    assert answered(got) == [7]
    # The page signed the order for the roll after the last head it kept, with its seat key:
    # the very signature the host's request quotes the digest of (Python signs alike).
    assert got["signed"] == [
        {"k": 7, "sig": BLUE_SEAT.sign(order_message(GAME, 7, "blue", "c-7", READY))}
    ]
    [kept] = got["receipts"]["orders"]
    assert set(kept) == {"id", "k", "digest", "sent"}
    assert (kept["id"], kept["k"], kept["digest"]) == ("c-7", 7, signed_order(7, "c-7"))
    assert isinstance(kept["sent"], int)  # the page's clock, in milliseconds
    assert kept["sent"] > 0
    assert got["receipts"]["requests"] == [
        request(7, LAST, side="blue", order=signed_order(7, "c-7"))
    ]
    # Another side's order is not this page's to hold the host to.
    quiet(results["order: another side's"])
    assert answered(results["order: another side's"]) == [7]


@pytest.mark.parametrize(
    ("name", "orders"),
    [
        ("order: none given", []),  # the page has no order in flight
        ("order: none given, none quoted", []),
        ("order: one signed for another roll", [6]),  # an order of blue's, for roll 6
        ("order: a random digest", [7]),  # blue gave an order for roll 7, not this one
        ("order: none quoted", [7]),  # "", as for a host-acted side, while blue has a key
    ],
)
def test_a_request_for_an_order_of_this_side_it_did_not_give_is_refused_and_kept(
    results: dict[str, Any], name: str, orders: list[int]
) -> None:
    """The host gives a command in this side's name: its request names this side, yet quotes
    no order this page signed for that roll. The page gives no element (the roll waits, and
    nothing is ruled), raises the alarm and keeps the signed request: the audit finds it never
    resolved, or resolved for an order the side never signed."""
    got = results[name]
    assert got["sent"] == [], name
    assert got["alarms"] == [ORDER_ALARM], name
    [kept] = got["receipts"]["requests"]
    assert (kept["k"], kept["side"]) == (7, "blue")
    assert [o["k"] for o in got["receipts"]["orders"]] == orders
    # Refused for good: the same request again is not answered either.
    assert "held by this page" in got["panel"]


SEAT_ALARM = (
    "The host's record of this game's set-up does not name the key this page signs your "
    f"orders with — {AUDIT}."
)


@pytest.mark.parametrize(
    "name",
    [
        "seat: another key in the set-up",
        "seat: host-acted in the set-up",
        "seat: no seats in the set-up",
    ],
)
def test_a_set_up_that_names_another_seat_key_raises_the_alarm(
    results: dict[str, Any], name: str
) -> None:
    """The page gave its seat key with its anchor; a set-up that names another key for its
    side (or none: "host-acted") lets the host sign this side's orders itself."""
    got = results[name]
    assert got["sent"][0] == {"type": "anchor", "anchor": BLUE.anchor.hex(), "key": SEATS["blue"]}
    assert got["receipts"]["seat"] == BLUE_SEAT.public  # what it gave, for the audit
    assert got["alarms"] == [SEAT_ALARM], name


def test_a_later_event_that_gives_this_side_a_key_it_does_not_hold_raises_the_alarm(
    results: dict[str, Any],
) -> None:
    got = results["seat: a key this page does not hold"]
    assert got["alarms"] == [
        f"The host's record of event 3 gives your side a signing key this page does not hold "
        f"— {AUDIT}."
    ]
    # Its own key (its seat moved to this device), or another side's new key: no alarm.
    quiet(results["seat: this page's own key again"])
    quiet(results["seat: another side's new key"])


def test_a_page_that_took_a_seat_moved_twice_raises_no_alarm(results: dict[str, Any]) -> None:
    got = results["seat: moved twice, this page the last"]
    assert got["chain"] == "page"
    assert got["sent"] == [{"type": "contribute", "k": 7, "element": BLUE.element(3).hex()}]
    quiet(got)


def test_a_status_that_hides_this_sides_key_does_not_let_the_host_order(
    results: dict[str, Any],
) -> None:
    """The page holds a seat key for its side and event 0 names it; the host's status (what it
    writes freely, unsigned) says nothing of keys. The page must still refuse a request for an
    order of its side that it did not give."""
    got = results["order: the status hides this side's key"]
    assert got["sent"] == []
    assert got["alarms"] == [ORDER_ALARM]


# --- 3. openings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "stale root",
        "own roster",
        "unknown side",
        "root_seq as text",
        "opening not an object",
        "another root's nonce",
        "an opening without its nonce",
    ],
)
def test_an_opening_the_rules_could_not_have_made_does_not_match(
    results: dict[str, Any], name: str
) -> None:
    got = results[name]
    assert got["checks"] == {"6": [False]}, name
    assert (
        f"Something revealed at event 6 does NOT match what was committed to — {AUDIT}."
        in got["alarms"]
    )
    assert not any(line.startswith("✓") for line in got["lines"]), got["lines"]


# --- 4. alarm words -----------------------------------------------------------------------------


def test_the_host_cannot_write_the_alarms_words(results: dict[str, Any]) -> None:
    checked = [name for name in results if "words" in name or name.startswith("event number")]
    assert len(checked) == 10
    for name in checked:
        got = results[name]
        assert got["alarms"] or name == "waiting for words", name
        text = " ".join(got["alarms"] + got["notes"] + [got["panel"]])
        assert "do not run the audit" not in text, (name, text)
        # Every number in an alarm is a plain whole number.
        for alarm in got["alarms"]:
            assert not re.search(r"-\d|\d\.\d|\d{16}|None|True|false|null", alarm), alarm
    for name in ("event number in words", "event number -1", "event number 1.5"):
        assert (
            f"The host sent a record of an event without a proper event number — {AUDIT}."
            in results[name]["alarms"]
        )
    assert (
        "The host's record of event 2 has a share of the dice from a side this game does not "
        f"have — {AUDIT}." in results["share of a side in words"]["alarms"]
    )
    assert results["key changed at an event in words"]["alarms"] == [
        f"The host changed the key it signs this game's record with — {AUDIT}."
    ]
    assert results["waiting for words"]["notes"] == ["a party this game does not have, Red company"]


# --- 5. what a page was shown -------------------------------------------------------------------


def shown_alarm(seq: int) -> str:
    return (
        f"The host's record of what this page was shown at event {seq} is not signed by its key "
        f"— {AUDIT}."
    )


def sig_alarm(seq: int) -> str:
    return f"The host sent a record of event {seq} that its own key did not sign — {AUDIT}."


@pytest.mark.parametrize(
    ("name", "seqs"),
    [
        ("nothing shown is signed", list(range(7))),
        ("the other side's digest left out", [4]),
        ("a salt that is not one", [4]),
        ("host-held game, nothing signed", list(range(7))),
    ],
)
def test_an_entry_without_the_digests_its_head_was_signed_with_raises_the_alarm(
    results: dict[str, Any], name: str, seqs: list[int]
) -> None:
    """An entry that does not say what the head was signed with (the other sides' digests,
    this side's salt) gives the page no receipt to keep: nothing the audit could hold the
    record to."""
    got = results[name]
    assert got["alarms"] == [shown_alarm(seq) for seq in seqs], name
    kept = {r["seq"] for r in got["receipts"]["heads"]}
    assert kept == set(range(7)) - set(seqs), name


@pytest.mark.parametrize(
    ("name", "seq"),
    [
        ("the other side's digest spoilt", 4),
        ("another salt", 4),
        ("lines changed after signing", 4),
        ("roots changed after signing", 5),
        ("contributions changed after signing", 5),
        ("openings changed after signing", 5),
        ("keys changed after signing", 5),
        ("order changed after signing", 5),
        ("set-up changed after signing", 0),
        ("signed in another side order", 2),
        ("signed with another key", 2),
        ("the other side's digest in capitals", 2),
    ],
)
def test_a_head_not_signed_with_what_the_page_was_shown_raises_the_alarm_and_is_kept(
    results: dict[str, Any], name: str, seq: int
) -> None:
    """The page computes its own digest of what it was shown, with its salt, puts it among the
    others' and checks the host's one signature on the head: anything the host changed after
    signing (or signed otherwise) fails it. The head is kept as the page computed it: a
    receipt the host's key does not verify fails the audit."""
    got = results[name]
    assert sig_alarm(seq) in got["alarms"], (name, got["alarms"])
    heads = got["receipts"]["heads"]
    assert [r["seq"] for r in heads] == list(range(7)), name
    assert [verify_head(KEY.public, GAME, r) for r in heads] == [s != seq for s in range(7)]


def test_a_reload_keeps_each_head_once(results: dict[str, Any]) -> None:
    got = results["reload checks again only what is new"]
    quiet(got)
    assert got["receipts"]["heads"] == [kept_head(e) for e in honest_log()]


def test_two_signed_accounts_of_one_event_are_both_kept(results: dict[str, Any]) -> None:
    got = results["two signed accounts of one event"]
    assert got["alarms"] == [
        f"The host showed this page two different accounts of event 4 — {AUDIT}."
    ]
    heads = got["receipts"]["heads"]
    assert [r["seq"] for r in heads] == [*range(7), 4]
    # One head, signed twice with two digests of what this page was shown: the proof.
    assert heads[4]["hash"] == heads[7]["hash"]
    assert heads[4]["shown"][0] != heads[7]["shown"][0]
    assert heads[4]["shown"][1] == heads[7]["shown"][1]  # the other side's is the same
    assert all(verify_head(KEY.public, GAME, r) for r in heads)


def test_an_event_sent_again_is_checked_again(results: dict[str, Any]) -> None:
    assert results["an event sent again with other lines"]["alarms"] == [
        sig_alarm(4),
        f"The host showed this page two different accounts of event 4 — {AUDIT}.",
    ]


def test_pages_that_are_not_a_side_check_nothing_of_shown(results: dict[str, Any]) -> None:
    got = results["spectator checks nothing of shown"]
    quiet(got)
    assert got["receipts"] is None


def test_a_host_held_game_is_checked_too(results: dict[str, Any]) -> None:
    got = results["host-held game"]
    quiet(got)
    assert got["chain"] == "host"
    assert len(got["receipts"]["heads"]) == 7
    assert "anchor" not in got["receipts"]


# --- a real game: a page shown another reveal than the record (red team finding F) -----------


def test_a_page_shown_another_reveal_than_the_record_keeps_the_evidence(
    browser: Any, server: str
) -> None:
    """The host shows one side a reveal that is not the record's (another value for the fact
    opened, against a root shown to that page alone, and against a root of the event that
    wrote it shown to that page alone: what a marker hides never changes). Unless the host
    signs the heads again with that side's digest of what it showed, the page raises the
    alarm; if it does, the page keeps those heads, whose digest for that side is not the
    record's: the receipt the audit holds the record to (TRUST.md §1.4, projection replay)."""
    scenario = "suspicious-places"
    raw = bytes(range(32))
    sides = examples.load(scenario).side_ids()
    chains = {s: Chain.from_seed(sha256(f"unbound {s}".encode())) for s in sides}
    game = play_pages(scenario, 1, chains, host=4, game_id="unbound", key=raw)
    record = game.record(with_receipts=False)
    events = record["events"]
    seq, to, opening = next(
        (e["seq"], to, ops[0]) for e in events for to, ops in e["fair"]["openings"].items()
    )
    root_seq = opening["root_seq"]
    assert opening["written"]["seq"] < root_seq  # the page checks two roots

    def log() -> list[dict[str, Any]]:
        return [
            {"seq": e["seq"], "lines": e["told"].get(to, []), "proof": side_proof(e["fair"], to)}
            for e in events
        ]

    honest = log()
    lie = copy.deepcopy(opening)
    lie["value"] = "lied" if opening["value"] != "lied" else "lied too"
    unsigned = log()

    def forge(proof: dict[str, Any], at: int) -> list[str]:
        """The leaves of event ``at``'s root with the lie's leaf for the fact's, whose root
        (under the nonce the opening shows) the page is shown at ``at``."""
        blind = bytes.fromhex(proof["blind"])
        real = leaf(blind, fact_digest(record["game"], **_fact(opening)))
        fake = leaf(blind, fact_digest(record["game"], **_fact(lie)))
        leaves = sorted([bytes.fromhex(x) for x in proof["leaves"] if bytes.fromhex(x) != real])
        leaves = sorted([*leaves, fake])
        nonce = bytes.fromhex(proof["nonce"])
        unsigned[at]["proof"]["roots"] = {
            **unsigned[at]["proof"]["roots"],
            opening["side"]: published_root(record["game"], opening["side"], at, nonce, leaves),
        }
        return [x.hex() for x in leaves]

    written = opening["written"]["seq"]
    lie["leaves"] = forge(opening, root_seq)
    lie["written"]["leaves"] = forge(opening["written"], written)
    unsigned[seq]["proof"]["openings"] = [lie]
    changed = (written, root_seq, seq)
    signed = copy.deepcopy(unsigned)
    host = HostKey.from_bytes(raw)
    for at in changed:
        entry_ = signed[at]
        salt = bytes.fromhex(entry_["proof"]["shown"]["salt"])
        fair = {**entry_["proof"], "openings": {to: entry_["proof"]["openings"]}}
        mine = shown_digest_v2(salt, shown_content(at, fair, entry_["lines"], to))
        others = entry_["proof"]["shown"]["digests"]
        digests = [mine if s == to else bytes.fromhex(others[s]) for s in sides]
        head = bytes.fromhex(entry_["proof"]["hash"])
        entry_["proof"]["sig"] = host.sign(head_message_v2(record["game"], at, head, digests))

    def page_view(entries: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "you": to,
            "sides": [{"id": s, "name": s.title()} for s in sides],
            "phase": "over",
            "seq": len(entries) - 1,
            "log": entries,
            "fairness": {"key": events[0]["fair"]["setup"]["key"], "chains": {}},
        }

    made = {
        name: {"steps": [page_view(entries)], "side": to, "seed": False, "game": record["game"]}
        for name, entries in (("honest", honest), ("unsigned", unsigned), ("signed", signed))
    }
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server + "/")
        out = page.evaluate(RUN, json.dumps(made))
    finally:
        context.close()

    recorded = [head_receipt(e["seq"], e["fair"], sides) for e in events]
    mine_at = sides.index(to)
    # Honest: every event's receipt is the record's own, and the audit passes with them.
    quiet(out["honest"])
    assert out["honest"]["receipts"]["heads"] == recorded
    assert audit(record, kept_by=[(to, out["honest"]["receipts"])]).ok
    # The lie, under the record's signatures: the page raises the alarm for each event.
    got = out["unsigned"]
    assert got["checks"][str(seq)] == [True]  # the lie checks against the roots it came with
    assert got["alarms"] == [sig_alarm(at) for at in changed]
    report = audit(record, kept_by=[(to, got["receipts"])])
    assert [(f.check, f.seq) for f in report.findings] == [("receipts", written)]
    assert "the host's key did not sign" in report.findings[0].message
    # The lie, signed: the page cannot tell, but keeps the host's signature on what it was
    # shown, which is not what the record says it showed: the audit says so.
    got = out["signed"]
    quiet(got)
    kept = got["receipts"]["heads"]
    assert [r["seq"] for r in kept] == [e["seq"] for e in events]
    for r, want in zip(kept, recorded, strict=True):
        assert verify_head(events[0]["fair"]["setup"]["key"], record["game"], r)
        assert r["hash"] == want["hash"]
        if r["seq"] in changed:
            assert r["shown"][mine_at] != want["shown"][mine_at]
            assert r["sig"] != want["sig"]
        else:
            assert r == want
    report = audit(record, kept_by=[(to, got["receipts"])])
    assert [str(f) for f in report.findings] == [
        f"receipts: event {written}: {to} was shown something at event {written} that the "
        "record does not hold"
    ]


def _fact(opening: dict[str, Any]) -> dict[str, Any]:
    return {k: opening[k] for k in ("side", "piece", "key", "value", "salt")}


QUIET = {
    "joins and starts",
    "answers the next roll",
    "answers roll 0 after genesis",
    "honest opening",
    "a set-up in a later event",
    "roster size not from a later event",
    "reload checks again only what is new",
    "spectator checks nothing of shown",
    "host-held game",
    "waiting for words",  # not an alarm: the status names no party the game does not have
    "fixed: honest",
    "fixed: one piece's two facts",
    # Not an alarm: the line says the page cannot check it ("?"), as for any root it lacks.
    "fixed: the write's root never received",
    "fixed: a write proof of a fact that may change, no ruleset data",
    "order: honest",
    "order: another side's",
    "seat: this page's own key again",
    "seat: another side's new key",
    "seat: moved twice, this page the last",
}
# Views a page does not yet judge right: none (each once had an xfail test of its own).
KNOWN_GAPS: set[str] = set()


def test_every_lying_view_raises_the_alarm_and_no_honest_one_does(
    results: dict[str, Any],
) -> None:
    assert set(results) >= QUIET | KNOWN_GAPS
    for name, got in results.items():
        if name in KNOWN_GAPS:
            continue
        if name in QUIET:
            assert got["alarms"] == [], name
        else:
            assert got["alarms"], name
            assert "held by this page" not in got["panel"] or got["chain"] == "page", name
    assert len(results) - len(QUIET) - len(KNOWN_GAPS) == 91
    # Roll 7 answered once only, when asked twice; nothing given for a request under another key.
    assert answered(results["held: asked twice for one roll"]) == [7]
    assert answered(results["held: asked twice for one roll, with another order"]) == [7]
    assert answered(results["held: a request under another key"]) == []
