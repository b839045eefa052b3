// A refusal of the server's HTTP API in the page's language. The server answers a refused request
// with a stable `error` code, an English `message` and, where a number matters, fields of its own
// (too_many_open: `limit` and `per`, "host" or "address"); the page says the code's catalog text
// (web.error.<code>), filled with those numbers. A module's own words for a code come first
// (`own`: code -> key, as account.js's); the server's message is shown only for a code the
// catalogs do not have.
import { digits, has, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status, data = {}, own = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
    this.own = own;
  }

  get text() { return errorText(this); }
}

// The key of a code's sentence: a module's own, one per `per` for a cap, else web.error.<code>.
function keyOf(e) {
  if (Object.hasOwn(e.own, e.code)) return e.own[e.code];
  if (e.code === "too_many_open") return `web.error.too_many_open.${e.data.per === "address" ? "address" : "host"}`;
  return `web.error.${e.code}`;
}

// What to show for an error caught around an API call: an ApiError in words, anything else
// (a network failure) as its message.
export function errorText(e) {
  if (!(e instanceof ApiError)) return e && e.message ? e.message : String(e);
  const key = keyOf(e);
  if (!has(key)) return e.message;
  const values = typeof e.data.limit === "number" ? { limit: digits(e.data.limit) } : {};
  return t(key, values);
}

// The JSON answer of `r` (a fetch Response), or an ApiError with its code when it is refused.
export async function answer(r, own = {}) {
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new ApiError(data.error || "http", data.message || r.statusText, r.status, data, own);
  return data;
}
