// A side's order on its way to the server: given on the page, sent over the websocket
// (socket.js), answered there. One order at a time: while one is on its way — not sent yet
// because the phone is offline, or sent and waiting for its answer (perhaps for another
// side's dice) — the page gives no other, for a second order behind an unsent one would run
// in an order the player cannot see, and the server refuses any order while a roll waits.
//
// Each order gets its command id once, when it is given, and keeps it: sent again after a
// connection dropped with no answer (the server may or may not have it), it is answered
// with the first answer and never applied twice. It is sent once on each connection that
// carries the game, never twice on one.
//
// The order is kept in sessionStorage, not only in memory: a reload — the first thing a
// player tries on a page that seems stuck — must not lose it, nor must a phone that drops a
// background tab and restores it. Not in localStorage: that outlives the tab, so an order
// given one evening would go out by itself whenever the link was opened again, into a game
// that had moved on; it is shared by every tab of the browser, so two tabs of one side
// would both hold it; and it stays on the device, with whatever secret the order holds (an
// ambush square, a note), after the tab is closed. Closing the tab gives the order up.
//
// There is no HTTP fallback: a page whose socket never opens has no view to give orders from.
//
// Every time it goes out, the order is signed by this device's seat key (fairplay.js) for
// the next roll as this page knows the game: the host can carry it out at that roll only,
// never later and never in another order's place. If the game moved on before it arrived,
// the server refuses it as stale; it is signed again, for the roll after the events the page
// has now seen, and sent again (once the page has seen them: the order then stands on the
// game as the player can see it).

import { newId } from "./api.js";

const key = (game) => `ghillie:outbox:${game}`;
const RETRY_MS = 2000; // before sending again an order the server could not save
const RETRIES = 5;

export class Outbox {
  /**
   * @param {string} game the game id
   * @param {import("./socket.js").Live} live the connection
   * @param {{changed: () => void, sign: (id: string, command: object) => ({k: number, sig: string}|null),
   *   next: () => number}} hooks
   *   changed: the order's state or outcome changed; sign: the seat key's signature for
   *   the next roll (null: this page holds no key); next: the next roll as this page knows it
   */
  constructor(game, live, hooks) {
    this.game = game;
    this.live = live;
    this.hooks = hooks;
    this.you = null; // the observer this page plays, once a view says
    // The order on its way: {id, command, you, given, sentOn, unclear, tries}. sentOn:
    // the connection (live.connections) it went out on last, 0 for none of this page's;
    // unclear: it went out once, so the server may have it.
    this.entry = this.read();
    // The latest order's outcome, for the page to show: {command, answer} or {command,
    // problem}. Kept here, so a page that draws its orders later still shows it.
    this.outcome = null;
  }

  get busy() {
    return this.entry !== null;
  }

  /** Sent on the connection there is now, which still carries the game; no answer yet. */
  get sent() {
    return this.entry !== null && this.entry.sentOn === this.live.connections && this.live.live;
  }

  /** Every view: who this page plays. An order kept for another side is not ours. */
  seen(view) {
    this.you = view.you;
    if (this.entry && this.entry.you !== view.you) this.set(null);
    this.resign();
  }

  /** Give an order; false if one is on its way already. */
  give(command) {
    if (this.entry || !this.you) return false;
    this.outcome = null;
    this.set({ id: newId(), command, you: this.you, given: Date.now(), sentOn: 0, unclear: false, tries: 0 });
    this.flush();
    this.hooks.changed();
    return true;
  }

  /** Refused as signed for a roll the game had gone past: signed again and sent once this
   * page has the events that moved it on (at once if it has them already). */
  resign() {
    const entry = this.entry;
    if (!entry || !entry.stale || !this.hooks.next) return;
    if (entry.k === null || entry.k === undefined || this.hooks.next() > entry.k) this.flush();
  }

  /** Send the order on the connection, if it has not gone out on this one yet. Called when
   * an order is given and whenever a new connection has brought its view. */
  flush() {
    const entry = this.entry;
    if (!entry || !this.you || !this.live.live) return;
    if (entry.sentOn === this.live.connections) return; // once per connection
    const signed = this.hooks.sign ? this.hooks.sign(entry.id, entry.command) : null;
    if (this.live.send({ type: "command", command_id: entry.id, command: entry.command, ...(signed || {}) })) {
      this.set({ ...entry, sentOn: this.live.connections, unclear: true, stale: false, k: signed ? signed.k : null });
      this.hooks.changed();
    }
  }

  /** An answer from the server, to our order or to another (a script's): ours ends it. */
  answered(message) {
    const entry = this.entry;
    if (!entry || message.command_id !== entry.id) return;
    const problem = message.problem;
    if (problem && (problem.status === 503 || problem.code === "unavailable") && entry.tries < RETRIES) {
      // The server could not save it (or the game moved on under it): the same id again,
      // in a moment, on whatever connection there is then.
      this.set({ ...entry, sentOn: 0, tries: entry.tries + 1 });
      setTimeout(() => this.flush(), RETRY_MS);
      this.hooks.changed();
      return;
    }
    if (problem && problem.code === "stale_order" && entry.tries < RETRIES) {
      // The game moved on while it was on its way: sent again, signed for the next roll,
      // with the next view (which brings the events it missed).
      this.set({ ...entry, sentOn: 0, tries: entry.tries + 1, stale: true });
      this.resign();
      this.hooks.changed();
      return;
    }
    if (problem && this.hooks.refused) this.hooks.refused(entry.id, problem);
    this.set(null);
    this.outcome = problem ? { command: entry.command, problem } : { command: entry.command, answer: message.answer || {} };
    this.hooks.changed();
  }

  set(entry) {
    this.entry = entry;
    try {
      if (entry) sessionStorage.setItem(key(this.game), JSON.stringify(entry));
      else sessionStorage.removeItem(key(this.game));
    } catch {
      // No storage (some private modes): the order lives as long as the page.
    }
  }

  read() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(key(this.game)) || "null");
      if (kept && typeof kept.id === "string" && kept.command && typeof kept.command.type === "string") {
        // Whatever the last page did with it, this page has sent it on no connection yet.
        return { ...kept, sentOn: 0, tries: 0, unclear: Boolean(kept.unclear) };
      }
    } catch {
      // Unreadable: nothing kept.
    }
    return null;
  }
}
