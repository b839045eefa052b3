// A real-time game stands still while a player is away, then counts down (R9); it starts with a
// countdown too (ready, 3, 2, 1), drawn over the table as the terminal does.
import { joinList, t } from "../i18n.js";
import { h } from "../dom.js";

export class PauseNote {
  constructor() {
    this.countdown = h("div", { class: "countdown", "data-testid": "countdown", role: "status", hidden: true });
    this.ticker = null;
    this.overTicker = null;
  }

  // The note for the seats panel for the table's `pause` (null when it runs), with the countdown
  // over the table; `names` are the seats' names.
  render(pause, names) {
    this.stop();
    const over = this.countdown;
    over.hidden = true;
    if (!pause) return null;
    if (pause.countdown !== null) {
      const end = Date.now() + pause.countdown * 1000;
      const tick = () => {
        const n = Math.max(0, Math.ceil((end - Date.now()) / 1000));
        over.replaceChildren(h("span", { class: "ready" }, t("web.countdown.ready")), h("b", {}, n ? String(n) : t("web.countdown.go")));
      };
      over.hidden = false;
      tick();
      this.overTicker = setInterval(tick, 100);
    }
    const el = h("p", { class: "pause-note", role: "status", "data-testid": "pause" });
    if (pause.countdown === null) {
      el.textContent = t("web.paused", { who: joinList(pause.waiting.map((s) => names[s])) });
    } else {
      const end = Date.now() + pause.countdown * 1000;
      const tick = () => { el.textContent = t("web.resuming", { n: Math.max(0, Math.ceil((end - Date.now()) / 1000)) }); };
      tick();
      this.ticker = setInterval(tick, 250);
    }
    return el;
  }

  stop() { clearInterval(this.ticker); clearInterval(this.overTicker); }
}
