// Quick play (docs/play-online.md): the page of one "Play now". It joins the game's queue (as
// the logged-in account, or by the name this browser plays under), then asks the server about
// once a second how the wait goes: how many wait, the seconds before bots fill the empty seats
// (the person may ask for bots at once, or stop waiting). Once seated it keeps the seat's token
// as the lobby does and opens the table.
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api, boot, fill, h, number, session } from "./account.js";

const POLL_MS = 1000;

function get(k) { try { return JSON.parse(localStorage.getItem(k)); } catch { return null; } }

async function render(app) {
  const m = /^\/quick\/([a-z0-9_-]{1,32})$/.exec(location.pathname);
  const game = m ? m[1] : "";
  const preset = new URLSearchParams(location.search).get("preset");
  let title = game;
  try { title = (await api("/api/games")).games.find((g) => g.name === game)?.title || game; } catch { /* the game's name */ }
  document.title = `cardtable · ${t("web.quick.title", { game: title })}`;
  const count = h("p", { "data-testid": "quick-count" });
  const bots = h("p", { class: "muted", "data-testid": "quick-bots-in" });
  const note = h("p", { "data-testid": "quick-status" }, t("web.quick.looking"));
  let ticket = sessionStorage.getItem(`ct.quick.${game}`);
  let timer = null;
  let over = false;
  let botsAt = null;
  const done = (text) => { over = true; clearInterval(timer); note.textContent = text; buttons.hidden = true; };
  const show = (info) => {
    if (info.status === "seated") {
      sessionStorage.removeItem(`ct.quick.${game}`);
      localStorage.setItem(`ct.seat.${info.table}`, JSON.stringify({ seat: info.seat, token: info.token }));
      done(t("web.quick.found"));
      location.href = `/t/${info.table}`;
      return;
    }
    count.textContent = t("web.quick.count", { n: number(info.waiting) });
    botsAt = Date.now() + info.bots_in * 1000;
    tick();
  };
  const tick = () => {
    if (botsAt !== null) bots.textContent = t("web.quick.bots_in", { n: number(Math.max(0, Math.ceil((botsAt - Date.now()) / 1000))) });
  };
  const failed = (e) => {
    if (e.code === "no_ticket") { sessionStorage.removeItem(`ct.quick.${game}`); done(t("web.quick.gone")); } else note.textContent = errorText(e);
  };
  const poll = async () => {
    try { show(await api(`/api/quick/${encodeURIComponent(ticket)}`)); } catch (e) { failed(e); }
  };
  const buttons = h("p", {},
    h("button", { type: "button", class: "primary", "data-testid": "quick-bots-now",
      onclick: async () => { try { show(await api(`/api/quick/${encodeURIComponent(ticket)}/now`, {})); } catch (e) { failed(e); } } },
    t("web.quick.bots_now")), " ",
    h("button", { type: "button", "data-testid": "quick-cancel",
      onclick: async () => {
        let answer = null;
        try { answer = await api(`/api/quick/${encodeURIComponent(ticket)}/cancel`, {}); } catch { /* gone already */ }
        if (answer && answer.status === "seated") { show(answer); return; } // seated just before: the table has started
        sessionStorage.removeItem(`ct.quick.${game}`); done(t("web.quick.gone")); location.href = "/"; } },
    t("web.quick.cancel")));
  fill(app, h("h1", { class: "table-head" }, t("web.quick.title", { game: title })),
    h("section", { class: "card-panel", "data-testid": "quick" }, h("p", { class: "muted" }, t("web.quick.doc")),
      note, count, bots, buttons));
  try {
    if (ticket) {
      try { show(await api(`/api/quick/${encodeURIComponent(ticket)}`)); } catch { ticket = null; }
    }
    if (!ticket) {
      const body = { game };
      if (preset) body.preset = preset;
      if (!session.account && get("ct.name")) body.name = get("ct.name");
      const joined = await api("/api/quick", body);
      ticket = joined.ticket;
      sessionStorage.setItem(`ct.quick.${game}`, ticket);
      show(joined);
    }
  } catch (e) { failed(e); buttons.hidden = true; return; } // no wait to act on
  if (over) return;
  timer = setInterval(tick, 250);
  const loop = async () => { while (!over) { await new Promise((r) => setTimeout(r, POLL_MS)); if (!over) await poll(); } };
  loop();
}

boot(render);
