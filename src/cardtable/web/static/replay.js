// A finished game's replay: the record stepped through as one seat saw it (or a spectator).
// The server computes each step's view from the record (GET /api/tables/<id>/replay); the page
// draws it with the game's own renderer, with nothing to click. Keys as in the terminal replay:
// → / Space / Enter / n the next step, ← / p the one before, Home the deal, End the last step.
// The Review panel (Trash and Trex) lists the chosen seat's costliest decisions from
// GET /api/tables/<id>/review?seat=N; each entry moves the replay to the position of its decision.
import { t, lang, digits, joinList } from "./i18n.js";
import { errorText } from "./errors.js";
import { presetLabel } from "./words.js";
import { ownText } from "./events.js";

const REVIEWED = new Set(["trash", "trex"]); // the games cardtable.review judges (Spit is a race)

// What the moves played cost, in the review's unit: Trex points, or a Trash hand's win chance in
// percentage points (the summary's sum over several decisions can pass 100, which a chance cannot)
function cost(unit, loss) {
  if (unit === "win chance") return t("web.review.chance", { value: digits(String(Math.round(100 * loss))) });
  const tenths = Math.round(10 * loss) / 10;
  return t("web.review.points", { value: digits(tenths ? tenths.toFixed(1) : "0") });
}

// The panel's content for one seat's review (`data`), each costly decision a button to the position
// it was made in: a decision's `step` numbers its action in the record (1 = the first), and the
// replay's step k is the position after k actions, so the decision is taken at step `step - 1`
// (as the terminal replay's review opens it).
function reviewBody(h, data, { move, show, who }) {
  const out = [h("h2", {}, t("web.review.title", { who })),
    h("p", { class: "muted", "data-testid": "review-summary" }, t("web.review.summary", {
      decisions: digits(data.decisions), cost: cost(data.unit, data.total_loss), worlds: digits(data.worlds) }))];
  if (!data.costliest.length) out.push(h("p", { "data-testid": "review-none" }, t("web.review.none")));
  else {
    out.push(h("p", {}, t("web.review.costliest")));
    out.push(h("ol", { class: "review-list", "data-testid": "review-costliest" }, data.costliest.map((d) => h("li", {},
      h("button", { type: "button", class: "review-entry", "data-testid": `review-step-${d.step}`, "data-step": d.step,
        onclick: () => show(d.step - 1) },
      h("b", {}, t("web.review.step", { step: digits(d.step) })), " · ",
      t("web.review.played", { move: move(d.played) }), " · ",
      t("web.review.best", { move: move(d.best) }), " · ",
      h("span", { class: "review-loss" }, t("web.review.cost", { cost: cost(data.unit, d.loss) }))),
      d.hindsight_best ? h("div", { class: "muted" }, t("web.review.hindsight", { move: move(d.hindsight_best) })) : null))));
  }
  if (data.contracts.length) {
    out.push(h("p", {}, t("web.review.contracts")));
    out.push(h("ul", { class: "review-list", "data-testid": "review-contracts" }, data.contracts.map((d) => h("li", {},
      t("web.review.contract", { deal: digits(d.deal), move: move(d.played),
        values: joinList(Object.entries(d.values).sort((a, b) => b[1] - a[1])
          .map(([a, v]) => `${move(a)} ${digits((v > 0 ? "+" : "") + v.toFixed(1)).replace("-", "−")}`)) })))));
  }
  return out;
}

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

export async function replayPage(app, id, { h, api, names, kinds, renderer, info }) {
  const params = new URLSearchParams(location.search);
  const seatParam = params.get("seat");
  const seatNo = /^[0-9]+$/.test(seatParam || "") ? Number(seatParam) : -1;
  const r = {
    id, board: h("section", { class: "board", "data-testid": "board" }), step: 0, steps: 0,
    // a seat the table does not have (an edited address): the spectator's view
    seat: seatNo >= 0 && seatNo < info.seats.length ? seatNo : null,
    asked: 0, reviews: new Map(), // seat -> the review's answer (a promise), asked for once
  };
  active = r;
  const log = h("ol", { class: "log", "data-testid": "log" });
  const counter = h("span", { class: "replay-step", "data-testid": "replay-step" });
  const seatSel = h("select", { "data-testid": "replay-seat", onchange: () => {
    r.seat = seatSel.value === "none" ? null : Number(seatSel.value);
    r.show(r.step);
    if (!review.hidden) r.review();
  } }, h("option", { value: "none" }, t("web.replay.spectator")),
  info.seats.map((s) => h("option", { value: String(s.seat) }, [names[s.seat], kinds[s.seat]].filter(Boolean).join(" · "))));
  seatSel.value = r.seat === null ? "none" : String(r.seat);
  const button = (testid, text, title, to) => h("button", { type: "button", "data-testid": testid, title,
    onclick: () => r.show(to()) }, text);
  const controls = h("div", { class: "replay-controls card-panel", "data-testid": "replay-controls" },
    h("label", {}, t("web.replay.as"), " ", seatSel), " ",
    // the steps run left to right as the ← → keys do, in Arabic too (as a media player's bar)
    h("span", { class: "replay-steps" },
      button("replay-first", "|◀", `Home · ${t("web.replay.first")}`, () => 0),
      button("replay-back", "◀", `← · ${t("web.replay.back")}`, () => r.step - 1),
      counter,
      button("replay-next", "▶", `→ · ${t("web.replay.next")}`, () => r.step + 1),
      button("replay-last", "▶|", `End · ${t("web.replay.last")}`, () => r.steps)),
    REVIEWED.has(info.game) ? h("button", { type: "button", "data-testid": "review-open",
      onclick: () => (review.hidden ? r.review() : (review.hidden = true)) }, t("web.review.open")) : null,
    h("p", { class: "muted replay-keys" }, t("web.replay.keys")));
  const review = h("section", { class: "card-panel review", "data-testid": "review", hidden: true });

  // the Review panel: the chosen seat's costliest decisions (worked out once per seat, after the game)
  r.review = async () => {
    review.hidden = false;
    const close = h("button", { type: "button", class: "review-close", "data-testid": "review-close",
      title: t("web.review.close"), onclick: () => { review.hidden = true; } }, "×");
    if (r.seat === null) {
      review.replaceChildren(close, h("p", { "data-testid": "review-spectator" }, t("web.review.spectator")));
      return;
    }
    const seat = r.seat;
    review.replaceChildren(close, h("p", { class: "muted", "data-testid": "review-working" }, t("web.review.working")));
    if (!r.reviews.has(seat)) {
      const asked = api(`/api/tables/${encodeURIComponent(id)}/review?seat=${seat}`);
      asked.catch(() => r.reviews.delete(seat)); // asked again next time
      r.reviews.set(seat, asked);
    }
    let data;
    try {
      data = await r.reviews.get(seat);
    } catch (e) {
      if (r.seat === seat) review.replaceChildren(close, h("p", { "data-testid": "review-error" }, errorText(e)));
      return;
    }
    if (r.seat !== seat || review.hidden) return; // another seat was chosen meanwhile
    const move = (a) => (renderer && renderer.describe ? renderer.describe(a, { t }) : a);
    review.replaceChildren(close, ...reviewBody(h, data, { move, show: (step) => r.show(step),
      who: names[seat] }));
  };

  r.show = async (to) => {
    if (to < 0 || (r.steps && to > r.steps)) return;
    const asked = ++r.asked;
    let data;
    try {
      data = await api(`/api/tables/${encodeURIComponent(id)}/replay?seat=${r.seat === null ? "none" : r.seat}&step=${to}&lang=${lang}`);
    } catch (e) {
      r.board.replaceChildren(h("p", { class: "card-panel waiting", "data-testid": "replay-error" }, errorText(e)));
      return;
    }
    if (asked !== r.asked || active !== r) return; // a later step was asked for meanwhile
    r.step = data.step;
    r.steps = data.steps;
    counter.textContent = t("web.replay.step", { i: data.step, n: data.steps });
    const query = `?seat=${r.seat === null ? "none" : r.seat}&step=${data.step}`;
    history.replaceState(null, "", `/t/${id}/replay${query}`);
    // the players by name and the chosen seat as "you", as at the table
    log.replaceChildren(...data.log.map((e) => h("li", { value: e.seq + 1, "data-seq": e.seq }, ownText(info.game, e, r.seat, names))));
    for (const e of data.view.events) e.text = ownText(info.game, e, r.seat, names);
    log.scrollTop = log.scrollHeight;
    const view = { ...data.view, legal_actions: [] }; // a replay is watched: nothing to play
    if (renderer) {
      renderer.render(r.board, view, { t, h, lang, names, kinds, act: () => {}, seat: r.seat, table: info, replay: true });
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
      h("aside", {}, review, h("section", { class: "card-panel" }, h("h2", {}, t("web.log")), log))));
  // the step the address asks for, within the game (past its end: the last step)
  const step = params.get("step");
  const wanted = step === "end" ? Infinity : Math.max(0, Math.floor(Number(step)) || 0);
  await r.show(0);
  if (wanted > 0 && r.steps) await r.show(Math.min(wanted, r.steps));
  // review=1 (a profile's Review link): the Review panel open at once, for the seat asked for
  if (params.get("review") === "1" && REVIEWED.has(info.game)) r.review();
  return r;
}

export function stopReplay() { active = null; }
