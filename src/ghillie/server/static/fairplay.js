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

// The page's part is in four modules, methods of the one FairPlay object here, which holds the
// state they share: fairprotocol.js (the exchange with the server: the chain, the anchor, each
// roll's element, signed orders), fairreceipts.js (what the page keeps and the checks of what
// the host sends), fairtime.js (the host's time held to account) and fairpanel.js (what the
// page shows of it).

import { HostClock } from "./panels.js";
import { pieceName } from "./pieces.js";
import { showing } from "./fairpanel.js";
import { exchange } from "./fairprotocol.js";
import { KeptStore, keeping } from "./fairreceipts.js";
import { timing } from "./fairtime.js";

export { recordName } from "./fairpanel.js";
export { KeptStore, alarmsKey, chainFromKey, chainKey, gaveKey, receiptsKey, signingFromKey, signingKey } from "./fairreceipts.js";

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
}

Object.assign(FairPlay.prototype, keeping, timing, exchange, showing);
