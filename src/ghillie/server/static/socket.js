// The live connection of one side: the whole view on connect, then updates after every
// event, and the side's orders the other way (outbox.js). It reconnects by itself, with
// growing, jittered delays so a restarted server is not stormed, and at once when the phone
// wakes (the page becomes visible), when the network comes back ('online'), or when a
// heartbeat goes unanswered: a socket the browser still calls open may be long dead after a
// phone slept or changed networks. A new connection resumes from the last event the page
// holds (the auth message's `after`): the server sends the whole view with only the log the
// page lacks, and the page keeps the entries it took in — event 0's set-up among them, which
// fairplay.js must have seen once.

const BAD_LINK = 4404; // the token does not open this game
const FELL_BEHIND = 4008; // the server dropped us for being slow: reconnect and resync
const GONE = 4000; // our own close of a socket that stopped answering
const PING_MS = 10_000; // a heartbeat this long after the server was last heard from
const PONG_MS = 4_000; // a heartbeat unanswered this long: the connection is gone
const OPEN_MS = 8_000; // a connection that has not brought its view by then is given up
const TICK_MS = 1_000;
const URGENT_MS = 1_000; // between tries while the game waits for this page (hooks.urgent)

/** Merge a log into the one we hold, by sequence number: entries we already have are
 * replaced by the newer copy, later ones appended; nothing is shown twice. */
export function mergeLog(held, incoming) {
  if (!incoming.length) return held;
  const first = incoming[0].seq;
  return held.filter((entry) => entry.seq < first).concat(incoming);
}

const offline = () => navigator.onLine === false;

export class Live {
  /**
   * @param {string} game the game id
   * @param {string} token the side's capability token
   * @param {{onView: (view: object, whole: boolean) => void,
   *   onStatus: (status: string, seconds?: number) => void,
   *   onReady?: () => void,
   *   onAnswer?: (message: {command_id: string, answer?: object, problem?: object}) => void,
   *   onMessage?: (message: object) => void, hello?: () => object,
   *   urgent?: () => boolean}} hooks onView gets the
   *   merged view (whole: a new connection's or a resync's view, with every key); onStatus
   *   the connection's state ("connecting", "live", "reconnecting", "offline", "bad-link";
   *   seconds until the next try); onReady runs once each new connection has brought its
   *   view; onAnswer gets the answers to commands (alone, or riding in an update);
   *   onMessage anything else the server sends (the roll protocol's "fair" replies, the
   *   seat, problems); hello gives fields for the first message; urgent says the game
   *   waits for this page (then it tries again about every second, not backing off)
   */
  constructor(game, token, hooks) {
    this.game = game;
    this.token = token;
    this.hooks = hooks;
    this.view = null;
    this.delay = 500;
    this.closed = false;
    this.socket = null;
    this.ready = false; // this socket brought its view: it carries the game
    this.answering = false; // this socket answered: its view, or its seat (seat.js)
    this.connections = 0; // how many connections brought their view, this page's life
    this.heard = 0; // when the server last sent anything
    this.pinged = 0; // when the unanswered heartbeat went out (0: none outstanding)
    this.retry = null;
    this.giveUp = null;
    this.state = null; // the state last told to onStatus
  }

  get lastSeq() {
    const log = this.view ? this.view.log : [];
    return log.length ? log[log.length - 1].seq : -1;
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** The socket carries the game now: open, its view in, the network up. */
  get live() {
    return this.open && this.ready && !offline();
  }

  start() {
    this.closed = false;
    window.addEventListener("online", () => this.check());
    window.addEventListener("offline", () => this.lose("offline"));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.check();
    });
    setInterval(() => this.tick(), TICK_MS);
    this.connect();
  }

  stop() {
    this.closed = true;
    clearTimeout(this.retry);
    if (this.socket) this.socket.close(1000);
  }

  connect() {
    clearTimeout(this.retry);
    this.retry = null;
    if (this.closed) return;
    if (offline()) {
      // No network: trying would only fail. The 'online' event brings us back at once;
      // the slow retry is for a browser that does not send it.
      this.status("offline");
      this.schedule();
      return;
    }
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = `${scheme}//${location.host}/api/games/${encodeURIComponent(this.game)}/ws`;
    this.status(this.connections ? "reconnecting" : "connecting");
    const socket = new WebSocket(url);
    // Frames are JSON text; should one come binary, decode it in order (a Blob would not be).
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.ready = false;
    this.answering = false;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      // The token goes in the first message, not the URL, so it stays out of access logs.
      // The reader's languages, best first: the server speaks the first it can. With it,
      // what the page adds (its seat key: seat.js). A page that holds a view asks only for
      // the log after it (its own copy is kept: mergeLog).
      const extra = this.hooks.hello ? this.hooks.hello() : {};
      const hello = { ...extra, type: "auth", token: this.token, lang: [...(navigator.languages || [])] };
      if (this.view) hello.after = this.lastSeq;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => {
      if (socket === this.socket) this.receive(event.data);
    });
    socket.addEventListener("close", (event) => this.closedWith(socket, event.code));
    clearTimeout(this.giveUp);
    this.giveUp = setTimeout(() => {
      // Neither open nor closed after all this time: a network that swallows packets.
      if (socket === this.socket && !this.answering) this.lose("stalled");
    }, OPEN_MS);
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
    } catch {
      return;
    }
    this.heard = Date.now();
    this.pinged = 0; // anything at all from the server answers the heartbeat
    if (this.answering && this.state !== "live") this.status("live"); // heard after a doubt
    if (message.type === "view") {
      const first = !this.ready;
      this.delay = 500; // a good connection: the next outage starts with short waits again
      this.ready = true;
      this.answering = true;
      if (first) this.connections += 1;
      clearTimeout(this.giveUp);
      this.status("live");
      // The first view comes with this device's seat (seat.js), taken in first.
      if (message.seat && this.hooks.onMessage) this.hooks.onMessage({ type: "seat", seat: message.seat });
      this.accept(message.view, true);
      if (first && this.hooks.onReady) this.hooks.onReady();
    } else if (message.type === "update") {
      // The answer first: the page then draws the view its own order made as answered.
      if (message.answer && this.hooks.onAnswer) {
        this.hooks.onAnswer({ command_id: message.answer.command_id, answer: message.answer });
      }
      this.accept(message.view, false);
    } else if (message.type === "answer") {
      if (this.hooks.onAnswer) this.hooks.onAnswer(message);
    } else if (message.type === "pong") {
      // Heard: nothing more to do.
    } else if (this.hooks.onMessage) {
      // A seat that is not this page's comes with no view: the connection is live all the same.
      if (message.type === "seat" && !this.answering) {
        this.answering = true;
        this.delay = 500;
        clearTimeout(this.giveUp);
        this.status("live");
      }
      this.hooks.onMessage(message);
    }
  }

  /** Send a message on the socket if it is open; false if it is not (use HTTP then). */
  send(message) {
    if (!this.open || offline()) return false;
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

  /** The heartbeat: a ping when the server has been quiet a while; a ping unanswered too
   * long, and the connection is given up for a new one. */
  tick() {
    if (!this.answering || !this.open) return;
    const now = Date.now();
    if (this.pinged && now - this.pinged > PONG_MS) this.lose("heartbeat");
    else if (!this.pinged && now - this.heard >= PING_MS) this.ping();
  }

  ping() {
    if (!this.open || this.pinged) return;
    this.pinged = Date.now();
    this.socket.send(JSON.stringify({ type: "ping" }));
  }

  /** The page woke or the network came back: prove the connection, or make one now. */
  check() {
    if (this.closed) return;
    if (this.socket === null) {
      this.delay = 500;
      this.connect();
    } else if (this.answering) {
      // Not heard from lately (the phone slept): not "live" until the server answers.
      if (Date.now() - this.heard > PING_MS) this.status("reconnecting");
      this.ping();
    }
    // A connection being made has its own deadline (OPEN_MS).
  }

  /** Give up the socket we have (dead, or the network is down) and go on without it. */
  lose(why) {
    if (this.closed) return;
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    this.answering = false;
    this.pinged = 0;
    clearTimeout(this.giveUp);
    if (socket) {
      try {
        socket.close(GONE); // its close event, whenever it comes, is ignored (not ours)
      } catch {
        // already closing
      }
    }
    if (why === "heartbeat") this.connect(); // it was a good connection: a new one at once
    else this.schedule(); // offline (the 'online' event cuts the wait), or a stalled attempt
  }

  closedWith(socket, code) {
    if (socket !== this.socket || this.closed) return;
    this.socket = null;
    this.ready = false;
    this.answering = false;
    this.pinged = 0;
    clearTimeout(this.giveUp);
    if (code === BAD_LINK) {
      this.closed = true;
      this.status("bad-link");
      return;
    }
    this.schedule(code === FELL_BEHIND ? 0 : undefined);
  }

  schedule(wait) {
    clearTimeout(this.retry);
    let ms = wait === undefined ? this.delay * (0.75 + Math.random() / 2) : wait;
    // While the game waits for this side (wake.js), about every second: a reaction window's
    // time or a roll waits on this page. Idle pages back off, not to storm a server down long.
    if (this.hooks.urgent && this.hooks.urgent()) ms = Math.min(ms, URGENT_MS * (0.75 + Math.random() / 2));
    this.delay = Math.min(this.delay * 2, 15000);
    this.status("offline", Math.round(ms / 1000));
    this.retry = setTimeout(() => this.connect(), ms);
  }

  status(state, seconds) {
    this.state = state;
    this.hooks.onStatus(state, seconds);
  }
}
