// The table's two lists: "What happened" (the game's events, each once, numbered by its place in
// the game) and the chat.
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { cardLabel } from "../games/shared.js";

const LOG_LINES = 60;
const CHAT_LINES = 50;

export class EventLog {
  constructor() {
    this.el = h("ol", { class: "log", "data-testid": "log" });
    this.lastSeq = null; // the seq of the last event in the log
  }

  // One event (a resent or merged frame repeats some); `cards`, if given, are shown after its text
  // (Trex: the hand shown for a redeal).
  add(e, cards = null) {
    if (typeof e.seq === "number") {
      if (this.lastSeq !== null && e.seq <= this.lastSeq) return;
      this.lastSeq = e.seq;
    }
    this.el.append(h("li", { value: typeof e.seq === "number" ? e.seq + 1 : null, "data-seq": e.seq }, e.text,
      cards ? h("span", { class: "log-cards", "data-testid": "log-cards" }, ": ", cards.map(cardLabel).join(" ")) : null));
    while (this.el.childElementCount > LOG_LINES) this.el.firstChild.remove();
    this.scroll();
  }

  // A line of the page's own (the page answered a question; a move was taken back).
  note(text, attrs) {
    this.el.append(h("li", attrs, text));
    this.scroll();
  }

  // The events from `nextEvent` on were taken back: their lines go.
  takeBack(nextEvent) {
    for (const li of [...this.el.querySelectorAll("li[data-seq]")]) {
      if (Number(li.dataset.seq) >= nextEvent) li.remove();
    }
    this.lastSeq = nextEvent - 1;
  }

  scroll() { this.el.scrollTop = this.el.scrollHeight; }
}

// The chat: people at the table talk, spectators read (and are told why there is nothing to
// write in).
export class Chat {
  constructor(send) {
    this.log = h("ol", { class: "log chat-log", "data-testid": "chat-log" });
    const input = h("input", { maxlength: 250, placeholder: t("web.chat_placeholder"), "data-testid": "chat-input" });
    this.form = h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text) send({ type: "chat", text });
      input.value = "";
    } }, input, h("button", { type: "submit", "data-testid": "chat-send" }, t("web.chat_send")));
    this.note = h("p", { class: "muted chat-note", "data-testid": "chat-readonly", hidden: true }, t("web.chat.readonly"));
    this.el = h("section", { class: "card-panel", "data-testid": "chat" }, h("h2", {}, t("web.chat")),
      this.log, this.form, this.note);
  }

  add(m) {
    this.log.append(h("li", {}, h("b", {}, m.name), ": ", m.text));
    while (this.log.childElementCount > CHAT_LINES) this.log.firstChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  clear() { this.log.replaceChildren(); }

  // `talks`: this socket speaks for a seat; `known`: the socket has said who we are
  allow(talks, known) {
    this.form.hidden = !talks;
    this.note.hidden = talks || !known;
  }

  close() { this.form.hidden = true; }
}
