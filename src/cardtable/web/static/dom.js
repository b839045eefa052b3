// Small helpers every page shares: making elements, a passing note, the connection word in the
// header, and the page's own storage. Text is always set as text, never as HTML.
import { plain } from "./i18n.js";

// h("button", { class: "primary", onclick: f }, "text", child, ...): an element with its
// attributes (on* become listeners; null, undefined and false are left out) and children (lists at
// any depth flattened).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A note over the page for a few seconds (an error, "too late", a hint); returned so that it can
// be taken away sooner.
export function flash(message) {
  const el = h("div", { class: "flash", role: "alert", "data-testid": "flash" }, plain(message));
  document.body.append(el);
  setTimeout(() => el.remove(), 4000);
  return el;
}

// The header's word for the game socket ("online", "offline", ...; empty off a table).
export function connStatus(text) { document.getElementById("conn").textContent = text; }

// localStorage as JSON: ct.seat.<table> (this page's seat and token), ct.host.<table> (the host
// token), ct.seq.<table>, ct.name, ct.sit, ct.free_only, ct.lang.
export const store = {
  get(k) { try { return JSON.parse(localStorage.getItem(k)); } catch { return null; } },
  set(k, v) { localStorage.setItem(k, JSON.stringify(v)); },
};
