// Log in, or make an account: then back to the page that sent the person
// here (only a path of this site: never another site's address).

import { loggedIn, request } from "./api.js";
import { $ } from "./dom.js";
import { drawNav } from "./nav.js";

function next() {
  const wanted = new URLSearchParams(location.search).get("next") || "/";
  return wanted.startsWith("/") && !wanted.startsWith("//") ? wanted : "/";
}

async function submit(event, path, fields, errorId) {
  event.preventDefault();
  $(errorId).textContent = "";
  const body = {};
  for (const [name, id] of Object.entries(fields)) {
    const value = $(id).value;
    if (value) body[name] = value;
  }
  try {
    loggedIn(await request(path, { method: "POST", body }));
    location.href = next();
  } catch (err) {
    $(errorId).textContent = err.message;
  }
}

$("login").addEventListener("submit", (event) =>
  submit(event, "/api/login", { username: "login-name", password: "login-password" }, "login-error"));
$("register").addEventListener("submit", (event) =>
  submit(event, "/api/account", { username: "register-name", password: "register-password", email: "register-email" }, "register-error"));
drawNav();
