"""A table that moves: a played card travels from its place to the trick, a won
trick goes to its winner, a Trash card turns over in its slot and the card it uncovers flies to the
hand, a Spit card lands on the pile it was played to. Short, finished at once by a newer frame, and
off under prefers-reduced-motion, where the page draws the same final table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.server.netserver import Server

from ..walk import walked
from .fakesocket import FakeTable, new_state, sync_api

# how many moves the page has started, and the last drawing's moves ("hand:QH>trick:0 | …")
MOTION = """() => [Number(document.documentElement.dataset.motion || 0),
                   (document.documentElement.dataset.motionMoves || '').split(' | ').filter(Boolean)]"""
FRAME = "() => Number(document.documentElement.dataset.motionFrame || 0)"


def table_for(server: Server, watched: Any, game: str, motion: str) -> FakeTable:
    table = FakeTable(server, watched, game)
    table.page.emulate_media(reduced_motion=motion)
    return table


def shown(table: FakeTable, state: Any) -> None:
    """Send the state and wait until the page has drawn it (motion.js counts each drawing)."""
    before = table.page.evaluate(FRAME)
    table.show(state)
    table.page.wait_for_function(f"() => Number(document.documentElement.dataset.motionFrame || 0) > {before}")


def trex_my_trick_turn() -> Any:
    """A Trex trick contract with seat 0 to lead or follow (seeded, bounded)."""
    state = new_state("trex", 3)
    for _ in range(400):
        view = state.view(0)
        if view.phase == "trick" and state.current_player() == 0 and not view.trick:
            return state
        actions = [str(a) for a in state.legal_actions()]
        state.play(next((a for a in ("contract QN", "keep", "done") if a in actions), actions[0]))
    raise AssertionError("no trick turn for seat 0")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_trex_a_played_card_flies_to_the_trick_and_the_trick_to_its_winner(server: Server, watched: Any, motion: str):
    table = table_for(server, watched, "trex", motion)
    page = table.page
    state = trex_my_trick_turn()
    shown(table, state)
    card = str(state.legal_actions()[0])
    state.play(card)
    shown(table, state)
    sync_api.expect(page.get_by_test_id("trick-0").locator(f"[data-card='{card}']")).to_have_count(1)
    count, last = page.evaluate(MOTION)
    if motion == "reduce":
        assert count == 0, last
    else:
        assert last == [f"hand:{card}>trick:0"], last
    while state.view(0).trick:  # the bots finish the trick: the cards go to its winner
        state.play(state.legal_actions()[0])
        shown(table, state)
    winner = state.view(0).last_trick_winner
    sync_api.expect(page.get_by_test_id("trick-0").locator("[data-card]")).to_have_count(0)
    sync_api.expect(page.get_by_test_id("last-trick")).to_contain_text("taken by")
    count, last = page.evaluate(MOTION)
    if motion == "reduce":
        assert count == 0, last
        assert page.locator(".ghost").count() == 0
    else:
        to_winner = [m for m in last if m.endswith(f'>[data-testid="seat-{winner}"]')]
        assert len(to_winner) >= 2 and all(m.startswith("trick:") for m in to_winner), last
    assert not table.w.errors, table.w.errors


def test_a_newer_frame_finishes_the_running_moves_at_once(server: Server, watched: Any):
    table = table_for(server, watched, "trex", "no-preference")
    page = table.page
    state = trex_my_trick_turn()
    shown(table, state)
    state.play(state.legal_actions()[0])
    first = page.evaluate(FRAME) + 1
    table.show(state)
    state.play(state.legal_actions()[0])
    table.show(state)  # right behind it
    page.wait_for_function(f"() => Number(document.documentElement.dataset.motionFrame || 0) > {first}")
    still = page.evaluate(
        f"() => document.getAnimations().map(a => a.id).filter(id => id.startsWith('motion-{first}-'))")
    assert still == []  # nothing of the older frame is still moving: it never queues behind
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_trash_the_drawn_card_turns_over_in_its_slot_and_the_uncovered_one_flies_to_the_hand(
        server: Server, watched: Any, motion: str):
    table = table_for(server, watched, "trash", motion)
    page = table.page
    for seed in range(500):  # a deal where seat 0's first draw is placed and uncovers a card
        state = new_state("trash", seed)
        if state.current_player() != 0:
            continue
        after = state.clone()
        after.play("stock")
        kinds = [e.kind for e in after.view(0).events]
        if "turn_up" in kinds and after.view(0).card_in_hand and after.current_player() == 0:
            break
    else:
        raise AssertionError("no such deal")
    shown(table, state)
    shown(table, after)
    hand = str(after.view(0).card_in_hand)
    sync_api.expect(page.get_by_test_id("hand").locator(f"[data-card='{hand}']")).to_have_count(1)
    count, last = page.evaluate(MOTION)
    if motion == "reduce":
        assert count == 0, last
    else:
        # the card uncovered flies to the hand
        assert any(m.startswith('[data-anim="slot:0:') and m.endswith(">hand") for m in last), last
        assert any(m.startswith("turn>slot:0:") for m in last), last  # the drawn card turns over in its slot
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_spit_a_card_lands_on_the_pile_it_was_played_to(server: Server, watched: Any, motion: str):
    table = table_for(server, watched, "spit", motion)
    page = table.page
    state = new_state("spit", 0)
    walked(state, random.Random(0), 2000, until=lambda s: any(str(a).startswith("0 play ") for a in s.legal_actions()))
    plays = [a for a in state.legal_actions() if str(a).startswith("0 play ")]
    assert plays, "no play for seat 0"
    shown(table, state)
    _, _, pile, card, spit = str(plays[0]).split()
    state.play(plays[0])
    shown(table, state)
    sync_api.expect(page.get_by_test_id(f"spit-{spit[1]}").locator(f"[data-card='{card}']")).to_have_count(1)
    count, last = page.evaluate(MOTION)
    if motion == "reduce":
        assert count == 0, last
    else:
        assert f"pile:0:{pile}>spit:{spit[1]}" in last, last
    assert not table.w.errors, table.w.errors
