// The game page's controller: it keeps the newest view the server sent
// (state.js), what the player is composing (tiles placed, the cursor, the
// rack's order, a pre-move), and wires the views (board.js, rack.js,
// panels.js, dialogs.js) to the server (api.js, socket.js). The server checks
// everything; the page shows what it says and sends what the player chose.

import { ApiError, act, request } from "./api.js";
import { BoardView } from "./board.js";
import { chooseBlank, chooseExchange, confirmAction } from "./dialogs.js";
import { $, el } from "./dom.js";
import { Examiner } from "./examine.js";
import { remember } from "./mygames.js";
import { playNotation } from "./notation.js";
import { drawChat, drawClocks, drawPlayers, drawResult, drawScorecard, drawTracking, noticeLines } from "./panels.js";
import { RackView } from "./rack.js";
import { follow } from "./socket.js";
import { keepOrder, newest, premovesThatFit } from "./state.js";

const params = new URLSearchParams(location.search);
const token = params.get("token");
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());

let layout = null;      // the board's squares and the tile set
let view = null;        // the newest view the server sent
let order = [];         // the rack's tiles in the order the player keeps them
let pending = [];       // tiles placed: [{row, col, label, blank, rackIndex}]
let cursor = null;      // {row, col, down}
let chosen = null;      // a rack tile tapped, waiting for a square
let blankNext = false;  // "?" typed: the next letter is a blank
let premove = null;     // a play to send when the turn comes
let tick = null;        // the server's last clock tick, and when it came
let coachSeq = null;    // the view the coach's answer was for
let examiner = null;

const seated = () => view && view.you !== null && view.you !== undefined;
const myTurn = () => seated() && view.turn === view.you && view.status !== "over";
const playing = () => view && view.status === "playing";
const letters = () => layout.tiles.map((t) => t.label).filter((label) => label !== "?");

function scoreOf(label) {
  if (!layout || label === "?") return 0;
  const tile = layout.tiles.find((t) => t.label === label);
  return tile ? tile.score : 0;
}

function say(text, where = "error") {
  $(where).textContent = text;
}

// -- drawing -------------------------------------------------------------------

const board = new BoardView({ onSquare: clickSquare, onDrop: (row, col, index) => { placeAt(row, col, index); } });
const rack = new RackView({
  onTap: tapRack,
  onMove: (from, to) => {
    if (from === to || pending.length) return;
    const [tile] = order.splice(from, 1);
    order.splice(to, 0, tile);
    draw();
  },
});

function draw() {
  if (!layout || !view) return;
  const boardRows = examiner && examiner.active ? examiner.rows() : view.rows;
  const last = new Set(examiner && examiner.active ? examiner.lastPlay() : view.last_play || []);
  board.draw({ rows: boardRows, pending: examiner && examiner.active ? [] : pending, cursor, last });
  rack.draw({ order, used: new Set(pending.map((p) => p.rackIndex)), chosen, scoreOf, hidden: !seated() || view.status === "over" });
  drawPlayers(view);
  drawClocks(view, tick, performance.now());
  drawScorecard(view);
  drawTracking(view);
  drawChat(view);
  drawResult(view);
  drawNotice();
  drawControls();
}

function drawNotice() {
  const lines = premove ? [`Pre-move: ${premove} will be played when your turn comes (Escape cancels).`] : noticeLines(view);
  $("notice").replaceChildren(...lines.map((line) => el("p", { text: line })));
  $("notice").hidden = !lines.length;
  $("notice").scrollTop = $("notice").scrollHeight; // two lines show: the newest in view
}

function drawControls() {
  const over = view.status === "over";
  const final = view.status === "final-challenge";
  $("rack-area").hidden = !seated() || over;
  $("role").textContent = seated() ? "" : "watching";
  for (const id of ["exchange", "pass"]) $(id).disabled = !myTurn() || !playing();
  $("play").disabled = !seated() || !playing() || !pending.length;
  $("play").textContent = myTurn() || !pending.length ? "Play" : "Play when it's my turn";
  $("recall").disabled = !pending.length;
  $("shuffle").disabled = !seated() || over;
  $("challenge").disabled = !seated() || over || !(view.events || []).some((e) => e.kind === "place" && e.seat !== view.you);
  $("final").hidden = !final || !myTurn();
  // Deciding the final challenge, Accept and Challenge above the board are the only moves: the
  // action row gives its place to them, so the rack and they stay on a laptop's screen.
  $("actions").hidden = !$("final").hidden;
  $("resign").disabled = !seated() || over;
  $("coach").hidden = !view.coaching;
  $("analysis").hidden = !over;
  $("examine").hidden = !over;
  $("notify").hidden = !seated() || over;
  $("chat-name").hidden = seated() || Boolean(localStorage.getItem("tilebag.name"));
  document.title = myTurn() ? `● Your turn: tilebag` : over ? "Game over: tilebag" : "tilebag: game";
  if (coachSeq !== null && coachSeq !== view.seq && $("coach-answer").textContent) {
    $("coach-answer").textContent = "";  // the position changed: that answer was for the one before
    coachSeq = null;
  }
  $("record").href = `/api/games/${encodeURIComponent(gameId)}/gcg`;
}

// -- the newest view ------------------------------------------------------------------

function show(incoming) {
  const before = view;
  view = newest(view, incoming);
  if (view === before) { draw(); return; }
  order = keepOrder(order, view.rack ? [...tilesOf(view.rack)] : []);
  if (before && before.seq !== view.seq) {
    say("");  // an error was about the position before
    const kept = premovesThatFit(pending, view.rows, order);
    if (kept.length !== pending.length) {
      if (pending.length) say("The board changed under the tiles you placed: they are back on your rack.", "preview");
      pending = [];
      premove = null;
    }
  }
  draw();
  const turnCame = myTurn() && !(before && before.turn === view.you && before.status === view.status);
  if (turnCame) yourTurn();
  if (examiner) examiner.sync();
}

// The rack's tiles as labels ("?" a blank), multi-letter tiles kept whole.
function tilesOf(text) {
  const labels = layout ? layout.tiles.map((t) => t.label).sort((a, b) => b.length - a.length) : [];
  const tiles = [];
  let rest = text;
  while (rest) {
    const label = labels.find((l) => rest.startsWith(l)) || rest[0];
    tiles.push(label);
    rest = rest.slice(label.length);
  }
  return tiles;
}

// The turn came: a pre-move is played, and a player away from the page told.
function yourTurn() {
  if (premove) {
    const text = playNotation(pending, view.rows);
    premove = null;
    if (text) send(text);
  }
  if (document.hidden && localStorage.getItem("tilebag.notify") === "on") {
    beep();
    if ("Notification" in window && Notification.permission === "granted") {
      new Notification("tilebag: your turn", { body: noticeLines(view).join(" ") || "It is your turn." });
    }
  }
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.18);
  } catch (err) { /* no sound here */ }
}

// -- composing a play ----------------------------------------------------------------------

function occupied(row, col) {
  return Boolean(view.rows[row] && view.rows[row][col]) || pending.some((p) => p.row === row && p.col === col);
}

function clickSquare(row, col) {
  if (examiner && examiner.active) return;
  if (chosen !== null) { const index = chosen; chosen = null; placeAt(row, col, index); return; }
  const placed = pending.findIndex((p) => p.row === row && p.col === col);
  if (placed >= 0 && !(cursor && cursor.row === row && cursor.col === col)) {
    pending.splice(placed, 1);  // a tile of yours tapped again: back to the rack
    preview();
    draw();
    return;
  }
  if (cursor && cursor.row === row && cursor.col === col) cursor.down = !cursor.down;
  else cursor = { row, col, down: false };
  draw();
  board.focus(row, col);
}

function tapRack(index) {
  if (!seated() || view.status === "over") return;
  if (pending.some((p) => p.rackIndex === index)) {
    pending = pending.filter((p) => p.rackIndex !== index);  // on the board: back to the rack
    preview();
  } else {
    chosen = chosen === index ? null : index;
  }
  draw();
}

async function placeAt(row, col, rackIndex, as = null) {
  if (!seated() || view.status === "over" || occupied(row, col) || pending.some((p) => p.rackIndex === rackIndex)) return false;
  let label = order[rackIndex];
  let blank = false;
  if (label === "?") {
    const letter = as || await chooseBlank(letters());
    if (!letter) return false;
    label = letter;
    blank = true;
  }
  pending.push({ row, col, label, blank, rackIndex });
  preview();
  draw();
  return true;
}

function typeLetter(key) {
  if (!cursor || !seated() || view.status === "over") return;
  const label = letters().find((l) => l.toLowerCase() === key.toLowerCase());
  if (!label) return;
  const used = new Set(pending.map((p) => p.rackIndex));
  const index = order.findIndex((t, i) => (blankNext ? t === "?" : t === label) && !used.has(i));
  if (index < 0) {  // not on the rack: nothing happens, and no blank is spent on it
    say(blankNext ? "no blank on your rack" : `no ${label} on your rack (type ? then ${label} for a blank)`, "preview");
    blankNext = false;
    return;
  }
  while (cursor && occupied(cursor.row, cursor.col)) advance();
  if (!cursor) return;
  pending.push({ row: cursor.row, col: cursor.col, label, blank: blankNext, rackIndex: index });
  blankNext = false;
  advance();
  preview();
  draw();
  if (cursor) board.focus(cursor.row, cursor.col);
}

function advance() {
  if (cursor.down) cursor.row += 1; else cursor.col += 1;
  if (cursor.row >= layout.rows.length || cursor.col >= layout.rows[0].length) cursor = null;
}

function takeBack() {
  const last = pending.pop();
  if (last) cursor = { row: last.row, col: last.col, down: cursor ? cursor.down : false };
  preview();
  draw();
}

function recall() {
  pending = [];
  chosen = null;
  premove = null;
  say("", "preview");
  draw();
}

function shuffle() {
  if (pending.length) recall();
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  draw();
}

let previewTimer = null;
function preview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const play = playNotation(pending, view.rows);
    if (!play) { say(pending.length ? "the tiles must make one word in one line" : "", "preview"); return; }
    if (!myTurn()) { say(`${play}: you may play it when your turn comes`, "preview"); return; }
    try {
      const found = await request(`/api/games/${encodeURIComponent(gameId)}/preview`, { method: "POST", body: { action: play }, token });
      say(found.ok ? `${play}: ${found.score} points (${found.words.join(", ")})` : found.error, "preview");
    } catch (err) {
      say("", "preview");
    }
  }, 150);
}

// -- acting --------------------------------------------------------------------------

async function send(action) {
  say("");
  try {
    const answer = await act(gameId, token, action, (attempt) => say(`no answer from the server: sending again (attempt ${attempt})`));
    pending = [];
    cursor = null;
    chosen = null;
    say("", "preview");
    say("");
    show(answer);
  } catch (err) {
    say(err.message);  // the tiles stay where the player put them: the play may be fixed
    draw();
  }
}

function play() {
  const text = playNotation(pending, view.rows);
  if (!text) { say("place tiles in one line first"); return; }
  if (!myTurn()) { premove = text; draw(); return; }
  send(text);
}

async function exchange() {
  if (!myTurn()) return;
  const tiles = await chooseExchange(order, scoreOf);
  if (tiles) send(`-${tiles}`);
}

async function pass() {
  if (!myTurn()) return;
  if (await confirmAction("Pass?", "Your turn ends and you score nothing.", "Pass")) send("-");
}

async function challenge() {
  const last = [...(view.events || [])].reverse().find((e) => e.kind === "place");
  const what = last ? `${view.seats[last.seat].name}'s ${last.text || last.move}` : "the last play";
  const mode = (view.rules.options || []).find((o) => o.includes("challenge")) || "double challenge";
  const cost = mode.startsWith("single") ? "" : mode.includes("point") ? " If every word is good, you lose points." : " If every word is good, you lose your turn.";
  if (await confirmAction("Challenge?", `Challenge ${what}?${cost}`, "Challenge")) send("challenge");
}

async function resign() {
  if (await confirmAction("Resign?", "The game ends now, and you lose it.", "Resign")) send("resign");
}

// -- coaching, analysis, chat --------------------------------------------------------------

async function ask(question) {
  $("coach-answer").textContent = "…";
  try {
    const answer = await request(`/api/games/${encodeURIComponent(gameId)}/coach`, { method: "POST", body: { ask: question }, token });
    $("coach-answer").textContent = answer.lines.join("\n");
    coachSeq = view.seq;
  } catch (err) {
    $("coach-answer").textContent = err.message;
  }
}

async function chat(event) {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  const body = { text };
  if (!seated()) {
    const name = ($("chat-name").value || localStorage.getItem("tilebag.name") || "").trim();
    if (!name) { say("give your name to chat"); $("chat-name").focus(); return; }
    localStorage.setItem("tilebag.name", name);
    body.name = name;
  }
  try {
    await request(`/api/games/${encodeURIComponent(gameId)}/chat`, { method: "POST", body, token });
    $("chat-text").value = "";
    countChat();
  } catch (err) {
    say(err.message);
  }
}

function countChat() {
  const left = 500 - $("chat-text").value.length;
  $("chat-count").textContent = left < 100 ? `${left} left` : "";
}

// -- the keyboard --------------------------------------------------------------------------

function keys(event) {
  if (event.target.closest("input, textarea, select, dialog")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (examiner && examiner.active && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    event.preventDefault();
    examiner.step(event.key === "ArrowLeft" ? -1 : 1);
    return;
  }
  const key = event.key;
  if (key === "Enter" && pending.length) { event.preventDefault(); play(); }
  else if (key === "Backspace" && pending.length) { event.preventDefault(); takeBack(); }
  else if (key === "Escape") { recall(); }
  else if ((key === " " || key === "/") && cursor) { event.preventDefault(); cursor.down = !cursor.down; draw(); board.focus(cursor.row, cursor.col); }
  else if (key === "?" && cursor) { event.preventDefault(); blankNext = true; say("a blank: now type the letter it stands for", "preview"); }
  else if (key === "1") { shuffle(); }
  else if (key === "2") { exchange(); }
  else if (key === "3") { pass(); }
  else if (key === "4") { if (!$("challenge").disabled) challenge(); }
  else if (key === "F1") { event.preventDefault(); toggleKeys(); }
  else if (key.startsWith("Arrow") && layout) {
    event.preventDefault();
    if (!cursor) cursor = { row: layout.start[0], col: layout.start[1], down: false };
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const [dr, dc] = moves[key];
    cursor.row = Math.max(0, Math.min(layout.rows.length - 1, cursor.row + dr));
    cursor.col = Math.max(0, Math.min(layout.rows[0].length - 1, cursor.col + dc));
    cursor.down = dr !== 0;
    draw();
    board.focus(cursor.row, cursor.col);
  } else if (key.length === 1 && cursor && /\p{L}/u.test(key)) {
    event.preventDefault();
    typeLetter(key);
  }
}

function toggleKeys() {
  const help = $("keys-help");
  help.hidden = !help.hidden;
  $("keys").setAttribute("aria-expanded", String(!help.hidden));
}

function toggleNotify() {
  const on = localStorage.getItem("tilebag.notify") !== "on";
  localStorage.setItem("tilebag.notify", on ? "on" : "off");
  if (on && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
  $("notify").setAttribute("aria-pressed", String(on));
  $("notify").textContent = on ? "Notifying" : "Notify me";
}

// -- a link that cannot show the game ----------------------------------------------------

function stop(kind) {
  const notice = $("notice-page");
  const lobby = el("a", { href: "/", text: "Go to the lobby" });
  if (kind === "token") {
    notice.replaceChildren(
      el("h1", { text: "This link is not valid for this game" }),
      el("p", { text: "Its seat key is wrong, or no longer belongs to a seat of this game. Ask for the link again, or:" }),
      el("p", {}, el("a", { href: `/games/${encodeURIComponent(gameId)}`, text: "Watch the game" }), " · ", lobby),
    );
  } else if (kind === "damaged") {
    notice.replaceChildren(el("h1", { text: "This game cannot be shown" }),
      el("p", { text: "Its record does not replay, and the server has set it aside for its keeper to look at." }), el("p", {}, lobby));
  } else {
    notice.replaceChildren(el("h1", { text: "No such game" }), el("p", {}, lobby));
  }
  notice.hidden = false;
  $("game").hidden = true;
  $("connection").textContent = "";
}

// -- starting ------------------------------------------------------------------------

function bind() {
  $("play").addEventListener("click", play);
  $("recall").addEventListener("click", recall);
  $("shuffle").addEventListener("click", shuffle);
  $("exchange").addEventListener("click", exchange);
  $("pass").addEventListener("click", pass);
  $("challenge").addEventListener("click", challenge);
  $("accept").addEventListener("click", () => send("accept"));
  $("final-challenge").addEventListener("click", challenge);
  $("resign").addEventListener("click", resign);
  $("keys").addEventListener("click", toggleKeys);
  $("notify").addEventListener("click", toggleNotify);
  $("chat-form").addEventListener("submit", chat);
  $("chat-text").addEventListener("input", countChat);
  for (const button of document.querySelectorAll("[data-ask]")) button.addEventListener("click", () => ask(button.dataset.ask));
  $("hooks-form").addEventListener("submit", (event) => { event.preventDefault(); ask(`hooks ${$("hooks-word").value.trim()}`); });
  document.addEventListener("keydown", keys);
  if (localStorage.getItem("tilebag.notify") === "on") { localStorage.setItem("tilebag.notify", "off"); toggleNotify(); }
  setInterval(() => drawClocks(view, tick, performance.now()), 250);
}

async function load() {
  const socket = follow(gameId, token, {
    view: show,
    event: () => {},
    clock: (message) => { tick = { ...message, at: performance.now() }; drawClocks(view, tick, performance.now()); },
    status: (text) => { $("connection").textContent = text; },
    stop,
  });
  try {
    const [drawn, seen] = await Promise.all([
      request(`/api/games/${encodeURIComponent(gameId)}/layout`),
      request(`/api/games/${encodeURIComponent(gameId)}`, { token }),
    ]);
    layout = drawn;
    board.setLayout(layout);
    show(seen);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) stop("token");
    else if (err instanceof ApiError && err.status === 404) stop("game");
    else if (err instanceof ApiError && err.status === 410) stop("damaged");
    else { $("connection").textContent = `cannot reach the server: ${err.message}`; setTimeout(load, 2000); }
    return;
  }
  if (token && seated()) remember({ id: gameId, seat: view.you, token, name: view.seats[view.you].name });
  examiner = new Examiner({ gameId, token, board: () => draw(), layout: () => layout, view: () => view });
  examiner.sync();
  socket.start(() => (view ? view.seq : 0));
}

bind();
load();
