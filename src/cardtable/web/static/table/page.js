// A table's page: the board (drawn by the game's renderer, static/games/<game>.js, exporting
// render(root, view, ctx)), the seats panel (seats.js), the event log and the chat (log.js), kept
// up to date by the table's socket (socket.js). The page keeps the table's state (its info, this
// seat, the last view and its version) and hands each frame to the part it is for; assist.js
// answers one-answer questions and handles the hint and undo, pause.js counts a race down,
// rematch.js makes the next table.
import { has, lang, t } from "../i18n.js";
import { ApiError, errorText } from "../errors.js";
import { api } from "../api.js";
import { connStatus, flash, h, store } from "../dom.js";
import { ownText } from "../events.js";
import { eventOf, forfeitText, gameAt } from "../event-words.js";
import { fairStep } from "../fair.js";
import { animate, capture } from "../motion.js";
import { go, replayLink } from "../nav.js";
import { personKind, personName } from "../people.js";
import { presetLabel } from "../words.js";
import { Chat, EventLog } from "./log.js";
import { PauseNote } from "./pause.js";
import { rematch } from "./rematch.js";
import { Assist } from "./assist.js";
import { ClockNote } from "./clock.js";
import { SeatsPanel } from "./seats.js";
import { TableSocket } from "./socket.js";

const UNDO_REFUSALS = ["undo_off", "undo_people", "undo_nothing", "undo_realtime"]; // said in the page's language
const FORGET_SEAT = [4001, 4003, 4005]; // close codes after which this page holds no seat: a bad token, left, freed
const REPLACED = 4000; // another page took the seat over: this one stays closed
// 4003 closes a seat its person left and one the clock took (the server's reason says which:
// server/moveclock.py, "your time ran out too often: ..."): the page says the clock ran out, not
// that the person left
const ranOut = (reason) => typeof reason === "string" && reason.startsWith("your time ran out");
const FORFEITED = 4010; // an event's table closed by a no-show: never played, nothing to reconnect to

// The link from an event's table back to the event's page.
const eventLink = (eventId) => h("a", { href: `/events/${encodeURIComponent(eventId)}`, "data-testid": "back-to-event" },
  t("web.events.back_to_event"));

// The page of table `id` in `app`; null (the page says so) when there is no such table.
export async function openTable(app, id) {
  let info;
  try { info = (await api(`/api/tables/${encodeURIComponent(id)}`)).table; } catch (e) {
    const forfeited = e instanceof ApiError && e.code === "forfeited"; // an event's table closed by a no-show (410)
    app.replaceChildren(h("p", { class: "card-panel", "data-testid": forfeited ? "forfeited" : "no-table" },
      forfeited ? errorText(e) : t("web.no_table")),
    forfeited && eventOf(id) ? eventLink(eventOf(id)) : h("a", { href: "/", "data-link": true }, t("web.back")));
    return null;
  }
  const renderer = await import(`../games/${info.game}.js`).catch(() => null);
  const { games } = await api("/api/games");
  const page = new TablePage(app, info, renderer, games.find((g) => g.name === info.game)?.bots || ["random"]);
  page.socket.connect();
  return page;
}

export class TablePage {
  constructor(app, info, renderer, botNames) {
    this.info = info;
    this.renderer = renderer;
    this.host = store.get(`ct.host.${info.id}`);
    this.mine = store.get(`ct.seat.${info.id}`); // {seat, token}
    this.seq = store.get(`ct.seq.${info.id}`) || 0;
    this.version = null; // of the last state frame
    this.logged = null; // the version the log has the events of
    this.view = null;
    this.sentOn = null; // {version, action, seq}: the last action sent, and the state it was chosen on
    this.stopped = false;
    this.gone = false; // closed for good: an event's game that was not played (a no-show)
    this.eventId = eventOf(info.id); // an event's table (known once its event names it: findEvent)
    this.event = null; // that event's data (GET /api/events/<id>)
    this.eventHead = h("span", { class: "event-link" });
    this.socket = new TableSocket(info.id, {
      hello: () => this.hello(), onFrame: (f) => this.onFrame(f), onClose: (code, reason) => this.closed(code, reason),
    });
    this.board = h("section", { class: "board", "data-testid": "board" });
    this.log = new EventLog();
    this.chat = new Chat((msg) => this.send(msg));
    this.pause = new PauseNote();
    this.seats = new SeatsPanel(this, botNames);
    this.assist = new Assist(this);
    this.clock = new ClockNote();
    const link = location.origin + `/t/${info.id}`;
    app.replaceChildren(
      h("div", { class: "table-head" },
        h("h1", {}, info.title, " ", h("span", { class: "muted" }, presetLabel(info.game, info.preset))),
        h("label", { class: "share" }, t("web.share"), " ",
          h("input", { readonly: true, value: link, "data-testid": "share", onclick: (e) => e.target.select() }),
          h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link) }, t("web.copy"))), this.eventHead),
      h("div", { class: "layout" }, this.board,
        h("aside", {}, this.seats.el, this.clock.el, h("section", { class: "card-panel" }, h("h2", {}, t("web.log")), this.log.el),
          this.chat.el)), this.pause.countdown);
    this.renderSeats();
    if (this.eventId) this.findEvent();
  }

  // Whether this is an event's table (an id of that form that its event's rounds name): the link
  // back to the event, and no "Leave seat" before the start, which the server refuses there.
  async findEvent() {
    try {
      const data = await api(`/api/events/${encodeURIComponent(this.eventId)}`);
      if (!gameAt(data, this.info.id)) throw new Error("not this event's table");
      this.event = data;
      this.eventHead.replaceChildren(eventLink(this.eventId));
    } catch {
      if (!this.event) this.eventId = null; // a table of the lobby after all
    }
    if (!this.stopped) this.renderSeats();
  }

  // The table was closed by a no-show before its start: the seat is told the game was not played
  // and whether it won or lost it by forfeit (from the event's page), with a link back there.
  forfeited() {
    this.gone = true;
    this.pause.stop();
    this.clock.stop();
    this.socket.stop();
    connStatus("");
    this.board.classList.remove("offline");
    const seat = this.mine ? this.mine.seat : null;
    const say = () => this.board.replaceChildren(h("div", { class: "waiting card-panel", role: "status", "data-testid": "forfeited" },
      h("p", {}, forfeitText(this.event, this.info.id, seat)), this.eventId ? eventLink(this.eventId) : null));
    say();
    this.renderSeats();
    if (this.eventId) {
      api(`/api/events/${encodeURIComponent(this.eventId)}`).then((data) => { this.event = data; say(); }, () => {});
    }
  }

  stop() { this.stopped = true; this.pause.stop(); this.clock.stop(); this.socket.stop(); }

  // ---------------------------------------------------------------- the socket
  hello() {
    const hello = { type: "hello", lang };
    if (this.mine) hello.token = this.mine.token;
    // the server sends what was missed; a new page (a reload) gets the recent events for its log
    hello.since = this.version ?? -1;
    return hello;
  }

  closed(code, reason) {
    this.seated = false;
    this.chat.close();
    this.board.classList.add("offline"); // nothing played here is sent until the table is back
    if (FORGET_SEAT.includes(code)) { store.set(`ct.seat.${this.info.id}`, null); this.mine = null; }
    if (code === 4003) flash(t(ranOut(reason) ? "web.clock.ran_out" : "web.left"));
    if (code === 4005) flash(t("web.freed"));
    if (code === REPLACED) { this.elsewhere(); return false; }
    if (code === FORFEITED) { this.forfeited(); return false; }
    return true;
  }

  // another window took this seat: this one is only a picture until the person plays here again
  elsewhere() {
    connStatus(t("web.replaced"));
    const note = h("p", { class: "elsewhere", role: "status", "data-testid": "elsewhere" }, t("web.replaced"), " ",
      h("button", { type: "button", "data-testid": "play-here", onclick: () => { note.remove(); this.socket.connect(); } },
        t("web.play_here")));
    this.board.before(note);
  }

  send(msg) { this.socket.send(msg); }

  act(action) {
    if (!this.socket.open) { flash(t("web.not_sent")); return; } // said, not lost: made again once back
    if (this.repeats(action)) return;
    this.assist.acted(this.version);
    this.seq += 1;
    store.set(`ct.seq.${this.info.id}`, this.seq);
    const msg = { type: "act", seq: this.seq, action };
    if (this.version !== null) msg.version = this.version; // a Spit play overtaken by another: lost_race
    this.sentOn = { version: this.version, action, seq: this.seq };
    this.send(msg);
  }

  // One move per state shown: a second action on the state this seat already acted on (a double
  // click, a key pressed twice) would reach the server after the move it follows and be refused.
  // In a turn-based game (the view's current_player is a seat) any second action is held back, in
  // a real-time one (Spit: current_player is -2, simultaneous; several plays on one state are
  // fine) the same action again. A refused action, a new socket and an undo let the seat act on
  // the state again.
  repeats(action) {
    const last = this.sentOn;
    if (!last || this.version === null || last.version !== this.version) return false;
    const turn = this.view ? this.view.current_player : null;
    return last.action === action || (typeof turn === "number" && turn >= 0);
  }

  // An `illegal` refusal of this seat's last action after the table moved on (a timer's or a
  // stand-in's move came first): the turn had passed, said in the page's language.
  turnPassed(f) {
    const last = this.sentOn;
    return f.code === "illegal" && last !== null && f.seq === last.seq && last.version !== this.version;
  }

  // this page sat at a seat: reconnect as that seat
  tookSeat(mine) {
    this.mine = mine;
    store.set(`ct.seat.${this.info.id}`, mine);
    this.socket.reconnect();
  }

  onFrame(f) {
    switch (f.type) {
      case "welcome":
        this.socket.welcomed();
        this.board.classList.remove("offline");
        this.seated = f.seat !== null; // this socket speaks for a seat: chat and hints go
        // a new socket: what the page answered or sent on the old one may never have arrived, so a
        // question still open (the state that follows says) is answered again
        this.assist.reset();
        this.sentOn = null;
        this.seatNo = f.seat;
        this.chat.clear(); // the table's chat lines follow the welcome again
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
        if (f.version !== this.version) this.assist.dropHint();
        this.version = f.version; this.view = f.view; this.renderBoard(); this.answerAlone(); break;
      case "chat":
        for (const m of f.messages) this.chat.add(m);
        break;
      case "hint":
        this.assist.showHint(f);
        break;
      case "undo":
        this.sentOn = null;
        this.assist.undone(f);
        break;
      case "clock":
        this.clock.update(f, this.names(), this.seatNo ?? null);
        break;
      case "error": {
        const passed = this.turnPassed(f);
        if (this.sentOn && f.seq === this.sentOn.seq) this.sentOn = null; // refused: the seat may act on this state again
        if (f.code === "lost_race") flash(t("web.too_late"));
        else if (passed) flash(t("web.turn_passed"));
        else if (UNDO_REFUSALS.includes(f.code)) flash(t(`web.undo.${f.code}`));
        else if (has(`web.error.${f.code}`)) flash(t(`web.error.${f.code}`)); // said in the page's language
        else if (lang === "en") flash(f.message); // an illegal or malformed action: the server's words name what was wrong
        else flash(t("web.move_refused")); // the server's words are English: the page says it in its own
        break;
      }
      default: break;
    }
  }

  // ---------------------------------------------------------------- the log
  // A game may add cards to a line (Trex: the hand shown for a redeal, from the state's view).
  addLog(e, view = null) {
    const cards = this.renderer && this.renderer.logCards ? this.renderer.logCards(e, view) : null;
    this.log.add(e, cards);
  }

  describe(action, extra = {}) {
    return this.renderer && this.renderer.describe ? this.renderer.describe(action, { t, ...extra }) : action;
  }

  // ---------------------------------------------------------------- the controls
  // what the seats panel's buttons and the keys h and u call (assist.js does the work)
  answerAlone() { this.assist.answerAlone(); }

  askHint() { this.assist.askHint(); }

  askUndo() { this.assist.askUndo(); }

  undoAllowed() { return this.assist.undoAllowed(); }

  // this seat's step in the fair deal (commit again, reveal), whenever the table changes
  fairTurn() {
    if (!this.seated) return;
    fairStep(this.info, this.mine, api).then((lost) => { if (lost) flash(t("web.fair.lost_seed")); })
      .catch((e) => flash(errorText(e)));
  }

  rematchButton(testid) {
    if (!this.host || !(this.info.status === "over" || (this.view && this.view.outcome))) return null;
    return h("button", { type: "button", class: "primary", "data-testid": testid, title: t("web.rematch.title"),
      onclick: () => rematch(this.info, this.mine, (msg) => this.send(msg)).then((id) => go(`/t/${id}`), (e) => flash(errorText(e))) },
    t("web.rematch"));
  }

  // ---------------------------------------------------------------- drawing
  names() { return this.info.seats.map(personName); }

  kinds() { return this.info.seats.map(personKind); }

  renderSeats() {
    this.seats.render();
    this.chat.allow(Boolean(this.mine && this.seated), this.seated !== undefined);
    if (!this.view && !this.gone) {
      this.board.replaceChildren(h("p", { class: "waiting card-panel" },
        this.info.status !== "open" ? t("web.connecting") // an event's table starts by itself
          : t(this.eventId ? "web.events.table_waiting" : "web.waiting")));
    }
  }

  renderBoard() {
    if (!this.view) return;
    if (!this.renderer) {
      this.board.replaceChildren(h("pre", {}, JSON.stringify(this.view, null, 1)));
      return;
    }
    const before = capture(this.board); // motion.js: where the cards were, for the moves to the new state
    const view = this.view;
    this.board.dataset.version = this.version; // which state the board shows: a click's answer is a newer one
    this.renderer.render(this.board, view, {
      t, h, lang, names: this.names(), kinds: this.kinds(), act: (a) => this.act(a), seat: this.mine ? this.mine.seat : null,
      table: this.info, resume: () => this.answerAlone(),
      redrawn: () => this.endBanner(), // a board that redraws itself (Spit's flashes) keeps the banner's links
    });
    animate(this.board, before, this.renderer.exitTo ? (code) => this.renderer.exitTo(code, view) : null);
    this.endBanner();
  }

  // the end banner's links: watch the game again as this seat saw it, and play again
  endBanner() {
    const banner = this.view && this.view.outcome && this.board.querySelector("[data-testid=status]");
    if (!banner || banner.querySelector("[data-testid=replay]")) return;
    banner.append(h("a", { href: replayLink(this.info.id, this.view.seat), "data-link": true, class: "again",
      "data-testid": "replay" }, t("web.replay.open")));
    const again = this.rematchButton("rematch");
    if (again) banner.append(" ", again);
  }
}
