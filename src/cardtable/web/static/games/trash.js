// Trash (RULES.md §1) in the browser: render(root, view, ctx) from the seat's view only.
// Face-down slots are null in the view; they are drawn as card backs.
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function cardLabel(code) {
  if (code === "JK") return "🃏";
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + SUITS[code[1]];
}

function card(h, code, attrs = {}) {
  if (code === null || code === undefined) {
    return h("div", { class: "card back", ...attrs }, h("span", { class: "sr" }, "face down"));
  }
  const red = code[1] === "H" || code[1] === "D" || code === "JK";
  return h("div", { class: `card face ${red ? "red" : "black"}`, "data-card": code, ...attrs },
    h("span", { class: "corner" }, cardLabel(code)), h("span", { class: "pip" }, code === "JK" ? "🃏" : SUITS[code[1]]));
}

export function render(root, view, ctx) {
  const { h, t, names, act } = ctx;
  const me = view.seat;
  const legal = new Set(view.legal_actions);
  const name = (s) => (s === me ? t("web.you") : names[s] || t("web.seat", { n: s }));
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

  // the seats' layouts: mine first, then the others in turn order
  const order = [];
  for (let i = 0; i < view.num_players; i++) order.push(((me ?? 0) + i) % view.num_players);
  const layouts = order.map((s) => {
    const slots = view.layouts[s].map((c, k) => {
      const slot = k + 1;
      const el = h("div", { class: "slot" }, card(h, c), h("span", { class: "num" }, slot));
      return s === me ? clickable(`wild ${slot}`, el) : el;
    });
    const turn = view.current_player === s;
    return h("div", { class: `player ${turn ? "turn" : ""} ${s === me ? "mine" : ""}`, "data-testid": `layout-${s}` },
      h("div", { class: "who" }, h("b", {}, t("web.seat", { n: s }), " · ", name(s)), " · ",
        t("web.trash.size", { n: view.sizes[s] }), " · ", t("web.trash.won", { n: view.hands_won[s] })),
      h("div", { class: "slots" }, slots));
  });

  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const stock = clickable("stock", h("div", { class: "pile", "data-testid": "stock" },
    card(h, null), h("span", { class: "label" }, t("web.trash.stock", { n: view.stock_count }))));
  const discard = clickable("discard", h("div", { class: "pile", "data-testid": "discard" },
    top ? card(h, top) : h("div", { class: "card empty" }), h("span", { class: "label" }, t("web.trash.discard"))));
  const hand = h("div", { class: "pile", "data-testid": "hand" },
    view.card_in_hand ? card(h, view.card_in_hand) : h("div", { class: "card empty" }),
    h("span", { class: "label" }, t("web.trash.in_hand")));

  const buttons = [];
  for (const action of ["displace", "decline"]) {
    if (legal.has(action)) {
      buttons.push(clickable(action, h("button", { type: "button", class: "primary", "data-testid": action },
        t(`web.trash.${action}`))));
    }
  }

  let status;
  if (view.outcome) {
    const w = view.outcome.winners;
    status = w.length !== 1 ? t("web.trash.shared")
      : w[0] === me ? t("web.trash.you_won") : t("web.trash.winner", { who: name(w[0]) });
  } else if (me !== null && view.current_player === me) {
    status = legal.has("stock") ? t("web.trash.draw") : legal.has("displace") ? t("web.trash.choose")
      : t("web.trash.place_wild");
  } else {
    status = t("web.trash.waiting_for", { who: name(view.current_player) });
  }
  const last = view.events.length ? view.events[view.events.length - 1].text : "";

  root.replaceChildren(
    h("div", { class: `status-bar ${view.outcome ? "over" : ""}`, "data-testid": "status" },
      view.outcome ? null : h("span", { class: "hand-no" }, t("web.trash.hand", { n: view.hand_number })), " ",
      h("b", {}, status),
      view.outcome ? h("a", { href: "/", "data-link": true, class: "again", "data-testid": "again" }, t("web.again")) : null),
    h("div", { class: "center" }, stock, discard, hand, h("div", { class: "actions" }, buttons)),
    h("p", { class: "last", "data-testid": "last" }, last),
    h("div", { class: "players" }, layouts),
  );
}
