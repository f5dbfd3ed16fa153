// The lobby: the seeks and challenges, live (seeks.js); play a bot in one
// click; make a game (seats, a rules preset and its options, offered as the
// choices they are), hand out its links (each with a copy button), go
// straight to the game when the others are bots; the games this browser has
// seats in, with whose turn it is; and the games being played, to join or
// watch. Everything shown is text (no HTML from the server is ever inserted).

import { me, request } from "./api.js";
import { $, el } from "./dom.js";
import { forget, link, remember, remembered } from "./mygames.js";
import { drawNav } from "./nav.js";
import { startSeeks } from "./seeks.js";

let catalog = { presets: [], options: [], bots: [] };
let account = null;  // the account this browser is logged in as (null: a guest)

function seatRow(index, kind = "person", value = "") {
  const number = index + 1;
  const choice = el("select", { "aria-label": `seat ${number}: who`, class: "seat-kind" });
  if (account) choice.append(el("option", { value: "me", text: `you (${account.username})` }));
  choice.append(el("option", { value: "person", text: "a person" }));
  choice.append(el("option", { value: "open", text: "an open seat (someone joins)" }));
  for (const bot of catalog.bots) choice.append(el("option", { value: `bot:${bot.name}`, text: `the ${bot.name} bot` }));
  choice.value = kind;
  const name = el("input", { "aria-label": `seat ${number}: name`, class: "seat-name", maxlength: "40", placeholder: "name", autocomplete: "off" });
  name.value = value;
  const practice = el("input", { type: "checkbox", class: "seat-practice", id: `practice-${number}-${Date.now()}` });
  const practiceLabel = el("label", { class: "inline", for: practice.id }, practice, " practice (hints and word look-ups)");
  const about = el("p", { class: "help seat-about" });
  const remove = el("button", { type: "button", class: "small", "aria-label": `remove seat ${number}`, text: "Remove" });
  const sync = () => {
    const person = choice.value === "person" || choice.value === "me";
    name.hidden = choice.value !== "person";
    practiceLabel.hidden = !person;
    const bot = catalog.bots.find((b) => `bot:${b.name}` === choice.value);
    about.textContent = bot ? bot.description : "";
    about.hidden = !bot;
  };
  choice.addEventListener("change", sync);
  remove.addEventListener("click", () => {
    if ($("seats").children.length > 2) { remove.closest("li").remove(); renumber(); }
  });
  sync();
  return el("li", { class: "seat" }, choice, name, practiceLabel, remove, about);
}

function renumber() {
  [...$("seats").children].forEach((row, index) => {
    row.querySelector(".seat-kind").setAttribute("aria-label", `seat ${index + 1}: who`);
    row.querySelector(".seat-name").setAttribute("aria-label", `seat ${index + 1}: name`);
  });
  $("add-seat").disabled = $("seats").children.length >= 4;
}

function seats() {
  return [...$("seats").children].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    if (kind === "open") return { open: true };
    if (kind.startsWith("bot:")) return { bot: kind.slice(4) };
    const seat = kind === "me" ? { me: true } : { name: row.querySelector(".seat-name").value.trim() };
    if (row.querySelector(".seat-practice").checked) seat.practice = true;
    return seat;
  });
}

// One field for an option, as what it is: a choice, yes or no, a number with
// its limits, a time, or a number per seat; empty keeps the preset's value.
// `prefix` keeps the ids of two forms on one page apart.
function optionField(option, prefix = "option") {
  const id = `${prefix}-${option.name}`;
  const label = el("label", { for: id, text: option.title });
  let input;
  if (option.kind === "choice" || option.kind === "yes-no") {
    input = el("select", { id, name: option.name });
    input.append(el("option", { value: "", text: "as the preset says" }));
    const choices = option.kind === "yes-no" ? ["yes", "no"] : option.choices;
    for (const choice of choices) input.append(el("option", { value: choice, text: choice }));
    if (option.optional) input.append(el("option", { value: "none", text: "none" }));
  } else if (option.kind === "duration") {
    input = el("input", { id, name: option.name, type: "number", min: String(Math.ceil(option.minimum / 60)), max: String(Math.floor(option.maximum / 60)), step: "1", inputmode: "numeric", "data-unit": "minutes" });
    label.textContent = `${option.title} (minutes)`;
  } else if (option.kind === "numbers") {
    input = el("input", { id, name: option.name, inputmode: "numeric", pattern: "[0-9, ]*" });
    label.textContent = `${option.title} (one number a seat, by commas)`;
  } else {
    input = el("input", { id, name: option.name, type: "number", inputmode: "numeric" });
    if (option.minimum !== null) input.min = String(option.minimum);
    if (option.maximum !== null) input.max = String(option.maximum);
  }
  input.setAttribute("aria-describedby", `${id}-help`);
  return el("div", { class: "option" }, label, input, el("p", { class: "help", id: `${id}-help`, text: option.help }));
}

// The options chosen in a form's fields (those left empty keep the preset's value).
function options(fields = $("options")) {
  const chosen = {};
  for (const input of fields.querySelectorAll("input, select")) {
    const value = input.value.trim();
    if (!value) continue;
    chosen[input.name] = input.dataset.unit === "minutes" ? `${value}m` : value;
  }
  return chosen;
}

function linkRow(seat, path) {
  const url = new URL(path, location.href).href;
  const field = el("input", { readonly: "", value: url, "aria-label": `link for ${seat.name}` });
  const copy = el("button", { type: "button", class: "small", text: "Copy" });
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); copy.textContent = "Copied"; }
    catch (err) { field.select(); copy.textContent = "Select and copy"; }
  });
  return el("li", {}, el("a", { href: path, text: `Play as ${seat.name}` }), field, copy);
}

async function create() {
  $("create-error").textContent = "";
  $("created").replaceChildren();
  try {
    const made = await request("/api/games", { method: "POST", body: { seats: seats(), rules: $("preset").value, options: options() } });
    const people = made.seats.filter((seat) => seat.url);
    for (const seat of people) remember({ id: made.id, seat: seat.seat, token: seat.token, name: seat.name });
    const open = made.seats.some((seat) => seat.kind === "open");
    if (people.length === 1 && !open) {  // the others are bots: straight to the game
      location.href = new URL(people[0].url).pathname + new URL(people[0].url).search;
      return;
    }
    const list = el("ul", { class: "links" }, ...people.map((seat) => linkRow(seat, new URL(seat.url).pathname + new URL(seat.url).search)));
    const watch = el("a", { href: `/games/${made.id}`, text: "Watch" });
    $("created").append(el("p", { text: "Game made. Hand each player their link (they are kept under My games too):" }), list, watch);
    refresh();
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

// Play the static bot at once: as the account (its session opens the seat),
// or for a guest under the name this browser plays under.
async function playBot() {
  $("create-error").textContent = "";
  const account = await me();
  const name = account ? null : (localStorage.getItem("tilebag.name") || prompt("Your name?") || "").trim();
  if (!account && !name) return;
  try {
    const made = await request("/api/games", { method: "POST", body: { seats: [account ? { me: true } : { name }, { bot: "static" }] } });
    if (name) localStorage.setItem("tilebag.name", name);
    const seat = made.seats[0];
    remember({ id: made.id, seat: seat.seat, token: seat.token, name: seat.name });
    location.href = new URL(seat.url).pathname + new URL(seat.url).search;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

async function join(game) {
  const name = (localStorage.getItem("tilebag.name") || prompt("Your name?") || "").trim();
  if (!name) return;
  try {
    const seat = await request(`/api/games/${game}/join`, { method: "POST", body: { name } });
    localStorage.setItem("tilebag.name", name);
    remember({ id: game, seat: seat.seat, token: seat.token, name });
    location.href = new URL(seat.url).pathname + new URL(seat.url).search;
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

// The games this browser has seats in, with whose turn it is.
async function mine() {
  const games = remembered();
  if (!games.length) { $("mine").replaceChildren(el("li", { text: "None yet." })); return; }
  const rows = await Promise.all(games.map(async (game) => {
    try {
      const view = await request(`/api/games/${encodeURIComponent(game.id)}`);
      const others = view.seats.filter((s) => s.seat !== game.seat).map((s) => s.name).join(", ");
      const state = view.status === "over" ? "over" : view.turn === game.seat ? "your turn" : `${view.seats[view.turn].name}'s turn`;
      const item = el("li", { class: state === "your turn" ? "yours" : "" },
        el("a", { href: link(game), text: `${game.name} against ${others}` }), el("span", { text: ` · ${state}` }));
      return { item, yours: state === "your turn", over: view.status === "over" };
    } catch (err) {
      if (err.status === 404) forget(game.id);
      return null;
    }
  }));
  const found = rows.filter(Boolean).sort((a, b) => Number(b.yours) - Number(a.yours) || Number(a.over) - Number(b.over));
  $("mine").replaceChildren(...(found.length ? found.map((r) => r.item) : [el("li", { text: "None yet." })]));
}

async function refresh() {
  const games = await request("/api/games").catch(() => []);
  const rows = games.map((game) => {
    const names = game.seats.map((s) => (s.kind === "open" ? "(open)" : s.name)).join(", ");
    const item = el("li", {}, el("span", { text: `${names} · ${game.rules} · ${game.status} ` }));
    if (game.seats.some((s) => s.kind === "open")) {
      const button = el("button", { type: "button", class: "small", text: "Join" });
      button.addEventListener("click", () => join(game.id));
      item.append(button, " ");
    }
    item.append(el("a", { href: `/games/${game.id}`, text: "Watch" }));
    return item;
  });
  $("lobby").replaceChildren(...(rows.length ? rows : [el("li", { text: "No games yet." })]));
  mine();
}

async function start() {
  account = await drawNav();
  catalog = await request("/api/catalog");
  for (const preset of catalog.presets) $("preset").append(el("option", { value: preset.name, text: preset.name }));
  const describe = () => {
    const preset = catalog.presets.find((p) => p.name === $("preset").value);
    $("preset-help").textContent = preset ? [preset.help, ...preset.options].filter(Boolean).join("; ") : "";
  };
  $("preset").addEventListener("change", describe);
  describe();
  $("options").replaceChildren(...catalog.options.map((option) => optionField(option)));
  const strongest = catalog.bots.find((b) => b.name === "static") || catalog.bots[0];
  const first = account ? seatRow(0, "me") : seatRow(0, "person", localStorage.getItem("tilebag.name") || "me");
  $("seats").append(first, seatRow(1, `bot:${strongest.name}`));
  renumber();
  $("add-seat").addEventListener("click", () => {
    if ($("seats").children.length < 4) { $("seats").append(seatRow($("seats").children.length, "open")); renumber(); }
  });
  $("refresh").addEventListener("click", refresh);
  refresh();
  startSeeks({ account, catalog, optionField, readOptions: options });
}

const ready = start();
// Bound at once, not after the catalog arrives: a click while the page is
// still loading is kept (the form waits for the catalog it is read with).
$("play-bot").addEventListener("click", playBot);
$("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  await ready;
  create();
});
