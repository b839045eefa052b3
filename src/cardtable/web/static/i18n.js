// Message catalogs (i18n/<lang>/web.json on the server): t(key, values).
let messages = {};
export let lang = "en";
const LANGS = ["en", "es", "pt", "ar"]; // each has i18n/<lang>/web.json
const RTL = new Set(["ar"]); // written right to left: <html dir="rtl">

export async function loadLang(code) {
  lang = LANGS.includes(code) ? code : "en";
  const r = await fetch(`/i18n/${lang}.json`);
  messages = r.ok ? await r.json() : {};
  document.documentElement.lang = lang;
  document.documentElement.dir = RTL.has(lang) ? "rtl" : "ltr";
  return lang;
}

// A number as this language writes it: Arabic-Indic digits for ar (٠١٢٣٤٥٦٧٨٩, a decimal point
// between digits as ٫), as cardtable.i18n.bidi.arabic_digits does. Card texts keep their digits.
const ARABIC_DIGITS = "٠١٢٣٤٥٦٧٨٩";
export function digits(value, code = lang) {
  const text = String(value);
  if (code !== "ar") return text;
  return text.replace(/(?<=\d)\.(?=\d)/g, "٫").replace(/[0-9]/g, (d) => ARABIC_DIGITS[Number(d)]);
}

export function has(key) { return Object.hasOwn(messages, key); }

export const rtl = () => RTL.has(lang);

// A card face ("J♣", "10♣") reads rank first in every language. In a right-to-left line its suit,
// a neutral character, would take the line's direction and stand before the rank ("♣J"), so on a
// right-to-left page each face is a left-to-right isolate (U+2066 … U+2069).
const LRI = "\u2066";
const PDI = "\u2069";
const FACES = /(?:10|[2-9AJQKT])[♣♦♥♠]/g;
export const isolate = (text) => (RTL.has(lang) ? LRI + text + PDI : text);
export const isolateCards = (text) => (RTL.has(lang) ? String(text).replace(FACES, (m) => LRI + m + PDI) : text);

// A server or engine sentence as a player reads it: without the rule ids it cites ("(SP-13)").
const RULE_IDS = /\s*\((?:[A-Z]{1,3}-[A-Z]?\d+[a-z]?(?:[,;]\s*|\s+)?)+\)|\s*\b(?:TR|TX|SP)-[A-Z]?\d+[a-z]?\b:?/g;
export const plain = (text) => String(text).replace(RULE_IDS, "");

// The items of a list as the page's language separates them ("a, b"; Arabic "أ، ب").
export const joinList = (items) => items.join(t("web.list_separator"));

// A catalog text filled with `values`; the card faces the text itself names ("K♥ (−75)") are
// isolated on a right-to-left page (a value brings its own: cardLabel).
export function t(key, values = {}) {
  const template = isolateCards(messages[key] ?? key);
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

export function preferredLang() {
  const saved = localStorage.getItem("ct.lang");
  if (saved) return saved;
  const code = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(code) ? code : "en";
}
