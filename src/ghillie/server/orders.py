"""A side's orders, signed by the device that holds its seat (docs/fairness.md, "Orders").

A side with a seat key gives every command signed for the roll asked for now: the check
here comes before the command is tried, so an order not signed so asks nobody for anything
and rules on nothing. The host's own commands, and those of a side with no seat key, are
the host's ("host-acted"): they carry no signature.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from ghillie.errors import BAD_ORDER_SIGNATURE, MALFORMED_COMMAND, STALE_ORDER, Refusal
from ghillie.fairness.hashlog import SIGNATURE, order_message, verify
from ghillie.fairness.ledger import Ledger, Order
from ghillie.words import say

# A signed command: the roll its side's seat key signed it for, and the signature.
Signed = tuple[Any, Any]


async def signed_order(
    ledger: Ledger,
    side: str | None,
    command_id: str,
    raw: Mapping[str, Any],
    signed: Signed | None,
) -> Order | None:
    """The command as its side's seat key signed it, for the roll asked for now; None for
    the host's own commands and for a side with no seat key (its commands are the host's:
    "host-acted"). Refused if it is not signed so: nothing is asked or ruled."""
    if side is None:
        return None
    key = ledger.key_for(side, ledger.next_k)
    if key is None:
        return None
    if signed is None:
        raise Refusal(
            BAD_ORDER_SIGNATURE,
            "This side's orders are signed by the device that holds its seat; this one "
            "is not signed.",
        )
    k, sig = signed
    if type(k) is not int or k != ledger.next_k:
        raise Refusal(
            STALE_ORDER,
            say(
                "The game moved on (to roll {k}) while this order was on its way, so it "
                "was not given: look at the game again and give it anew.",
                k=str(ledger.next_k),
            ),
        )
    try:
        message = order_message(ledger.game_id, k, side, command_id, raw)
    except (TypeError, ValueError, OverflowError, UnicodeEncodeError):
        raise Refusal(MALFORMED_COMMAND, "That command is not well-formed.") from None
    # Checked off the loop: OpenSSL lets go of the GIL while it verifies. One spelling only
    # (lowercase hex): the record keeps the order as it was signed.
    spelled = isinstance(sig, str) and SIGNATURE.fullmatch(sig) is not None
    if not spelled or not await asyncio.to_thread(verify, key, message, sig):
        raise Refusal(
            BAD_ORDER_SIGNATURE,
            "This order is not signed by the device that holds this side's seat.",
        )
    return Order(command_id, dict(raw), sig)
