// Dialogs, each a native <dialog> that answers with a promise: a
// confirmation, the letter a blank stands for (a grid of the tile set's
// letters), and the tiles to exchange. Escape or Cancel answers null.

import { el } from "./dom.js";

// A modal dialog: `build(finish)` gives its body and its buttons, each
// [label, answer (a value, or a function giving it), primary?].
function open(title, build) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "dialog", "aria-labelledby": "dialog-title" });
    const finish = (value) => { if (dialog.open) dialog.close(); dialog.remove(); resolve(value); };
    const { body, buttons } = build(finish);
    dialog.append(el("h2", { id: "dialog-title", text: title }), ...body);
    const row = el("div", { class: "dialog-buttons" });
    for (const [label, answer, primary] of buttons) {
      const button = el("button", { type: "button", class: primary ? "primary" : "", text: label });
      button.addEventListener("click", () => finish(typeof answer === "function" ? answer() : answer));
      row.append(button);
    }
    dialog.append(row);
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); finish(null); });
    document.body.append(dialog);
    dialog.showModal();
    const first = dialog.querySelector("[data-focus]") || row.querySelector(".primary") || row.querySelector("button");
    first.focus();
  });
}

// Yes or no, for an action that cannot be taken back.
export function confirmAction(title, text, yes) {
  return open(title, () => ({ body: [el("p", { text })], buttons: [["Cancel", null], [yes, true, true]] }));
}

// The letter a blank stands for, chosen from the tile set's letters (a key
// typed chooses it too).
export function chooseBlank(letters) {
  return open("The blank stands for", (finish) => {
    const grid = el("div", { class: "letter-grid", role: "group", "aria-label": "letters" });
    letters.forEach((letter, index) => {
      const attrs = { type: "button", class: "tile letter", text: letter, "aria-label": letter };
      if (index === 0) attrs["data-focus"] = "";
      const button = el("button", attrs);
      button.addEventListener("click", () => finish(letter));
      grid.append(button);
    });
    grid.addEventListener("keydown", (event) => {
      const match = letters.find((l) => l.toLowerCase() === event.key.toLowerCase());
      if (match) { event.preventDefault(); finish(match); }
    });
    return { body: [grid], buttons: [["Cancel", null]] };
  });
}

// The tiles to exchange, chosen on a copy of the rack ("All" takes every one):
// the tiles as text ("" when none was chosen), or null when cancelled.
export function chooseExchange(rack, scoreOf) {
  return open("Exchange tiles", () => {
    const chosen = new Set();
    const tiles = el("div", { class: "exchange-rack", role: "group", "aria-label": "your rack" });
    const buttons = rack.map((tile, index) => {
      const points = scoreOf(tile);
      const name = tile === "?" ? "blank" : `${tile}, ${points} ${points === 1 ? "point" : "points"}`;
      const attrs = { type: "button", class: "tile rack-tile", "aria-pressed": "false", "aria-label": name };
      if (index === 0) attrs["data-focus"] = "";
      const button = el("button", attrs, el("span", { text: tile === "?" ? "" : tile }));
      const toggle = (on) => {
        if (on) chosen.add(index); else chosen.delete(index);
        button.setAttribute("aria-pressed", String(on));
        button.classList.toggle("chosen", on);
      };
      button.addEventListener("click", () => toggle(!chosen.has(index)));
      tiles.append(button);
      return toggle;
    });
    const all = el("button", { type: "button", class: "all", text: "All" });
    all.addEventListener("click", () => buttons.forEach((toggle) => toggle(true)));
    const exchanged = () => [...chosen].sort((a, b) => a - b).map((i) => rack[i]).join("");
    return {
      body: [el("p", { text: "Choose the tiles to put back in the bag." }), tiles, all],
      buttons: [["Cancel", null], ["Exchange", exchanged, true]],
    };
  });
}
