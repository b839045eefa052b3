// The players' pages: the account page (sign up, log in, log out, delete) and, exported for the
// other players' and tournaments' pages, what they share: the DOM builder (dom.js's, passed on),
// the JSON API with the session's CSRF token, the header's links and the language menu. Text from
// the server is always set as text, never as HTML.
import { h } from "./dom.js";
import { ApiError, answer } from "./errors.js";
import { digits, loadLang, preferredLang, t } from "./i18n.js";

export { h };

// `el`'s children replaced by `children` (lists flattened, null and false left out, as h() does).
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

// The words of the players', tournaments' and quick play's pages (the ones that call this api) for
// codes that mean something of their own there; every other code is said by errors.js
// (web.error.<code>). `full` and `started` come from an event here (a table's are the lobby's).
const ERRORS = {
  bad_login: "web.players.error.bad_login",
  name_taken: "web.players.error.name_taken",
  bad_username: "web.players.error.bad_username",
  reserved_username: "web.players.error.reserved_username",
  lookalike_username: "web.players.error.lookalike_username",
  bad_password: "web.players.error.bad_password",
  rate_limited: "web.players.error.rate_limited",
  no_player: "web.players.no_player",
  no_game: "web.players.no_game",
  full: "web.error.event_full",
  started: "web.error.event_started",
};

export { ApiError };

// The session as the server knows it: {account, csrf}. Every change sends the CSRF token.
export const session = { account: null, csrf: null };

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...(session.csrf ? { "X-CSRF-Token": session.csrf } : {}) },
  };
  const r = await fetch(path, { credentials: "same-origin", ...init });
  return answer(r, ERRORS);
}

export async function refreshSession() {
  const data = await api("/api/players/me");
  session.account = data.account;
  session.csrf = data.csrf;
  return session;
}

export const profileLink = (name) => `/players/${encodeURIComponent(name)}`;

// The seats this browser holds (the lobby keeps each as ct.seat.<table> = {seat, token}): a new
// account brings them along, so the games just played stay with it.
export function keptSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = /^ct\.seat\.([A-Za-z0-9_-]{1,64})$/.exec(key || "");
    if (!m) continue;
    let held = null;
    try { held = JSON.parse(localStorage.getItem(key)); } catch { held = null; }
    if (held && Number.isInteger(held.seat) && typeof held.token === "string") {
      out.push({ table: m[1], seat: held.seat, token: held.token });
    }
  }
  return out.slice(-50); // the server links at most 50 at once
}

// A date as the page's language writes it.
export function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(document.documentElement.lang || "en",
    { year: "numeric", month: "short", day: "numeric" });
}

export const number = (value) => digits(value);

// The page of a paged list the address asks for (`?page=n`, from 0; anything else: the first).
export function pageAsked() {
  const raw = new URLSearchParams(location.search).get("page") || "";
  return /^[0-9]{1,4}$/.test(raw) ? Number(raw) : 0;
}

// Previous/next links under a paged list (the profile's games, a leaderboard): `page` is the one
// shown, `more` the server's word that a next one has rows; nothing when there is one page only.
export function pager(page, more, { prev, next }) {
  if (!page && !more) return null;
  const to = (n) => `${location.pathname}${n ? `?page=${n}` : ""}`;
  return h("nav", { class: "pager", "data-testid": "pager" },
    page ? h("a", { href: to(page - 1), rel: "prev", "data-testid": "page-prev" }, t(prev)) : null,
    h("span", { class: "muted", "data-testid": "page-number" }, t("web.players.page", { n: number(page + 1) })),
    more ? h("a", { href: to(page + 1), rel: "next", "data-testid": "page-next" }, t(next)) : null);
}

// The header's links (lobby, leaderboard, the account or its profile) and the language menu;
// then `render(app)`.
export async function boot(render) {
  const langSel = document.getElementById("lang");
  langSel.value = await loadLang(preferredLang());
  langSel.addEventListener("change", () => { localStorage.setItem("ct.lang", langSel.value); location.reload(); });
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  await fillNav();
  await render(document.getElementById("app"));
}

// The players' menu of the header (every page has one): the leaderboard, the tournaments, and
// the account (log in) or its profile; the catalog is loaded already. A server without accounts
// (one on PostgreSQL, for now) answers no session: no menu.
export async function fillNav() {
  const nav = document.getElementById("players-nav");
  const served = await refreshSession().then(() => true, () => false);
  if (!nav) return;
  if (!served) { nav.hidden = true; return; }
  const me = session.account;
  const links = [h("a", { href: "/leaderboard", "data-testid": "nav-leaderboard" }, t("web.players.leaderboard")), " · ",
    h("a", { href: "/events", "data-testid": "nav-events" }, t("web.events.title")), " · "];
  if (me) {
    links.push(h("a", { href: profileLink(me.username), "data-testid": "nav-profile" }, me.username), " · ",
      h("a", { href: "/account", "data-testid": "nav-account" }, t("web.players.account")));
  } else links.push(h("a", { href: "/account", "data-testid": "nav-account" }, t("web.players.login")));
  fill(nav, links);
}

// ----------------------------------------------------------------- the account page
function field(name, label, type, autocomplete) {
  const input = h("input", { name, type, autocomplete, required: true, "data-testid": `${name}` });
  return [h("label", {}, label, " ", input), input];
}

function form(testid, title, fields, button, onsubmit, extra = null) {
  const note = h("p", { class: "muted", role: "alert", "data-testid": `${testid}-error` });
  const el = h("form", { class: "card-panel create players-form", "data-testid": testid, onsubmit: async (e) => {
    e.preventDefault();
    note.textContent = "";
    const submit = el.querySelector("button[type=submit]");
    submit.disabled = true;
    try { await onsubmit(); } catch (err) {
      note.textContent = err instanceof ApiError ? err.text : String(err);
    } finally { submit.disabled = false; }
  } }, h("h2", {}, title), fields, extra, h("button", { type: "submit", class: "primary", "data-testid": `${testid}-submit` }, button), note);
  return el;
}

function loggedOut(app) {
  const [signName, signNameInput] = field("username", t("web.players.username"), "text", "username");
  const [signPass, signPassInput] = field("password", t("web.players.password"), "password", "new-password");
  signPassInput.minLength = 8;
  const kept = keptSeats();
  const keep = h("input", { type: "checkbox", checked: true, "data-testid": "keep-games" });
  const keepLabel = kept.length ? h("label", {}, keep, " ", t("web.players.keep_games", { n: number(kept.length) })) : null;
  const signup = form("signup", t("web.players.signup"), [signName, signPass], t("web.players.signup"), async () => {
    const data = await api("/api/players/signup", { username: signNameInput.value, password: signPassInput.value,
      seats: kept.length && keep.checked ? kept : [] });
    location.assign(profileLink(data.account.username));
  }, keepLabel);
  const [logName, logNameInput] = field("username", t("web.players.username"), "text", "username");
  const [logPass, logPassInput] = field("password", t("web.players.password"), "password", "current-password");
  const login = form("login", t("web.players.login"), [logName, logPass], t("web.players.login"), async () => {
    const data = await api("/api/players/login", { username: logNameInput.value, password: logPassInput.value });
    location.assign(profileLink(data.account.username));
  });
  fill(app, h("h1", { class: "table-head" }, t("web.players.account")), login, signup,
    h("p", { class: "card-panel muted" }, t("web.players.optional")));
}

function loggedIn(app, me) {
  const logout = h("button", { type: "button", "data-testid": "logout", onclick: async () => {
    await api("/api/players/logout", {});
    location.assign("/account");
  } }, t("web.players.logout"));
  const [pass, passInput] = field("password", t("web.players.password"), "password", "current-password");
  const remove = form("delete", t("web.players.delete"), [h("p", { class: "muted" }, t("web.players.delete_note")), pass],
    t("web.players.delete"), async () => {
      await api("/api/players/delete", { password: passInput.value });
      fill(app, h("p", { class: "card-panel", "data-testid": "deleted" }, t("web.players.deleted")));
      await fillNav(); // the header no longer names the account that is gone: "Log in" again
    });
  fill(app, h("h1", { class: "table-head" }, t("web.players.account")),
    h("section", { class: "card-panel" },
      h("p", { "data-testid": "logged-in" }, t("web.players.logged_in", { name: me.username })),
      h("p", {}, h("a", { href: profileLink(me.username), "data-testid": "my-profile" }, t("web.players.my_profile")), " ", logout)),
    remove);
}

if (document.body.dataset.page === "account") {
  boot((app) => {
    document.title = `cardtable · ${t("web.players.account")}`;
    return session.account ? loggedIn(app, session.account) : loggedOut(app);
  });
}
