// What the page calls the people and bots at a table. Bots have a name by their seat and a
// level label in the page's language ("Ben · sensible bot").
import { t } from "./i18n.js";

const BOT_NAMES = ["Ana", "Ben", "Cleo", "Dani", "Eva", "Fede", "Gala", "Hugo"];
// A bot's name by its seat; from seat 8 on (a Trash table of 9 or more) the names come round again
// with a number, so that no two seats share one ("Ana 2"): i18n/bots.py's bot_name.
function botName(seat) {
  const round = Math.floor(seat / BOT_NAMES.length);
  return BOT_NAMES[seat % BOT_NAMES.length] + (round ? ` ${round + 1}` : "");
}

export function botLevel(name) {
  const m = /^(policy|reaction)-(.+)$/.exec(name);
  return m ? t(`web.bot.style.${m[1]}`, { level: t(`web.bot.level.${m[2]}`) }) : t(`web.bot.level.${name}`);
}

// A seat as the lobby's list and the seats panel show it: "open", "Ben · sensible bot", a name.
export function seatName(s) {
  if (s.kind === "open") return t("web.seat_open");
  if (s.kind === "bot") return t("web.bot.named", { name: botName(s.seat), level: botLevel(s.name) });
  return s.name;
}

// The name a sentence calls a seat by ("Ben wins the trick"; a person's own name), and what a
// seat's box adds under it ("medium bot"; nothing for a person).
export function personName(s) {
  if (s.kind === "open") return t("web.seat_open");
  return s.kind === "bot" ? botName(s.seat) : s.name;
}

export function personKind(s) { return s.kind === "bot" ? t("web.bot.kind", { level: botLevel(s.name) }) : ""; }
