// Verifiable fairness in the browser: the same bytes and hashes as the Python package
// ghillie.fairness (encoding, commitment, chains, roster), so that a side's page can make its
// own hash chain and check what the host opens to it, without trusting the host.
//
// Pure JavaScript on purpose: phones reach the server over plain http on the club's LAN, which
// is not a secure context, so crypto.subtle does not exist there. crypto.getRandomValues does.
// Bytes are Uint8Array, hex is lowercase. tests/server/test_fair_js.py checks every function
// here against the Python package, byte for byte.

// --- SHA-256 (FIPS 180-4) and HMAC (RFC 2104) ---------------------------------------------------

// First 32 bits of the fractional parts of the cube roots of the first 64 primes (§4.2.2).
const K = Uint32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);
// First 32 bits of the fractional parts of the square roots of the first 8 primes (§5.3.3).
const IV = Uint32Array.of(
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
);
const W = new Uint32Array(64); // the message schedule, reused: a Uint32Array store wraps mod 2^32

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of the parts, concatenated (like the Python helper, which takes `*parts`). */
export function sha256(...parts) {
  const data = concat(...parts);
  const n = data.length;
  // Padding (§5.1.1): 0x80, zeros, then the message length in bits as 64 bits big-endian.
  const block = new Uint8Array(Math.ceil((n + 9) / 64) * 64);
  block.set(data);
  block[n] = 0x80;
  const view = new DataView(block.buffer);
  view.setUint32(block.length - 8, Math.floor(n / 2 ** 29)); // high word of n * 8
  view.setUint32(block.length - 4, (n * 8) >>> 0);
  const H = IV.slice();
  for (let at = 0; at < block.length; at += 64) {
    for (let t = 0; t < 16; t++) W[t] = view.getUint32(at + 4 * t);
    for (let t = 16; t < 64; t++) {
      const a = W[t - 15];
      const b = W[t - 2];
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      W[t] = W[t - 16] + s0 + W[t - 7] + s1;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let t = 0; t < 64; t++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + W[t]) | 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    H[0] += a;
    H[1] += b;
    H[2] += c;
    H[3] += d;
    H[4] += e;
    H[5] += f;
    H[6] += g;
    H[7] += h;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  H.forEach((word, i) => outView.setUint32(4 * i, word));
  return out;
}

/** HMAC-SHA256 (RFC 2104): a key longer than the 64-byte block is hashed first. */
export function hmacSha256(key, data) {
  const padded = new Uint8Array(64);
  padded.set(key.length > 64 ? sha256(key) : key);
  const inner = padded.map((x) => x ^ 0x36);
  const outer = padded.map((x) => x ^ 0x5c);
  return sha256(outer, sha256(inner, data));
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

// --- per-side rosters (ghillie.fairness.roster) ------------------------------------------------

const LEAF_TAG = tag("leaf/v2");

function publishedRoot(gameId, side, seq, leaves) {
  return hex(sha256(tag("roster/v2"), text(gameId), text(side), u64(seq), u32(leaves.length), ...leaves));
}

/** Does `opening` ({side, piece, key, value, salt, blind, root_seq, leaves}) lead to the
 * published `root` of a roster of `size` slots? The leaves are every slot's leaf of that
 * root, sorted; the fact's own leaf must be among them. Anything malformed is simply false. */
export function checkOpening(gameId, opening, root, size) {
  try {
    const { side, piece, key, value, salt, blind, root_seq: rootSeq, leaves } = opening;
    const fields = Object.keys(opening).sort().join(",");
    if (fields !== "blind,key,leaves,piece,root_seq,salt,side,value") return false;
    if (!Number.isInteger(size) || !Array.isArray(leaves) || leaves.length !== size) return false;
    const bytes = leaves.map(unhex);
    if (bytes.some((x) => x.length !== 32)) return false;
    const canon = bytes.map(hex); // sorted as bytes: lowercase hex of one length sorts alike
    for (let i = 1; i < canon.length; i++) if (!(canon[i - 1] < canon[i])) return false;
    const b = unhex(blind);
    if (b.length !== 32) return false;
    // A missing field reads as undefined, which commit refuses, as Python's KeyError.
    const digest = unhex(commit("fact", gameId, side, 0, { piece, key, value }, unhex(salt)));
    const mine = hex(sha256(LEAF_TAG, lp(b), lp(digest)));
    if (!canon.includes(mine)) return false;
    return publishedRoot(gameId, side, rootSeq, bytes) === root;
  } catch {
    return false;
  }
}

// --- hash chains (ghillie.fairness.chains) ------------------------------------------------------

export const LENGTH = 4096; // rolls per anchor (TRUST.md: N = 4096)
const CHAIN_TAG = tag("chain/v1"); // made once: a page walks all 4096 links on every load

/** The element before `element` in its chain. */
export function back(element) {
  return sha256(CHAIN_TAG, element);
}

/** Is `element` the next one after `previous`? */
export function links(previous, element) {
  return equal(back(element), previous);
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
