// A finished game's replay: the record stepped through as one seat saw it (or a spectator).
// The server computes each step's view from the record (GET /api/tables/<id>/replay); the page
// draws it with the game's own renderer, with nothing to click. Keys as in the terminal replay:
// → / Space / Enter / n the next step, ← / p the one before, Home the deal, End the last step.
import { t, lang } from "./i18n.js";
import { presetLabel } from "./words.js";

const NEXT = new Set(["ArrowRight", " ", "Enter", "n"]);
const BACK = new Set(["ArrowLeft", "p"]);

let active = null; // the replay on the page: its keys are live while its board is shown

document.addEventListener("keydown", (e) => {
  if (!active || !active.board.isConnected || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]")) return;
  if (e.key === " " || e.key === "Enter") {  // a focused button of the replay acts by itself
    if (e.target instanceof Element && e.target.closest("button, a, summary")) return;
  }
  let to = null;
  if (NEXT.has(e.key)) to = active.step + 1;
  else if (BACK.has(e.key)) to = active.step - 1;
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = active.steps;
  if (to === null) return;
  // the game's own keys (cursor, piles) are not for a replay
  e.preventDefault();
  e.stopImmediatePropagation();
  active.show(to);
}, true);

export async function replayPage(app, id, { h, api, names, renderer, info }) {
  const params = new URLSearchParams(location.search);
  const seatParam = params.get("seat");
  const r = {
    id, board: h("section", { class: "board", "data-testid": "board" }), step: 0, steps: 0,
    seat: seatParam === null || seatParam === "" || seatParam === "none" ? null : Number(seatParam),
    asked: 0,
  };
  active = r;
  const log = h("ol", { class: "log", "data-testid": "log" });
  const counter = h("span", { class: "replay-step", "data-testid": "replay-step" });
  const seatSel = h("select", { "data-testid": "replay-seat", onchange: () => {
    r.seat = seatSel.value === "none" ? null : Number(seatSel.value);
    r.show(r.step);
  } }, h("option", { value: "none" }, t("web.replay.spectator")),
  info.seats.map((s) => h("option", { value: String(s.seat) }, `${t("web.seat", { n: s.seat })} · ${names[s.seat]}`)));
  seatSel.value = r.seat === null ? "none" : String(r.seat);
  const button = (testid, text, title, to) => h("button", { type: "button", "data-testid": testid, title,
    onclick: () => r.show(to()) }, text);
  const controls = h("div", { class: "replay-controls card-panel", "data-testid": "replay-controls" },
    h("label", {}, t("web.replay.as"), " ", seatSel), " ",
    button("replay-first", "|◀", `Home · ${t("web.replay.first")}`, () => 0),
    button("replay-back", "◀", `← · ${t("web.replay.back")}`, () => r.step - 1),
    counter,
    button("replay-next", "▶", `→ · ${t("web.replay.next")}`, () => r.step + 1),
    button("replay-last", "▶|", `End · ${t("web.replay.last")}`, () => r.steps),
    h("p", { class: "muted replay-keys" }, t("web.replay.keys")));

  r.show = async (to) => {
    if (to < 0 || (r.steps && to > r.steps)) return;
    const asked = ++r.asked;
    let data;
    try {
      data = await api(`/api/tables/${encodeURIComponent(id)}/replay?seat=${r.seat === null ? "none" : r.seat}&step=${to}&lang=${lang}`);
    } catch (e) {
      r.board.replaceChildren(h("p", { class: "card-panel waiting", "data-testid": "replay-error" }, e.message));
      return;
    }
    if (asked !== r.asked || active !== r) return; // a later step was asked for meanwhile
    r.step = data.step;
    r.steps = data.steps;
    counter.textContent = t("web.replay.step", { i: data.step, n: data.steps });
    const query = `?seat=${r.seat === null ? "none" : r.seat}&step=${data.step}`;
    history.replaceState(null, "", `/t/${id}/replay${query}`);
    log.replaceChildren(...data.log.map((e) => h("li", { value: e.seq + 1, "data-seq": e.seq }, e.text)));
    log.scrollTop = log.scrollHeight;
    const view = { ...data.view, legal_actions: [] }; // a replay is watched: nothing to play
    if (renderer) {
      renderer.render(r.board, view, { t, h, lang, names, act: () => {}, seat: r.seat, table: info, replay: true });
    } else {
      r.board.replaceChildren(h("pre", {}, JSON.stringify(view, null, 1)));
    }
  };

  app.replaceChildren(
    h("div", { class: "table-head" },
      h("h1", {}, t("web.replay.title", { game: info.title }), " ", h("span", { class: "muted" }, presetLabel(info.game, info.preset))),
      h("a", { href: `/t/${id}`, "data-link": true, class: "again", "data-testid": "replay-table" }, t("web.replay.to_table"))),
    controls,
    h("div", { class: "layout" }, r.board,
      h("aside", {}, h("section", { class: "card-panel" }, h("h2", {}, t("web.log")), log))));
  const step = params.get("step");
  await r.show(step === null || step === "end" ? 0 : Math.max(0, Number(step) || 0));
  if (step === "end") await r.show(r.steps);
  return r;
}

export function stopReplay() { active = null; }
