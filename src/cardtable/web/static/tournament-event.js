// One tournament: its settings, entrants and countdown, registering, the entrant's table, the
// rounds, live standings, and each duplicate deal compared across tables.
import { has, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api, ApiError, boot, fill, h, number, profileLink, session } from "./account.js";
import { countdown, statusText } from "./tournament-events.js";
import { store } from "./dom.js";
import { entrantNames } from "./event-words.js";
import { presetLabel } from "./words.js";

const REFRESH = 2000; // ms between two looks while the event is open or in play

// What the page keeps across its redraws: one refresh timer and one clock for the page, whatever
// is clicked (a click's redraw replaces the pending one); the note of the last refused action,
// until the next click; the deals opened; the games' titles.
const kept = { refresh: null, clock: null, drawn: 0, note: "", open: new Set(), games: null };

const contractName = (code) => code.split("+").map((c) => (has(`web.trex.contract.${c}`) ? t(`web.trex.contract.${c}`) : c)).join(" + ");
const signed = (x) => number(x > 0 ? `+${x}` : `${x}`);

function standingsTable(data, name) {
  const swiss = data.event.kind === "swiss";
  const cols = swiss ? ["web.events.place", "web.events.player", "web.events.score", "web.events.buchholz", "web.events.sonneborn_berger"]
    : ["web.events.place", "web.events.player", "web.events.percentage", "web.events.matchpoints"];
  const rows = data.standings.map((s) => h("tr", { "data-testid": "standing" },
    h("td", {}, number(s.place)),
    h("td", {}, s.player.startsWith("a") ? h("a", { href: profileLink(s.name) }, s.name) : name(s.player, s.name),
      s.dropped ? h("span", { class: "muted" }, ` · ${t("web.events.dropped")}`) : null),
    ...(swiss ? [number(s.score), number(s.buchholz), number(s.sonneborn_berger)]
      : [`${number(s.percentage.toFixed(1))} %`, `${number(s.matchpoints)} / ${number(s.top)}`]).map((v) => h("td", {}, v))));
  return h("table", { class: "players-table", "data-testid": "standings" },
    h("thead", {}, h("tr", {}, cols.map((k) => h("th", {}, t(k))))), h("tbody", {}, rows));
}

function roundsList(data, name) {
  return data.rounds.map((r) => h("section", { class: "card-panel", "data-testid": `round-${r.number}` },
    h("h3", {}, t("web.events.round", { n: number(r.number) })),
    r.sealed ? h("p", { class: "muted", "data-testid": "sealed" }, t("web.events.sealed")) : null,
    h("ul", {}, r.games.map((g) => h("li", {},
      g.players.map((p, i) => name((g.ids || [])[i], p)).join(" – "),
      g.points ? ` · ${g.points.map((p) => number(p)).join(" – ")}` : "",
      g.forfeit || g.void ? h("span", { class: "muted" }, ` · ${t("web.events.forfeit")}`) : null,
      r.sealed || g.forfeit || g.void ? null : [" · ", h("a", { href: `/t/${g.table}` }, t("web.events.watch")),
        (g.points || g.done) ? [" · ", h("a", { href: `/t/${g.table}/replay`, "data-testid": "replay" }, t("web.events.replay"))] : null]))),
    r.bye ? h("p", { class: "muted" }, t("web.events.bye", { name: name(r.bye_id, r.bye) })) : null));
}

function dealsList(data, name) {
  if (!data.deals.length) return null;
  const opened = (key) => (ev) => { if (ev.target.open) kept.open.add(key); else kept.open.delete(key); };
  return h("section", { class: "card-panel", "data-testid": "deals" }, h("h2", {}, t("web.events.deals")),
    data.deals.map((d) => h("details", { "data-testid": "deal", open: kept.open.has(`${d.round}.${d.deal}`),
      ontoggle: opened(`${d.round}.${d.deal}`) },
      h("summary", {}, t("web.events.deal", { round: number(d.round), deal: number(d.deal) })),
      d.hands.map((hand) => h("table", { class: "players-table" },
        h("caption", {}, t("web.events.hand", { n: number(hand.hand + 1) })),
        h("thead", {}, h("tr", {}, ["web.events.table", "web.events.player", "web.events.contract", "web.events.score",
          "web.events.matchpoints"].map((k) => h("th", {}, t(k))))),
        h("tbody", {}, hand.tables.map((row) => h("tr", { "data-testid": "deal-row" },
          h("td", {}, row.table.split("-").slice(-1)[0]),
          h("td", {}, name(row.id, row.player), row.stand_in ? h("span", { class: "muted" }, ` · ${t("web.events.stand_in")}`) : null),
          h("td", {}, contractName(row.contract)), h("td", {}, signed(row.score)),
          h("td", {}, row.matchpoints === null || row.matchpoints === undefined ? "–" : number(row.matchpoints))))))))));
}

// The page drawn again from the event's data now; while the event is open or in play, again in
// REFRESH ms. A redraw started since (a click's, the timer's) makes this one's result stale.
async function render(app) {
  clearTimeout(kept.refresh);
  kept.refresh = null;
  const drawn = ++kept.drawn;
  const id = decodeURIComponent(location.pathname.split("/")[2] || "");
  let data;
  try {
    data = await api(`/api/events/${encodeURIComponent(id)}`);
    if (!kept.games) kept.games = (await api("/api/games")).games;
  } catch (e) {
    if (drawn !== kept.drawn) return;
    fill(app, h("p", { class: "card-panel" }, errorText(e)));
    return;
  }
  if (drawn !== kept.drawn) return;
  const e = data.event;
  const name = entrantNames(data);
  const title = (kept.games.find((g) => g.name === e.game) || { title: e.game }).title;
  const skew = data.now - Date.now() / 1000; // the server's clock minus this page's
  document.title = `cardtable · ${e.name}`;
  const me = session.account;
  const registered = me && data.entrants.some((x) => x.username === me.username);
  const note = h("p", { class: "muted", role: "alert", "data-testid": "event-note" }, kept.note);
  const say = (text) => { // on the page shown now: a refresh may have drawn it again since the click
    kept.note = text;
    (app.querySelector("[data-testid=event-note]") || note).textContent = text;
  };
  const act = async (fn) => { say(""); try { await fn(); } catch (err) { say(err instanceof ApiError ? err.text : String(err)); } };
  const clock = h("p", { "data-testid": "countdown", class: "event-clock" });
  const tickClock = () => {
    clock.textContent = e.status !== "open" ? statusText(e.status)
      : e.starts_at ? t("web.events.starts_in", { time: countdown(e.starts_at - (Date.now() / 1000 + skew)) }) : t("web.events.starts_full");
  };
  tickClock();
  const buttons = [];
  const full = data.entrants.length >= e.max_entrants;
  if (me && e.status === "open") {
    buttons.push(registered
      ? h("button", { "data-testid": "unregister", onclick: () => act(async () => { await api(`/api/events/${id}/unregister`, {}); await render(app); }) }, t("web.events.unregister"))
      : h("button", { class: "primary", "data-testid": "register", disabled: full, title: full ? t("web.error.event_full") : null,
          onclick: () => act(async () => { await api(`/api/events/${id}/register`, {}); await render(app); }) }, t("web.events.register")));
  }
  if (me && registered && e.status === "running") {
    buttons.push(h("button", { class: "primary", "data-testid": "my-table", onclick: () => act(async () => {
      try {
        const seat = await api(`/api/events/${id}/seat`);
        store.set(`ct.seat.${seat.table}`, { seat: seat.seat, token: seat.token });
        location.assign(`/t/${seat.table}`);
      } catch (err) {
        if (err instanceof ApiError && err.code === "no_seat") say(t("web.events.no_table")); else throw err;
      }
    }) }, t("web.events.my_table")));
  }
  fill(app,
    h("h1", { class: "table-head", "data-testid": "event-name" }, e.name),
    h("section", { class: "card-panel", "data-testid": "event-info" },
      h("p", { "data-testid": "event-game" }, t(`web.events.kind.${e.kind}`), " · ", title,
        e.preset !== "standard" ? ` (${presetLabel(e.game, e.preset)})` : "",
        ` · ${t("web.events.rounds")}: ${number(e.rounds)}`,
        e.kind === "duplicate" && e.deals ? ` · ${t("web.events.deals_a_round", { n: number(e.deals) })}` : "",
        e.rated ? ` · ${t("web.events.rated")}` : ""),
      clock,
      h("p", {}, `${t("web.events.entrants")}: `, t("web.events.entrants_count", { n: number(data.entrants.length), max: number(e.max_entrants) })),
      h("p", { "data-testid": "entrants" }, data.entrants.map((x, i) => [i ? ", " : "", h("a", { href: profileLink(x.username) }, x.username)])),
      registered && e.status === "open" ? h("p", {}, t("web.events.registered")) : null,
      buttons, note),
    data.standings.length ? h("section", { class: "card-panel" },
      h("h2", {}, t(e.status === "over" ? "web.events.final" : "web.events.standings")), standingsTable(data, name)) : null,
    roundsList(data, name), dealsList(data, name),
    data.commitments.length ? h("section", { class: "card-panel muted" }, h("p", {}, t("web.events.commitments")),
      data.commitments.map((c, i) => h("p", { class: "mono" }, `${t("web.events.round", { n: number(i + 1) })}: ${c}`))) : null);
  clearInterval(kept.clock);
  kept.clock = null;
  if (e.status === "open" || e.status === "running") {
    kept.clock = setInterval(tickClock, 1000);
    kept.refresh = setTimeout(() => render(app), REFRESH);
  }
}

boot(render);
