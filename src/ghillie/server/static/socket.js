// The live connection of one side: the whole view on connect, then updates after every
// event. It reconnects by itself (with growing, jittered delays so a restarted server is not
// stormed) and each new connection starts with the whole view again, which is the resync.

const BAD_LINK = 4404; // the token does not open this game
const FELL_BEHIND = 4008; // the server dropped us for being slow: reconnect and resync

/** Merge a log into the one we hold, by sequence number: entries we already have are
 * replaced by the newer copy, later ones appended; nothing is shown twice. */
export function mergeLog(held, incoming) {
  if (!incoming.length) return held;
  const first = incoming[0].seq;
  return held.filter((entry) => entry.seq < first).concat(incoming);
}

export class Live {
  /**
   * @param {string} game the game id
   * @param {string} token the side's capability token
   * @param {{onView: (view: object, whole: boolean) => void,
   *   onStatus: (status: string, detail?: string) => void,
   *   onMessage?: (message: object) => void, hello?: () => object}} hooks onView gets the merged view (whole: a
   *   new connection's or a resync's view, with every key); onMessage gets anything else the
   *   server sends (the roll protocol's "fair" replies, the seat, problems); hello gives
   *   fields for the first message
   */
  constructor(game, token, hooks) {
    this.game = game;
    this.token = token;
    this.hooks = hooks;
    this.view = null;
    this.delay = 500;
    this.closed = false;
    this.socket = null;
  }

  get lastSeq() {
    const log = this.view ? this.view.log : [];
    return log.length ? log[log.length - 1].seq : -1;
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  start() {
    this.closed = false;
    this.connect();
  }

  stop() {
    this.closed = true;
    if (this.socket) this.socket.close(1000);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/api/games/${encodeURIComponent(this.game)}/ws`;
    this.hooks.onStatus("connecting");
    const socket = new WebSocket(url);
    // Frames are JSON text; should one come binary, decode it in order (a Blob would not be).
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.addEventListener("open", () => {
      // The token goes in the first message, not the URL, so it stays out of access logs.
      // The reader's languages, best first: the server speaks the first it can.
      // With it, what the page adds (its seat key: seat.js).
      const extra = this.hooks.hello ? this.hooks.hello() : {};
      socket.send(JSON.stringify({ ...extra, type: "auth", token: this.token, lang: [...(navigator.languages || [])] }));
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => this.closedWith(socket, event.code));
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
    } catch {
      return;
    }
    if (message.type === "view") {
      this.delay = 500; // a good connection: the next outage starts with short waits again
      this.hooks.onStatus("live");
      // The first view comes with this device's seat (seat.js), taken in first.
      if (message.seat && this.hooks.onMessage) this.hooks.onMessage({ type: "seat", seat: message.seat });
      this.accept(message.view, true);
    } else if (message.type === "update") {
      this.accept(message.view, false);
    } else if (this.hooks.onMessage) {
      // A seat that is not this page's comes with no view: the connection is live all the same.
      if (message.type === "seat") this.hooks.onStatus("live");
      this.hooks.onMessage(message);
    }
  }

  /** Send a message on the socket if it is open; false if it is not (use HTTP then). */
  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Take a view from the server, or from an HTTP fetch made while the socket was down. */
  accept(view, whole) {
    const incoming = view.log || [];
    if (!whole && this.view && incoming.length && incoming[0].seq > this.lastSeq + 1) {
      // We missed something (should not happen on one connection): ask for what is missing.
      this.resync();
      return;
    }
    if (!whole && this.view && incoming.length && incoming[incoming.length - 1].seq <= this.lastSeq) {
      return; // nothing new (an update we already got in the whole view)
    }
    // Otherwise take it even without new events: a whole view after a reconnection, or an
    // update that changes only the roll protocol's state (a roll asked for, a party in).
    const log = this.view ? mergeLog(this.view.log, incoming) : incoming;
    // An update carries only the parts of the view that changed (and the new log entries).
    this.view = whole || !this.view ? { ...view, log } : { ...this.view, ...view, log };
    this.hooks.onView(this.view, whole);
  }

  resync() {
    if (this.open) this.socket.send(JSON.stringify({ type: "resync", after: this.lastSeq }));
  }

  closedWith(socket, code) {
    if (socket !== this.socket || this.closed) return;
    this.socket = null;
    if (code === BAD_LINK) {
      this.closed = true;
      this.hooks.onStatus("bad-link");
      return;
    }
    const wait = code === FELL_BEHIND ? 0 : this.delay * (0.75 + Math.random() / 2);
    this.delay = Math.min(this.delay * 2, 15000);
    this.hooks.onStatus("offline", Math.round(wait / 1000));
    setTimeout(() => {
      if (!this.closed) this.connect();
    }, wait);
  }
}
