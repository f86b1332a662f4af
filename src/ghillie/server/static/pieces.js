// Naming pieces. Pieces have opaque random ids, so the page always shows a piece's name as
// the server words it for this side ("Raptor 312", "the counter at hex 0412") and sends
// its id. Nothing here knows a ruleset.

/** Every piece the view shows, own or known, by id. */
export function byId(view) {
  const out = new Map();
  for (const piece of view.pieces || []) out.set(piece.id, { ...piece, own: piece.owner === view.you });
  for (const piece of view.known || []) out.set(piece.id, { ...piece, own: false });
  return out;
}

export function pieceName(piece) {
  return piece ? piece.name || "a piece" : "a piece";
}

export function sideName(view, side) {
  const found = (view.sides || []).find((s) => s.id === side);
  return found ? found.name : side;
}

/** A few words on a piece's state, as the server words them for this side. */
export function summary(piece) {
  return piece.about || "";
}
