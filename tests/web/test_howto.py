"""The How to play pages: served from docs/howto-<game>.md (a language's own file first), only
for a registered game's name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.server.howto import DOCS, howto_file


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


def test_the_api_answers_the_docs_markdown_or_a_clear_404(client: Any):
    for game in ("trash", "trex", "spit"):
        r = client.get(f"/api/howto/{game}?lang=es")
        path = DOCS / f"howto-{game}.md"
        if path.is_file():
            assert r.status_code == 200 and r.json()["markdown"] == path.read_text(encoding="utf-8")
        else:
            assert r.status_code == 404 and r.json()["error"] == "no_howto"
    r = client.get("/api/howto/..%2Fsecret")
    assert r.status_code == 404
    assert client.get("/howto/trash").status_code == 200  # the page, which draws it
