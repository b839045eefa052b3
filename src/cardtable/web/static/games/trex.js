// Trex (docs/rules/trex.md) in the browser: render(root, view, ctx) from the seat's view only.
// Other hands are null in the view (unless the table plays open hands): drawn as counts.
// Keys as in the terminal: ←/→ (↑/↓ a suit row) move a cursor over the cards you may play or the
// menu, Enter/Space play or choose it, 1–9 choose a menu item, c the score sheet, ? the help.
import { isolate, joinList } from "../i18n.js";
import { actionable, card, cardLabel, helpPanel, keyboard, legend, onControl, panel, seatHead, seatWord, standings, togglePanel } from "./shared.js";

export { cardLabel };

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_ORDER = ["S", "H", "C", "D"]; // black, red, black, red in the hand
const RANKS = "23456789TJQKA";
const RANK_LABELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const LAYOUT_SUITS = ["C", "D", "H", "S"]; // view.layout[s]: 0 ♣, 1 ♦, 2 ♥, 3 ♠
const CARD = /^[2-9TJQKA][CDHS]$/;

const sortKey = (code) => SUIT_ORDER.indexOf(code[1]) * 13 + RANKS.indexOf(code[0]);
export const sortHand = (cards) => cards.slice().sort((a, b) => sortKey(a) - sortKey(b));
// a TX-32 layout rank (2..14) in a suit as a card code
const layoutCard = (suit, rank) => RANKS[rank - 2] + suit;
const signed = (n) => isolate(n > 0 ? `+${n}` : String(n)); // "-70" reads left to right in Arabic too

// The menu (contracts and doubles first, then done / redeal / keep) and the playable cards, in
// the order they are drawn.
function choices(view) {
  if (view.seat === null || view.outcome) return { menu: [], cards: [] };
  const legal = view.legal_actions;
  const first = legal.filter((a) => a.startsWith("contract ") || a.startsWith("double "));
  const menu = first.concat(legal.filter((a) => !CARD.test(a) && !first.includes(a)));
  return { menu, cards: sortHand(view.hand).filter((c) => legal.includes(c)) };
}

// An action in words (table/assist.js: the log line of a question the page answered by itself).
export function describe(action, { t }) {
  if (CARD.test(action)) return cardLabel(action);
  if (action.startsWith("contract ")) return action.slice(9).split("+").map((c) => t(`web.trex.contract.${c}`)).join(" + ");
  if (action.startsWith("double ")) return t("web.trex.double_card", { card: cardLabel(action.slice(7)) });
  return t(`web.trex.action.${action}`);
}

// The cards a log line shows after its text (table/page.js): the hand a seat showed to force a redeal
// (TX-13), from the view that carries the redeal event; the hand is gone from the table with the
// deal it ended.
export function logCards(e, view) {
  if (e.kind !== "redeal" || e.seat === null || !view) return null;
  const shown = view.redeal_shown.filter(([s]) => s === e.seat);
  return shown.length ? sortHand(shown[shown.length - 1][1]) : null;
}

// Where a card that left the table goes (motion.js): a finished trick to the seat that took it.
export function exitTo(code, view) {
  if (view.trick.length || !view.last_trick.some(([, c]) => c === code)) return null;
  return `[data-testid="seat-${view.last_trick_winner}"]`;
}

// The end-of-deal summary: when a deal is scored the page shows the deal's scores and the running
// totals above the table until the player goes on (Enter, Space, the button, or a move of theirs
// in the next deal); meanwhile the page answers no one-answer question by itself (holding()).
// Not in a replay, for a spectator, or at the game's end (the score sheet opens).
let dealsSeen = { key: null, n: 0 }; // the deals this page has shown, per table and seat
let summaryOn = false;

export function holding() { return summaryOn; }

function dismiss(root, view, ctx) {
  dealsSeen.n = view.deal_scores.length;
  summaryOn = false;
  render(root, view, ctx);
  if (ctx.resume) ctx.resume();
}

let cursor = null; // the card or menu item under the keyboard cursor
let keyed = false; // the cursor shows once the keyboard has been used

function fixCursor(view) {
  const { menu, cards } = choices(view);
  const items = menu.length ? menu : cards;
  if (!items.includes(cursor)) cursor = menu.find((a) => a === "keep" || a === "done") || items[0] || null;
  return { menu, cards, items };
}

const live = keyboard((e, { root, view, ctx }) => {
  if (e.key === "?" || e.key === "c" || e.key === "C") {
    togglePanel(root, e.key === "?" ? "trex.help" : view.outcome ? "trex.sheet.end" : "trex.sheet");
    return true;
  }
  if (summaryOn && (e.key === "Enter" || e.key === " ")) {
    if (onControl(e) || e.repeat) return false;
    dismiss(root, view, ctx);
    return true;
  }
  if (summaryOn) return false;
  if (view.seat === null || view.outcome || !view.legal_actions.length || onControl(e)) return false;
  const { menu, cards, items } = fixCursor(view);
  if (/^[1-9]$/.test(e.key)) {
    const action = menu[Number(e.key) - 1];
    if (!action || e.repeat) return false;
    ctx.act(action);
    return true;
  }
  if (e.key === "Enter" || e.key === " ") {
    if (!cursor || e.repeat) return false;
    ctx.act(cursor);
    return true;
  }
  let i = items.indexOf(cursor);
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    i = (i + (e.key === "ArrowRight" ? 1 : items.length - 1)) % items.length;
  } else if (e.key === "Home" || e.key === "End") {
    i = e.key === "Home" ? 0 : items.length - 1;
  } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
    if (menu.length) {
      i = (i + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
    } else {  // the first playable card of the next suit row
      const rows = [...new Set(cards.map((c) => c[1]))];
      const here = rows.indexOf(cards[i][1]);
      const row = rows[(here + (e.key === "ArrowDown" ? 1 : rows.length - 1)) % rows.length];
      i = cards.findIndex((c) => c[1] === row);
    }
  } else {
    return false;
  }
  cursor = items[i];
  keyed = true;
  render(root, view, ctx);
  return true;
});

export function render(root, view, ctx) {
  const { h, t } = ctx;
  const act = (action) => { // a move of the player's is also their "go on"
    if (summaryOn) { dealsSeen.n = view.deal_scores.length; summaryOn = false; }
    ctx.act(action);
  };
  live(root, view, ctx);
  const me = view.seat;
  const seenKey = `${ctx.table ? ctx.table.id : ""}:${me}`;
  if (dealsSeen.key !== seenKey || me === null || view.outcome || ctx.replay) {
    dealsSeen = { key: seenKey, n: view.deal_scores.length }; // a page opened mid-game starts from now
  }
  summaryOn = view.deal_scores.length > dealsSeen.n;
  const legal = new Set(view.legal_actions);
  const { menu } = fixCursor(view);
  const label = (s) => seatWord(ctx, s, me); // "you", or the player's name
  const count = (key, n) => t(n === 1 ? `${key}1` : key, { n }); // "1 trick", "3 tricks"
  const contractName = (code) => code.split("+").map((c) => t(`web.trex.contract.${c}`)).join(" + ");
  const mark = (action, el) => {
    if (!legal.has(action)) return el;
    actionable(el, action, act, describe(action, ctx));
    if (keyed && action === cursor) el.classList.add("cursor");
    return el;
  };
  const button = (action, text) => mark(action,
    h("button", { type: "button", class: "primary", "data-testid": `act-${action.replace(/[^A-Za-z0-9]+/g, "-")}` },
      h("kbd", { class: "num" }, menu.indexOf(action) + 1), " ", text));

  // the table: me at the bottom, then the others in turn order. Trex goes counter-clockwise
  // (TX-2): the next seat is on my right, then across, then on my left.
  const base = me ?? 0;
  const at = (i) => (base + i) % 4;
  const trickBy = new Map(view.trick.map(([s, c]) => [s, c]));
  const playedBy = new Map(view.events.filter((e) => (e.kind === "play" || e.kind === "open") && e.card).map((e) => [e.card, e.seat]));
  const notes = new Map(); // what the last action says about a seat: passes, revokes
  for (const e of view.events) {
    if ((e.kind === "pass" || e.kind === "revoke") && e.seat !== null) notes.set(e.seat, t(`web.trex.note.${e.kind}`));
  }
  const seatBox = (s, place) => {
    const shown = s !== me ? view.hands[s] : null;
    const turn = view.current_player === s && !view.outcome;
    const captured = view.captured[s] || [];
    const out = view.finishing.indexOf(s);
    const meta = [count("web.trex.cards", view.hand_sizes[s])];
    if (view.contract && view.contract !== "TR") {
      meta.push(count("web.trex.tricks", view.tricks_taken[s]));
      if (view.deal_scores_now[s]) meta.push(signed(view.deal_scores_now[s]));
    }
    if (out >= 0) meta.push(t("web.trex.out", { place: t(`web.trex.place.${out}`) }));
    return h("div", { class: `tx-seat tx-${place} ${turn ? "turn" : ""}`, "data-testid": `seat-${s}` },
      h("div", { class: "who" }, ...seatHead(ctx, s, me),
        s === view.kingdom_holder ? h("span", { class: "tx-badge", title: t("web.trex.holder") }, "♛") : null,
        s === view.dealer ? h("span", { class: "tx-badge", title: t("web.trex.dealer") }, "D") : null),
      h("div", { class: "tx-meta" }, meta.join(" · ")),
      notes.has(s) ? h("div", { class: "tx-note" }, notes.get(s)) : null,
      shown ? h("div", { class: "tx-mini" }, sortHand(shown).map((c) => card(h, c))) : null,
      captured.length ? h("div", { class: "tx-mini", title: t("web.trex.captured") }, captured.map((c) => card(h, c))) : null);
  };
  // motion.js: a card in the trick flies from the hand that played it (mine: from its place in my hand)
  const trickSlot = (s, place) => h("div", { class: `tx-play tx-p-${place}`, "data-testid": `trick-${s}` },
    trickBy.has(s) ? card(h, trickBy.get(s), { "data-anim": `trick:${s}`, "data-from": s === me ? null : `[data-testid="seat-${s}"]` })
      : h("div", { class: "card empty", "data-anim": `trick:${s}` }));
  const places = ["bottom", "right", "top", "left"]; // places[i]: the seat i turns after me
  const inTricks = view.phase === "trick" && view.contract && view.contract !== "TR";
  const trickNo = inTricks
    ? h("div", { class: "tx-trickno", "data-testid": "trick-no" },
      t("web.trex.trick", { n: view.tricks_taken.reduce((a, b) => a + b, 0) + 1 }))
    : null;
  // no trick in the Trex contract: the layout is drawn under the table instead
  const table = h("div", { class: "tx-table", "data-testid": "trex-table" },
    places.map((p, i) => seatBox(at(i), p)),
    view.contract === "TR" ? null : h("div", { class: "tx-center" }, trickNo, places.map((p, i) => trickSlot(at(i), p))));

  // the last trick, with who played what
  const last = view.last_trick.length
    ? h("div", { class: "tx-last", "data-testid": "last-trick" },
      h("span", { class: "label" }, t("web.trex.last_trick", { who: label(view.last_trick_winner) })),
      view.last_trick.map(([s, c]) => h("span", { class: "tx-lt" }, card(h, c), h("small", {}, label(s)))))
    : null;

  // prompts: contract menu, redeal, doubling, passing (numbered as the keys 1–9)
  const prompts = menu.map((a) => {
    if (a.startsWith("contract ")) return button(a, contractName(a.slice(9)));
    if (a.startsWith("double ")) return button(a, t("web.trex.double_card", { card: cardLabel(a.slice(7)) }));
    return button(a, t(`web.trex.action.${a}`));
  });

  // my hand, sorted by suit; the legal cards are clickable
  const hand = me === null ? null : h("div", { class: "tx-hand", "data-testid": "hand" },
    sortHand(view.hand).map((c) => mark(c, card(h, c, { "data-anim": `hand:${c}` }))));

  // the Trex layout: one row per suit, low to high, with the next rank wanted at each end
  const layoutRows = LAYOUT_SUITS.map((suit, k) => {
    const row = view.layout[k];
    const cells = [];
    if (row) {
      for (let r = row[0]; r <= row[1]; r++) {
        const code = layoutCard(suit, r);
        const by = playedBy.get(code);
        cells.push(card(h, code, { "data-anim": `row:${code}`, "data-from": by !== undefined && by !== me ? `[data-testid="seat-${by}"]` : null }));
      }
    }
    return h("div", { class: "tx-row", "data-testid": `layout-${suit}` },
      h("span", { class: `tx-suit ${suit === "H" || suit === "D" ? "red" : ""}` }, SUITS[suit]),
      cells.length ? cells : h("span", { class: "muted-light" }, t("web.trex.unopened")),
      row ? h("span", { class: "tx-next", title: t("web.trex.next") },
        `↓${row[0] > 2 ? RANK_LABELS[row[0] - 3] : "—"} ↑${row[1] < 14 ? RANK_LABELS[row[1] - 1] : "—"}`) : null);
  });
  const layout = view.phase === "trex" || view.layout.some((r) => r)
    ? h("div", { class: "tx-layout", "data-testid": "trex-layout" }, h("h3", {}, t("web.trex.layout")), layoutRows,
      view.finishing.length ? h("p", {}, t("web.trex.finishing"), " ", joinList(view.finishing.map(label))) : null)
    : null;

  // public extras: doubled cards, exposed twos. A hand shown to force a redeal belongs to the deal
  // it ended: it is told in the log with the redeal (logCards), never drawn beside the new hands.
  const extras = [];
  if (view.doubled.length) {
    extras.push(h("div", { class: "tx-extra", "data-testid": "doubled" }, t("web.trex.doubled"), " ",
      view.doubled.map(([c, s]) => h("span", { class: "tx-tag" }, `${cardLabel(c)} (${label(s)})`))));
  }
  const twos = view.exposed_twos.map((cards, s) => [s, cards]).filter(([, cards]) => cards.length);
  if (twos.length) {  // partnership Trex (TX-V2)
    extras.push(h("div", { class: "tx-extra", "data-testid": "twos" }, t("web.trex.twos"), " ",
      twos.map(([s, cards]) => h("span", { class: "tx-tag" }, `${label(s)}: ${cards.map(cardLabel).join(" ")}`))));
  }

  // the score sheet: deals by kingdom, each kingdom's subtotal, the totals (and the teams')
  const seats = [0, 1, 2, 3];
  const num = (v, tag = "td") => h(tag, { class: v < 0 ? "neg" : "" }, signed(v));
  const body = [];
  const rows = view.deal_scores;
  rows.forEach(([n, k, holder, code, deltas], i) => {
    if (i === 0 || rows[i - 1][1] !== k) {
      body.push(h("tr", { class: "tx-kingdom" }, h("th", { colspan: 6 }, t("web.trex.kingdom_row", { n: k + 1, who: label(holder) }))));
    }
    const kingdomHolder = rows.find((r) => r[1] === k)[2];
    body.push(h("tr", {}, h("td", {}, n),
      h("td", {}, contractName(code), holder !== kingdomHolder ? ` · ${label(holder)}` : ""), deltas.map((d) => num(d))));
    if (i === rows.length - 1 || rows[i + 1][1] !== k) {
      body.push(h("tr", { class: "tx-subtotal", "data-testid": `kingdom-total-${k + 1}` }, h("td", {}),
        h("td", {}, t("web.trex.kingdom_total", { n: k + 1 })), view.kingdom_scores[k].map((v) => num(v))));
    }
  });
  if (!rows.length) body.push(h("tr", {}, h("td", { colspan: 6, class: "muted" }, t("web.trex.sheet_empty"))));
  const foot = [h("tr", {}, h("th", {}), h("th", {}, t("web.trex.total")), view.totals.map((v) => num(v, "th")))];
  if (view.team_totals) {
    foot.push(h("tr", { "data-testid": "team-totals" }, h("th", {}),
      h("th", { colspan: 5 }, t("web.trex.teams", { a: signed(view.team_totals[0]), b: signed(view.team_totals[1]) }))));
  }
  const sheet = panel(h, view.outcome ? "trex.sheet.end" : "trex.sheet",
    { open: Boolean(view.outcome), cls: "tx-sheet card-panel", testid: "score-sheet" },
    t("web.trex.score_sheet"),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("web.trex.contract")),
        seats.map((s) => h("th", {}, label(s))))),
      h("tbody", {}, body), h("tfoot", {}, foot)));

  let summary = null;
  if (summaryOn) {
    const [n, , holder, code, deltas] = view.deal_scores[view.deal_scores.length - 1];
    summary = h("section", { class: "tx-summary card-panel", "data-testid": "deal-summary", role: "dialog" },
      h("h2", {}, t("web.trex.summary.title", { n, contract: contractName(code) }), " ",
        h("span", { class: "muted" }, label(holder))),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("web.trex.summary.seat")), h("th", {}, t("web.trex.summary.deal")),
        h("th", {}, t("web.trex.summary.total")))),
      h("tbody", {}, seats.map((s) => h("tr", { class: s === me ? "me" : "" }, h("td", {}, label(s)),
        num(deltas[s]), num(view.totals[s]))))),
      h("p", {}, h("button", { type: "button", class: "primary", "data-testid": "summary-continue",
        onclick: () => dismiss(root, view, ctx) }, t("web.trex.summary.continue")), " ",
      h("span", { class: "muted" }, t("web.trex.summary.keys"))));
  }

  let status;
  if (view.outcome) {
    const w = view.outcome.winners;
    status = w.length !== 1 ? t("web.trex.shared")
      : w[0] === me ? t("web.trex.you_won") : t("web.trex.winner", { who: label(w[0]) });
  } else if (me !== null && view.current_player === me && view.legal_actions.length) {
    status = t(`web.trex.prompt.${view.phase}`);
  } else {
    status = t("web.trex.waiting_for", { who: label(view.current_player) });
  }
  const head = [view.tiebreak ? t("web.trex.tiebreak") : t("web.trex.deal", { n: view.deal_number, m: view.num_deals }), " · ",
    t("web.trex.kingdom", { n: view.kingdom + 1, who: label(view.kingdom_holder) })];
  if (view.contract) head.push(" · ", h("b", { "data-testid": "contract" }, contractName(view.contract)));
  // the second line of the terminal's head: dealer, the contracts still to play, hearts
  const left = view.contracts_left.filter((c) => c !== view.contract);
  const info = [t("web.trex.dealer_is", { who: label(view.dealer) })];
  if (!view.contract) info.push(t("web.trex.not_announced"));
  info.push(t("web.trex.left", { names: left.length ? joinList(left.map(contractName)) : "—" }));
  if (inTricks && (view.contract.split("+").includes("KH") || view.contract === "CX")) {
    info.push(t(view.hearts_broken ? "web.trex.hearts_broken" : "web.trex.hearts_not_broken"));
  }
  const lastEvent = view.events.length ? view.events[view.events.length - 1].text : "";

  const keys = [["← → ↑ ↓", t("web.trex.key.cursor")], ["Enter", t("web.trex.key.play")], ["1 … 9", t("web.trex.key.menu")],
    ["c", t("web.trex.key.sheet")], [t("web.key.mouse"), t("web.trex.key.mouse"), true], ["?", t("web.key.help")]];
  root.replaceChildren(...[
    h("div", { class: `status-bar ${view.outcome ? "over" : ""}`, "data-testid": "status" },
      h("span", { class: "hand-no" }, ...head), " ", h("b", {}, status),
      view.outcome ? h("a", { href: "/", "data-link": true, class: "again", "data-testid": "again" }, t("web.again")) : null),
    view.outcome ? null : h("p", { class: "tx-info", "data-testid": "trex-info" }, info.join(" · ")),
    view.outcome ? standings(ctx, seats.map((s) => [label(s), signed(view.totals[s]), view.outcome.winners.includes(s)])) : null,
    summary,
    table,
    prompts.length ? h("div", { class: "actions tx-prompts", "data-testid": "prompts" }, prompts) : null,
    layout,
    hand,
    h("p", { class: "last", "data-testid": "last" }, lastEvent),
    h("div", { class: "tx-side" }, last, extras),
    sheet,
    me === null || view.outcome ? null : legend(ctx, [["←/→", t("web.trex.legend.cursor")], ["Enter", t("web.trex.legend.play")],
      ["1–9", t("web.trex.legend.menu")], ["c", t("web.trex.legend.sheet")], ["?", t("web.legend.help")]]),
    helpPanel(ctx, "trex", [t("web.trex.deals", { n: view.num_deals }),
      t("web.trex.contracts", { names: joinList([...new Set(view.contracts_left.concat(view.deal_scores.map((r) => r[3])))].map(contractName)) }),
      view.partnership ? t("web.trex.partnership") : null,
      view.hands.every((x) => x !== null) ? t("web.trex.open_hands") : null].filter(Boolean), keys),
  ].filter(Boolean));
}
