"""A scout-search scenario: two sides, the first hides the Scout and the second hunts it,
played on ghillie's map of the grid. No RULES-SPEC section: the switches are this toy's own
(``ss.*``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ghillie.scenario import Mode, Scenario, Switches


class ScoutSwitches(Switches):
    # The lowest d6 face on which a search next to the Scout hears it.
    hear_on: int = Field(6, ge=1, le=6, alias="ss.hear_on")
    # How many searches the hunters make before the scouts win.
    searches: int = Field(8, ge=1, le=36, alias="ss.searches")


class ScoutScenario(Scenario):
    ruleset: Literal["scout-search"] = "scout-search"
    mode: Mode = Mode.MAP
    switches: ScoutSwitches = Field(default_factory=ScoutSwitches)

    @model_validator(mode="after")
    def _on_the_map(self) -> ScoutScenario:
        # The grid is ghillie's: there is no real table to measure on.
        if self.mode is not Mode.MAP:
            raise ValueError("mode: scout-search is played on the map only")
        return self

    @property
    def scouts(self) -> str:
        """The side that hides the Scout: the first."""
        return self.sides[0].id

    @property
    def hunters(self) -> str:
        return self.sides[1].id
