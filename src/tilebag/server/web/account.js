// An account's own page: its games (those awaiting its move first), its
// password, its API tokens and its deletion.

import { loggedIn, request } from "./api.js";
import { $, el } from "./dom.js";
import { drawNav } from "./nav.js";

const failed = (err) => { $("account-error").textContent = err.message; };

async function games() {
  const found = await request("/api/my/games");
  const rows = found.map((game) => {
    const others = game.names.filter((_, seat) => seat !== game.seat).join(", ");
    const state = game.status === "over" ? "over" : game.your_turn ? "your turn" : `${game.names[game.turn]}'s turn`;
    return el("li", { class: game.your_turn ? "yours" : "" },
      el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: `against ${others}` }),
      el("span", { text: ` · ${game.rules} · ${game.scores.join("–")} · ${state}` }));
  });
  $("my-games").replaceChildren(...(rows.length ? rows : [el("li", { text: "No games yet: offer one in the lobby." })]));
}

async function tokens() {
  const found = await request("/api/tokens");
  $("tokens").replaceChildren(...found.map((token) => {
    const revoke = el("button", { type: "button", class: "small", text: "Revoke", "aria-label": `revoke ${token.name}` });
    revoke.addEventListener("click", async () => {
      await request(`/api/tokens/${token.id}`, { method: "DELETE" }).catch(failed);
      tokens();
    });
    return el("li", {}, el("span", { text: `${token.name} (made ${token.created.slice(0, 10)}) ` }), revoke);
  }));
}

async function start() {
  const account = await drawNav();
  if (!account) { $("guest").hidden = false; return; }
  for (const id of ["games-section", "password-section", "tokens-section", "delete-section"]) $(id).hidden = false;
  $("password").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("password-said").textContent = "";
    try {
      await request("/api/password", { method: "POST", body: { old: $("old-password").value, new: $("new-password").value } });
      $("password-said").textContent = "Changed.";
      $("password").reset();
    } catch (err) { failed(err); }
  });
  $("new-token").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await request("/api/tokens", { method: "POST", body: { name: $("token-name").value } });
      $("token-made").replaceChildren("Your new token (copy it now: it is not shown again): ",
        el("input", { readonly: "", value: made.token, "aria-label": "the new token", id: "token-value" }));
      tokens();
    } catch (err) { failed(err); }
  });
  $("delete").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!confirm("Delete your account? This cannot be undone.")) return;
    try {
      await request("/api/account", { method: "DELETE", body: { password: $("delete-password").value } });
      loggedIn(null);
      location.href = "/";
    } catch (err) { failed(err); }
  });
  await Promise.all([games(), tokens()]).catch(failed);
}

start();
