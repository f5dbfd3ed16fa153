// The game page: the board, your rack, the moves, the chat, followed live
// through the game's WebSocket. The server checks everything; this page only
// shows what the server says and sends what the player chose.

import { $, api as request, el } from "./dom.js";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const gameId = location.pathname.split("/").filter(Boolean).pop();
const COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const SQUARE_NAMES = { W: "triple word", w: "double word", L: "triple letter", l: "double letter" };

let layout = null;        // rows of square codes, tiles with their scores
let view = null;          // the last view the server sent
let cursor = null;        // {row, col, down}
let pending = [];         // [{row, col, letter, blank, rackIndex}]
let rackOrder = [];       // the rack's tiles in the order the player keeps them
let chosenRack = null;    // a rack tile tapped, waiting for a square
let exchanging = false;
const chosenForExchange = new Set();

async function api(path, options = {}) {
  return request(path, options, token);
}

function scoreOf(letter) {
  const tile = layout.tiles.find((t) => t.label === letter.toUpperCase());
  return tile ? tile.score : 0;
}

function boardLetters() {
  // the view's board rows: each square's tile label ("" for an empty square; lower case a blank)
  return view.rows;
}

function squareName(row, col) { return `${COLUMNS[col]}${row + 1}`; }

function lastPlaySquares() {
  // the squares of the last play still on the board, as the view names them
  return new Set((view.last_play || []).map((name) => {
    const col = COLUMNS.indexOf(name[0]);
    return `${Number(name.slice(1)) - 1},${col}`;
  }));
}

function drawCoordinates() {
  // column letters above the board, row numbers beside it: what the moves list, hints and errors name
  const cols = layout.rows[0].length;
  const rows = layout.rows.length;
  const frame = document.querySelector(".board-frame");
  frame.style.setProperty("--cols", cols);
  frame.style.setProperty("--rows", rows);
  $("columns").replaceChildren(...[...COLUMNS.slice(0, cols)].map((letter) => el("span", { text: letter })));
  $("rows").replaceChildren(...Array.from({ length: rows }, (_, row) => el("span", { text: String(row + 1) })));
}

function drawBoard() {
  const letters = boardLetters();
  const last = lastPlaySquares();
  const squares = [];
  layout.rows.forEach((codes, row) => {
    [...codes].forEach((code, col) => {
      const placed = pending.find((p) => p.row === row && p.col === col);
      const letter = placed ? (placed.blank ? placed.letter.toLowerCase() : placed.letter) : letters[row][col];
      const square = el("button", { type: "button", class: `square ${code}`, role: "gridcell", "data-square": squareName(row, col) });
      const start = row === layout.start[0] && col === layout.start[1];
      if (start) square.classList.add("start");
      let label = `${squareName(row, col)}`;
      if (letter) {
        const blank = letter === letter.toLowerCase();
        square.classList.add("tile");
        square.dataset.tile = letter;
        square.append(el("span", { class: blank ? "blank" : "", text: letter.toUpperCase() }));
        if (!blank) square.append(el("span", { class: "value", text: String(scoreOf(letter)) }));
        label += `: ${letter.toUpperCase()}${blank ? " (blank)" : `, ${scoreOf(letter)} points`}`;
        if (placed) { square.classList.add("pending"); label += ", your tile"; }
        if (last.has(`${row},${col}`)) { square.classList.add("last"); label += ", last play"; }
      } else {
        if (start) square.append(el("span", { class: "star", "aria-hidden": "true", text: "★" }));
        else if (code !== ".") square.append(el("span", { class: "label", text: { W: "TW", w: "DW", L: "TL", l: "DL" }[code] }));
        label += `, ${SQUARE_NAMES[code] || "plain"}${start ? ", start square" : ""}, empty`;
      }
      if (cursor && cursor.row === row && cursor.col === col) {
        square.classList.add("cursor", cursor.down ? "down" : "across");
        label += cursor.down ? ", typing down" : ", typing across";
      }
      square.setAttribute("aria-label", label);
      squares.push(square);
    });
  });
  $("board").replaceChildren(...squares);
}

function squareAt(target) {
  // the board square an event happened on, as {row, col} (one listener for the whole board)
  const square = target.closest("[data-square]");
  if (!square) return null;
  const name = square.dataset.square;
  return { row: Number(name.slice(1)) - 1, col: COLUMNS.indexOf(name[0]) };
}

function rackTiles() { return view && view.rack ? [...view.rack] : []; }

function syncRack() {
  // keep the player's order of the tiles the server says the rack holds
  const tiles = rackTiles();
  const left = [...tiles];
  const kept = [];
  for (const tile of rackOrder) {
    const at = left.indexOf(tile);
    if (at >= 0) { kept.push(tile); left.splice(at, 1); }
  }
  rackOrder = kept.concat(left);
}

function drawRack() {
  const used = new Set(pending.map((p) => p.rackIndex));
  const tiles = rackOrder.map((tile, index) => {
    const button = el("button", { type: "button", class: "rack-tile tile", role: "option", draggable: "true",
      "aria-label": tile === "?" ? "blank" : `${tile}, ${scoreOf(tile)} points` });
    button.append(el("span", { text: tile === "?" ? " " : tile }));
    if (tile !== "?") button.append(el("span", { class: "value", text: String(scoreOf(tile)) }));
    if (used.has(index)) button.classList.add("used");
    if (chosenRack === index || chosenForExchange.has(index)) button.classList.add("chosen");
    button.setAttribute("aria-selected", String(chosenRack === index || chosenForExchange.has(index)));
    button.addEventListener("click", () => clickRack(index));
    button.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", String(index)));
    // a rack tile dropped on another moves there: the player keeps the rack in the order they like
    button.addEventListener("dragover", (event) => event.preventDefault());
    button.addEventListener("drop", (event) => {
      event.preventDefault();
      const from = Number(event.dataTransfer.getData("text/plain"));
      if (Number.isNaN(from) || from === index || pending.length) return;
      const [tile] = rackOrder.splice(from, 1);
      rackOrder.splice(index, 0, tile);
      draw();
    });
    return button;
  });
  $("rack").replaceChildren(...tiles);
  $("rack").hidden = !view || view.you === null || view.you === undefined;
}

function myTurn() { return view && view.you !== null && view.you !== undefined && view.turn === view.you && view.status !== "over"; }

function drawPanels() {
  const players = view.seats.map((seat) => {
    const item = el("li", { text: `${seat.name}: ${view.scores[seat.seat]}` });
    if (view.turn === seat.seat && view.status !== "over") item.classList.add("turn");
    if (view.clocks && view.clocks.used) item.append(el("span", { class: "clock", "data-seat": String(seat.seat), text: "" }));
    return item;
  });
  $("players").replaceChildren(...players);
  $("bag").textContent = `${view.bag} tiles in the bag`;
  const unseen = Object.entries(view.unseen_by_letter || {});
  $("unseen").textContent = unseen.length
    ? `Unseen: ${unseen.map(([letter, count]) => (count > 1 ? `${letter}×${count}` : letter)).join(" ")}`
    : `Unseen tiles: ${view.unseen_count ?? 0}`;
  $("result").textContent = view.result || "";
  $("record").href = `/api/games/${gameId}/gcg`;
  $("record").hidden = view.status !== "over";
  const log = (view.events || []).map((e) => {
    const who = view.seats[e.seat] ? view.seats[e.seat].name : `seat ${e.seat}`;
    const words = e.words && e.words.length ? ` (${e.words.join(", ")})` : "";
    return el("li", { text: `${who}: ${e.move || e.kind}${words} ${e.score >= 0 ? "+" : ""}${e.score} = ${e.total}` });
  });
  $("log").replaceChildren(...log);
  $("log").scrollTop = $("log").scrollHeight;
  const chat = (view.chat || []).map((c) => el("li", { text: `${c.name}: ${c.text}` }));
  $("chat").replaceChildren(...chat);
  const seated = view.you !== null && view.you !== undefined;
  const playing = view.status === "playing";
  for (const id of ["play", "clear", "shuffle", "exchange", "pass"]) $(id).disabled = !seated || !playing || !myTurn();
  $("shuffle").disabled = !seated;
  $("challenge").disabled = !seated || view.status === "over" || !(view.events || []).length;
  $("accept").hidden = view.status !== "final-challenge";
  $("accept").disabled = !myTurn();
  $("resign").disabled = !seated || view.status === "over";
  $("chat-form").hidden = !seated;
  $("coach").hidden = !view.coaching;
  $("analysis").hidden = view.status !== "over";
}

async function ask(question) {
  $("coach-answer").textContent = "…";
  try {
    const answer = await api(`/api/games/${gameId}/coach`, { method: "POST", body: JSON.stringify({ ask: question }) });
    $("coach-answer").textContent = answer.lines.join("\n");
  } catch (err) {
    $("coach-answer").textContent = err.message;
  }
}

async function analyse() {
  $("analysis-body").textContent = "Analysing…";
  try {
    let found = await api(`/api/games/${gameId}/analysis`);
    while (found.status === "queued" || found.status === "running") {
      // the server's analysis queue has it: ask again shortly
      $("analysis-body").textContent = found.status === "queued" ? "Waiting for the analysis…" : "Analysing…";
      await new Promise((resolve) => setTimeout(resolve, 1000));
      found = await api(`/api/games/${gameId}/analysis`);
    }
    if (found.status === "failed") throw new Error(found.error);
    const totals = el("table", {}, el("caption", { text: "Per player" }),
      el("tr", {}, ...["player", "equity lost", "best plays", "mistakes", "blunders", "bingos", "missed bingos", "mistake score"].map((h) => el("th", { scope: "col", text: h }))));
    for (const t of found.totals) {
      totals.append(el("tr", {}, ...[t.name, t.equity_lost.toFixed(1), t.best_plays, t.mistakes, t.blunders, t.bingos_played, t.bingos_missed, t.mistake_score].map((v) => el("td", { text: String(v) }))));
    }
    const turns = el("table", {}, el("caption", { text: "Each turn against the best play by equity" }),
      el("tr", {}, ...["#", "player", "played", "score", "best", "equity lost", ""].map((h) => el("th", { scope: "col", text: h }))));
    for (const t of found.turns) {
      const best = t.best && t.best.length ? `${t.best[0].move} ${t.best[0].score}` : "";
      const note = [t.grade && t.grade !== "good" ? t.grade : "", t.missed_bingo ? "missed bingo" : ""].filter(Boolean).join(", ");
      turns.append(el("tr", {}, ...[t.turn, t.name, t.move, t.score, best, t.analysed ? t.equity_lost.toFixed(1) : "", note].map((v) => el("td", { text: String(v ?? "") }))));
    }
    const parts = [totals, turns];
    if (found.sim && found.sim.length) {
      // the server simulated each turn too (tilebag serve --analysis-seconds)
      const sim = el("table", { id: "analysis-sim" }, el("caption", { text: "Chance of winning by simulation" }),
        el("tr", {}, ...["#", "player", "played", "win %", "best found", "win %", "lost"].map((h) => el("th", { scope: "col", text: h }))));
      for (const t of found.sim) {
        sim.append(el("tr", {}, ...[t.turn, t.name, t.played, t.played_win.toFixed(1), t.best, t.best_win.toFixed(1), t.win_lost.toFixed(1)].map((v) => el("td", { text: String(v) }))));
      }
      parts.push(sim);
    }
    $("analysis-body").replaceChildren(...parts);
  } catch (err) {
    $("analysis-body").textContent = err.message;
  }
}

function draw() {
  if (!layout || !view) return;
  syncRack();
  drawBoard();
  drawRack();
  drawPanels();
}

// -- composing a play -------------------------------------------------------

function occupied(row, col) {
  return Boolean(boardLetters()[row][col]) || pending.some((p) => p.row === row && p.col === col);
}

function clickSquare(row, col) {
  if (chosenRack !== null) { placeAt(row, col, chosenRack); chosenRack = null; draw(); return; }
  if (cursor && cursor.row === row && cursor.col === col) cursor.down = !cursor.down;
  else cursor = { row, col, down: false };
  draw();
  focusCursor();
}

function focusCursor() {
  if (!cursor) return;
  const square = document.querySelector(`[data-square="${squareName(cursor.row, cursor.col)}"]`);
  if (square) square.focus();
}

function clickRack(index) {
  if (exchanging) {
    if (chosenForExchange.has(index)) chosenForExchange.delete(index); else chosenForExchange.add(index);
  } else {
    chosenRack = chosenRack === index ? null : index;
  }
  draw();
}

function placeAt(row, col, rackIndex) {
  if (!myTurn() || occupied(row, col) || pending.some((p) => p.rackIndex === rackIndex)) return false;
  let letter = rackOrder[rackIndex];
  let blank = false;
  if (letter === "?") {
    const asked = (prompt("Which letter is the blank?") || "").trim().toUpperCase();
    if (!/^[A-Z]$/.test(asked)) return false;
    letter = asked;
    blank = true;
  }
  pending.push({ row, col, letter, blank, rackIndex });
  schedulePreview();
  return true;
}

function typeLetter(letter) {
  if (!cursor) return;
  if (!myTurn()) { $("error").textContent = view && view.status === "over" ? "the game is over" : "wait for your turn"; return; }
  const used = new Set(pending.map((p) => p.rackIndex));
  let index = rackOrder.findIndex((t, i) => t === letter && !used.has(i));
  let blank = false;
  if (index < 0) { index = rackOrder.findIndex((t, i) => t === "?" && !used.has(i)); blank = true; }
  if (index < 0) { $("error").textContent = `no ${letter} on your rack`; return; }
  while (cursor && occupied(cursor.row, cursor.col)) advance();
  if (!cursor) return;
  pending.push({ row: cursor.row, col: cursor.col, letter, blank, rackIndex: index });
  advance();
  $("error").textContent = "";
  schedulePreview();
  draw();
  focusCursor();
}

function advance() {
  const size = layout.rows.length;
  if (cursor.down) cursor.row += 1; else cursor.col += 1;
  if (cursor.row >= size || cursor.col >= layout.rows[0].length) cursor = null;
}

function takeBack() {
  const last = pending.pop();
  if (last) cursor = { row: last.row, col: last.col, down: cursor ? cursor.down : false };
  schedulePreview();
  draw();
  focusCursor();
}

function clearPlay() {
  pending = [];
  chosenRack = null;
  $("preview").textContent = "";
  draw();
}

function notation() {
  // the pending tiles as GCG: the whole word along their line, "." for tiles already on the board
  if (!pending.length) return null;
  const rows = new Set(pending.map((p) => p.row));
  const cols = new Set(pending.map((p) => p.col));
  let down;
  if (pending.length === 1) {
    const { row, col } = pending[0];
    const letters = boardLetters();
    down = Boolean((letters[row - 1] && letters[row - 1][col]) || (letters[row + 1] && letters[row + 1][col]));
  } else if (rows.size === 1) down = false;
  else if (cols.size === 1) down = true;
  else return null;
  const letters = boardLetters();
  const at = (r, c) => {
    const placed = pending.find((p) => p.row === r && p.col === c);
    if (placed) return placed.blank ? placed.letter.toLowerCase() : placed.letter;
    return letters[r] && letters[r][c] ? "." : "";
  };
  let { row, col } = pending.reduce((a, b) => ((down ? b.row < a.row : b.col < a.col) ? b : a));
  while (at(down ? row - 1 : row, down ? col : col - 1)) { if (down) row -= 1; else col -= 1; }
  const start = { row, col };
  let word = "";
  while (at(row, col)) { word += at(row, col); if (down) row += 1; else col += 1; }
  const where = down ? `${COLUMNS[start.col]}${start.row + 1}` : `${start.row + 1}${COLUMNS[start.col]}`;
  return `${where} ${word}`;
}

let previewTimer = null;
function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const play = notation();
    if (!play) { $("preview").textContent = pending.length ? "tiles must be in one line" : ""; return; }
    try {
      const found = await api(`/api/games/${gameId}/preview`, { method: "POST", body: JSON.stringify({ action: play }) });
      $("preview").textContent = found.ok ? `${play}: ${found.score} points (${found.words.join(", ")})` : `${play}: ${found.error}`;
    } catch (err) {
      $("preview").textContent = "";
    }
  }, 150);
}

function actionId() {
  // unique per action (crypto.randomUUID needs https; this works over plain http too)
  return [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function send(action) {
  $("error").textContent = "";
  const id = actionId();  // sent again with the same id when no answer came: the server stores it once
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await api(`/api/games/${gameId}/actions`, { method: "POST", body: JSON.stringify({ action, id }) });
      pending = [];
      cursor = null;
      exchanging = false;
      chosenForExchange.clear();
      $("preview").textContent = "";
      show(answer);
      return;
    } catch (err) {
      if (err.status === 0 && attempt < 5) {
        $("error").textContent = `no answer from the server: sending again (attempt ${attempt + 1})`;
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
        continue;
      }
      $("error").textContent = err.message; // the board stays as it was: the player may fix the play
      return;
    }
  }
}

function play() {
  const action = notation();
  if (!action) { $("error").textContent = "place tiles in one line first"; return; }
  send(action);
}

function exchange() {
  if (!exchanging) {
    clearPlay();
    exchanging = true;
    $("exchange").textContent = "Exchange the chosen tiles";
    $("error").textContent = "choose the tiles to exchange on your rack";
    return;
  }
  const tiles = [...chosenForExchange].map((i) => rackOrder[i]).join("");
  exchanging = false;
  $("exchange").textContent = "Exchange";
  if (!tiles) { chosenForExchange.clear(); draw(); return; }
  send(`-${tiles}`);
}

// -- following the game -----------------------------------------------------

// The page keeps the newest view by sequence number, whichever way it came (the
// first GET, the answer to an action, the socket), and always redraws from it:
// an answer that arrives after the socket's newer view still clears the sent play.
function show(newView) {
  if (!view || newView.seq >= view.seq) view = newView;
  draw();
}

function setConnection(text) { $("connection").textContent = text; }

// The link cannot show this game (a wrong or stale seat token, or no such game):
// say so and stop, instead of waiting for a connection that can never come.
let stopped = false;
function stop(kind) {
  stopped = true;
  clearTimeout(retryTimer);
  setConnection("");
  const notice = $("notice");
  if (kind === "token") {
    notice.replaceChildren(
      el("h1", { text: "This link is not valid for this game" }),
      el("p", { text: "Its seat key is wrong, or no longer belongs to a seat of this game. Ask for the link again, or:" }),
      el("p", {}, el("a", { href: `/games/${encodeURIComponent(gameId)}`, text: "Watch the game" }), " · ", el("a", { href: "/", text: "Go to the lobby" })),
    );
  } else if (kind === "damaged") {
    notice.replaceChildren(
      el("h1", { text: "This game cannot be shown" }),
      el("p", { text: "Its record does not replay, and the server has set it aside for its keeper to look at." }),
      el("p", {}, el("a", { href: "/", text: "Go to the lobby" })),
    );
  } else {
    notice.replaceChildren(el("h1", { text: "No such game" }), el("p", {}, el("a", { href: "/", text: "Go to the lobby" })));
  }
  notice.hidden = false;
  $("game").hidden = true;
}

// A dropped connection says so and tries again, counting the attempts and the
// seconds to the next one.
let retryTimer = null;
let attempts = 0;
function retry(what, again) {
  attempts += 1;
  let wait = Math.min(500 * 2 ** (attempts - 1), 8000);
  const tell = () => setConnection(`${what}: trying again${wait >= 1000 ? ` in ${Math.ceil(wait / 1000)} s` : ""} (attempt ${attempts})`);
  tell();
  const tick = () => {
    wait -= 1000;
    if (wait <= 0) { setConnection(`${what}: trying again (attempt ${attempts})`); again(); return; }
    tell();
    retryTimer = setTimeout(tick, Math.min(1000, wait));
  };
  clearTimeout(retryTimer);
  retryTimer = setTimeout(tick, Math.min(1000, wait));
}

function refused(err) {
  // what a failed first load means: a link that is not valid, no game, or a server out of reach
  if (err.status === 401 || err.status === 403) stop("token");
  else if (err.status === 404) stop("game");
  else if (err.status === 410) stop("damaged");
  else retry(err.status ? `the server answered ${err.status}` : "cannot reach the server", load);
}

let socket = null;
function connect() {
  if (stopped) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws${query}`);
  socket.addEventListener("open", () => {
    attempts = 0;
    setConnection("live");
    if (view) socket.send(JSON.stringify({ since: view.seq }));
  });
  let heard = 0;  // the newest sequence number this socket told
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello" || message.type === "view") {
      show(message.view);
      heard = Math.max(heard, message.view.seq);
    } else if (message.type === "clock") {
      showClock(message);
    } else if (typeof message.seq === "number") {
      // a gap in the numbers: ask for what was missed (the server tells everything after it again)
      if (heard && message.seq > heard + 1) socket.send(JSON.stringify({ since: heard }));
      heard = Math.max(heard, message.seq);
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) stop("token");
    else if (event.code === 4404) stop("game");
    else if (event.code === 4410) stop("damaged");
    else if (!stopped) retry("connection lost", connect);
  });
}

let lastTick = null;  // the server's last clock tick and when it came: the clocks count down from it

function showClock(tick) {
  lastTick = { ...tick, at: performance.now() };
  drawClocks();
}

function drawClocks() {
  if (!lastTick || !view || view.status !== "playing" || lastTick.seq !== view.seq) return;
  const since = (performance.now() - lastTick.at) / 1000;
  for (const span of document.querySelectorAll(".clock")) {
    const seat = Number(span.dataset.seat);
    const used = (lastTick.used[seat] || 0) + (seat === lastTick.seat ? since : 0);
    let text = ` · ${Math.floor(used / 60)}:${String(Math.floor(used % 60)).padStart(2, "0")} used`;
    if (seat === lastTick.seat && lastTick.turn_left !== null) {
      text += ` · ${Math.max(0, Math.ceil(lastTick.turn_left - since))} s left`;
    }
    span.textContent = text;
  }
}

function keys(event) {
  if (event.target.closest("input, textarea, select")) return;
  if (/^[a-zA-Z]$/.test(event.key) && cursor) { event.preventDefault(); typeLetter(event.key.toUpperCase()); }
  else if (event.key === "Enter" && pending.length) { event.preventDefault(); play(); }
  else if (event.key === "Backspace" && pending.length) { event.preventDefault(); takeBack(); }
  else if (event.key === "Escape") { clearPlay(); }
  else if (event.key.startsWith("Arrow") && layout) {
    // the arrows move the cursor on the board; a second press along the other line turns it
    event.preventDefault();
    if (!cursor) cursor = { row: layout.start[0], col: layout.start[1], down: false };
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const [dr, dc] = moves[event.key];
    cursor.row = Math.max(0, Math.min(layout.rows.length - 1, cursor.row + dr));
    cursor.col = Math.max(0, Math.min(layout.rows[0].length - 1, cursor.col + dc));
    cursor.down = dr !== 0;
    draw();
    focusCursor();
  }
}

function bindControls() {
  $("play").addEventListener("click", play);
  $("clear").addEventListener("click", clearPlay);
  $("shuffle").addEventListener("click", () => {
    for (let i = rackOrder.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [rackOrder[i], rackOrder[j]] = [rackOrder[j], rackOrder[i]];
    }
    clearPlay();
  });
  $("exchange").addEventListener("click", exchange);
  $("pass").addEventListener("click", () => send("-"));
  $("challenge").addEventListener("click", () => send("challenge"));
  $("accept").addEventListener("click", () => send("accept"));
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) send("resign"); });
  $("board").addEventListener("click", (event) => {
    const square = squareAt(event.target);
    if (square) clickSquare(square.row, square.col);
  });
  $("board").addEventListener("dragover", (event) => event.preventDefault());
  $("board").addEventListener("drop", (event) => {
    event.preventDefault();
    const square = squareAt(event.target);
    if (!square) return;
    placeAt(square.row, square.col, Number(event.dataTransfer.getData("text/plain")));
    draw();
  });
  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    try { await api(`/api/games/${gameId}/chat`, { method: "POST", body: JSON.stringify({ text }) }); $("chat-text").value = ""; }
    catch (err) { $("error").textContent = err.message; }
  });
  for (const button of document.querySelectorAll("[data-ask]")) button.addEventListener("click", () => ask(button.dataset.ask));
  $("hooks-form").addEventListener("submit", (event) => { event.preventDefault(); ask(`hooks ${$("hooks-word").value.trim()}`); });
  $("analyse").addEventListener("click", analyse);
  document.addEventListener("keydown", keys);
}

// The first picture comes from the HTTP API at once; the socket then keeps it live.
async function load() {
  try {
    const [drawn, seen] = await Promise.all([api(`/api/games/${gameId}/layout`), api(`/api/games/${gameId}`)]);
    layout = drawn;
    drawCoordinates();
    attempts = 0;
    setConnection("connecting…");
    show(seen);
  } catch (err) {
    refused(err);
    return;
  }
  connect();
}

bindControls();
setInterval(drawClocks, 250);
load();
