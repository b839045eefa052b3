"""The browser's catalogs (``i18n/{en,es}/web.json``): the same keys and placeholders in both
languages, and every ``web.*`` key the page's code names literally exists in English."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from cardtable.i18n import catalog

WEB = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "web"


def web_catalog(lang: str) -> dict[str, str]:
    path = resources.files("cardtable.i18n").joinpath(lang, "web.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def placeholders(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def test_english_and_spanish_have_the_same_keys_and_placeholders():
    en, es = web_catalog("en"), web_catalog("es")
    assert sorted(set(en) - set(es)) == []
    assert sorted(set(es) - set(en)) == []
    for key, template in en.items():
        assert key.startswith("web."), key
        assert placeholders(template) == placeholders(es[key]), key
        assert es[key].strip(), key


def test_every_key_the_page_names_exists():
    en = catalog("en")  # every namespace of the page's catalog (web.json, events.json)
    sources = [path.read_text(encoding="utf-8") for path in sorted((WEB / "static").rglob("*.js"))]
    sources.append((WEB / "page.html").read_text(encoding="utf-8"))
    named = {key for text in sources for key in re.findall(r"""["'](web\.[A-Za-z0-9_.]+[A-Za-z0-9_])["']""", text)}
    assert len(named) > 100
    assert sorted(named - set(en)) == []


def test_the_keys_built_from_view_values_exist():
    """Keys the game pages build from a view's value (a wild mode, a Spit phase, a Trex place)."""
    en = web_catalog("en")
    built = [f"web.trash.wild.{m}" for m in ("jacks", "kings", "all_faces")]
    built += [f"web.spit.phase.{p}" for p in ("play", "spit_pending", "slap", "over")]
    built += [f"web.spit.scoring.{s}" for s in ("standard", "points")]
    built += [f"web.trex.place.{i}" for i in range(4)] + ["web.trex.note.pass", "web.trex.note.revoke"]
    built += [f"web.trex.prompt.{p}" for p in ("redeal", "choose", "double", "trick", "trex")]
    built += [f"web.trex.action.{a}" for a in ("done", "redeal", "keep")]
    built += [f"web.trex.contract.{c}" for c in ("KH", "QN", "DI", "TK", "TR", "CX")]
    built += [f"web.{game}.rules" for game in ("trash", "trex", "spit")]
    assert sorted(k for k in built if k not in en) == []
