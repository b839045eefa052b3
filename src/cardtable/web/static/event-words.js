// What the tournaments' pages and an event's table page share: which event a table belongs to
// (its id is {event}-r{round}-{n}), an entrant's name in the page's language (a bot that fills
// the field is "medium bot 1", words the server keeps in English), and the sentence that tells
// a seat its game was not played (a no-show: won or lost by forfeit).
import { digits, t } from "./i18n.js";
import { botLevel } from "./people.js";

const EVENT_TABLE = /^(.+)-r\d+-\d+$/;

// The id of the event whose table is `tableId` (null: not the form of an event's table).
export function eventOf(tableId) {
  const m = EVENT_TABLE.exec(tableId || "");
  return m ? m[1] : null;
}

// name(id, fallback): what the page calls the entrant `id` of the event `data` (GET
// /api/events/<id>); a person by their username, a bot of the field by its level and number.
export function entrantNames(data) {
  const field = new Map((data.field || []).map((p) => [p.id, p]));
  return (id, fallback) => {
    const p = field.get(id);
    if (!p) return fallback ?? id;
    if (!p.bot) return p.name;
    const n = /^b(\d+)$/.exec(p.id);
    return t("web.events.bot_entrant", { level: botLevel(p.bot), n: digits(n ? Number(n[1]) + 1 : "") });
  };
}

// The game of the event `data` at table `tableId`, or null.
export function gameAt(data, tableId) {
  for (const r of data.rounds || []) for (const g of r.games) if (g.table === tableId) return g;
  return null;
}

// What a seat is told of its game at table `tableId` once it was closed by a no-show: that it won
// or lost it by forfeit (and who did not come), or, with no seat or no result known, that it was
// not played.
export function forfeitText(data, tableId, seat) {
  const g = data ? gameAt(data, tableId) : null;
  if (!g || !g.forfeit || !g.points || seat === null || seat === undefined || g.points[seat] === undefined) {
    return t("web.error.forfeited");
  }
  if (g.points[seat] > 0) {
    const name = entrantNames(data);
    const others = g.players.map((p, s) => (s === seat ? null : name((g.ids || [])[s], p))).filter((n) => n !== null);
    return t("web.events.forfeit_won", { name: others.join(", ") });
  }
  return t("web.events.forfeit_lost");
}
