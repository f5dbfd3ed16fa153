// Notation, as pure functions: square names, tiles as text, and the play the
// tiles a player placed make, in GCG notation as the server reads it. Nothing
// here touches the page.

export const COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// "H8": the column letter, then the row number (rows and columns from 0).
export function squareName(row, col) {
  return `${COLUMNS[col]}${row + 1}`;
}

// {row, col} of a square's name ("H8" or "8H"), or null.
export function parseSquare(name) {
  const match = /^([A-Z])(\d{1,2})$|^(\d{1,2})([A-Z])$/.exec(String(name).toUpperCase());
  if (!match) return null;
  const letter = match[1] || match[4];
  const number = Number(match[2] || match[3]);
  return { row: number - 1, col: COLUMNS.indexOf(letter) };
}

// A tile in a move's text: its label, in brackets when it has several
// letters ("[CH]"), lower case when a blank stands for it.
export function tileText(label, blank = false) {
  const text = label.length > 1 ? `[${label}]` : label;
  return blank ? text.toLowerCase() : text.toUpperCase();
}

// The play the pending tiles make, in GCG notation ("8D WO.D": the whole word
// along their line, "." for a tile already on the board), or null when they
// are not in one line. `pending` is [{row, col, label, blank}], `board` the
// view's rows (a label, lower case for a blank, or "" for an empty square).
export function playNotation(pending, board) {
  if (!pending.length) return null;
  const rows = new Set(pending.map((p) => p.row));
  const cols = new Set(pending.map((p) => p.col));
  const filled = (r, c) => Boolean(board[r] && board[r][c]);
  let down;
  if (pending.length === 1) {
    const { row, col } = pending[0];
    down = filled(row - 1, col) || filled(row + 1, col);
  } else if (rows.size === 1) {
    down = false;
  } else if (cols.size === 1) {
    down = true;
  } else {
    return null;
  }
  const at = (r, c) => {
    const placed = pending.find((p) => p.row === r && p.col === c);
    if (placed) return tileText(placed.label, placed.blank);
    return filled(r, c) ? "." : "";
  };
  let { row, col } = pending.reduce((a, b) => ((down ? b.row < a.row : b.col < a.col) ? b : a));
  while (at(down ? row - 1 : row, down ? col : col - 1)) {
    if (down) row -= 1; else col -= 1;
  }
  const where = down ? `${COLUMNS[col]}${row + 1}` : `${row + 1}${COLUMNS[col]}`;
  let word = "";
  let placed = 0;
  while (at(row, col)) {
    const text = at(row, col);
    if (text !== ".") placed += 1;
    word += text;
    if (down) row += 1; else col += 1;
  }
  if (placed !== pending.length) return null;  // a gap: not one word
  return `${where} ${word}`;
}

// The squares a play in GCG notation covers that it places a tile on, as
// names ("8D WO.D" -> ["D8", "E8", "G8"]); [] for anything but a placement.
export function playSquares(text) {
  const [where, word] = String(text).trim().split(/\s+/);
  if (!where || !word) return [];
  const start = parseSquare(where);
  if (!start) return [];
  const across = /^\d/.test(where);
  const squares = [];
  let { row, col } = start;
  for (const token of word.match(/\[[^\]]+\]|\(([^)]*)\)|./g) || []) {
    if (token.startsWith("(")) {  // letters already on the board
      const count = (token.slice(1, -1).match(/\[[^\]]+\]|./g) || []).length;
      if (across) col += count; else row += count;
      continue;
    }
    if (token !== ".") squares.push(squareName(row, col));
    if (across) col += 1; else row += 1;
  }
  return squares;
}
