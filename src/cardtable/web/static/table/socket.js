// A table's game socket (docs/web.md): hello (with the seat's token and, after a drop, the last
// version seen, so the server sends what was missed), frames to the page, and a reconnection
// after a drop with a growing, jittered wait.
import { t } from "../i18n.js";
import { connStatus } from "../dom.js";

const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5000;

export class TableSocket {
  // hello(): the hello frame to send on each new socket; onFrame(frame); onClose(code, reason): false
  // keeps the socket closed (another page took the seat over), anything else reconnects.
  constructor(tableId, { hello, onFrame, onClose }) {
    this.tableId = tableId;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onClose = onClose;
    this.backoff = FIRST_WAIT_MS;
    this.stopped = false;
    this.ws = null;
    this.live = false; // welcomed on the socket open now: what is sent reaches the table
  }

  get open() { return this.live && !!this.ws && this.ws.readyState === 1; }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.tableId}`);
    this.ws = ws;
    connStatus(t("web.connecting"));
    ws.onopen = () => ws.send(JSON.stringify(this.hello()));
    ws.onmessage = (ev) => this.onFrame(JSON.parse(ev.data));
    ws.onclose = (ev) => {
      if (this.ws !== ws || this.stopped) return;
      this.live = false;
      connStatus(t("web.offline"));
      if (this.onClose(ev.code, ev.reason) === false) return;
      const wait = this.backoff * (0.75 + Math.random() / 2);
      this.backoff = Math.min(this.backoff * 2, LONGEST_WAIT_MS);
      setTimeout(() => this.connect(), wait);
    };
  }

  // the server welcomed this socket: the next drop waits the shortest time again
  welcomed() {
    this.backoff = FIRST_WAIT_MS;
    this.live = true;
    connStatus(t("web.online"));
  }

  send(msg) { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg)); }

  // a new socket at once (after taking a seat: the next hello speaks for it)
  reconnect() { if (this.ws) this.ws.close(); }

  stop() { this.stopped = true; if (this.ws) this.ws.close(); }
}
