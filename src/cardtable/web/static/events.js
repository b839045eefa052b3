// An event of the viewing seat told in the second person ("you play 7♥"), in the page's language.
// The server's sentence names the seat ("seat 0 plays 7♥") where its catalog has no such form;
// web.<game>.you.<kind> is filled from the event's data as cardtable.i18n.event_text
// fills its templates: who, c (the card), n (the value, else the slot), s (a plural s for n),
// signed (n with its sign), and each arg by name (an int arg also with its plural <name>_s;
// a contract by its name, a place as an ordinal).
import { has, isolateCards, t } from "./i18n.js";
import { cardLabel } from "./games/shared.js";

// The server's sentence names a seat as "seat 2" (web.event_seat, its catalog's word in each
// language); the page, which shows the players' names, says the name ("Cleo takes the trick").
function byName(text, names) {
  if (!names || !has("web.event_seat")) return text;
  const [before, after] = t("web.event_seat").split("{n}").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const seat = new RegExp(`${before}(\\d+)${after}(?!\\d)`, "giu");
  return text.replace(seat, (m, n) => names[Number(n)] || m);
}

export function ownText(game, e, seat, names = null) {
  if (seat === null || seat === undefined || e.seat !== seat) return isolateCards(byName(e.text, names));
  const key = `web.${game}.you.${e.kind}`;
  if (!has(key)) return isolateCards(byName(e.text, names));
  const n = e.value ?? e.slot;
  const values = { c: e.card ? cardLabel(e.card) : "", n, s: n === 1 ? "" : "s", signed: n > 0 ? `+${n}` : String(n) };
  for (const [name, arg] of Object.entries(e.args || {})) {
    if (typeof arg === "number") values[`${name}_s`] = arg === 1 ? "" : "s";
    if (name === "contract") values[name] = String(arg).split("+").map((c) => t(`web.${game}.contract.${c}`)).join(" + ");
    else if (name === "place") values[name] = t(`web.${game}.place.${Number(arg) - 1}`);
    else values[name] = arg;
  }
  return t(key, values);
}
