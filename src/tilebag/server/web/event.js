// An event's page, for anyone to watch: each division's standings, its
// rounds with their pairings, results and games, the sheets to print; for
// its director, adding players, pairing and starting rounds, and entering
// results. Kept fresh by asking the server again every few seconds.

import { request } from "./api.js";
import { $, el } from "./dom.js";
import { drawNav } from "./nav.js";

const eventId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/events/${encodeURIComponent(eventId)}`;
const REFRESH_MS = 5000;
let event = null;

function table(caption, headings, rows) {
  return el("table", { class: "data" }, el("caption", { text: caption }),
    el("tr", {}, ...headings.map((h) => el("th", { scope: "col", text: h }))),
    ...rows.map((cells) => el("tr", {}, ...cells.map((cell) => (cell instanceof Node ? el("td", {}, cell) : el("td", { text: String(cell ?? "") }))))));
}

function standings(division) {
  const names = Object.fromEntries(division.players.map((p) => [p.number, p.name]));
  return table(`Standings${event.divisions.length > 1 ? `: division ${division.name}` : ""}`,
    ["", "#", "player", "wins", "losses", "spread"],
    division.standings.map((s) => [s.rank, s.number, names[s.number] ?? s.name, s.wins, s.losses, s.spread > 0 ? `+${s.spread}` : s.spread]));
}

function round(division, played) {
  const names = Object.fromEntries(division.players.map((p) => [p.number, `${p.name} (#${p.number})`]));
  const rows = played.pairings.map((p) => {
    const result = p.result ? `${p.result.a_score}–${p.result.b_score}${p.result.forfeit ? " (forfeit)" : ""}${p.result.confirmed === false ? " (to confirm)" : ""}` : "";
    const game = p.game ? el("a", { href: `/games/${encodeURIComponent(p.game)}`, text: p.result ? "examine" : "watch" }) : "";
    return [p.board ?? "", names[p.a] ?? p.a, p.b ? names[p.b] ?? p.b : "bye", p.first ? names[p.first] ?? p.first : "", result, game];
  });
  const section = el("section", { class: "round" }, table(`Round ${played.number} (${played.method}${played.started ? "" : ", not started"})`,
    ["board", "player", "opponent", "first", "result", "game"], rows));
  const sheet = el("a", { href: `${base}/rounds/${played.number}/pairings.html`, text: "pairings to print" });
  section.append(el("p", {}, sheet));
  return section;
}

function draw() {
  $("event-name").textContent = event.name;
  document.title = `tilebag: ${event.name}`;
  const rounds = event.rounds ? ` · ${event.rounds} rounds` : "";
  $("event-about").textContent = `${event.online ? "online" : "over the board"} · ${event.rules}${rounds} · director ${event.director ?? ""}`;
  $("divisions").replaceChildren(...event.divisions.map((division) => el("section", { class: "division" },
    standings(division), ...[...division.rounds].reverse().map((played) => round(division, played)))));
  const first = event.divisions[0];
  const next = first ? first.rounds.filter((r) => r.pairings.length).length + 1 : 1;
  $("pair-number").textContent = String(next);
  $("pair-round").dataset.round = String(next);
}

async function refresh() {
  try {
    event = await request(base);
    $("event-error").textContent = "";
    draw();
  } catch (err) {
    $("event-error").textContent = err.status === 404 ? "No such event." : err.message;
  }
}

async function director(action, body, path) {
  $("director-said").textContent = "";
  try {
    await request(`${base}${path}`, { method: "POST", body });
    $("director-said").textContent = `${action}: done.`;
    await refresh();
  } catch (err) {
    $("director-said").textContent = err.message;
  }
}

async function start() {
  const account = await drawNav();
  $("standings-html").href = `${base}/standings.html`;
  $("standings-text").href = `${base}/standings.txt`;
  $("export-tsh").href = `${base}/export.t`;
  $("games-gcg").href = `${base}/games.gcg`;
  await refresh();
  if (event && account && event.director && account.username.toLowerCase() === String(event.director).toLowerCase()) {
    $("director").hidden = false;
    $("add-player").addEventListener("submit", (e) => {
      e.preventDefault();
      const value = $("player-name").value.trim();
      director(`${value} added`, $("player-is-account").checked ? { username: value } : { name: value }, "/players");
      $("player-name").value = "";
    });
    $("pair-round").addEventListener("submit", (e) => {
      e.preventDefault();
      const number = $("pair-round").dataset.round;
      director(`round ${number} paired`, { method: $("pair-method").value }, `/rounds/${number}/pair`);
    });
    $("start-round").addEventListener("click", () => {
      const number = Number($("pair-round").dataset.round) - 1;
      director(`round ${number} started`, {}, `/rounds/${number}/start`);
    });
    $("enter-result").addEventListener("submit", (e) => {
      e.preventDefault();
      director("result entered", { round: Number($("result-round").value), player: Number($("result-player").value),
        score: Number($("result-score").value), opponent_score: Number($("result-opponent").value) }, "/results");
    });
  }
  setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
}

start();
