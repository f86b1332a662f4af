"""Fan-out: who watches each live game, and what each watcher is pushed when the game moves.

A watcher is one connection watching one game as one observer, in one language. It starts
from a whole view; after each event it is pushed only what differs from the view it holds
(``LiveGame.shown``): the new log entries and the other parts of the view that changed. Each
update is built once per (observer, language), however many connections share it.

Pushes go through a small queue per connection: a slow or vanished client loses its
connection (and resynchronises when it comes back) instead of holding anyone up.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from ghillie.server.deadlines import Deadlines
from ghillie.server.live import LiveGame, Watcher, spoken_answer, status, with_status
from ghillie.server.waits import Waits
from ghillie.view import project, project_update


class FanOut:
    def __init__(self, deadlines: Deadlines, waits: Waits) -> None:
        """``deadlines`` and ``waits`` follow every game as it moves (a window's timer, and
        how long its pending roll waits for the pages)."""
        self.deadlines = deadlines
        self.waits = waits

    def follow(self, game: LiveGame) -> None:
        """Time what the game waits for now: its reaction window, its pending roll."""
        self.deadlines.follow(game.game_id, game.state.window)
        pending = game.pending
        self.waits.follow(
            game.game_id,
            pending.request.k if pending is not None else None,
            pending.asked if pending is not None else None,
            game.header["fair"].get("wait"),
        )

    def watch(self, game: LiveGame, observer: str, lang: str = "en") -> Watcher:
        watcher = Watcher(observer, lang)
        game.watchers.add(watcher)
        return watcher

    def unwatch(self, game: LiveGame, watcher: Watcher) -> None:
        game.watchers.discard(watcher)
        self._forget_shown(game, watcher)

    def _forget_shown(self, game: LiveGame, watcher: Watcher) -> None:
        """The last watcher of an (observer, language) has gone: what it was shown is no
        longer needed (a new one starts from a whole view), and would stay in memory
        (30 to 90 KB a game) as long as the game does."""
        reader = (watcher.observer, watcher.lang)
        if not any((w.observer, w.lang) == reader for w in game.watchers):
            game.shown.pop(reader, None)
            game.spoken.pop(reader, None)

    async def watch_view(self, game: LiveGame, watcher: Watcher, after: int = -1) -> dict[str, Any]:
        """The whole view a new or resynchronising watcher starts from (log after ``after``)."""
        async with game.lock:
            events = await game.events.after(after)
            view = with_status(game, project(game.state, events, watcher.observer, watcher.lang))
            game.shown[watcher.observer, watcher.lang] = {
                k: v for k, v in view.items() if k != "log"
            }
            return view

    def publish(
        self,
        game: LiveGame,
        before: int,
        origin: Watcher | None = None,
        answer: dict[str, Any] | None = None,
    ) -> None:
        """The game moved on from event ``before``: push each watcher what changed for its
        observer, the new log entries and the other parts of the view that differ from what
        it holds. With ``origin`` and ``answer``, the command's answer rides in the update
        its own connection is sent (one frame instead of two)."""
        if game.state.seq == before:
            return
        self.follow(game)
        if before + 1 < game.events.first_held:
            # More events came at once than are held (another process ruled many while this
            # one looked away): each watcher starts again from a whole view.
            self.drop_all(game)
            return
        new = game.events.since(before)
        fairness = status(game)
        updates: dict[tuple[str, str], dict[str, Any]] = {}
        for watcher in list(game.watchers):
            reader = (watcher.observer, watcher.lang)
            if reader not in updates:
                held = game.shown.get(reader, {})
                changed, now = project_update(
                    game.state, new, reader[0], held, reader[1], game.spoken.setdefault(reader, {})
                )
                now["fairness"] = fairness
                if held.get("fairness") != fairness:
                    changed["fairness"] = fairness
                game.shown[reader] = now
                updates[reader] = {"type": "update", "view": changed}
            message = updates[reader]
            if watcher is origin and answer is not None:
                said = spoken_answer(answer, game.scenario, watcher.lang, message["view"]["log"])
                message = {**message, "answer": said}
                origin.answered.add(answer["command_id"])
            # Too far behind: dropped; the client reconnects and gets the whole view.
            self.send(game, watcher, message)

    def push_status(self, game: LiveGame) -> None:
        """Tell every watcher that the roll protocol moved (a request, an element in)."""
        self.follow(game)
        fairness = status(game)
        for watcher in list(game.watchers):
            shown = game.shown.setdefault((watcher.observer, watcher.lang), {})
            shown["fairness"] = fairness
            self.send(game, watcher, {"type": "update", "view": {"fairness": fairness, "log": []}})

    def send(self, game: LiveGame, watcher: Watcher, message: dict[str, Any]) -> None:
        """Queue a message for one watcher; one too far behind is dropped (it resyncs)."""
        try:
            watcher.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.let_go(game, watcher)

    def let_go(self, game: LiveGame, watcher: Watcher) -> None:
        """Stop sending to a watcher: its socket closes once it has what was queued."""
        watcher.dropped = True
        game.watchers.discard(watcher)
        self._forget_shown(game, watcher)
        with contextlib.suppress(asyncio.QueueFull):
            watcher.queue.put_nowait(None)
            return
        watcher.queue.get_nowait()
        watcher.queue.put_nowait(None)

    def drop_all(self, game: LiveGame) -> None:
        """Let every watcher of a game go at once (its copy here is no longer trusted): each
        reconnects and starts again from a whole view."""
        for watcher in list(game.watchers):
            watcher.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                watcher.queue.put_nowait(None)
        game.watchers.clear()
        game.shown.clear()
        game.spoken.clear()
