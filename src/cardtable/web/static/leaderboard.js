// The leaderboards: one per rated game, people and bots together, by conservative rating, 50 a
// page with previous/next links.
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api, boot, fill, h, number, pageAsked, pager, profileLink } from "./account.js";

const GAMES = ["trash", "trex", "spit"];

async function render(app) {
  const m = /^\/leaderboard\/([^/]+)$/.exec(location.pathname);
  const game = m ? decodeURIComponent(m[1]) : "trex"; // a game that is not rated: the server says so
  let board;
  let titles = {};
  try {
    board = await api(`/api/players/leaderboard/${encodeURIComponent(game)}?page=${pageAsked()}`);
    titles = Object.fromEntries((await api("/api/games")).games.map((g) => [g.name, g.title]));
  } catch (e) {
    fill(app, h("p", { class: "card-panel" }, errorText(e)));
    return;
  }
  const title = (g) => titles[g] || g;
  document.title = `cardtable · ${t("web.players.leaderboard_of", { game: title(game) })}`;
  const tabs = h("p", { class: "card-panel", "data-testid": "board-games" }, GAMES.map((g, i) => [
    i ? " · " : null,
    g === game ? h("strong", {}, title(g)) : h("a", { href: `/leaderboard/${g}`, "data-testid": `board-${g}` }, title(g))]));
  const rows = board.rows.map((r) => h("tr", { "data-testid": "board-row" },
    h("td", {}, number(r.place)),
    h("td", {}, h("a", { href: profileLink(r.username) }, r.username),
      r.kind === "bot" ? h("span", { class: "muted" }, ` · ${t("web.players.bot")}`) : null),
    h("td", {}, number(r.rating.toFixed(1)), r.provisional ? h("span", { class: "muted" }, ` (${t("web.players.provisional")})`) : null),
    h("td", {}, number(r.games))));
  fill(app,
    h("h1", { class: "table-head" }, t("web.players.leaderboard_of", { game: title(game) })), tabs,
    h("section", { class: "card-panel" }, rows.length ? h("table", { class: "players-table", "data-testid": "board" },
      h("thead", {}, h("tr", {}, ["web.players.place", "web.players.player", "web.players.rating", "web.players.games"]
        .map((k) => h("th", {}, t(k))))), h("tbody", {}, rows))
      : h("p", { class: "muted", "data-testid": "board-empty" }, t("web.players.empty_board")),
    pager(board.page, board.more, { prev: "web.players.prev_page", next: "web.players.next_page" })));
}

boot(render);
