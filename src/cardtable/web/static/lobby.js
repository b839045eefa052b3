// The lobby: the form for a new table (every game, preset and option with its name and a
// one-line explanation on the page, as a phone has no hover; what each game is and a link to its
// How to play page) and the list of tables.
import { joinList, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api, newTable, sitAt } from "./api.js";
import { flash, h, store } from "./dom.js";
import { go } from "./nav.js";
import { seatName } from "./people.js";
import { gameAbout, optionDoc, optionLabel, presetDoc, presetLabel, valueText } from "./words.js";

export async function lobby(app) {
  document.title = "cardtable";
  const { games } = await api("/api/games");
  const { tables } = await api("/api/tables");
  const quick = await fetch("/api/players/me").then((r) => r.ok, () => false); // a server with accounts has quick play
  const form = gameForm(games);
  const seat = sitChoice();
  const button = h("button", { type: "submit", class: "primary", "data-testid": "create" }, t("web.create"));
  // one click, one table: the button is off while the request is under way (a double click, or
  // Enter pressed again, makes nothing more) and on again after a refusal
  const create = async (ev) => {
    ev.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    try {
      const data = await newTable(form.body());
      await seat.take(data.table);
      go(`/t/${data.table.id}`);
    } catch (e) {
      button.disabled = false;
      flash(errorText(e));
    }
  };
  app.replaceChildren(
    quick ? quickPlay(games) : "",
    h("section", { class: "card-panel" },
      h("h1", {}, t("web.new_table")),
      h("form", { class: "create", onsubmit: create },
        h("label", {}, t("web.game"), " ", form.gameSel),
        h("div", { class: "about-row" }, form.about, form.howtoLink),
        h("label", {}, t("web.preset"), " ", form.presetSel),
        form.presetNote,
        form.playersRow,
        form.ratedRow,
        seat.row,
        button,
        h("details", { class: "more" }, h("summary", {}, t("web.more_options")), form.undoRow, form.more))),
    h("section", { class: "card-panel" }, h("h2", {}, t("web.open_tables")), ...tableList(tables)));
}

// "Play now" for each game (docs/play-online.md): its own page waits for a seat at a rated table.
function quickPlay(games) {
  return h("section", { class: "card-panel quick-play", "data-testid": "quick-play" },
    h("h2", {}, t("web.quick.heading")), h("p", { class: "option-doc" }, t("web.quick.doc")),
    h("p", {}, games.flatMap((g) => [h("a", { href: `/quick/${g.name}`, class: "button primary", "data-testid": `play-now-${g.name}` },
      t("web.quick.play", { game: g.title })), " "])));
}

// The game, its preset, the number of players, undo and the other options; body() is what the
// server is asked to make (only the options the person changed, besides the players).
function gameForm(games) {
  const gameSel = h("select", { id: "game", "data-testid": "game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const about = h("p", { class: "about", "data-testid": "game-about" });
  const howtoLink = h("a", { "data-testid": "howto-link", "data-link": true });
  const presetSel = h("select", { id: "preset", "data-testid": "preset" });
  const presetNote = h("p", { class: "option-doc", "data-testid": "preset-doc" });
  const players = h("input", { id: "players", type: "number", min: 2, value: 2, "data-testid": "players" }); // its range: the game's, below
  const playersLabel = h("span", {}, t("web.players"));
  const playersRow = h("label", {}, playersLabel, " ", players);
  const more = h("div", { class: "options" });
  const undo = undoOption();
  const rated = ratedOption(undo);
  let touched = new Map(); // option name -> () => value, only for the options the user changed
  const chosen = () => games.find((x) => x.name === gameSel.value);
  const fill = () => {
    const g = chosen();
    about.textContent = gameAbout(g.name);
    howtoLink.textContent = t("web.lobby.howto", { game: g.title });
    howtoLink.href = `/howto/${g.name}`;
    presetSel.replaceChildren(...Object.keys(g.presets).map((p) => h("option", { value: p, title: g.presets[p] }, presetLabel(g.name, p))));
    const opt = g.options.find((o) => o.name === "players");
    playersRow.hidden = !opt;
    if (opt) {
      players.min = opt.minimum; players.max = opt.maximum; players.value = opt.default;
      playersLabel.textContent = optionLabel(g.name, "players");
    }
    touched = new Map();
    more.replaceChildren(...g.options.filter((o) => o.name !== "players").map((o) => optionControl(g.name, o, (name, read) => touched.set(name, read))));
    presetNote.textContent = presetDoc(g.name, presetSel.value, g.presets[presetSel.value]);
    undo.offer(g);
    rated.offer(g);
  };
  if (games.some((g) => g.name === "trash")) gameSel.value = "trash";  // the first game people meet
  gameSel.addEventListener("change", fill);
  presetSel.addEventListener("change", () => {
    const g = chosen();
    presetNote.textContent = presetDoc(g.name, presetSel.value, g.presets[presetSel.value]);
  });
  fill();
  const body = () => {
    const options = playersRow.hidden ? {} : { players: Number(players.value) };
    for (const [name, value] of touched) options[name] = value();
    const out = { game: gameSel.value, preset: presetSel.value, options };
    if (undo.box.checked) out.undo = true;
    Object.assign(out, rated.body());
    return out;
  };
  return { gameSel, about, howtoLink, presetSel, presetNote, playersRow, more, undoRow: undo.row, ratedRow: rated.row, body };
}

// One option's control, its name and explanation; `changed(name, read)` is called once the person
// changes it, with a function that reads its value.
function optionControl(game, o, changed) {
  let input;
  if (o.choices) {
    input = h("select", {}, o.choices.map((c) => h("option", { value: String(c) }, valueText(game, o.name, c))));
    input.value = String(o.default);
  } else if (o.type === "bool") {
    input = h("input", { type: "checkbox" });
    input.checked = Boolean(o.default);
  } else if (o.type === "int" || o.type === "float") {
    input = h("input", { type: "number", step: o.type === "int" ? 1 : "any", min: o.minimum ?? undefined,
      max: o.maximum ?? undefined, placeholder: o.default === null ? t("web.lobby.none") : String(o.default), size: 6 });
    if (o.default !== null) input.value = o.default;
  } else {
    input = h("input", { value: Array.isArray(o.default) ? o.default.join(",") : (o.default ?? "") });
  }
  input.setAttribute("data-option", o.name);
  input.addEventListener("change", () => changed(o.name, () => {
    if (input.type === "checkbox") return input.checked;
    if (input.type === "number") return input.value === "" ? null : Number(input.value);
    if (o.choices) return o.choices.find((c) => String(c) === input.value); // true stays true, not "true"
    if (o.type === "tuple") return input.value.split(",").map((x) => Number(x.trim()));
    return input.value;
  }));
  const id = `opt-${o.name}`;
  input.id = id;
  return h("div", { class: "option", "data-testid": `option-${o.name}`, title: o.doc },
    h("label", { for: id }, h("b", {}, optionLabel(game, o.name)), " ", input),
    h("p", { class: "option-doc" }, optionDoc(game, o.name, o.doc), " ",
      h("span", { class: "muted" }, `(${t("web.lobby.default", { value: valueText(game, o.name, o.default) })})`)));
}

// Undo against bots (docs/web.md): a table option, offered for the turn-based games only.
function undoOption() {
  const box = h("input", { type: "checkbox", id: "opt-undo", "data-testid": "create-undo" });
  const row = h("div", { class: "option", "data-testid": "option-undo" },
    h("label", { for: "opt-undo" }, h("b", {}, t("web.lobby.undo")), " ", box),
    h("p", { class: "option-doc" }, t("web.lobby.undo_doc"), " ",
      h("span", { class: "muted" }, `(${t("web.lobby.default", { value: t("web.lobby.no") })})`)));
  const offer = (g) => {
    row.hidden = !g.undo;
    if (!g.undo) box.checked = false;
  };
  return { box, row, offer };
}

// Rated or casual (docs/play-online.md): a rated table moves the players' ratings and has no undo;
// a turn-based game's rated table has a per-move clock (seconds a move, a bank per deal).
function ratedOption(undo) {
  const box = h("input", { type: "checkbox", id: "opt-rated", "data-testid": "create-rated" });
  const move = h("input", { type: "number", min: 3, max: 300, step: 1, value: 15, size: 4, "data-testid": "clock-move" });
  const bank = h("input", { type: "number", min: 0, max: 600, step: 1, value: 30, size: 4, "data-testid": "clock-bank" });
  const clock = h("p", { class: "option-doc", "data-testid": "clock-fields" },
    h("label", {}, t("web.lobby.clock_move"), " ", move), " ", h("label", {}, t("web.lobby.clock_bank"), " ", bank));
  const row = h("div", { class: "option", "data-testid": "option-rated" },
    h("label", { for: "opt-rated" }, h("b", {}, t("web.lobby.rated")), " ", box),
    h("p", { class: "option-doc" }, t("web.lobby.rated_doc")), clock);
  let timed = true;
  const sync = () => {
    clock.hidden = !(box.checked && timed);
    if (box.checked) undo.box.checked = false;
    undo.box.disabled = box.checked;
  };
  box.addEventListener("change", sync);
  const offer = (g) => { timed = Boolean(g.undo); sync(); }; // g.undo: a turn-based game
  const body = () => {
    if (!box.checked) return {};
    return timed ? { rated: true, clock: { move: Number(move.value), bank: Number(bank.value), timeouts: 3 } } : { rated: true };
  };
  sync();
  return { box, row, offer, body };
}

// The creator takes seat 0 at once, unless they untick it (the name is kept for the next table);
// take(table) sits them at the new table, by the name given or the server's "Player 1".
function sitChoice() {
  const box = h("input", { type: "checkbox", "data-testid": "create-sit" });
  box.checked = store.get("ct.sit") !== false;  // sitting is the default; a host who only watches unticks it
  const name = h("input", { maxlength: 25, size: 12, placeholder: t("web.your_name"), "data-testid": "create-name",
    value: store.get("ct.name") || "" });
  const take = async (table) => {
    store.set("ct.sit", box.checked);
    if (!box.checked) return;
    const given = name.value.trim();
    if (given) store.set("ct.name", given);
    const sat = await sitAt(table, 0, given);
    store.set(`ct.seat.${table.id}`, { seat: 0, token: sat.token });
  };
  return { row: h("label", {}, box, " ", t("web.lobby.sit_as"), " ", name), take };
}

// The open tables and the games in progress, newest first, a rated one marked so; "a free seat"
// keeps the open tables with a seat nobody holds yet.
function tableList(tables) {
  const freeOnly = h("input", { type: "checkbox", "data-testid": "free-only" });
  freeOnly.checked = Boolean(store.get("ct.free_only"));
  const list = h("div", { "data-testid": "tables" });
  const fillList = () => {
    store.set("ct.free_only", freeOnly.checked);
    const shown = tables.slice().reverse().filter((tb) => !freeOnly.checked
      || (tb.status === "open" && tb.seats.some((s) => s.kind === "open")));
    list.replaceChildren(shown.length
      ? h("ul", { class: "tables" }, shown.map((tb) => h("li", { "data-testid": `table-${tb.id}` },
          h("a", { href: `/t/${tb.id}`, "data-link": true }, `${tb.title} · ${presetLabel(tb.game, tb.preset)}`), " ",
          h("span", { class: "muted" }, t(`web.status.${tb.status}`),
            ...(tb.rated ? [" · ", h("b", { "data-testid": `rated-${tb.id}` }, t("web.players.rated"))] : []),
            " · ", joinList(tb.seats.map(seatName))))))
      : h("p", { class: "muted" }, t(freeOnly.checked && tables.length ? "web.lobby.no_free" : "web.no_tables")));
  };
  freeOnly.addEventListener("change", fillList);
  fillList();
  return [h("label", { class: "filter" }, freeOnly, " ", t("web.lobby.free_seat")), list];
}
