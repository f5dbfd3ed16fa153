// Examining a finished game: every turn on the board, one step at a time
// (buttons or the arrow keys), with the analysis of that turn beside it (the
// best plays by equity, the equity lost and the grade, the chance of winning
// lost where the server simulated); the record and a picture of the board to
// download; and a rematch.

import { request } from "./api.js";
import { $, el } from "./dom.js";

const SQUARE_COLOURS = { W: "#c8322f", w: "#f2a7a7", L: "#2a6fb5", l: "#a9d0f0", ".": "#e3dcc8" };

export class Examiner {
  // `board()` redraws the page, `layout()` and `view()` give the page's own.
  constructor({ gameId, token, board, layout, view }) {
    this.gameId = gameId;
    this.token = token;
    this.redraw = board;
    this.layout = layout;
    this.view = view;
    this.turns = null;     // [{index, seat, note, text, rows, last_play, scores, move_number}]
    this.index = 0;        // the position shown: 0 the empty board, i after the i-th event
    this.analysis = null;
    this.active = false;
    this.starting = false;
    for (const [id, step] of [["first-turn", -Infinity], ["previous-turn", -1], ["next-turn", 1], ["last-turn", Infinity]]) {
      $(id).addEventListener("click", () => this.step(step));
    }
    $("picture").addEventListener("click", () => this.picture());
    $("rematch").addEventListener("click", () => this.rematch());
    $("analyse").addEventListener("click", () => this.analyse());
  }

  // Start once the game is over: the positions after each turn, from the server.
  async sync() {
    const view = this.view();
    if (!view || view.status !== "over" || this.turns || this.starting) return;
    this.starting = true;
    try {
      const found = await request(`/api/games/${encodeURIComponent(this.gameId)}/turns`, { token: this.token });
      this.turns = found.turns;
      this.index = this.turns.length - 1;
      this.active = true;
      this.show();
      this.analyse();
    } catch (err) {
      $("turn-label").textContent = `the turns could not be read: ${err.message}`;
    } finally {
      this.starting = false;
    }
  }

  rows() { return this.turns[this.index].rows; }

  lastPlay() { return this.turns[this.index].last_play; }

  step(delta) {
    if (!this.turns) return;
    this.index = Math.max(0, Math.min(this.turns.length - 1, this.index + delta));
    this.show();
  }

  show() {
    const turn = this.turns[this.index];
    const label = this.index === 0 ? "The start: an empty board" : `${this.index} of ${this.turns.length - 1}: ${turn.note}`;
    $("turn-label").textContent = label;
    $("first-turn").disabled = $("previous-turn").disabled = this.index === 0;
    $("next-turn").disabled = $("last-turn").disabled = this.index === this.turns.length - 1;
    for (const row of document.querySelectorAll("#log tr")) row.classList.toggle("shown", Number(row.dataset.index) === this.index - 1);
    this.drawAnalysis();
    this.redraw();
  }

  async analyse() {
    $("analysis-body").textContent = "Analysing…";
    try {
      let found = await request(`/api/games/${encodeURIComponent(this.gameId)}/analysis`);
      while (found.status === "queued" || found.status === "running") {  // the server's queue has it: ask again shortly
        $("analysis-body").textContent = found.status === "queued" ? "Waiting for the analysis…" : "Analysing…";
        await new Promise((resolve) => setTimeout(resolve, 1000));
        found = await request(`/api/games/${encodeURIComponent(this.gameId)}/analysis`);
      }
      if (found.status === "failed") throw new Error(found.error);
      this.analysis = found;
      $("analysis-body").replaceChildren(totalsTable(found), ...(found.sim && found.sim.length ? [simTable(found.sim)] : []));
      this.drawAnalysis();
    } catch (err) {
      $("analysis-body").textContent = err.message;
    }
  }

  // The analysis of the turn shown: the play made against the best plays.
  drawAnalysis() {
    const box = $("turn-analysis");
    const turn = this.turns && this.turns[this.index];
    if (!turn || !this.analysis || !turn.move_number) { box.replaceChildren(); return; }
    const found = this.analysis.turns.find((t) => t.turn === turn.move_number);
    if (!found) { box.replaceChildren(); return; }
    const parts = [];
    const verdict = !found.analysed ? `not analysed (${found.skipped})`
      : found.equity_lost > 0 ? `${found.equity_lost.toFixed(1)} points of equity lost${found.grade && found.grade !== "good" ? `: a ${found.grade}` : ""}`
        : "the best play by equity";
    parts.push(el("p", {}, el("strong", { text: `${found.name}: ${found.move} ${found.score}` }), ` (${verdict})`));
    if (found.best && found.best.length) {
      const table = el("table", { class: "best-plays" }, el("caption", { text: "The best plays" }),
        el("tr", {}, ...["play", "score", "equity"].map((h) => el("th", { scope: "col", text: h }))));
      for (const best of found.best) {
        table.append(el("tr", {}, ...[best.move, best.score, best.equity.toFixed(1)].map((v) => el("td", { text: String(v) }))));
      }
      parts.push(table);
    }
    const notes = [found.missed_bingo ? "missed a bingo" : "", found.phonies && found.phonies.length ? `phony: ${found.phonies.join(", ")}` : ""].filter(Boolean);
    if (notes.length) parts.push(el("p", { class: "marks", text: notes.join("; ") }));
    const sim = (this.analysis.sim || []).find((t) => t.turn === turn.move_number);
    if (sim) parts.push(el("p", { text: `chance of winning: ${sim.played_win.toFixed(1)}% as played, ${sim.best_win.toFixed(1)}% with ${sim.best} (${sim.win_lost.toFixed(1)} lost)` }));
    box.replaceChildren(...parts);
  }

  // A picture of the board shown, as a PNG file.
  picture() {
    const layout = this.layout();
    const rows = this.turns ? this.rows() : this.view().rows;
    const size = 40;
    const cols = layout.rows[0].length;
    const canvas = el("canvas", { width: String(cols * size + 2), height: String(layout.rows.length * size + 2) });
    const pen = canvas.getContext("2d");
    pen.fillStyle = "#9b927c";
    pen.fillRect(0, 0, canvas.width, canvas.height);
    layout.rows.forEach((codes, r) => [...codes].forEach((code, c) => {
      const tile = rows[r] && rows[r][c];
      pen.fillStyle = tile ? "#f3d9a4" : SQUARE_COLOURS[code] || SQUARE_COLOURS["."];
      pen.fillRect(c * size + 2, r * size + 2, size - 2, size - 2);
      if (tile) {
        pen.fillStyle = tile === tile.toUpperCase() ? "#1b1b1b" : "#a40000";
        pen.font = "bold 22px sans-serif";
        pen.textAlign = "center";
        pen.textBaseline = "middle";
        pen.fillText(tile.toUpperCase(), c * size + size / 2 + 1, r * size + size / 2 + 1);
      }
    }));
    const link = el("a", { href: canvas.toDataURL("image/png"), download: `tilebag-${this.gameId}.png` });
    document.body.append(link);
    link.click();
    link.remove();
  }

  async rematch() {
    try {
      const made = await request(`/api/games/${encodeURIComponent(this.gameId)}/rematch`, { method: "POST", token: this.token });
      location.href = new URL(made.url).pathname + new URL(made.url).search;
    } catch (err) {
      $("error").textContent = err.message;
    }
  }
}

function totalsTable(found) {
  const table = el("table", {}, el("caption", { text: "Per player" }),
    el("tr", {}, ...["player", "equity lost", "best plays", "mistakes", "blunders", "bingos", "missed bingos", "mistake score"]
      .map((h) => el("th", { scope: "col", text: h }))));
  for (const t of found.totals) {
    table.append(el("tr", {}, ...[t.name, t.equity_lost.toFixed(1), t.best_plays, t.mistakes, t.blunders, t.bingos_played,
      t.bingos_missed, t.mistake_score].map((v) => el("td", { text: String(v) }))));
  }
  return table;
}

function simTable(sim) {
  const table = el("table", { id: "analysis-sim" }, el("caption", { text: "Chance of winning by simulation" }),
    el("tr", {}, ...["#", "player", "played", "win %", "best found", "win %", "lost"].map((h) => el("th", { scope: "col", text: h }))));
  for (const t of sim) {
    table.append(el("tr", {}, ...[t.turn, t.name, t.played, t.played_win.toFixed(1), t.best, t.best_win.toFixed(1), t.win_lost.toFixed(1)]
      .map((v) => el("td", { text: String(v) }))));
  }
  return table;
}
