// cardtable in the browser: the lobby, a table's seats, and the game socket.
// No build step: plain ES modules. A game's renderer is static/games/<game>.js,
// exporting render(root, view, ctx). Text from the server is always set as text,
// never as HTML.
import { has, joinList, loadLang, plain, preferredLang, t, lang } from "./i18n.js";
import { ownText } from "./events.js";
import { cardLabel } from "./games/shared.js";
import { replayPage, stopReplay } from "./replay.js";
import { howtoPage } from "./howto.js";
import { fairPanel, fairStep, newCommitment } from "./fair.js";
import { animate, capture } from "./motion.js";
import { gameAbout, optionDoc, optionLabel, presetDoc, presetLabel, valueText } from "./words.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const app = document.getElementById("app");
const connEl = document.getElementById("conn");
const store = {
  get(k) { try { return JSON.parse(localStorage.getItem(k)); } catch { return null; } },
  set(k, v) { localStorage.setItem(k, JSON.stringify(v)); },
};

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.message || r.statusText);
  return data;
}

// A new table, hosted with this page's one host token (the server's cap on open tables per
// token counts them together); the server gives a token with the first table.
async function newTable(body) {
  const held = store.get("ct.host");
  const data = await api("/api/tables", held ? { ...body, host: held } : body);
  store.set("ct.host", data.host);
  store.set(`ct.host.${data.table.id}`, data.host);
  return data;
}

// A person takes `seat` of `table` (its public info): the page commits to a fair-deal seed of
// its own with the sit (fair.js).
async function sitAt(table, seat, name) {
  const body = { seat, name };
  if (table.fair) body.commitment = await newCommitment(table.id, seat, table.fair.server_commitment);
  return api(`/api/tables/${table.id}/sit`, body);
}

// Bots have a name by their seat and a level label in the page's language ("Ben · sensible bot").
const BOT_NAMES = ["Ana", "Ben", "Cleo", "Dani", "Eva", "Fede", "Gala", "Hugo"];

export function botLevel(name) {
  const m = /^(policy|reaction)-(.+)$/.exec(name);
  return m ? t(`web.bot.style.${m[1]}`, { level: t(`web.bot.level.${m[2]}`) }) : t(`web.bot.level.${name}`);
}

function seatName(s) {
  if (s.kind === "open") return t("web.seat_open");
  if (s.kind === "bot") return t("web.bot.named", { name: BOT_NAMES[s.seat % BOT_NAMES.length], level: botLevel(s.name) });
  return s.name;
}

// The name a sentence calls a seat by ("Ben wins the trick"; a person's own name), and what a
// seat's box adds under it ("medium bot"; nothing for a person).
export function personName(s) {
  if (s.kind === "open") return t("web.seat_open");
  return s.kind === "bot" ? BOT_NAMES[s.seat % BOT_NAMES.length] : s.name;
}

export function personKind(s) { return s.kind === "bot" ? t("web.bot.kind", { level: botLevel(s.name) }) : ""; }

const UNDO_REFUSALS = ["undo_off", "undo_people", "undo_nothing", "undo_realtime"]; // said in the page's language
const AUTO_ANSWER_MS = 700; // a one-answer question stays on screen this long before the page answers it

function flash(message) {
  const el = h("div", { class: "flash", role: "alert", "data-testid": "flash" }, plain(message));
  document.body.append(el);
  setTimeout(() => el.remove(), 4000);
  return el;
}

// ------------------------------------------------------------------ lobby
// Every game, preset and option with its name and a one-line explanation on the page (a phone has
// no hover), what each game is and a link to its How to play page.
async function lobby() {
  document.title = "cardtable";
  const { games } = await api("/api/games");
  const { tables } = await api("/api/tables");
  const gameSel = h("select", { id: "game", "data-testid": "game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const about = h("p", { class: "about", "data-testid": "game-about" });
  const howtoLink = h("a", { "data-testid": "howto-link", "data-link": true });
  const presetSel = h("select", { id: "preset", "data-testid": "preset" });
  const presetNote = h("p", { class: "option-doc", "data-testid": "preset-doc" });
  const players = h("input", { id: "players", type: "number", min: 2, max: 8, value: 2, "data-testid": "players" });
  const playersLabel = h("span", {}, t("web.players"));
  const playersRow = h("label", {}, playersLabel, " ", players);
  const more = h("div", { class: "options" });
  let touched = new Map(); // option name -> () => value, only for the options the user changed
  const optionControl = (game, o) => {
    let input;
    if (o.choices) {
      input = h("select", {}, o.choices.map((c) => h("option", { value: String(c) }, valueText(game, o.name, c))));
      input.value = String(o.default);
    } else if (o.type === "bool") {
      input = h("input", { type: "checkbox" });
      input.checked = Boolean(o.default);
    } else if (o.type === "int" || o.type === "float") {
      input = h("input", { type: "number", step: o.type === "int" ? 1 : "any", min: o.minimum ?? undefined,
        max: o.maximum ?? undefined, placeholder: o.default === null ? t("web.lobby.none") : String(o.default), size: 6 });
      if (o.default !== null) input.value = o.default;
    } else {
      input = h("input", { value: Array.isArray(o.default) ? o.default.join(",") : (o.default ?? "") });
    }
    input.setAttribute("data-option", o.name);
    input.addEventListener("change", () => touched.set(o.name, () => {
      if (input.type === "checkbox") return input.checked;
      if (input.type === "number") return input.value === "" ? null : Number(input.value);
      if (o.choices) return o.choices.find((c) => String(c) === input.value); // true stays true, not "true"
      if (o.type === "tuple") return input.value.split(",").map((x) => Number(x.trim()));
      return input.value;
    }));
    const id = `opt-${o.name}`;
    input.id = id;
    return h("div", { class: "option", "data-testid": `option-${o.name}`, title: o.doc },
      h("label", { for: id }, h("b", {}, optionLabel(game, o.name)), " ", input),
      h("p", { class: "option-doc" }, optionDoc(game, o.name, o.doc), " ",
        h("span", { class: "muted" }, `(${t("web.lobby.default", { value: valueText(game, o.name, o.default) })})`)));
  };
  const fill = () => {
    const g = games.find((x) => x.name === gameSel.value);
    about.textContent = gameAbout(g.name);
    howtoLink.textContent = t("web.lobby.howto", { game: g.title });
    howtoLink.href = `/howto/${g.name}`;
    presetSel.replaceChildren(...Object.keys(g.presets).map((p) => h("option", { value: p, title: g.presets[p] }, presetLabel(g.name, p))));
    const opt = g.options.find((o) => o.name === "players");
    playersRow.hidden = !opt;
    if (opt) {
      players.min = opt.minimum; players.max = opt.maximum; players.value = opt.default;
      playersLabel.textContent = optionLabel(g.name, "players");
    }
    touched = new Map();
    more.replaceChildren(...g.options.filter((o) => o.name !== "players").map((o) => optionControl(g.name, o)));
    presetNote.textContent = presetDoc(g.name, presetSel.value, g.presets[presetSel.value]);
  };
  if (games.some((g) => g.name === "trash")) gameSel.value = "trash";  // the first game people meet
  gameSel.addEventListener("change", fill);
  presetSel.addEventListener("change", () => {
    const g = games.find((x) => x.name === gameSel.value);
    presetNote.textContent = presetDoc(g.name, presetSel.value, g.presets[presetSel.value]);
  });
  fill();
  // the creator takes seat 0 at once, unless they untick it (the name is kept for the next table)
  const sitBox = h("input", { type: "checkbox", "data-testid": "create-sit" });
  sitBox.checked = store.get("ct.sit") !== false;  // sitting is the default; a host who only watches unticks it
  const myName = h("input", { maxlength: 25, size: 12, placeholder: t("web.your_name"), "data-testid": "create-name",
    value: store.get("ct.name") || "" });
  const create = async (ev) => {
    ev.preventDefault();
    const options = playersRow.hidden ? {} : { players: Number(players.value) };
    for (const [name, value] of touched) options[name] = value();
    try {
      const body = { game: gameSel.value, preset: presetSel.value, options };
      if (undoBox.checked) body.undo = true;
      const data = await newTable(body);
      const id = data.table.id;
      const name = myName.value.trim();
      store.set("ct.sit", sitBox.checked);
      if (sitBox.checked) {  // the creator takes seat 0 at once, by the name given or the server's "Player 1"
        if (name) store.set("ct.name", name);
        const sat = await sitAt(data.table, 0, name);
        store.set(`ct.seat.${id}`, { seat: 0, token: sat.token });
      }
      go(`/t/${id}`);
    } catch (e) { flash(e.message); }
  };
  // undo against bots (docs/web.md): a table option, offered for the turn-based games only
  const undoBox = h("input", { type: "checkbox", id: "opt-undo", "data-testid": "create-undo" });
  const undoRow = h("div", { class: "option", "data-testid": "option-undo" },
    h("label", { for: "opt-undo" }, h("b", {}, t("web.lobby.undo")), " ", undoBox),
    h("p", { class: "option-doc" }, t("web.lobby.undo_doc"), " ",
      h("span", { class: "muted" }, `(${t("web.lobby.default", { value: t("web.lobby.no") })})`)));
  const fillUndo = () => {
    const g = games.find((x) => x.name === gameSel.value);
    undoRow.hidden = !g.undo;
    if (!g.undo) undoBox.checked = false;
  };
  gameSel.addEventListener("change", fillUndo);
  fillUndo();
  const freeOnly = h("input", { type: "checkbox", "data-testid": "free-only" });
  freeOnly.checked = Boolean(store.get("ct.free_only"));
  const list = h("div", { "data-testid": "tables" });
  const fillList = () => {
    store.set("ct.free_only", freeOnly.checked);
    // a free seat: an open table with a seat nobody holds yet
    const shown = tables.slice().reverse().filter((tb) => !freeOnly.checked
      || (tb.status === "open" && tb.seats.some((s) => s.kind === "open")));
    list.replaceChildren(shown.length
      ? h("ul", { class: "tables" }, shown.map((tb) => h("li", { "data-testid": `table-${tb.id}` },
          h("a", { href: `/t/${tb.id}`, "data-link": true }, `${tb.title} · ${presetLabel(tb.game, tb.preset)}`), " ",
          h("span", { class: "muted" }, t(`web.status.${tb.status}`), " · ", joinList(tb.seats.map(seatName))))))
      : h("p", { class: "muted" }, t(freeOnly.checked && tables.length ? "web.lobby.no_free" : "web.no_tables")));
  };
  freeOnly.addEventListener("change", fillList);
  fillList();
  app.replaceChildren(
    h("section", { class: "card-panel" },
      h("h1", {}, t("web.new_table")),
      h("form", { class: "create", onsubmit: create },
        h("label", {}, t("web.game"), " ", gameSel),
        h("div", { class: "about-row" }, about, howtoLink),
        h("label", {}, t("web.preset"), " ", presetSel),
        presetNote,
        playersRow,
        h("label", {}, sitBox, " ", t("web.lobby.sit_as"), " ", myName),
        h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("web.create")),
        h("details", { class: "more" }, h("summary", {}, t("web.more_options")), undoRow, more))),
    h("section", { class: "card-panel" }, h("h2", {}, t("web.open_tables")),
      h("label", { class: "filter" }, freeOnly, " ", t("web.lobby.free_seat")), list));
}

// ------------------------------------------------------------------ table
let current = null; // the table page's state

async function tablePage(id) {
  if (current) current.stop();
  let info;
  try { info = (await api(`/api/tables/${encodeURIComponent(id)}`)).table; } catch (e) {
    app.replaceChildren(h("p", { class: "card-panel" }, t("web.no_table")), h("a", { href: "/", "data-link": true }, t("web.back")));
    return;
  }
  const renderer = await import(`./games/${info.game}.js`).catch(() => null);
  const { games } = await api("/api/games");
  current = new TablePage(info, renderer, games.find((g) => g.name === info.game)?.bots || ["random"]);
  current.connect();
}

class TablePage {
  constructor(info, renderer, botNames) {
    this.info = info;
    this.botNames = botNames;
    this.botChoice = {};
    this.nameDraft = {}; // names typed at open seats, kept (with the focus) across redraws
    this.renderer = renderer;
    this.host = store.get(`ct.host.${info.id}`);
    this.mine = store.get(`ct.seat.${info.id}`); // {seat, token}
    this.seq = store.get(`ct.seq.${info.id}`) || 0;
    this.version = null;
    this.logged = null;
    this.view = null;
    this.log = [];
    this.lastSeq = null; // the seq of the last event in the log
    this.backoff = 500;
    this.stopped = false;
    this.el = {
      seats: h("section", { class: "seats card-panel", "data-testid": "seats" }),
      board: h("section", { class: "board", "data-testid": "board" }),
      log: h("ol", { class: "log", "data-testid": "log" }),
      chatLog: h("ol", { class: "log chat-log", "data-testid": "chat-log" }),
    };
    const chatInput = h("input", { maxlength: 250, placeholder: t("web.chat_placeholder"), "data-testid": "chat-input" });
    this.el.chatForm = h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = chatInput.value.trim();
      if (text) this.send({ type: "chat", text });
      chatInput.value = "";
    } }, chatInput, h("button", { type: "submit", "data-testid": "chat-send" }, t("web.chat_send")));
    // a spectator reads the chat and is told why there is nothing to write in
    this.el.chatNote = h("p", { class: "muted chat-note", "data-testid": "chat-readonly", hidden: true }, t("web.chat.readonly"));
    this.el.countdown = h("div", { class: "countdown", "data-testid": "countdown", role: "status", hidden: true });
    const link = location.origin + `/t/${info.id}`;
    app.replaceChildren(
      h("div", { class: "table-head" },
        h("h1", {}, info.title, " ", h("span", { class: "muted" }, presetLabel(info.game, info.preset))),
        h("label", { class: "share" }, t("web.share"), " ",
          h("input", { readonly: true, value: link, "data-testid": "share", onclick: (e) => e.target.select() }),
          h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link) }, t("web.copy")))),
      h("div", { class: "layout" }, this.el.board,
        h("aside", {}, this.el.seats, h("section", { class: "card-panel" }, h("h2", {}, t("web.log")), this.el.log),
          h("section", { class: "card-panel", "data-testid": "chat" }, h("h2", {}, t("web.chat")),
            this.el.chatLog, this.el.chatForm, this.el.chatNote))), this.el.countdown);
    this.renderSeats();
  }

  stop() { this.stopped = true; clearInterval(this.ticker); clearInterval(this.overTicker); if (this.ws) this.ws.close(); }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.info.id}`);
    this.ws = ws;
    connEl.textContent = t("web.connecting");
    ws.onopen = () => {
      const hello = { type: "hello", lang };
      if (this.mine) hello.token = this.mine.token;
      if (this.version !== null) hello.since = this.version;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => this.onFrame(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (this.ws !== ws || this.stopped) return;
      this.seated = false;
      this.el.chatForm.hidden = true;
      connEl.textContent = t("web.offline");
      if (ev.code === 4001 || ev.code === 4003 || ev.code === 4005) {
        store.set(`ct.seat.${this.info.id}`, null); this.mine = null;
      }
      if (ev.code === 4003) flash(t("web.left"));
      if (ev.code === 4005) flash(t("web.freed"));
      if (ev.code === 4000) { connEl.textContent = t("web.replaced"); return; }
      const wait = this.backoff * (0.75 + Math.random() / 2);
      this.backoff = Math.min(this.backoff * 2, 5000);
      setTimeout(() => this.connect(), wait);
    };
  }

  send(msg) { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg)); }

  act(action) {
    this.actedOn = this.version; // the page answers no question the person already answered
    this.seq += 1;
    store.set(`ct.seq.${this.info.id}`, this.seq);
    const msg = { type: "act", seq: this.seq, action };
    if (this.version !== null) msg.version = this.version; // a Spit play overtaken by another: lost_race
    this.send(msg);
  }

  onFrame(f) {
    switch (f.type) {
      case "welcome":
        this.backoff = 500;
        this.seated = f.seat !== null; // this socket speaks for a seat: chat and hints go
        // a new socket: what the page answered or sent on the old one may never have arrived, so a
        // question still open (the state that follows says) is answered again
        this.answered = null; this.actedOn = null;
        this.seatNo = f.seat;
        this.el.chatLog.replaceChildren(); // the table's chat lines follow the welcome again
        connEl.textContent = t("web.online");
        if (typeof f.seq === "number") this.seq = Math.max(this.seq, f.seq);
        this.info = f.table; this.renderSeats(); this.fairTurn();
        this.answerAlone(); // a state that came before this welcome waited for the seat to be known
        break;
      case "table":
        this.info = f.table; this.renderSeats(); this.fairTurn(); break;
      case "events":
        for (const e of f.events) e.text = ownText(this.info.game, e, this.seatNo, this.names());
        for (const e of f.events) if (this.logged === null || e.version > this.logged) this.addLog(e);
        this.logged = f.version;
        break;
      case "state":
        for (const e of f.view.events) e.text = ownText(this.info.game, e, f.view.seat, this.names());
        if (this.logged === null || f.version > this.logged) for (const e of f.view.events) this.addLog(e, f.view);
        this.logged = f.version;
        if (f.version !== this.version) this.dropHint();
        this.version = f.version; this.view = f.view; this.renderBoard(); this.answerAlone(); break;
      case "chat":
        for (const m of f.messages) this.addChat(m);
        break;
      case "hint":
        this.showHint(f);
        break;
      case "undo":
        this.undone(f);
        break;
      case "error":
        if (f.code === "lost_race") flash(t("web.too_late"));
        else if (UNDO_REFUSALS.includes(f.code)) flash(t(`web.undo.${f.code}`));
        else if (has(`web.error.${f.code}`)) flash(t(`web.error.${f.code}`)); // said in the page's language
        else flash(f.message); // an illegal or malformed action: the server's words name what was wrong
        break;
      default: break;
    }
  }

  // "What happened": each event once (a resent or merged frame repeats some), numbered by its
  // place in the game (Event.seq counts from 0), however many lines the list keeps.
  // A game may add cards to a line (Trex: the hand shown for a redeal, from the state's view).
  addLog(e, view = null) {
    if (typeof e.seq === "number") {
      if (this.lastSeq !== null && e.seq <= this.lastSeq) return;
      this.lastSeq = e.seq;
    }
    this.log.push(e.text);
    const cards = this.renderer && this.renderer.logCards ? this.renderer.logCards(e, view) : null;
    this.el.log.append(h("li", { value: typeof e.seq === "number" ? e.seq + 1 : null, "data-seq": e.seq }, e.text,
      cards ? h("span", { class: "log-cards", "data-testid": "log-cards" }, ": ", cards.map(cardLabel).join(" ")) : null));
    while (this.el.log.childElementCount > 60) this.el.log.firstChild.remove();
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  // A question with one answer (Trex: "keep" with nothing to show, "done" with nothing to double;
  // a single card to play; Trash: the one slot a wild fits) is answered by the page after a
  // moment, and the log says so. The server still asks every seat (asking leaks nothing). What a
  // game's renderer lists in PACE stays a key press or a click, as in the terminal
  // (host/forced.py): Trash's draw from the stock is the turn itself. A real-time game (Spit)
  // always leaves the moment to the player.
  answerAlone() {
    const view = this.view;
    const v = this.version;
    if (!this.mine || !this.seated || !view || view.outcome || view.seat !== this.mine.seat) return;
    if (view.current_player !== view.seat || view.legal_actions.length !== 1 || this.answered === v) return;
    if (this.renderer && this.renderer.holding && this.renderer.holding()) return; // asked again on resume (ctx.resume)
    const action = view.legal_actions[0];
    if (this.renderer && this.renderer.PACE && this.renderer.PACE.has(action)) return; // the player's own pace
    this.answered = v;
    setTimeout(() => {
      if (this.stopped || this.version !== v || this.actedOn === v) return;
      if (this.view.legal_actions.length !== 1 || this.view.legal_actions[0] !== action) return;
      const said = this.renderer && this.renderer.describe ? this.renderer.describe(action, { t }) : action;
      this.el.log.append(h("li", { class: "auto", "data-testid": "auto-answer" }, t("web.auto_answer", { action: said })));
      this.el.log.scrollTop = this.el.log.scrollHeight;
      this.act(action);
    }, AUTO_ANSWER_MS);
  }

  // Undo (docs/web.md): the lines of the moves taken back leave the log, one line says what
  // was taken back, and the state frame that follows redraws the board at the earlier position.
  undone(f) {
    if (typeof f.next_event === "number") {
      for (const li of [...this.el.log.querySelectorAll("li[data-seq]")]) {
        if (Number(li.dataset.seq) >= f.next_event) li.remove();
      }
      this.lastSeq = f.next_event - 1;
    }
    this.logged = f.version;
    this.answered = null; this.actedOn = null; // the position's questions are asked again
    let text;
    if (typeof f.move === "string") {
      const said = this.renderer && this.renderer.describe ? this.renderer.describe(f.move, { t }) : f.move;
      text = t("web.undo.yours", { move: said, n: f.taken });
    } else {
      text = t("web.undo.other", { name: this.names()[f.seat] || "", n: f.taken });
    }
    this.el.log.append(h("li", { class: "auto undo", "data-testid": "undo-line" }, text));
    this.el.log.scrollTop = this.el.log.scrollHeight;
  }

  // Undo is offered to the one person at a table of bots that allows it, while the game runs.
  undoAllowed() {
    const info = this.info;
    return Boolean(info.undo && this.mine && this.seated && info.status === "playing"
      && !(this.view && this.view.outcome)
      && info.seats.every((s) => s.seat === this.mine.seat || s.kind === "bot"));
  }

  askUndo() { if (this.undoAllowed()) this.send({ type: "undo" }); }

  addChat(m) {
    this.el.chatLog.append(h("li", {}, h("b", {}, m.name), ": ", m.text));
    while (this.el.chatLog.childElementCount > 50) this.el.chatLog.firstChild.remove();
    this.el.chatLog.scrollTop = this.el.chatLog.scrollHeight;
  }

  // A real-time game stands still while a player is away, then counts down (R9); it starts with a
  // countdown too (ready, 3, 2, 1), drawn over the table as the terminal does.
  pauseNote() {
    clearInterval(this.ticker);
    clearInterval(this.overTicker);
    const p = this.info.pause;
    const over = this.el.countdown;
    over.hidden = true;
    if (!p) return null;
    if (p.countdown !== null) {
      const end = Date.now() + p.countdown * 1000;
      const tick = () => {
        const n = Math.max(0, Math.ceil((end - Date.now()) / 1000));
        over.replaceChildren(h("span", { class: "ready" }, t("web.countdown.ready")), h("b", {}, n ? String(n) : t("web.countdown.go")));
      };
      over.hidden = false;
      tick();
      this.overTicker = setInterval(tick, 100);
    }
    const el = h("p", { class: "pause-note", role: "status", "data-testid": "pause" });
    if (p.countdown === null) {
      el.textContent = t("web.paused", { who: joinList(p.waiting.map((s) => this.names()[s])) });
    } else {
      const end = Date.now() + p.countdown * 1000;
      const tick = () => { el.textContent = t("web.resuming", { n: Math.max(0, Math.ceil((end - Date.now()) / 1000)) }); };
      tick();
      this.ticker = setInterval(tick, 250);
    }
    return el;
  }

  // The hint bot's advice from this seat's view: said in words ("Suggested: draw from the stock"),
  // and its control outlined. It answers one position: a reply for another (the table moved on
  // while the bot thought) is dropped, and the toast goes as soon as the next state comes.
  showHint(f) {
    if (f.version !== this.version) return;
    this.dropHint();
    const said = this.renderer && this.renderer.describe ? this.renderer.describe(f.action, { t, view: this.view }) : f.action;
    this.hintToast = flash(t("web.hint_says", { action: said }));
    this.hintToast.dataset.version = f.version;
    const parts = f.action.split(" ");
    const pile = parts[1] === "play" || parts[1] === "fill" ? `select ${parts[2]}` : null; // Spit: the pile first
    for (const key of [f.action, pile]) {
      const el = key && this.el.board.querySelector(`[data-legal="${CSS.escape(key)}"]`);
      if (el) { el.classList.add("hinted"); el.focus?.(); break; }
    }
  }

  dropHint() {
    if (this.hintToast) this.hintToast.remove();
    this.hintToast = null;
  }

  // this seat's step in the fair deal (commit again, reveal), whenever the table changes
  fairTurn() {
    if (!this.seated) return;
    fairStep(this.info, this.mine, api).then((lost) => { if (lost) flash(t("web.fair.lost_seed")); })
      .catch((e) => flash(e.message));
  }

  askHint() {
    if (this.seated && this.view && this.view.legal_actions.length) this.send({ type: "hint" });
  }

  // Rematch (the host, once the game is over): a new table of the same game, preset and options,
  // this person at their seat, the same bots at theirs; started at once when nobody else is to
  // come, else the new link goes to the old table's chat for the others.
  async rematch() {
    const info = this.info;
    try {
      const data = await newTable({ game: info.game, preset: info.preset, options: info.options || {},
        ...(info.undo ? { undo: true } : {}) });
      const id = data.table.id;
      const mine = this.mine ? info.seats[this.mine.seat] : null;
      if (mine) {
        const sat = await sitAt(data.table, mine.seat, mine.name);
        store.set(`ct.seat.${id}`, { seat: mine.seat, token: sat.token });
      }
      let fresh = data.table;
      for (const s of info.seats) {
        if (s.kind === "bot") fresh = (await api(`/api/tables/${id}/bot`, { host: data.host, seat: s.seat, bot: s.name })).table;
      }
      if (mine) await fairStep(fresh, store.get(`ct.seat.${id}`), api); // every seat committed: reveal before the start
      if (info.seats.every((s) => s.kind === "bot" || (mine && s.seat === mine.seat))) {
        await api(`/api/tables/${id}/start`, { host: data.host });
      } else {
        this.send({ type: "chat", text: t("web.rematch.chat", { link: `${location.origin}/t/${id}` }) });
      }
      go(`/t/${id}`);
    } catch (e) { flash(e.message); }
  }

  rematchButton(testid) {
    if (!this.host || !(this.info.status === "over" || (this.view && this.view.outcome))) return null;
    return h("button", { type: "button", class: "primary", "data-testid": testid, title: t("web.rematch.title"),
      onclick: () => this.rematch() }, t("web.rematch"));
  }

  async leave() {
    if (this.info.status === "playing" && !confirm(t("web.leave_confirm"))) return;
    try {
      await api(`/api/tables/${this.info.id}/leave`, { token: this.mine.token });
    } catch (e) { flash(e.message); }
  }

  names() { return this.info.seats.map(personName); }

  kinds() { return this.info.seats.map(personKind); }

  renderSeats() {
    const info = this.info;
    const open = info.status === "open";
    const rows = info.seats.map((s) => {
      const mine = this.mine && this.mine.seat === s.seat;
      const label = seatName(s);
      const controls = [];
      if (open && s.kind === "open") {
        if (!this.mine) {
          const testid = `name-${s.seat}`;
          const name = h("input", { placeholder: t("web.your_name"), maxlength: 25, "data-testid": testid, size: 10,
            oninput: (e) => { this.nameDraft[s.seat] = e.target.value; } });
          if (this.nameDraft[s.seat]) name.value = this.nameDraft[s.seat];
          if (document.activeElement && document.activeElement.dataset.testid === testid) {
            const at = document.activeElement.selectionStart;
            requestAnimationFrame(() => { name.focus(); name.setSelectionRange(at, at); });
          }
          controls.push(name, h("button", { type: "button", "data-testid": `sit-${s.seat}`, onclick: async () => {
            try {
              const d = await sitAt(info, s.seat, name.value);
              if (name.value.trim()) store.set("ct.name", name.value.trim());
              this.mine = { seat: s.seat, token: d.token };
              store.set(`ct.seat.${info.id}`, this.mine);
              this.ws.close(); // reconnect as that seat
            } catch (e) { flash(e.message); }
          } }, t("web.sit")));
        }
        if (this.host) {
          const bots = h("select", { "data-testid": `bot-kind-${s.seat}`,
            onchange: (e) => { this.botChoice[s.seat] = e.target.value; } },
          this.botNames.map((b) => h("option", { value: b }, botLevel(b))));
          if (this.botChoice[s.seat]) bots.value = this.botChoice[s.seat]; // kept across redraws
          controls.push(bots, h("button", { type: "button", "data-testid": `bot-${s.seat}`, onclick: () =>
            api(`/api/tables/${info.id}/bot`, { host: this.host, seat: s.seat, bot: bots.value }).catch((e) => flash(e.message)),
          }, t("web.add_bot")));
        }
      }
      if (mine && info.status === "playing") {
        controls.push(h("button", { type: "button", "data-testid": "hint", title: "h", onclick: () => this.askHint() },
          t("web.hint")));
        if (this.undoAllowed()) {
          controls.push(h("button", { type: "button", "data-testid": "undo", title: t("web.undo.title"),
            onclick: () => this.askUndo() }, t("web.undo")));
        }
      }
      if (mine && info.status !== "over") {
        controls.push(h("button", { type: "button", "data-testid": "leave", onclick: () => this.leave() },
          open ? t("web.leave") : t("web.leave_game")));
      }
      if (open && this.host && s.kind !== "open") {
        controls.push(h("button", { type: "button", "data-testid": `free-${s.seat}`, onclick: () =>
          api(`/api/tables/${info.id}/free`, { host: this.host, seat: s.seat }).catch((e) => flash(e.message)),
        }, t("web.free")));
      }
      return h("li", { class: mine ? "me" : "" },
        h("span", { class: `dot ${s.online || s.kind === "bot" ? "on" : ""}` }),
        h("b", {}, t("web.seat", { n: s.seat })), " ", label, mine ? ` · ${t("web.you")}` : "",
        s.auto ? h("span", { class: "muted" }, ` · ${t("web.auto")}`) : "", " ", ...controls);
    });
    const start = open && this.host
      ? h("button", { type: "button", class: "primary", "data-testid": "start",
          disabled: info.seats.some((s) => s.kind === "open"),
          onclick: () => api(`/api/tables/${info.id}/start`, { host: this.host }).catch((e) => flash(e.message)) },
        t("web.start"))
      : null;
    this.el.chatForm.hidden = !(this.mine && this.seated); // people at the table talk; spectators read
    this.el.chatNote.hidden = !this.el.chatForm.hidden || this.seated === undefined; // said once the socket says who we are
    const record = info.status === "over"
      ? h("p", {}, h("a", { href: `/api/tables/${info.id}/record`, download: "", "data-testid": "record" }, t("web.record")),
        " · ", h("a", { href: replayLink(info.id, this.mine ? this.mine.seat : null), "data-link": true, "data-testid": "replay-link" },
          t("web.replay.open")))
      : null;
    const watchers = info.watchers
      ? h("p", { class: "muted", "data-testid": "watchers" }, `${info.watchers} ${t("web.watching")}`) : null;
    this.el.seats.replaceChildren(...[h("h2", {}, t(`web.status.${info.status}`)), this.pauseNote(),
      h("ul", {}, rows), watchers, start, record, this.rematchButton("rematch-seats"),
      fairPanel(info, { h, t, names: this.names() })].filter(Boolean));
    if (!this.view) {
      this.el.board.replaceChildren(h("p", { class: "waiting card-panel" },
        open ? t("web.waiting") : t("web.connecting")));
    }
  }

  renderBoard() {
    if (!this.view) return;
    if (!this.renderer) {
      this.el.board.replaceChildren(h("pre", {}, JSON.stringify(this.view, null, 1)));
      return;
    }
    const before = capture(this.el.board); // motion.js: where the cards were, for the moves to the new state
    const view = this.view;
    this.renderer.render(this.el.board, view, {
      t, h, lang, names: this.names(), kinds: this.kinds(), act: (a) => this.act(a), seat: this.mine ? this.mine.seat : null,
      table: this.info, resume: () => this.answerAlone(),
    });
    animate(this.el.board, before, this.renderer.exitTo ? (code) => this.renderer.exitTo(code, view) : null);
    const banner = this.view.outcome && this.el.board.querySelector("[data-testid=status]");
    if (banner) {  // the end banner: watch the game again, as this seat saw it
      banner.append(h("a", { href: replayLink(this.info.id, this.view.seat), "data-link": true, class: "again",
        "data-testid": "replay" }, t("web.replay.open")));
      const again = this.rematchButton("rematch");
      if (again) banner.append(" ", again);
    }
  }
}

// ----------------------------------------------------------------- routing
function route() {
  stopReplay();
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})$/);
  if (m) return tablePage(m[1]);
  if (current) { current.stop(); current = null; }
  const r = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})\/replay$/);
  if (r) return replay(r[1]);
  const how = location.pathname.match(/^\/howto\/([a-z0-9_-]{1,32})$/);
  if (how) return howto(how[1]);
  return lobby();
}

async function replay(id) {
  let info;
  try { info = (await api(`/api/tables/${encodeURIComponent(id)}`)).table; } catch (e) {
    app.replaceChildren(h("p", { class: "card-panel" }, t("web.no_table")), h("a", { href: "/", "data-link": true }, t("web.back")));
    return;
  }
  document.title = `cardtable · ${info.title}`;
  const renderer = await import(`./games/${info.game}.js`).catch(() => null);
  connEl.textContent = "";
  await replayPage(app, id, { h, api, names: info.seats.map(personName), kinds: info.seats.map(personKind), renderer, info });
}

async function howto(game) {
  connEl.textContent = "";
  const { games } = await api("/api/games");
  await howtoPage(app, game, { h, title: games.find((g) => g.name === game)?.title || game });
}

// the page's address for a finished game's replay, as `seat` saw it (null: a spectator)
export function replayLink(id, seat) { return `/t/${id}/replay?seat=${seat === null || seat === undefined ? "none" : seat}`; }

export function go(path) { history.pushState(null, "", path); route(); }

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (a && a.origin === location.origin) { ev.preventDefault(); go(a.pathname + a.search); }
});
window.addEventListener("popstate", route);
// h: the hint, u: undo (as in the terminal), unless a field has the focus or a modifier is held
document.addEventListener("keydown", (e) => {
  if ((e.key !== "h" && e.key !== "u") || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]")) return;
  if (!current) return;
  if (e.key === "h") current.askHint();
  else current.askUndo();
});

const langSel = document.getElementById("lang");
langSel.addEventListener("change", async () => {
  localStorage.setItem("ct.lang", langSel.value);
  location.reload();
});

(async () => {
  langSel.value = await loadLang(preferredLang());
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  route();
})();
