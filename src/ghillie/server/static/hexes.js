// Hex geometry for printed hex maps: flat-topped hexes in columns, hexside A up the map,
// each labelled column-then-row ("1206"), as ghillie/measure/hexes.py lays them out (hex
// size 1, hex 0101 at the origin, y down the page).

const SQRT3 = Math.sqrt(3);
const LABEL = /^(\d{2})(\d{2})$/;

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

export function corners([x, y], size = 1) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 3) * i;
    out.push(`${(x + size * Math.cos(angle)).toFixed(3)},${(y + size * Math.sin(angle)).toFixed(3)}`);
  }
  return out.join(" ");
}

/** Every hex of the map, column by column, as {label, hex, xy}. */
export function mapHexes(columns, rows, shifted) {
  const out = [];
  for (let column = 1; column <= columns; column++) {
    for (let row = 1; row <= rows; row++) {
      const hex = fromOffset(column, row, shifted);
      out.push({ label: toLabel(hex, shifted), hex, xy: center(hex) });
    }
  }
  return out;
}

/** The map's hex under a point, or null off the map. */
export function nearestHex(hexes, [x, y]) {
  let best = null;
  let bestDistance = Infinity;
  for (const one of hexes) {
    const d = (one.xy[0] - x) ** 2 + (one.xy[1] - y) ** 2;
    if (d < bestDistance) {
      best = one;
      bestDistance = d;
    }
  }
  return bestDistance <= 1 ? best : null;
}
