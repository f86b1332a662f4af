// Fair play on a side's page (TRUST.md §1, docs/fairness.md): the page holds its side's dice
// chain and gives the host one element of it for every roll; it keeps a receipt of every
// signed head and every roll request it answered; it checks what the host opens to it at a
// reveal against the commitment published before; and at the end it saves the game record
// with its receipts, for `ghillie audit`.
//
// Why the page and not the server: a roll mixes the host's element with one from each side's
// chain, and the host can steer nothing only if a side's chain never leaves the side's device.
// So the chain's seed lives in this browser's localStorage (a reload must give the same
// chain) and is never sent; only its anchor (x_0) and, one per roll, its next element are.
//
// The page keeps the host's public key from the start of the game (event 0, or the status
// before it) beside its receipts, and checks the host's Ed25519 signature on every head as it
// arrives and on every roll request before it gives its element: a receipt the host did not
// sign proves nothing, so a host that sent such heads could later pass off another history.
// A bad signature, or another key than the one kept, raises the alarm.
//
// The page also checks what the host cannot be trusted to write: event 0 must roll every die
// from the host's chain and each side's once, this page's from the chain it gave; it answers
// only the next roll, after the last head it kept; an opening must be of another side's
// roster, against the root published the event before; and every entry must carry the host's
// signature over what this page was shown of it (kept as a receipt, so the audit can compare
// it with the record). Alarm texts are fixed words: the host's numbers go in only as
// non-negative whole numbers, sides only by their names in this game.

import * as api from "./api.js";
import { h } from "./dom.js";
import * as fair from "./fair.js";
import { t, tn } from "./i18n.js";
import { HostClock } from "./panels.js";
import { pieceName, sideName } from "./pieces.js";

const HOST = "host";
// The alarms of answer() that refuse a roll's element, by their ids' prefix (`${kind}-${k}`).
const REFUSALS = ["game", "unsigned", "twice", "order", "ahead", "prev"];
// A roll usually gathers every element within a blink; only a roll that stays waiting this
// long is worth a line in the game's status (the Fairness panel says it at once).
const SLOW_ROLL_MS = 2000;
// The advice every alarm ends with, in the reader's words.
const audit = () => t("keep your receipts and run ghillie audit");

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
/** The record's file name, from the game's title and the day: "ghillie-green-hell-2026-12-01.json". */
export const recordName = (title) => {
  const slug = String(title || "game").toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || "game";
  return `ghillie-${slug}-${new Date().toISOString().slice(0, 10)}.json`;
};

/** The browser saves `text` as the file `name` (JSON). */
const saveFile = (name, text) => {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

const short = (value) => (typeof value === "string" ? value.slice(0, 12) : "?");
// A number the host wrote, fit to go into a sentence (an event or roll number).
const isCount = (value) => Number.isSafeInteger(value) && value >= 0;
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

/** Only the signed fields of a request: what the audit needs to hold the host to it. */
function requestReceipt(request) {
  const { game, k, side, commitment, prev, order, sig } = request;
  return { game, k, side: side ?? null, commitment, prev, order, sig };
}

// The protocol this page checks (docs/fairness.md): a game set up under an earlier one is
// over for good and is the audit's to check, not the page's.
const PROTOCOL = 4;
// Orders kept beside the receipts: enough for a long game, not for ever.
const ORDERS_KEPT = 500;
// How many rolls before this page's chain runs out it gives the anchor of the next one.
const RENEW_AHEAD = 64;
// What the network and the host's own work may take of a timed window before a page calls it
// cut short (its alarm), or an answer refused as late one sent in time.
const ALLOWANCE_MS = 3000;

export class FairPlay {
  /**
   * @param {string} game the game id
   * @param {string} token the side's capability token (for the HTTP fallbacks and the record)
   * @param {{send: (message: object) => boolean, changed: () => void}} hooks send puts a
   *   message on the websocket (false if it is down); changed asks for a redraw
   */
  constructor(game, token, hooks) {
    this.game = game;
    this.token = token;
    this.hooks = hooks;
    this.storage = new KeptStore();
    this.me = null; // the side this page plays; null on the referee's page
    this.holder = null; // "client" or "host": who holds my chain, as the view says
    this.chain = null; // made once per page load: 4096 hashes
    this.chainFrom = 0; // the roll the chain's first element is for (a new chain: later)
    this.newChains = new Map(); // seq → {side: anchor}: a side's new chain starts there
    this.missing = new Map(); // seq → [side]: the roll was drawn without those sides' shares
    this.chainState = "none"; // "page" | "host" | "elsewhere" | "unlisted" | "none"
    this.setup = null; // event 0's public set-up: the host's key, every party's anchor
    this.names = new Map(); // piece id → name, kept after the piece leaves the view
    this.secretWords = new Map(); // key → {what, values}: the opened facts in players' words
    this.seen = new WeakSet(); // the log entries (as objects) already taken in
    this.parties = null; // party → its entry in event 0's set-up, once that checks out
    this.setupMissing = false; // the game has begun, and this page was not shown its set-up
    this.anchorKept = false; // this page's anchor is in its receipts
    this.roots = new Map(); // seq → {side: published roster root}
    this.shares = new Map(); // seq → {side: chain element} (the sides' roll contributions)
    this.checks = new Map(); // seq → [{opening, ok}] (ok null: the root was never received)
    this.alarms = new Map(); // id → text: evidence the host misbehaved, or a broken link
    this.anchorGiven = false; // on this connection
    this.given = new Set(); // rolls answered on this connection
    this.sentFair = []; // what went on this connection's socket and awaits the host's reply, in order
    this.cameLate = new Set(); // rolls whose element the host said came after the roll was drawn
    this.drawnWithout = new Set(); // rolls drawn without the element this page gave, reply awaited
    this.refusedRolls = new Set(); // rolls this page will not answer (see answer()); not `refused`, the method
    this.problem = null; // the host's latest refusal of an anchor or element
    this.pending = null; // {k, since} of the roll now asked for
    this.timer = null;
    this.kept = null; // the receipts, as last read or written
    this.key = null; // the host's public key, kept from the start of the game
    this.alarmsRead = false; // the alarms kept from an earlier visit, once the side is known
    this.legacy = false; // the game was set up under an earlier protocol: nothing to check
    this.sides = []; // the game's sides, in its order (what the head's signature covers)
    this.keys = {}; // side -> the key its orders are signed with now, as the status says
    this.clock = new HostClock(); // the host's clock against this page's (least delayed view)
    this.notBegun = new Map(); // roll k → the host's latest time (ms) at which it had not begun
    this.windowEnds = new Map(); // seq of the event that opened a timed window → its end (host ms)
    this.timed = null; // the timed window open at the latest view: {seq, opened, ends, waitingFor}
    this.requestSeen = null; // the roll of the latest request this page was shown
  }

  // --- taking in each view ------------------------------------------------------------------

  /** Called with every view the page gets (whole: a new connection's, with every key). */
  observe(view, whole) {
    if (whole) {
      // A new connection: what was sent on the old one may be lost; sending again is safe
      // (the same anchor, the same element for the same roll).
      this.anchorGiven = false;
      this.given.clear();
      this.sentFair = []; // the old socket's replies will never come
      // A roll drawn without an element whose reply the old socket never brought: the host's
      // word that it came late is not there, so the page holds to what it did.
      for (const k of this.drawnWithout) this.thrownAway(k);
      this.drawnWithout.clear();
    }
    const side = (view.sides || []).some((s) => s.id === view.you) ? view.you : null;
    this.me = side;
    this.sides = (view.sides || []).map((s) => s && s.id);
    this.readAlarms();
    for (const piece of [...(view.pieces || []), ...(view.known || [])]) {
      this.names.set(piece.id, pieceName(piece));
    }
    // Sent whole, once: an update carries it only if it changed.
    if (Array.isArray(view.secret_words)) {
      this.secretWords = new Map(view.secret_words.filter((w) => w && typeof w === "object").map((w) => [w.key, w]));
    }
    const fairness = view.fairness || {};
    const hostNow = this.clock.take(fairness.now);
    if (fairness.keys && typeof fairness.keys === "object") this.keys = fairness.keys;
    this.keepKey(fairness.key, view);
    const fresh = this.freshEntries(view);
    this.takeSetup(fresh, view);
    if (this.legacy) return;
    if (side) this.prepareChain(fairness);
    this.takeLog(fresh, view);
    if (side) {
      this.join(fairness);
      this.renew(fairness, whole);
      this.checkAnswerTime(view, hostNow, whole);
      this.answer(fairness);
      this.keepWindow(view, whole);
    }
    this.keepBegun(view, hostNow);
    this.trackWait(fairness);
  }

  /** What this view says of time: at the host's time `hostNow`, the roll after its last event
   * had not begun (or, while it is asked for, the one after). A window's event is no earlier
   * than that (keepWindow). */
  keepBegun(view, hostNow) {
    if (hostNow === null || !Number.isSafeInteger(view.seq) || view.seq < -1) return;
    const request = (view.fairness || {}).request;
    const next = view.seq + 1;
    const begun = request && typeof request === "object" && request.k === next ? next + 1 : next;
    this.notBegun.set(begun, Math.max(this.notBegun.get(begun) ?? -Infinity, hostNow));
  }

  /** The host's latest time at which, by its own word, roll `k` had not begun; null if none. */
  notBegunAt(k) {
    let latest = null;
    for (const [begun, at] of this.notBegun) if (begun <= k && (latest === null || at > latest)) latest = at;
    return latest;
  }

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
  }

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
  }

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
  }

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
  }

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
  }

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
  }

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
  }

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
  }

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
  }

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
  }

  /** The rolls this page gave its element for, kept in this browser. */
  gave() {
    try {
      const kept = JSON.parse(this.storage.get(gaveKey(this.game, this.me)) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  }

  /** Did this page refuse its element for roll `k` (answer(): the request raised the alarm)?
   * Its alarm is kept in this browser, so a reload still knows. */
  refusedRoll(k) {
    return isCount(k) && (this.refusedRolls.has(k) || REFUSALS.some((kind) => this.alarms.has(`${kind}-${k}`)));
  }

  thrownAway(seq) {
    this.alarm(`thrown-${seq}`, t("The host drew roll {seq} without this page's share, though this page gave it — {audit}.", { seq, audit: audit() }));
  }

  anchors() {
    if (!this.parties) return null;
    return Object.fromEntries([...this.parties].map(([party, p]) => [party, p.anchor]));
  }

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
  }

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
  }

  /** This page's element for roll k (a new chain gives its first for roll chainFrom). */
  element(k) {
    return this.chain.element(k - this.chainFrom);
  }

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
  }

  /** The host took this device's new chain, from roll k on. */
  chainStarts(side, k) {
    if (String(k) === this.storage.get(chainFromKey(this.game, side))) return;
    this.storage.set(chainFromKey(this.game, side), String(k));
    this.chain = null;
    this.anchorKept = false;
  }

  /** The sides whose new dice chain the host has announced (before its first roll), or
   * whose new chain started at an event of the log, in the players' words. */
  chainNotes(view) {
    const notes = [];
    for (const { side, from } of (view.fairness || {}).new_chains || []) {
      if (!isCount(from)) continue;
      notes.push(
        side === this.me
          ? t("Your seat was taken over by another device: from roll {from} on, your dice come from a new chain made there. No earlier roll changes.", { from })
          : t("The seat of {side} was taken over by another device: from roll {from} on, its dice come from a new chain made there. No earlier roll changes.", { side: this.partyName(view, side), from }),
      );
    }
    for (const [seq, sides] of this.missing) {
      for (const side of sides) {
        // Who could have known it: the host, and every side whose page gave its share.
        const others = (view.sides || []).filter((s) => s && s.id !== side).map((s) => (s.id === this.me ? t("your side") : this.partyName(view, s.id)));
        const knew = [t("the host"), ...others].join(t(" and "));
        const gave = side === this.me && this.gave().includes(seq) && !this.cameLate.has(seq);
        notes.push(
          gave
            ? t("Roll {seq} was drawn without this page's share, though it gave it (see the alarm): {knew} could have known that roll in advance.", { seq, knew })
            : side === this.me && this.refusedRoll(seq)
            ? t("Roll {seq} was drawn without this page's share, which it refused to give (see the alarm): {knew} could have known that roll in advance.", { seq, knew })
            : side === this.me
            ? t("Roll {seq} was drawn without this page's share (it did not give it in time): {knew} could have known that roll in advance.", { seq, knew })
            : t("Roll {seq} was drawn without a share from the page of {side} (it did not give it in time): {knew} could have known that roll in advance.", { seq, side: this.partyName(view, side), knew }),
        );
      }
    }
    for (const [seq, chains] of this.newChains) {
      for (const side of Object.keys(chains)) {
        notes.push(
          side === this.me
            ? t("From event {seq} on, your dice come from a new chain (your seat moved to another device).", { seq })
            : t("From event {seq} on, the dice of {side} come from a new chain (its seat moved to another device).", { seq, side: this.partyName(view, side) }),
        );
      }
    }
    return notes;
  }

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
  }

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
  }

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
  }

  /** The first roll whose order this device's key signs (0 unless it took the seat over). */
  signingFrom() {
    const from = Number(this.storage.get(signingFromKey(this.game, this.me)) || 0);
    return Number.isSafeInteger(from) && from >= 0 ? from : 0;
  }

  /** The host took this device's seat key from roll k on (a seat taken over). */
  signsFrom(side, k) {
    this.storage.set(signingFromKey(this.game, side), String(k));
  }

  /** A new seat key for `side` (the seat taken over by this device): its public key. */
  newSeatKey(side) {
    const made = fair.newSeatKey();
    this.storage.set(signingKey(this.game, side), made.secret);
    return made.public;
  }

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
  }

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

  /** The next roll, as this page knows the game: one after the last head it kept. */
  nextRoll() {
    if (!this.me) return 0;
    const heads = this.receipts().heads;
    return heads.reduce((last, r) => (isCount(r.seq) && r.seq > last ? r.seq : last), -1) + 1;
  }

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
  }

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
  }

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
  }

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
  }

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

  /** Raise an alarm. A side's alarms are kept in this browser too, so that a reload (which
   * checks again only what is new) still shows them. */
  alarm(id, text) {
    if (this.alarms.has(id)) return;
    this.alarms.set(id, text);
    if (this.me) this.storage.set(alarmsKey(this.game, this.me), JSON.stringify([...this.alarms]));
  }

  readAlarms() {
    if (this.alarmsRead || !this.me) return;
    this.alarmsRead = true;
    try {
      const kept = JSON.parse(this.storage.get(alarmsKey(this.game, this.me)) || "[]");
      for (const [id, text] of kept) if (typeof text === "string") this.alarm(id, text);
    } catch {
      // Unreadable: there is nothing to show from before.
    }
  }

  // --- receipts -------------------------------------------------------------------------------

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
  }

  saveReceipts(receipts) {
    this.kept = receipts;
    this.storage.set(receiptsKey(this.game, this.me), JSON.stringify(receipts));
  }

  // --- what the page shows ------------------------------------------------------------------

  /** The alarms, for the top of the page; null if there are none. */
  alarmBox() {
    if (!this.alarms.size) return null;
    return h(
      "section",
      { class: "alarm", role: "alert" },
      h("h2", {}, t("Fairness alarm")),
      [...this.alarms.values()].map((text) => h("p", {}, text)),
      this.me ? this.receiptsBox() : "",
    );
  }

  /** The page's receipts saved to a file now: the evidence an alarm asks the player to
   * keep, while the game is on and its record cannot be had yet (or never will be). */
  receiptsBox() {
    const record = recordName(this.title);
    const name = record.replace(/\.json$/, `-receipts-${this.me}.json`);
    const button = h("button", { type: "button", class: "receipts-button" }, t("Save this page's receipts"));
    button.addEventListener("click", () => saveFile(name, JSON.stringify(this.receipts())));
    return h(
      "div",
      { class: "alarm-receipts" },
      button,
      h("p", { class: "hint" }, t("With the game record, once the host gives it: "), h("code", {}, `ghillie audit ${record} --receipts ${name}`)),
    );
  }

  /** Who the open roll waits for, once it has waited long enough to matter; else null. */
  slowRoll(view) {
    const waiting = this.waiting(view);
    if (!waiting || Date.now() - this.pending.since < SLOW_ROLL_MS) return null;
    return t("{roll} is waiting for: {waiting}.", { roll: this.rollWords(view), waiting });
  }

  rollWords(view) {
    const k = view.fairness.request.k;
    return isCount(k) ? t("Roll {k}", { k }) : t("A roll");
  }

  /** A side's name as this game gives it; anything else the host wrote is not repeated. */
  partyName(view, id) {
    if (id === HOST) return t("the host");
    if (id === this.me) return t("this page");
    return (view.sides || []).some((s) => s && s.id === id) ? sideName(view, id) : t("a party this game does not have");
  }

  /** Before the game starts: who has not opened their page yet; else null. */
  joiningNote(view) {
    const joining = ((view.fairness || {}).joining || []).filter((side) => side !== this.me);
    if (!joining.length) return null;
    return t("Waiting for {join} to take their seat: the game starts once every side has.", { join: joining.map((side) => this.partyName(view, side)).join(", ") });
  }

  waiting(view) {
    const fairness = view.fairness || {};
    if (!fairness.request || !this.pending) return null;
    // This page itself, when it refused the roll: it is not slow, and will not give it.
    const refused = this.refusedRoll(fairness.request.k);
    const parties = (fairness.waiting || []).map((p) => (p === this.me && refused ? t("this page, which will not give its share (see the alarm)") : this.partyName(view, p)));
    return parties.length ? parties.join(", ") : null;
  }

  /** The Fairness panel's content. */
  panel(view) {
    this.title = view.title; // names the record's file
    const rows = [];
    if (this.me) {
      rows.push(this.chainRow(view));
      const receipts = this.kept || this.receipts();
      const heads = receipts.heads;
      const latest = heads.reduce((a, b) => (b.seq > (a ? a.seq : -1) ? b : a), null);
      rows.push(
        h(
          "p",
          { class: "fair-receipts" },
          t("Receipts kept: {length}", { length: heads.length + receipts.requests.length }),
          latest ? t(" (latest signed head: event {seq}, ", { seq: latest.seq }) : "",
          latest ? h("code", {}, short(latest.hash)) : "",
          latest ? ")." : ".",
          this.storage.persistent ? "" : t(" This browser keeps no storage for this page: they are lost when it closes."),
        ),
      );
      const others = (view.sides || []).filter((s) => s.id !== this.me);
      rows.push(
        h(
          "ul",
          { class: "fair-roots" },
          others.map((side) => {
            const roots = (view.log || []).map((e) => e.proof && e.proof.roots && e.proof.roots[side.id]).filter(Boolean);
            return h(
              "li",
              { dataset: { side: side.id } },
              tn("{side}: {n} commitment to its secrets received", "{side}: {n} commitments to its secrets received", roots.length, { side: side.name }),
              roots.length ? [t(", latest "), h("code", {}, short(roots[roots.length - 1]))] : "",
              ".",
            );
          }),
        ),
      );
      const checked = [...this.checks.values()].flat();
      if (checked.length) {
        const good = checked.filter((c) => c.ok === true).length;
        const bad = checked.filter((c) => c.ok === false).length;
        const matched = tn("Revealed secrets checked against their commitments: {n} matches", "Revealed secrets checked against their commitments: {n} match", good);
        const failed = bad ? tn(", {n} does NOT", ", {n} do NOT", bad) : "";
        rows.push(h("p", { class: "fair-openings" }, `${matched}${failed}.`));
      }
    } else {
      // The referee's page plays no side: it holds no chain and no receipts, so it has
      // nothing to check; say so, rather than show an empty panel.
      rows.push(h("p", { class: "fair-referee" }, t("This page plays no side, so it holds no dice chain and keeps no receipts: each side's page checks the host as the game goes, and ghillie audit checks the whole record after it.")));
    }
    const joining = this.joiningNote(view);
    if (joining) rows.push(h("p", { class: "fair-joining" }, joining));
    const waiting = this.waiting(view);
    if (waiting) {
      rows.push(h("p", { class: "fair-waiting" }, `${this.rollWords(view)} is waiting for: ${waiting}.`));
    }
    if (this.problem) rows.push(h("p", { class: "message error fair-problem" }, this.problem));
    const archived = (view.fairness || {}).archived;
    if (archived !== undefined) {
      rows.push(h("p", { class: "message error fair-archived" }, t("This game was started under an earlier version of ghillie's fairness rules and cannot go on here. Download its record and check it with ghillie audit --unfinished.")));
    }
    if (view.phase === "over" || archived !== undefined) rows.push(this.recordBox());
    return h("div", {}, rows);
  }

  chainRow(view) {
    const texts = {
      page: ["fair-chain page", t("Your share of every roll comes from a dice chain held by this page: the host cannot know it in advance or steer the rolls.")],
      host: ["fair-chain host", t("Your dice chain is held by the host, not by this page: the host could steer the rolls. (The game was created without the pages' contributions.)")],
      unlisted: ["fair-chain unlisted message error", t("The host's record of this game does not roll your dice from the chain this page holds: the host could steer the rolls (see the alarm).")],
      elsewhere: ["fair-chain elsewhere message error", t("This device holds the seat of {side} but not its dice chain (was this browser's storage cleared?). Rolls wait for it: start a new dice chain on this device.", { side: sideName(view, this.me) })],
      none: ["fair-chain none", t("This server says nothing of who holds your dice chain.")],
    };
    const [cls, text] = texts[this.chainState] || texts.none;
    return h("p", { class: cls, dataset: { holder: this.chainState } }, text);
  }

  recordBox() {
    const name = recordName(this.title);
    const note = h("p", { class: "message", "aria-live": "polite" });
    const button = h("button", { type: "button", class: "primary record-button" }, t("Download the game record"));
    button.addEventListener("click", () => this.download(button, note));
    return h(
      "div",
      { class: "fair-record" },
      button,
      note,
      h("p", { class: "hint" }, t("Check it with: "), h("code", {}, `ghillie audit ${name}`)),
    );
  }

  async download(button, note) {
    button.disabled = true;
    note.className = "message pending";
    note.textContent = t("Fetching the record…");
    try {
      // The record's own text, not parsed and written again: JavaScript has one kind of
      // number, so 4.0 would come back as 4, and the audit accepts a record only in the one
      // form the host wrote it. The receipts go in as the object's last field.
      let text = await api.recordText(this.game, this.token);
      if (this.me) {
        const receipts = JSON.stringify({ [this.me]: this.receipts() });
        text = text.replace(/\}\s*$/, `,"receipts":${receipts}}`);
      }
      const name = recordName(this.title);
      saveFile(name, text);
      note.className = "message ok";
      note.textContent = t("Saved as {name}{receipts}.", { name, receipts: this.me ? t(", with this page's receipts") : "" });
    } catch (error) {
      note.className = "message error";
      note.textContent = error instanceof api.Problem ? error.message : t("Could not fetch the record. Try again.");
    } finally {
      button.disabled = false;
    }
  }

  /** Lines for a log entry: each opening shown to this side, checked, in the players' words
   * (the view's `secret_words`). Openings of one piece that checked alike, against the same
   * roots, make one line: "What marker M1 hides (a unit: Machine-gun position)". */
  openingLines(entry) {
    const groups = [];
    for (const check of this.checks.get(entry.seq) || []) {
      const { opening, ok, missing } = check;
      if (!opening || typeof opening !== "object") {
        groups.push({ bad: true });
        continue;
      }
      const written = opening.written && typeof opening.written === "object" ? opening.written.seq : undefined;
      const at = isCount(written) ? written : null;
      const last = groups[groups.length - 1];
      const alike = (g) =>
        g && !g.bad && g.opening.piece === opening.piece && g.ok === ok && g.missing === missing && g.at === at && g.opening.root_seq === opening.root_seq;
      if (alike(last)) last.values.push(this.factValue(opening));
      else groups.push({ opening, ok, missing, at, values: [this.factValue(opening)] });
    }
    return groups.map((g) => this.openingLine(g));
  }

  openingLine({ bad, opening, ok, missing, at, values }) {
    if (bad) return h("p", { class: "line opening opening-bad" }, t("✗ Something revealed here does NOT match its commitment — {audit}.", { audit: audit() }));
    const what = `${this.factName(opening)} (${values.join(": ")})`;
    // root_seq is the event before this one whenever the opening was checked at all, and
    // a write proof that checked names an event no later.
    const rootSeq = opening.root_seq;
    if (ok === true && at !== null) {
      const published = at === rootSeq ? t("the commitment published then") : t("the commitments published then and at event {n}", { n: rootSeq });
      return h("p", { class: "line opening opening-ok" }, t("✓ {what} was written at event {at} and has not changed since: it matches {published}.", { what, at, published }));
    }
    if (ok === true) {
      return h("p", { class: "line opening opening-ok" }, t("✓ {what}: matches the commitment published at event {n}.", { what, n: rootSeq }));
    }
    if (ok === false) {
      const events = isCount(rootSeq) ? (at !== null && at !== rootSeq ? t(" (events {at} and {n})", { at, n: rootSeq }) : t(" (event {n})", { n: rootSeq })) : "";
      return h("p", { class: "line opening opening-bad" }, t("✗ {what} does NOT match its commitment{events} — {audit}.", { what, events, audit: audit() }));
    }
    return h("p", { class: "line opening opening-unknown" }, t("? {what}: this page never received the commitment of event {n} to check it against.", { what, n: missing }));
  }

  /** The opened fact of a piece, as its players name it ("What marker M1 hides"). */
  factName(opening) {
    const piece = this.names.get(opening.piece) || short(opening.piece).slice(0, 8);
    const words = this.secretWords.get(opening.key);
    const what = words && typeof words.what === "string" ? words.what : t("A secret of {piece}");
    return what.split("{piece}").join(piece);
  }

  /** An opened value in words: the ruleset's for it, a piece's name, or as it is. */
  factValue(opening) {
    const words = this.secretWords.get(opening.key);
    const values = words && Array.isArray(words.values) ? words.values : [];
    const found = values.find((pair) => Array.isArray(pair) && pair[0] === opening.value && typeof pair[1] === "string");
    return found ? found[1] : this.value(opening.value);
  }

  value(v) {
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (v === null || v === undefined) return "nothing";
    if (typeof v === "string") return this.names.get(v) || v;
    return JSON.stringify(v);
  }
}
