// The lobby's HTTP API (docs/web.md): one call, making a table and taking a seat.
import { store } from "./dom.js";
import { answer } from "./errors.js";
import { newCommitment } from "./fair.js";

// GET `path`, or POST `body` as JSON; the answer's JSON, or an ApiError (errors.js: its code,
// said in the page's language by errorText) when the server refuses.
export async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  return answer(r);
}

// A new table, hosted with this page's one host token (the server's cap on open tables per
// token counts them together); the server gives a token with the first table.
export async function newTable(body) {
  const held = store.get("ct.host");
  const data = await api("/api/tables", held ? { ...body, host: held } : body);
  store.set("ct.host", data.host);
  store.set(`ct.host.${data.table.id}`, data.host);
  return data;
}

// A person takes `seat` of `table` (its public info): the page commits to a fair-deal seed of
// its own with the sit (fair.js).
export async function sitAt(table, seat, name) {
  const body = { seat, name };
  if (table.fair) body.commitment = await newCommitment(table.id, seat, table.fair.server_commitment);
  return api(`/api/tables/${table.id}/sit`, body);
}
