// The lists beside the map: where the game stands, the side's own pieces with their
// secrets, what it knows of the enemy, and its log. Everything comes from the view.

import { h, humanize } from "./dom.js";
import { byId, pieceName, sideName, summary } from "./pieces.js";

const PHASES = { setup: "Setting up", play: "In play", over: "Game over" };

/** Is the game waiting for this side? (its turn, its set-up, or a unit it must set up now) */
export function yourMove(view) {
  const board = view.board || {};
  if (view.you === "referee" || !(view.commands || []).length) return false;
  const pending = board.waiting_for_setup && (view.pieces || []).some((p) => p.id === board.waiting_for_setup);
  return Boolean(pending || !board.active || board.active === view.you);
}

export function status(view) {
  const board = view.board || {};
  const pieces = byId(view);
  const rows = [];
  const phase = PHASES[view.phase] || humanize(view.phase);
  if (view.phase === "setup") {
    const ready = (board.ready || []).map((side) => sideName(view, side));
    rows.push(`${phase}. Ready: ${ready.length ? ready.join(", ") : "nobody yet"}.`);
    if (typeof board.markers_to_place === "number") {
      rows.push(`Suspicious-place markers still to place: ${board.markers_to_place}.`);
    }
  } else {
    const turn = board.turn ? `Turn ${board.turn}` : phase;
    const active = board.active ? ` · ${sideName(view, board.active)} to play` : "";
    const step = board.step ? ` · ${humanize(board.step)} phase` : "";
    rows.push(`${turn}${active}${step}.`);
    if (board.activation) {
      const unit = pieces.get(board.activation.unit);
      rows.push(`Activated: ${unit ? pieceName(unit) : "a unit"} — ${board.activation.actions_left} action(s) left.`);
    }
  }
  if (board.waiting_for_setup) {
    const unit = pieces.get(board.waiting_for_setup);
    rows.push(`Waiting for ${unit ? pieceName(unit) : "a revealed unit"} to be set up.`);
  }
  if (typeof board.enemy_units_in_ambush === "number") {
    rows.push(`Enemy units still in ambush: ${board.enemy_units_in_ambush}.`);
  }
  const empty = Array.isArray(board.found_empty) ? board.found_empty : [];
  if (empty.length) rows.push(`Scanned and found empty: ${empty.join(", ")}.`);
  const yours = yourMove(view);
  return h(
    "div",
    {},
    h("p", { class: "phase" }, rows[0], yours ? h("span", { class: "badge go" }, "your move") : null),
    rows.slice(1).map((row) => h("p", {}, row)),
  );
}

function value(v, pieces) {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string" && pieces.has(v)) return pieceName(pieces.get(v));
  if (v === null || v === undefined || v === "") return "—";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

// Words for the facts the rulesets keep; any other key is shown as its own name.
const FACT_LABELS = {
  true: "The true marker",
  content: "Hides",
  unit: "Unit",
  marker: "Under marker",
  recorded_at: "Recorded at event",
  hidden_suppression: "Suppression (hidden)",
};

function facts(object, pieces, cls) {
  const entries = Object.entries(object || {}).filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (!entries.length) return null;
  return h(
    "dl",
    { class: cls },
    entries.map(([k, v]) => [h("dt", {}, FACT_LABELS[k] || humanize(k)), h("dd", {}, value(v, pieces))]),
  );
}

function card(piece, pieces, extra) {
  return h(
    "li",
    { class: `piece ${piece.kind}`, dataset: { piece: piece.id } },
    h("div", { class: "piece-head" }, h("strong", {}, pieceName(piece)), " ", extra || null),
    h("div", { class: "piece-summary" }, summary(piece)),
    piece.secret && Object.keys(piece.secret).length
      ? h("div", { class: "secrets" }, h("span", { class: "badge secret" }, "secret"), facts(piece.secret, pieces, "facts"))
      : null,
    piece.facts ? facts(piece.facts, pieces, "facts") : null,
  );
}

const ORDER = { unit: 0, marker: 1, sniper_marker: 2 };
const sorted = (list) =>
  [...list].sort((a, b) => (ORDER[a.kind] ?? 9) - (ORDER[b.kind] ?? 9) || pieceName(a).localeCompare(pieceName(b), undefined, { numeric: true }));

/** The side's own pieces, each with the secrets only it knows. */
export function own(view) {
  const pieces = byId(view);
  const list = sorted((view.pieces || []).filter((p) => p.owner === view.you));
  if (!list.length) return h("p", { class: "empty" }, "No pieces.");
  return h("ul", { class: "pieces" }, list.map((p) => card(p, pieces)));
}

const LEVELS = { suspected: "suspected", detected: "detected", identified: "identified" };

/** What the side knows of others' pieces. */
export function known(view) {
  const pieces = byId(view);
  const list = sorted(view.known || []);
  if (!list.length) return h("p", { class: "empty" }, "Nothing known yet.");
  return h(
    "ul",
    { class: "pieces" },
    list.map((p) => card(p, pieces, h("span", { class: `badge level ${p.level}` }, LEVELS[p.level] || p.level))),
  );
}

/** The referee's picture: every piece of every side with its secrets, and who knows what. */
export function everything(view) {
  const pieces = byId(view);
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
            .map(([who, entries]) => `${sideName(view, who)}: ${entries[p.id].level}`);
          return card(p, pieces, knownBy.length ? h("small", { class: "known-by" }, knownBy.join(", ")) : null);
        }),
      ),
    ),
  );
}

function lineText(line, view) {
  if (line.text) return line.text;
  // Deny by default: a side told nothing of an event still learns that someone acted.
  if (line.event === "acted") return line.by ? `${sideName(view, line.by)} acted.` : "A side acted.";
  return humanize(line.event || "event");
}

/** The side's log, newest first: on a phone the latest news is what one looks for.
 * `more(entry)` gives extra lines for an entry (the fairness checks of what it reveals). */
export function log(view, more = () => null) {
  const entries = [...(view.log || [])].reverse();
  return h(
    "ol",
    { class: "log", reversed: true },
    entries.map((entry) =>
      view.you === "referee"
        ? refereeEntry(entry, view)
        : h(
            "li",
            // Numbered by event, as the fairness lines and `ghillie audit` name them.
            { value: entry.seq, dataset: { seq: entry.seq } },
            entry.lines.map((line) => h("p", { class: `line ${line.event || ""}` }, lineText(line, view))),
            more(entry),
          ),
    ),
  );
}

function refereeEntry(entry, view) {
  const command = entry.command || {};
  const who = entry.side ? sideName(view, entry.side) : "ghillie";
  const rolls = (entry.rolls || []).map(
    (r) => `${r.label} ${r.die} → ${r.value}${r.secret ? " (secret)" : ""}${r.entered ? " (entered)" : ""}`,
  );
  return h(
    "li",
    { value: entry.seq, dataset: { seq: entry.seq } },
    h("p", { class: "line head" }, `#${entry.seq} ${who}: ${humanize(command.type || "setup")}`),
    rolls.length ? h("p", { class: "line rolls" }, "Rolls: ", rolls.join("; ")) : null,
    told(entry, view).map(([sides, lines]) =>
      h(
        "div",
        { class: "told" },
        h("small", {}, `told ${sides.join(", ")}:`),
        lines.map((line) => h("p", { class: "line" }, lineText(line, view))),
      ),
    ),
  );
}

/** What each side was told, with sides told the very same thing listed together. */
function told(entry, view) {
  const groups = new Map(); // the lines as JSON → [side names, lines]
  for (const [side, lines] of Object.entries(entry.told || {})) {
    const key = JSON.stringify(lines);
    if (!groups.has(key)) groups.set(key, [[], lines]);
    groups.get(key)[0].push(side === "spectator" ? "spectators" : sideName(view, side));
  }
  return [...groups.values()];
}
