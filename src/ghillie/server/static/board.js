// The map, drawn from the view's `map` (ghillie/maps.py): layers of areas, tokens and an
// optional grid of squares, in the map's own units — inches on a tabletop, hexes on a
// printed hex map — so a tap turns straight into the point, square or hex an order takes.
// Nothing here knows a ruleset: what a style means in a game comes in the map's legend.
//
// On a phone a whole table is a few pixels per inch, so the map pans and zooms (buttons,
// wheel, drag, pinch), opens on the side's own pieces, and keeps its words at least 11 CSS
// pixels high at any zoom.

import { clear, h, s } from "./dom.js";
import { center, corners, fromLabel, mapHexes, nearestHex } from "./hexes.js";
import { t } from "./i18n.js";
import { nearestPoint, place } from "./labels.js";

const MARGIN = 2.5; // around a tabletop, in inches, for the rulers
const MIN_TEXT = 12; // CSS pixels: map words stay readable at any zoom
const MAX_ZOOM = 12;
const HEX_ACROSS = 40; // CSS pixels across a hex from which its number is drawn

export function hasMap(view) {
  return Boolean(view.map);
}

export class Board {
  /** `options.minText()`: the least height of the map's words, in CSS pixels (a screen read
   * from across a table asks for more than a phone in the hand); `options.maxHeight()`: the
   * most the map may be tall, in CSS pixels (70% of the window's height unless told);
   * `options.whole`: open on the whole map, even where a phone opens on its own pieces. */
  constructor(container, options = {}) {
    this.container = container;
    this.minText = options.minText || (() => MIN_TEXT);
    this.maxHeight = options.maxHeight || (() => window.innerHeight * 0.7);
    this.whole = Boolean(options.whole); // opens on the whole map, even on a phone
    this.picking = null; // {label, where, done} while the player picks on the map
    this.zoom = 1;
    this.centre = null; // [x, y] in map units
    this.key = null; // what the drawn ground was made for
    this.focused = false;
    this.build();
  }

  build() {
    this.svg = s("svg", { class: "map board", role: "img", "aria-label": t("map"), dataset: { tLabel: "map" }, preserveAspectRatio: "xMidYMid meet" });
    this.ground = s("g", { class: "ground" });
    this.areas = s("g", { class: "areas" });
    this.paths = s("g", { class: "lines" });
    this.pieces = s("g", { class: "tokens" });
    this.marks = s("g", { class: "marks" });
    this.plans = s("g", { class: "plans" }); // the order being filled in: plan()
    this.svg.append(this.ground, this.areas, this.paths, this.plans, this.pieces, this.marks);
    this.banner = h("span", { class: "pick-banner" });
    this.bar = h("div", { class: "pick-bar" }, this.banner,
      h("button", { type: "button", dataset: { t: "" }, onclick: () => this.cancelPick() }, t("Cancel")));
    const zoomIn = h("button", { type: "button", class: "zoom", "aria-label": t("Zoom in"), dataset: { tLabel: "Zoom in" }, onclick: () => this.zoomBy(1.6) }, "+");
    const zoomOut = h("button", { type: "button", class: "zoom", "aria-label": t("Zoom out"), dataset: { tLabel: "Zoom out" }, onclick: () => this.zoomBy(1 / 1.6) }, "−");
    const whole = h("button", { type: "button", class: "zoom whole", dataset: { t: "" }, onclick: () => this.fit(null) }, t("Whole map"));
    // data-t, data-t-label: put into the page's words again if they arrive after the map is built.
    const mine = h("button", { type: "button", class: "zoom mine", dataset: { t: "" }, onclick: () => this.fit(this.focusBox()) }, t("My pieces"));
    this.mine = mine;
    this.caption = h("p", { class: "map-caption", "aria-live": "polite" });
    this.legend = h("ul", { class: "legend" });
    this.frame = h("div", { class: "map-frame" }, this.svg);
    this.container.append(this.bar, this.frame, h("div", { class: "map-tools" }, zoomIn, zoomOut, mine, whole), this.caption, this.legend);
    this.listen();
    new ResizeObserver(() => this.apply()).observe(this.frame);
  }

  // --- drawing ------------------------------------------------------------------------------

  draw(view) {
    const map = view.map;
    this.map = map;
    const key = JSON.stringify([map.units, map.size, map.hexes, map.squares]);
    if (key !== this.key) {
      this.key = key;
      this.drawGround(map);
      this.zoom = 1;
      this.centre = null;
      this.focused = false;
    }
    clear(this.areas).append(...map.layers.map((layer) => this.drawLayer(layer)));
    clear(this.paths).append(...(map.lines || []).map(drawLine));
    this.mine.hidden = !(map.focus && map.focus.length); // the referee has no pieces of its own
    clear(this.pieces).append(...this.drawTokens(map.tokens));
    this.laidOut = null; // new labels: lay them out again (apply)
    this.drawPlans(); // a plan drawn from a piece follows it
    this.drawLegend(map);
    if (!this.picking) this.caption.textContent = map.caption;
    if (!this.focused) {
      this.focused = true;
      // A phone opens on the side's own pieces; a desktop shows the whole map.
      const narrow = !this.whole && this.frame.clientWidth < 700;
      this.fit(narrow ? this.focusBox() : null);
    } else {
      this.apply();
    }
  }

  drawGround(map) {
    const g = clear(this.ground);
    if (map.units === "hexes") {
      const { columns, rows, shifted } = map.hexes;
      this.hexes = mapHexes(columns, rows, shifted);
      this.shifted = shifted;
      const xs = this.hexes.map((one) => one.xy[0]);
      const ys = this.hexes.map((one) => one.xy[1]);
      this.extent = [Math.min(...xs) - 1.2, Math.min(...ys) - 1.1, Math.max(...xs) + 1.2, Math.max(...ys) + 1.1];
      for (const one of this.hexes) {
        g.append(
          s("polygon", { class: "hex", points: corners(one.xy), dataset: { hex: one.label } }),
          s("text", { class: "hex-label", x: one.xy[0], y: one.xy[1] - 0.42, "text-anchor": "middle" }, one.label),
        );
      }
    } else {
      const [width, depth] = map.size;
      this.hexes = null;
      this.extent = [-MARGIN, -MARGIN, width + MARGIN, depth + MARGIN];
      g.append(s("rect", { class: map.schematic ? "table schematic" : "table", x: 0, y: 0, width, height: depth }));
      const squares = Object.keys(map.squares || {}).length ? squaresRuler(map.squares) : null;
      const ruler = squares || s("g", { class: "ruler" });
      if (!squares) {
        for (let x = 0; x <= width; x += 6) ruler.append(s("text", { class: "small", x, y: -0.8, "text-anchor": "middle" }, String(x)));
        for (let y = 6; y <= depth; y += 6) ruler.append(s("text", { class: "small", x: -0.8, y: y + 0.4, "text-anchor": "end" }, String(y)));
      }
      g.append(ruler);
    }
    for (const [ref, [x0, y0, x1, y1]] of Object.entries(map.squares || {})) {
      g.append(
        s("rect", { class: "square", x: x0, y: y0, width: x1 - x0, height: y1 - y0, dataset: { square: ref } }),
        s("text", { class: "square-label", x: x0 + 0.6, y: y0 + 0.6, "dominant-baseline": "hanging" }, ref),
      );
    }
  }

  drawLayer(layer) {
    const g = s("g", { class: `layer ${layer.style}` });
    (layer.polygons || []).forEach((outline, i) => {
      const title = (layer.titles || [])[i] || layer.legend;
      g.append(s("polygon", { points: outline.map(([x, y]) => `${x},${y}`).join(" "), dataset: { title } }));
    });
    const hexTitle = (layer.titles || [])[0] || layer.legend;
    for (const label of layer.hexes || []) {
      const hex = fromLabel(label, this.shifted);
      if (hex) g.append(s("polygon", { class: "area-hex", points: corners(center(hex), 0.97), dataset: { hex: label, title: hexTitle } }));
    }
    return g;
  }

  drawTokens(tokens) {
    // Tokens sharing a hex stand side by side.
    const byHex = new Map();
    const out = [];
    for (const token of tokens) {
      if (typeof token.at === "string") {
        const list = byHex.get(token.at) || [];
        list.push(token);
        byHex.set(token.at, list);
      } else {
        out.push(drawToken(token, token.at, 1));
      }
    }
    for (const [label, list] of byHex) {
      const hex = fromLabel(label, this.shifted);
      if (!hex) continue;
      const [cx, cy] = center(hex);
      list.forEach((token, i) => {
        const dx = (i - (list.length - 1) / 2) * (list.length > 2 ? 0.42 : 0.6);
        const dy = list.length > 2 ? (i % 2 ? 0.18 : -0.08) : 0;
        out.push(drawToken(token, [cx + dx, cy + dy], list.length > 1 ? 0.7 : 1));
      });
    }
    return out;
  }

  drawLegend(map) {
    const seen = new Set();
    const items = [];
    for (const entry of map.legend || []) {
      const key = `${entry.style}|${entry.words}`;
      if (seen.has(key) || !entry.words) continue;
      seen.add(key);
      items.push(h("li", {}, h("span", { class: `swatch ${entry.style}`, "aria-hidden": "true" }), entry.words));
    }
    clear(this.legend).append(...items);
  }

  // --- what an order plans ------------------------------------------------------------------

  /** Draw the places the order being filled in holds (forms.js `places`): points, squares
   * and hexes, a list of points joined in order where its words say it is a line (a path, a
   * gap), and drawn from the piece it starts from. Replaces the plan drawn before. */
  plan(shapes) {
    this.planned = Array.isArray(shapes) ? shapes : [];
    this.drawPlans();
  }

  drawPlans() {
    const g = clear(this.plans);
    if (!this.map) return;
    for (const shape of this.planned || []) {
      const one = s("g", { class: "plan", dataset: { path: shape.path, title: shape.title || "" } });
      const at = (shape.points || []).map(([x, y]) => [x, y]);
      const spots = (shape.labels || []).map((label) => this.placeOf(shape.where, label)).filter(Boolean);
      const start = shape.from ? this.pieceAt(shape.from) : null;
      const along = [...(start ? [start] : []), ...at, ...spots.map((spot) => spot.centre)];
      if ((shape.line || start) && along.length > 1) {
        one.append(s("polyline", { class: "plan-line", points: along.map(([x, y]) => `${x},${y}`).join(" ") }));
      }
      const r = this.hexes ? 0.22 : 0.4;
      at.forEach(([x, y]) => one.append(s("circle", { class: "plan-point", cx: x, cy: y, r })));
      spots.forEach((spot) => one.append(spot.outline));
      const last = along[along.length - 1];
      if (last && shape.title) {
        one.append(s("text", { class: "plan-label", x: last[0], y: last[1] + r + 0.2, "text-anchor": "middle", "dominant-baseline": "hanging" }, shape.title));
      }
      g.append(one);
    }
  }

  /** Where a piece stands on the map now (its token), or null. */
  pieceAt(id) {
    const token = ((this.map && this.map.tokens) || []).find((one) => one.id === id);
    if (!token) return null;
    if (typeof token.at === "string") {
      const hex = fromLabel(token.at, this.shifted);
      return hex ? center(hex) : null;
    }
    return Array.isArray(token.at) ? token.at : null;
  }

  /** A square or hex by its label: its middle and its outline, or null if the map has none. */
  placeOf(where, label) {
    if (where === "hex" && this.hexes) {
      const hex = fromLabel(label, this.shifted);
      if (!hex) return null;
      return { centre: center(hex), outline: s("polygon", { class: "plan-place", points: corners(center(hex), 0.9) }) };
    }
    const box = where === "square" && this.map.squares ? this.map.squares[label] : null;
    if (!box) return null;
    const [x0, y0, x1, y1] = box;
    return { centre: [(x0 + x1) / 2, (y0 + y1) / 2], outline: s("rect", { class: "plan-place", x: x0, y: y0, width: x1 - x0, height: y1 - y0 }) };
  }

  // --- zoom and pan -------------------------------------------------------------------------

  /** The box around the side's own tokens, or null. */
  focusBox() {
    const wanted = new Set((this.map && this.map.focus) || []);
    const points = [];
    for (const el of this.pieces.querySelectorAll("[data-piece]")) {
      if (!wanted.has(el.dataset.piece)) continue;
      const box = el.getBBox();
      points.push([box.x, box.y], [box.x + box.width, box.y + box.height]);
    }
    if (!points.length) return null;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const pad = this.hexes ? 2 : 6;
    return [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) + pad, Math.max(...ys) + pad];
  }

  fit(box) {
    const [x0, y0, x1, y1] = this.extent;
    const target = box || this.extent;
    const zoom = Math.min((x1 - x0) / (target[2] - target[0]), (y1 - y0) / (target[3] - target[1]));
    this.zoom = Math.max(1, Math.min(MAX_ZOOM, zoom));
    this.centre = [(target[0] + target[2]) / 2, (target[1] + target[3]) / 2];
    this.apply();
  }

  zoomBy(factor, at = null) {
    const before = this.zoom;
    this.zoom = Math.max(1, Math.min(MAX_ZOOM, this.zoom * factor));
    if (at && this.centre) {
      // Keep the point under the fingers (or the wheel) where it is.
      const k = before / this.zoom;
      this.centre = [at[0] + (this.centre[0] - at[0]) * k, at[1] + (this.centre[1] - at[1]) * k];
    }
    this.apply();
  }

  apply() {
    if (!this.extent) return;
    const [x0, y0, x1, y1] = this.extent;
    // The map is as tall as its shape asks at this width (no empty bands), up to 70% of
    // the screen's height (or the height the page allows it).
    const across = this.frame.clientWidth || 1;
    const tall = Math.min(across * ((y1 - y0) / (x1 - x0)), this.maxHeight());
    this.svg.style.height = `${Math.round(tall)}px`;
    const width = (x1 - x0) / this.zoom;
    const height = (y1 - y0) / this.zoom;
    let [cx, cy] = this.centre || [(x0 + x1) / 2, (y0 + y1) / 2];
    cx = Math.max(x0 + width / 2, Math.min(x1 - width / 2, cx));
    cy = Math.max(y0 + height / 2, Math.min(y1 - height / 2, cy));
    this.centre = [cx, cy];
    this.svg.setAttribute("viewBox", `${(cx - width / 2).toFixed(3)} ${(cy - height / 2).toFixed(3)} ${width.toFixed(3)} ${height.toFixed(3)}`);
    // Map words stay at least minText CSS pixels high: a size in map units per zoom.
    const shown = this.svg.getBoundingClientRect();
    const perUnit = Math.min(shown.width / width, shown.height / height) || 1;
    const size = Number((this.minText() / perUnit).toFixed(3));
    this.svg.style.setProperty("--text", `${size}px`);
    this.svg.classList.toggle("close", perUnit > 28);
    this.showHexNumbers(perUnit);
    // Labels stay within what is on the screen (a label pushed past the edge of a zoomed
    // phone map is cut off): laid out again when the words' size or the part shown changes.
    const seen = [cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2];
    const key = `${size}|${seen.map((v) => v.toFixed(1)).join(",")}`;
    if (this.laidOut !== key) this.layoutLabels(size, seen, key);
  }

  /** Hex numbers once a hex is large enough on the screen to read its number in words of
   * the least size (HEX_ACROSS CSS pixels across), whatever the rest of the map's small
   * words do. */
  showHexNumbers(perUnit) {
    this.svg.classList.toggle("hex-numbers", Boolean(this.hexes) && 2 * perUnit >= HEX_ACROSS);
  }

  /** Move the pieces' labels so that none overlaps another or a piece (labels.js), at the
   * words' size now (`size`, in map units): a label moved away from its piece gets a
   * leader line to it, within `seen`, the part of the map on the screen. Again whenever the
   * zoom changes the words' size or the part shown. */
  layoutLabels(size, seen = this.extent, key = size) {
    this.laidOut = key;
    const tokens = [...this.pieces.querySelectorAll("g.token")].filter((g) => g.labelAt);
    const obstacles = [];
    for (const g of tokens) {
      const { r, models } = g.labelAt;
      for (const [mx, my] of models) obstacles.push([mx - r, my - r, mx + r, my + r]);
    }
    const items = [];
    const shown = [];
    for (const g of tokens) {
      const text = g.querySelector("text.label");
      const leader = g.querySelector("line.leader");
      if (leader) leader.remove();
      if (!text || !text.textContent) continue;
      const { x, y, r } = g.labelAt;
      text.setAttribute("x", x);
      text.setAttribute("y", y);
      // Measured where drawn (the words' own font); estimated when the map is not shown.
      const box = text.getBBox();
      const width = box.width || text.textContent.length * 0.6 * size;
      const height = box.height || 1.2 * size;
      const rise = box.height ? box.y - y : -0.9 * size; // baseline to the top of the words
      items.push({ x, y, r, width, height });
      shown.push({ g, text, rise });
    }
    const laid = place(items, obstacles, seen);
    laid.forEach(({ box, leader }, i) => {
      const { g, text, rise } = shown[i];
      text.setAttribute("x", ((box[0] + box[2]) / 2).toFixed(3));
      text.setAttribute("y", (box[1] - rise).toFixed(3));
      if (leader) {
        const { x, y, r } = g.labelAt;
        const [ex, ey] = nearestPoint(box, [x, y]);
        const far = Math.hypot(ex - x, ey - y) || 1;
        g.insertBefore(s("line", {
          class: "leader",
          x1: (x + ((ex - x) * r) / far).toFixed(3), y1: (y + ((ey - y) * r) / far).toFixed(3),
          x2: ex.toFixed(3), y2: ey.toFixed(3),
        }), text);
      }
    });
  }

  listen() {
    const pointers = new Map();
    let moved = 0;
    let pinch = null;
    this.svg.addEventListener("pointerdown", (event) => {
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      moved = 0;
      if (pointers.size === 2) pinch = { gap: gap(pointers), zoom: this.zoom };
    });
    this.svg.addEventListener("pointermove", (event) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const now = [event.clientX, event.clientY];
      pointers.set(event.pointerId, now);
      if (pointers.size === 2 && pinch) {
        this.zoom = Math.max(1, Math.min(MAX_ZOOM, pinch.zoom * (gap(pointers) / pinch.gap)));
        this.apply();
        moved += 10;
        return;
      }
      const dx = now[0] - last[0];
      const dy = now[1] - last[1];
      moved += Math.abs(dx) + Math.abs(dy);
      if (moved < 6 || this.zoom <= 1) return;
      this.svg.setPointerCapture(event.pointerId);
      const rect = this.svg.getBoundingClientRect();
      const box = this.svg.viewBox.baseVal;
      const perPixel = Math.max(box.width / rect.width, box.height / rect.height);
      this.centre = [this.centre[0] - dx * perPixel, this.centre[1] - dy * perPixel];
      this.apply();
    });
    const up = (event) => {
      const wasTap = pointers.size === 1 && moved < 6;
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      if (wasTap && event.type === "pointerup") this.tapped(event);
    };
    this.svg.addEventListener("pointerup", up);
    this.svg.addEventListener("pointercancel", up);
    this.svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      this.zoomBy(event.deltaY < 0 ? 1.25 : 0.8, this.pointAt(event));
    }, { passive: false });
  }

  pointAt(event) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return [point.x, point.y];
  }

  // --- taps and picks -----------------------------------------------------------------------

  /** Ask the player to tap the map for an order's field: `where` is "point", "square" or
   * "hex"; `done` gets [x, y] in inches, or the square's or hex's label. `snap`: the name
   * of the map's line a tapped point moves onto (see snapped). */
  pick(label, where, done, snap = null) {
    this.picking = { label, where, done, snap };
    this.container.classList.add("picking");
    this.banner.textContent = t("Tap the map: {field}", { field: label });
    this.container.scrollIntoView({ block: "nearest" });
    if (snap) this.showLine(snap);
  }

  /** Bring the map's line `name` into view (a phone may be zoomed on its own pieces, far
   * from the route it must tap), unless it is in view already. */
  showLine(name) {
    const line = ((this.map && this.map.lines) || []).find((l) => l.name === name);
    if (!line || !line.points.length) return;
    const xs = line.points.map((p) => p[0]);
    const ys = line.points.map((p) => p[1]);
    const pad = 4;
    const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) + pad, Math.max(...ys) + pad];
    const shown = this.svg.viewBox.baseVal;
    const inside = shown && shown.width && box[0] >= shown.x && box[1] >= shown.y &&
      box[2] <= shown.x + shown.width && box[3] <= shown.y + shown.height;
    if (!inside) this.fit(box);
  }

  cancelPick() {
    this.picking = null;
    this.container.classList.remove("picking");
  }

  /** The mark of the last pick stays until the order that used it is sent. */
  forgetPick() {
    clear(this.marks);
  }

  tapped(event) {
    const at = this.pointAt(event);
    if (!at) return;
    const square = this.squareAt(at);
    const hex = this.hexes ? nearestHex(this.hexes, at) : null;
    if (this.picking) {
      const { where, done, snap } = this.picking;
      let value = null;
      if (where === "point") value = snapped(this.map, snap, at) || [Math.round(at[0] * 10) / 10, Math.round(at[1] * 10) / 10];
      if (where === "square") value = square;
      if (where === "hex") value = hex && hex.label;
      if (value === null || value === undefined) {
        this.banner.textContent = t("Tap inside the map: {field}", { field: this.picking.label });
        return;
      }
      this.cancelPick();
      this.mark(where, value, hex);
      done(value);
      return;
    }
    // A phone has no hover: a tap says what is there.
    const titled = event.target.closest("[data-title]");
    const words = [];
    if (hex) words.push(t("Hex {hex}", { hex: hex.label }));
    if (square) words.push(t("Square {square}", { square }));
    if (titled) words.push(titled.dataset.title);
    this.caption.textContent = words.join(" · ") || this.map.caption;
  }

  squareAt([x, y]) {
    for (const [ref, [x0, y0, x1, y1]] of Object.entries((this.map && this.map.squares) || {})) {
      if (x >= x0 && x < x1 && y >= y0 && y < y1) return ref;
    }
    return null;
  }

  mark(where, value, hex) {
    clear(this.marks);
    if (where === "point") this.marks.append(s("circle", { class: "picked", cx: value[0], cy: value[1], r: 0.6 }));
    if (where === "hex" && hex) this.marks.append(s("polygon", { class: "picked", points: corners(hex.xy, 0.97) }));
    if (where === "square") {
      const [x0, y0, x1, y1] = this.map.squares[value];
      this.marks.append(s("rect", { class: "picked", x: x0, y: y0, width: x1 - x0, height: y1 - y0 }));
    }
  }
}

/** A map of squares (a grid game's table) measures in squares, as its rules do: each
 * column's letters and each row's number beside the table, in the middle of the squares
 * they name, along whichever edge the grid runs (it may be turned). */
function squaresRuler(squares) {
  const ruler = s("g", { class: "ruler squares" });
  const spans = new Map(); // a column's letters or a row's number -> the box of its squares
  for (const [ref, [x0, y0, x1, y1]] of Object.entries(squares)) {
    const match = /^([A-Za-z]+)(\d+)$/.exec(ref);
    if (!match) continue;
    for (const name of [match[1], match[2]]) {
      const [a0, b0, a1, b1] = spans.get(name) || [x0, y0, x1, y1];
      spans.set(name, [Math.min(a0, x0), Math.min(b0, y0), Math.max(a1, x1), Math.max(b1, y1)]);
    }
  }
  for (const [name, [x0, y0, x1, y1]] of spans) {
    // A column (or row) of squares is one square across one way and the table's length the
    // other: named above the table if it runs down it, left of the table if across.
    const down = x1 - x0 <= y1 - y0;
    ruler.append(down
      ? s("text", { class: "ruler-square", x: (x0 + x1) / 2, y: -0.8, "text-anchor": "middle" }, name)
      : s("text", { class: "ruler-square", x: -0.8, y: (y0 + y1) / 2, "text-anchor": "end", "dominant-baseline": "middle" }, name));
  }
  return ruler;
}

/** A route or other path of the map's `lines`, under the tokens. */
function drawLine(line) {
  const points = line.points.map(([x, y]) => `${x},${y}`).join(" ");
  const g = s("g", { class: `line ${line.style}`, dataset: { line: line.name, title: line.title || "" } });
  g.append(s("polyline", { points }));
  const [ex, ey] = line.points[line.points.length - 1];
  if (line.points.length > 1) g.append(s("circle", { class: "end", cx: ex, cy: ey, r: 0.35 }));
  return g;
}

/** A point the order needs on one of the map's lines (a field's `snap` names it): the tap
 * `at` moved onto the nearest point of that line, to a hundredth of an inch — a finger
 * 2 pixels off a route on a phone is a fraction of an inch off. Null when the map shows no
 * such line (the tap is then taken as it is, and the server judges it). */
export function snapped(map, name, at) {
  const line = name && map && (map.lines || []).find((l) => l.name === name);
  if (!line || !line.points.length) return null;
  let best = line.points[0];
  let far = Math.hypot(at[0] - best[0], at[1] - best[1]);
  for (let i = 1; i < line.points.length; i++) {
    const [ax, ay] = line.points[i - 1];
    const [bx, by] = line.points[i];
    const [dx, dy] = [bx - ax, by - ay];
    const length = dx * dx + dy * dy;
    const k = length ? Math.max(0, Math.min(1, ((at[0] - ax) * dx + (at[1] - ay) * dy) / length)) : 0;
    const near = [ax + k * dx, ay + k * dy];
    const d = Math.hypot(at[0] - near[0], at[1] - near[1]);
    if (d < far) [best, far] = [near, d];
  }
  return best.map((n) => Math.round(n * 100) / 100);
}

function gap(pointers) {
  const [a, b] = [...pointers.values()];
  return Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
}

const HEXSIDES = ["A", "B", "C", "D", "E", "F"];

/** A token; its label is placed by Board.layoutLabels. */
function drawToken(token, [x, y], scale) {
  const g = s("g", { class: `token ${token.style} ${token.shape}`, dataset: { piece: token.id || "", title: token.title } });
  const r = (token.radius || 0.5) * (typeof token.at === "string" ? 0.6 * scale : 1);
  const models = token.models && token.models.length ? token.models : [[x, y]];
  for (const [mx, my] of models) {
    if (token.shape === "square") {
      g.append(s("rect", { class: "mark", x: mx - r, y: my - r, width: 2 * r, height: 2 * r, rx: r / 4 }));
    } else if (token.shape === "diamond") {
      g.append(s("polygon", { class: "mark", points: `${mx},${my - r} ${mx + r},${my} ${mx},${my + r} ${mx - r},${my}` }));
    } else {
      g.append(s("circle", { class: "mark", cx: mx, cy: my, r }));
    }
  }
  const heading = HEXSIDES.indexOf(token.heading);
  if (heading >= 0) {
    // A tick towards the hexside it faces (A up the map, then clockwise).
    const angle = (-90 + 60 * heading) * (Math.PI / 180);
    g.append(s("line", {
      class: "heading",
      x1: x + r * Math.cos(angle), y1: y + r * Math.sin(angle),
      x2: x + (r + 0.22 * scale) * Math.cos(angle), y2: y + (r + 0.22 * scale) * Math.sin(angle),
    }));
  }
  if (typeof token.at !== "string") drawFacing(g, token, [x, y], r);
  const [lx, ly] = models[0];
  g.append(s("text", { class: "label", x: lx, y: ly - r - 0.25, "text-anchor": "middle" }, token.label));
  g.labelAt = { x: lx, y: ly, r, models };
  return g;
}

/** On an inches map: the arc a piece's weapon covers (a faint wedge, none if it covers all
 * round) and a pointer the way the piece faces, both in degrees clockwise from up the map. */
function drawFacing(g, token, [x, y], r) {
  const toward = (degrees, reach) => {
    const a = (degrees - 90) * (Math.PI / 180);
    return [x + reach * Math.cos(a), y + reach * Math.sin(a)];
  };
  if (Array.isArray(token.arc) && token.arc[1] < 360) {
    const [centre, width] = token.arc;
    const reach = r + 2.4;
    const [x1, y1] = toward(centre - width / 2, reach);
    const [x2, y2] = toward(centre + width / 2, reach);
    const large = width > 180 ? 1 : 0;
    g.prepend(s("path", { class: "arc", d: `M${x},${y} L${x1},${y1} A${reach},${reach} 0 ${large} 1 ${x2},${y2} Z` }));
  }
  if (typeof token.facing === "number") {
    const [tx, ty] = toward(token.facing, r + 0.7);
    const [lx, ly] = toward(token.facing - 35, r + 0.1);
    const [rx, ry] = toward(token.facing + 35, r + 0.1);
    g.append(s("polygon", { class: "facing", points: `${tx},${ty} ${lx},${ly} ${rx},${ry}` }));
  }
}
