// Where each piece's label goes on the map so that no two labels overlap: a simple,
// deterministic greedy placement. Each label, in the order given, takes the first free spot
// among candidates around its piece — above it (where a label is looked for first), then to
// the right, left, below and at the corners, then the same a label's height farther out, and
// so on — free meaning clear of the labels already placed and of every piece's mark. A label
// that had to go farther than beside its piece gets a leader line back to it (board.js).
// Plain numbers in, plain numbers out: the page measures the words, this only places them.

const DIRECTIONS = [
  [0, -1], // above: the usual place
  [1, 0],
  [-1, 0],
  [0, 1],
  [1, -1],
  [-1, -1],
  [1, 1],
  [-1, 1],
];
const RINGS = 14; // how far out a label may go, in label heights

/** Do two boxes [x0, y0, x1, y1] overlap (more than touch)? */
export function overlaps(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

function inside(box, bounds) {
  return !bounds || (box[0] >= bounds[0] && box[1] >= bounds[1] && box[2] <= bounds[2] && box[3] <= bounds[3]);
}

/** The candidate boxes for one label, best first: {box, ring}. */
export function candidates({ x, y, r, width: w, height: h }) {
  const gap = 0.2 * h;
  const out = [];
  for (let ring = 0; ring < RINGS; ring++) {
    const d = r + gap + ring * h;
    for (const [dx, dy] of DIRECTIONS) {
      // The label's centre: beyond the piece's edge by d, along the direction, by half its size.
      const diagonal = dx && dy ? Math.SQRT1_2 : 1;
      const cx = x + dx * (d * diagonal + w / 2);
      const cy = y + dy * (d * diagonal + h / 2);
      out.push({ box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], ring, direction: [dx, dy] });
    }
  }
  return out;
}

/**
 * Place labels. `items`: [{x, y, r, width, height}] — the piece's centre and the radius of
 * its mark, the label's size, all in map units. `obstacles`: boxes no label should cover
 * (the pieces' marks). `bounds`: the box labels should stay inside, if any.
 * Returns, for each item in order, {box, moved, leader}: the label's box, whether it left
 * its usual place above the piece, and whether it stands off far enough to need a line.
 * Whenever some candidate is free, no two returned boxes overlap.
 */
export function place(items, obstacles = [], bounds = null) {
  const taken = [];
  return items.map((item) => {
    const options = candidates(item);
    const clear = (box) => !taken.some((other) => overlaps(box, other));
    const free = (box) => clear(box) && !obstacles.some((other) => overlaps(box, other));
    // Best: clear of labels and marks, on the map. Then clear of labels only (a crowded
    // spot: a label over a mark is still readable), then anywhere clear of labels.
    const chosen =
      options.find((c) => free(c.box) && inside(c.box, bounds)) ||
      options.find((c) => clear(c.box) && inside(c.box, bounds)) ||
      options.find((c) => clear(c.box)) ||
      options[0];
    taken.push(chosen.box);
    return {
      box: chosen.box,
      moved: chosen !== options[0],
      leader: chosen.ring > 0,
    };
  });
}

/** The point of `box` nearest to (x, y): where a leader line from a piece meets its label. */
export function nearestPoint(box, [x, y]) {
  return [Math.max(box[0], Math.min(box[2], x)), Math.max(box[1], Math.min(box[3], y))];
}
