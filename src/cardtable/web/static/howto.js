// The How to play page of a game (/howto/<game>): the docs' markdown (GET /api/howto/<game>)
// drawn as headings, paragraphs, lists, tables, code, bold, italics and links. Every piece of it
// is set as text, never parsed as HTML.
import { t, lang } from "./i18n.js";

// **bold**, *italic* or _italic_, `code` and [links](url) inside a line
function inline(h, text) {
  const out = [];
  const re = /(\*\*[^*]+\*\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\)|\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const s = m[0];
    if (s.startsWith("**")) out.push(h("strong", {}, s.slice(2, -2)));
    else if (s.startsWith("`")) out.push(h("code", {}, s.slice(1, -1)));
    else if (s.startsWith("[")) {
      const [, label, url] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(s);
      const safe = /^(https?:|\/|#|\.)/.test(url) ? url : "#"; // no javascript: or data: links
      out.push(h("a", { href: safe.replace(/^\.?\/?howto-(\w+)\.md$/, "/howto/$1") }, label));
    } else out.push(h("em", {}, s.slice(1, -1)));
    last = m.index + s.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function markdown(h, source) {
  const blocks = [];
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    if (line.startsWith("```")) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      i++;
      blocks.push(h("pre", {}, h("code", {}, code.join("\n"))));
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) { blocks.push(h(`h${heading[1].length}`, {}, inline(h, heading[2]))); i++; continue; }
    if (/^\s*([-*+]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && /^\s*([-*+]|\d+\.)\s+/.test(lines[i])) {
        let item = lines[i].replace(/^\s*([-*+]|\d+\.)\s+/, "");
        for (i++; i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*+]|\d+\.)\s+/.test(lines[i]); i++) item += " " + lines[i].trim();
        items.push(h("li", {}, inline(h, item)));
      }
      blocks.push(h(ordered ? "ol" : "ul", {}, items));
      continue;
    }
    if (line.startsWith("|")) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith("|"); i++) {
        if (/^\|[\s:|-]+\|?\s*$/.test(lines[i])) continue; // the header's rule
        rows.push(lines[i].replace(/^\||\|\s*$/g, "").split("|").map((c) => c.trim()));
      }
      blocks.push(h("table", {}, rows.map((r, k) => h("tr", {}, r.map((c) => h(k ? "td" : "th", {}, inline(h, c)))))));
      continue;
    }
    if (line.startsWith(">")) {
      const quote = [];
      for (; i < lines.length && lines[i].startsWith(">"); i++) quote.push(lines[i].replace(/^>\s?/, ""));
      blocks.push(h("blockquote", {}, inline(h, quote.join(" "))));
      continue;
    }
    const para = [];
    for (; i < lines.length && lines[i].trim() && !/^(#{1,4}\s|```|\||>|\s*([-*+]|\d+\.)\s)/.test(lines[i]); i++) para.push(lines[i].trim());
    blocks.push(h("p", {}, inline(h, para.join(" "))));
  }
  return blocks;
}

export async function howtoPage(app, game, { h, title }) {
  document.title = `cardtable · ${t("web.lobby.howto", { game: title })}`;
  const r = await fetch(`/api/howto/${encodeURIComponent(game)}?lang=${lang}`);
  const back = h("p", {}, h("a", { href: "/", "data-link": true, "data-testid": "howto-back" }, t("web.howto.back")));
  const body = r.ok
    ? markdown(h, (await r.json()).markdown)
    : [h("h1", {}, t("web.lobby.howto", { game: title })), h("p", { "data-testid": "howto-missing" }, t("web.howto.missing", { game: title }))];
  app.replaceChildren(h("article", { class: "card-panel howto", "data-testid": "howto" }, ...body, back));
}
