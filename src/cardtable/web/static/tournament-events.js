// The tournaments' list and, for a logged-in account, the form that creates one.
import { has, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api, ApiError, boot, fill, h, number, session } from "./account.js";
import { presetLabel } from "./words.js";

export const statusText = (s) => t(`web.events.status.${s}`);

// "1 h 05 min", "4 min 20 s": the time left before a start, from the server's clock.
export function countdown(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400), hr = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  const parts = d ? [`${d} d`, `${hr} h`] : hr ? [`${hr} h`, `${String(m).padStart(2, "0")} min`] : [`${m} min`, `${s % 60} s`];
  return number(parts.join(" "));
}

function startText(e, now) {
  if (e.status !== "open") return statusText(e.status);
  if (e.starts_at) return t("web.events.starts_in", { time: countdown(e.starts_at - now) });
  return t("web.events.starts_full");
}

// games: /api/games's list (name, title, presets), for the game and preset menus
function createForm(games) {
  const input = (name, attrs = {}) => h("input", { name, "data-testid": `event-${name}`, ...attrs });
  const name = input("name", { required: true, minlength: 3, maxlength: 60 });
  const kind = h("select", { name: "kind", "data-testid": "event-kind" },
    ["swiss", "duplicate"].map((k) => h("option", { value: k }, t(`web.events.kind.${k}`))));
  const titles = Object.fromEntries(games.map((g) => [g.name, g]));
  const game = h("select", { name: "game", "data-testid": "event-game" },
    ["spit", "trash", "trex"].map((g) => h("option", { value: g }, titles[g] ? titles[g].title : g)));
  const preset = h("select", { name: "preset", "data-testid": "event-preset" });
  const presets = () => {  // the chosen game's presets, by their names in the page's language
    const names = Object.keys((titles[game.value] || {}).presets || { standard: "" });
    fill(preset, names.map((p) => h("option", { value: p }, presetLabel(game.value, p))));
  };
  game.addEventListener("change", presets);
  const rounds = input("rounds", { type: "number", min: 1, max: 11, value: 3 });
  const max = input("max_entrants", { type: "number", min: 2, max: 64, value: 8 });
  const starts = input("starts_at", { type: "datetime-local" });
  const full = input("when_full", { type: "checkbox", checked: true });
  const rated = input("rated", { type: "checkbox" });
  const bots = input("bots", { type: "checkbox" });
  // a duplicate round: the whole game, one kingdom, or a set number of deals (Trex's option deals)
  const length = h("select", { name: "length", "data-testid": "event-length" },
    ["game", "kingdom", "deals"].map((k) => h("option", { value: k }, t(`web.events.length.${k}`))));
  const deals = input("deals", { type: "number", min: 1, max: 20, value: 5 });
  const lengthRow = h("label", { "data-testid": "event-length-row" }, t("web.events.length"), " ", length, " ", deals);
  const shown = () => {
    lengthRow.hidden = kind.value !== "duplicate";
    deals.hidden = length.value !== "deals";
  };
  length.addEventListener("change", shown);
  kind.addEventListener("change", () => { game.value = kind.value === "duplicate" ? "trex" : "spit"; presets(); shown(); });
  presets();
  shown();
  const note = h("p", { class: "muted", role: "alert", "data-testid": "event-error" });
  const label = (key, el) => h("label", {}, t(key), " ", el);
  return h("form", { class: "card-panel create players-form", "data-testid": "event-create", onsubmit: async (ev) => {
    ev.preventDefault();
    note.textContent = "";
    const body = { name: name.value, kind: kind.value, game: game.value, rounds: Number(rounds.value),
      max_entrants: Number(max.value), when_full: full.checked, rated: rated.checked };
    if (preset.value) body.preset = preset.value;
    if (kind.value === "swiss") body.bots = bots.checked;
    else body.deals = length.value === "deals" ? Number(deals.value) : length.value;
    if (starts.value) body.starts_at = new Date(starts.value).getTime() / 1000;
    try {
      const made = await api("/api/events", body);
      location.assign(`/events/${made.event.id}`);
    } catch (e) {
      note.textContent = e instanceof ApiError && has(`web.events.error.${e.code}`) ? t(`web.events.error.${e.code}`)
        : e instanceof ApiError ? e.text : String(e);
    }
  } }, h("h2", {}, t("web.events.create")),
  label("web.events.name", name), label("web.events.kind", kind), label("web.events.game", game),
  label("web.events.preset", preset), lengthRow, label("web.events.rounds", rounds), label("web.events.max_entrants", max),
  label("web.events.starts_at", starts), label("web.events.when_full", full), label("web.events.rated", rated),
  label("web.events.bots", bots),
  h("button", { type: "submit", class: "primary", "data-testid": "event-create-submit" }, t("web.events.create")), note);
}

async function render(app) {
  document.title = `cardtable · ${t("web.events.title")}`;
  let data;
  let games = [];
  try {
    data = await api("/api/events");
    games = (await api("/api/games")).games;
  } catch (e) { fill(app, h("p", { class: "card-panel" }, errorText(e))); return; }
  const title = (name) => (games.find((g) => g.name === name) || { title: name }).title;
  const rows = data.events.map((e) => h("tr", { "data-testid": "event-row" },
    h("td", {}, h("a", { href: `/events/${e.id}` }, e.name)),
    h("td", {}, t(`web.events.kind.${e.kind}`), " · ", title(e.game), e.rated ? ` · ${t("web.events.rated")}` : ""),
    h("td", {}, t("web.events.entrants_count", { n: number(e.entrants), max: number(e.max_entrants) })),
    h("td", {}, startText(e, data.now))));
  fill(app,
    h("h1", { class: "table-head" }, t("web.events.title")),
    h("p", { class: "card-panel muted" }, t("web.events.intro")),
    h("section", { class: "card-panel" }, rows.length ? h("table", { class: "players-table", "data-testid": "events" },
      h("thead", {}, h("tr", {}, ["web.events.name", "web.events.kind", "web.events.entrants", "web.events.status"]
        .map((k) => h("th", {}, t(k))))), h("tbody", {}, rows))
      : h("p", { class: "muted", "data-testid": "events-empty" }, t("web.events.none"))),
    session.account ? createForm(games) : h("p", { class: "card-panel muted" }, h("a", { href: "/account" }, t("web.events.login_to_create"))));
}

if (document.body.dataset.page === "events") boot(render);
