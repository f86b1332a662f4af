// Phones at a table lock themselves. A roll then waits for the sleeping side's element, and
// the game with it. This module makes that humane, within the waiting rule (fairness.md, "A
// page that is away"):
// - whom to wake, and for how long the game still waits for them (the host's `until`, past
//   which the roll goes on without their dice; a game that waits for ever says so);
// - a page that wakes (visible again, back from the back/forward cache, online, focused)
//   connects again at once, so fairplay.js gives its element for the roll that awaits it,
//   and tells its player in one line what happened while it slept;
// - while its side is awaited, a page keeps the screen awake (Screen Wake Lock, where the
//   browser has it) and, should its connection drop, tries again every second instead of
//   backing off (socket.js asks `urgent`).

import { h } from "./dom.js";
import { HostClock } from "./panels.js";
import { sideName } from "./pieces.js";
import { t } from "./i18n.js";

// A roll usually gathers every element within a blink: only one that has waited this long
// is worth naming whom to wake (as fairplay.js's "Roll k is waiting for").
const SLOW_MS = 2000;
// Hidden this long, a page does not trust its old socket (a phone's may be long dead with the
// browser still calling it open): it connects afresh instead of pinging and waiting.
const LONG_SLEEP_MS = 3000;
// After the first view a woken page gets, the events that come this soon still count as what
// happened while it slept: the order that waited for its dice goes through just then.
const SETTLE_MS = 3000;

const clock = new HostClock(); // the host's `until` on this page's clock
const since = new Map(); // roll k → when this page first saw it asked for (its clock)

/** Is the game waiting for this side now: for its page's dice, its answer in a reaction
 * window, or its order? */
export function awaited(view, me) {
  if (!view || !me || view.phase === "over") return false;
  const fairness = view.fairness || {};
  if (fairness.request && (fairness.waiting || []).includes(me)) return true;
  if (view.reaction && view.reaction.waiting_for === me) return true;
  return view.you === me && Boolean(view.your_move);
}

/** Must this page come back at once after a lost connection? While its side is awaited,
 * and, in a game whose pages hold their own dice chains, all through play: every order of
 * either side waits for this page's dice, the host's own included (a window extended after
 * the server was down waits for every page before it is ruled). */
export function urgent(view, me) {
  if (awaited(view, me)) return true;
  const chains = (view && view.fairness && view.fairness.chains) || {};
  return Boolean(me) && view.phase !== "over" && chains[me] === "client";
}

/** The sides (not the host) whose page a roll has waited for long enough to say so. */
function slowSides(view) {
  const fairness = view.fairness || {};
  const request = fairness.request;
  if (!request || typeof request !== "object" || view.phase === "over") return [];
  const ids = new Set((view.sides || []).map((s) => s && s.id));
  const sides = (fairness.waiting || []).filter((party) => ids.has(party));
  if (!sides.length) return [];
  if (!since.has(request.k)) since.set(request.k, Date.now());
  return sides;
}

/** "Whom to wake" while a roll waits for other sides' pages, with the time the game still
 * waits for them (counted down by the page); null when no roll waits for another page.
 * `me`: this page's side (its own page is not one to wake: it is awake). */
export function wakeNote(view, me = null) {
  if (typeof (view.fairness || {}).now === "string") clock.take(view.fairness.now);
  const sides = slowSides(view).filter((side) => side !== me);
  if (!sides.length) return null;
  const fairness = view.fairness;
  const until = Date.parse(fairness.until);
  const node = h("p", {
    class: "wake-note",
    dataset: {
      k: String(fairness.request.k),
      sides: sides.map((side) => sideName(view, side)).join(t(", ")),
      many: sides.length > 1 ? "1" : "",
      until: Number.isFinite(until) ? String(clock.toPage(until) ?? until) : "",
    },
  });
  tick(node);
  return node;
}

/** Time left, in words a table reads: seconds under two minutes, else minutes. */
function left(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return seconds < 120 ? t("{n} s", { n: seconds }) : t("{n} min", { n: Math.ceil(seconds / 60) });
}

function tick(node) {
  const k = Number(node.dataset.k);
  const shown = Date.now() - (since.get(k) ?? Date.now()) >= SLOW_MS;
  node.hidden = !shown;
  if (!shown) return;
  const sides = node.dataset.sides;
  const many = Boolean(node.dataset.many);
  if (!node.dataset.until) {
    // The game was made to wait for ever (wait_for_pages "always"): no time to count.
    node.textContent = many
      ? t("Whom to wake: {sides}. The game waits for their pages until they give their dice.", { sides })
      : t("Whom to wake: {sides}. The game waits for their page until it gives its dice.", { sides });
    return;
  }
  const ms = Number(node.dataset.until) - Date.now();
  node.textContent = ms > 0
    ? (many
        ? t("Whom to wake: {sides}. The game waits {time} more for their pages, then rolls without their dice.", { sides, time: left(ms) })
        : t("Whom to wake: {sides}. The game waits {time} more for their page, then rolls without its dice.", { sides, time: left(ms) }))
    : t("The game is rolling without the dice of {sides}.", { sides });
}

if (typeof document !== "undefined") {
  setInterval(() => document.querySelectorAll("p.wake-note").forEach(tick), 500);
}

/** The screen kept on while this side is awaited (Screen Wake Lock), let go otherwise. The
 * browser lets go by itself when the page is hidden; it is asked again when it is shown. */
export class ScreenAwake {
  constructor() {
    this.wanted = false;
    this.lock = null; // the WakeLockSentinel held
    this.asking = false;
    document.addEventListener("visibilitychange", () => this.apply());
  }

  /** `on`: the side is awaited. */
  want(on) {
    this.wanted = Boolean(on);
    this.apply();
  }

  get held() {
    return this.lock !== null;
  }

  apply() {
    const can = typeof navigator !== "undefined" && navigator.wakeLock && typeof navigator.wakeLock.request === "function";
    if (!can) return;
    if (!this.wanted || document.visibilityState !== "visible") {
      if (this.lock && this.wanted === false) {
        const lock = this.lock;
        this.lock = null;
        lock.release().catch(() => {});
      }
      return;
    }
    if (this.lock || this.asking) return;
    this.asking = true;
    navigator.wakeLock.request("screen").then(
      (lock) => {
        this.asking = false;
        if (!this.wanted) {
          lock.release().catch(() => {});
          return;
        }
        this.lock = lock;
        // Let go by the browser (the page was hidden): asked again once it is shown.
        lock.addEventListener("release", () => {
          if (this.lock === lock) this.lock = null;
        });
      },
      () => {
        this.asking = false; // refused (battery saver, no user gesture yet): the page goes on
      },
    );
  }
}

/** A page's sleep and waking: what it had seen when it went to sleep, a fresh connection at
 * once when it wakes, and the one line of what happened meanwhile. */
export class Waker {
  /**
   * @param {import("./socket.js").Live} live the page's connection
   * @param {{changed: () => void}} hooks changed: the news line changed, draw it again
   */
  constructor(live, hooks) {
    this.live = live;
    this.hooks = hooks;
    this.asleep = null; // {mark: last seq seen, at: when} while the page sleeps
    this.woken = null; // {mark, at, viewAt, cap} after it woke, until the line is dismissed
  }

  start() {
    const sleep = () => this.sleep();
    const wake = () => this.wake();
    document.addEventListener("visibilitychange", () => (document.visibilityState === "visible" ? wake() : sleep()));
    window.addEventListener("pagehide", sleep);
    window.addEventListener("freeze", sleep);
    window.addEventListener("offline", sleep);
    window.addEventListener("pageshow", (event) => event.persisted && wake());
    window.addEventListener("resume", wake);
    window.addEventListener("online", wake);
    // Focus alone is no sleep; it still proves the connection (a phone unlocked onto it).
    window.addEventListener("focus", () => (this.asleep ? wake() : this.live.check()));
  }

  sleep() {
    if (this.asleep) return;
    this.asleep = { mark: this.live.lastSeq, at: Date.now() };
  }

  wake() {
    const asleep = this.asleep;
    if (!asleep || document.visibilityState !== "visible" || navigator.onLine === false) {
      this.live.check();
      return;
    }
    this.asleep = null;
    this.woken = { mark: asleep.mark, at: Date.now(), viewAt: null, cap: null };
    const live = this.live;
    if (live.answering && live.heard < asleep.at && Date.now() - asleep.at >= LONG_SLEEP_MS) {
      // Not heard from since it slept, the socket may be dead without the browser knowing:
      // a new one at once, not a ping given up only after a heartbeat's wait. (One made
      // while it slept, the network back first, is left to bring its view.)
      live.lose("heartbeat");
    } else {
      live.check();
    }
  }

  /** A view came: after waking, the events of the next moments still count (SETTLE_MS). */
  seen() {
    const woken = this.woken;
    if (!woken || woken.cap !== null) return;
    if (woken.viewAt === null) {
      woken.viewAt = Date.now();
      setTimeout(() => {
        if (this.woken === woken) {
          woken.cap = this.live.lastSeq;
          this.hooks.changed();
        }
      }, SETTLE_MS);
    }
  }

  /** The events this page had not seen when it went to sleep: [{seq, text}], oldest first. */
  missed(view) {
    const woken = this.woken;
    if (!woken || !view) return [];
    const cap = woken.cap ?? Infinity;
    const out = [];
    for (const entry of view.log || []) {
      if (entry.seq <= woken.mark || entry.seq > cap) continue;
      const said = (entry.said || []).map((line) => line && line.text).filter(Boolean);
      if (said.length) out.push({ seq: entry.seq, text: said[said.length - 1] });
    }
    return out;
  }

  /** The one line of what happened while the page slept, with a button to put it away;
   * null when nothing did (or it was put away). */
  news(view) {
    const missed = this.missed(view);
    if (!missed.length) return null;
    const latest = missed[missed.length - 1].text;
    const text = missed.length === 1
      ? t("While you were away: {line}", { line: latest })
      : t("While you were away, {count} things happened. The latest: {line}", { count: missed.length, line: latest });
    const ok = h("button", { type: "button", class: "wake-ok" }, t("OK"));
    ok.addEventListener("click", () => {
      this.woken = null;
      this.hooks.changed();
    });
    return h("p", { class: "wake-news", role: "status" }, h("span", {}, text), " ", ok);
  }
}
