// The host's time held to account on a side's page (docs/fairness.md, "Time held to
// account"): a timed window kept with the time the host said was left, an answer the host
// took after a window's end, an order refused as late though sent in time. Methods of
// FairPlay (fairplay.js).

import { t } from "./i18n.js";
import { sideName } from "./pieces.js";
import { ORDERS_KEPT, audit, isCount } from "./fairreceipts.js";

// What the network and the host's own work may take of a timed window before a page calls it
// cut short (its alarm), or an answer refused as late one sent in time.
const ALLOWANCE_MS = 3000;

export const timing = {
  /** What this view says of time: at the host's time `hostNow`, the roll after its last event
   * had not begun (or, while it is asked for, the one after). A window's event is no earlier
   * than that (keepWindow). */
  keepBegun(view, hostNow) {
    if (hostNow === null || !Number.isSafeInteger(view.seq) || view.seq < -1) return;
    const request = (view.fairness || {}).request;
    const next = view.seq + 1;
    const begun = request && typeof request === "object" && request.k === next ? next + 1 : next;
    this.notBegun.set(begun, Math.max(this.notBegun.get(begun) ?? -Infinity, hostNow));
  },

  /** The host's latest time at which, by its own word, roll `k` had not begun; null if none. */
  notBegunAt(k) {
    let latest = null;
    for (const [begun, at] of this.notBegun) if (begun <= k && (latest === null || at > latest)) latest = at;
    return latest;
  },

  /** The answer of the side a timed window waits for is asked for (its roll's request): the
   * host must have had it before the window's end. The host dates it (the record's time is
   * its own), so this page holds it to when the request reached it: the host's time in that
   * view, or this page's clock reckoned against the host's. Only when it first reaches the
   * page, and on a connection it had: a request shown again later, or to a page coming back
   * (its roll may have waited for it), was made earlier than it is seen. */
  checkAnswerTime(view, hostNow, whole) {
    const request = (view.fairness || {}).request;
    const timed = this.timed;
    if (!request || typeof request !== "object" || !isCount(request.k) || request.k === this.requestSeen) return;
    this.requestSeen = request.k;
    if (whole || !timed || request.k !== timed.seq + 1) return;
    if (request.side !== timed.waitingFor || request.side === this.me || !this.sides.includes(request.side)) return;
    const at = hostNow ?? this.clock.hostNow();
    if (at === null || at - timed.ends <= ALLOWANCE_MS) return;
    const seconds = Math.round((at - timed.ends) / 1000);
    this.alarm(`late-answer-${request.k}`, t("The host took the answer of {side} {seconds} s after its time to answer ran out (the question of log entry {seq}) — {audit}.", { side: sideName(view, request.side), seconds, seq: timed.opened, audit: audit() }));
  },

  /** A timed reaction window, the first time this page sees it: kept beside the receipts
   * with how long the host said was left (its `now` against the window's end) and when the
   * host said so, on this page's clock (reckoned from the least delayed view: HostClock, so a
   * view taken in late does not count time the host never gave). One that asks this side
   * with much less than its limit left raises the alarm when it reaches this page on a
   * connection it already had (the host may have dated the event that opened it back, or
   * held it back), or, on any connection, when it started before a time at which the host
   * had told this page that the game had not reached its event yet: a host that cut it short
   * behind a reconnect has said so itself. */
  keepWindow(view, whole) {
    const reaction = view.reaction;
    const now = (view.fairness || {}).now;
    if (!reaction || !isCount(reaction.opened) || typeof reaction.ends !== "string" || typeof now !== "string") return;
    const ends = Date.parse(reaction.ends);
    const hostNow = Date.parse(now);
    const limit = reaction.limit;
    if (!Number.isFinite(ends) || !Number.isFinite(hostNow) || !isCount(limit)) return;
    if (isCount(view.seq)) this.timed = { seq: view.seq, opened: reaction.opened, ends, waitingFor: reaction.waiting_for };
    this.windowEnds.set(reaction.opened, ends);
    const receipts = this.receipts();
    if (receipts.windows.some((w) => w.seq === reaction.opened)) return;
    const left = ends - hostNow;
    const asked = reaction.waiting_for === this.me;
    const received = Math.min(Date.now(), this.clock.toPage(hostNow) ?? Date.now());
    const kept = { seq: reaction.opened, limit, left: Math.round(left), received: Math.round(received), live: !whole, asked };
    this.saveReceipts({ ...receipts, windows: [...receipts.windows, kept].slice(-ORDERS_KEPT) });
    const before = this.notBegunAt(reaction.opened);
    const cut = !whole ? left < limit * 1000 - ALLOWANCE_MS : before !== null && ends - limit * 1000 < before - ALLOWANCE_MS;
    if (asked && cut) {
      const seconds = Math.max(0, Math.round(left / 1000));
      this.alarm(`window-${reaction.opened}`, t("The host gave this page only {seconds} s of the {limit} s it has to answer (the question of log entry {seq}) — {audit}.", { seconds, limit, seq: reaction.opened, audit: audit() }));
    }
  },

  /** The host refused an order of this page as too late for its window: if the page sent it
   * with time left by its own count (the window's end on this page's clock, as the countdown
   * showed it), that is evidence the host held it back or cut the window short, kept as the
   * alarm and the receipts hold it. */
  refused(commandId, problem) {
    if (!this.me || !problem || typeof problem.code !== "string") return;
    let receipts = this.receipts();
    // The refusal's code is kept on the order (its last attempt): the audit takes an order
    // the rules refused for anything but the time as no answer the host held back.
    const last = receipts.orders.map((o) => o.id).lastIndexOf(commandId);
    if (last < 0) return;
    const orders = receipts.orders.map((o, i) => (i === last ? { ...o, refused: problem.code.slice(0, 64) } : o));
    receipts = { ...receipts, orders };
    this.saveReceipts(receipts);
    if (!["time_up", "window_closed"].includes(problem.code)) return;
    const order = orders[last];
    const window = receipts.windows.filter((w) => w.seq < order.k).reduce((a, w) => (!a || w.seq > a.seq ? w : a), null);
    if (!window) return;
    const end = this.clock.toPage(this.windowEnds.get(window.seq)) ?? window.received + window.left;
    const left = end - order.sent;
    if (left > ALLOWANCE_MS) {
      const seconds = Math.round(left / 1000);
      this.alarm(`late-${window.seq}`, t("The host refused your answer as too late, though this page sent it with {seconds} s of the window left — {audit}.", { seconds, audit: audit() }));
      this.hooks.changed();
    }
  }
};
