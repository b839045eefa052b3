"""The players' How to play pages: ``docs/howto-<game>.md`` (and ``docs/howto-<game>.<lang>.md``
where one is written in that language), shipped in the package as ``cardtable/web/howto/``.

The docs are the one source: ``src/cardtable/web/howto/`` holds a symbolic link to each page, and
building a wheel copies the files they point to, so an installed package (which has no docs/) serves
the same pages. ``GET /api/howto/{game}?lang=xx`` answers ``{"game", "lang", "markdown"}``; the page
at ``/howto/<game>`` draws it (as text, never as HTML). A game whose page is not written yet answers
404 ``no_howto``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..core.registry import game_names
from ..i18n import LANGUAGES

PAGES = Path(__file__).resolve().parents[1] / "web" / "howto"
"""The pages in the package (in a checkout, links to docs/howto-*.md)."""


def howto_file(game: str, lang: str, pages: Path = PAGES) -> tuple[Path, str] | None:
    """The How to play file of ``game`` in ``lang`` (else in English) and its language, if written."""
    if game not in game_names():  # only a registered game's name ever reaches the file system
        return None
    for code, name in ((lang, f"howto-{game}.{lang}.md"), ("en", f"howto-{game}.md")):
        path = pages / name
        if path.is_file():
            return path, code
    return None


def howto_endpoint(pages: Path = PAGES) -> Any:
    async def api_howto(request: Request) -> Response:
        game = request.path_params["game"]
        lang = request.query_params.get("lang", "en")
        found = howto_file(game, lang if lang in LANGUAGES else "en", pages)
        if found is None:
            return JSONResponse({"error": "no_howto", "message": f"no How to play page for {game!r} yet"},
                                status_code=404)
        path, code = found
        return JSONResponse({"game": game, "lang": code, "markdown": path.read_text(encoding="utf-8")})

    return api_howto
