"""Who may take which special fire (RULES-SPEC BMF-R02, R05, R07, R14, A03, A14, A15,
BMF-T04, T08)."""

from __future__ import annotations

import pytest

from ghillie.rules.ambush_fire import eligibility
from ghillie.rules.ambush_fire.scenario import Diet

TURN = 3


def history(last: list[str], now: list[str]) -> dict[str, list[str]]:
    return {str(TURN - 1): last, str(TURN): now}


@pytest.mark.spec("BMF-T04")
@pytest.mark.spec("BMF-R07")
@pytest.mark.parametrize(
    ("concealed", "moved_last", "fired_last", "moved_now", "challenged_now", "allowed"),
    [
        (True, False, False, False, False, True),
        (True, True, False, False, False, False),
        (True, False, True, False, False, False),
        (True, False, False, False, True, False),
        (True, False, False, True, False, False),
        (False, False, False, False, False, False),
    ],
)
def test_bmf_t04_r07_ambush_fire_eligibility(
    concealed: bool,
    moved_last: bool,
    fired_last: bool,
    moved_now: bool,
    challenged_now: bool,
    allowed: bool,
) -> None:
    last = [w for w, on in (("moved", moved_last), ("fired", fired_last)) if on]
    now = [w for w, on in (("moved", moved_now), ("challenged", challenged_now)) if on]
    reason = eligibility.ambush(concealed, history(last, now), TURN)
    assert (reason is None) is allowed, reason


@pytest.mark.spec("BMF-A14")
def test_bmf_a14_firing_normally_this_turn_does_not_bar_ambush_fire() -> None:
    assert eligibility.ambush(True, history([], ["fired"]), TURN) is None


@pytest.mark.spec("BMF-R02")
@pytest.mark.spec("BMF-R05")
@pytest.mark.spec("BMF-A03")
def test_bmf_r02_r05_challenge_fire_needs_a_stationary_firer_that_has_not_challenged() -> None:
    assert eligibility.challenge(history([], []), TURN) is None
    assert eligibility.challenge(history(["turned"], []), TURN) is not None  # not even a turret
    assert eligibility.challenge(history([], ["moved"]), TURN) is not None
    # The firer that took Challenge Fire may not fire until next turn (the target may reply).
    assert eligibility.challenge(history([], ["challenged"]), TURN) is not None
    assert eligibility.challenge({str(TURN - 1): ["challenged"]}, TURN) is None


@pytest.mark.spec("BMF-R14")
@pytest.mark.spec("BMF-A15")
@pytest.mark.spec("BMF-T08")
def test_bmf_a15_r14_only_carnivores_and_omnivores_ambush_in_close_combat() -> None:
    quiet = history([], [])
    assert eligibility.close_combat(True, Diet.OMNIVORE, quiet, TURN) is None  # people
    assert eligibility.close_combat(True, Diet.CARNIVORE, quiet, TURN) is None
    assert eligibility.close_combat(True, Diet.HERBIVORE, quiet, TURN) is not None  # T08
    assert eligibility.close_combat(True, Diet.NONE, quiet, TURN) is not None  # a vehicle
    assert eligibility.close_combat(False, Diet.OMNIVORE, quiet, TURN) is not None
    assert eligibility.close_combat(True, Diet.OMNIVORE, history(["fired"], []), TURN)
    assert eligibility.close_combat(True, Diet.OMNIVORE, history([], ["close_combat"]), TURN)


@pytest.mark.spec("BMF-R07")
def test_bmf_r07_an_ambusher_is_concealed_and_has_kept_still() -> None:
    quiet = history([], [])
    assert eligibility.ambush(True, quiet, TURN) is None
    assert eligibility.ambush(False, quiet, TURN) == "Ambush Fire needs a concealed firer."
    assert eligibility.ambush(True, history(["moved"], []), TURN) is not None
    assert eligibility.ambush(True, history([], ["challenged"]), TURN) is not None
    # Two turns ago is no bar: only the previous turn and this one count.
    assert eligibility.ambush(True, {str(TURN - 2): ["moved", "fired"]}, TURN) is None
