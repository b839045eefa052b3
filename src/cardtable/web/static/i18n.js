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

export function t(key, values = {}) {
  const template = messages[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

export function preferredLang() {
  const saved = localStorage.getItem("ct.lang");
  if (saved) return saved;
  const code = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(code) ? code : "en";
}
