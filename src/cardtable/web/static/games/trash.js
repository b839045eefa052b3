// Trash (docs/rules/trash.md) in the browser: render(root, view, ctx) from the seat's view only.
// Face-down slots are null in the view; they are drawn as card backs. Keys as in the terminal:
// Enter/Space draw (or displace), d the discard, 1–9 and 0 a slot for the wild, y/n displace or
// decline, ? the help.
import { actionable, card, cardLabel, helpPanel, keyboard, legend, onControl, standings, togglePanel } from "./shared.js";

export { cardLabel };

// TR-3: the wild ranks of each wild mode (a Joker is always wild); public rules, not hidden data
const WILD_RANKS = { jacks: "J", kings: "K", all_faces: "JQK" };
const isWild = (code, mode) => code === "JK" || (WILD_RANKS[mode] || "").includes(code[0]);
// the number a card stands for (A = 1 … 10)
const number = (code) => "A23456789T".indexOf(code[0]) + 1;

// An action in words (app.js: the log line of a question the page answered by itself).
export function describe(action, { t }) {
  if (action.startsWith("wild ")) return t("web.trash.auto.wild", { n: action.slice(5) });
  return t(`web.trash.auto.${action}`);
}

const live = keyboard((e, { root, view, ctx }) => {
  if (e.repeat) return false;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key === "?") {
    togglePanel(root, "trash.help");
    return true;
  }
  if (view.seat === null || view.outcome || onControl(e)) return false;
  let action = null;
  if (view.phase === "draw") action = { Enter: "stock", " ": "stock", d: "discard" }[key];
  else if (view.phase === "place_wild" && /^[0-9]$/.test(key)) action = `wild ${key === "0" ? 10 : key}`;
  else if (view.phase === "displace") action = { Enter: "displace", " ": "displace", y: "displace", n: "decline" }[key];
  if (!action || !view.legal_actions.includes(action)) return false;
  ctx.act(action);
  return true;
});

export function render(root, view, ctx) {
  const { h, t, names, act } = ctx;
  live(root, view, ctx);
  const me = view.seat;
  const legal = new Set(view.legal_actions);
  const name = (s) => (s === me ? t("web.you") : names[s] || t("web.seat", { n: s }));
  const label = (s) => `${t("web.seat", { n: s })} · ${name(s)}`;
  const face = (code, attrs = {}) => card(h, code, attrs, code && isWild(code, view.wild_mode) ? "wild" : "");
  const clickable = (action, el) => (legal.has(action) ? actionable(el, action, act) : el);

  // the seats' layouts: mine first, then the others in turn order
  const order = [];
  for (let i = 0; i < view.num_players; i++) order.push(((me ?? 0) + i) % view.num_players);
  const layouts = order.map((s) => {
    const slots = view.layouts[s].map((c, k) => {
      const slot = k + 1;
      const el = h("div", { class: "slot" }, face(c), h("span", { class: "num" }, slot));
      return s === me ? clickable(`wild ${slot}`, el) : el;
    });
    const turn = view.current_player === s && !view.outcome;
    return h("div", { class: `player ${turn ? "turn" : ""} ${s === me ? "mine" : ""}`, "data-testid": `layout-${s}` },
      h("div", { class: "who" }, h("b", {}, label(s)), " · ",
        t("web.trash.size", { n: view.sizes[s] }), " · ", t("web.trash.won", { n: view.hands_won[s] }),
        turn ? h("span", { class: "to-play" }, " ", t("web.trash.to_play")) : null),
      h("div", { class: "slots" }, slots));
  });

  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const stock = clickable("stock", h("div", { class: "pile", "data-testid": "stock" },
    view.stock_count ? card(h, null) : h("div", { class: "card empty" }),
    h("span", { class: "label" }, t("web.trash.stock", { n: view.stock_count }))));
  const discard = clickable("discard", h("div", { class: "pile", "data-testid": "discard" },
    top ? face(top) : h("div", { class: "card empty" }),
    h("span", { class: "label" }, t("web.trash.discard_n", { n: view.discard.length }))));
  const hand = h("div", { class: "pile", "data-testid": "hand" },
    view.card_in_hand ? face(view.card_in_hand) : h("div", { class: "card empty" }),
    h("span", { class: "label" }, t("web.trash.in_hand")));

  const buttons = [];
  for (const action of ["displace", "decline"]) {
    if (legal.has(action)) {
      buttons.push(clickable(action, h("button", { type: "button", class: "primary", "data-testid": action },
        t(`web.trash.${action}`))));
    }
  }

  let status;
  const c = view.card_in_hand;
  if (view.outcome) {
    const w = view.outcome.winners;
    status = w.length !== 1 ? t("web.trash.shared")
      : w[0] === me ? t("web.trash.you_won") : t("web.trash.winner", { who: name(w[0]) });
  } else if (me !== null && view.current_player === me && view.legal_actions.length) {
    if (view.phase === "draw") {
      status = legal.has("discard") ? t("web.trash.draw_or_take", { c: cardLabel(top) }) : t("web.trash.draw_stock");
    } else if (view.phase === "place_wild" && c) {
      const slots = view.legal_actions.map((a) => a.split(" ")[1]).join(" ");
      status = t("web.trash.place_wild_card", { c: cardLabel(c), slots });
    } else if (view.phase === "displace" && c) {
      status = t("web.trash.displace_card", { c: cardLabel(c), n: number(c) });
    } else {
      status = legal.has("displace") ? t("web.trash.choose") : t("web.trash.place_wild");
    }
  } else {
    status = t("web.trash.waiting_for", { who: name(view.current_player) });
  }
  // the title bar of the terminal: the hand, the wild rank, free turns, the time limit
  const head = [t("web.trash.hand", { n: view.hand_number }), t("web.trash.wild", { rank: t(`web.trash.wild.${view.wild_mode}`) })];
  if (view.free_draws_left) head.push(t("web.trash.free_draws", { n: view.free_draws_left }));
  if (view.time_up) head.push(t("web.trash.time_up"));
  const last = view.events.length ? view.events[view.events.length - 1].text : "";

  const keys = [["Enter", t("web.trash.key.stock")], ["d", t("web.trash.key.discard")],
    ["1 … 9, 0", t("web.trash.key.wild")], ["y / n", t("web.trash.key.displace")], [t("web.key.mouse"), t("web.trash.key.mouse"), true], ["?", t("web.key.help")]];
  root.replaceChildren(...[
    h("div", { class: `status-bar ${view.outcome ? "over" : ""}`, "data-testid": "status" },
      view.outcome ? null : h("span", { class: "hand-no" }, head.join(" · ")), " ",
      h("b", {}, status),
      view.outcome ? h("a", { href: "/", "data-link": true, class: "again", "data-testid": "again" }, t("web.again")) : null),
    view.outcome ? standings(ctx, order.map((s) => [label(s),
      `${t("web.trash.size", { n: view.sizes[s] })} · ${t("web.trash.won", { n: view.hands_won[s] })}`,
      view.outcome.winners.includes(s)])) : null,
    h("div", { class: "center" }, stock, discard, hand, h("div", { class: "actions" }, buttons)),
    h("p", { class: "last", "data-testid": "last" }, last),
    h("div", { class: "players" }, layouts),
    me === null || view.outcome ? null : legend(ctx, [["Enter", t("web.trash.legend.stock")], ["d", t("web.trash.legend.discard")],
      ["1–0", t("web.trash.legend.wild")], ["y/n", t("web.trash.legend.displace")], ["?", t("web.legend.help")]]),
    helpPanel(ctx, "trash", [t("web.trash.wild", { rank: t(`web.trash.wild.${view.wild_mode}`) }),
      t("web.trash.players", { n: view.num_players })], keys),
  ].filter(Boolean));
}
