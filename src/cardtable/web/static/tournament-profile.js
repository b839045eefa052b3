// A player's events on their profile page: each with its status and the place the player took.
import { loadLang, preferredLang, t } from "./i18n.js";
import { api, fill, h, number } from "./account.js";

async function render() {
  const el = document.getElementById("player-events");
  const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));
  await loadLang(preferredLang());
  let data;
  try { data = await api(`/api/events/of/${encodeURIComponent(name)}`); } catch { return; } // no events here
  if (!data.events.length) return;
  const games = await api("/api/games").then((d) => d.games, () => []); // each game's title
  const title = (game) => (games.find((g) => g.name === game) || { title: game }).title;
  fill(el, h("h2", {}, t("web.events.my_events")), h("ul", {}, data.events.map((e) => h("li", { "data-testid": "player-event" },
    h("a", { href: `/events/${e.id}` }, e.name), " · ", t(`web.events.kind.${e.kind}`), " · ", title(e.game), " · ",
    e.place ? t("web.events.place_in", { place: number(e.place) }) : t(`web.events.status.${e.status}`)))));
  el.hidden = false;
}

render();
