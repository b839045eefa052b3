// What the page does for the person at the seat besides the board's own controls: it answers a
// question that has one answer, asks for and shows the hint, and offers undo.
import { t } from "../i18n.js";
import { flash } from "../dom.js";

// How long a one-answer question stays on screen before the page answers it. Every seat and
// spectator sees when a seat's answer comes, so the pause must not tell a forced answer from a
// chosen one: it is drawn from how long this person took over their own last choices (at random
// among the last KEPT of them), and before FEW of those from FIRST_MS + SPREAD_MS × U.
const KEPT = 20;
const FEW = 3;
const FIRST_MS = 1000;
const SPREAD_MS = 2500;

function uniform() { return crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32; }

export class Assist {
  // `page`: the TablePage (its view and version, this seat, the renderer, the log and the board)
  constructor(page) {
    this.page = page;
    this.answered = null; // the version whose one-answer question the page has answered
    this.actedOn = null; // the version the person acted on
    this.asked = null; // {version, at}: a question the person answers themselves came to them
    this.times = []; // how long (ms) the person took over their last choices
    this.hintToast = null;
  }

  // a new socket, or moves taken back: the position's questions are asked again
  reset() { this.answered = null; this.actedOn = null; this.asked = null; }

  // the person acted on `version`: the page answers no question the person already answered, and
  // the time they took over a question of their own is kept for the pause
  acted(version) {
    if (this.asked && this.asked.version === version && this.actedOn !== version) {
      this.times.push(performance.now() - this.asked.at);
      if (this.times.length > KEPT) this.times.shift();
    }
    this.actedOn = version;
  }

  // the pause before a one-answer question is answered (see KEPT)
  pause() {
    const u = uniform();
    return this.times.length < FEW ? FIRST_MS + SPREAD_MS * u : this.times[Math.floor(u * this.times.length)];
  }

  // A question with one answer (Trex: "keep" with nothing to show, "done" with nothing to double;
  // a single card to play; Trash: the one slot a wild fits) is answered by the page after a
  // pause drawn from the person's own pace (see KEPT), and the log says so. The server still asks
  // every seat, and the pause keeps the answer's timing from telling it was forced. What a
  // game's renderer lists in PACE stays a key press or a click, as in the terminal
  // (host/forced.py): Trash's draw from the stock is the turn itself. A real-time game (Spit)
  // always leaves the moment to the player.
  answerAlone() {
    const page = this.page;
    const { view, version: v, renderer } = page;
    if (!page.mine || !page.seated || !view || view.outcome || view.seat !== page.mine.seat) return;
    if (view.current_player !== view.seat) return;
    const action = view.legal_actions[0];
    if (view.legal_actions.length !== 1 || (renderer && renderer.PACE && renderer.PACE.has(action))) {
      if (!this.asked || this.asked.version !== v) this.asked = { version: v, at: performance.now() };
      return; // the person's own question (several answers, or their own pace)
    }
    if (this.answered === v) return;
    if (renderer && renderer.holding && renderer.holding()) return; // asked again on resume (ctx.resume)
    this.answered = v;
    setTimeout(() => {
      if (page.stopped || page.version !== v || this.actedOn === v) return;
      if (page.view.legal_actions.length !== 1 || page.view.legal_actions[0] !== action) return;
      page.log.note(t("web.auto_answer", { action: page.describe(action) }), { class: "auto", "data-testid": "auto-answer" });
      page.act(action);
    }, this.pause());
  }

  askHint() {
    const page = this.page;
    if (page.seated && page.view && page.view.legal_actions.length) page.send({ type: "hint" });
  }

  // The hint bot's advice from this seat's view: said in words ("Suggested: draw from the stock"),
  // and its control outlined. It answers one position: a reply for another (the table moved on
  // while the bot thought) is dropped, and the toast goes as soon as the next state comes.
  showHint(f) {
    const page = this.page;
    if (f.version !== page.version) return;
    this.dropHint();
    this.hintToast = flash(t("web.hint_says", { action: page.describe(f.action, { view: page.view }) }));
    this.hintToast.dataset.version = f.version;
    const parts = f.action.split(" ");
    const pile = parts[1] === "play" || parts[1] === "fill" ? `select ${parts[2]}` : null; // Spit: the pile first
    for (const key of [f.action, pile]) {
      const el = key && page.board.querySelector(`[data-legal="${CSS.escape(key)}"]`);
      if (el) { el.classList.add("hinted"); el.focus?.(); break; }
    }
  }

  dropHint() {
    if (this.hintToast) this.hintToast.remove();
    this.hintToast = null;
  }

  // Undo is offered to the one person at a table of bots that allows it, while the game runs.
  undoAllowed() {
    const page = this.page;
    const info = page.info;
    return Boolean(info.undo && page.mine && page.seated && info.status === "playing"
      && !(page.view && page.view.outcome)
      && info.seats.every((s) => s.seat === page.mine.seat || s.kind === "bot"));
  }

  askUndo() { if (this.undoAllowed()) this.page.send({ type: "undo" }); }

  // Undo (docs/web.md): the lines of the moves taken back leave the log, one line says what
  // was taken back, and the state frame that follows redraws the board at the earlier position.
  undone(f) {
    const page = this.page;
    if (typeof f.next_event === "number") page.log.takeBack(f.next_event);
    page.logged = f.version;
    this.reset();
    const text = typeof f.move === "string"
      ? t("web.undo.yours", { move: page.describe(f.move), n: f.taken })
      : t("web.undo.other", { name: page.names()[f.seat] || "", n: f.taken });
    page.log.note(text, { class: "auto undo", "data-testid": "undo-line" });
  }
}
