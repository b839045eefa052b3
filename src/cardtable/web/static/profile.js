// A player's profile: games played and won per game, the rating with its history drawn as a small
// SVG chart, and every finished game (50 a page, older ones on the next) with its replay and
// review links.
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api, boot, fill, h, number, pageAsked, pager, when } from "./account.js";

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

// The rating (mu − 3σ) after each rated game, as a line; the lowest and highest values labelled.
export function chart(history, width = 320, height = 120) {
  const pad = 26;
  const values = history.map((p) => p.rating);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = (i) => pad + (history.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (history.length - 1));
  const y = (v) => height - pad / 2 - ((v - lo) / span) * (height - pad);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  // left to right in Arabic too (as the x axis runs): a label at x=2 would otherwise run off the
  // left edge, as a right-to-left text starts at its x and goes left
  return s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "rating-chart",
    "data-testid": "rating-chart", "aria-label": t("web.players.history"), direction: "ltr" },
  s("line", { x1: pad, y1: y(lo), x2: width - pad / 2, y2: y(lo), stroke: "#ccc", "stroke-width": 1 }),
  s("line", { x1: pad, y1: y(hi), x2: width - pad / 2, y2: y(hi), stroke: "#ccc", "stroke-width": 1 }),
  s("text", { x: 2, y: y(lo) + 4, "font-size": 10, fill: "#555" }, number(lo.toFixed(1))),
  s("text", { x: 2, y: y(hi) + 4, "font-size": 10, fill: "#555" }, number(hi.toFixed(1))),
  s("polyline", { points, fill: "none", stroke: "#b48a22", "stroke-width": 2, "data-testid": "rating-line" }),
  ...values.map((v, i) => s("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, fill: "#0d2d1d" })));
}

function ratingText(rating) {
  if (!rating) return t("web.players.unrated");
  const text = `${t("web.players.rating")}: ${number(rating.rating.toFixed(1))}`;
  return rating.provisional ? `${text} (${t("web.players.provisional")})` : text;
}

function gamePanel(game, info, title) {
  return h("section", { class: "card-panel", "data-testid": `game-${game}` },
    h("h2", {}, title),
    h("p", {}, t("web.players.played", { played: number(info.played), won: number(info.won) })),
    h("p", { "data-testid": `rating-${game}` }, ratingText(info.rating)),
    info.history.length ? [h("h3", {}, t("web.players.history")), chart(info.history)] : null);
}

function resultRow(r, title) {
  return h("li", { "data-testid": "result" },
    `${title} · ${when(r.finished)} · ${t("web.players.rank", { rank: number(r.rank), players: number(r.players) })}`,
    ` · ${t(r.rated ? "web.players.rated" : "web.players.casual")}`,
    r.abandoned ? ` · ${t("web.players.abandoned")}` : null, " · ",
    h("a", { href: r.replay, "data-testid": "replay-link" }, t("web.players.replay")),
    r.review ? [" · ", h("a", { href: r.review, "data-testid": "review-link" }, t("web.players.review"))] : null);
}

async function render(app) {
  const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));
  let data;
  let titles = {};
  try {
    data = await api(`/api/players/profile/${encodeURIComponent(name)}?page=${pageAsked()}`);
    titles = Object.fromEntries((await api("/api/games")).games.map((g) => [g.name, g.title]));
  } catch (e) {
    fill(app, h("p", { class: "card-panel", "data-testid": "no-player" }, errorText(e)));
    return;
  }
  const { account } = data;
  document.title = `cardtable · ${account.username}`;
  const title = (game) => titles[game] || game;
  fill(app,
    h("h1", { class: "table-head", "data-testid": "profile-name" }, account.username,
      account.kind === "bot" ? h("span", { class: "muted" }, ` · ${t("web.players.bot")}`) : null),
    data.flags && data.flags.length ? h("section", { class: "card-panel", "data-testid": "flags" },
      h("h2", {}, t("web.players.flags")),
      h("ul", {}, data.flags.map((f) => h("li", {}, t("web.players.flag",
        { name: f.username || "?", games: number(f.games), days: number(f.days) }))))) : null,
    Object.entries(data.games).map(([game, info]) => gamePanel(game, info, title(game))),
    h("section", { class: "card-panel" }, h("h2", {}, t("web.players.results")),
      data.results.length ? h("ul", { class: "tables", "data-testid": "results" }, data.results.map((r) => resultRow(r, title(r.game))))
        : h("p", { class: "muted" }, t("web.players.none")),
      pager(data.page, data.more, { prev: "web.players.newer", next: "web.players.older" })));
}

boot(render);
