// What a side's page keeps and verifies (fairplay.js): its receipts (every signed head, every
// roll request it answered, its orders and windows, the host's key), its alarms, and the checks
// of everything the host sends it — event 0's set-up, every head's signature over what this
// page was shown, every side's roll contributions, every opening against its commitment.
// Methods of FairPlay (fairplay.js), which holds the state they share with the exchange
// (fairprotocol.js): a share is checked against this page's own chain, and an answer keeps
// its request among the receipts.

import * as fair from "./fair.js";
import { t } from "./i18n.js";
import { sideName } from "./pieces.js";

export const HOST = "host";
// The alarms of answer() that refuse a roll's element, by their ids' prefix (`${kind}-${k}`).
const REFUSALS = ["game", "unsigned", "twice", "order", "ahead", "prev"];
// The advice every alarm ends with, in the reader's words.
export const audit = () => t("keep your receipts and run ghillie audit");

export const chainKey = (game, side) => `ghillie:chain:${game}:${side}`;
// The roll a new chain's first element is for (seat.js: a seat taken over); absent: roll 0.
export const chainFromKey = (game, side) => `ghillie:chain-from:${game}:${side}`;
export const receiptsKey = (game, side) => `ghillie:receipts:${game}:${side}`;
// The secret of the key this device signs its side's orders with (never sent).
export const signingKey = (game, side) => `ghillie:signing:${game}:${side}`;
// The roll from which that key signs the side's orders (a seat taken over: later than 0).
export const signingFromKey = (game, side) => `ghillie:signing-from:${game}:${side}`;
export const alarmsKey = (game, side) => `ghillie:alarms:${game}:${side}`;
// The rolls this page gave its element for (not in the receipts, whose form the audit fixes):
// a roll drawn "without" it after all is the host throwing it away.
export const gaveKey = (game, side) => `ghillie:gave:${game}:${side}`;

// A number the host wrote, fit to go into a sentence (an event or roll number).
export const isCount = (value) => Number.isSafeInteger(value) && value >= 0;
const HEX32 = /^[0-9a-f]{64}$/;

/** localStorage, or memory where a browser refuses it (some private modes do): the page
 * still plays then, but the chain and the receipts do not outlive the page. */
export class KeptStore {
  constructor() {
    this.memory = new Map();
    this.persistent = true;
  }

  get(key) {
    try {
      const value = localStorage.getItem(key);
      if (value !== null) return value;
    } catch {
      this.persistent = false;
    }
    return this.memory.has(key) ? this.memory.get(key) : null;
  }

  set(key, value) {
    this.memory.set(key, value);
    try {
      localStorage.setItem(key, value);
    } catch {
      this.persistent = false;
    }
  }
}

// The protocol this page checks (docs/fairness.md): a game set up under an earlier one is
// over for good and is the audit's to check, not the page's.
const PROTOCOL = 4;
// Orders kept beside the receipts: enough for a long game, not for ever.
export const ORDERS_KEPT = 500;

export const keeping = {
  /** The host's key, as the status or event 0 gives it. The first one seen is kept (with
   * the receipts, so a reload and the record have it); any other one later is the host
   * changing the key its record is signed with. */
  keepKey(key, view) {
    if (typeof key !== "string") return;
    const receipts = this.me ? this.receipts() : null;
    const kept = receipts ? receipts.key : this.key;
    if (typeof kept !== "string") {
      this.key = key;
      if (receipts) this.saveReceipts({ ...receipts, key });
      return;
    }
    this.key = kept;
    if (key !== kept) {
      const at = view && isCount(view.seq) ? ` (at event ${view.seq})` : "";
      this.alarm("key", t("The host changed the key it signs this game's record with{at} — {audit}.", { at, audit: audit() }));
    }
  },

  /** The log entries not taken in yet: each new copy the host sends is checked again, so a
   * host that sends an event again with other lines or openings meets the same checks. An
   * entry whose number is not a whole number is refused, with the alarm. */
  freshEntries(view) {
    const fresh = [];
    for (const entry of view.log || []) {
      if (entry && typeof entry === "object") {
        if (this.seen.has(entry)) continue;
        this.seen.add(entry);
      }
      // Every event of a game is sealed, so a side's every entry carries its proof; the
      // referee's log holds the events themselves, and checks nothing of them.
      const proofless = !entry || typeof entry !== "object" || !entry.proof || typeof entry.proof !== "object";
      if (proofless && !this.me) {
        // The referee's page checks nothing, but says, as every page does, which rolls went
        // on without a side's share.
        const fairData = entry && typeof entry === "object" ? entry.fair : null;
        if (fairData && Array.isArray(fairData.missing) && isCount(entry.seq)) {
          this.missing.set(entry.seq, fairData.missing.filter((x) => typeof x === "string"));
        }
        continue;
      }
      if (!entry || typeof entry !== "object" || !isCount(entry.seq)) {
        this.alarm("seq", t("The host sent a record of an event without a proper event number — {audit}.", { audit: audit() }));
      } else if (proofless) {
        this.alarm(`proof-${entry.seq}`, t("The host's record of event {seq} carries no proof — {audit}.", { seq: entry.seq, audit: audit() }));
      } else {
        fresh.push(entry);
      }
    }
    return fresh;
  },

  /** Event 0's set-up (from event 0 only): the host's key and the roll parties. */
  takeSetup(fresh, view) {
    const first = fresh.find((entry) => entry.seq === 0);
    if (!first) {
      // A page's first view holds the whole log: one that starts later hides the set-up.
      if (!this.setup && fresh.length && !(view.log || []).some((e) => e && e.seq === 0)) {
        this.setupMissing = true;
        this.alarm("no-setup", t("The host's record of this game's set-up is missing — {audit}.", { audit: audit() }));
      }
      return;
    }
    const setup = first.proof.setup;
    if (!setup || typeof setup !== "object") {
      this.setupMissing = true;
      this.alarm("no-setup", t("The host's record of this game's set-up is missing — {audit}.", { audit: audit() }));
      return;
    }
    if (Number.isSafeInteger(setup.version) && setup.version < PROTOCOL) {
      // An older game, which the server no longer plays: its record is the audit's to check.
      // But a page that joined this game under this protocol (it gave a seat key, or signed
      // an order: pages before protocol 4 did neither) knows it is no older game: a host
      // that says so wants the page to stop checking.
      this.legacy = true;
      const receipts = this.me ? this.receipts() : null;
      if (receipts && (typeof receipts.seat === "string" || receipts.orders.length)) {
        this.alarm("downgrade", t("The host's record says this game was set up under an earlier version of ghillie's fairness rules, though this page joined it under the current one — {audit}.", { audit: audit() }));
      }
      return;
    }
    this.keepKey(setup.key, view);
    this.setup = setup;
    this.parties = this.checkParties(setup, view);
    this.checkSeatKey(setup);
  },

  /** The set-up names each side's seat key: this page's, if it gave one when it joined,
   * must be the one it holds (another would let the host sign this side's orders). */
  checkSeatKey(setup) {
    if (!this.me || this.chainFrom > 0) return;
    const kept = this.storage.get(signingKey(this.game, this.me));
    const given = this.receipts().seat;
    if (!kept || !given) return; // this page gave no key when the game was set up
    const seats = setup.seats && typeof setup.seats === "object" ? setup.seats : {};
    if (seats[this.me] !== given) {
      this.alarm("seat-key", t("The host's record of this game's set-up does not name the key this page signs your orders with — {audit}.", { audit: audit() }));
    }
  },

  /** The roll parties must be the host, then every side of the game, in the game's order,
   * each once, each with an anchor: a party listed twice, or left out, would let the page
   * read one chain for a party while the rolls use another. */
  checkParties(setup, view) {
    const sides = (view.sides || []).map((s) => s && s.id);
    const names = [HOST, ...sides];
    const parties = Array.isArray(setup.parties) ? setup.parties : [];
    const good =
      sides.every((id) => typeof id === "string" && id !== HOST) &&
      new Set(names).size === names.length &&
      parties.length === names.length &&
      parties.every(
        (p, i) =>
          p && typeof p === "object" && p.party === names[i] && typeof p.anchor === "string" && HEX32.test(p.anchor) && typeof p.held === "boolean",
      );
    if (!good) {
      this.alarm("parties", t("The host's record of this game's set-up does not list the dice chains of the host and of every side once each — {audit}.", { audit: audit() }));
      return null;
    }
    return new Map(parties.map((p) => [p.party, p]));
  },

  /** Keep a receipt of every new head, after checking the host signed it together with
   * what this page was shown of it (and the other sides' digests); check every side's roll
   * contributions and every opening shown to this side. */
  takeLog(fresh, view) {
    if (!fresh.length) return;
    const receipts = this.me ? this.receipts() : null;
    let kept = false;
    for (const entry of fresh) {
      const { seq, proof } = entry;
      this.roots.set(seq, proof.roots && typeof proof.roots === "object" ? proof.roots : {});
      const shares = proof.contributions && typeof proof.contributions === "object" ? proof.contributions : {};
      this.shares.set(seq, shares);
      if (proof.chains && typeof proof.chains === "object") this.newChains.set(seq, proof.chains);
      if (Array.isArray(proof.missing)) this.missing.set(seq, proof.missing.filter((x) => typeof x === "string"));
      const keys = proof.keys && typeof proof.keys === "object" ? proof.keys : {};
      if (this.me && seq >= this.chainFrom && keys[this.me] !== undefined && keys[this.me] !== this.seatKey(this.me)) {
        // Only this device's own new key may sign its side's orders from here on.
        this.alarm(`keys-${seq}`, t("The host's record of event {seq} gives your side a signing key this page does not hold — {audit}.", { seq, audit: audit() }));
      }
      if (receipts && this.keepHead(entry, receipts)) kept = true;
      this.checkShares(seq, view);
      this.checkOpenings(seq, Array.isArray(proof.openings) ? proof.openings : [], view);
    }
    if (kept) this.saveReceipts(receipts);
  },

  /** The host signs each event's head once, with every side's salted digest of what it was
   * shown of it: the page computes its own from what it received (with its salt), puts it
   * among the others', checks the signature and keeps the head as its receipt. A head its
   * key did not sign is kept too (the audit then fails, as it must), and two accounts of one
   * event are both kept: they are the proof. True if kept anew. */
  keepHead(entry, receipts) {
    const { seq, proof } = entry;
    let head = null;
    try {
      head = fair.headReceipt(entry, this.me, this.sides);
    } catch {
      head = null;
    }
    if (!head) {
      this.alarm(`shown-${seq}`, t("The host's record of what this page was shown at event {seq} is not signed by its key — {audit}.", { seq, audit: audit() }));
      return false;
    }
    const before = receipts.heads.filter((r) => r.seq === seq);
    const same = (r) => r.hash === head.hash && r.sig === head.sig && JSON.stringify(r.shown) === JSON.stringify(head.shown);
    // A head this page kept before was checked when it came (a reload shows them all
    // again; checking each anew would cost a phone a second on a long game).
    if (before.some(same)) return false;
    if (!fair.verifyHead(this.key, this.game, head)) {
      this.alarm(`sig-${seq}`, t("The host sent a record of event {seq} that its own key did not sign — {audit}.", { seq, audit: audit() }));
    }
    if (before.some((r) => r.hash !== head.hash)) {
      this.alarm(`head-${seq}`, t("The host showed this page two different histories at event {seq} — {audit}.", { seq, audit: audit() }));
    } else if (before.length) {
      this.alarm(`shown-twice-${seq}`, t("The host showed this page two different accounts of event {seq} — {audit}.", { seq, audit: audit() }));
    }
    receipts.heads.push(head);
    return typeof proof.hash === "string";
  },

  /** Every side's element for roll `seq` must hash to its element for the roll before (or
   * to its anchor): nobody, the host included, can make one that does without the seed. This
   * page's own must be the one its chain gives for that roll. */
  checkShares(seq, view) {
    const shares = this.shares.get(seq);
    const sides = new Set((view.sides || []).map((s) => s && s.id));
    const missing = this.missing.get(seq) || [];
    if (this.me && this.chainState === "page" && seq >= this.chainFrom && seq - this.chainFrom < this.chain.length) {
      // A roll drawn without this page's share (it did not give it in time) holds none.
      if (missing.includes(this.me) ? this.me in shares : shares[this.me] !== fair.hex(this.element(seq))) {
        this.alarm(`mine-${seq}`, t("The host's record of event {seq} does not roll the dice with this page's share — {audit}.", { seq, audit: audit() }));
      }
    }
    if (this.me && missing.includes(this.me) && this.gave().includes(seq) && !this.cameLate.has(seq)) {
      // Drawn without the element this page gave. The host may have drawn it as the element
      // was on its way (its wait ran out): its reply to the element says so, and on this
      // connection it follows the event; any other answer, or none, leaves the host's word.
      if (this.sentFair.some((m) => m.type === "contribute" && m.k === seq)) this.drawnWithout.add(seq);
      else this.thrownAway(seq);
    }
    // A side whose new chain starts here (its seat taken over) follows the new anchor.
    const restarted = this.newChains.get(seq) || {};
    const mine = restarted[this.me];
    if (this.me && this.chainState === "page" && seq === this.chainFrom && seq > 0 && mine !== fair.hex(this.chain.anchor)) {
      this.alarm(`new-chain-${seq}`, t("The host's record of event {seq} does not start this page's new dice chain there — {audit}.", { seq, audit: audit() }));
    }
    for (const [side, element] of Object.entries(shares)) {
      if (!sides.has(side)) {
        this.alarm(`share-side-${seq}`, t("The host's record of event {seq} has a share of the dice from a side this game does not have — {audit}.", { seq, audit: audit() }));
        continue;
      }
      const last = this.lastShare(side, seq);
      if (!last) continue; // a log that starts later
      let ok = false;
      try {
        ok = fair.links(fair.unhex(last.element), fair.unhex(element), seq - last.at);
      } catch {
        ok = false;
      }
      if (!ok) {
        this.alarm(`share-${seq}-${side}`, t("Event {seq}: {side}'s share of the dice does not follow from its chain — {audit}.", { seq, side: sideName(view, side), audit: audit() }));
      }
    }
  },

  /** The last element `side` gave before roll `seq`, and the roll it was for (-1: its
   * anchor): a roll drawn without it leaves a gap its next element hashes across, and a new
   * chain starts from its anchor. Null where the log this page holds starts later. */
  lastShare(side, seq) {
    for (let s = seq; s >= 0; s--) {
      if (s < seq) {
        const shares = this.shares.get(s);
        if (!shares) return null;
        if (typeof shares[side] === "string") return { element: shares[side], at: s };
      }
      const restarted = this.newChains.get(s) || {};
      if (typeof restarted[side] === "string") return { element: restarted[side], at: s - 1 };
    }
    const anchors = this.anchors();
    return anchors && typeof anchors[side] === "string" ? { element: anchors[side], at: -1 } : null;
  },

  /** Each opening shown at event `seq` must be of another side's roster, against the root
   * that side had the event before (what the rules reveal is what was committed to then),
   * and check against that root; one that says when its fact was written, against the root
   * that side had then too. `missing` is the event of a root this page never received. */
  checkOpenings(seq, openings, view) {
    const sides = new Set((view.sides || []).map((s) => s && s.id));
    const rootOf = (at, side) => {
      const roots = isCount(at) ? this.roots.get(at) : undefined;
      const root = roots ? roots[side] : undefined;
      return typeof root === "string" ? root : null;
    };
    const results = openings.map((opening) => {
      const fits =
        opening &&
        typeof opening === "object" &&
        opening.root_seq === seq - 1 &&
        typeof opening.side === "string" &&
        sides.has(opening.side) &&
        opening.side !== this.me;
      if (!fits) return { opening, ok: false };
      // Whether it must prove its write is the ruleset's (public) word for its key: a host
      // that left the proof out, or wrote one for a fact that may change, is caught here.
      const words = this.secretWords.get(opening.key);
      const proves = Object.prototype.hasOwnProperty.call(opening, "written");
      if (words && typeof words.fixed === "boolean" && words.fixed !== proves) return { opening, ok: false };
      const size = this.setup ? this.setup.roster : undefined;
      const root = rootOf(opening.root_seq, opening.side);
      const written = opening.written;
      const at = written && typeof written === "object" ? written.seq : undefined;
      const writtenRoot = at === undefined ? undefined : rootOf(at, opening.side);
      // A write proof that names no event this page could hold fails with the rest.
      const knowable = at === undefined || (isCount(at) && at <= opening.root_seq);
      if (knowable && (root === null || writtenRoot === null)) {
        return { opening, ok: null, missing: root === null ? opening.root_seq : at };
      }
      return { opening, ok: fair.checkOpening(this.game, opening, root, size, writtenRoot) };
    });
    this.checks.set(seq, results);
    results.forEach(({ ok }, i) => {
      if (ok === false) {
        this.alarm(`opening-${seq}-${i}`, t("Something revealed at event {seq} does NOT match what was committed to — {audit}.", { seq, audit: audit() }));
      }
    });
  },

  anchors() {
    if (!this.parties) return null;
    return Object.fromEntries([...this.parties].map(([party, p]) => [party, p.anchor]));
  },

  /** The rolls this page gave its element for, kept in this browser. */
  gave() {
    try {
      const kept = JSON.parse(this.storage.get(gaveKey(this.game, this.me)) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  },

  /** Did this page refuse its element for roll `k` (answer(): the request raised the alarm)?
   * Its alarm is kept in this browser, so a reload still knows. */
  refusedRoll(k) {
    return isCount(k) && (this.refusedRolls.has(k) || REFUSALS.some((kind) => this.alarms.has(`${kind}-${k}`)));
  },

  thrownAway(seq) {
    this.alarm(`thrown-${seq}`, t("The host drew roll {seq} without this page's share, though this page gave it — {audit}.", { seq, audit: audit() }));
  },

  /** Raise an alarm. A side's alarms are kept in this browser too, so that a reload (which
   * checks again only what is new) still shows them. */
  alarm(id, text) {
    if (this.alarms.has(id)) return;
    this.alarms.set(id, text);
    if (this.me) this.storage.set(alarmsKey(this.game, this.me), JSON.stringify([...this.alarms]));
  },

  readAlarms() {
    if (this.alarmsRead || !this.me) return;
    this.alarmsRead = true;
    try {
      const kept = JSON.parse(this.storage.get(alarmsKey(this.game, this.me)) || "[]");
      for (const [id, text] of kept) if (typeof text === "string") this.alarm(id, text);
    } catch {
      // Unreadable: there is nothing to show from before.
    }
  },

  /** The receipts kept for this side, read afresh: another tab of the same side may have
   * added to them. */
  receipts() {
    let kept = null;
    try {
      kept = JSON.parse(this.storage.get(receiptsKey(this.game, this.me)) || "null");
    } catch {
      kept = null;
    }
    const ok = kept && Array.isArray(kept.heads) && Array.isArray(kept.requests);
    // The host's key sits beside the receipts: the audit checks each receipt against it,
    // and it against the record's. Receipts kept by an older page have no `shown` yet.
    this.kept = ok ? kept : { heads: [], requests: [] };
    if (typeof this.kept.key !== "string" && typeof this.key === "string") this.kept.key = this.key;
    if (!Array.isArray(this.kept.orders)) this.kept.orders = [];
    if (!Array.isArray(this.kept.windows)) this.kept.windows = [];
    return this.kept;
  },

  saveReceipts(receipts) {
    this.kept = receipts;
    this.storage.set(receiptsKey(this.game, this.me), JSON.stringify(receipts));
  }
};
