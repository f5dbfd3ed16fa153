// The events of this server, and for a logged-in account, a form to run one.

import { request } from "./api.js";
import { $, el } from "./dom.js";
import { drawNav } from "./nav.js";

async function start() {
  const account = await drawNav();
  const found = await request("/api/events").catch(() => []);
  $("events").replaceChildren(...(found.length ? found.map((event) => el("li", {},
    el("a", { href: `/events/${encodeURIComponent(event.id)}`, text: event.name }),
    el("span", { text: ` · ${event.online ? "online" : "over the board"} · ${event.players ?? 0} players · ${event.status ?? ""}` })))
    : [el("li", { text: "No events yet." })]));
  if (!account) return;
  $("new-event-section").hidden = false;
  $("new-event").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const made = await request("/api/events", { method: "POST", body: {
        name: $("event-name-input").value.trim(), rounds: Number($("event-rounds").value), online: $("event-online").checked } });
      location.href = `/events/${encodeURIComponent(made.id)}`;
    } catch (err) {
      $("new-event-error").textContent = err.message;
    }
  });
}

start();
