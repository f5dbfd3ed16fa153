// The server's JSON API, as the pages ask it: one request function that turns
// a refusal into an error carrying the server's reason and status (and sends
// the session's CSRF token with every change a logged-in page makes), the
// account the page is logged in as, and the game's action, sent with an id so
// that sending it again (no answer came) stores it once.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;  // 0: the server could not be reached at all
  }
}

let account;  // undefined: not asked yet; null: a guest; else {username, role, csrf}

// The account this browser is logged in as (null for a guest), asked once.
export async function me({ fresh = false } = {}) {
  if (account === undefined || fresh) {
    try {
      const response = await fetch("/api/me");
      account = response.ok ? await response.json() : null;
    } catch (err) {
      account = null;
    }
  }
  return account;
}

// What a login or a registration answered (null after logging out).
export function loggedIn(answer) {
  account = answer;
}

// A JSON request; a refusal becomes an ApiError with the server's reason.
export async function request(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  else if (method !== "GET") {
    const found = await me();
    if (found && found.csrf) headers["X-CSRF-Token"] = found.csrf;  // the session cookie goes too
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("the server cannot be reached", 0);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(data.error || `the server answered ${response.status}`, response.status);
  return data;
}

// A fresh id for an action (crypto.randomUUID needs https; this works over plain http too).
export function actionId() {
  return [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// An action for a seat; sent again with the same id while no answer comes
// (the server stores it once), `onRetry(attempt)` told of each new try.
export async function act(gameId, token, action, onRetry = () => {}) {
  const id = actionId();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await request(`/api/games/${gameId}/actions`, { method: "POST", body: { action, id }, token });
    } catch (err) {
      if (err.status !== 0 || attempt >= 5) throw err;
      onRetry(attempt + 1);
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}
