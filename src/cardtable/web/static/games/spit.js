// Spit (RULES.md §3) in the browser: render(root, view, ctx) from the seat's view only.
// Face-down stock cards and spit cards are counts in the view: drawn as backs.
// Click one of your stock piles, then a spit pile (or an empty space) to move its top.
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

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

let selected = null; // the stock pile (1-5) chosen as the source of the next move; kept across redraws

export function render(root, view, ctx) {
  const { h, t, names, act } = ctx;
  const me = view.seat;
  const legal = view.legal_actions;
  const opp = me === null ? 1 : 1 - me;
  const bottom = me === null ? 0 : me;
  const name = (s) => (s === me ? t("web.you") : names[s] || t("web.seat", { n: s }));
  // my moves by source pile: "play j CARD Sk" → target "S<k>", "fill j CARD i" / "stack j CARD i" → target "<i>"
  const moves = new Map();
  const other = new Map(); // flip j, spit, unspit, slap Sk, choose Sk
  for (const a of legal) {
    const w = a.split(" ").slice(1);
    if (w[0] === "play" || w[0] === "fill" || w[0] === "stack") {
      const j = Number(w[1]);
      if (!moves.has(j)) moves.set(j, new Map());
      moves.get(j).set(w[3], a);
    } else {
      other.set(w.join(" "), a);
    }
  }
  if (selected !== null && !moves.has(selected)) selected = null;
  const targets = selected === null ? new Map() : moves.get(selected);
  const mark = (el, action, label) => {
    el.classList.add("legal");
    el.setAttribute("data-legal", action);
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-label", label || action);
    return el;
  };
  const go = (action) => { selected = null; act(action); };

  const pileRow = (s) => view.stock[s].map((cards, k) => {
    const j = k + 1;
    const down = view.face_down[s][k];
    const top = cards.length ? cards[cards.length - 1] : null;
    const el = h("div", { class: "sp-pile", "data-testid": s === me ? `my-pile-${j}` : `pile-${s}-${j}` },
      top ? card(h, top) : down ? card(h, null) : h("div", { class: "card empty" }),
      h("span", { class: "num" }, down ? `${j} · +${down}` : `${j}`));
    if (s !== me) return el;
    if (moves.has(j)) {
      mark(el, `select ${j}`, t("web.spit.select", { n: j }));
      if (selected === j) el.classList.add("selected");
      el.addEventListener("click", () => {
        selected = selected === j ? null : j;
        render(root, view, ctx);
      });
    } else if (other.has(`flip ${j}`)) {
      mark(el, other.get(`flip ${j}`));
      el.addEventListener("click", () => go(other.get(`flip ${j}`)));
    } else if (targets.has(String(j))) {
      mark(el, targets.get(String(j)));
      el.classList.add("target");
      el.addEventListener("click", () => go(targets.get(String(j))));
    }
    return el;
  });

  const spitPile = (k) => {
    const top = view.spit_tops[k];
    const el = h("div", { class: "sp-centre", "data-testid": `spit-${k}` },
      top ? card(h, top) : h("div", { class: "card empty" }),
      h("span", { class: "num" }, `S${k} · ${view.spit_sizes[k]}`));
    const play = targets.get(`S${k}`);
    const slap = other.get(`slap S${k}`) || other.get(`choose S${k}`);
    if (play) {
      mark(el, play);
      el.classList.add("target");
      el.addEventListener("click", () => go(play));
    } else if (slap) {
      mark(el, slap);
      el.addEventListener("click", () => go(slap));
    }
    return el;
  };
  const spitCards = (s) => h("div", { class: "sp-spitcards", "data-testid": `spit-cards-${s}` },
    view.spit_cards[s] ? card(h, null) : h("div", { class: "card empty" }),
    h("span", { class: "num" }, t("web.spit.spit_cards", { n: view.spit_cards[s] })));

  const buttons = [];
  for (const [key, label] of [["spit", "web.spit.spit"], ["unspit", "web.spit.unspit"]]) {
    if (other.has(key)) {
      const b = mark(h("button", { type: "button", class: "primary", "data-testid": key }, t(label)), other.get(key));
      b.addEventListener("click", () => go(other.get(key)));
      buttons.push(b);
    }
  }

  let status;
  if (view.outcome) {
    const w = view.outcome.winners;
    status = w.length !== 1 ? t("web.spit.draw") : w[0] === me ? t("web.spit.you_won") : t("web.spit.winner", { who: name(w[0]) });
  } else if (view.phase === "slap") {
    status = t("web.spit.slap");
  } else if (selected !== null) {
    status = t("web.spit.pick_target", { n: selected });
  } else if (view.spit_requests.some(Boolean)) {
    status = t("web.spit.requested", { who: view.spit_requests.map((r, s) => (r ? name(s) : null)).filter((x) => x !== null).join(", ") });
  } else {
    status = me === null ? t("web.spit.watching") : t("web.spit.play");
  }
  const who = (s) => h("div", { class: "who" }, h("b", {}, `${t("web.seat", { n: s })} · ${name(s)}`), " · ",
    t("web.spit.held", { n: view.cards_held[s] }), view.scoring === "points" ? ` · ${t("web.spit.points", { n: view.scores[s] })}` : "");
  const lastEvent = view.events.length ? view.events[view.events.length - 1].text : "";

  root.replaceChildren(...[
    h("div", { class: `status-bar ${view.outcome ? "over" : ""}`, "data-testid": "status" },
      h("span", { class: "hand-no" }, t("web.spit.round", { n: view.round })), " ", h("b", {}, status),
      view.outcome ? h("a", { href: "/", "data-link": true, class: "again", "data-testid": "again" }, t("web.again")) : null),
    h("div", { class: "player sp-side", "data-testid": `side-${opp}` }, who(opp), h("div", { class: "sp-row" }, pileRow(opp))),
    h("div", { class: "sp-middle" }, spitCards(opp), spitPile(0), spitPile(1), spitCards(bottom),
      h("div", { class: "actions" }, buttons)),
    h("div", { class: `player sp-side mine`, "data-testid": `side-${bottom}` }, h("div", { class: "sp-row" }, pileRow(bottom)), who(bottom)),
    h("p", { class: "last", "data-testid": "last" }, lastEvent),
  ].filter(Boolean));
}
