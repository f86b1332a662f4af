// Verifiable fairness in the browser: the same bytes and hashes as the Python package
// ghillie.fairness (encoding, commitment, chains, roster), so that a side's page can make its
// own hash chain and check what the host opens to it, without trusting the host.
//
// Pure JavaScript on purpose: phones reach the server over plain http on the club's LAN, which
// is not a secure context, so crypto.subtle does not exist there. crypto.getRandomValues does.
// The hashes and signatures come from @noble/hashes and @noble/curves, not from code of ours.
// Bytes are Uint8Array, hex is lowercase. tests/server/test_fair_js.py checks every function
// here against the Python package, byte for byte.

// --- SHA-256, HMAC and Ed25519, from the audited @noble libraries ------------------------------

// Vendored from npm at pinned versions by scripts/vendor-js (static/vendor/MANIFEST.json):
// pure JavaScript, so they work where crypto.subtle does not exist.
import { ed25519 } from "./vendor/noble-curves/ed25519.js";
import { hmac } from "./vendor/noble-hashes/hmac.js";
import { sha256 as nobleSha256 } from "./vendor/noble-hashes/sha2.js";

/** SHA-256 of the parts, concatenated (like the Python helper, which takes `*parts`). */
export function sha256(...parts) {
  return nobleSha256(concat(...parts));
}

/** HMAC-SHA256 (RFC 2104): a key longer than the 64-byte block is hashed first. */
export function hmacSha256(key, data) {
  return hmac(nobleSha256, key, data);
}

// --- bytes --------------------------------------------------------------------------------------

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function equal(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function hex(bytes) {
  return Array.from(bytes, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Bytes from hex. Accepts exactly what Python's bytes.fromhex accepts (either case, ASCII
 * whitespace between bytes), so that checkOpening agrees with check_opening on any input. */
export function unhex(str) {
  if (typeof str !== "string") throw new TypeError("hex must be a string");
  const out = [];
  for (let i = 0; i < str.length; ) {
    if (" \t\n\v\f\r".includes(str[i])) {
      i++;
      continue;
    }
    const pair = str.slice(i, i + 2);
    if (!/^[0-9a-f]{2}$/i.test(pair)) throw new SyntaxError(`not hex at position ${i}`);
    out.push(parseInt(pair, 16));
    i += 2;
  }
  return Uint8Array.from(out);
}

// A lone surrogate has no UTF-8 form: Python refuses to encode one, and TextEncoder would
// silently write U+FFFD instead, which would hash different bytes. So refuse too.
const LONE_SURROGATE = /\p{Surrogate}/u;
const encoder = new TextEncoder();

export function utf8(str) {
  if (typeof str !== "string") throw new TypeError("text must be a string");
  if (LONE_SURROGATE.test(str)) throw new RangeError("a lone surrogate has no UTF-8 form");
  return encoder.encode(str);
}

// --- the encodings every fairness hash is built from (ghillie.fairness.encoding) ----------------

/** `bytes` with its length in front (4 bytes, big-endian). */
export function lp(bytes) {
  return concat(u32(bytes.length), bytes);
}

export function u32(n) {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new RangeError(`${n} is not a u32`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

/** 8 bytes big-endian. `n` is a safe integer or a BigInt: a Number above 2^53 may already
 * have lost its low bits, so it is refused rather than encoded as some other number. */
export function u64(n) {
  if (typeof n !== "bigint" && !Number.isSafeInteger(n)) throw new RangeError(`${n} is not a u64`);
  const big = BigInt(n);
  if (big < 0n || big >= 1n << 64n) throw new RangeError(`${n} is not a u64`);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, big);
  return out;
}

export function text(str) {
  return lp(utf8(str));
}

/** The domain tag `ghillie/<name>\x00`. */
export function tag(name) {
  return concat(utf8("ghillie/" + name), Uint8Array.of(0));
}

/** RFC 8785 canonical JSON, as UTF-8. JSON.stringify already writes strings and numbers the
 * way RFC 8785 asks (§3.2.2: ES string escaping, ES Number-to-string, -0 as 0); what is left
 * is sorting keys by UTF-16 code units, which is what the default sort compares. Anything
 * that is not JSON throws (NaN, Infinity, undefined, lone surrogates, class instances), as
 * Python's rfc8785 does. Numbers are not told apart by type: an integer beyond 2^53 is written
 * like the float it became, which is what rfc8785 does for a Python float. */
export function canonical(value) {
  return utf8(json(value));
}

function json(value) {
  switch (typeof value) {
    case "boolean":
      return String(value);
    case "number":
      if (!Number.isFinite(value)) throw new RangeError(`${value} is not representable in JSON`);
      return JSON.stringify(value);
    case "string":
      if (LONE_SURROGATE.test(value)) throw new RangeError("a lone surrogate has no UTF-8 form");
      return JSON.stringify(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return `[${Array.from(value, json).join(",")}]`;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) break;
      const keys = Object.keys(value).sort();
      return `{${keys.map((key) => `${json(key)}:${json(value[key])}`).join(",")}}`;
    }
  }
  throw new TypeError(`not a JSON value (${typeof value})`);
}

// --- commitments (ghillie.fairness.commitment) --------------------------------------------------

export const SALT_BYTES = 32;

/** A fresh random 32-byte value: a chain seed, or a commitment salt. */
export function newSeed() {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** `C = SHA-256(lp(salt) + msg)` as hex, where `msg` names what is committed to. */
export function commit(kind, gameId, owner, seq, payload, salt) {
  if (!(salt instanceof Uint8Array) || salt.length !== SALT_BYTES) {
    throw new RangeError("a commitment salt is 32 bytes");
  }
  const msg = concat(tag("commit/v1"), text(kind), text(gameId), text(owner), u64(seq));
  return hex(sha256(lp(salt), msg, lp(canonical(payload))));
}

// --- per-side rosters (ghillie.fairness.roster, rosters v3) -------------------------------------

const LEAF_TAG = tag("leaf/v3");

/** The root of event `seq` over a sorted list of leaves, under that root's nonce. */
function publishedRoot(gameId, side, seq, nonce, leaves) {
  const hashed = sha256(tag("leaves/v3"), ...leaves);
  return hex(sha256(tag("roster/v3"), text(gameId), text(side), u64(seq), u32(leaves.length), lp(nonce), lp(hashed)));
}

const OPENING = "blind,key,leaves,nonce,piece,root_seq,salt,side,value";

/** Does `opening` ({side, piece, key, value, salt, blind, root_seq, nonce, leaves}) lead to
 * the published `root` of a roster of `size` slots? The leaves are every slot's leaf of that
 * root, sorted; the fact's own leaf must be among them, and with the root's nonce they must
 * hash to it. An opening of a fact that never changes also says when it was written
 * (`written`: {seq, blind, nonce, leaves}, seq no later than root_seq): the same fact's leaf
 * must then be among the leaves of `writtenRoot`, the root published at that event. Anything
 * malformed is simply false. */
export function checkOpening(gameId, opening, root, size, writtenRoot) {
  try {
    const { side, piece, key, value, salt, root_seq: rootSeq } = opening;
    const fields = Object.keys(opening).sort().join(",");
    if (fields !== OPENING && fields !== `${OPENING},written`) return false;
    if (!Number.isInteger(size) || !Number.isSafeInteger(rootSeq)) return false;
    // A missing field reads as undefined, which commit refuses, as Python's KeyError.
    const digest = unhex(commit("fact", gameId, side, 0, { piece, key, value }, unhex(salt)));
    if (!leads(gameId, side, digest, rootSeq, opening, root, size)) return false;
    if (fields === OPENING) return true;
    const written = opening.written;
    if (written === null || typeof written !== "object" || Array.isArray(written)) return false;
    if (Object.keys(written).sort().join(",") !== "blind,leaves,nonce,seq") return false;
    const seq = written.seq;
    if (!Number.isSafeInteger(seq) || seq < 0 || seq > rootSeq) return false;
    return typeof writtenRoot === "string" && leads(gameId, side, digest, seq, written, writtenRoot, size);
  } catch {
    return false;
  }
}

/** Is the fact's leaf under `proof.blind` among `proof.leaves` (every slot's, sorted), and
 * do they hash, with `proof.nonce`, to `root`, the root of event `seq`? */
function leads(gameId, side, digest, seq, proof, root, size) {
  const { blind, nonce, leaves } = proof;
  if (!Array.isArray(leaves) || leaves.length !== size) return false;
  const bytes = leaves.map(unhex);
  if (bytes.some((x) => x.length !== 32)) return false;
  const canon = bytes.map(hex); // sorted as bytes: lowercase hex of one length sorts alike
  for (let i = 1; i < canon.length; i++) if (!(canon[i - 1] < canon[i])) return false;
  const b = unhex(blind);
  const n = unhex(nonce);
  if (b.length !== 32 || n.length !== 32) return false;
  const mine = hex(sha256(LEAF_TAG, lp(b), lp(digest)));
  if (!canon.includes(mine)) return false;
  return publishedRoot(gameId, side, seq, n, bytes) === root;
}

// --- hash chains (ghillie.fairness.chains) ------------------------------------------------------

export const LENGTH = 4096; // rolls per anchor (TRUST.md: N = 4096)
const CHAIN_TAG = tag("chain/v1"); // made once: a page walks all 4096 links on every load

/** The element before `element` in its chain. */
export function back(element) {
  return sha256(CHAIN_TAG, element);
}

/** Is `element` the next one after `previous` (`steps` later: the elements between were
 * never given, their rolls drawn without them)? */
export function links(previous, element, steps = 1) {
  if (!Number.isSafeInteger(steps) || steps < 1 || steps > LENGTH) return false;
  let e = element;
  for (let i = 0; i < steps; i++) e = back(e);
  return equal(e, previous);
}

/** The seed of the chain that follows the one of `seed` once its elements run out
 * (ghillie.fairness.chains.renewed): derived, so a reload makes the same. */
export function renewed(seed) {
  return sha256(tag("chain-renew/v1"), seed);
}

/** All of one party's elements from its secret seed: `anchor` is x_0, which is published;
 * `element(k)` is x_{k+1}, the contribution to roll k (0-based), sent only when asked. */
export function chainFromSeed(seed, length = LENGTH) {
  const elements = [seed];
  for (let i = 0; i < length; i++) elements.push(back(elements[i]));
  elements.reverse();
  return {
    anchor: elements[0],
    length,
    element(k) {
      if (!Number.isInteger(k) || k < 0 || k >= length) {
        throw new RangeError("this chain has no element for that roll");
      }
      return elements[k + 1];
    },
  };
}

// --- the host's signatures (ghillie.fairness.hashlog) --------------------------------------------

// One spelling only, as the audit asks: lowercase hex of exact length. A signature in capitals
// would verify, yet be another receipt than the one the record holds.
const HEX32 = /^[0-9a-f]{64}$/;
const HEX64 = /^[0-9a-f]{128}$/;

/** What the host signs once after event `seq`: the head, and every side's salted digest of
 * what it was shown of the event, in the game's side order. */
export function headMessage(gameId, seq, hash, shown) {
  return concat(tag("head/v2"), text(gameId), u64(seq), lp(hash), u32(shown.length), ...shown.map(lp));
}

/** What the host signs when it asks every party for roll `k`: the request's fields and the
 * digest of the side's signed order it is for ("" for none). */
export function requestMessage(gameId, k, side, commitment, prev, order) {
  return concat(tag("request/v2"), text(gameId), u64(k), text(side ?? ""), text(commitment), lp(prev), text(order));
}

/** Is `signature` the Ed25519 signature of `message` under `publicKey` (both hex)?
 * RFC 8032 verification without ZIP-215's leniency: non-canonical encodings and keys of small
 * order (under which "signatures" verify for any message) fail. Anything malformed is false. */
export function verify(publicKey, message, signature) {
  if (typeof publicKey !== "string" || !HEX32.test(publicKey)) return false;
  if (typeof signature !== "string" || !HEX64.test(signature)) return false;
  try {
    return ed25519.verify(unhex(signature), message, unhex(publicKey), { zip215: false });
  } catch {
    return false;
  }
}

/** Did the host sign this head ({seq, hash, sig, shown}: shown, every side's digest in the
 * game's side order) of game `gameId` with `publicKey`? */
export function verifyHead(publicKey, gameId, head) {
  try {
    const { seq, hash, sig, shown } = head;
    if (!Number.isSafeInteger(seq) || typeof hash !== "string" || !HEX32.test(hash)) return false;
    if (!Array.isArray(shown) || !shown.length || !shown.every((d) => typeof d === "string" && HEX32.test(d))) return false;
    return verify(publicKey, headMessage(gameId, seq, unhex(hash), shown.map(unhex)), sig);
  } catch {
    return false;
  }
}

/** Did the host sign this roll request ({k, side, commitment, prev, order, sig}) with
 * `publicKey`? */
export function verifyRequest(publicKey, gameId, request) {
  try {
    const { k, side, commitment, prev, order, sig } = request;
    if (!Number.isSafeInteger(k) || (side !== null && typeof side !== "string")) return false;
    if (typeof commitment !== "string" || !HEX32.test(commitment)) return false;
    if (typeof prev !== "string" || !HEX32.test(prev)) return false;
    if (typeof order !== "string" || (order !== "" && !HEX32.test(order))) return false;
    return verify(publicKey, requestMessage(gameId, k, side, commitment, unhex(prev), order), sig);
  } catch {
    return false;
  }
}

/** The hash the log's first event follows: `H(tag("genesis/v1") + text(game))`; the request
 * for roll 0 names it as the head before. */
export function genesis(gameId) {
  return sha256(tag("genesis/v1"), text(gameId));
}

// --- what a side was shown of an event (ghillie.fairness.hashlog.shown_digest_v2) ---------------

/** The salted digest of what a side's log entry ({seq, lines, proof}) shows of its event: the
 * lines, the head's hash, the roots, the contributions, the openings, (event 0) the set-up,
 * and where the event has them a side's new dice chain or seat key and the digest of the
 * order it carries out. `proof.shown.salt` is this side's salt. Throws on an entry that is not
 * JSON of that shape. */
export function shownDigest(entry) {
  const { seq, lines, proof } = entry;
  if (proof === null || typeof proof !== "object") throw new TypeError("a log entry has a proof");
  const salt = unhex(proof.shown && proof.shown.salt);
  if (salt.length !== 32) throw new TypeError("a salt is 32 bytes");
  const content = {
    seq,
    hash: proof.hash,
    lines,
    roots: proof.roots,
    contributions: proof.contributions,
    openings: proof.openings,
  };
  if (proof.setup !== undefined) content.setup = proof.setup;
  for (const name of ["chains", "keys", "order", "missing"]) if (proof[name] !== undefined) content[name] = proof[name];
  return sha256(tag("shown/v2"), lp(salt), lp(canonical(content)));
}

/** The head as a page keeps it: its own digest, computed from what it was shown, in its place
 * among the others' (the game's side order, `sides`). Null if the entry lacks any of them. */
export function headReceipt(entry, me, sides) {
  const { seq, proof } = entry;
  const digests = proof.shown && proof.shown.digests;
  if (!digests || typeof digests !== "object") return null;
  const mine = hex(shownDigest(entry));
  const shown = sides.map((side) => (side === me ? mine : digests[side]));
  if (shown.some((d) => typeof d !== "string")) return null;
  return { seq, hash: proof.hash, sig: proof.sig, shown };
}

// --- a side's seat key: what it signs of its own orders (ghillie.fairness.hashlog) -------------

/** A new seat key for this device: {secret, public}, both hex. The secret never leaves it. */
export function newSeatKey() {
  const secret = ed25519.utils.randomSecretKey();
  return { secret: hex(secret), public: hex(ed25519.getPublicKey(secret)) };
}

/** The public key of a seat key's secret (hex). */
export function seatPublic(secret) {
  return hex(ed25519.getPublicKey(unhex(secret)));
}

/** What a side's seat key signs when it gives a command: this game, this roll, this side and
 * command id, and the command exactly as sent (RFC 8785). */
export function orderMessage(gameId, k, side, commandId, command) {
  return concat(tag("order/v1"), text(gameId), u64(k), text(side), text(commandId), lp(canonical(command)));
}

/** The seat key's signature of an order (hex). */
export function signOrder(secret, gameId, k, side, commandId, command) {
  return hex(ed25519.sign(orderMessage(gameId, k, side, commandId, command), unhex(secret)));
}

/** What the host's roll request quotes of a side's signature on its order. */
export function orderDigest(signature) {
  return hex(sha256(tag("order-digest/v1"), unhex(signature)));
}
