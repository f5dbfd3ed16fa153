// The panels beside the board, drawn from the seat's view: the players'
// cards (score, tiles, the time each has left), the notice of what the
// others did, the scorecard of every turn, the tiles this seat cannot see,
// the chat, and the result. They hold no state of their own.

import { $, el } from "./dom.js";

// "12:05", or "-1:05" in overtime.
export function clockText(seconds) {
  const negative = seconds < 0;
  const whole = Math.ceil(Math.abs(seconds) - 1e-9);
  const text = `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  return negative ? `-${text}` : text;
}

function name(view, seat) {
  const found = view.seats[seat];
  return found ? found.name : `seat ${seat + 1}`;
}

// One card per seat: name, score, tiles on the rack, whose turn, the time left.
export function drawPlayers(view) {
  const over = view.status === "over";
  const cards = view.seats.map((seat) => {
    const card = el("li", { class: "player", "data-seat": String(seat.seat) });
    if (!over && view.turn === seat.seat) { card.classList.add("turn"); card.setAttribute("aria-current", "true"); }
    if (view.you === seat.seat) card.classList.add("you");
    const named = seat.kind === "bot" && seat.name.toLowerCase().includes(String(seat.bot).toLowerCase());
    const kind = seat.kind === "bot" && !named ? ` (${seat.bot || "bot"})` : seat.kind === "open" ? " (open seat)" : "";
    card.append(
      el("span", { class: "name", text: `${seat.name}${kind}` }),
      el("span", { class: "score", text: String(view.scores[seat.seat]) }),
      el("span", { class: "tiles", text: over ? "" : `${seat.tiles} ${seat.tiles === 1 ? "tile" : "tiles"}` }),
      el("span", { class: "clock", "data-seat": String(seat.seat), "aria-live": "off" }),
    );
    if (seat.target) card.append(el("span", { class: "target", text: `target ${seat.target}` }));
    return card;
  });
  $("players").replaceChildren(...cards);
  $("bag").textContent = `${view.bag} ${view.bag === 1 ? "tile" : "tiles"} in the bag`;
}

// The clocks on the cards, counted down from the server's last tick: each
// seat's game clock left (negative in overtime) and the turn timer of the seat
// to move; a low-time warning under a minute (15 s on a turn timer).
export function drawClocks(view, tick, now) {
  if (!view || !view.clocks) return;
  const playing = view.status === "playing";
  const since = tick && playing && tick.seq === view.seq ? (now - tick.at) / 1000 : 0;
  const used = tick && tick.seq === view.seq ? tick.used : view.clocks.used;
  for (const span of document.querySelectorAll(".player .clock")) {
    const seat = Number(span.dataset.seat);
    const running = playing && seat === view.turn;
    const parts = [];
    let low = false;
    if (view.clocks.game_clock) {
      const left = view.clocks.game_clock - (used[seat] || 0) - (running ? since : 0);
      parts.push(clockText(left));
      low = low || left < 60;
      span.classList.toggle("overtime", left < 0);
    }
    if (view.clocks.turn_time && running) {
      const left = tick && tick.turn_left !== null && tick.seq === view.seq ? tick.turn_left - since : view.clocks.turn_time;
      parts.push(`turn ${clockText(Math.max(0, left))}`);
      low = low || left < 15;
    }
    span.textContent = parts.join(" · ");
    span.classList.toggle("low", running && low);
  }
}

// What the others did since this seat's last action, in words, on the board:
// plays, exchanges, passes, time outs, challenges and their outcome; the
// final challenge, when the game waits for it.
export function noticeLines(view) {
  if (view.final_challenge) {
    const fc = view.final_challenge;
    const mine = view.you === fc.challenger;
    return [`${name(view, fc.player)} went out with ${fc.play}. ${mine ? "Accept the play, or challenge it." : `${name(view, fc.challenger)} may challenge it.`}`];
  }
  const events = view.events || [];
  let start = events.length - 1;
  if (view.you !== null && view.you !== undefined) {
    let mine = -1;  // this seat's last move: what came after it is news
    events.forEach((e, i) => { if (e.seat === view.you && e.move_number) mine = i; });
    start = mine + 1;
  }
  return events.slice(Math.max(0, start, events.length - 4)).map((e) => e.note).filter(Boolean);
}

// The scorecard: each turn's player, rack (where this seat may see it), play
// and the words it formed, score and running total; phonies taken off and
// challenges marked.
export function drawScorecard(view) {
  const rows = (view.events || []).map((e, index) => {
    const row = el("tr", { class: `event ${e.kind.replace(/ /g, "-")}`, "data-index": String(index) });
    const words = e.words && e.words.length ? e.words.join(", ") : "";
    const play = e.text || e.move || e.kind;
    row.append(
      el("td", { class: "who", text: name(view, e.seat) }),
      el("td", { class: "rack", text: e.rack || "" }),
      el("td", { class: e.withdrawn ? "play phony" : "play" }, el("span", { text: play }), words ? el("small", { text: ` ${words}` }) : ""),
      el("td", { class: "points", text: `${e.score >= 0 ? "+" : ""}${e.score}` }),
      el("td", { class: "total", text: String(e.total) }),
    );
    if (e.note) row.title = e.note;
    return row;
  });
  $("log").replaceChildren(...rows);
  const scroller = $("log").closest(".scroll");
  if (scroller) scroller.scrollTop = scroller.scrollHeight;
}

// The tiles this seat cannot see, by letter, with the vowels and consonants
// counted; the other rack, once the bag is empty (tracking tells it).
export function drawTracking(view) {
  const counts = Object.entries(view.unseen_by_letter || {});
  const box = $("unseen");
  if (!counts.length) {
    box.replaceChildren(el("p", { text: `${view.unseen_count ?? 0} tiles unseen` }));
    return;
  }
  const tracking = view.tracking || {};
  const letters = el("p", { class: "unseen-letters" }, ...counts.map(([letter, count]) =>
    el("span", { class: "unseen-tile", text: count > 1 ? `${letter}${count}` : letter, "aria-label": `${count} ${letter === "?" ? "blank" : letter}` })));
  const summary = el("p", { class: "unseen-summary",
    text: `${tracking.total ?? counts.reduce((n, [, c]) => n + c, 0)} unseen: ${tracking.vowels ?? 0} vowels, ${tracking.consonants ?? 0} consonants${tracking.blanks ? `, ${tracking.blanks} blank${tracking.blanks > 1 ? "s" : ""}` : ""}` });
  const parts = [summary, letters];
  if (tracking.others_rack) parts.push(el("p", { class: "others-rack", text: `${tracking.others_name || "The other"}'s rack: ${tracking.others_rack}` }));
  box.replaceChildren(...parts);
}

function time(at) {
  if (!at) return "";
  const when = new Date(at);
  return Number.isNaN(when.getTime()) ? "" : when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// The chat, kept scrolled to the newest message unless the reader scrolled up.
export function drawChat(view) {
  const list = $("chat");
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...(view.chat || []).map((c) =>
    el("li", {}, el("time", { text: time(c.at), datetime: c.at || "" }), " ", el("strong", { text: `${c.name}:` }), ` ${c.text}`)));
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// The result banner, once the game is over.
export function drawResult(view) {
  const banner = $("result");
  if (view.status !== "over") { banner.hidden = true; return; }
  const lines = [el("strong", { text: view.result || "The game is over." })];
  if (view.racks) {
    const left = view.racks.map((rack, seat) => (rack ? `${name(view, seat)} kept ${rack}` : "")).filter(Boolean);
    if (left.length) lines.push(el("span", { text: ` ${left.join("; ")}.` }));
  }
  banner.replaceChildren(...lines);
  banner.hidden = false;
}
