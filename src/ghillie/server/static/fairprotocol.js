// The fair-play exchange of a side's page with the server (fairplay.js): the dice chain it
// holds (its seed never leaves this browser) and renews, its anchor given as it takes its seat,
// its element given for each roll it is asked for (after checking the request), its orders
// signed with its seat key, and the server's replies. Methods of FairPlay (fairplay.js).

import * as api from "./api.js";
import * as fair from "./fair.js";
import { t } from "./i18n.js";
import { ORDERS_KEPT, audit, chainFromKey, chainKey, gaveKey, isCount, signingFromKey, signingKey } from "./fairreceipts.js";

// A roll usually gathers every element within a blink; only a roll that stays waiting this
// long is worth a line in the game's status (the Fairness panel says it at once).
export const SLOW_ROLL_MS = 2000;
// How many rolls before this page's chain runs out it gives the anchor of the next one.
const RENEW_AHEAD = 64;

/** Only the signed fields of a request: what the audit needs to hold the host to it. */
function requestReceipt(request) {
  const { game, k, side, commitment, prev, order, sig } = request;
  return { game, k, side: side ?? null, commitment, prev, order, sig };
}

export const exchange = {
  /** The chain this page holds for its side, made from a seed kept in this browser. */
  prepareChain(fairness) {
    this.holder = (fairness.chains || {})[this.me] || null;
    if (this.holder !== "client") {
      this.chainState = this.holder === "host" ? "host" : "none";
      return;
    }
    const joining = (fairness.joining || []).includes(this.me);
    if (!this.chain) {
      const key = chainKey(this.game, this.me);
      let seed = this.storage.get(key);
      // A new seed only while the side has not joined: after that, a page without the seed
      // is another device or a cleared browser, and a new chain would not link.
      if (!seed && joining) {
        seed = fair.hex(fair.newSeed());
        this.storage.set(key, seed);
        this.seatKey(this.me, true);
      }
      if (seed) {
        try {
          this.chain = fair.chainFromSeed(fair.unhex(seed), fair.LENGTH);
        } catch {
          this.chain = null;
        }
        const from = Number(this.storage.get(chainFromKey(this.game, this.me)) || 0);
        this.chainFrom = Number.isInteger(from) && from >= 0 ? from : 0;
      }
    }
    if (this.chain && !this.anchorKept) {
      // The anchor this page gives (or gave), beside its receipts: the audit holds the
      // record's set-up to it.
      const receipts = this.receipts();
      this.anchorKept = true;
      const anchor = fair.hex(this.chain.anchor);
      if (receipts.anchor !== anchor) {
        const kept = { ...receipts, anchor };
        if (this.chainFrom > 0) kept.chain_from = this.chainFrom;
        else delete kept.chain_from;
        this.saveReceipts(kept);
      }
    }
    if (!this.setup) {
      // Before the game starts there is no set-up yet; after, the page must see its own.
      this.chainState = !this.chain ? "elsewhere" : this.setupMissing ? "unlisted" : "page";
      return;
    }
    // This side's entry, once exactly (twice, and a reader of the first would see one chain
    // while the rolls use the other).
    const listed = Array.isArray(this.setup.parties) ? this.setup.parties.filter((p) => p && p.party === this.me) : [];
    const mine = listed.length === 1 ? listed[0] : null;
    const saysHeld = mine !== null && mine.held !== false;
    if (saysHeld) {
      this.alarm("held", t("The game's record says the host holds your dice chain, yet this page was told to hold it — {audit}.", { audit: audit() }));
    }
    if (!this.chain) {
      this.chainState = "elsewhere";
      return;
    }
    // This page holds the chain: the record must roll its dice from it, and from no other (a
    // new chain, from the event that starts it: checkShares holds the record to it there).
    const ours = mine !== null && mine.held === false && (this.chainFrom > 0 || mine.anchor === fair.hex(this.chain.anchor));
    if (!ours && !saysHeld) {
      this.alarm("unlisted", t("The host's record of this game's set-up does not list this page's dice chain as the one it gave — {audit}.", { audit: audit() }));
    }
    this.chainState = ours ? "page" : "unlisted";
  },

  /** This page's element for roll k (a new chain gives its first for roll chainFrom). */
  element(k) {
    return this.chain.element(k - this.chainFrom);
  },

  /** A new chain for `side`, made on this device to take its seat over: its seed is kept
   * here (and never sent); the anchor goes to the host. The roll it starts at comes with
   * the seat once the host has taken it (chainStarts). */
  newChain(side) {
    const seed = fair.hex(fair.newSeed());
    this.storage.set(chainKey(this.game, side), seed);
    this.storage.set(chainFromKey(this.game, side), "0");
    this.chain = null;
    this.anchorKept = false;
    return fair.hex(fair.chainFromSeed(fair.unhex(seed), fair.LENGTH).anchor);
  },

  /** The host took this device's new chain, from roll k on. */
  chainStarts(side, k) {
    if (String(k) === this.storage.get(chainFromKey(this.game, side))) return;
    this.storage.set(chainFromKey(this.game, side), String(k));
    this.chain = null;
    this.anchorKept = false;
  },

  /** Before the game starts: give the chain's anchor (again on every new connection). */
  join(fairness) {
    if (this.chainState !== "page" || this.anchorGiven) return;
    if (!(fairness.joining || []).includes(this.me)) return;
    this.anchorGiven = true;
    const anchor = fair.hex(this.chain.anchor);
    const key = this.seatKey(this.me, true);
    const receipts = this.receipts();
    if (receipts.anchor !== anchor || receipts.seat !== key) this.saveReceipts({ ...receipts, anchor, seat: key });
    this.give({ type: "anchor", anchor, key }, () => (this.anchorGiven = false));
  },

  /** Every 4,096 rolls this page's chain runs out: ahead of that it gives the anchor of the
   * next (derived from its seed, so a reload makes the same), once per connection until
   * the status lists it; once the game reaches that roll, the page rolls with the new one. */
  renew(fairness, whole) {
    if (this.chainState !== "page" || !this.chain) return;
    if (whole) this.renewGiven = false;
    const end = this.chainFrom + this.chain.length;
    const next = this.nextRoll();
    if (next < end - RENEW_AHEAD) return;
    const seed = this.storage.get(chainKey(this.game, this.me));
    if (!seed) return;
    const following = fair.hex(fair.renewed(fair.unhex(seed)));
    if (next >= end) {
      // The game has reached it: the new chain is this page's from here on.
      this.storage.set(chainKey(this.game, this.me), following);
      this.storage.set(chainFromKey(this.game, this.me), String(end));
      this.chain = null;
      this.nextChain = null;
      this.prepareChain(fairness);
      return;
    }
    const listed = (fairness.new_chains || []).some((c) => c && c.side === this.me && c.from === end);
    if (listed || this.renewGiven) return;
    if (!this.nextChain) this.nextChain = fair.chainFromSeed(fair.unhex(following), fair.LENGTH);
    this.renewGiven = true;
    this.give({ type: "renew", anchor: fair.hex(this.nextChain.anchor) }, () => (this.renewGiven = false));
  },

  /** The public key this device signs `side`'s orders with; with `create`, made now if it
   * has none. Its secret never leaves this browser (localStorage, beside the chain's seed). */
  seatKey(side, create = false) {
    let secret = this.storage.get(signingKey(this.game, side));
    if (!secret && create) {
      secret = fair.newSeatKey().secret;
      this.storage.set(signingKey(this.game, side), secret);
    }
    if (!secret) return null;
    try {
      return fair.seatPublic(secret);
    } catch {
      return null;
    }
  },

  /** The first roll whose order this device's key signs (0 unless it took the seat over). */
  signingFrom() {
    const from = Number(this.storage.get(signingFromKey(this.game, this.me)) || 0);
    return Number.isSafeInteger(from) && from >= 0 ? from : 0;
  },

  /** The host took this device's seat key from roll k on (a seat taken over). */
  signsFrom(side, k) {
    this.storage.set(signingFromKey(this.game, side), String(k));
  },

  /** A new seat key for `side` (the seat taken over by this device): its public key. */
  newSeatKey(side) {
    const made = fair.newSeatKey();
    this.storage.set(signingKey(this.game, side), made.secret);
    return made.public;
  },

  /** The next roll, as this page knows the game: one after the last head it kept. */
  nextRoll() {
    if (!this.me) return 0;
    const heads = this.receipts().heads;
    return heads.reduce((last, r) => (isCount(r.seq) && r.seq > last ? r.seq : last), -1) + 1;
  },

  /** Sign an order for the next roll (one after the last head this page kept), and keep it
   * beside the receipts with the time it was sent: the host's request for that roll must
   * quote this very signature, and the audit reads what was sent when. {k, sig}, or null
   * if this page holds no key for its side. */
  sign(commandId, command) {
    if (!this.me || this.legacy) return null;
    const secret = this.storage.get(signingKey(this.game, this.me));
    if (!secret) return null;
    const receipts = this.receipts();
    const k = this.nextRoll();
    let sig = null;
    try {
      sig = fair.signOrder(secret, this.game, k, this.me, commandId, command);
    } catch {
      return null; // not JSON the host could check: the server refuses it as malformed
    }
    const orders = [...receipts.orders, { id: commandId, k, digest: fair.orderDigest(sig), sent: Date.now() }];
    this.saveReceipts({ ...receipts, orders: orders.slice(-ORDERS_KEPT) });
    return { k, sig };
  },

  /** A roll is asked for and waits for this side: give the element, unless the host asked
   * for this roll before with another request, or for another roll than the next one, or
   * after a head this page never saw — then the host is trying for another result, or for
   * elements ahead of their time (from which every earlier one follows), and the page keeps
   * the evidence instead. */
  answer(fairness) {
    const request = fairness.request;
    if (!request || !(fairness.waiting || []).includes(this.me) || this.chainState !== "page") return;
    if (typeof request !== "object" || !isCount(request.k)) {
      this.alarm("roll-number", t("The host asked for a roll without a proper roll number, so this page did not give its share — {audit}.", { audit: audit() }));
      return;
    }
    const k = request.k;
    if (this.given.has(k) || this.refusedRolls.has(k)) return;
    const receipts = this.receipts();
    const same = (r) => r.commitment === request.commitment && r.prev === request.prev && r.order === request.order;
    const asked = receipts.requests.filter((r) => r.k === k);
    const keep = () => {
      if (!asked.some(same)) {
        receipts.requests.push(requestReceipt(request));
        this.saveReceipts(receipts);
      }
    };
    const refuse = (id, text) => {
      this.refusedRolls.add(k);
      keep(); // a signed request the record does not hold is what the audit flags
      this.alarm(id, text);
    };
    if (request.game !== undefined && request.game !== this.game) {
      refuse(`game-${k}`, t("The host asked for roll {k} of another game — {audit}.", { k, audit: audit() }));
      return;
    }
    // Only a request the host signed holds it to the command: the element goes for no other.
    if (!fair.verifyRequest(this.key, this.game, request)) {
      refuse(`unsigned-${k}`, t("The host asked for roll {k} without its own key's signature, so this page did not give its share — {audit}.", { k, audit: audit() }));
      return;
    }
    if (asked.some((r) => !same(r))) {
      refuse(`twice-${k}`, t("The host asked twice for roll {k} — {audit}.", { k, audit: audit() }));
      return;
    }
    // A roll for an order of this side must be for an order this page signed, for this
    // roll: the host cannot give an order in this side's name.
    // Whether this side signs is this page's to know (it holds the key), not the status's:
    // a host that hid the key there would otherwise have this page's element for its order.
    // A key this device was given with a seat it took over signs from the roll the seat
    // says (an order of the device before may still wait for its roll).
    const signs = (this.keys[this.me] || this.seatKey(this.me)) && k >= this.signingFrom();
    if (request.side === this.me && signs && !receipts.orders.some((o) => o.k === k && o.digest === request.order)) {
      refuse(`order-${k}`, t("The host asked for roll {k} for an order of your side that this page did not give — {audit}.", { k, audit: audit() }));
      return;
    }
    // Only the roll after the last head kept (roll 0 before the game starts), after that head.
    const next = this.nextRoll();
    if (k !== next) {
      refuse(`ahead-${k}`, t("The host asked for roll {k} when the next roll is {next}, so this page did not give its share — {audit}.", { k, next, audit: audit() }));
      return;
    }
    const prevs = k === 0 ? [fair.hex(fair.genesis(this.game))] : receipts.heads.filter((r) => r.seq === k - 1).map((r) => r.hash);
    if (!prevs.includes(request.prev)) {
      refuse(`prev-${k}`, t("The host asked for roll {k} after a history this page was never shown — {audit}.", { k, audit: audit() }));
      return;
    }
    if (k < this.chainFrom || k - this.chainFrom >= this.chain.length) {
      this.problem = t("This page's dice chain has no element for roll {k}.", { k });
      return;
    }
    keep();
    this.given.add(k);
    const gave = this.gave();
    if (!gave.includes(k)) this.storage.set(gaveKey(this.game, this.me), JSON.stringify([...gave, k].slice(-ORDERS_KEPT)));
    this.give({ type: "contribute", k, element: fair.hex(this.element(k)) }, () => this.given.delete(k));
  },

  /** Send on the socket, or over HTTP while it is down. `unsent` runs if neither got
   * through, so the next view tries again. */
  give(message, unsent) {
    if (this.hooks.send(message)) {
      this.sentFair.push(message);
      return;
    }
    if (message.type === "renew") {
      unsent(); // no HTTP twin: given again on the next connection
      return;
    }
    const call =
      message.type === "anchor"
        ? api.anchor(this.game, this.token, message.anchor, message.key)
        : api.contribute(this.game, this.token, message.k, message.element);
    call.then(
      () => this.replied({ type: "fair", ok: true }, message),
      (error) => {
        if (error instanceof api.Problem && error.body) this.replied({ type: "fair", problem: error.body }, message);
        else unsent();
      },
    );
  },

  /** The server's reply to an anchor or an element (or a problem with a message); `sent`, the
   * message it answers (over HTTP; on the socket, replies come in the order sent). */
  replied(message, sent) {
    if (message.type === "fair") {
      const problem = message.problem;
      const to = sent || this.sentFair.shift();
      if (to && to.type === "contribute" && isCount(to.k)) {
        const late = Boolean(problem && problem.code === "no_roll_pending");
        if (late) this.cameLate.add(to.k);
        // A roll drawn without this element, which the host then took in time: thrown away.
        if (this.drawnWithout.delete(to.k) && !late) this.thrownAway(to.k);
      }
      // An element that came after its roll was settled (another tab of this side, or a
      // resend after reconnecting) is no trouble: nothing waits for it.
      if (problem && problem.code === "no_roll_pending") return;
      this.problem = problem ? problem.detail || problem.code : null;
    } else if (message.type === "problem" && message.problem) {
      this.problem = message.problem.detail || message.problem.code;
    } else {
      return;
    }
    this.hooks.changed();
  },

  trackWait(fairness) {
    const request = fairness.request;
    if (!request) {
      this.pending = null;
      clearTimeout(this.timer);
      return;
    }
    if (!this.pending || this.pending.k !== request.k) {
      this.pending = { k: request.k, since: Date.now() };
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.hooks.changed(), SLOW_ROLL_MS + 50);
    }
  }
};
