// The site's header links, the same on every page but the game's: the
// lobby, and either "Log in" or the account's name (its profile), its
// settings and "Log out".

import { loggedIn, me, request } from "./api.js";
import { $, el } from "./dom.js";

export async function drawNav() {
  const nav = $("site-nav");
  if (!nav) return null;
  const account = await me();
  const links = [el("a", { href: "/", text: "Lobby" }), el("a", { href: "/events", text: "Events" })];
  if (account) {
    links.push(el("a", { href: `/users/${encodeURIComponent(account.username)}`, text: account.username, id: "nav-profile" }),
      el("a", { href: "/account", text: "Account" }));
    const out = el("button", { type: "button", class: "link", id: "logout", text: "Log out" });
    out.addEventListener("click", async () => {
      await request("/api/logout", { method: "POST" }).catch(() => {});
      loggedIn(null);
      location.href = "/";
    });
    links.push(out);
  } else {
    links.push(el("a", { href: `/login?next=${encodeURIComponent(location.pathname)}`, text: "Log in", id: "nav-login" }));
  }
  nav.replaceChildren(...links);
  return account;
}
