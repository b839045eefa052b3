// Trash (docs/rules/trash.md) in the browser: render(root, view, ctx) from the seat's view only.
// Face-down slots are null in the view; they are drawn as card backs. Keys as in the terminal:
// Enter/Space draw (or displace), d the discard, 1–9 and 0 a slot for the wild, y/n displace or
// decline, ? the help.
import { actionable, card, cardLabel, helpPanel, keyboard, legend, onControl, seatHead, seatWord, standings, togglePanel } from "./shared.js";

export { cardLabel };

// TR-3: the wild ranks of each wild mode (a Joker is always wild); public rules, not hidden data
const WILD_RANKS = { jacks: "J", kings: "K", all_faces: "JQK" };
const isWild = (code, mode) => code === "JK" || (WILD_RANKS[mode] || "").includes(code[0]);
// the number a card stands for (A = 1 … 10)
const number = (code) => "A23456789T".indexOf(code[0]) + 1;

// Up to this many players every layout has the board's width, one under the other; at a larger
// table (TR-1) the others wrap into columns on smaller cards (style.css .players.many).
const ROOMY_PLAYERS = 4;

// Single actions the page never takes for the player (table/assist.js answerAlone; host/forced.py PACE):
// drawing from the stock is the turn itself, a key press or a click as in the terminal.
export const PACE = new Set(["stock"]);

const NOTE_MS = 1500;
let note = null; // {text, until}: why the last key did nothing
let said = ""; // the last note's text, kept after the note goes (data-said: what tests read)

// An action in words (table/assist.js: the log line of a question the page answered by itself, the hint).
export function describe(action, { t }) {
  if (action.startsWith("wild ")) return t("web.trash.auto.wild", { n: action.slice(5) });
  return t(`web.trash.auto.${action}`);
}

const GAME_KEYS = new Set(["Enter", " ", "d", "y", "n", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);

// Why a key of the game's does nothing now, in a short sentence.
function whyNot(key, view, ctx) {
  const { t } = ctx;
  const slots = view.legal_actions.filter((a) => a.startsWith("wild ")).map((a) => a.slice(5)).join(" ");
  if (view.current_player !== view.seat) return t("web.trash.note.not_your_turn", { who: seatWord(ctx, view.current_player, view.seat) });
  if (view.phase === "draw") {
    if (key !== "d") return t("web.trash.note.draw_first");
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    return top ? t("web.trash.note.no_discard", { c: cardLabel(top) }) : t("web.trash.note.discard_empty");
  }
  if (view.phase === "place_wild") {
    return /^[0-9]$/.test(key) ? t("web.trash.note.no_slot", { n: key === "0" ? 10 : key, slots })
      : t("web.trash.note.place_wild", { slots });
  }
  return t("web.trash.note.displace");
}

function say(root, view, ctx, text) {
  note = { text, until: Date.now() + NOTE_MS };
  said = text;
  render(root, view, ctx);
  setTimeout(() => { if (root.isConnected && note && Date.now() >= note.until) { note = null; render(root, view, ctx); } }, NOTE_MS + 20);
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
  if (action && view.current_player === view.seat && view.legal_actions.includes(action)) {
    note = null;
    ctx.act(action);
    return true;
  }
  if (!GAME_KEYS.has(key)) return false;
  say(root, view, ctx, whyNot(key, view, ctx)); // a key of the game's that does nothing says why
  return true;
});

export function render(root, view, ctx) {
  const { h, t, act } = ctx;
  live(root, view, ctx);
  const me = view.seat;
  const legal = new Set(view.legal_actions);
  const name = (s) => seatWord(ctx, s, me); // "you", or the player's name
  const face = (code, attrs = {}) => card(h, code, attrs, code && isWild(code, view.wild_mode) ? "wild" : "");
  const clickable = (action, el) => (legal.has(action) ? actionable(el, action, act, describe(action, ctx)) : el);

  // the seats' layouts: mine first, then the others in turn order
  const order = [];
  for (let i = 0; i < view.num_players; i++) order.push(((me ?? 0) + i) % view.num_players);
  const layouts = order.map((s) => {
    const slots = view.layouts[s].map((c, k) => {
      const slot = k + 1;
      const el = h("div", { class: "slot" }, face(c, { "data-anim": `slot:${s}:${slot}` }), h("span", { class: "num" }, slot));
      return s === me ? clickable(`wild ${slot}`, el) : el;
    });
    const turn = view.current_player === s && !view.outcome;
    return h("div", { class: `player ${turn ? "turn" : ""} ${s === me ? "mine" : ""}`, "data-testid": `layout-${s}` },
      h("div", { class: "who" }, ...seatHead(ctx, s, me), " · ",
        t("web.trash.size", { n: view.sizes[s] }), " · ", t("web.trash.won", { n: view.hands_won[s] }),
        turn ? h("span", { class: "to-play" }, " ", t("web.trash.to_play")) : null),
      h("div", { class: "slots" }, slots));
  });

  const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
  const stock = clickable("stock", h("div", { class: "pile", "data-testid": "stock" },
    view.stock_count ? card(h, null) : h("div", { class: "card empty" }),
    h("span", { class: "label" }, t("web.trash.stock", { n: view.stock_count }))));
  const discard = clickable("discard", h("div", { class: "pile", "data-testid": "discard" },
    top ? face(top, { "data-anim": "discard" }) : h("div", { class: "card empty", "data-anim": "discard" }),
    h("span", { class: "label" }, t("web.trash.discard_n", { n: view.discard.length }))));
  // motion.js: a card drawn comes from the stock; a card turned up from a slot, from that slot
  const came = view.events.filter((e) => e.kind === "draw" || e.kind === "turn_up").pop();
  const from = !came ? null : came.kind === "draw" ? "[data-testid=stock]" : `[data-anim="slot:${came.seat}:${came.slot ?? came.value}"]`;
  const hand = h("div", { class: "pile", "data-testid": "hand" },
    view.card_in_hand ? face(view.card_in_hand, { "data-anim": "hand", "data-from": from }) : h("div", { class: "card empty", "data-anim": "hand" }),
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
    view.outcome ? standings(ctx, order.map((s) => [name(s),
      `${t("web.trash.size", { n: view.sizes[s] })} · ${t("web.trash.won", { n: view.hands_won[s] })}`,
      view.outcome.winners.includes(s)])) : null,
    h("div", { class: "center" }, stock, discard, hand, h("div", { class: "actions" }, buttons)),
    h("p", { class: `tr-note ${note ? "on" : ""}`, "data-testid": "note", "data-said": said, role: "status" }, note && Date.now() < note.until ? note.text : ""),
    h("p", { class: "last", "data-testid": "last" }, last),
    h("div", { class: view.num_players > ROOMY_PLAYERS ? "players many" : "players" }, layouts),
    me === null || view.outcome ? null : legend(ctx, [["Enter", t("web.trash.legend.stock")], ["d", t("web.trash.legend.discard")],
      ["1–0", t("web.trash.legend.wild")], ["y/n", t("web.trash.legend.displace")], ["?", t("web.legend.help")]]),
    helpPanel(ctx, "trash", [t("web.trash.wild", { rank: t(`web.trash.wild.${view.wild_mode}`) }),
      t("web.trash.players", { n: view.num_players })], keys),
  ].filter(Boolean));
}
