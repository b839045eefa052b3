// What the game pages share: card faces, a keyboard that is live only while its page is shown,
// panels that stay open across redraws, the help panel, the key legend and the final standings.
// Not a game: the page only imports games/<game>.js for a registered game's name (table/page.js, app.js).
import { isolate, t as catalogText } from "../i18n.js";
import { optionText, presetLabel } from "../words.js";

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// A card's face in text, rank first ("10♣"), isolated left to right on a right-to-left page.
export function cardLabel(code) {
  if (code === "JK") return "🃏";
  const rank = code[0] === "T" ? "10" : code[0];
  return isolate(rank + SUITS[code[1]]);
}

// A card face (code like "QH", "TD", "JK"), or a back for null/undefined, which a screen reader
// reads as "face-down card" in the page's language. `cls` adds classes.
export function card(h, code, attrs = {}, cls = "") {
  if (code === null || code === undefined) {
    return h("div", { class: `card back ${cls}`, ...attrs }, h("span", { class: "sr" }, catalogText("web.card.face_down")));
  }
  const red = code[1] === "H" || code[1] === "D" || code === "JK";
  const ten = code[0] === "T" ? "ten" : ""; // "10♣": three characters in the corner
  return h("div", { class: `card face ${red ? "red" : "black"} ${ten} ${cls}`, "data-card": code, ...attrs },
    h("span", { class: "corner" }, cardLabel(code)), h("span", { class: "pip" }, code === "JK" ? "🃏" : SUITS[code[1]]));
}

// A seat in words: "you" for the viewer's own, else the player's name (ctx.names: "Ben", "Ada").
export function seatWord(ctx, s, me) {
  if (s === me) return ctx.t("web.you");
  return (ctx.names && ctx.names[s]) || ctx.t("web.seat", { n: s });
}

// A seat's heading in its box: the name in bold and what plays it beside it ("medium bot").
export function seatHead(ctx, s, me) {
  const kind = s !== me && ctx.kinds ? ctx.kinds[s] : "";
  return [ctx.h("b", {}, seatWord(ctx, s, me)), kind ? ctx.h("span", { class: "kind" }, kind) : null];
}

// An element that acts when clicked, or on Enter/Space while it has the focus. `label` is what a
// screen reader says for it: the move in the page's words (the game's describe()), never the
// action's code.
export function actionable(el, action, act, label) {
  el.classList.add("legal");
  el.setAttribute("data-legal", action);
  if (el.tagName !== "BUTTON") {
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(action); }
    });
  }
  el.setAttribute("aria-label", label);
  el.addEventListener("click", () => act(action));
  return el;
}

// ------------------------------------------------------------------ keyboard
// A key typed into a field (the share link, a name, a chat box) or with a modifier is never a move.
function forTheField(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return true;
  const el = e.target;
  return el instanceof Element && Boolean(el.closest("input, textarea, select, [contenteditable]"));
}

// Enter and Space on a focused control belong to that control (it acts by itself).
export function onControl(e) {
  const el = e.target;
  return (e.key === "Enter" || e.key === " ")
    && el instanceof Element && Boolean(el.closest("button, [role=button], a, summary"));
}

// One document listener per game module. `handler(e, live)` gets the page last drawn
// ({root, view, ctx}) and returns true when it used the key. The listener does nothing once
// that board has left the page (another table, the lobby). Returns the function each render
// calls to say what is on the page.
export function keyboard(handler) {
  let live = null;
  document.addEventListener("keydown", (e) => {
    if (!live || !live.root.isConnected || e.defaultPrevented || forTheField(e)) return;
    if (handler(e, live)) e.preventDefault();
  });
  return (root, view, ctx) => { live = { root, view, ctx }; };
}

// ------------------------------------------------------------------ panels
const opened = new Map(); // panel key -> open, kept across redraws (a bot's move redraws the board)

export function panel(h, key, { open = false, cls = "", testid = null } = {}, summary, ...children) {
  const el = h("details", { class: cls, "data-testid": testid, "data-panel": key, open: (opened.has(key) ? opened.get(key) : open) || null },
    h("summary", {}, summary), ...children);
  el.addEventListener("toggle", () => { if (el.isConnected) opened.set(key, el.open); });
  return el;
}

export function togglePanel(root, key) {
  const el = root.querySelector(`details[data-panel="${key}"]`);
  const now = el ? el.open : Boolean(opened.get(key));
  opened.set(key, !now);
  if (el) el.open = !now;
}

// The game's rules in short, what this table plays (its preset and options, and what the view
// says) and the page's keys
// ([key, what it does] or [word, what it does, true] for a mouse row).
export function helpPanel(ctx, game, settings, keys) {
  const { h, t } = ctx;
  if (ctx.seat !== null && ctx.seat !== undefined) keys = [...keys, ["h", t("web.hint")]]; // app.js: the hint
  const table = ctx.table; // the lobby's facts: the preset and the options this table changed
  if (table) {
    settings = [`${t("web.preset")}: ${presetLabel(game, table.preset)}`,
      ...Object.entries(table.options || {}).map(([k, v]) => optionText(game, k, v)), ...settings];
  }
  return panel(h, `${game}.help`, { cls: "help card-panel", testid: "help" }, t("web.help"),
    h("h3", {}, t("web.help.rules")),
    h("p", {}, t(`web.${game}.rules`)),
    settings.length ? h("p", { "data-testid": "settings" }, h("b", {}, t("web.help.table")), " ", settings.join(" · ")) : null,
    h("h3", {}, t("web.help.keys")),
    h("table", { class: "keys-help" }, h("tbody", {}, keys.map(([k, what, word]) => h("tr", {}, h("th", {}, word ? k : h("kbd", {}, k)), h("td", {}, what))))));
}

// A one-line reminder of the keys (hidden on touch screens).
export function legend(ctx, items) {
  const { h, t } = ctx;
  return h("p", { class: "key-legend", "data-testid": "keys" }, h("b", {}, t("web.keys")), " ",
    items.flatMap(([k, what], i) => [i ? " · " : "", h("kbd", {}, k), " ", what]));
}

// The end of a game: the result and one line per seat.
export function standings(ctx, rows) {
  const { h, t } = ctx;
  return h("section", { class: "result card-panel", "data-testid": "result" },
    h("h2", {}, t("web.result")),
    h("ul", {}, rows.map(([who, what, won]) => h("li", { class: won ? "won" : "" }, h("b", {}, who), ": ", what,
      won ? h("span", { class: "trophy", title: t("web.winner") }, " ★") : null))));
}
