// The tabletop in SVG, in the scenario's own units (inches, y growing away from the table's
// first edge), so a click converts straight into the numbers the commands take. Only what
// the side's view holds is drawn: its own pieces and what it knows of the enemy's.

import { clear, s } from "./dom.js";
import { byId, pieceName, sideName } from "./pieces.js";

const MARGIN = 2.5; // inches around the table, for the rulers

/** Does this view have a map to draw? (Table mode: the real table is the map.) */
export function hasMap(view) {
  return view.mode === "map" && view.table && view.table.table;
}

export class TableMap {
  constructor(container) {
    this.container = container;
    this.svg = null;
    this.picking = null; // {label, done} while the player picks a point
    this.banner = null;
  }

  /** Ask the player to tap a point; `done([x, y])` gets it in inches. */
  pick(label, done) {
    this.picking = { label, done };
    this.container.classList.add("picking");
    if (this.banner) this.banner.textContent = `Tap the map: ${label}`;
    this.container.scrollIntoView({ block: "nearest" });
  }

  /** The picked point is drawn until the order that used it is sent. */
  forgetPick() {
    this.lastPick = null;
    const mark = this.svg && this.svg.querySelector(".picked");
    if (mark) mark.remove();
  }

  cancelPick() {
    this.picking = null;
    this.container.classList.remove("picking");
  }

  draw(view) {
    const board = view.table; // the table never changes in a game: size, terrain, grid
    const { width, depth } = board.table;
    if (!this.svg) {
      this.svg = s("svg", {
        class: "map",
        role: "img",
        "aria-label": "the table",
        preserveAspectRatio: "xMidYMid meet",
      });
      this.svg.addEventListener("click", (event) => this.clicked(event));
      this.banner = document.createElement("div");
      this.banner.className = "pick-banner";
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.textContent = "Cancel";
      cancel.addEventListener("click", () => this.cancelPick());
      const bar = document.createElement("div");
      bar.className = "pick-bar";
      bar.append(this.banner, cancel);
      this.caption = mapFrame(this.container, this.svg, [bar]);
    }
    const svg = clear(this.svg);
    svg.setAttribute("viewBox", `${-MARGIN} ${-MARGIN} ${width + 2 * MARGIN} ${depth + 2 * MARGIN}`);
    svg.append(s("rect", { class: "table", x: 0, y: 0, width, height: depth }));
    svg.append(rulers(width, depth));
    for (const zone of board.deployment_zones || []) {
      svg.append(
        s("polygon", { class: `zone ${sideClass({ owner: zone.side }, view)}`, points: points(zone.outline) },
          s("title", {}, `Deployment zone: ${sideName(view, zone.side)}`)),
      );
    }
    for (const t of board.terrain || []) svg.append(terrain(t));
    if (board.grid) svg.append(grid(board.grid, foundEmpty(view)));
    for (const piece of byId(view).values()) {
      const drawn = drawPiece(piece, view, board);
      if (drawn) svg.append(drawn);
    }
    if (this.lastPick) svg.append(s("circle", { class: "picked", cx: this.lastPick[0], cy: this.lastPick[1], r: 0.6 }));
  }

  clicked(event) {
    if (!this.picking) {
      // A phone has no hover: a tap on a piece or terrain says what it is.
      const titled = event.target.closest("circle, rect, polygon");
      const title = titled && titled.querySelector(":scope > title");
      this.caption.textContent = title ? title.textContent : "";
      return;
    }
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    // A tenth of an inch is finer than anyone places a model by hand.
    const at = [Math.round(point.x * 10) / 10, Math.round(point.y * 10) / 10];
    const { done } = this.picking;
    this.cancelPick();
    this.lastPick = at;
    this.svg.append(s("circle", { class: "picked", cx: at[0], cy: at[1], r: 0.6 }));
    done(at);
  }
}

function points(outline) {
  return outline.map(([x, y]) => `${x},${y}`).join(" ");
}

function rulers(width, depth) {
  const g = s("g", { class: "ruler" });
  for (let x = 0; x <= width; x += 6) g.append(s("text", { x, y: -0.8, "text-anchor": "middle" }, String(x)));
  for (let y = 6; y <= depth; y += 6) g.append(s("text", { x: -0.8, y: y + 0.4, "text-anchor": "end" }, String(y)));
  return g;
}

function terrain(t) {
  const xs = t.outline.map((p) => p[0]);
  const ys = t.outline.map((p) => p[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const cls = `terrain ${t.kind || ""} cover-${t.cover || "none"}${t.blocks_sight ? " blocks" : ""}`;
  const what = [t.name, t.kind, t.cover && `${t.cover} cover`, t.blocks_sight && "blocks sight"]
    .filter(Boolean)
    .join(", ");
  return s(
    "g",
    { class: cls },
    s("polygon", { points: points(t.outline) }, s("title", {}, what)),
    s("text", { class: "terrain-name", x: cx, y: cy, "text-anchor": "middle" }, t.name || t.kind || ""),
  );
}

function foundEmpty(view) {
  const found = view.board.found_empty;
  if (Array.isArray(found)) return new Set(found);
  if (found && typeof found === "object") return new Set(Object.values(found).flat());
  return new Set();
}

function grid(squares, empty) {
  const g = s("g", { class: "grid" });
  for (const [ref, [x0, y0, x1, y1]] of Object.entries(squares)) {
    g.append(
      s("rect", { class: empty.has(ref) ? "square empty" : "square", x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
        s("title", {}, empty.has(ref) ? `${ref}: scanned, empty` : ref)),
      s("text", { class: "ref", x: x0 + 0.6, y: y0 + 2 }, ref),
    );
  }
  return g;
}

function sideClass(piece, view) {
  if (view.you === "referee") {
    const index = (view.sides || []).findIndex((side) => side.id === piece.owner);
    return `side-${index}`;
  }
  return piece.owner === view.you ? "own" : "enemy";
}

function drawPiece(piece, view, board) {
  const p = piece.public || {};
  const cls = sideClass(piece, view);
  if (piece.kind === "marker" && p.at) return marker(piece, cls);
  if (piece.kind === "sniper_marker" && p.at) return sniperMarker(piece, cls);
  if (piece.kind !== "unit") return null;
  const radius = p.base_radius || (board.table && board.table.base_radius) || 0.5;
  let models = [];
  if (Array.isArray(p.models)) {
    // grid-ambush: each model has its own position
    models = p.models.filter((m) => m.at && !m.lost).map((m) => ({ at: m.at, scanner: m.scanner, name: m.name }));
  } else if (p.at) {
    // suspicious-places: the unit's centre plus its formation's offsets
    const offsets = p.formation && p.formation.length ? p.formation : [[0, 0]];
    models = offsets.map(([dx, dy]) => ({ at: [p.at[0] + dx, p.at[1] + dy] }));
  }
  if (!models.length) return null;
  const g = s("g", { class: `unit ${cls}`, dataset: { piece: piece.id } });
  g.append(s("title", {}, pieceName(piece)));
  for (const m of models) {
    g.append(s("circle", { class: m.scanner ? "model scanner" : "model", cx: m.at[0], cy: m.at[1], r: radius },
      s("title", {}, m.name ? `${pieceName(piece)}: ${m.name}` : pieceName(piece))));
  }
  const [lx, ly] = models[0].at;
  g.append(s("text", { class: "label", x: lx, y: ly - radius - 0.4, "text-anchor": "middle" }, p.leader || pieceName(piece)));
  return g;
}

function marker(piece, cls) {
  const p = piece.public;
  const [x, y] = p.at;
  const secret = piece.secret || {};
  const g = s("g", { class: `marker ${cls} ${p.face || ""}`, dataset: { piece: piece.id } });
  g.append(
    s("rect", { x: x - 0.75, y: y - 0.75, width: 1.5, height: 1.5, rx: 0.2 },
      s("title", {}, `${p.label}: ${(p.face || "").replace("_", " ")}${secret.content ? ` — ${secret.content}` : ""}`)),
    s("text", { class: "marker-label", x, y: y + 0.35, "text-anchor": "middle" }, p.label),
  );
  return g;
}

function sniperMarker(piece, cls) {
  const p = piece.public;
  const [x, y] = p.at;
  const isTrue = piece.secret && piece.secret.true === true;
  const g = s("g", { class: `sniper-marker ${cls}${isTrue ? " true" : ""}`, dataset: { piece: piece.id } });
  g.append(
    s("polygon", { points: `${x},${y - 0.9} ${x + 0.9},${y} ${x},${y + 0.9} ${x - 0.9},${y}` },
      s("title", {}, `${p.label}: sniper marker${isTrue ? " (true — only you know)" : ""}`)),
    s("text", { class: "marker-label", x, y: y + 0.35, "text-anchor": "middle" }, p.label),
  );
  return g;
}

/** The frame every map sits in — before it anything given, then the scrolling SVG, a zoom
 * button and a caption line; returns the caption. On a phone a whole table is a few pixels
 * per inch (or per hex): zooming scrolls a larger map. */
export function mapFrame(container, svg, before = []) {
  const caption = document.createElement("p");
  caption.className = "map-caption";
  const zoom = document.createElement("button");
  zoom.type = "button";
  zoom.className = "zoom";
  zoom.textContent = "Zoom in";
  zoom.addEventListener("click", () => {
    const zoomed = container.classList.toggle("zoomed");
    zoom.textContent = zoomed ? "Zoom out" : "Zoom in";
  });
  const scroller = document.createElement("div");
  scroller.className = "map-scroll";
  scroller.append(svg);
  container.append(...before, scroller, zoom, caption);
  return caption;
}
