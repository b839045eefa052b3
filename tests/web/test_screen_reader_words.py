"""What a screen reader says on a table page is in the page's language (Chromium): a face-down card
is the catalog's "face-down card", and a move's control is labelled with the move in words (the
words the hint and the log use: "draw from the stock", "Keep my hand", "play Q♥ from pile 3 onto
S1"), never with the action's code ("stock", "keep", "0 play 3 QH S1")."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.netserver import Server

from .fakesocket import FakeTable, new_state, sync_api, trash_draw, trex_trick
from .test_catalogs import web_catalog

LABELS = """() => [...document.querySelectorAll('[data-testid=board] .legal')]
    .map((el) => [el.dataset.legal, el.getAttribute('aria-label')])"""
BACKS = "() => [...document.querySelectorAll('[data-testid=board] .card.back .sr')].map((el) => el.textContent)"
LRI, PDI = "\u2066", "\u2069"


def face(code: str, lang: str) -> str:
    """A card's face as the page writes it (games/shared.js cardLabel): isolated in Arabic."""
    text = ("10" if code[0] == "T" else code[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[1]]
    return LRI + text + PDI if lang == "ar" else text


def labels(page: Any) -> dict[str, str]:
    return dict(page.evaluate(LABELS))


def backs_say(page: Any, lang: str) -> None:
    """Every card back on the board reads the catalog's "face-down card"."""
    said = page.evaluate(BACKS)
    assert said and set(said) == {web_catalog(lang)["web.card.face_down"]}, said


@pytest.mark.parametrize("lang", ["es", "pt", "ar"])
def test_trash_card_backs_and_moves_are_read_in_the_pages_language(server: Server, watched: Any, lang: str):
    cat = web_catalog(lang)
    table = FakeTable(server, watched, "trash", lang=lang)
    page = table.page
    state = trash_draw()
    table.show(state)
    sync_api.expect(page.get_by_test_id("stock")).to_have_attribute("aria-label", cat["web.trash.auto.stock"])
    backs_say(page, lang)  # the layouts' slots and the stock
    got = labels(page)
    assert got == {a: cat[f"web.trash.auto.{a}"] for a in got}, got  # stock, and the discard if it fits
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("lang", ["es", "pt", "ar"])
def test_trex_menu_and_cards_are_read_as_moves_not_codes(server: Server, watched: Any, lang: str):
    cat = web_catalog(lang)
    state = new_state("trex", 1)
    assert state.current_player() == 0 and {str(a) for a in state.legal_actions()} == {"redeal", "keep"}
    table = FakeTable(server, watched, "trex", lang=lang)
    page = table.page
    table.show(state)
    sync_api.expect(page.get_by_test_id("act-keep")).to_have_attribute("aria-label", cat["web.trex.action.keep"])
    assert labels(page) == {"keep": cat["web.trex.action.keep"], "redeal": cat["web.trex.action.redeal"]}
    state = trex_trick(state)
    table.show(state)
    playable = sorted(str(a) for a in state.legal_actions())
    hand = "(n) => document.querySelectorAll('[data-testid=hand] .legal').length === n"
    page.wait_for_function(hand, arg=len(playable))
    assert labels(page) == {c: face(c, lang) for c in playable}
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("lang", ["es", "pt", "ar"])
def test_spit_card_backs_and_targets_are_read_in_the_pages_language(server: Server, watched: Any, lang: str):
    cat = web_catalog(lang)
    state = new_state("spit", 1)  # seat 0 may play Q♥ from pile 3 onto S1, or ask for a spit
    assert {"0 play 3 QH S1", "0 spit"} <= {str(a) for a in state.legal_actions()}
    table = FakeTable(server, watched, "spit", lang=lang)
    page = table.page
    table.show(state)
    spit = page.get_by_test_id("spit")
    sync_api.expect(spit).to_have_attribute("aria-label", cat["web.spit.say.spit"])
    backs_say(page, lang)  # the face-down cards under the piles, the spit cards
    page.get_by_test_id("my-pile-3").click()
    target = page.get_by_test_id("spit-1")
    said = cat["web.spit.say.play"].replace("{c}", face("QH", lang)).replace("{pile}", "3").replace("{k}", "1")
    sync_api.expect(target).to_have_attribute("aria-label", said)
    assert all(label and label != action for action, label in labels(page).items()), labels(page)
    assert not table.w.errors, table.w.errors
