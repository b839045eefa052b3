// Trex (RULES.md §2) in the browser: render(root, view, ctx) from the seat's view only.
// Other hands are null in the view (unless the table plays open hands): drawn as counts.
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_ORDER = ["S", "H", "C", "D"]; // black, red, black, red in the hand
const RANKS = "23456789TJQKA";
const LAYOUT_SUITS = ["C", "D", "H", "S"]; // view.layout[s]: 0 ♣, 1 ♦, 2 ♥, 3 ♠

export function cardLabel(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + SUITS[code[1]];
}

function card(h, code, attrs = {}) {
  if (code === null || code === undefined) {
    return h("div", { class: "card back", ...attrs }, h("span", { class: "sr" }, "face down"));
  }
  const red = code[1] === "H" || code[1] === "D";
  return h("div", { class: `card face ${red ? "red" : "black"}`, "data-card": code, ...attrs },
    h("span", { class: "corner" }, cardLabel(code)), h("span", { class: "pip" }, SUITS[code[1]]));
}

const sortKey = (code) => SUIT_ORDER.indexOf(code[1]) * 13 + RANKS.indexOf(code[0]);
export const sortHand = (cards) => cards.slice().sort((a, b) => sortKey(a) - sortKey(b));
// a TX-32 layout rank (2..14) in a suit as a card code
const layoutCard = (suit, rank) => RANKS[rank - 2] + suit;

export function render(root, view, ctx) {
  const { h, t, names, act } = ctx;
  const me = view.seat;
  const legal = new Set(view.legal_actions);
  const name = (s) => (s === me ? t("web.you") : names[s] || t("web.seat", { n: s }));
  // the seat number too: three bots of one kind share a name
  const label = (s) => `${t("web.seat", { n: s })} · ${name(s)}`;
  const contractName = (code) => code.split("+").map((c) => t(`web.trex.contract.${c}`)).join(" + ");
  const clickable = (action, el) => {
    if (!legal.has(action)) return el;
    el.classList.add("legal");
    el.setAttribute("data-legal", action);
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-label", action);
    el.addEventListener("click", () => act(action));
    el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") act(action); });
    return el;
  };
  const button = (action, label) => clickable(action,
    h("button", { type: "button", class: "primary", "data-testid": `act-${action.replace(/[^A-Za-z0-9]+/g, "-")}` }, label));

  // the table: me at the bottom, then the others in turn order (left, across, right)
  const base = me ?? 0;
  const at = (i) => (base + i) % 4;
  const trickBy = new Map(view.trick.map(([s, c]) => [s, c]));
  const seatBox = (s, place) => {
    const shown = s !== me ? view.hands[s] : null;
    const turn = view.current_player === s && !view.outcome;
    const captured = view.captured[s] || [];
    return h("div", { class: `tx-seat tx-${place} ${turn ? "turn" : ""}`, "data-testid": `seat-${s}` },
      h("div", { class: "who" }, h("b", {}, label(s)),
        s === view.kingdom_holder ? h("span", { class: "tx-badge", title: t("web.trex.holder") }, "♛") : null,
        s === view.dealer ? h("span", { class: "tx-badge", title: t("web.trex.dealer") }, "D") : null),
      h("div", { class: "tx-meta" }, t("web.trex.cards", { n: view.hand_sizes[s] }), " · ",
        t("web.trex.tricks", { n: view.tricks_taken[s] }),
        view.phase !== "trex" && view.deal_scores_now[s] ? ` · ${view.deal_scores_now[s] > 0 ? "+" : ""}${view.deal_scores_now[s]}` : ""),
      shown ? h("div", { class: "tx-mini" }, sortHand(shown).map((c) => card(h, c))) : null,
      captured.length ? h("div", { class: "tx-mini", title: t("web.trex.captured") }, captured.map((c) => card(h, c))) : null);
  };
  const trickSlot = (s, place) => h("div", { class: `tx-play tx-p-${place}`, "data-testid": `trick-${s}` },
    trickBy.has(s) ? card(h, trickBy.get(s)) : h("div", { class: "card empty" }));
  const places = ["bottom", "left", "top", "right"];
  const table = h("div", { class: "tx-table", "data-testid": "trex-table" },
    places.map((p, i) => seatBox(at(i), p)),
    h("div", { class: "tx-center" }, places.map((p, i) => trickSlot(at(i), p))));

  // the last trick, with who played what
  const last = view.last_trick.length
    ? h("div", { class: "tx-last", "data-testid": "last-trick" },
      h("span", { class: "label" }, t("web.trex.last_trick", { who: label(view.last_trick_winner) })),
      view.last_trick.map(([s, c]) => h("span", { class: "tx-lt" }, card(h, c), h("small", {}, s === me ? t("web.you") : s))))
    : null;

  // prompts: contract menu, redeal, doubling, passing
  const prompts = [];
  const others = [];
  for (const a of view.legal_actions) {
    if (a.startsWith("contract ")) {
      const code = a.slice(9);
      prompts.push(button(a, contractName(code)));
    } else if (a.startsWith("double ")) {
      prompts.push(button(a, t("web.trex.double_card", { card: cardLabel(a.slice(7)) })));
    } else if (!/^[2-9TJQKA][CDHS]$/.test(a)) {
      others.push(button(a, t(`web.trex.action.${a}`)));
    }
  }
  prompts.push(...others);

  // my hand, sorted by suit; the legal cards are clickable
  const hand = me === null ? null : h("div", { class: "tx-hand", "data-testid": "hand" },
    sortHand(view.hand).map((c) => clickable(c, card(h, c))));

  // the Trex layout: one row per suit, low to high
  const layoutRows = LAYOUT_SUITS.map((suit, k) => {
    const row = view.layout[k];
    const cells = [];
    if (row) for (let r = row[0]; r <= row[1]; r++) cells.push(card(h, layoutCard(suit, r)));
    return h("div", { class: "tx-row", "data-testid": `layout-${suit}` },
      h("span", { class: `tx-suit ${suit === "H" || suit === "D" ? "red" : ""}` }, SUITS[suit]),
      cells.length ? cells : h("span", { class: "muted-light" }, t("web.trex.unopened")));
  });
  const layout = view.phase === "trex" || view.layout.some((r) => r)
    ? h("div", { class: "tx-layout", "data-testid": "trex-layout" }, h("h3", {}, t("web.trex.layout")), layoutRows,
      view.finishing.length ? h("p", {}, t("web.trex.finishing"), " ", view.finishing.map(label).join(", ")) : null)
    : null;

  // public extras: doubled cards, hands shown for a redeal, exposed twos
  const extras = [];
  if (view.doubled.length) {
    extras.push(h("div", { class: "tx-extra", "data-testid": "doubled" }, t("web.trex.doubled"), " ",
      view.doubled.map(([c, s]) => h("span", { class: "tx-tag" }, `${cardLabel(c)} (${label(s)})`))));
  }
  for (const [s, cards] of view.redeal_shown) {
    extras.push(h("div", { class: "tx-extra" }, t("web.trex.redeal_shown", { who: label(s) }), " ",
      h("span", { class: "tx-mini" }, sortHand(cards).map((c) => card(h, c)))));
  }

  // the score sheet
  const seats = [0, 1, 2, 3];
  const sheet = h("details", { class: "tx-sheet card-panel", "data-testid": "score-sheet", open: view.outcome ? true : null },
    h("summary", {}, t("web.trex.score_sheet")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("web.trex.contract")), seats.map((s) => h("th", { title: name(s) }, s === me ? t("web.you") : t("web.seat", { n: s }))))),
      h("tbody", {}, view.deal_scores.map(([n, , holder, code, deltas]) => h("tr", {},
        h("td", {}, n), h("td", {}, `${contractName(code)} · ${label(holder)}`),
        deltas.map((d) => h("td", { class: d < 0 ? "neg" : "" }, d))))),
      h("tfoot", {}, h("tr", {}, h("th", {}), h("th", {}, t("web.trex.total")),
        view.totals.map((v) => h("th", { class: v < 0 ? "neg" : "" }, v))))));

  let status;
  if (view.outcome) {
    const w = view.outcome.winners;
    status = w.length !== 1 ? t("web.trex.shared")
      : w[0] === me ? t("web.trex.you_won") : t("web.trex.winner", { who: name(w[0]) });
  } else if (me !== null && view.current_player === me && view.legal_actions.length) {
    status = t(`web.trex.prompt.${view.phase}`);
  } else {
    status = t("web.trex.waiting_for", { who: name(view.current_player) });
  }
  const head = [t("web.trex.deal", { n: view.deal_number, m: view.num_deals }), " · ",
    t("web.trex.kingdom", { n: view.kingdom + 1, who: label(view.kingdom_holder) })];
  if (view.contract) head.push(" · ", h("b", { "data-testid": "contract" }, contractName(view.contract)));
  const lastEvent = view.events.length ? view.events[view.events.length - 1].text : "";

  root.replaceChildren(...[
    h("div", { class: `status-bar ${view.outcome ? "over" : ""}`, "data-testid": "status" },
      h("span", { class: "hand-no" }, ...head), " ", h("b", {}, status),
      view.outcome ? h("a", { href: "/", "data-link": true, class: "again", "data-testid": "again" }, t("web.again")) : null),
    table,
    prompts.length ? h("div", { class: "actions tx-prompts", "data-testid": "prompts" }, prompts) : null,
    hand,
    h("p", { class: "last", "data-testid": "last" }, lastEvent),
    h("div", { class: "tx-side" }, last, layout, extras),
    sheet,
  ].filter(Boolean));
}
