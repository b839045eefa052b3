// Provably fair deals on the page (docs/fairness.md, "On the server"): this page's seat seed,
// its commitment and its reveal, and the panel that shows the commitments during the game and
// checks every seed against its commitment after it.
//
// A seat's seed is 32 random bytes from crypto.getRandomValues, made before the page has seen
// any card and kept in localStorage under ct.fair.<table>.<seat> with the server commitment it
// was made under (a new server seed means a new seat seed). Only its SHA-256 goes to the server
// with the sit (or a commit after the protocol began again); the seed itself goes once every
// seat has committed. crypto.subtle (SHA-256) exists only on https or localhost: elsewhere the
// page sends no commitment and the server makes the seat's seed, as for a bot.

import { joinList } from "./i18n.js";

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const bytesOf = (text) => new Uint8Array((text.match(/../g) || []).map((x) => parseInt(x, 16)));
const slot = (id, seat) => `ct.fair.${id}.${seat}`;

export const canCommit = () => Boolean(globalThis.crypto && crypto.subtle);

export async function sha256Hex(bytes) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

// A new seed for `seat` at table `id` under the server commitment `server`, kept; its
// commitment (undefined where the page cannot hash: the server makes the seed then).
export async function newCommitment(id, seat, server) {
  if (!canCommit()) return undefined;
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const commitment = await sha256Hex(seed);
  localStorage.setItem(slot(id, seat), JSON.stringify({ server, seed: hex(seed), commitment }));
  return commitment;
}

function kept(id, seat) {
  try { return JSON.parse(localStorage.getItem(slot(id, seat))); } catch { return null; }
}

let busy = false;

// This page's next step for its seat, from the table's public fair block: commit again when the
// seat has no commitment (the protocol began again), reveal once every seat has committed.
// Returns "lost" when this browser no longer holds the seed its seat committed to.
export async function fairStep(info, mine, api) {
  const f = info.fair;
  if (!f || !mine || info.status !== "open" || busy || !canCommit()) return null;
  const seat = mine.seat;
  busy = true;
  try {
    if (f.seat_commitments[seat] === null) {
      const commitment = await newCommitment(info.id, seat, f.server_commitment);
      await api(`/api/tables/${info.id}/commit`, { token: mine.token, commitment });
    } else if (f.seat_seeds[seat] === null && f.seat_commitments.every((c) => c !== null)) {
      const k = kept(info.id, seat);
      if (!k || k.server !== f.server_commitment || k.commitment !== f.seat_commitments[seat]) return "lost";
      await api(`/api/tables/${info.id}/reveal`, { token: mine.token, seed: k.seed });
    }
  } finally { busy = false; }
  return null;
}

function code(h, text) {
  const el = h("code", { class: "fair-hex" }, text === null ? "—" : text);
  el.style.wordBreak = "break-all"; // 64 hex digits fit the side panel (CSSOM: allowed by the page's CSP)
  return el;
}

// The fair-deal panel: the server commitment (and who is awaited) before and during the game;
// after it, every seed beside its commitment with the page's own SHA-256 check of each, and how
// to verify the whole record with `cardtable verify`.
export function fairPanel(info, { h, t, names }) {
  const f = info.fair;
  if (!f) return null;
  const panel = h("details", { class: "fair", "data-testid": "fair-panel", open: info.status === "over" },
    h("summary", {}, t("web.fair.title"), " ", h("code", { class: "muted", "data-testid": "fair-short" },
      `${f.server_commitment.slice(0, 12)}…`)), // always in sight; the whole of it inside
    h("p", {}, t("web.fair.commitment"), " ", h("span", { "data-testid": "fair-commitment" }, code(h, f.server_commitment))));
  if (info.status === "open" && f.waiting.length) {
    const who = joinList(f.waiting.map((s) => names[s]));
    const all = f.seat_commitments.every((c) => c !== null);
    panel.append(h("p", { class: "muted", "data-testid": "fair-waiting" },
      t(all ? "web.fair.waiting_reveal" : "web.fair.waiting_commit", { who })));
  }
  if (info.status !== "over" || f.server_seed === null) return panel;
  const status = h("p", { "data-testid": "fair-check" }, t("web.fair.checking"));
  const rows = [[t("web.fair.server"), f.server_seed, f.server_commitment],
    ...f.seat_seeds.map((seed, s) => [names[s], seed, f.seat_commitments[s]])];
  panel.append(h("table", { class: "fair-seeds" },
    h("tr", {}, h("th", {}, ""), h("th", {}, t("web.fair.seed")), h("th", {}, t("web.fair.committed"))),
    rows.map(([who, seed, promised]) => h("tr", {}, h("td", {}, who), h("td", {}, code(h, seed)), h("td", {}, code(h, promised))))),
    status, h("p", { class: "muted" }, t("web.fair.verify_cli", { file: `cardtable-${info.game}-${info.id}.json` })));
  if (!canCommit()) { status.textContent = t("web.fair.no_check"); return panel; }
  Promise.all(rows.map(async ([, seed, promised]) => seed !== null && promised !== null
    && (await sha256Hex(bytesOf(seed))) === promised.toLowerCase()))
    .then((oks) => {
      const ok = oks.every(Boolean);
      status.textContent = t(ok ? "web.fair.ok" : "web.fair.bad");
      status.className = ok ? "fair-ok" : "fair-bad";
      status.dataset.ok = String(ok);
    });
  return panel;
}
