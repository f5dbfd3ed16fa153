// A player's page: ratings per category with their uncertainty and a chart
// of their history, totals, every finished game with a link to examine it,
// and the records as one GCG archive; block or report the player.

import { request } from "./api.js";
import { $, el } from "./dom.js";
import { drawNav } from "./nav.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#0b4f8a", "#a40000", "#2d6a1f", "#6b3fa0", "#8a5a00", "#1b1b1b"];

const name = decodeURIComponent(location.pathname.split("/").pop());

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

function ratingsTable(ratings) {
  const table = $("ratings");
  const rows = Object.entries(ratings);
  if (!rows.length) { table.replaceChildren(el("caption", { text: "No rated games yet." })); return; }
  table.replaceChildren(
    el("caption", { text: "Ratings by category (± the deviation: the smaller, the surer)" }),
    el("tr", {}, ...["category", "rating", "±", "games"].map((h) => el("th", { scope: "col", text: h }))),
    ...rows.map(([category, r]) => el("tr", {},
      el("th", { scope: "row", text: category }),
      el("td", { text: `${Math.round(r.rating)}${r.provisional ? "?" : ""}` }),
      el("td", { text: String(Math.round(r.deviation)) }),
      el("td", { text: String(r.games) }))));
}

// The rating after each game, one line a category, drawn as an SVG chart.
function historyChart(history) {
  const series = Object.entries(history || {}).filter(([, points]) => points.length);
  const figure = $("history");
  if (!series.length) { figure.replaceChildren(); return; }
  const all = series.flatMap(([, points]) => points.map((p) => p.rating));
  const low = Math.min(...all) - 25, high = Math.max(...all) + 25;
  const width = 600, height = 200, most = Math.max(...series.map(([, p]) => p.length));
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": "history-caption", class: "chart" });
  chart.append(svg("rect", { x: 0, y: 0, width, height, fill: "#fff", stroke: "#c9c4b6" }));
  for (const value of [low, (low + high) / 2, high]) {
    const y = height - ((value - low) / (high - low)) * height;
    const label = svg("text", { x: 4, y: Math.min(Math.max(y - 3, 12), height - 3), "font-size": 11, fill: "#4f4f4f" });
    label.textContent = String(Math.round(value));
    chart.append(svg("line", { x1: 0, x2: width, y1: y, y2: y, stroke: "#e3dcc8" }), label);
  }
  series.forEach(([category, points], index) => {
    const step = most > 1 ? width / (most - 1) : 0;
    const coords = points.map((p, i) => `${(i * step).toFixed(1)},${(height - ((p.rating - low) / (high - low)) * height).toFixed(1)}`);
    chart.append(svg("polyline", { points: coords.join(" "), fill: "none", stroke: COLOURS[index % COLOURS.length], "stroke-width": 2 }));
  });
  const legend = el("p", { class: "legend" }, ...series.map(([category, points], index) =>
    el("span", { style: `color: ${COLOURS[index % COLOURS.length]}`, text: `■ ${category}: ${Math.round(points.at(-1).rating)} ` })));
  figure.replaceChildren(chart, el("figcaption", { id: "history-caption", text: "Rating after each rated game" }), legend);
}

function totals(found) {
  const t = found || {};
  const items = [["games", t.games], ["wins", t.wins], ["average score", t.average_score === undefined ? "" : Math.round(t.average_score)],
    ["bingos a game", t.bingos_per_game === undefined ? "" : Number(t.bingos_per_game).toFixed(2)]];
  $("totals").replaceChildren(...items.flatMap(([label, value]) => [el("dt", { text: label }), el("dd", { text: String(value ?? 0) })]));
}

function gamesTable(games) {
  const table = $("games");
  if (!games.length) { table.replaceChildren(el("caption", { text: "No finished games yet." })); return; }
  table.replaceChildren(
    el("tr", {}, ...["ended", "result", "against", "score", "rated", ""].map((h) => el("th", { scope: "col", text: h }))),
    ...games.map((g) => {
      const change = typeof g.rating_change === "number" ? ` (${g.rating_change >= 0 ? "+" : ""}${Math.round(g.rating_change)})` : "";
      return el("tr", { class: g.result },
        el("td", { text: (g.ended || "").slice(0, 10) }),
        el("td", { text: g.result }),
        el("td", { text: (g.opponents || []).join(", ") }),
        el("td", { text: (g.scores || [g.score]).join("–") }),
        el("td", { text: g.rated ? `${g.category}${change}` : "casual" }),
        el("td", {}, el("a", { href: `/games/${encodeURIComponent(g.id)}`, text: "examine" })));
    }));
}

async function start() {
  const account = await drawNav();
  $("player-name").textContent = name;
  document.title = `tilebag: ${name}`;
  try {
    const found = await request(`/api/users/${encodeURIComponent(name)}`);
    $("player-name").textContent = found.username;
    ratingsTable(found.ratings || {});
    historyChart(found.history);
    totals(found.totals);
    gamesTable(found.games || []);
    $("archive").href = `/api/users/${encodeURIComponent(found.username)}/games.gcg`;
    $("archive").setAttribute("download", `${found.username}.gcg`);
    if (account && account.username.toLowerCase() !== found.username.toLowerCase()) {
      $("player-actions").hidden = false;
      $("block").addEventListener("click", async () => {
        try {
          await request("/api/blocks", { method: "POST", body: { username: found.username } });
          $("player-said").textContent = `${found.username} is blocked: no chat and no challenges from them.`;
        } catch (err) { $("profile-error").textContent = err.message; }
      });
      $("report").addEventListener("click", async () => {
        const reason = (prompt(`Why report ${found.username}?`) || "").trim();
        if (!reason) return;
        try {
          await request("/api/reports", { method: "POST", body: { username: found.username, reason } });
          $("player-said").textContent = "Reported: an admin will look at it.";
        } catch (err) { $("profile-error").textContent = err.message; }
      });
    }
  } catch (err) {
    $("profile-error").textContent = err.status === 404 ? "No such player." : err.message;
  }
}

start();
