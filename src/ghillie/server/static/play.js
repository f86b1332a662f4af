// The side page: one player's live window on the game. The token comes from the URL's
// fragment (#…), which browsers never send to the server, and is used only in the
// websocket's first message and in Authorization headers.

import * as api from "./api.js";
import { Orders } from "./commands.js";
import { h } from "./dom.js";
import { FairPlay, KeptStore } from "./fairplay.js";
import { Seat } from "./seat.js";
import { Board, hasMap } from "./board.js";
import { Outbox } from "./outbox.js";
import * as panels from "./panels.js";
import { sideName } from "./pieces.js";
import { Live } from "./socket.js";
import { language, t, useLanguage } from "./i18n.js";
import { ScreenAwake, Waker, awaited, urgent, wakeNote } from "./wake.js";

const $ = (id) => document.getElementById(id);

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
// The fragment is the token, and a move code after "&seat-code=" when the link comes from another
// device's "Move this seat" (seat.js).
const [token, ...extras] = location.hash.slice(1).split("&");
const moveCode = new URLSearchParams(extras.join("&")).get("seat-code");

// The badge says "live" only while the socket carries the game and answers its heartbeat
// (socket.js); "offline" while the network is down or the socket closed, with the seconds
// to the next try; "reconnecting…" while a connection is being made.
const CONNECTION = {
  connecting: () => t("connecting…"),
  live: () => t("live"),
  reconnecting: () => t("reconnecting…"),
  offline: (seconds) =>
    seconds && navigator.onLine !== false ? t("offline — trying again in {n}s", { n: seconds }) : t("offline"),
  "bad-link": () => t("not a valid link"),
};

let catalogue = null; // the rulesets, with their command schemas
let current = null; // the latest view
let map = null;
let orders = null;
let live = null;
let outbox = null;
let fairplay = null;
let seat = null;
let waker = null; // the page's sleep and waking (wake.js)
let screenAwake = null; // the screen kept on while this side is awaited

let connection = ["connecting", 0]; // the last state shown, to word again in a new language

function showConnection(state, seconds) {
  connection = [state, seconds];
  const chip = $("conn");
  chip.dataset.state = state;
  chip.textContent = CONNECTION[state](seconds);
  if (state === "bad-link") badLink();
  if (state === "offline" && current && navigator.onLine !== false) {
    // While the socket is down, fetch the news over plain HTTP (a proxy may block sockets).
    api.view(game, token, live.lastSeq).then((view) => live.accept(view, false), () => {});
  }
  if (orders) orders.showOutbox(); // "not sent yet — you are offline", or back to "Sending…"
}

function badLink() {
  $("app").replaceChildren(
    h("section", { class: "panel error-panel" },
      h("h2", {}, t("This link does not open a game")),
      h("p", {}, t("Check that you copied the whole link, including the part after #, or ask whoever created the game for your link again."))),
  );
}

/** The seat's own screen (take it, or it is taken) in place of the game, or the game. */
function showSeat(view) {
  const screen = seat.screen(view);
  $("seat").hidden = !screen;
  $("app").hidden = Boolean(screen);
  if (screen) {
    $("seat").replaceChildren(screen);
    $("who").textContent = t("Taking a seat");
    if (connection) $("conn").textContent = CONNECTION[connection[0]](connection[1]); // its words may have changed
  }
  return Boolean(screen);
}

function render(view) {
  // The page's own words follow the language the server speaks this game in for this reader.
  if (view.lang && view.lang !== language()) {
    useLanguage(view.lang).then((changed) => {
      if (!changed || !current) return;
      // Cards were built in the old words: build them again.
      $("commands").replaceChildren();
      orders = null;
      const [state, seconds] = connection;
      $("conn").textContent = CONNECTION[state](seconds);
      render(current);
    });
  }
  // Before event 0 the pages are still joining: there is no game to give orders in yet.
  if (view.seq < 0) view = { ...view, commands: [] };
  current = view;
  if (showSeat(view)) return;
  if (!catalogue) return; // drawn once the rulesets arrive
  const referee = view.you === "referee";
  // A mark in the tab's title tells a player in another tab that the game waits for them.
  document.title = `${panels.yourMove(view) ? "▶ " : ""}${view.title} — ghillie`;
  $("title").textContent = view.title;
  $("who").textContent = referee
    ? t("Referee view: you see every side's secrets. Never show this screen to a player.")
    : t("You are playing: {side}", { side: sideName(view, view.you) });
  document.body.classList.toggle("referee", referee);
  // Before the start, and while a roll waits long for someone, the status says who.
  const notes = [fairplay.joiningNote(view), fairplay.slowRoll(view), ...fairplay.chainNotes(view)].filter(Boolean);
  showWake(view);
  // Once the game is over, every secret is public: step through it, each view beside the truth.
  const after = view.phase === "over"
    ? h("p", {}, h("a", { class: "replay-link", href: `/replay/${encodeURIComponent(game)}#${token}` }, t("Step through the game: what each side saw, beside the truth")))
    : null;
  const parts = [panels.status(view), after, ...notes.map((note) => h("p", { class: "fair-note" }, note)), wakeNote(view, view.you)];
  $("status").replaceChildren(...parts.filter(Boolean)); // replaceChildren would write "null"
  $("alarms").replaceChildren(fairplay.alarmBox() || "");
  $("fair").replaceChildren(seat.panel(view) || "", fairplay.panel(view), newChainButton());

  if (hasMap(view)) {
    $("map-box").hidden = false;
    if (!map) map = new Board($("map"));
    map.draw(view);
  }

  if (referee) {
    $("orders-box").hidden = true;
    $("known-box").hidden = true;
    $("own-title").textContent = t("Every piece, with its secrets");
    $("own").replaceChildren(...panels.everything(view));
  } else {
    $("own-title").textContent = t("Your forces");
    if (!orders) {
      const ruleset = catalogue.find((r) => r.id === view.ruleset) || { commands: {}, odds: [] };
      orders = new Orders($("commands"), $("result"), {
        game,
        token,
        ruleset,
        // A point, square or hex may be tapped on the map; without a map it is typed.
        pick: hasMap(view) ? (label, where, done, snap) => map.pick(label, where, done, snap) : null,
        // What an order plans (a path, a zone) is drawn on the map as it is entered.
        plan: (shapes) => map && map.plan(shapes),
        getView: () => current,
        outbox,
        afterCommand: () => {
          if (map) map.forgetPick();
          // Normally the socket brings the news; without it, fetch it.
          if (!live.open) api.view(game, token, live.lastSeq).then((v) => live.accept(v, false), () => {});
        },
      });
    }
    orders.update(view);
    $("own").replaceChildren(panels.own(view));
    $("known").replaceChildren(panels.known(view));
  }
  const ruleset = catalogue.find((r) => r.id === view.ruleset) || { commands: {} };
  const titles = (name) => (ruleset.commands[name] || {}).title || name;
  $("log").replaceChildren(panels.log(view, (entry) => fairplay.openingLines(entry), titles));
}

/** While this side is awaited, the screen stays on; after a sleep, what happened meanwhile. */
function showWake(view) {
  screenAwake.want(seat.playing && awaited(view, view.you));
  $("wake").replaceChildren(waker.news(view) || "");
}

/** A device that holds its seat but lost its chain (storage cleared) can start a new one. */
function newChainButton() {
  if (!seat.playing || fairplay.chainState !== "elsewhere" || !current || current.seq < 0) return "";
  const button = h("button", { type: "button", class: "new-chain" }, t("Start a new dice chain here"));
  button.addEventListener("click", () => seat.takeOver({ type: "new_chain" }));
  return button;
}

async function loadCatalogue() {
  for (let wait = 500; ; wait = Math.min(wait * 2, 10000)) {
    try {
      return await api.rulesets();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

function main() {
  if (!game || !token) {
    badLink();
    return;
  }
  fairplay = new FairPlay(game, token, {
    send: (message) => live.send(message),
    changed: () => current && render(current),
  });
  let played = false; // has fairplay taken in the view since this page began to play?
  seat = new Seat(game, token, moveCode, new KeptStore(), {
    send: (message) => live.send(message),
    stop: () => live.stop(),
    freshAnchor: (side) => fairplay.newChain(side),
    signing: (side) => fairplay.seatKey(side, true),
    freshSigning: (side) => fairplay.newSeatKey(side),
    signingFrom: (side, k) => fairplay.signsFrom(side, k),
    chainFrom: (side, k) => fairplay.chainStarts(side, k),
    changed: () => {
      // Once the seat is this page's, fairplay takes the game in (and gives what rolls ask).
      if (seat.playing && current && !played) {
        played = true;
        fairplay.observe(current, true);
      } else if (seat.playing && current) {
        fairplay.observe(current, false);
      }
      if (current) render(current);
      else showSeat(null);
    },
  });
  live = new Live(game, token, {
    onView: (view, whole) => {
      // First the page's share of any roll asked for (once the seat is this page's), then
      // the drawing. The view holds the whole log the page took in, also when a new
      // connection sent only what was new.
      if (seat.playing) {
        played = true;
        fairplay.observe(view, whole);
      }
      outbox.seen(view);
      waker.seen();
      render(view);
    },
    onStatus: showConnection,
    // Each new connection: the order on its way goes out on it (once).
    onReady: () => outbox.flush(),
    onAnswer: (message) => outbox.answered(message),
    onMessage: (message) => {
      if (!seat.received(message)) fairplay.replied(message);
    },
    hello: () => seat.hello(),
    // Awaited, the page tries again about every second after a lost connection.
    urgent: () => Boolean(seat.playing && current && urgent(current, current.you)),
  });
  waker = new Waker(live, { changed: () => current && render(current) });
  screenAwake = new ScreenAwake();
  outbox = new Outbox(game, live, {
    changed: () => orders && orders.showOutbox(),
    sign: (id, command) => (seat.playing ? fairplay.sign(id, command) : null),
    next: () => fairplay.nextRoll(),
    refused: (id, problem) => fairplay.refused(id, problem),
  });
  // The page's api helper, for the odd script or test that drives a side without forms.
  window.ghillie = { game, token, api, live, outbox, fairplay, seat, waker, screenAwake, get view() { return current; } };
  live.start();
  waker.start();
  loadCatalogue().then((rulesets) => {
    catalogue = rulesets;
    if (current) render(current);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && map) map.cancelPick();
  });
}

main();
