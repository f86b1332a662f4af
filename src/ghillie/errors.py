"""Refusals: the one way ghillie says no.

A refusal carries a stable ``code`` (clients and tests match on it) and a ``detail``
sentence chosen by the rule that refused: fixed, or with a number the rules know (how many
dice a roll takes), as a ``Say`` spoken in the reader's language. Neither ever contains the
command's raw input or anything the refusing side may not know: a command that touches
another side's hidden piece is refused with exactly the same code and detail as one that
touches nothing at all. A rule may also say which of the command's fields the refusal
concerns (``field``, a path such as ``models.3``, as the pages name their inputs), so that
a page can point at it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ghillie.words import Say, Speaker

# Codes the engine itself uses; rulesets add their own next to the rule that refuses.
GAME_OVER = "game_over"
UNKNOWN_SIDE = "unknown_side"
UNKNOWN_COMMAND = "unknown_command"
MALFORMED_COMMAND = "malformed_command"
BAD_DIE = "bad_die"  # a command names a die the game does not have (a d7)
NOT_NOW = "not_now"
NOT_YOUR_TURN = "not_your_turn"
AWAITING_REACTION = "awaiting_reaction"  # a reaction window is open: only its answers go
# The host's time-out (engine.time_out): it came late, or early.
WINDOW_CLOSED = "window_closed"  # the window it names is not the one open now
TIME_NOT_UP = "time_not_up"  # the window's time limit has not run out (or it has none)
TIME_UP = "time_up"  # an answer to a timed window after its end, at the host's time
UNKNOWN_PIECE = "unknown_piece"
NOT_YOURS = "not_yours"
BAD_ROLL = "bad_roll"
# Typed dice (ruling.py): a side types in only its own dice, and only where the game takes them.
NOT_YOUR_DIE = "not_your_die"  # another side's die (or no side's): ghillie rolls it
NO_TYPED_DICE = "no_typed_dice"  # the game rolls every die itself (Scenario.typed_dice)
MEASUREMENT_REQUIRED = "measurement_required"
MEASURED_BY_MAP = "measured_by_map"
OFF_TABLE = "off_table"
# The roll protocol (ghillie.fairness): every side's page gives its chain elements.
NOT_STARTED = "not_started"
ROLL_PENDING = "roll_pending"
NO_ROLL_PENDING = "no_roll_pending"
BAD_CONTRIBUTION = "bad_contribution"
ANCHOR_FIXED = "anchor_fixed"
GAME_NOT_OVER = "game_not_over"
SECRETS_FULL = "secrets_full"
# Seats (ghillie.server.seats): which device plays a side.
SEAT_TAKEN = "seat_taken"  # another device holds this side's seat
BAD_MOVE_CODE = "bad_move_code"  # not the code the seat's device shows (or used up)
SEAT_IN_USE = "seat_in_use"  # a new chain while the holding device is online: move it instead
BAD_SEAT_KEY = "bad_seat_key"  # a seat key is 32 to 64 characters of lowercase hex
# Orders signed by the seat that gives them (protocol 4).
STALE_ORDER = "stale_order"  # signed for a roll the game has gone past: sign it again
BAD_ORDER_SIGNATURE = "bad_order_signature"  # not signed by the key that holds the seat
BAD_SIGNING_KEY = "bad_signing_key"  # a signing key is 32 bytes in lowercase hex
OLD_PROTOCOL = "old_protocol"  # a game started under an earlier fairness protocol


class Refusal(Exception):
    """A command was refused; the game is unchanged.

    >>> Refusal("not_your_turn", "It is not your side's turn to act.").code
    'not_your_turn'
    >>> Refusal("bad_models", "Give every model a position.", field="models.3").as_dict()
    {'code': 'bad_models', 'detail': 'Give every model a position.', 'field': 'models.3'}
    """

    def __init__(
        self, code: str, detail: str | Say, *, field: str | None = None, said: Say | None = None
    ) -> None:
        if not isinstance(detail, str):
            # A sentence with values in it (how many dice a roll takes): ``said``, spoken in
            # the reader's language like any other; ``detail`` is its English.
            from ghillie.words.speak import speaker

            said, detail = detail, speaker("core").text(detail)
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail
        # The command field the refusal concerns ("orders.2.square"), for a form to show the
        # reason beside it. Taken from the command's shape, never from a secret.
        self.field = field
        # The detail as a sentence with arguments, for a refusal whose words name values
        # (a number field's allowed range, ghillie.ranges; how many dice a roll takes):
        # ``detail`` is then its English. Its arguments come from what the side may know.
        self.said = said

    def spoken(self, words: Speaker) -> str:
        """The detail in the reader's language: its catalogue entry, or its sentence."""
        return words.text(self.said) if self.said is not None else words.word(self.detail)

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code, "detail": self.detail}
        if self.field is not None:
            out["field"] = self.field
        return out


class ScenarioError(ValueError):
    """A scenario file breaks the rules or the schema; the message names the offending key."""
