// The public JSON API, and nothing else. A side's token travels only in the Authorization
// header (never in a URL), so it stays out of server logs and browser history.

/** A refusal or error from the server: RFC 9457 problem JSON. `detail` is for the player. */
export class Problem extends Error {
  constructor(body, status) {
    super(body && body.detail ? body.detail : `The server answered ${status}.`);
    this.code = body && body.code ? body.code : "http_" + status;
    this.status = status;
    this.body = body;
  }
}

/** A fresh id. crypto.randomUUID exists only in secure contexts (https, localhost); a phone
 * on the club's Wi-Fi opens plain http://192.168.…, so fall back to getRandomValues. */
export function newId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The seat key of this page's device (seat.js): sent with a side's token, so that the server
// knows the device that holds the seat.
let seatKey = null;
export const useSeat = (key) => {
  seatKey = key || null;
};

async function call(method, path, { token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (token && seatKey) headers["X-Ghillie-Seat"] = seatKey;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Problem(data, response.status);
  return data;
}

export const rulesets = () => call("GET", "/api/rulesets");
export const scenarios = () => call("GET", "/api/scenarios");
export const createGame = (body) => call("POST", "/api/games", { body });
export const view = (game, token, after = -1) =>
  call("GET", `/api/games/${encodeURIComponent(game)}/view?after=${after}`, { token });
export const story = (game, token, seq) =>
  call("GET", `/api/games/${encodeURIComponent(game)}/story?seq=${seq}`, { token });
export const odds = (game, token, command) =>
  call("POST", `/api/games/${encodeURIComponent(game)}/odds`, { token, body: { command } });
// The roll protocol over HTTP, for when the websocket is down (the socket is the usual way).
export const anchor = (game, token, hexAnchor, key) =>
  call("POST", `/api/games/${encodeURIComponent(game)}/anchor`, { token, body: { anchor: hexAnchor, ...(key ? { key } : {}) } });
export const offerMove = (game, token) =>
  call("POST", `/api/games/${encodeURIComponent(game)}/seat/offer`, { token });
/** Which sides' seats a device has taken (any link of the game). */
export const seats = (game, token) => call("GET", `/api/games/${encodeURIComponent(game)}/seats`, { token });
export const contribute = (game, token, k, element) =>
  call("POST", `/api/games/${encodeURIComponent(game)}/contributions`, { token, body: { k, element } });
/** The whole record of a finished game, every secret in it (409 game_not_over before), as
 * the server wrote it: parsing it would turn 4.0 into 4, and the audit takes one form only. */
export async function recordText(game, token) {
  const response = await fetch(`/api/games/${encodeURIComponent(game)}/record`, {
    headers: { Accept: "application/json", Authorization: `Bearer ${token}` },
    cache: "no-store",
  });
  const text = await response.text();
  if (!response.ok) {
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    throw new Problem(body, response.status);
  }
  if (!/^\s*\{[\s\S]*\}\s*$/.test(text)) throw new Problem(null, response.status);
  return text;
}

const RETRY_STATUS = new Set([502, 503, 504]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Give a command. A network failure leaves us not knowing whether the server got it, so we
 * retry with the SAME command_id: the server answers a repeated id with its first answer
 * and never applies a command twice. */
export async function command(game, token, cmd, { attempts = 6 } = {}) {
  const commandId = newId();
  const path = `/api/games/${encodeURIComponent(game)}/commands`;
  let wait = 400;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call("POST", path, { token, body: { command_id: commandId, command: cmd } });
    } catch (error) {
      const transient = !(error instanceof Problem) || RETRY_STATUS.has(error.status);
      if (!transient || attempt >= attempts) throw error;
      await sleep(wait);
      wait = Math.min(wait * 2, 5000);
    }
  }
}
