"""The storage contract, one slice per table, every slice for every backend: subclass
:class:`StoreContract` with a ``store`` fixture."""

from __future__ import annotations

from .beats import BeatsContract
from .events import LogContract
from .rolls import RollsContract
from .seats import SeatsContract
from .tokens import TokensContract


class StoreContract(LogContract, TokensContract, SeatsContract, RollsContract, BeatsContract):
    """The whole contract: what the library and the server need of a store."""
