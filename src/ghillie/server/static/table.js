// The table screen: a tablet or TV in the middle of a real table, showing everyone the
// public state of the game, large. It connects as the spectator (the link's token), whose
// view holds only what every side may see: the map's public tokens, the markers and
// counters on the table, where the game stands, the public log and the commitments each
// event published. It gives no orders and holds no dice chain. Nothing here knows a ruleset.

import * as api from "./api.js";
import { Board, hasMap } from "./board.js";
import { h } from "./dom.js";
import { pieceName, sideName, summary } from "./pieces.js";
import * as panels from "./panels.js";
import { Live } from "./socket.js";
import { language, t, useLanguage } from "./i18n.js";
import { wakeNote } from "./wake.js";

const $ = (id) => document.getElementById(id);

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = location.hash.slice(1);

const NEWS = 8; // log lines shown: the latest news, readable from across the table
const SHORT = 12; // hex digits of a hash, as each phone's Fairness panel shows them
const MAP_TEXT = 16; // CSS pixels: the map's words on a wide screen, larger than on a phone
const PHONE_TEXT = 12; // and on a phone, as on the sides' pages

const CONNECTION = {
  connecting: () => t("connecting…"),
  live: () => t("live"),
  reconnecting: () => t("reconnecting…"), // socket.js: a connection being made again
  offline: () => t("offline — reconnecting"),
  "bad-link": () => t("not a valid link"),
};

let current = null; // the latest view
let live = null;
let map = null;
let connection = ["connecting", 0];

const short = (value) => (typeof value === "string" ? value.slice(0, SHORT) : "");

function connectionWords() {
  const [state, seconds] = connection;
  return CONNECTION[state]() + (state === "offline" && seconds ? t(" in {n}s", { n: seconds }) : "");
}

function showConnection(state, seconds) {
  connection = [state, seconds];
  const chip = $("conn");
  chip.dataset.state = state;
  chip.textContent = connectionWords();
  if (state === "bad-link") badLink();
  if (state === "offline" && current) {
    // While the socket is down, fetch the news over plain HTTP (a proxy may block sockets).
    api.view(game, token, live.lastSeq).then((view) => live.accept(view, false), () => {});
  }
}

function badLink() {
  $("app").replaceChildren(
    h("section", { class: "panel error-panel" },
      h("h2", {}, t("This link does not open a game")),
      h("p", {}, t("Check that you copied the whole link, including the part after #, or ask whoever created the game for your link again."))),
  );
}

/** A party of the roll protocol by name: a side, or the host. */
function partyName(view, party) {
  return (view.sides || []).some((s) => s.id === party) ? sideName(view, party) : t("the host");
}

/** Where the game stands, large: the view's status lines, whom it waits for, and — before
 * the start or while a roll waits — whose page has still to answer. */
function status(view) {
  const fairness = view.fairness || {};
  const notes = [];
  const joining = fairness.joining || [];
  if (joining.length) {
    notes.push(t("The game starts once every side has opened its page. Waiting for: {sides}.", {
      sides: joining.map((side) => sideName(view, side)).join(t(", ")),
    }));
  }
  const waiting = fairness.request ? fairness.waiting || [] : [];
  if (!joining.length && waiting.length) {
    notes.push(t("A roll is waiting for: {parties}.", {
      parties: waiting.map((party) => partyName(view, party)).join(t(", ")),
    }));
  }
  // And, once the roll has waited a moment, whose phone to wake and for how long it waits.
  // A game that waits for a page comes first: the status box is read from across the table
  // and, beside a large map, shows only its first lines without scrolling.
  const waits = [...notes.map((note) => h("p", { class: "fair-note" }, note)), wakeNote(view)];
  return [...waits, panels.status(view)].filter(Boolean);
}

/** The last public lines of the log, newest first; the newest event's stand out. */
function news(view) {
  const entries = view.log || [];
  const lines = [];
  for (const entry of entries) {
    for (const said of entry.said || []) if (said.text) lines.push({ seq: entry.seq, text: said.text });
  }
  const last = entries.length ? entries[entries.length - 1].seq : null;
  const shown = lines.slice(-NEWS).reverse();
  if (!shown.length) return [h("li", { class: "empty" }, t("Nothing has happened yet."))];
  return shown.map((line) =>
    h("li", { class: line.seq === last ? "latest" : null, dataset: { seq: line.seq } }, line.text),
  );
}

/** What lies on the table for everyone to see, side by side. */
function onTheTable(view) {
  const pieces = view.known || [];
  if (!pieces.length) return h("p", { class: "empty" }, t("Nothing is on the table yet."));
  const sides = (view.sides || []).map((side) => side.id);
  const owners = [...sides, ...new Set(pieces.map((p) => p.owner).filter((o) => !sides.includes(o)))];
  return h(
    "div",
    { class: "table-sides" },
    owners
      .map((owner) => {
        const own = pieces.filter((p) => p.owner === owner);
        if (!own.length) return null;
        const kinds = [...new Set(own.map((p) => p.kind))];
        own.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind)
          || pieceName(a).localeCompare(pieceName(b), undefined, { numeric: true }));
        return h(
          "section",
          { class: "table-side", dataset: { side: owner } },
          h("h3", {}, sideName(view, owner)),
          h(
            "ul",
            { class: "table-pieces" },
            own.map((p) =>
              h(
                "li",
                { class: "table-piece" },
                h("strong", {}, pieceName(p)),
                summary(p) ? h("span", { class: "about" }, summary(p)) : null,
              )),
          ),
        );
      })
      .filter(Boolean),
  );
}

/** What each event published, shortened as every phone's Fairness panel shows it: the
 * latest signed head, and each side's latest commitment to its secrets (every event
 * commits every side's, so both are the latest event's). */
function commitments(view) {
  const proofs = (view.log || []).filter((entry) => entry.proof);
  if (!proofs.length) return h("p", { class: "empty" }, t("Nothing is committed yet: the game has not started."));
  const latest = proofs[proofs.length - 1];
  const rows = [
    h("li", { class: "commit-head" },
      t("Latest head, event {seq}:", { seq: latest.seq }), " ",
      h("code", {}, short(latest.proof.hash))),
  ];
  for (const side of view.sides || []) {
    const root = (latest.proof.roots || {})[side.id];
    if (!root) continue;
    rows.push(
      h("li", { class: "commit-side", dataset: { side: side.id } },
        t("{side}, latest commitment:", { side: side.name }), " ",
        h("code", {}, short(root))),
    );
  }
  // The rolls drawn without a side's share (its page did not give it in time): everyone at
  // the table is told, as every phone is.
  const names = new Map((view.sides || []).map((s) => [s.id, s.name]));
  const without = proofs.flatMap((entry) =>
    (Array.isArray(entry.proof.missing) ? entry.proof.missing : [])
      .filter((side) => names.has(side))
      .map((side) => h("li", { class: "commit-missing" }, t("Roll {seq} was drawn without a share from the page of {side}: the host and the other sides could have known it in advance.", { seq: entry.seq, side: names.get(side) }))),
  );
  return h(
    "div",
    {},
    h("ul", { class: "commit-list" }, rows, without.slice(-3)),
    h("p", { class: "hint" }, t("The same codes are in the Fairness panel of each player's phone.")),
  );
}

// A wide screen shows the whole page at once (table.css): the map takes the height its panel
// leaves it, below the status and above its buttons and legend.
const WIDE = window.matchMedia("(min-width: 960px) and (min-height: 560px)");

function mapRoom() {
  const box = $("map-box");
  const frame = box.querySelector(".map-frame");
  const last = $("map").lastElementChild;
  if (!WIDE.matches || !frame || !last) return window.innerHeight * 0.7;
  const below = last.getBoundingClientRect().bottom - frame.getBoundingClientRect().bottom;
  const bottom = box.getBoundingClientRect().bottom - (parseFloat(getComputedStyle(box).paddingBottom) || 0);
  return Math.max(160, bottom - frame.getBoundingClientRect().top - below);
}

function render(view) {
  // The page's own words follow the language the server speaks this game in for this reader.
  if (view.lang && view.lang !== language()) {
    useLanguage(view.lang).then((changed) => {
      if (!changed || !current) return;
      $("conn").textContent = connectionWords();
      if (map) {
        // The map's buttons were made in the old words: make it again.
        $("map").replaceChildren();
        map = null;
      }
      render(current);
    });
  }
  current = view;
  const screen = t("table screen");
  document.title = `${view.title} — ${screen} — ghillie`;
  $("title").textContent = view.title;
  $("side").setAttribute("aria-label", t("News and what is on the table"));
  $("status").replaceChildren(...status(view));
  document.body.classList.toggle("with-map", hasMap(view));
  if (hasMap(view)) {
    $("map-box").hidden = false;
    if (!map) map = new Board($("map"), { minText: () => (WIDE.matches ? MAP_TEXT : PHONE_TEXT), maxHeight: mapRoom });
    map.draw(view);
  }
  $("news").replaceChildren(...news(view));
  $("pieces").replaceChildren(onTheTable(view));
  $("commitments").replaceChildren(commitments(view));
}

function main() {
  if (!game || !token) {
    badLink();
    return;
  }
  live = new Live(game, token, {
    onView: (view) => render(view),
    onStatus: showConnection,
  });
  // For the odd script or test that reads what the screen shows.
  window.ghillie = { game, live, get view() { return current; } };
  live.start();
  // The map is as tall as the screen lets it be (mapRoom): again when the screen changes.
  window.addEventListener("resize", () => map && map.apply());
}

main();
