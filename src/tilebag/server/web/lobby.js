// The lobby: make a game (seats, rules preset, options), hand out its links,
// join an open seat or watch a running game. Everything shown is text (no HTML
// from the server is ever inserted).

import { $, api, el } from "./dom.js";

let catalog = { presets: [], options: [], bots: [] };

function seatRow(index, kind = "person", value = "") {
  const choice = el("select", { "aria-label": `seat ${index + 1}: who`, class: "seat-kind" });
  choice.append(el("option", { value: "person", text: "a person" }));
  choice.append(el("option", { value: "open", text: "an open seat (someone joins)" }));
  for (const bot of catalog.bots) choice.append(el("option", { value: `bot:${bot}`, text: `the ${bot} bot` }));
  choice.value = kind;
  const name = el("input", { "aria-label": `seat ${index + 1}: name`, class: "seat-name", maxlength: "40", placeholder: "name" });
  name.value = value;
  const practice = el("input", { type: "checkbox", class: "seat-practice" });
  const practiceLabel = el("label", { class: "inline" }, practice, " practice (hints and word look-ups)");
  const sync = () => { name.hidden = choice.value !== "person"; practiceLabel.hidden = choice.value !== "person"; };
  choice.addEventListener("change", sync);
  sync();
  const remove = el("button", { type: "button", "aria-label": `remove seat ${index + 1}`, text: "×" });
  remove.addEventListener("click", () => { if ($("seats").children.length > 2) { remove.closest("li").remove(); } });
  return el("li", {}, choice, name, practiceLabel, remove);
}

function seats() {
  return [...$("seats").children].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    if (kind === "open") return { open: true };
    if (kind.startsWith("bot:")) return { bot: kind.slice(4) };
    const seat = { name: row.querySelector(".seat-name").value.trim() };
    if (row.querySelector(".seat-practice").checked) seat.practice = true;
    return seat;
  });
}

function options() {
  const chosen = {};
  for (const input of $("options").querySelectorAll("input")) {
    if (input.value.trim()) chosen[input.name] = input.value.trim();
  }
  return chosen;
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  $("created").replaceChildren();
  try {
    const made = await api("/api/games", {
      method: "POST",
      body: JSON.stringify({ seats: seats(), rules: $("preset").value, options: options() }),
    });
    const list = el("ul", { class: "links" });
    for (const seat of made.seats) {
      if (!seat.url) continue;
      const path = new URL(seat.url).pathname + new URL(seat.url).search;
      const link = el("a", { href: path, text: `Play as ${seat.name}` });
      const copy = el("input", { readonly: "", value: new URL(path, location.href).href, "aria-label": `link for ${seat.name}` });
      list.append(el("li", {}, link, copy));
    }
    const watch = el("a", { href: `/games/${made.id}`, text: "Watch" });
    $("created").append(el("p", { text: "Game made. Hand each player their link:" }), list, watch);
    refresh();
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

async function join(game) {
  const name = prompt("Your name?");
  if (!name) return;
  try {
    const seat = await api(`/api/games/${game}/join`, { method: "POST", body: JSON.stringify({ name }) });
    location.href = new URL(seat.url).pathname + new URL(seat.url).search;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

async function refresh() {
  const games = await api("/api/games").catch(() => []);
  const rows = games.map((game) => {
    const names = game.seats.map((s) => (s.kind === "open" ? "(open)" : s.name)).join(", ");
    const item = el("li", {}, el("span", { text: `${names} · ${game.rules} · ${game.status} ` }));
    if (game.seats.some((s) => s.kind === "open")) {
      const button = el("button", { type: "button", text: "Join" });
      button.addEventListener("click", () => join(game.id));
      item.append(button, " ");
    }
    item.append(el("a", { href: `/games/${game.id}`, text: "Watch" }));
    return item;
  });
  $("lobby").replaceChildren(...(rows.length ? rows : [el("li", { text: "No games yet." })]));
}

async function start() {
  catalog = await api("/api/catalog");
  for (const preset of catalog.presets) $("preset").append(el("option", { value: preset.name, text: preset.name }));
  const describe = () => {
    const preset = catalog.presets.find((p) => p.name === $("preset").value);
    $("preset-help").textContent = preset ? [preset.help, ...preset.options].filter(Boolean).join("; ") : "";
  };
  $("preset").addEventListener("change", describe);
  describe();
  for (const option of catalog.options) {
    $("options").append(el("label", {}, el("span", { text: option.name }),
      el("input", { name: option.name, placeholder: option.help })));
  }
  $("seats").append(seatRow(0, "person", "me"), seatRow(1, `bot:${catalog.bots.includes("static") ? "static" : catalog.bots[0]}`));
  $("add-seat").addEventListener("click", () => {
    if ($("seats").children.length < 4) $("seats").append(seatRow($("seats").children.length, "open"));
  });
  $("create").addEventListener("submit", create);
  $("refresh").addEventListener("click", refresh);
  refresh();
}

start();
