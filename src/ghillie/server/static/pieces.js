// Naming pieces and offering them in forms. Pieces have opaque random ids, so the page
// always shows a piece's name or label and sends its id. Every choice is built from the
// side's own view: it lists only what that side already sees.

import { humanize } from "./dom.js";

/** Every piece the view shows, own or known, by id. */
export function byId(view) {
  const out = new Map();
  for (const piece of view.pieces || []) out.set(piece.id, { ...piece, own: piece.owner === view.you });
  for (const piece of view.known || []) out.set(piece.id, { ...piece, own: false });
  return out;
}

export function pieceName(piece) {
  if (!piece) return "?";
  const p = piece.public || {};
  // An enemy's name may come only as knowledge (ambush-fields tells it on identification);
  // one's own pieces keep theirs in the secret part.
  const known = piece.facts || {};
  const own = piece.secret || {};
  return p.name || known.name || own.name || p.label || p.category || humanize(piece.kind);
}

export function sideName(view, side) {
  const found = (view.sides || []).find((s) => s.id === side);
  return found ? found.name : side;
}

const FACES = { face_up: "face up", flipped: "flipped: someone is there", minefield: "known minefield" };

/** A few words on a piece's public state: status, marker face, cover. */
export function summary(piece) {
  const p = piece.public || {};
  const words = [];
  if (piece.kind === "marker") {
    if (p.face) words.push(FACES[p.face] || humanize(p.face));
    if (p.cover && p.cover !== "none") words.push(`${p.cover} cover`);
    if (p.open) words.push("in the open");
    if (p.content) words.push(humanize(p.content));
  } else if (piece.kind === "ship") {
    if (p.at) words.push(`hex ${p.at}`);
    if (p.off_board) words.push(p.left_from ? `off the board (left at ${p.left_from})` : "off the board");
    if (((piece.secret || {}).in_fields || []).length) words.push("hidden in a field");
    const hangar = (piece.secret || {}).hangar;
    if (Array.isArray(hangar)) words.push(`${hangar.length} flight(s) aboard`);
    if (piece.level === "detected") words.push(`${p.category} counter`);
  } else if (piece.kind === "sniper_marker") {
    words.push("sniper marker");
  } else {
    if (p.status) words.push(humanize(p.status).toLowerCase());
    if (p.square) words.push(`square ${p.square}`);
    if (p.unit_kind && p.unit_kind !== "squad") words.push(p.unit_kind);
    if (typeof p.models === "number") words.push(`${p.models} model(s)`);
    if (Array.isArray(p.models)) {
      const left = p.models.filter((m) => !m.lost).length;
      words.push(`${left} model(s)`);
    }
    if (p.suppression) words.push(`${p.suppression} suppression`);
    if (p.panic) words.push("panic");
  }
  return words.join(" · ");
}

// --- choices for the fields that name pieces ----------------------------------------------

const units = (list) => list.filter((p) => p.kind === "unit");
const status = (p) => (p.public || {}).status;
const onTable = (p) => status(p) === "on_table";
const markers = (list) => list.filter((p) => p.kind === "marker" || p.kind === "sniper_marker");

/** Which of the side's units a command's `unit` field may sensibly name. */
function unitFilter(view, command, path) {
  const board = view.board || {};
  switch (command) {
    case "record_ambushes":
      return (p) => (p.public || {}).ambush === true;
    case "reveal":
      return (p) => status(p) === "in_ambush";
    case "set_up":
      return (p) => p.id === board.waiting_for_setup || status(p) === "in_ambush";
    case "hide":
      return (p) => status(p) === "camouflaged";
    case "activate":
      return (p) => status(p) !== "off_table" && !(board.activated || []).includes(p.id);
    case "place_sniper":
      return (p) => (p.public || {}).unit_kind === "sniper";
    default:
      return path === "unit" && board.activation
        ? (p) => onTable(p) || p.id === board.activation.unit
        : (p) => status(p) !== "off_table" && status(p) !== "reserve";
  }
}

function option(piece) {
  const words = summary(piece);
  return { value: piece.id, label: words ? `${pieceName(piece)} (${words})` : pieceName(piece) };
}

/**
 * The pieces a text field may name, or null if the field names no piece.
 * @param {object} view the side's view
 * @param {string} command the command's type
 * @param {string} path the field's path ("hidings.0.marker")
 * @param {string} name the field's own name ("marker")
 */
export function choices(view, command, path, name) {
  const own = view.pieces || [];
  const known = view.known || [];
  if (view.ruleset === "ambush-fields") return fleetChoices(view, command, name);
  switch (name) {
    case "unit":
    case "sniper":
    case "squad": {
      let list = units(own).filter(unitFilter(view, command, path));
      if (name === "sniper") list = list.filter((p) => (p.public || {}).unit_kind === "sniper");
      if (name === "squad") list = list.filter((p) => (p.public || {}).unit_kind !== "sniper");
      // Host-game results (suppression) may be recorded on an enemy unit too.
      if (command === "suppress") list = list.concat(units(known).filter(onTable));
      return list.map(option);
    }
    case "marker":
      if (command === "hide") return own.filter((p) => p.kind === "marker").map(option);
      return markers(known)
        .filter((p) => (p.public || {}).face !== "minefield")
        .map(option);
    case "target":
      return markers(known).concat(units(known).filter(onTable)).map(option);
    case "to":
      return own.filter((p) => p.kind === "sniper_marker").map(option);
    case "exposes":
      return markers(known).map(option);
    default:
      return null;
  }
}

// --- ambush-fields: ships and fields ----------------------------------------------------------

const ships = (list) => list.filter((p) => p.kind === "ship");
const isScout = (p) => (p.secret || {}).class === "scout";
const onBoard = (p) => Boolean((p.public || {}).at);

/** ambush-fields' choices: own ships (by id), own scouts, carriers and fighter flights, the
 * enemy ships the side has detected, its own fields (by scenario key) and the enemy fields
 * it has located. */
function fleetChoices(view, command, name) {
  const own = ships(view.pieces || []);
  switch (name) {
    case "ship":
    case "ships":
      return own.map(option);
    case "scout":
    case "scouts":
    case "eccm_scout":
      return own.filter(isScout).map(option);
    case "carrier":
      return own.filter((p) => onBoard(p) && Array.isArray((p.secret || {}).hangar)).map(option);
    case "flight":
      return own.filter((p) => onBoard(p) && (p.secret || {}).class === "fighter_flight").map(option);
    case "target":
      return (command === "assign_ew" ? own : ships(view.known || [])).map(option);
    case "field": {
      const fields = (view.board || {}).fields || [];
      if (command === "drop_field") {
        return fields.filter((f) => f.owner === view.you && f.active).map((f) => ({ value: f.key, label: f.key }));
      }
      return fields
        .filter((f) => f.owner !== view.you && f.active && f.centre)
        .map((f) => ({ value: f.id, label: `field at ${f.centre} (radius ${f.radius}, rating +${f.rating})` }));
    }
    default:
      return null;
  }
}
