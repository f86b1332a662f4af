// The lists beside the map: where the game stands, the side's own pieces with their
// secrets, what it knows of the enemy, and its log. Everything comes from the view.

import { h } from "./dom.js";
import { pieceName, sideName, summary } from "./pieces.js";
import { t } from "./i18n.js";

/** Is the game waiting for this side? (the server says: it has an order to give that is not
 * one it may give at any time) */
export function yourMove(view) {
  return view.you !== "referee" && Boolean(view.your_move);
}

export function status(view) {
  const rows = [...(view.status || [])];
  const waiting = (view.waiting_for || []).filter((side) => side !== view.you);
  if (view.phase !== "over" && waiting.length && !yourMove(view)) {
    rows.push(t("Waiting for {sides}.", { sides: waiting.map((side) => sideName(view, side)).join(t(", ")) }));
  }
  if (!rows.length) rows.push(view.phase === "over" ? t("The game is over.") : "");
  const yours = yourMove(view);
  return h(
    "div",
    {},
    h("p", { class: "phase" }, rows[0], yours ? h("span", { class: "badge go" }, t("your move")) : null),
    rows.slice(1).map((row) => h("p", {}, row)),
    countdown(view),
  );
}

/** The host's clock against this page's. Every view the host sends says its time then
 * (`fairness.now`); a view reaches the page some time later, more when the network or a
 * sleeping tab holds it. The least delayed view seen gives the best reckoning: the smallest
 * difference between when a view came (this page's clock) and the host's time in it. One view
 * taken in late, then, does not make the page count time the host never gave. */
export class HostClock {
  constructor() {
    this.offset = null; // this page's clock minus the host's, at the least delayed view
  }

  /** A view came now with the host's time `now` (ISO 8601); returns that time in ms, or null. */
  take(now, at = Date.now()) {
    const host = typeof now === "string" ? Date.parse(now) : NaN;
    if (!Number.isFinite(host)) return null;
    const offset = at - host;
    if (this.offset === null || offset < this.offset) this.offset = offset;
    return host;
  }

  /** A moment of the host's clock (ms), on this page's clock; null before any view said. */
  toPage(host) {
    return this.offset === null || !Number.isFinite(host) ? null : host + this.offset;
  }

  /** The host's time now, as this page reckons it; null before any view said. */
  hostNow(at = Date.now()) {
    return this.offset === null ? null : at - this.offset;
  }
}

/** While a reaction window with a time limit waits, the time left to answer: counted down
 * to the window's end (the host's time) on this page's clock, reckoned from the least delayed
 * view (HostClock). The page's own clock may be set otherwise than the host's; the count
 * never shows more than the limit; the host rules on its own time. */
const clock = new HostClock();

function countdown(view) {
  const reaction = view.reaction;
  const now = (view.fairness || {}).now;
  if (typeof now === "string") clock.take(now);
  if (view.phase === "over" || !reaction || typeof reaction.ends !== "string") return null;
  const ends = clock.toPage(Date.parse(reaction.ends)) ?? Date.parse(reaction.ends);
  const node = h("p", { class: "countdown", dataset: { ends: String(ends), limit: String(reaction.limit) } });
  tick(node);
  return node;
}

function tick(node) {
  const left = Math.ceil((Number(node.dataset.ends) - Date.now()) / 1000);
  const seconds = Math.max(0, Math.min(Number(node.dataset.limit) || 0, left));
  node.textContent = seconds > 0
    ? t("{seconds} s left to answer.", { seconds })
    : t("Time is up: the host answers with the default.");
}

// One clock for every countdown drawn: a page redrawn by an update gets its new one.
if (typeof document !== "undefined") {
  setInterval(() => document.querySelectorAll("p.countdown").forEach(tick), 250);
}

function facts(piece) {
  const details = piece.details || [];
  if (!details.length) return null;
  return h(
    "dl",
    { class: "facts" },
    details.map((d) => [h("dt", {}, d.label), h("dd", {}, d.value === "" ? "—" : d.value)]),
  );
}

function card(piece, extra) {
  return h(
    "li",
    { class: `piece ${piece.kind}`, dataset: { piece: piece.id } },
    h("div", { class: "piece-head" }, h("strong", {}, pieceName(piece)), " ", extra || null),
    h("div", { class: "piece-summary" }, summary(piece)),
    facts(piece),
  );
}

// Pieces of one kind together (in the order the game lists kinds), then by name.
const sorted = (list) => {
  const kinds = [...new Set(list.map((p) => p.kind))];
  return [...list].sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind) || pieceName(a).localeCompare(pieceName(b), undefined, { numeric: true }));
};

/** The side's own pieces, each with the secrets only it knows. */
export function own(view) {
  const list = sorted((view.pieces || []).filter((p) => p.owner === view.you));
  if (!list.length) return h("p", { class: "empty" }, t("No pieces."));
  return h("ul", { class: "pieces" }, list.map((p) => card(p)));
}

const LEVELS = { suspected: () => t("suspected"), detected: () => t("detected"), identified: () => t("identified") };

/** What the side knows of others' pieces. */
export function known(view) {
  const list = sorted(view.known || []);
  if (!list.length) return h("p", { class: "empty" }, t("Nothing known yet."));
  return h(
    "ul",
    { class: "pieces" },
    list.map((p) => card(p, h("span", { class: `badge level ${p.level}` }, (LEVELS[p.level] || (() => p.level))()))),
  );
}

/** The referee's picture: every piece of every side with its secrets, and who knows what. */
export function everything(view) {
  const knowledge = view.knowledge || {};
  return (view.sides || []).map((side) =>
    h(
      "section",
      { class: "referee-side" },
      h("h3", {}, side.name),
      h(
        "ul",
        { class: "pieces" },
        sorted((view.pieces || []).filter((p) => p.owner === side.id)).map((p) => {
          const knownBy = Object.entries(knowledge)
            .filter(([, entries]) => entries[p.id])
            .map(([who, entries]) => `${sideName(view, who)}: ${(LEVELS[entries[p.id].level] || (() => entries[p.id].level))()}`);
          return card(p, knownBy.length ? h("small", { class: "known-by" }, knownBy.join(", ")) : null);
        }),
      ),
    ),
  );
}

/** The § beside a log line or an order: its tooltip names each rule applied and says it in
 * a line, as the server gives them in the reader's language (never the spec's ids). */
export function ruleMark(said) {
  const lines = said.rule_lines || [];
  return lines.length ? h("abbr", { class: "rules", title: lines.join("\n") }, "§") : null;
}

/** One line of the log: the server's sentence, and the rules it applied as a tooltip. */
function line(entry) {
  const rules = ruleMark(entry);
  return h("p", { class: `line ${entry.event || ""}` }, entry.text || "", rules ? " " : null, rules);
}

/** The side's log, newest first: on a phone the latest news is what one looks for.
 * `more(entry)` gives extra lines for an entry (the fairness checks of what it reveals). */
export function log(view, more = () => null, titles = (name) => name) {
  const entries = [...(view.log || [])].reverse();
  return h(
    "ol",
    { class: "log", reversed: true },
    entries.map((entry) =>
      view.you === "referee"
        ? refereeEntry(entry, view, titles)
        : h(
            "li",
            // Numbered by event, as the fairness lines and `ghillie audit` name them.
            { value: entry.seq, dataset: { seq: entry.seq } },
            (entry.said || []).map(line),
            more(entry),
          ),
    ),
  );
}

function refereeEntry(entry, view, titles) {
  const command = entry.command || {};
  const who = entry.side ? sideName(view, entry.side) : "ghillie";
  // The host's own commands (a reply's time ran out, or was extended after the host was
  // down) are the engine's, in no ruleset's list.
  const what =
    command.type === "time_out"
      ? t("the time to answer ran out")
      : command.type === "extend"
        ? t("it was down, and the time to answer is extended")
        : command.type
        ? titles(command.type)
        : t("the game is set up");
  const rolls = (entry.rolls || []).map(
    // The roll's label is the rules' own name for it; the lines below say what it was for.
    // A typed die is the typer's word, not a draw from every party's chain: say whose.
    (r) => `${r.die} → ${r.value}${r.secret ? t(" (secret)") : ""}${r.entered ? t(" (typed in by {side})", { side: sideName(view, r.by) }) : ""}`,
  );
  return h(
    "li",
    { value: entry.seq, dataset: { seq: entry.seq } },
    h("p", { class: "line head" }, `${who}: ${what}`),
    rolls.length ? h("p", { class: "line rolls" }, t("Dice: {rolls}", { rolls: rolls.join("; ") })) : null,
    told(entry, view).map(([sides, lines]) =>
      h(
        "div",
        { class: "told" },
        h("small", {}, t("told {sides}:", { sides: sides.join(", ") })),
        lines.map(line),
      ),
    ),
  );
}

/** What each side was told, with sides told the very same thing listed together. */
function told(entry, view) {
  const groups = new Map(); // the lines as JSON → [side names, lines]
  for (const [side, lines] of Object.entries(entry.said || {})) {
    const key = JSON.stringify(lines);
    if (!groups.has(key)) groups.set(key, [[], lines]);
    groups.get(key)[0].push(side === "spectator" ? t("spectators") : sideName(view, side));
  }
  return [...groups.values()];
}
