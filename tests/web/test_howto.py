"""The How to play pages: docs/howto-<game>.md (a language's own file first),
shipped in the package through links, only for a registered game's name; a player's words (no rule
ids, no option identifiers), every lobby rule explained, drawn in Chromium as text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.registry import game_class, game_names
from cardtable.i18n import LANGUAGES, catalog
from cardtable.server.howto import PAGES, howto_file
from tests.server.netserver import Server

from .browser import SHOTS, sync_api

DOCS = Path(__file__).resolve().parents[2] / "docs"
RULE_ID = re.compile(r"\b(TR|TX|SP)-[VA]?\d+\b")
SOURCE_ID = re.compile(r"\b(D[0-4]|P-TREX|P-TRASH|W-TREX|W-SPIT|PARL|JAW)\b")
SPEC_WORDS = re.compile(r"\b(MUST|MAY|SHALL|seat [0-9]|next\(|L_p)\b")


def written() -> list[tuple[str, str, Path]]:
    """(game, language, file) of every How to play page in docs/."""
    out = []
    for game in game_names():
        for lang in LANGUAGES:
            path = DOCS / (f"howto-{game}.md" if lang == "en" else f"howto-{game}.{lang}.md")
            if path.is_file():
                out.append((game, lang, path))
    return out


PAGES_WRITTEN = written()
IDS = [f"{g}-{lang}" for g, lang, _ in PAGES_WRITTEN]


def test_a_howto_file_in_the_language_first_then_english(tmp_path: Path):
    (tmp_path / "howto-trash.md").write_text("# Trash\n", encoding="utf-8")
    assert howto_file("trash", "es", tmp_path) == (tmp_path / "howto-trash.md", "en")
    (tmp_path / "howto-trash.es.md").write_text("# Trash (es)\n", encoding="utf-8")
    assert howto_file("trash", "es", tmp_path) == (tmp_path / "howto-trash.es.md", "es")
    assert howto_file("trex", "en", tmp_path) is None  # not written yet


def test_only_a_registered_game_reaches_the_file_system(tmp_path: Path):
    (tmp_path / "howto-..md").write_text("x", encoding="utf-8")
    for name in ("..", "../README", "trash/../../x", "nope"):
        assert howto_file(name, "en", tmp_path) is None


def test_every_game_has_an_english_page():
    for game in game_names():
        assert (DOCS / f"howto-{game}.md").is_file(), game
        assert howto_file(game, "en") == (PAGES / f"howto-{game}.md", "en")


def test_the_package_ships_the_docs_pages_through_links_not_copies():
    """One source: each docs/howto page has a link in cardtable/web/howto/ (a wheel copies what it
    points to), and nothing else is there."""
    docs = {p.name for p in DOCS.glob("howto-*.md")}
    shipped = {p.name for p in PAGES.iterdir()}
    assert shipped == docs
    for name in shipped:
        link = PAGES / name
        assert link.is_symlink() and link.resolve() == (DOCS / name).resolve(), name


@pytest.mark.parametrize(("game", "lang", "path"), PAGES_WRITTEN, ids=IDS)
def test_a_players_page_has_no_rule_ids_and_no_spec_words(game: str, lang: str, path: Path):
    text = path.read_text(encoding="utf-8")
    assert not RULE_ID.search(text), RULE_ID.findall(text)
    assert not SOURCE_ID.search(text), SOURCE_ID.findall(text)
    assert not SPEC_WORDS.search(text), SPEC_WORDS.findall(text)
    options = [o.name for o in game_class(game).OPTIONS]
    assert not [o for o in options if "_" in o and o in text]  # the lobby's words, not identifiers
    assert "```" not in text  # no code block for tests/test_docs.py to run


@pytest.mark.parametrize(("game", "lang", "path"), PAGES_WRITTEN, ids=IDS)
def test_every_lobby_option_and_preset_is_explained_on_the_page(game: str, lang: str, path: Path):
    """Each option of the registry, by the name the lobby shows it with in that language, is a
    bold entry of the page's list; each preset is a row of its table."""
    text = path.read_text(encoding="utf-8")
    words = catalog(lang)
    cls = game_class(game)
    missing = [o.name for o in cls.OPTIONS
               if not re.search(rf"^- \*\*{re.escape(words[f'web.option.{game}.{o.name}'])}\*\*: \S", text, re.M)]
    assert not missing, missing
    presets = [p for p in cls.PRESETS if f"| {words[f'web.preset.{game}.{p}']} |" not in text]
    assert not presets, presets
    for heading in ("#", "##"):
        assert re.search(rf"^{heading} \S", text, re.M)


def test_the_api_answers_the_pages_markdown_or_a_clear_404(client: Any):
    for game in ("trash", "trex", "spit"):
        r = client.get(f"/api/howto/{game}?lang=es")
        found = howto_file(game, "es")
        assert found is not None
        assert r.status_code == 200 and r.json()["markdown"] == found[0].read_text(encoding="utf-8")
        assert r.json()["lang"] == found[1]
    assert client.get("/api/howto/..%2Fsecret").status_code == 404  # no route at all
    r = client.get("/api/howto/nope")
    assert r.status_code == 404 and r.json()["error"] == "no_howto"
    assert client.get("/howto/trash").status_code == 200  # the page, which draws it


def test_the_lobby_link_of_every_game_opens_its_page_with_its_headings(server: Server, watched: Any):
    w = watched()
    page = w.page
    for game in game_names():
        page.goto(server.http + "/")
        page.get_by_test_id("game").select_option(game)
        page.get_by_test_id("howto-link").click()
        page.wait_for_url(f"**/howto/{game}")
        howto = page.get_by_test_id("howto")
        sync_api.expect(howto).to_be_visible()
        source = (DOCS / f"howto-{game}.md").read_text(encoding="utf-8")
        h1 = re.findall(r"^# (.+)$", source, re.M)
        h2 = re.findall(r"^## (.+)$", source, re.M)
        sync_api.expect(howto.locator("h1")).to_have_text(h1)
        sync_api.expect(howto.locator("h2")).to_have_text(h2)
        assert howto.locator("table").count() >= 2 and howto.locator("li").count() >= 10
        assert howto.locator("strong").count() >= len(game_class(game).OPTIONS)
    assert not w.errors, w.errors


def test_the_page_draws_markdown_as_text_never_as_html(server: Server, watched: Any):
    """A heading, list item, table cell or link holding HTML is drawn as those characters."""
    w = watched()
    page = w.page
    page.goto(server.http + "/howto/trash")
    sync_api.expect(page.get_by_test_id("howto")).to_be_visible()
    result = page.evaluate("""async () => {
      const { markdown } = await import('/static/howto.js');
      const h = (tag, attrs, ...kids) => { const el = document.createElement(tag);
        for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
        for (const c of kids.flat()) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
        return el; };
      const src = '# <img src=x onerror="window.bad=1">\\n\\n- <b>item</b>\\n\\n| a | b |\\n|---|---|\\n'
        + '| <script>window.bad=2</script> | **x** |\\n\\n[go](javascript:window.bad=3)';
      const box = document.createElement('div');
      box.append(...markdown(h, src));
      return { html: box.querySelectorAll('img, script, b').length, text: box.textContent,
               href: box.querySelector('a').getAttribute('href'), strong: box.querySelectorAll('strong').length };
    }""")
    assert result["html"] == 0 and "<img src=x" in result["text"] and "<script>" in result["text"]
    assert result["href"] == "#" and result["strong"] == 1
    assert page.evaluate("window.bad") is None


def test_a_page_in_the_players_language_is_drawn_in_it(server: Server, watched: Any):
    """The language chosen in the page picks its own file (Arabic right to left); English otherwise."""
    translated = [(g, lang, p) for g, lang, p in PAGES_WRITTEN if lang != "en"]
    assert any(lang == "ar" and g == "trex" for g, lang, _ in translated)
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    for game, lang, path in translated:
        page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
        page.goto(f"{server.http}/howto/{game}")
        howto = page.get_by_test_id("howto")
        h1 = re.findall(r"^# (.+)$", path.read_text(encoding="utf-8"), re.M)
        sync_api.expect(howto.locator("h1")).to_have_text(h1)
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
        sync_api.expect(howto.get_by_test_id("howto-back")).to_have_text(catalog(lang)["web.howto.back"])
    page.screenshot(path=str(SHOTS / "howto-trex-ar.png"))
    assert not w.errors, w.errors
