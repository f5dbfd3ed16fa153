// The rack: the seat's tiles in the order the player keeps them, which tiles
// are on the board already, the one tapped (waiting for a square); drag a
// tile onto another to reorder, or onto the board to place it.

import { $, el } from "./dom.js";

export class RackView {
  // `onTap(index)` for a tile tapped, `onMove(from, to)` for one dragged onto another.
  constructor({ onTap, onMove }) {
    this.root = $("rack");
    this.root.addEventListener("click", (event) => {
      const tile = event.target.closest("[data-index]");
      if (tile) onTap(Number(tile.dataset.index));
    });
    this.root.addEventListener("dragstart", (event) => {
      const tile = event.target.closest("[data-index]");
      if (tile) event.dataTransfer.setData("text/plain", tile.dataset.index);
    });
    this.root.addEventListener("dragover", (event) => event.preventDefault());
    this.root.addEventListener("drop", (event) => {
      event.preventDefault();
      const tile = event.target.closest("[data-index]");
      const from = Number(event.dataTransfer.getData("text/plain"));
      if (tile && !Number.isNaN(from)) onMove(from, Number(tile.dataset.index));
    });
  }

  // Draw the tiles of `order` (labels, "?" a blank); `used` holds the indexes
  // placed on the board, `chosen` the one tapped.
  draw({ order, used, chosen, scoreOf, hidden }) {
    this.root.hidden = hidden;
    const tiles = order.map((label, index) => {
      const blank = label === "?";
      const points = blank ? 0 : scoreOf(label);
      const name = blank ? "blank" : `${label}, ${points} ${points === 1 ? "point" : "points"}`;
      const button = el("button", {
        type: "button", class: "rack-tile tile", role: "option", draggable: "true", "data-index": String(index),
        "aria-label": used.has(index) ? `${name}, on the board` : name,
        "aria-selected": String(chosen === index),
      }, el("span", { class: "letter", text: blank ? "" : label }));
      if (!blank) button.append(el("span", { class: "value", text: String(points) }));
      if (used.has(index)) button.classList.add("used");
      if (chosen === index) button.classList.add("chosen");
      return button;
    });
    this.root.replaceChildren(...tiles);
  }
}
