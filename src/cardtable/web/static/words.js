// Words for players: the names and one-line explanations of games, presets, options and their
// choices (web.game.*, web.preset.*, web.option.*, web.choice.* in the page's catalog). A name
// the catalog does not have yet shows as the server gave it.
import { digits, has, joinList, t } from "./i18n.js";

const or = (key, fallback, values) => (has(key) ? t(key, values) : fallback);

export const presetLabel = (game, preset) => or(`web.preset.${game}.${preset}`, preset);
export const presetDoc = (game, preset, doc = "") => or(`web.preset.${game}.${preset}.doc`, doc);
export const optionLabel = (game, name) => or(`web.option.${game}.${name}`, name);
export const optionDoc = (game, name, doc = "") => or(`web.option.${game}.${name}.doc`, doc);
export const gameAbout = (game) => or(`web.game.${game}.about`, "");

// A value of an option as a player reads it: a choice by its label, on/off, none; a number in the
// page language's digits (Arabic-Indic for ar).
export function valueText(game, name, value) {
  if (value === null || value === undefined) return t("web.lobby.none");
  const key = `web.choice.${game}.${name}.${String(value)}`;
  if (has(key)) return t(key);
  if (value === true) return t("web.lobby.yes");
  if (value === false) return t("web.lobby.no");
  return digits(Array.isArray(value) ? joinList(value) : String(value));
}

// "Wild cards: Kings" for a table's changed option
export const optionText = (game, name, value) => `${optionLabel(game, name)}: ${valueText(game, name, value)}`;
