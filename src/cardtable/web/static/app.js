// cardtable in the browser: the page's entry. It picks the page for the address (the lobby,
// a table, a finished game's replay, a game's How to play), the page's language, and the keys
// every table has. No build step: plain ES modules, each of one concern:
//   dom.js (elements, notes, storage), api.js (the lobby's HTTP API), nav.js (addresses),
//   people.js (seat names), lobby.js, table/ (a table's page: page.js with the socket, the
//   seats panel, the log and chat, the countdown, play again), replay.js, howto.js, fair.js,
//   motion.js, events.js, words.js, i18n.js, and one renderer per game in games/.
import { loadLang, preferredLang, t } from "./i18n.js";
import { fillNav } from "./account.js";
import { api } from "./api.js";
import { connStatus, h } from "./dom.js";
import { howtoPage } from "./howto.js";
import { lobby } from "./lobby.js";
import { go, onNavigate } from "./nav.js";
import { personKind, personName } from "./people.js";
import { replayPage, stopReplay } from "./replay.js";
import { openTable } from "./table/page.js";

const app = document.getElementById("app");
let current = null; // the table page on screen, if any

async function tablePage(id) {
  if (current) current.stop();
  current = null;
  current = await openTable(app, id);
}

function route() {
  stopReplay();
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})$/);
  if (m) return tablePage(m[1]);
  if (current) { current.stop(); current = null; }
  const r = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})\/replay$/);
  if (r) return replay(r[1]);
  const how = location.pathname.match(/^\/howto\/([a-z0-9_-]{1,32})$/);
  if (how) return howto(how[1]);
  if (location.pathname.startsWith("/t/")) {  // an address of a table no table can have
    app.replaceChildren(h("p", { class: "card-panel", "data-testid": "no-table" }, t("web.no_table")),
      h("a", { href: "/", "data-link": true }, t("web.back")));
    return null;
  }
  return lobby(app);
}

async function replay(id) {
  let info;
  try { info = (await api(`/api/tables/${encodeURIComponent(id)}`)).table; } catch {
    app.replaceChildren(h("p", { class: "card-panel" }, t("web.no_table")), h("a", { href: "/", "data-link": true }, t("web.back")));
    return;
  }
  document.title = `cardtable · ${info.title}`;
  const renderer = await import(`./games/${info.game}.js`).catch(() => null);
  connStatus("");
  await replayPage(app, id, { h, api, names: info.seats.map(personName), kinds: info.seats.map(personKind), renderer, info });
}

async function howto(game) {
  connStatus("");
  const { games } = await api("/api/games");
  await howtoPage(app, game, { h, title: games.find((g) => g.name === game)?.title || game });
}

onNavigate(route);
document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (a && a.origin === location.origin) { ev.preventDefault(); go(a.pathname + a.search); }
});
window.addEventListener("popstate", route);
// h: the hint, u: undo (as in the terminal), unless a field has the focus or a modifier is held
document.addEventListener("keydown", (e) => {
  if ((e.key !== "h" && e.key !== "u") || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]")) return;
  if (!current) return;
  if (e.key === "h") current.askHint();
  else current.askUndo();
});

const langSel = document.getElementById("lang");
langSel.addEventListener("change", async () => {
  localStorage.setItem("ct.lang", langSel.value);
  location.reload();
});

(async () => {
  langSel.value = await loadLang(preferredLang());
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  fillNav(); // the header's players' menu: log in, leaderboard, tournaments (not waited for)
  route();
})();
