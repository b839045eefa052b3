// Play again (the host, once the game is over): a new table of the same game, preset and
// options, this person at their seat, the same bots at theirs; started at once when nobody else
// is to come, else the new link goes to the old table's chat for the others.
import { t } from "../i18n.js";
import { api, newTable, sitAt } from "../api.js";
import { store } from "../dom.js";
import { fairStep } from "../fair.js";

// `info`: the finished table; `mine`: this page's {seat, token} or null; `send`: the old table's
// socket. Returns the new table's id.
export async function rematch(info, mine, send) {
  const data = await newTable({ game: info.game, preset: info.preset, options: info.options || {},
    ...(info.undo ? { undo: true } : {}) });
  const id = data.table.id;
  const seat = mine ? info.seats[mine.seat] : null;
  if (seat) {
    const sat = await sitAt(data.table, seat.seat, seat.name);
    store.set(`ct.seat.${id}`, { seat: seat.seat, token: sat.token });
  }
  let fresh = data.table;
  for (const s of info.seats) {
    if (s.kind === "bot") fresh = (await api(`/api/tables/${id}/bot`, { host: data.host, seat: s.seat, bot: s.name })).table;
  }
  if (seat) await fairStep(fresh, store.get(`ct.seat.${id}`), api); // every seat committed: reveal before the start
  if (info.seats.every((s) => s.kind === "bot" || (seat && s.seat === seat.seat))) {
    await api(`/api/tables/${id}/start`, { host: data.host });
  } else {
    send({ type: "chat", text: t("web.rematch.chat", { link: `${location.origin}/t/${id}` }) });
  }
  return id;
}
