// A game's WebSocket, followed: the views and events it tells, a dropped
// connection said and tried again with a count, a gap in the sequence
// numbers asked for again, and a link that can never connect (a wrong seat
// key, no such game) said once and not tried again.

import { isGap } from "./state.js";

const STOP = { 4401: "token", 4404: "game", 4410: "damaged" };

// Follows the game; `on` holds callbacks: view(view), event(message),
// clock(tick), status(text) for the connection line, stop(kind).
export function follow(gameId, token, on) {
  let socket = null;
  let attempts = 0;
  let stopped = false;
  let timer = null;
  let seq = () => 0;  // the newest sequence number the page holds, asked of it on reconnecting

  function connect() {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws${query}`);
    let heard = 0;  // the newest sequence number this socket told
    socket.addEventListener("open", () => {
      attempts = 0;
      on.status("live");
      if (seq()) socket.send(JSON.stringify({ since: seq() }));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "hello" || message.type === "view") {
        on.view(message.view);
        heard = Math.max(heard, message.view.seq);
      } else if (message.type === "clock") {
        on.clock(message);
      } else {
        if (isGap(heard, message.seq)) socket.send(JSON.stringify({ since: heard }));  // ask for what was missed
        if (typeof message.seq === "number") heard = Math.max(heard, message.seq);
        on.event(message);
      }
    });
    socket.addEventListener("close", (event) => {
      if (STOP[event.code]) { stop(STOP[event.code]); return; }
      if (!stopped) retry();
    });
  }

  function retry() {
    attempts += 1;
    let wait = Math.min(500 * 2 ** (attempts - 1), 8000);
    const tell = () => on.status(`connection lost: trying again${wait >= 1000 ? ` in ${Math.ceil(wait / 1000)} s` : ""} (attempt ${attempts})`);
    tell();
    const tick = () => {
      wait -= 1000;
      if (wait <= 0) { on.status(`connection lost: trying again (attempt ${attempts})`); connect(); return; }
      tell();
      timer = setTimeout(tick, Math.min(1000, wait));
    };
    clearTimeout(timer);
    timer = setTimeout(tick, Math.min(1000, wait));
  }

  function stop(kind) {
    stopped = true;
    clearTimeout(timer);
    on.status("");
    on.stop(kind);
  }

  return {
    start(newestSeq) { seq = newestSeq; connect(); },
    stop,
  };
}
