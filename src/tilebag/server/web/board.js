// The board: its squares drawn from the view's rows (never from CGP), the
// tiles the player placed, the cursor, the last play; coordinates around it;
// one listener for every square. Each square's accessible name starts with
// its coordinate: "H8, double word, start square, empty", "H8: Q, 10 points".

import { $, el } from "./dom.js";
import { COLUMNS, squareName } from "./notation.js";

const PREMIUM = { W: "triple word", w: "double word", L: "triple letter", l: "double letter" };
const SHORT = { W: "TW", w: "DW", L: "TL", l: "DL" };

export class BoardView {
  // `onSquare(row, col)` for a click or tap, `onDrop(row, col, rackIndex)` for a rack tile dropped on one.
  constructor({ onSquare, onDrop }) {
    this.root = $("board");
    this.layout = null;
    this.root.addEventListener("click", (event) => {
      const square = this.squareAt(event.target);
      if (square) onSquare(square.row, square.col);
    });
    this.root.addEventListener("dragover", (event) => event.preventDefault());
    this.root.addEventListener("drop", (event) => {
      event.preventDefault();
      const square = this.squareAt(event.target);
      const index = Number(event.dataTransfer.getData("text/plain"));
      if (square && !Number.isNaN(index)) onDrop(square.row, square.col, index);
    });
  }

  squareAt(target) {
    const square = target.closest("[data-square]");
    if (!square) return null;
    return { row: Number(square.dataset.row), col: Number(square.dataset.col) };
  }

  // The layout (premiums, start, tiles) and the coordinates around the board.
  setLayout(layout) {
    this.layout = layout;
    const cols = layout.rows[0].length;
    const rows = layout.rows.length;
    const frame = this.root.closest(".board-frame");
    frame.style.setProperty("--cols", cols);
    frame.style.setProperty("--rows", rows);
    $("columns").replaceChildren(...[...COLUMNS.slice(0, cols)].map((letter) => el("span", { text: letter })));
    $("rows").replaceChildren(...Array.from({ length: rows }, (_, row) => el("span", { text: String(row + 1) })));
  }

  scoreOf(label) {
    const tile = this.layout.tiles.find((t) => t.label === label.toUpperCase() || t.label === label);
    return tile ? tile.score : 0;
  }

  // Draw `rows` (labels, lower case a blank, "" empty) with `pending`
  // ([{row, col, label, blank}]), the `cursor` ({row, col, down} or null) and
  // the `last` play's squares (a Set of names).
  draw({ rows, pending = [], cursor = null, last = new Set() }) {
    const squares = [];
    this.layout.rows.forEach((codes, row) => {
      [...codes].forEach((code, col) => {
        const name = squareName(row, col);
        const placed = pending.find((p) => p.row === row && p.col === col);
        const on = rows[row] ? rows[row][col] : "";
        const label = placed ? placed.label : on.toUpperCase();
        const blank = placed ? placed.blank : Boolean(on) && on !== on.toUpperCase();
        const start = row === this.layout.start[0] && col === this.layout.start[1];
        const square = el("button", {
          type: "button", class: `square ${code}`, role: "gridcell", "data-square": name,
          "data-row": String(row), "data-col": String(col), tabindex: "-1",
        });
        let text = name;
        if (label) {
          square.classList.add("tile");
          square.dataset.tile = blank ? label.toLowerCase() : label;
          square.append(el("span", { class: blank ? "letter blank" : "letter", text: label }));
          const points = blank ? 0 : this.scoreOf(label);
          if (!blank) square.append(el("span", { class: "value", text: String(points) }));
          text += `: ${label}${blank ? " (blank)" : `, ${points} ${points === 1 ? "point" : "points"}`}`;
          if (placed) { square.classList.add("pending"); text += ", your tile"; }
          if (last.has(name)) { square.classList.add("last"); text += ", last play"; }
        } else {
          if (start) square.append(el("span", { class: "star", "aria-hidden": "true", text: "★" }));
          else if (code !== ".") square.append(el("span", { class: "label", "aria-hidden": "true", text: SHORT[code] }));
          if (start) square.classList.add("start");
          text += `, ${PREMIUM[code] || "plain"}${start ? ", start square" : ""}, empty`;
        }
        if (cursor && cursor.row === row && cursor.col === col) {
          square.classList.add("cursor", cursor.down ? "down" : "across");
          square.tabIndex = 0;
          text += cursor.down ? ", typing down" : ", typing across";
        }
        square.setAttribute("aria-label", text);
        squares.push(square);
      });
    });
    if (!cursor && squares.length) squares[(this.layout.start[0] * this.layout.rows[0].length) + this.layout.start[1]].tabIndex = 0;
    const rowsOfSquares = [];
    const cols = this.layout.rows[0].length;
    for (let r = 0; r < this.layout.rows.length; r += 1) {
      rowsOfSquares.push(el("div", { role: "row", class: "board-row" }, ...squares.slice(r * cols, (r + 1) * cols)));
    }
    this.root.replaceChildren(...rowsOfSquares);
  }

  focus(row, col) {
    const square = this.root.querySelector(`[data-square="${squareName(row, col)}"]`);
    if (square) square.focus();
  }
}
