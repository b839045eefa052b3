// Message catalogs (i18n/<lang>/web.json on the server): t(key, values).
let messages = {};
export let lang = "en";
const LANGS = ["en", "es", "pt"]; // each has i18n/<lang>/web.json

export async function loadLang(code) {
  lang = LANGS.includes(code) ? code : "en";
  const r = await fetch(`/i18n/${lang}.json`);
  messages = r.ok ? await r.json() : {};
  document.documentElement.lang = lang;
  return lang;
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
