// A printed hex map in SVG (ambush-fields): flat-topped hexes in columns, hexside A up the
// map, each labelled column-then-row ("1206"), as ghillie/measure/hexes.py lays them out
// (hex size 1, hex 0101 at the origin, y down the page). Only what the side's view holds is
// drawn: its own ships, the enemy ships it knows of (face-down counters until identified),
// and the fields on its board (its own, and the enemy's it has located). A tap on a hex
// names it below the map and, if a "to" or "at" box of an order was the last one focused,
// writes the hex's label into it.

import { clear, humanize, s } from "./dom.js";
import { sideName } from "./pieces.js";
import { mapFrame } from "./map.js";

const SQRT3 = Math.sqrt(3);
const HEXSIDES = ["A", "B", "C", "D", "E", "F"];
const LABEL = /^(\d{2})(\d{2})$/;
const TARGET = /(^|\.)(to|at)$/; // the text boxes a tap on the map may fill

/** Does this view have a hex map to draw? */
export function hasHexMap(view) {
  return Boolean(view.mode === "map" && view.table && view.table.map);
}

// --- geometry (the same arithmetic as ghillie.measure.hexes) ------------------------------

function columnOffset(column0, shifted) {
  // "even": printed columns 02, 04, … sit half a hex lower; "odd": 01, 03, … do.
  return shifted === "odd" ? (column0 + (column0 & 1)) / 2 : (column0 - (column0 & 1)) / 2;
}

/** Axial {q, r} of printed (column, row), both counted from 1. */
export function fromOffset(column, row, shifted) {
  const column0 = column - 1;
  return { q: column0, r: row - 1 - columnOffset(column0, shifted) };
}

/** The hex a label like "1206" names, or null if it is not one. */
export function fromLabel(label, shifted) {
  const match = LABEL.exec(String(label || "").trim());
  return match ? fromOffset(Number(match[1]), Number(match[2]), shifted) : null;
}

export function toLabel(hex, shifted) {
  const column = hex.q + 1;
  const row = hex.r + columnOffset(hex.q, shifted) + 1;
  return String(column).padStart(2, "0") + String(row).padStart(2, "0");
}

/** The hex's centre in drawing units (size 1). */
export function center(hex) {
  return [1.5 * hex.q, SQRT3 * (hex.r + hex.q / 2)];
}

export function distance(a, b) {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

function corners([x, y], size = 1) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 3) * i;
    out.push(`${(x + size * Math.cos(angle)).toFixed(3)},${(y + size * Math.sin(angle)).toFixed(3)}`);
  }
  return out.join(" ");
}

/** Every hex of the map, column by column, as {label, hex, xy}. */
function mapHexes(columns, rows, shifted) {
  const out = [];
  for (let column = 1; column <= columns; column++) {
    for (let row = 1; row <= rows; row++) {
      const hex = fromOffset(column, row, shifted);
      out.push({ label: toLabel(hex, shifted), hex, xy: center(hex) });
    }
  }
  return out;
}

// --- the map ------------------------------------------------------------------------------

export class HexMap {
  constructor(container) {
    this.container = container;
    this.svg = null;
    this.target = null; // the order's "to" box a tap fills
    this.key = null; // columns×rows×shifted of the drawn grid
    // Remember the last "to"/"at" box the player focused in an order form.
    document.addEventListener("focusin", (event) => {
      const input = event.target;
      if (input instanceof HTMLInputElement && input.type === "text" && TARGET.test(input.name || "")) {
        this.target = input;
      }
    });
  }

  // The page's picking hooks (positions in inches) do not apply: a hex is a label.
  pick() {}
  forgetPick() {
    const mark = this.svg && this.svg.querySelector(".hex.picked");
    if (mark) mark.classList.remove("picked");
  }
  cancelPick() {}

  draw(view) {
    const { columns, rows, shifted = "even" } = view.table.map;
    if (!this.svg) this.build();
    const key = `${columns}x${rows}x${shifted}`;
    if (this.key !== key) {
      // The map never changes in a game: draw its hexes once.
      this.key = key;
      this.hexes = mapHexes(columns, rows, shifted);
      this.byLabel = new Map(this.hexes.map((one) => [one.label, one]));
      const xs = this.hexes.map((one) => one.xy[0]);
      const ys = this.hexes.map((one) => one.xy[1]);
      const x0 = Math.min(...xs) - 1.2;
      const y0 = Math.min(...ys) - 1.1;
      const width = Math.max(...xs) + 1.2 - x0;
      const height = Math.max(...ys) + 1.1 - y0;
      this.svg.setAttribute("viewBox", `${x0.toFixed(3)} ${y0.toFixed(3)} ${width.toFixed(3)} ${height.toFixed(3)}`);
      const grid = s("g", { class: "hexgrid" });
      for (const one of this.hexes) {
        grid.append(
          s("polygon", { class: "hex", points: corners(one.xy), dataset: { hex: one.label } }),
          s("text", { class: "hex-label", x: one.xy[0], y: one.xy[1] - 0.58, "text-anchor": "middle" }, one.label),
        );
      }
      clear(this.svg).append(grid, s("g", { class: "fields" }), s("g", { class: "ships" }));
    }
    this.drawFields(view, shifted);
    this.drawShips(view, shifted);
  }

  build() {
    this.svg = s("svg", {
      class: "map hexmap",
      role: "img",
      "aria-label": "the hex map",
      preserveAspectRatio: "xMidYMid meet",
    });
    this.svg.addEventListener("click", (event) => this.clicked(event));
    this.caption = mapFrame(this.container, this.svg);
  }

  drawFields(view, shifted) {
    const layer = clear(this.svg.querySelector("g.fields"));
    for (const field of (view.board && view.board.fields) || []) {
      const centre = fromLabel(field.centre, shifted);
      if (!centre) continue;
      const cls = `field ${sideClass(field.owner, view)}${field.active === false ? " inactive" : ""}`;
      const what = fieldTitle(field, view);
      const g = s("g", { class: cls, dataset: { field: field.id } });
      for (const one of this.hexes) {
        if (distance(one.hex, centre) <= field.radius) {
          g.append(s("polygon", { class: "field-hex", points: corners(one.xy, 0.97), dataset: { hex: one.label } }, s("title", {}, what)));
        }
      }
      layer.append(g);
    }
  }

  drawShips(view, shifted) {
    const layer = clear(this.svg.querySelector("g.ships"));
    const ships = [];
    for (const piece of view.pieces || []) {
      if (piece.kind === "ship" && piece.public && piece.public.at) ships.push({ piece, own: piece.owner === view.you });
    }
    for (const piece of view.known || []) {
      if (piece.kind === "ship" && piece.public && piece.public.at) ships.push({ piece, own: false });
    }
    // Ships sharing a hex stand side by side.
    const byHex = new Map();
    for (const ship of ships) {
      const list = byHex.get(ship.piece.public.at) || [];
      list.push(ship);
      byHex.set(ship.piece.public.at, list);
    }
    for (const [label, list] of byHex) {
      const hex = fromLabel(label, shifted);
      if (!hex) continue;
      const [cx, cy] = center(hex);
      list.forEach((ship, i) => {
        const dx = (i - (list.length - 1) / 2) * (list.length > 2 ? 0.42 : 0.6);
        const dy = list.length > 2 ? (i % 2 ? 0.18 : -0.08) : 0;
        layer.append(drawShip(ship, view, [cx + dx, cy + dy], list.length > 1 ? 0.7 : 1));
      });
    }
  }

  clicked(event) {
    const hit = event.target.closest("[data-hex]") || hexAt(this, event);
    const label = hit && hit.dataset ? hit.dataset.hex : hit;
    if (!label) return;
    const titled = event.target.closest("g.ship, g.field");
    const title = titled && titled.querySelector("title");
    const words = [`Hex ${label}`];
    if (title) words.push(title.textContent);
    const target = this.target;
    if (target && target.isConnected && !target.disabled) {
      target.value = label;
      target.dispatchEvent(new Event("input", { bubbles: true }));
      words.push(`→ written in the order (${humanize(target.name.split(".").pop())})`);
    }
    this.forgetPick();
    const polygon = this.svg.querySelector(`polygon.hex[data-hex="${label}"]`);
    if (polygon) polygon.classList.add("picked");
    this.caption.textContent = words.join(" · ");
  }
}

/** The hex under a tap that landed on a ship or field, from the tap's map position. */
function hexAt(map, event) {
  const matrix = map.svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  let best = null;
  let bestDistance = Infinity;
  for (const one of map.hexes || []) {
    const d = (one.xy[0] - point.x) ** 2 + (one.xy[1] - point.y) ** 2;
    if (d < bestDistance) {
      best = one.label;
      bestDistance = d;
    }
  }
  return bestDistance <= 1 ? best : null;
}

function sideClass(owner, view) {
  if (view.you === "referee") {
    const index = (view.sides || []).findIndex((side) => side.id === owner);
    return `side-${index}`;
  }
  return owner === view.you ? "own" : "enemy";
}

function fieldTitle(field, view) {
  const whose = view.you === "referee" || field.owner !== view.you ? `${sideName(view, field.owner)} ` : "your ";
  const name = field.key ? ` "${field.key}"` : "";
  const state = field.active === false ? ", dropped" : "";
  return `${whose}field${name}: radius ${field.radius} around ${field.centre}, rating ${field.rating}${state}`;
}

function shortName(name) {
  return name.length > 12 ? `${name.slice(0, 11)}…` : name;
}

function drawShip({ piece, own }, view, [x, y], scale) {
  const p = piece.public || {};
  const secret = piece.secret || {};
  const facts = piece.facts || {};
  const cls = sideClass(piece.owner, view);
  const identified = Boolean(secret.name || facts.name);
  const name = secret.name || facts.name || humanize(p.category || "ship");
  const g = s("g", {
    class: `ship ${cls}${own || view.you === "referee" ? "" : identified ? " counter identified" : " counter"}`,
    dataset: { piece: piece.id, name },
  });
  const heading = HEXSIDES.indexOf(p.heading);
  const what = [
    name,
    p.category && p.category !== "ship" ? p.category : null,
    p.heading ? `heading ${p.heading}` : null,
    typeof p.speed === "number" ? `speed ${p.speed}` : null,
    !own && view.you !== "referee" ? (identified ? "identified" : "not identified") : null,
  ]
    .filter(Boolean)
    .join(", ");
  const r = 0.3 * scale;
  if (g.classList.contains("counter")) {
    // An enemy ship known only as a counter: a face-down square, its category on it.
    g.append(s("rect", { class: "token", x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 0.06 }, s("title", {}, what)));
  } else {
    g.append(s("circle", { class: "token", cx: x, cy: y, r }, s("title", {}, what)));
  }
  if (heading >= 0) {
    // A tick towards the hexside the ship faces (A up the map, then clockwise).
    const angle = (-90 + 60 * heading) * (Math.PI / 180);
    g.append(s("line", {
      class: "heading",
      x1: x + r * Math.cos(angle),
      y1: y + r * Math.sin(angle),
      x2: x + (r + 0.22 * scale) * Math.cos(angle),
      y2: y + (r + 0.22 * scale) * Math.sin(angle),
    }));
  }
  g.append(s("text", { class: "ship-name", x, y: y + r + 0.3, "text-anchor": "middle" }, shortName(name)));
  return g;
}
