"""camouflage in two real browsers (Debian's chromium, driven by Playwright): the bundled
example ``camouflage-table`` created on the start page and played through the pages' own
forms, one page per side, each holding its own dice chain — the course of the demo script
(src/ghillie/demo/camouflage.py):

the Nomads lay out three Camouflaged Markers and PanOceania one; the Caliban's marker
declares Move, the Fusilier delays its ARO, the second skill (BS Attack) reveals the Caliban
and the delayed ARO becomes a BS Attack; the Face to Face Roll with the Caliban's real dice
typed in by the Nomads (17, 16) and the Fusilier's rolled by ghillie, and the Fusilier's
saving rolls by ghillie; end of turn; the Fusilier Lieutenant
fails to Discover the Zondbot's marker, and his retry is refused with its reason beside the
form; the Seraph Discovers it; the Caliban goes back into Camouflaged State under a new
marker; the game ends, and both pages' records pass ``ghillie audit``.

After each skill the reactive side's page is asked for its AROs ("your move" and the form)
while the active side's page says whom it waits for; each page's log reads the lines the
rules tell that side; PanOceania's page never reads "Caliban" before the reveal, nor
"Antipersonnel Mine" before the end, nor any note; the Nomads' page never reads the Croc
Man before the end. Both pages are photographed at a phone's and a laptop's size during
deployment, while AROs are asked for and after the reveal, and PanOceania's at the refusal
(in /tmp/camo-shots/); nothing on them is text a player should never read (pages.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ghillie.fairness.audit import audit
from ghillie.rules.camouflage.demo import COMBI, SHOTGUN

from . import pages, test_browser
from .test_browser import DESKTOP, PHONE, Player, assert_never_seen, create_game
from .test_browser_fair import FairPlayer, receipts

server = test_browser.server  # the same `ghillie serve` and chromium as the page tests
browser = test_browser.browser

NOMADS, PANOCEANIA = "nomads", "panoceania"
SHOTS = Path("/tmp/camo-shots")
# The Nomads' notes on their markers and PanOceania's on its own: each side's secret for good.
NOTES = {
    "Caliban": "camo-canary behind the crates by the door",
    "Zondbot": "camo-canary on the gantry",
    "Antipersonnel Mine": "camo-canary in the corridor",
}
CROC_NOTE = "camo-canary in the ruins"


# --- giving orders through the forms -----------------------------------------------------------


def give(player: Player, other: Player, command: Mapping[str, Any]) -> str:
    """Give the command through the page (a button for an order with nothing to fill in,
    else its form); the answer shown. The other side's page has the news before this
    returns."""
    button = player.page.locator(f"button.command-button[data-command={command['type']}]")
    if button.count():
        answer = player.press(command["type"])
    else:
        form = player.form(command["type"])
        pages.fill(form, command)
        answer = player.submit(form)
    other.wait_seq(player.seq())
    return answer


def no_aro(player: Player, other: Player) -> str:
    """The reactive side declares no ARO: the form sent with no ARO in it."""
    return give(player, other, {"type": "aros", "aros": []})


# --- what each page shows ----------------------------------------------------------------------


def status(player: Player) -> str:
    return str(player.page.inner_text("#status"))


def log(player: Player) -> str:
    return str(player.page.inner_text("#log"))


def offered(player: Player) -> list[str]:
    """The orders the page offers now, as cards or buttons."""
    return list(
        player.page.locator("#commands [data-command]").evaluate_all(
            "l => l.filter(e => !e.closest('form')).map(e => e.dataset.command)"
        )
    )


def asked_for_aros(reactive: Player, active: Player, line: str, reactive_name: str) -> None:
    """The reactive side's page asks for its AROs (its move, the form); the active side's
    page says whom it waits for and offers nothing but the orders of any time."""
    for player in (reactive, active):
        assert status(player).startswith(line), status(player)
        assert player.view()["reaction"]["waiting_for"] == reactive.view()["you"]
    assert reactive.page.locator("#status .badge.go").is_visible()
    assert reactive.page.title().startswith("▶ ")  # seen from another tab too
    assert not active.page.title().startswith("▶ ")
    assert "aros" in offered(reactive)
    reactive.page.locator("details.command[data-command=aros]").wait_for()
    assert active.page.locator("#status .badge.go").count() == 0
    assert f"Waiting for {reactive_name}." in status(active)
    assert offered(active) == ["end_game"], offered(active)


def markers(player: Player) -> dict[str, int]:
    """What each of the side's own markers stands for, as its log told it: name -> number."""
    found = re.findall(r"Marker (\d+) stands for ([\w ]+)\.", log(player))
    return {name: int(number) for number, name in found}


def readable(player: Player) -> str:
    """Everything a player can read on the page now: the text, and each list's options
    and each field's value (tests/server/pages.py)."""
    return "\n".join(text for _, text in pages.OpenPage(player.context, player.page).visible_text())


def never_read(player: Player, *words: str) -> None:
    """None of the words is on the page for its player to read, nor anywhere in it or in
    anything it received."""
    text = readable(player)
    for word in words:
        assert word not in text, f"{word!r} is on the page"
    assert_never_seen(player, *words)


def shoot(players: Mapping[str, Player], moment: str, shots: Path = SHOTS) -> None:
    """Each page at a phone's size and a laptop's, whole, into ``shots``; and nothing on
    either a player should never read (a spec id, null, a raw id)."""
    shots.mkdir(parents=True, exist_ok=True)
    for side, player in players.items():
        before = player.page.viewport_size
        for size, viewport in pages.SIZES.items():
            player.page.set_viewport_size(viewport)
            opened = pages.OpenPage(player.context, player.page)
            opened.settle(quiet_ms=150, limit_ms=1500)
            opened.screenshot(shots / f"{moment}-{side}-{size}.png")
            assert pages.forbidden_text(opened.visible_text()) == [], (moment, side, size)
        player.page.set_viewport_size(before)


# --- the game ----------------------------------------------------------------------------------


def test_the_camouflage_example_played_through_both_pages(
    browser: Any, server: str, tmp_path: Path
) -> None:
    links = create_game(browser, server, "camouflage", "camouflage-table", clients=True)
    game = links[NOMADS].split("/play/")[1].split("#")[0]
    nomads = FairPlayer(browser, links[NOMADS], PHONE)
    pano = FairPlayer(browser, links[PANOCEANIA], DESKTOP)
    players = {NOMADS: nomads, PANOCEANIA: pano}
    try:
        for player in players.values():
            player.wait_seq(0)  # both pages gave their chains' anchors: the game is on

        # Deployment: the Nomads' form has a row for each camouflaged trooper and item.
        assert status(nomads).startswith("Deployment: each side lays out its Camouflaged")
        deploy = nomads.form("deploy")
        rows = deploy.locator('select[name^="markers."]')
        chosen = [rows.nth(i).evaluate("s => s.options[s.selectedIndex].text") for i in range(3)]
        assert chosen == ["Caliban", "Zondbot", "Antipersonnel Mine"]
        pages.fill(deploy, {"markers": [{"note": NOTES[name]} for name in chosen]})
        nomads.submit(deploy)
        pano.wait_seq(nomads.seq())
        numbers = markers(nomads)
        assert sorted(numbers.values()) == [1, 2, 3], numbers
        caliban, zondbot, mine = (numbers[n] for n in chosen)
        assert "Nomads lay out 3 Camouflaged Markers." in log(pano)
        assert "stands for" not in log(pano)
        assert "Waiting for PanOceania to lay out their markers." in status(nomads)
        pano.form("deploy")  # PanOceania opens its form: the shots show it
        shoot(players, "1-deployment")
        give(
            pano, nomads, {"type": "deploy", "markers": [{"piece": "Croc Man", "note": CROC_NOTE}]}
        )
        assert "Marker 4 stands for Croc Man." in log(pano)
        for player in players.values():
            assert "Player Turn 1: Nomads are the active player." in log(player)
        known = pano.page.inner_text("#known")
        for n in (1, 2, 3):
            assert f"Marker {n}" in known
        never_read(pano, "Caliban", "Zondbot", "Antipersonnel Mine", *NOTES.values())
        never_read(nomads, "Croc Man", CROC_NOTE)

        # The Order's form asks only what the skill chosen needs: a Move names no target and
        # has no attack; a BS Attack asks for both.
        card = nomads.form("first_skill")
        card.locator('select[name="skill.skill"]').select_option("move")
        assert not card.locator('select[name="skill.target"]').is_visible()
        assert not card.locator('input[name="skill.attack:on"]').is_visible()
        assert card.locator('select[name="skill.contact"]').is_visible()
        card.locator('select[name="skill.skill"]').select_option("bs_attack")
        assert card.locator('select[name="skill.target"]').is_visible()
        assert card.locator('input[name="skill.attack:on"]').is_visible()
        assert not card.locator('select[name="skill.contact"]').is_visible()

        # The Caliban's Order: Move, and PanOceania is asked for its AROs.
        give(
            nomads,
            pano,
            {
                "type": "first_skill",
                "piece": f"Caliban (Marker {caliban})",
                "skill": {"skill": "move"},
            },
        )
        asked_for_aros(pano, nomads, "PanOceania are declaring their AROs.", "PanOceania")
        for player in players.values():
            assert f"Nomads give an Order to Marker {caliban}." in log(player)
            assert f"Marker {caliban} declares Move as the first skill of its Order." in log(player)
        never_read(pano, "Caliban")
        aros = pano.form("aros")
        pano.page.locator('button.add[data-path="aros"]').click()  # as a player opens one
        shoot(players, "2-asked-for-aros")
        pages.fill(aros, {"aros": [{"piece": "Fusilier", "aro": "delay"}]})
        pano.submit(aros)
        nomads.wait_seq(pano.seq())
        for player in players.values():
            assert "Fusilier delays its ARO." in log(player)
        # The side awaited is told what to do; the other, whom it waits for.
        assert "Declare the second skill of the Order." in status(nomads)
        assert "Waiting for Nomads to declare the second skill." in status(pano)
        assert offered(nomads) == ["second_skill", "end_game"], offered(nomads)
        never_read(pano, "Caliban")

        # The second skill, a BS Attack, reveals the Caliban: PanOceania is asked again.
        second = {
            "skill": "BS Attack",
            "target": "Fusilier",
            "measured": {"range": 6, "cover": "none"},
            "attack": SHOTGUN,
        }
        give(nomads, pano, {"type": "second_skill", "skill": second})
        revealed = (
            f"Marker {caliban} is Caliban, revealed because it declared an Attack: the model "
            "replaces the marker."
        )
        for player in players.values():
            assert f"Marker {caliban} declares BS Attack at Fusilier as the second skill" in log(
                player
            )
            assert revealed in log(player)
        asked_for_aros(
            pano, nomads, "PanOceania are declaring their AROs to the second skill.", "PanOceania"
        )
        known = pano.page.inner_text("#known")
        assert "Caliban" in known
        assert f"Marker {caliban}" not in known
        aro = {"piece": "Fusilier", "aro": "bs_attack", "measured": {"range": 10, "cover": "none"}}
        pages.fill(pano.form("aros"), {"aros": [{**aro, "attack": COMBI}]})
        shoot(players, "3-after-the-reveal")
        pano.submit(pano.form("aros"))
        nomads.wait_seq(pano.seq())
        for player in players.values():
            assert "Fusilier declares BS Attack as its ARO." in log(player)
        assert "Every skill and ARO is declared: roll the Order." in status(nomads)
        assert "Waiting for Nomads to roll the Order." in status(pano)

        # The Face to Face Roll: the Nomads type in the Caliban's two dice, rolled at the
        # table; the Fusilier's is PanOceania's, and ghillie rolls it from every party's
        # chain. The Caliban's 17 is a Critical and its 16 beats any success of the
        # Fusilier's but his Critical (a 12), which cancels both: the Fusilier never hits,
        # and the Caliban hits but for a 12.
        give(nomads, pano, {"type": "resolve_order", "rolls": {"dice": [17, 16]}})
        face_to_face = re.compile(
            r'Face to Face Roll: Caliban rolls 17, 16 needing 17 or less \(range 6"\), '
            r'Fusilier rolls (\d+) needing 12 or less \(range 10"\)\.'
        )
        for player in players.values():
            text = log(player)
            assert face_to_face.search(text), text
            assert "Nomads typed in 2 dice rolled at the table: 17, 16." in text
            assert "Fusilier does not hit Caliban." in text
        if "Caliban hits Fusilier" in log(pano):
            assert "Make your saving rolls." in status(pano)
            assert "Waiting for the saving rolls of PanOceania." in status(nomads)
            assert "saving_rolls" in offered(pano)
            give(pano, nomads, {"type": "saving_rolls"})
            save = re.search(
                r"Fusilier makes 3 saving rolls needing 7 or less: [\d, ]+; (\d) failed\.",
                log(nomads),
            )
            assert save, log(nomads)
            down = "Fusilier is out of the game."
            assert (down in log(pano)) is (int(save.group(1)) > 0), log(pano)
            assert save.group(0) in log(pano)
        else:  # the Fusilier's 12
            assert "Caliban does not hit Fusilier." in log(pano)

        # Player Turn 2: the Lieutenant fails to Discover the Zondbot's marker...
        give(nomads, pano, {"type": "end_turn"})
        for player in players.values():
            assert "Player Turn 2: PanOceania are the active player." in log(player)
        discover = {"skill": "Discover", "target": f"Marker {zondbot}"}
        lieutenant = {
            "type": "first_skill",
            "piece": "Fusilier Lieutenant",
            "skill": {**discover, "measured": {"range": 14, "cover": "soft"}},
        }
        # While the Discover is being declared its page shows the exact odds: WIP 13, 8-16"
        # +0, soft cover -3: 10 or less on a d20.
        card = pano.form("first_skill")
        pages.fill(card, lieutenant)
        odds = card.locator(".odds")
        odds.filter(has_text="Discovered").wait_for()
        assert "50" in odds.inner_text(), odds.inner_text()
        give(pano, nomads, lieutenant)
        asked_for_aros(nomads, pano, "Nomads are declaring their AROs.", "Nomads")
        no_aro(nomads, pano)
        assert "Nomads declare no ARO." in log(pano)
        give(pano, nomads, {"type": "second_skill", "skill": {"skill": "Idle"}})
        asked_for_aros(
            nomads, pano, "Nomads are declaring their AROs to the second skill.", "Nomads"
        )
        no_aro(nomads, pano)
        give(pano, nomads, {"type": "resolve_order", "rolls": {"dice": [17]}})
        failed = (
            f"Fusilier Lieutenant fails to Discover Marker {zondbot} (rolled 17 needing 10 or "
            "less): it cannot try that marker again until the next Player Turn."
        )
        for player in players.values():
            assert failed in log(player)

        # ... and tries again at once: refused, the reason beside the field it concerns.
        retry = pano.form("first_skill")
        pages.fill(retry, {**lieutenant, "skill": {**discover, "measured": {"range": 14}}})
        reason = pano.refused(retry)
        assert reason == (
            "This trooper failed to Discover that marker: it cannot try that marker again "
            "until the next Player Turn."
        )
        beside = retry.locator('[data-path="skill.target"] .field-error')
        assert beside.inner_text() == reason
        assert beside.is_visible()
        assert nomads.seq() == pano.seq()
        shoot({PANOCEANIA: pano}, "4-refused")
        never_read(pano, "Zondbot")

        # The Seraph may: the same form, another trooper (the reason goes once it changes).
        seraph = {"piece": "Seraph", "skill": {**discover, "measured": {"range": 20}}}
        pages.fill(retry, seraph)
        assert retry.locator(".field-error").count() == 0
        pano.submit(retry)
        nomads.wait_seq(pano.seq())
        asked_for_aros(nomads, pano, "Nomads are declaring their AROs.", "Nomads")
        no_aro(nomads, pano)
        give(pano, nomads, {"type": "second_skill", "skill": {"skill": "Idle"}})
        asked_for_aros(
            nomads, pano, "Nomads are declaring their AROs to the second skill.", "Nomads"
        )
        no_aro(nomads, pano)
        give(pano, nomads, {"type": "resolve_order", "rolls": {"dice": [4]}})
        for player in players.values():
            text = log(player)
            assert f"Seraph Discovers Marker {zondbot} (rolled 4 needing 13 or less)." in text
            assert (
                f"Marker {zondbot} is Zondbot, revealed because it was Discovered: the model "
                "replaces the marker."
            ) in text
        assert "Zondbot" in pano.page.inner_text("#known")
        never_read(pano, "Antipersonnel Mine", *NOTES.values())

        # Player Turn 3: the Caliban goes back into Camouflaged State, under a new marker.
        give(pano, nomads, {"type": "end_turn"})
        assert "Player Turn 3: Nomads are the active player." in log(pano)
        camouflage = {"skill": "camouflage", "unseen": True}
        give(nomads, pano, {"type": "first_skill", "piece": "Caliban", "skill": camouflage})
        asked_for_aros(pano, nomads, "PanOceania are declaring their AROs.", "PanOceania")
        assert (
            "Caliban declares Camouflage (a Long Skill to go back into the state) as the first "
            "skill of its Order."
        ) in log(pano)
        no_aro(pano, nomads)
        assert "PanOceania declare no ARO." in log(nomads)
        give(nomads, pano, {"type": "resolve_order"})
        for player in players.values():
            assert "Caliban goes back into Camouflaged State: Marker 5 replaces the model." in log(
                player
            )
        assert "Marker 5" in pano.page.inner_text("#known")
        trooper = nomads.form("first_skill").locator('select[name="piece"] option')
        assert "Caliban (Marker 5)" in trooper.all_inner_texts()
        never_read(pano, "Antipersonnel Mine", *NOTES.values())
        never_read(nomads, "Croc Man", CROC_NOTE)

        # The end: every marker's contents are shown, and nobody's notes.
        give(nomads, pano, {"type": "end_game"})
        for player in players.values():
            player.page.wait_for_function("() => window.ghillie.view.phase === 'over'")
            text = log(player)
            assert f"Marker {mine} stood for Antipersonnel Mine." in text
            assert "Marker 4 stood for Croc Man." in text
            assert "Marker 5 stood for Caliban." in text
            assert "The game is over." in text
            assert player.page.locator("#alarms .alarm").count() == 0
            assert player.errors == []
        assert "Antipersonnel Mine" in readable(pano)
        assert "Croc Man" in readable(nomads)
        never_read(pano, *NOTES.values())
        never_read(nomads, CROC_NOTE)

        # Each page downloads the game's record, with its receipts: `ghillie audit` takes it.
        records = {}
        for side, player in players.items():
            with player.page.expect_download() as download:
                player.page.locator("#fair button.record-button").click()
            path = tmp_path / f"{side}-{download.value.suggested_filename}"
            download.value.save_as(path)
            records[side] = path
            record = json.loads(path.read_text(encoding="utf-8"))
            assert record["receipts"][side] == receipts(player, game, side)
            report = audit(record)
            assert report.ok, (side, report.findings)
            assert report.held == []
            # A signed head and the host's signed request of every event (protocol 4: the
            # head's one signature covers what each side was shown).
            assert report.receipts == 2 * report.events
        # The CLI, as a player runs it: one side's record, the other's as its receipts.
        cli = [sys.executable, "-m", "ghillie.cli", "audit", "--json"]
        checked = subprocess.run(
            [*cli, str(records[NOMADS]), "--receipts", str(records[PANOCEANIA])],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr
        report = json.loads(checked.stdout)
        assert report["ok"] is True
        assert report["ruleset"] == "camouflage"
        # Both pages: a head and a request an event each.
        assert report["receipts"] == 4 * report["events"]
        assert report["rolls"] > 0
    finally:
        for player in players.values():
            player.close()


# --- typed dice: asked for only in a game that takes them (issue 24, finding 5) ----------------


def _post(base: str, url: str, command: Mapping[str, Any]) -> None:
    """Give a command over HTTP with the link ``url``'s token."""
    game = url.split("/play/", 1)[1].split("#", 1)[0]
    token = url.split("#", 1)[1]
    request = urllib.request.Request(
        f"{base}/api/games/{game}/commands",
        data=json.dumps({"command_id": str(uuid.uuid4()), "command": command}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200


def _to_the_roll(base: str, links: Mapping[str, str], deploy: Mapping[str, Any]) -> None:
    """Both sides deploy, and the Caliban's Order (a Move, then Idle; no ARO) is ready to be
    rolled: the Nomads are offered resolve_order."""
    _post(base, links[NOMADS], {"type": "deploy", **deploy[NOMADS]})
    _post(base, links[PANOCEANIA], {"type": "deploy", **deploy[PANOCEANIA]})
    move: dict[str, Any] = {"skill": "move"}
    if "at" in deploy[NOMADS]["markers"][0]:
        move["to"] = [22, 12]
    _post(base, links[NOMADS], {"type": "first_skill", "piece": "caliban", "skill": move})
    _post(base, links[PANOCEANIA], {"type": "aros", "aros": []})
    _post(base, links[NOMADS], {"type": "second_skill", "skill": {"skill": "idle"}})
    _post(base, links[PANOCEANIA], {"type": "aros", "aros": []})


def test_a_map_game_asks_for_no_typed_dice_and_a_table_game_does(browser: Any, server: str) -> None:
    on_map = {
        NOMADS: {
            "markers": [
                {"piece": "caliban", "at": [22, 10]},
                {"piece": "zondbot", "at": [34, 20]},
                {"piece": "mine", "at": [20, 30]},
            ]
        },
        PANOCEANIA: {"markers": [{"piece": "croc_man", "at": [12, 34]}]},
    }
    at_table = {
        NOMADS: {"markers": [{"piece": k} for k in ("caliban", "zondbot", "mine")]},
        PANOCEANIA: {"markers": [{"piece": "croc_man"}]},
    }
    for scenario, deploy, asked in (
        ("camouflage", on_map, False),
        ("camouflage-table", at_table, True),
    ):
        links = create_game(browser, server, "camouflage", scenario)
        _to_the_roll(server, links, deploy)
        nomads = Player(browser, links[NOMADS], DESKTOP)
        try:
            nomads.page.locator('[data-command="resolve_order"]').first.wait_for()
            if asked:
                form = nomads.form("resolve_order")
                assert form.locator('input[name="rolls:on"]').count() == 1
                assert "Dice rolled at the table" in form.inner_text()
            else:
                # Nothing to fill in: a button, and no word of dice rolled at the table.
                button = nomads.page.locator("button.command-button[data-command=resolve_order]")
                assert button.count() == 1
                assert "Dice rolled at the table" not in nomads.page.inner_text("#orders-box")
                nomads.press("resolve_order")  # taken: ghillie rolls what there is
                assert "resolve_order" not in [c["type"] for c in nomads.view()["commands"]]
            assert nomads.errors == []
        finally:
            nomads.close()
