"""The page's catalogs in every language: Portuguese has every key English has, with the same
placeholders; each game, preset, option and choice a player sees in the lobby has a label and a
one-line explanation in each language."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from cardtable.i18n import LANGUAGES, catalog
from cardtable.server.pages import PAGES, html
from cardtable.server.routes_lobby import games_info

WEB = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web"


def web_catalog(lang: str) -> dict[str, str]:
    data = json.loads(resources.files("cardtable.i18n").joinpath(lang, "web.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


SUFFIXLESS_PLURALS = ("ar",)
"""Languages that form no plural with an ending: they leave English's ``{s}`` fields out."""


def placeholders(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
def test_every_language_has_every_key_and_placeholder(lang: str):
    en, other = web_catalog("en"), web_catalog(lang)
    assert sorted(set(en) - set(other)) == []
    assert sorted(set(other) - set(en)) == []
    for key, template in en.items():
        expected = placeholders(template)
        if lang in SUFFIXLESS_PLURALS:  # Arabic counts with "أوراق: {n}", not an ending {s}
            expected = {p for p in expected if p != "s" and not p.endswith("_s")}
        assert expected == placeholders(other[key]), (lang, key)
        assert other[key].strip(), (lang, key)


@pytest.mark.parametrize("name", PAGES)
def test_every_page_offers_every_language_with_a_catalog(name: str):
    page = html(name)
    script = (WEB / "static" / "i18n.js").read_text(encoding="utf-8")
    for code in LANGUAGES:
        assert f'<option value="{code}">' in page, code
        assert f'"{code}"' in script, code


def choice_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lobby_word_has_a_label_and_an_explanation(lang: str):
    cat = web_catalog(lang)
    missing = []
    for g in games_info():
        game = g["name"]
        missing += [k for k in (f"web.game.{game}.about",) if k not in cat]
        for preset in g["presets"]:
            missing += [k for k in (f"web.preset.{game}.{preset}", f"web.preset.{game}.{preset}.doc") if k not in cat]
        for o in g["options"]:
            name = o["name"]
            missing += [k for k in (f"web.option.{game}.{name}", f"web.option.{game}.{name}.doc") if k not in cat]
            for c in o["choices"] or ():
                key = f"web.choice.{game}.{o['name']}.{choice_text(c)}"
                if key not in cat:
                    missing.append(key)
        for bot in g["bots"]:
            level = bot.split("-", 1)[1] if bot.startswith(("policy-", "reaction-")) else bot
            if f"web.bot.level.{level}" not in cat:
                missing.append(f"web.bot.level.{level}")
    assert missing == []
    # a label is words, not the identifier it stands for
    for key, text in cat.items():
        if key.startswith(("web.option.", "web.preset.")):
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), (key, text)


SERVER = WEB.parent / "server"
SPECIFIC_ERRORS = {"illegal", "bad_action", "bad_message", "lost_race"}
"""Error codes whose message names what was wrong (the action, the field): the page shows the
server's words, or (``lost_race``) a sentence of its own."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_the_server_sends_a_seat_is_said_in_the_pages_language(lang: str):
    """A refusal with a fixed meaning (too many at once, the game waits, over, ...) reaches the
    person in their language, not as the server's English message."""
    codes = set()
    for path in SERVER.glob("*.py"):
        codes |= set(re.findall(r'error_frame\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
        codes |= set(re.findall(r'"type": "error", "code": "([a-z_]+)"', path.read_text(encoding="utf-8")))
    assert {"rate_limited", "paused", "over", "undo_off"} <= codes  # the scan finds them
    catalog = web_catalog(lang)
    unsaid = sorted(c for c in codes - SPECIFIC_ERRORS
                    if f"web.error.{c}" not in catalog and f"web.undo.{c}" not in catalog)
    assert not unsaid, f"no {lang} sentence for the error codes {unsaid}"


EUROPEAN_PT = re.compile(
    r"\b(tu|teu|tua|teus|tuas|ti|contigo|tens|podes|estás|queres|sabes|vais|fazes|és|vós|vosso|vossa)\b"
    r"|«|»|\ba (jogar|esperar|pensar)\b|\baté ao\b|\bbaralhad", re.IGNORECASE)
"""What marks a text as European Portuguese: the second person "tu" (its pronouns and verbs), the
angle quotes, "a jogar" for "jogando", "até ao", "baralhar" for "embaralhar"."""


def test_brazilian_portuguese_says_voce_never_european_tu():
    """pt is Brazilian (as its tui texts): "Você pode retirar as suas jogadas", never "Podes
    retirar as tuas jogadas" or "não tens" (the undo texts were European)."""
    european = {key: text for key, text in web_catalog("pt").items() if EUROPEAN_PT.search(text)}
    assert european == {}


OWN_WORDS = {
    "bad_login": "web.players.error.bad_login", "name_taken": "web.players.error.name_taken",
    "bad_username": "web.players.error.bad_username", "reserved_username": "web.players.error.reserved_username",
    "lookalike_username": "web.players.error.lookalike_username", "bad_password": "web.players.error.bad_password",
    "no_player": "web.players.no_player", "no_game": "web.players.no_game",
    "bad_deals": "web.events.error.bad_deals", "bad_rounds": "web.events.error.bad_rounds",
    "no_seat": "web.events.no_table",
}
"""Codes a page says with words of its own (static/account.js ERRORS: the account form's and the
players' pages'; tournament-events.js: web.events.error.*; tournament-event.js: no_seat); every
other code is web.error.<code> (static/errors.js)."""
NAMED_CODES = {"bad_commitment", "bad_seed", "bad_rounds", "bad_max_entrants"}
"""The codes the server builds from a field's name (fairplay.check_hex, events' _int)."""


def http_error_codes() -> set[str]:
    codes = set(NAMED_CODES)
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'LobbyError\(\s*\d+(?: if [^,]+ else \d+)?,\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'_bad\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'^\s+code = "([a-z_]+)"', text, re.MULTILINE))  # ports.py: store, moved
        if path.parent.name == "events":  # the events' gate answers a table's requests itself: event_table, sealed
            codes |= set(re.findall(r'JSONResponse\(\{"error": "([a-z_]+)"', text))
    assert {"too_many_open", "no_event", "full", "store", "bad_login", "event_table", "sealed"} <= codes  # found
    return codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_of_the_http_api_is_said_in_the_pages_language(lang: str):
    """The lobby, the table's seats, the events' and the players' pages show a refused request
    (``{"error": code, "message", ...}``) in their language: "5 open tables from this page at
    most" in every language, not the server's English message."""
    page_catalog = {k: v for k, v in catalog(lang).items() if k.startswith("web.")}  # what /i18n/<lang>.json serves
    keys = {code: [OWN_WORDS.get(code, f"web.error.{code}")] for code in http_error_codes()}
    keys["too_many_open"] = ["web.error.too_many_open.host", "web.error.too_many_open.address"]
    keys["full"] += ["web.error.event_full"]  # an event's (account.js) and the server's tables (the lobby)
    keys["started"] += ["web.error.event_started"]
    unsaid = sorted(k for code, ks in keys.items() for k in ks if k not in page_catalog)
    assert not unsaid, f"no {lang} sentence for {unsaid}"
