// The live lobby: the seeks offered, kept by id as the lobby's socket tells
// them (a hello with those open, then each one offered, changed or gone),
// with Accept on others' and Cancel on one's own; the challenges sent to this
// account, with Accept and Decline; the form that offers a game (players,
// rules and options, rated or not, a clock, a player to challenge); and a
// notice when a game starts for this account (it goes straight there) or its
// turn comes in another game. A guest sees the seeks and is asked to log in.
// Everything shown is text: no HTML from the server is ever inserted.

import { request } from "./api.js";
import { $, el } from "./dom.js";

const seeks = new Map();  // id -> the seek as the server shows it
let account = null;       // {username, csrf} or null for a guest

// One line about a seek: who, how many, the rules, rated or not, the clock.
export function describeSeek(seek) {
  const parts = [`${seek.taken.length}/${seek.seats} players`, seek.rules];
  const options = Object.entries(seek.options || {}).map(([name, value]) => `${name} ${value}`);
  if (options.length) parts.push(options.join(", "));
  parts.push(seek.rated ? `rated ${seek.category}` : `casual ${seek.category}`);
  if (seek.clock && seek.clock.days_per_move) parts.push(`${seek.clock.days_per_move} days a move`);
  else if (seek.clock) parts.push(`${seek.clock.game_minutes} min each` + (seek.clock.overtime_penalty ? `, ${seek.clock.overtime_penalty} points a minute over` : ""));
  if (seek.min_rating !== null || seek.max_rating !== null) parts.push(`rating ${seek.min_rating ?? "any"} to ${seek.max_rating ?? "any"}`);
  return parts.join(" · ");
}

function say(text, where = "seek-error") {
  $(where).textContent = text;
}

function notice(text, href = null, label = "") {
  const line = el("p", { text });
  if (href) line.append(" ", el("a", { href, text: label }));
  $("lobby-notice").replaceChildren(line);
}

async function accept(seek) {
  say("");
  try {
    const answer = await request(`/api/seeks/${encodeURIComponent(seek.id)}/accept`, { method: "POST" });
    if (answer.game) {
      location.href = `/games/${encodeURIComponent(answer.game)}`;  // the session opens the seat
      return;
    }
    notice(`You have a place in ${seek.by}'s game: waiting for ${answer.waiting} more.`);
  } catch (err) {
    say(err.message);
  }
}

async function withdraw(seek, how) {
  say("");
  try {
    if (how === "decline") await request(`/api/challenges/${encodeURIComponent(seek.id)}/decline`, { method: "POST" });
    else await request(`/api/seeks/${encodeURIComponent(seek.id)}`, { method: "DELETE" });
    seeks.delete(seek.id);
    draw();
  } catch (err) {
    say(err.message);
  }
}

function button(text, label, action) {
  const made = el("button", { type: "button", class: "small", text, "aria-label": label });
  made.addEventListener("click", action);
  return made;
}

function seekRow(seek) {
  const mine = account && seek.taken.includes(account.username);
  const who = seek.yours ? (seek.to ? `Your challenge to ${seek.to}` : "Your seek") : seek.by;
  const item = el("li", { class: seek.yours ? "seek yours" : "seek", "data-seek": seek.id },
    el("span", { class: "seek-by", text: who }), el("span", { class: "seek-about", text: describeSeek(seek) }));
  if (seek.yours) item.append(button("Cancel", `cancel ${who.toLowerCase()}`, () => withdraw(seek, "cancel")));
  else if (mine) item.append(el("span", { class: "seek-waiting", text: "you have a place: waiting for the others" }));
  else if (account) item.append(button("Accept", `accept ${seek.by}'s game`, () => accept(seek)));
  return item;
}

function challengeRow(seek) {
  return el("li", { class: "seek challenge", "data-seek": seek.id },
    el("span", { class: "seek-by", text: `${seek.by} challenges you` }), el("span", { class: "seek-about", text: describeSeek(seek) }),
    button("Accept", `accept ${seek.by}'s challenge`, () => accept(seek)),
    button("Decline", `decline ${seek.by}'s challenge`, () => withdraw(seek, "decline")));
}

function draw() {
  const all = [...seeks.values()].sort((a, b) => a.created.localeCompare(b.created));
  const challenges = all.filter((s) => account && s.to === account.username && !s.yours);
  const open = all.filter((s) => !challenges.includes(s));
  $("challenges").replaceChildren(...challenges.map(challengeRow));
  $("challenges-title").hidden = !challenges.length;
  $("seeks").replaceChildren(...(open.length ? open.map(seekRow) : [el("li", { text: "No games offered yet." })]));
}

// What the lobby's socket tells.
function heard(message) {
  if (message.type === "hello") {
    seeks.clear();
    for (const seek of message.seeks) seeks.set(seek.id, seek);
  } else if (message.type === "seek" || message.type === "challenge") {
    seeks.set(message.id, message);
  } else if (message.type === "seek-gone") {
    seeks.delete(message.id);
  } else if (message.type === "game") {
    const path = `/games/${encodeURIComponent(message.id)}`;
    notice("Your game has started:", path, "go to it");
    location.href = path;
    return;
  } else if (message.type === "your-turn") {
    notice("Your turn in another game:", `/games/${encodeURIComponent(message.game)}`, "play it");
    return;
  }
  draw();
}

// The lobby's socket, followed; connected again (after 1, 2, 4... up to 15 s) when it drops.
function follow(attempt = 0) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/lobby/ws`);
  let opened = false;
  socket.addEventListener("open", () => { opened = true; $("lobby-status").textContent = "live"; });
  socket.addEventListener("message", (event) => heard(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    const next = opened ? 0 : attempt + 1;
    $("lobby-status").textContent = "reconnecting…";
    setTimeout(() => follow(next), Math.min(15000, 1000 * 2 ** next));
  });
}

function clockOf() {
  const kind = $("offer-clock").value;
  if (kind === "game") {
    const clock = { game_minutes: Number($("offer-minutes").value) };
    if ($("offer-penalty").value.trim()) clock.overtime_penalty = Number($("offer-penalty").value);
    return clock;
  }
  if (kind === "days") return { days_per_move: Number($("offer-days").value) };
  return null;
}

function rating(id) {
  const value = $(id).value.trim();
  return value ? Number(value) : undefined;
}

function offerForm({ catalog, optionField, readOptions }) {
  for (const preset of catalog.presets) $("offer-preset").append(el("option", { value: preset.name, text: preset.name }));
  $("offer-options").replaceChildren(...catalog.options.filter((o) => !["game-clock", "overtime-penalty"].includes(o.name)).map((o) => optionField(o, "offer-option")));
  const showClock = () => {
    $("offer-game-clock").hidden = $("offer-clock").value !== "game";
    $("offer-correspondence").hidden = $("offer-clock").value !== "days";
  };
  $("offer-clock").addEventListener("change", showClock);
  showClock();
  $("offer").addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const to = $("offer-to").value.trim();
    const body = { rules: $("offer-preset").value, options: readOptions($("offer-options")), rated: $("offer-rated").checked, clock: clockOf() };
    const low = rating("offer-min-rating");
    const high = rating("offer-max-rating");
    if (low !== undefined) body.min_rating = low;
    if (high !== undefined) body.max_rating = high;
    try {
      if (to) await request("/api/challenges", { method: "POST", body: { ...body, to } });
      else await request("/api/seeks", { method: "POST", body: { ...body, seats: Number($("offer-seats").value) } });
      notice(to ? `Challenge sent to ${to}.` : "Your game is offered: it stays while this page is open.");
    } catch (err) {
      say(err.message);
    }
  });
}

// The live lobby on this page: `account` as GET /api/me gave it (null: a guest).
export function startSeeks({ account: who, catalog, optionField, readOptions }) {
  account = who;
  $("offer").hidden = !account;
  $("login-hint").hidden = Boolean(account);
  if (account) offerForm({ catalog, optionField, readOptions });
  draw();
  follow();
}
