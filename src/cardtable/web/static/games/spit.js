// Spit (docs/rules/spit.md) in the browser: render(root, view, ctx) from the seat's view only.
// Face-down stock cards and spit cards are counts in the view: drawn as backs.
// Click one of your stock piles, then a spit pile (or an empty space) to move its top. Keys as in
// the terminal: 1–5 choose a pile (again: drop it; with a pile chosen, the number of an empty space
// moves the card there), ←/→ or a/d play the chosen card (or any that fits) on S0/S1 and slap in
// the slap race, Space asks for a spit (again: withdraw), c then ←/→ picks a lone spitter's pile,
// Esc drops the chosen pile, ? the help.
import { joinList } from "../i18n.js";
import { actionable, card, cardLabel, helpPanel, keyboard, legend, onControl, seatHead, seatWord, standings, togglePanel } from "./shared.js";

export { cardLabel };

const NOTE_MS = 1500;
const FLASH_MS = 500;

let selected = null; // the stock pile (1-5) chosen as the source of the next move; kept across redraws
let choosing = false; // "c" was pressed: ←/→ picks the lone spitter's pile
let note = null; // {text, until}: a short answer to a key that did nothing
let before = null; // the view drawn before this one, to flash the piles that changed
let flashUntil = 0;
let drawn = null; // the view drawn last
let current = null; // {root, view, ctx} of the last drawing, for the timers' redraws

function later(ms) {
  setTimeout(() => {
    if (!current || !current.root.isConnected) return;
    render(current.root, current.view, current.ctx);
    if (current.ctx.redrawn) current.ctx.redrawn(); // the page's own parts of the board (the end banner's links)
  }, ms);
}

// An action in words (table/assist.js: the hint): "play A♠ from pile 1 onto S0".
export function describe(action, { t }) {
  const w = action.split(" ").slice(1);
  const c = w[2] ? cardLabel(w[2]) : "";
  if (w[0] === "play") return t("web.spit.say.play", { c, pile: w[1], k: w[3].slice(1) });
  if (w[0] === "fill") return t("web.spit.say.fill", { c, pile: w[1], space: w[3] });
  if (w[0] === "stack") return t("web.spit.say.stack", { c, pile: w[1], onto: w[3] });
  if (w[0] === "flip") return t("web.spit.say.flip", { pile: w[1] });
  if (w[0] === "slap" || w[0] === "choose") return t(`web.spit.say.${w[0]}`, { k: w[1].slice(1) });
  if (w[0] === "spit" || w[0] === "unspit") return t(`web.spit.say.${w[0]}`);
  return action;
}

// My legal actions by kind: moves by source pile ("play j CARD Sk" → "Sk", "fill/stack j CARD i" → "i"),
// and the others by their words ("flip j", "spit", "unspit", "slap Sk", "choose Sk").
function parse(view) {
  const moves = new Map();
  const other = new Map();
  for (const a of view.legal_actions) {
    const w = a.split(" ").slice(1);
    if (w[0] === "play" || w[0] === "fill" || w[0] === "stack") {
      const j = Number(w[1]);
      if (!moves.has(j)) moves.set(j, new Map());
      moves.get(j).set(w[3], a);
    } else {
      other.set(w.join(" "), a);
    }
  }
  return { moves, other };
}

const myTop = (view, j) => {
  const cards = view.stock[view.seat][j - 1];
  return cards.length ? cards[cards.length - 1] : null;
};

// ------------------------------------------------------------------ keys (the terminal's)
function say(live, key, values = {}) {
  note = { text: live.ctx.t(key, values), until: Date.now() + NOTE_MS };
  later(NOTE_MS + 20);
}

function go(live, action) {
  selected = null;
  choosing = false;
  note = null;
  live.ctx.act(action);
  render(live.root, live.view, live.ctx);
  return true;
}

function redraw(live) {
  render(live.root, live.view, live.ctx);
  return true;
}

// A stock pile chosen by its number.
function pileKey(live, n) {
  const { view } = live;
  const { moves, other } = parse(view);
  if (other.has(`flip ${n}`)) return go(live, other.get(`flip ${n}`));
  if (selected === null || selected === n) {
    if (selected === n) selected = null;
    else if (myTop(view, n)) selected = n;
    else say(live, "web.spit.note.empty", { n });
    return redraw(live);
  }
  const move = moves.get(selected)?.get(String(n));
  if (move) return go(live, move);
  if (myTop(view, n)) selected = n; // the other pile instead
  else say(live, "web.spit.note.no_space", { n });
  return redraw(live);
}

// A spit pile chosen by ←/→: choose it (a lone spitter), slap it, or play onto it.
function spitKey(live, k) {
  const { moves, other } = parse(live.view);
  if (choosing) {
    choosing = false;
    if (other.has(`choose S${k}`)) return go(live, other.get(`choose S${k}`));
    say(live, "web.spit.note.no_choose");
    return redraw(live);
  }
  if (other.has(`slap S${k}`)) return go(live, other.get(`slap S${k}`));
  if (selected !== null) {
    const play = moves.get(selected)?.get(`S${k}`);
    if (play) return go(live, play);
    selected = null;
    say(live, "web.spit.note.no_fit", { k });
    return redraw(live);
  }
  for (const targets of moves.values()) if (targets.has(`S${k}`)) return go(live, targets.get(`S${k}`));
  say(live, "web.spit.note.nothing", { k });
  return redraw(live);
}

const live = keyboard((e, lv) => {
  const { root, view } = lv;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key === "?") {
    togglePanel(root, "spit.help");
    return true;
  }
  if (view.seat === null || view.outcome || view.phase === "over" || e.repeat) return false;
  if (/^[1-5]$/.test(key)) return pileKey(lv, Number(key));
  if (key === "ArrowLeft" || key === "a") return spitKey(lv, 0);
  if (key === "ArrowRight" || key === "d") return spitKey(lv, 1);
  if (key === " ") {
    if (onControl(e)) return false;
    const { other } = parse(view);
    const action = other.get("spit") || other.get("unspit");
    if (action) return go(lv, action);
    say(lv, "web.spit.note.no_spit");
    return redraw(lv);
  }
  if (key === "c") {
    if ([...parse(view).other.keys()].some((w) => w.startsWith("choose "))) choosing = true;
    else say(lv, "web.spit.note.no_choose");
    return redraw(lv);
  }
  if (key === "Escape" && (selected !== null || choosing)) {
    selected = null;
    choosing = false;
    return redraw(lv);
  }
  return false;
});

// ------------------------------------------------------------------ drawing
export function render(root, view, ctx) {
  const { h, t, act } = ctx;
  live(root, view, ctx);
  current = { root, view, ctx };
  if (drawn !== view) {  // a new state: flash the piles that changed for a moment
    before = drawn && drawn.round === view.round && drawn.seat === view.seat ? drawn : null;
    drawn = view;
    flashUntil = Date.now() + FLASH_MS;
    if (before) later(FLASH_MS + 20);
  }
  if (Date.now() >= flashUntil) before = null;
  const me = view.seat;
  const opp = me === null ? 1 : 1 - me;
  const bottom = me === null ? 0 : me;
  const name = (s) => seatWord(ctx, s, me); // "you", or the player's name
  const { moves, other } = parse(view);
  if (selected !== null && (me === null || view.phase !== "play" || !myTop(view, selected))) selected = null;
  if (choosing && !(view.phase === "play" || view.phase === "spit_pending")) choosing = false;
  if (note && Date.now() >= note.until) note = null;
  const targets = selected === null ? new Map() : (moves.get(selected) || new Map());
  const mark = (el, action) => actionable(el, action, goClick, describe(action, ctx));
  const goClick = (action) => { selected = null; choosing = false; act(action); };
  const changed = (a, b) => JSON.stringify(a) !== JSON.stringify(b);

  const pileRow = (s) => view.stock[s].map((cards, k) => {
    const j = k + 1;
    const down = view.face_down[s][k];
    const top = cards.length ? cards[cards.length - 1] : null;
    const flash = before && (changed(before.stock[s][k], cards) || before.face_down[s][k] !== down);
    // same-rank stacking: ×n face-up cards; +n face-down beneath
    const count = [cards.length > 1 ? `×${cards.length}` : "", down ? `+${down}` : ""].filter(Boolean).join(" ");
    const el = h("div", { class: `sp-pile ${flash ? "changed" : ""}`, "data-testid": s === me ? `my-pile-${j}` : `pile-${s}-${j}` },
      top ? card(h, top, { "data-anim": `pile:${s}:${j}` }) : down ? card(h, null, { "data-anim": `pile:${s}:${j}` })
        : h("div", { class: "card empty", "data-anim": `pile:${s}:${j}` }),
      h("span", { class: "num" }, count ? `${j} · ${count}` : `${j}`));
    if (s !== me) return el;
    if (selected === j) el.classList.add("selected");
    if (moves.has(j)) {
      el.classList.add("legal");
      el.setAttribute("data-legal", `select ${j}`);
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-label", t("web.spit.select", { n: j }));
      const pick = () => {
        selected = selected === j ? null : j;
        render(root, view, ctx);
      };
      el.addEventListener("click", pick);
      el.addEventListener("keydown", (e) => { if (e.key === "Enter") pick(); });
    } else if (other.has(`flip ${j}`)) {
      mark(el, other.get(`flip ${j}`));
    } else if (targets.has(String(j))) {
      mark(el, targets.get(String(j)));
      el.classList.add("target");
    }
    return el;
  });

  const spitPile = (k) => {
    const top = view.spit_tops[k];
    const whose = me === null ? "" : k === me ? t("web.spit.yours") : t("web.spit.theirs");
    const flash = before && before.spit_tops[k] !== top;
    const el = h("div", { class: `sp-centre ${flash ? "changed" : ""} ${view.phase === "slap" && top ? "slap" : ""}`, "data-testid": `spit-${k}` },
      // motion.js: a card played here flies from its pile; a spit card from its owner's spit cards
      top ? card(h, top, { "data-anim": `spit:${k}`, "data-from": `[data-testid="spit-cards-${k}"]` })
        : h("div", { class: "card empty", "data-anim": `spit:${k}` }),
      h("span", { class: "num" }, [`S${k}`, whose, top ? t(view.spit_sizes[k] === 1 ? "web.spit.size1" : "web.spit.size", { n: view.spit_sizes[k] }) : t("web.spit.unused")]
        .filter(Boolean).join(" · ")));
    const play = targets.get(`S${k}`);
    const slap = other.get(`slap S${k}`) || other.get(`choose S${k}`);
    if (play) {
      mark(el, play);
      el.classList.add("target");
    } else if (slap) {
      mark(el, slap);
    }
    return el;
  };
  // a seat's spit cards lie on that seat's side, after its stock piles, labelled with its count
  const spitCards = (s) => h("div", { class: "sp-spitcards", "data-testid": `spit-cards-${s}`, title: name(s) },
    view.spit_cards[s] ? card(h, null) : h("div", { class: "card empty" }),
    h("span", { class: "num" }, t("web.spit.spit_cards", { n: view.spit_cards[s] })));

  const buttons = [];
  for (const [key, label] of [["spit", "web.spit.spit"], ["unspit", "web.spit.unspit"]]) {
    if (other.has(key)) {
      buttons.push(mark(h("button", { type: "button", class: "primary", "data-testid": key }, t(label)), other.get(key)));
    }
  }

  let status;
  const canChoose = [...other.keys()].some((w) => w.startsWith("choose "));
  if (view.outcome) {
    const w = view.outcome.winners;
    status = w.length !== 1 ? t("web.spit.draw") : w[0] === me ? t("web.spit.you_won") : t("web.spit.winner", { who: name(w[0]) });
  } else if (view.phase === "slap") {
    status = t("web.spit.slap");
  } else if (choosing) {
    status = t("web.spit.choosing");
  } else if (canChoose) {
    status = t("web.spit.choose");
  } else if (view.phase === "spit_pending") {
    status = t("web.spit.pending");
  } else if (selected !== null) {
    status = t("web.spit.pick_target", { n: selected });
  } else if (view.spit_requests.some(Boolean)) {
    status = t("web.spit.requested", { who: joinList(view.spit_requests.map((r, s) => (r ? name(s) : null)).filter((x) => x !== null)) });
  } else {
    status = me === null ? t("web.spit.watching") : t("web.spit.play");
  }
  const phase = view.outcome ? null : h("span", { class: `sp-phase sp-${view.phase}`, "data-testid": "phase" }, t(`web.spit.phase.${view.phase}`));
  // a seat's line, as in the terminal: cards held, spit cards (a count; on a phone only here), points
  const who = (s) => h("div", { class: "who" }, ...seatHead(ctx, s, me), " · ",
    t("web.spit.held", { n: view.cards_held[s] }), h("span", { class: "sp-spitcount" }, " · ", t("web.spit.spit_cards", { n: view.spit_cards[s] })),
    view.scoring === "points" ? ` · ${t("web.spit.points", { n: view.scores[s] })}` : "");
  const lastEvent = view.events.length ? view.events[view.events.length - 1].text : "";

  let result = null;
  if (view.outcome) {  // the cards each seat had left when the last round was collected (SP-26), as the terminal shows
    const held = view.cards_held.slice();
    for (const e of view.events) if (e.kind === "collect" && e.seat !== null && e.value !== null) held[e.seat] = e.value;
    result = standings(ctx, [bottom, opp].map((s) => [name(s),
      t("web.spit.cards_left", { n: held[s] }) + (view.scoring === "points" ? ` · ${t("web.spit.points", { n: view.scores[s] })}` : ""),
      view.outcome.winners.includes(s)]));
  }

  const keys = [["1 … 5", t("web.spit.key.pile")], ["← / →, a / d", t("web.spit.key.play")], [t("web.key.space"), t("web.spit.key.spit")],
    ["c", t("web.spit.key.choose")], ["Esc", t("web.spit.key.cancel")], [t("web.key.mouse"), t("web.spit.key.mouse"), true], ["?", t("web.key.help")]];
  root.replaceChildren(...[
    h("div", { class: `status-bar ${view.outcome ? "over" : ""}`, "data-testid": "status" },
      h("span", { class: "hand-no" }, t("web.spit.round", { n: view.round })), " ", phase, " ", h("b", {}, status),
      view.outcome ? h("a", { href: "/", "data-link": true, class: "again", "data-testid": "again" }, t("web.again")) : null),
    result,
    h("div", { class: "player sp-side", "data-testid": `side-${opp}` }, who(opp), h("div", { class: "sp-row" }, pileRow(opp), spitCards(opp))),
    h("div", { class: "sp-middle" }, spitPile(0), spitPile(1),
      h("div", { class: "actions" }, buttons),
      view.lone_pile !== null && view.lone_pile !== undefined && view.phase !== "slap"
        ? h("span", { class: "sp-lone", "data-testid": "lone" }, t("web.spit.lone", { k: view.lone_pile })) : null),
    h("div", { class: `player sp-side mine`, "data-testid": `side-${bottom}` }, h("div", { class: "sp-row" }, pileRow(bottom), spitCards(bottom)), who(bottom)),
    h("p", { class: `sp-note ${note ? "on" : ""}`, "data-testid": "note", role: "status" }, note ? note.text : ""),
    h("p", { class: "last", "data-testid": "last" }, lastEvent),
    me === null || view.outcome ? null : legend(ctx, [["1–5", t("web.spit.legend.pile")], ["←/→", t("web.spit.legend.play")],
      [t("web.key.space"), t("web.spit.legend.spit")], ["c", t("web.spit.legend.choose")], ["Esc", t("web.spit.legend.cancel")],
      ["?", t("web.legend.help")]]),
    helpPanel(ctx, "spit", [t(`web.spit.scoring.${view.scoring}`)], keys),
  ].filter(Boolean));
}
