// What both pages use: finding elements, making them (text only: no HTML from
// the server is ever inserted), and asking the server's JSON API.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// A JSON request; a refusal becomes an Error with the server's reason and its
// HTTP status (`status`: 0 when the server could not be reached at all).
export async function api(path, options = {}, token = null) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { ...options, headers });
  } catch (err) {
    throw Object.assign(new Error("the server cannot be reached"), { status: 0 });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(data.error || `the server answered ${response.status}`), { status: response.status });
  return data;
}
