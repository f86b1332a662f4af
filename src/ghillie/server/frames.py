"""The websocket's frames (docs/api.md, "The websocket"): what a page sends, one model per
``type``, and what the server answers, each as it goes on the wire.

A frame in is told apart by its ``type`` alone (:data:`Incoming`, a discriminated union);
one of no known type, or a command without a usable ``command_id`` or ``command``, is not
well-formed. The values a frame carries for the roll protocol and the seats (anchors,
elements, seat keys, codes) are taken as sent: the hub and the seats check them, and refuse
them with the same codes as over HTTP. Keys a frame does not use are ignored.

A frame out holds only the keys it was given, in the order its model declares them, so the
pages read exactly what they always have.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

# The longest command id a page or script may make (over HTTP too).
COMMAND_ID_LENGTH = 80


class FrameIn(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Auth(FrameIn):
    """The first frame: the link's token, the last event the page holds (``after``), the
    reader's languages and the device's seat key."""

    type: Literal["auth"]
    token: Any = None
    after: Any = None
    lang: Any = None
    seat: Any = None


class Ping(FrameIn):
    """The page's heartbeat, answered at once."""

    type: Literal["ping"]


class Resync(FrameIn):
    """The page asks for its whole view again, its log after ``after``."""

    type: Literal["resync"]
    after: Any = None


class GiveAnchor(FrameIn):
    """The page's chain's anchor, before the game starts, and its signing key."""

    type: Literal["anchor"]
    anchor: Any = None
    key: Any = None


class Contribute(FrameIn):
    """The page's chain element for roll ``k``."""

    type: Literal["contribute"]
    k: Any = None
    element: Any = None


class Renew(FrameIn):
    """The page's next chain, once its own runs out."""

    type: Literal["renew"]
    anchor: Any = None


class TakeSeat(FrameIn):
    type: Literal["take_seat"]
    seat: Any = None
    signing: Any = None


class NewChain(FrameIn):
    """The seat taken again with a new dice chain: its device's own was lost."""

    type: Literal["new_chain"]
    seat: Any = None
    anchor: Any = None
    signing: Any = None


class MoveSeat(FrameIn):
    """A device at a taken seat moves it here with the code the holder shows."""

    type: Literal["move_seat"]
    code: Any = None
    seat: Any = None
    anchor: Any = None
    signing: Any = None


class Command(FrameIn):
    """An order, with the id the page made for it once (a resend gets the first answer) and,
    signed, the roll it was signed for and the signature."""

    type: Literal["command"]
    command_id: str = Field(min_length=1, max_length=COMMAND_ID_LENGTH, strict=True)
    command: dict[str, Any]
    k: Any = None
    sig: Any = None

    @property
    def signed(self) -> tuple[Any, Any] | None:
        return (self.k, self.sig) if "sig" in self.model_fields_set else None


Incoming = Annotated[
    Ping | Resync | GiveAnchor | Contribute | Renew | TakeSeat | NewChain | MoveSeat | Command,
    Field(discriminator="type"),
]
INCOMING: TypeAdapter[Incoming] = TypeAdapter(Incoming)
AUTH = TypeAdapter(Auth)


class FrameOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    def frame(self) -> dict[str, Any]:
        """The frame as the pages read it: its type, then the keys it was given."""
        given = self.model_fields_set
        return {k: getattr(self, k) for k in type(self).model_fields if k == "type" or k in given}

    def wire(self) -> str:
        # orjson: a view is encoded for every page that connects or asks again.
        return orjson.dumps(self.frame()).decode()


class Pong(FrameOut):
    type: Literal["pong"] = "pong"


class ViewFrame(FrameOut):
    """The whole view; on connecting, with the device's seat."""

    type: Literal["view"] = "view"
    view: dict[str, Any]
    seat: dict[str, Any] | None = None


class SeatFrame(FrameOut):
    """The seat as it now stands (on connecting to a taken one, with the language the
    device reads it in), or why taking it was refused."""

    type: Literal["seat"] = "seat"
    seat: dict[str, Any] | None = None
    lang: str | None = None
    problem: dict[str, Any] | None = None


class ProblemFrame(FrameOut):
    """A frame that is not well-formed or too large, or a link that opens no game."""

    type: Literal["problem"] = "problem"
    problem: dict[str, Any]


class FairFrame(FrameOut):
    """The page's part in the roll protocol was taken (``ok``), or refused."""

    type: Literal["fair"] = "fair"
    ok: Literal[True] | None = None
    problem: dict[str, Any] | None = None


class AnswerFrame(FrameOut):
    """A command's answer, or its refusal."""

    type: Literal["answer"] = "answer"
    command_id: str
    answer: dict[str, Any] | None = None
    problem: dict[str, Any] | None = None
