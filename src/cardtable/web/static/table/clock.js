// A rated table and its per-move clock (docs/play-online.md): the server's `clock` frames say
// whether the table is rated, its settings, whose move is timed with the seconds left of the
// move and of the bank, and each seat's timeouts. The note counts down between frames.
import { digits, t } from "../i18n.js";
import { h } from "../dom.js";

export class ClockNote {
  constructor() {
    this.el = h("section", { class: "card-panel clock-note", "data-testid": "clock", hidden: true });
    this.ticker = null;
  }

  // the latest `frame`; `names` are the seats' names, `mine` this page's seat (null: a spectator)
  update(frame, names, mine) {
    this.stop();
    this.el.hidden = false;
    const kind = h("p", { "data-testid": "rated" }, h("b", {}, t(frame.rated ? "web.clock.rated" : "web.clock.casual")));
    const rules = frame.clock ? h("p", { class: "muted", "data-testid": "clock-rules" },
      t("web.clock.rules", { move: digits(frame.clock.move), bank: digits(frame.clock.bank), timeouts: digits(frame.clock.timeouts) }))
      : null;
    const turn = frame.turn ? h("p", { class: "clock-turn", "data-testid": "clock-turn", role: "timer" }) : null;
    if (turn) {
      const start = Date.now();
      const who = names[frame.turn.seat] ?? "";
      const tick = () => {
        const used = (Date.now() - start) / 1000;
        const move = Math.max(0, frame.turn.move - used);
        const bank = Math.max(0, frame.turn.bank - Math.max(0, used - frame.turn.move));
        turn.classList.toggle("low", move <= 0);
        turn.textContent = t(frame.turn.seat === mine ? "web.clock.yours" : "web.clock.theirs",
          { name: who, n: digits(Math.ceil(move)), bank: digits(Math.ceil(bank)) });
      };
      tick();
      this.ticker = setInterval(tick, 250);
    }
    const outs = (frame.timeouts || []).map((n, seat) => (n ? h("li", {}, t("web.clock.timeouts",
      { name: names[seat] ?? "", n: digits(n), max: digits(frame.clock.timeouts) })) : null)).filter(Boolean);
    const parts = [kind, rules, turn, outs.length ? h("ul", { "data-testid": "clock-timeouts" }, outs) : null];
    this.el.replaceChildren(...parts.filter(Boolean));
  }

  stop() { clearInterval(this.ticker); }
}
