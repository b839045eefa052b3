// The seats panel: who sits where (online or not, a bot's level, a stand-in), and what this page
// may do at each seat: sit, add or free a bot and start (the host), ask for a hint, undo, leave.
// Then the table's status, the countdown of a paused race, the watchers, and once the game is
// over its record, its replay, play again and the fair-deal panel.
import { t } from "../i18n.js";
import { errorText } from "../errors.js";
import { api, sitAt } from "../api.js";
import { flash, h, store } from "../dom.js";
import { fairPanel } from "../fair.js";
import { replayLink } from "../nav.js";
import { botLevel, seatName } from "../people.js";

export class SeatsPanel {
  // `page`: the TablePage (its info, mine, host, seated and the actions the buttons call)
  constructor(page, botNames) {
    this.page = page;
    this.botNames = botNames;
    this.botChoice = {}; // the bot chosen for an open seat, kept across redraws
    this.nameDraft = {}; // names typed at open seats, kept (with the focus) across redraws
    this.refocus = null; // the name field that had the focus before a redraw, and where its caret was
    this.el = h("section", { class: "seats card-panel", "data-testid": "seats" });
  }

  render() {
    const page = this.page;
    const info = page.info;
    const open = info.status === "open";
    const rows = info.seats.map((s) => this.row(s));
    const start = open && page.host
      ? h("button", { type: "button", class: "primary", "data-testid": "start",
          disabled: info.seats.some((s) => s.kind === "open"),
          onclick: () => api(`/api/tables/${info.id}/start`, { host: page.host }).catch((e) => flash(errorText(e))) },
        t("web.start"))
      : null;
    const record = info.status === "over"
      ? h("p", {}, h("a", { href: `/api/tables/${info.id}/record`, download: "", "data-testid": "record" }, t("web.record")),
        " · ", h("a", { href: replayLink(info.id, page.mine ? page.mine.seat : null), "data-link": true, "data-testid": "replay-link" },
          t("web.replay.open")))
      : null;
    const watchers = info.watchers
      ? h("p", { class: "muted", "data-testid": "watchers" }, `${info.watchers} ${t("web.watching")}`) : null;
    const status = page.gone ? t("web.events.forfeit") : t(`web.status.${info.status}`); // gone: an event's no-show
    this.el.replaceChildren(...[h("h2", {}, status), page.pause.render(info.pause, page.names()),
      h("ul", {}, rows), watchers, start, record, page.rematchButton("rematch-seats"),
      fairPanel(info, { h, t, names: page.names() })].filter(Boolean));
    if (this.refocus) { // in the same task as the redraw: a key pressed next goes into the new field
      const { field, at } = this.refocus;
      this.refocus = null;
      field.focus();
      field.setSelectionRange(at, at);
    }
  }

  row(s) {
    const page = this.page;
    const info = page.info;
    const open = info.status === "open";
    const mine = page.mine && page.mine.seat === s.seat;
    const controls = [];
    if (open && s.kind === "open") {
      if (!page.mine) controls.push(...this.sitControls(s));
      if (page.host) controls.push(...this.botControls(s));
    }
    if (mine && info.status === "playing") {
      controls.push(h("button", { type: "button", "data-testid": "hint", title: "h", onclick: () => page.askHint() },
        t("web.hint")));
      if (page.undoAllowed()) {
        controls.push(h("button", { type: "button", "data-testid": "undo", title: t("web.undo.title"),
          onclick: () => page.askUndo() }, t("web.undo")));
      }
    }
    // an event's table keeps its seats until the start (the server refuses to let one go), and a
    // table closed by a no-show has nothing left to leave
    if (mine && info.status !== "over" && !page.gone && !(open && page.eventId)) {
      controls.push(h("button", { type: "button", "data-testid": "leave", onclick: () => this.leave() },
        open ? t("web.leave") : t("web.leave_game")));
    }
    if (open && page.host && s.kind !== "open") {
      controls.push(h("button", { type: "button", "data-testid": `free-${s.seat}`, onclick: () =>
        api(`/api/tables/${info.id}/free`, { host: page.host, seat: s.seat }).catch((e) => flash(errorText(e))),
      }, t("web.free")));
    }
    return h("li", { class: mine ? "me" : "" },
      h("span", { class: `dot ${s.online || s.kind === "bot" ? "on" : ""}` }),
      h("b", {}, t("web.seat", { n: s.seat })), " ", seatName(s, s.seat, info.seats), mine ? ` · ${t("web.you")}` : "",
      s.auto ? h("span", { class: "muted" }, ` · ${t("web.auto")}`) : "", " ", ...controls);
  }

  // a name field and "Sit" at an open seat, for a page that holds no seat yet
  sitControls(s) {
    const page = this.page;
    const testid = `name-${s.seat}`;
    const name = h("input", { placeholder: t("web.your_name"), maxlength: 25, "data-testid": testid, size: 10,
      oninput: (e) => { this.nameDraft[s.seat] = e.target.value; } });
    if (this.nameDraft[s.seat]) name.value = this.nameDraft[s.seat];
    if (document.activeElement && document.activeElement.dataset.testid === testid) {
      this.refocus = { field: name, at: document.activeElement.selectionStart }; // render() gives the focus back
    }
    const sit = h("button", { type: "button", "data-testid": `sit-${s.seat}`, onclick: async () => {
      // the name as last typed: a redraw between typing and this click may have replaced the field
      const typed = this.nameDraft[s.seat] ?? name.value;
      try {
        const d = await sitAt(page.info, s.seat, typed);
        if (typed.trim()) store.set("ct.name", typed.trim());
        page.tookSeat({ seat: s.seat, token: d.token });
      } catch (e) { flash(errorText(e)); }
    } }, t("web.sit"));
    return [name, sit];
  }

  // the host's choice of a bot for an open seat, and "Add bot"
  botControls(s) {
    const page = this.page;
    const bots = h("select", { "data-testid": `bot-kind-${s.seat}`,
      onchange: (e) => { this.botChoice[s.seat] = e.target.value; } },
    this.botNames.map((b) => h("option", { value: b }, botLevel(b))));
    if (this.botChoice[s.seat]) bots.value = this.botChoice[s.seat]; // kept across redraws
    const add = h("button", { type: "button", "data-testid": `bot-${s.seat}`, onclick: () =>
      api(`/api/tables/${page.info.id}/bot`, { host: page.host, seat: s.seat, bot: bots.value }).catch((e) => flash(errorText(e))),
    }, t("web.add_bot"));
    return [bots, add];
  }

  async leave() {
    const page = this.page;
    if (page.info.status === "playing" && !confirm(t("web.leave_confirm"))) return;
    try {
      await api(`/api/tables/${page.info.id}/leave`, { token: page.mine.token });
    } catch (e) { flash(errorText(e)); }
  }
}
