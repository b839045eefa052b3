// What the page calls the people and bots at a table. Bots have a name by their seat and a
// level label in the page's language ("Ben · sensible bot").
import { t } from "./i18n.js";

const BOT_NAMES = ["Ana", "Ben", "Cleo", "Dani", "Eva", "Fede", "Gala", "Hugo"];
// A bot's name by its seat; from seat 8 on (a Trash table of 9 or more) the names come round again
// with a number, so that no two seats share one ("Ana 2").
function bySeat(seat) {
  const round = Math.floor(seat / BOT_NAMES.length);
  return BOT_NAMES[seat % BOT_NAMES.length] + (round ? ` ${round + 1}` : "");
}

// The bot at `seat` of the table's `seats`: its seat's name, unless a person at the table has it;
// then the first name past the table's seats that nobody has, so that a sentence never names two
// seats alike (i18n/bots.py's bot_name, the same rule).
function botName(seat, seats = []) {
  const fold = (name) => name.toLocaleLowerCase("en");
  const taken = new Set(seats.filter((s) => s.kind === "human" && s.name).map((s) => fold(s.name)));
  const name = bySeat(seat);
  if (!taken.has(fold(name))) return name;
  const clashes = seats.filter((s) => s.kind !== "human" && taken.has(fold(bySeat(s.seat)))).map((s) => s.seat);
  let next = seats.length;
  for (const q of clashes) {
    while (taken.has(fold(bySeat(next)))) next += 1;
    if (q === seat) return bySeat(next);
    next += 1;
  }
  return name;
}

export function botLevel(name) {
  const m = /^(policy|reaction)-(.+)$/.exec(name);
  return m ? t(`web.bot.style.${m[1]}`, { level: t(`web.bot.level.${m[2]}`) }) : t(`web.bot.level.${name}`);
}

// A seat as the lobby's list and the seats panel show it: "open", "Ben · sensible bot", a name.
// `seats`: the table's seats (what Array.map passes third), for a bot's name.
export function seatName(s, _i, seats) {
  if (s.kind === "open") return t("web.seat_open");
  if (s.kind === "bot") return t("web.bot.named", { name: botName(s.seat, seats), level: botLevel(s.name) });
  return s.name;
}

// The name a sentence calls a seat by ("Ben wins the trick"; a person's own name), and what a
// seat's box adds under it ("medium bot"; nothing for a person).
export function personName(s, _i, seats) {
  if (s.kind === "open") return t("web.seat_open");
  return s.kind === "bot" ? botName(s.seat, seats) : s.name;
}

export function personKind(s) { return s.kind === "bot" ? t("web.bot.kind", { level: botLevel(s.name) }) : ""; }
