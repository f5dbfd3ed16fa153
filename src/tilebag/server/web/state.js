// The page's state, as pure functions: the newest view by sequence number,
// the player's order of the rack's tiles, pre-moves that still fit, and gaps
// in the socket's sequence numbers. Nothing here touches the page.

// The view to keep: the newer of the two by sequence number (a tie goes to
// the incoming one, which is as new and was made later). Whichever way a view
// came (the first GET, an action's answer, the socket), the page keeps this
// one and redraws from it.
export function newest(current, incoming) {
  if (!incoming) return current;
  if (!current || incoming.seq >= current.seq) return incoming;
  return current;
}

// The player's order of the rack's tiles, kept as far as the rack allows:
// tiles still held keep their places, new tiles go at the end.
export function keepOrder(order, rack) {
  const left = [...rack];
  const kept = [];
  for (const tile of order) {
    const at = left.indexOf(tile);
    if (at >= 0) { kept.push(tile); left.splice(at, 1); }
  }
  return kept.concat(left);
}

// Tiles placed while another seat was thinking (pre-moves), kept while every
// square they are on is still empty on the new board and every tile is still
// on the rack (by its place in the player's order); [] as soon as one is not.
export function premovesThatFit(pending, rows, order) {
  const used = new Set();
  for (const tile of pending) {
    if (!rows[tile.row] || rows[tile.row][tile.col]) return [];
    if (used.has(tile.rackIndex) || tile.rackIndex >= order.length) return [];
    const held = order[tile.rackIndex];
    if (held !== (tile.blank ? "?" : tile.label)) return [];
    used.add(tile.rackIndex);
  }
  return pending;
}

// Whether a socket message's sequence number leaves a gap after the newest
// the socket told (then the page asks for what it missed).
export function isGap(heard, seq) {
  return heard > 0 && typeof seq === "number" && seq > heard + 1;
}
