"""A piece in words, as one reader knows it: its name, a few words on its state, details."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ghillie.words.say import Say
from ghillie.words.speak import Speaker


@dataclass(frozen=True)
class PieceWords:
    name: str | Say  # as the reader knows it: "Raptor 312", or "the counter at hex 0412"
    about: Sequence[str | Say] = ()  # short phrases on its state ("in ambush", "2 models")
    details: Sequence[tuple[str, Any]] = ()  # label (an N_ string) and value, secrets included

    def json(self, speaker: Speaker) -> dict[str, Any]:
        out: dict[str, Any] = {"name": speaker.text(self.name)}
        # A plain string here is a fixed phrase (N_): names come inside a Say.
        about = [speaker.word(a) if isinstance(a, str) else speaker.text(a) for a in self.about]
        if about:
            out["about"] = " · ".join(a for a in about if a)
        if self.details:
            out["details"] = [
                {"label": speaker.word(label), "value": speaker.text(value)}
                for label, value in self.details
            ]
        return out
