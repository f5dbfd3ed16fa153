// The games this browser was given a seat in, kept in its local storage so
// that a seat's link is never lost with a reload: the lobby lists them, with
// whose turn it is.

const KEY = "tilebag.games";
const MOST = 50;

// [{id, seat, token, name, saved}], newest first.
export function remembered() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games.filter((g) => g && typeof g.id === "string" && typeof g.token === "string") : [];
  } catch (err) {
    return [];
  }
}

// Keep a seat's link (once per game and seat).
export function remember(game) {
  const others = remembered().filter((g) => !(g.id === game.id && g.seat === game.seat));
  const kept = [{ ...game, saved: new Date().toISOString() }, ...others].slice(0, MOST);
  try { localStorage.setItem(KEY, JSON.stringify(kept)); } catch (err) { /* storage full or off: nothing kept */ }
}

// Forget a game (its link no longer works).
export function forget(id) {
  try { localStorage.setItem(KEY, JSON.stringify(remembered().filter((g) => g.id !== id))); } catch (err) { /* off */ }
}

// The page's link for a remembered seat.
export function link(game) {
  return `/games/${encodeURIComponent(game.id)}?token=${encodeURIComponent(game.token)}`;
}
