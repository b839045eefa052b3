"""Trash: sentence-by-sentence checks of docs/rules/trash.md that the first rule tests left unchecked.

Each test names the rule id (and the option) whose sentence it checks; every one of them
fails if that sentence were broken in the engine."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core.cards import JOKER_ID, Card
from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.games.trash.roles import STOP, WILDCARD
from cardtable.games.trash.state import NO_CARD

from .util import RUN_LAYOUT, RUN_STOCK, face_up, new, redeal

IDLE = "5S 6H 7S 8S 9H TH 2H 3D 4H 6D"  # seat 1 in tests where it only draws stop cards
CORRECT = "AD 2D 3S 4D 5D 6S 7D 8D 9D JH"  # every card correct for its slot (a wild on 10)


def cid(text: str) -> int:
    return Card.parse(text).id


def event_kinds(state) -> list[str]:
    return [e.kind for e in state.view(None).events]


# --------------------------------------------------------------------- set-up
def test_tr2_size_check_boundary_sum_of_layouts_plus_two():
    """TR-2: rejected only if sum(L_p) + 2 > total cards: 5 x 10 + 2 = 52 fits one deck."""
    assert len(cardtable.load("trash", players=5, decks=1).cards) == 52
    with pytest.raises(ConfigError, match="TR-2"):
        cardtable.load("trash", players=6, decks=1)


def test_tr2_trv5_two_jokers_per_deck_with_several_decks():
    game = cardtable.load("trash", players=3, jokers=True)  # 2 decks
    assert len(game.cards) == 108 and game.cards.count(JOKER_ID) == 4
    assert cardtable.load("trash", players=3).cards.count(JOKER_ID) == 0  # only under TR-V5


def test_tr3_number_cards_are_worth_their_face_value():
    for mode in ("jacks", "kings", "all_faces"):
        game = cardtable.load("trash", wild_mode=mode)
        for rank, value in zip("A23456789T", range(1, 11), strict=True):
            for suit in "CDHS":
                assert game.role[cid(rank + suit)] == value


def test_tr5_every_hand_starts_with_a_fresh_deal_and_no_discard():
    """TR-5: at the start of every hand all cards are gathered, shuffled and dealt; the
    discard pile starts empty (no starter card), so the first player draws (TR-A2)."""
    s = new([RUN_LAYOUT.replace("KC", "QC"), IDLE], RUN_STOCK + " QH QD")
    s.play("stock")  # seat 0 wins hand 1 at once; QC was discarded at completion
    v = s.view(1)
    assert v.hand_number == 2 and v.discard == ()
    assert v.stock_count == 52 - 9 - 10
    assert all(c is None for layout in v.layouts for c in layout)
    assert [str(a) for a in s.legal_actions()] == ["stock"]
    assert sorted(s.all_cards()) == sorted(s.game.cards)


# ------------------------------------------------------------------- a turn
def test_tr7_card_taken_from_discard_must_be_placed_even_when_take_is_unrestricted():
    """TR-7 (option discard_take_requires_playable = false): a placeable discard taken is
    placed, not passed back."""
    s = new(["5C 9D 9S JH 7D 6C AS 8H 3C QS", "5H 6H 7H 8D 9H TH AD 2S 4H 6D"], "QH 2C",
            discard_take_requires_playable=False)
    s.play("stock")
    s.play("stock")  # seat 1's chain ends by discarding 6D
    s.play("discard")
    assert "6:6D" in face_up(s, 0)
    assert s.view(0).top_discard is None or str(s.view(0).top_discard) != "6D"


def test_tr8_rebuilt_stock_is_shuffled_from_the_seed():
    """TR-8: all discards but the top are shuffled (not kept in order) into the new stock."""
    orders = set()
    for seed in range(4):
        s = new([CORRECT.replace("JH", "TD"), IDLE], "QH", seed=seed)
        s.play("stock")  # seat 0 discards QH
        rest = [c for c in s.stock]
        s.stock = []
        s.discard[:0] = rest  # white box: the stock ran out into the discards
        assert s._rebuild()  # what seat 1's draw does first
        assert s.discard == [cid("QH")] and sorted(s.stock) == sorted(rest)
        orders.add(tuple(s.stock))
    assert len(orders) > 1


def test_tr10_chain_never_stops_voluntarily_and_number_cards_place_themselves():
    """TR-10.1, TR-13: a number on a face-down slot is placed without a decision."""
    s = new([CORRECT.replace("AD", "2S").replace("2D", "AS"), IDLE], "AC")
    s.play("stock")  # AC -> 1 (2S up) -> 2 (AS up): slot 1 shows a number: discarded
    assert face_up(s, 0) == "1:AC 2:2S"
    assert str(s.view(0).top_discard) == "AS" and s.current_player() == 1


def test_tr11_card_in_hand_at_completion_is_discarded_even_onto_a_wild_slot():
    """TR-11: at completion the card in hand cannot be placed, not even a number whose slot
    holds a wild (no displacement is offered); it is discarded."""
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK)
    s.play("stock")  # seat 0 wins hand 1
    redeal(s, [9, 10], ["2C AD 3C 4C 5C 6C 7C 8C 9C", IDLE], "JH")
    s.play("stock")  # JH: a choice of 9 slots
    s.play("wild 1")  # JH on 1 -> 2C on 2 -> AD: slot 1 holds JH ... but 3..9 still face-down
    # AD is a number whose slot holds a wild: TR-12 would be offered mid-turn
    assert s.view(0).phase == "displace"
    redeal(s, [2, 10], ["2C AD", IDLE], "JH")
    s.turn = 0
    s.play("stock")
    s.play("wild 1")  # JH on 1 -> 2C on 2 -> AD turned up: no face-down slot left
    assert s.hands_won[0] == 2 and s.sizes[0] == 1
    ev = [(e.kind, str(e.card)) for e in s.view(1).events]
    assert ("complete", "None") in ev and ("discard", "AD") in ev
    assert ev.index(("complete", "None")) < ev.index(("discard", "AD"))


def test_tr11_completion_by_placing_a_displaced_wild():
    """TR-11 after TR-12a: the displaced wild, placed on the last face-down slot, completes."""
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK)
    s.play("stock")  # seat 0 wins hand 1
    redeal(s, [2, 10], ["AS KD", IDLE], "JC")
    s.turn = 0
    s.play("stock")  # JC: two face-down slots
    s.play("wild 1")  # JC on 1 turning up AS: slot 1 holds a wild
    assert s.view(0).phase == "displace"
    s.play("displace")  # AS on 1; JC goes to slot 2 (the only one), turning up KD: complete
    assert s.hands_won[0] == 2 and s.sizes[0] == 1
    kinds = [(e.kind, str(e.card)) for e in s.view(1).events]
    assert kinds[:4] == [("displace", "AS"), ("place", "JC"), ("complete", "None"), ("discard", "KD")]


def test_tr12_only_number_k_displaces_and_face_up_cards_never_move_otherwise():
    """TR-12 constraints over random play: a face-up number card never moves, and a face-up
    wild leaves its slot only when the number of that slot displaces it (TR-12a)."""
    for options in ({}, {"wild_mode": "all_faces"}, {"jokers": True, "players": 3}):
        for seed in range(6):
            s = cardtable.load("trash", **options).new_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(1500):
                if s.is_terminal():
                    break
                before = [list(u) for u in s.up]
                deals = s.deal_count
                legal = s.legal_actions()
                s.apply(legal[rng.randrange(len(legal))])
                if s.deal_count != deals:
                    continue  # a new hand: layouts were redealt
                displaced = {(e[1], e[3]) for e in s.events if e[0] == "displace"}
                for p in range(s.n):
                    for k in range(1, len(before[p])):
                        was, now = before[p][k], s.up[p][k]
                        if was in (NO_CARD, now):
                            continue
                        assert s.role[was] == WILDCARD, "a face-up number card moved"
                        assert s.role[now] == k and (p, k) in displaced


def test_tr12_drawn_wild_cannot_displace_a_wild():
    """TR-12: only the number k displaces; a wild in hand goes to a face-down slot only."""
    s = new(["JC 9D 9S 5H 7D 6C AS 8H 3C QS", IDLE], "4C KH JD")
    s.play("stock")
    s.play("wild 2")  # JC on 2
    s.play("stock")  # seat 1: KH
    s.play("stock")  # seat 0: JD
    slots = {a.slot for a in s.legal_actions()}
    assert slots == set(s.view(0).face_down_slots(0)) and 2 not in slots
    with pytest.raises(IllegalActionError):
        s.play("wild 2")
    with pytest.raises(IllegalActionError):
        s.play("displace")


# --------------------------------------------------------------- the match
def test_tr19_other_players_get_no_further_turn_three_players():
    s = new([IDLE, RUN_LAYOUT, CORRECT.replace("JH", "TC")], "QH " + RUN_STOCK, players=3)
    s.play("stock")  # seat 0: QH
    s.play("stock")  # seat 1 completes: seat 2 gets no last-chance turn
    assert s.hands_played == 1 and s.sizes == [10, 9, 10]
    assert s.current_player() == 1 and s.view(2).hand_number == 2


def test_tr26_option_stall_reshuffles():
    """TR-26.2 with stall_reshuffles = 1: the first rebuild with no layout change since the
    previous rebuild (the second rebuild) voids the hand, before the draw."""
    s = cardtable.load("trash", stall_reshuffles=1).new_state(seed=2)
    stops = [c for c in s.all_cards() if s.role[c] == STOP]
    for p in range(2):
        for k in range(1, 10):
            s.up[p][k] = k - 1 + 13 * p
            s.down[p][k] = -1
        s.ndown[p] = 1
    s.stock, s.discard = stops, []
    deals, rebuilds = s.deal_count, 0
    while s.deal_count == deals:
        s.play("stock")
        rebuilds += [e[0] for e in s.events].count("rebuild")
    assert rebuilds == 1 and [e[0] for e in s.events[:2]] == ["void", "deal"]  # before the draw
    assert s.hands_played == 0 and s.sizes == [10, 10]


def test_tr26_layout_change_between_rebuilds_resets_the_stall_count():
    s = cardtable.load("trash", stall_reshuffles=1).new_state(seed=2)
    stops = [c for c in s.all_cards() if s.role[c] == STOP]
    for p in range(2):
        for k in range(1, 10):
            s.up[p][k] = k - 1 + 13 * p
            s.down[p][k] = -1
        s.ndown[p] = 1
    s.stock, s.discard = stops, []
    while not any(e[0] == "rebuild" for e in s.events):
        s.play("stock")
    s.changed_since_rebuild = True  # as a placement would (checked below)
    deals = s.deal_count
    s.stock, s.discard = [], s.stock + s.discard
    s.play("stock")
    assert s.deal_count == deals and s.events[0][0] == "rebuild"
    # a placement sets the flag: seat draws a number for a face-down slot
    t = new([CORRECT, IDLE], "AC")
    t.changed_since_rebuild = False
    t.play("stock")
    assert t.changed_since_rebuild


def test_tr26_void_hand_has_no_winner_and_redeals_same_sizes_and_first_player():
    """TR-26: after hand 1 (won by seat 1, who starts hand 2), a void hand 2 is redealt with
    sizes [10, 9] and seat 1 first; nobody's hands_won changes."""
    s = new([IDLE, RUN_LAYOUT], "QH " + RUN_STOCK)
    s.play("stock")
    s.play("stock")  # seat 1 wins hand 1
    assert s.starter == 1 and s.sizes == [10, 9]
    s.stock.clear()
    s.discard = []
    s.play("stock")  # cannot refill: void
    assert s.events[0][0] == "void" and s.hands_won == [0, 1] and s.hands_played == 1
    assert s.sizes == [10, 9] and s.current_player() == 1 and s.view(0).hand_number == 2
    assert len(s.view(0).layouts[1]) == 9


# ----------------------------------------------------------------- variants
def test_trv1_short_game_after_four_hand_wins():
    """TR-V1: target_size = 6 is reached after 4 hand wins (10 -> 9 -> 8 -> 7 -> 6)."""
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, target_size=6)
    for size in (10, 9, 8, 7):
        if size < 10:
            layout = " ".join(f"{r}C" for r in "23456789T"[: size - 1]) + " KC"
            redeal(s, [size, 10], [layout, IDLE], RUN_STOCK)
        assert not s.is_terminal()
        s.play("stock")
    assert s.is_terminal() and s.outcome().winners == (0,) and s.sizes == [6, 10]
    assert s.hands_won == [4, 0]


def test_trv2_target_size_still_ends_the_match_earlier():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, target_size=9, max_hands=3)
    s.play("stock")
    assert s.outcome().reason == "target_size" and s.hands_played == 1


def test_trv2_max_hands_counts_played_hands():
    s = new([RUN_LAYOUT, IDLE], RUN_STOCK, max_hands=2)
    s.play("stock")
    assert not s.is_terminal()
    redeal(s, [9, 10], [IDLE[:-3], RUN_LAYOUT], "QH " + RUN_STOCK)
    s.play("stock")
    s.play("stock")  # seat 1 wins hand 2: sizes 9, 9 after 2 hands: shared win
    assert s.outcome().reason == "max_hands" and s.hands_played == 2


def test_tra10_extra_hands_until_the_tie_is_broken_option_tiebreak_extra_hands():
    t = new([RUN_LAYOUT, IDLE], RUN_STOCK, max_hands=2, tiebreak_extra_hands=True)
    t.play("stock")
    redeal(t, [9, 10], [IDLE[:-3], RUN_LAYOUT], "QH " + RUN_STOCK)
    t.play("stock")
    t.play("stock")  # 9 / 9 after hand 2: a third hand, seat 1 (hand 2's winner) starts
    assert not t.is_terminal() and t.current_player() == 1
    redeal(t, [9, 9], ["2C 3C 4C 5C 6C 7C 8C 9C KC", IDLE[:-3]], "QH " + RUN_STOCK)
    t.play("stock")  # seat 1: QH
    t.play("stock")  # seat 0 completes: 8 against 9
    assert t.outcome().winners == (0,) and t.outcome().reason == "max_hands" and t.hands_played == 3


def test_trv2_time_up_between_actions_ends_after_current_hand_only_once():
    s = new([RUN_LAYOUT, IDLE], "QH QD " + RUN_STOCK, time_limit=1.0)
    s.play("stock")
    s.play("time-up")
    with pytest.raises(IllegalActionError):
        s.play("time-up")  # already up
    assert s.current_player() == 1  # time-up is not a player's turn
    s.play("stock")
    s.play("stock")
    assert s.is_terminal() and s.outcome().reason == "time_limit"


def test_trv3_rotation_ignores_the_winner_over_three_hands():
    """TR-V3: the first player of hand h is (first_player + h - 1) mod n."""
    third = CORRECT.replace("JH", "TC").replace("AD", "QD")
    s = new([IDLE, RUN_LAYOUT, third], RUN_STOCK, players=3, first_player=1, rotate_first_player=True)
    assert s.current_player() == 1
    s.play("stock")  # seat 1 wins hand 1
    assert s.starter == 2 and s.current_player() == 2  # hand 2: (1 + 1) mod 3
    redeal(s, [10, 9, 10], [IDLE, IDLE.replace("H", "C").replace("6D", "").strip(), RUN_LAYOUT], RUN_STOCK)
    s.play("stock")  # seat 2 wins hand 2
    assert s.starter == 0 and s.current_player() == 0  # hand 3: (1 + 2) mod 3


def test_trv4_kings_wild_queen_and_jack_stop():
    s = new([CORRECT.replace("JH", "TC"), IDLE], "QD", wild_mode="kings")
    s.play("stock")
    assert str(s.view(0).top_discard) == "QD" and s.current_player() == 1
    t = new([CORRECT.replace("JH", "TC"), IDLE], "JD", wild_mode="kings")
    t.play("stock")
    assert str(t.view(0).top_discard) == "JD"


def test_trv5_jokers_wild_in_addition_to_the_wild_rank():
    game = cardtable.load("trash", jokers=True, wild_mode="kings")
    assert game.role[JOKER_ID] == WILDCARD and game.role[cid("KS")] == WILDCARD
    assert game.role[cid("JS")] == STOP
    s = new([IDLE, CORRECT], "JK", jokers=True, wild_mode="all_faces")
    s.play("stock")
    assert s.view(0).phase == "place_wild"


def test_trv6_all_faces_only_numbers_end_a_turn():
    """TR-V6: with no stop cards, a turn ends only on a number already shown or above L."""
    game = cardtable.load("trash", wild_mode="all_faces")
    assert STOP not in game.role[:52]
    s = new(["5C KD 9S JH 2D 6C AS 8H 3C QS", IDLE], "3H", wild_mode="all_faces")
    s.play("stock")  # 3H -> 3 (9S) -> 9 (3C): shown -> discard
    assert str(s.view(0).top_discard) == "3C"


def test_trv7_winner_still_starts_next_hand():
    s = new([CORRECT, RUN_LAYOUT], "QH " + RUN_STOCK, loser_reveal=True)
    s.play("stock")
    s.play("stock")  # seat 1 wins; seat 0 reveals all correct and shrinks too
    assert s.sizes == [9, 9] and s.starter == 1 and s.current_player() == 1


def test_trv7_every_non_winner_reveals_independently():
    s = new([RUN_LAYOUT, CORRECT, IDLE], RUN_STOCK, players=3, loser_reveal=True)
    s.play("stock")
    assert s.sizes == [9, 9, 10]
    reveals = {e.seat for e in s.view(None).events if e.kind == "reveal"}
    assert reveals == {1, 2}


def test_trv7_off_by_default_losers_keep_their_size():
    s = new([RUN_LAYOUT, CORRECT], RUN_STOCK)
    s.play("stock")
    assert s.sizes == [9, 10] and "reveal" not in event_kinds(s)


def test_trv8_free_draws_may_take_the_discard():
    """TR-V8: each free turn is a normal turn, including the discard option; the discard pile
    carries on from the hand (the winner's last card is on it)."""
    s = new([RUN_LAYOUT.replace("KC", "5H"), IDLE], RUN_STOCK + " QH QD", loser_free_draws=3)
    s.play("stock")  # seat 0 completes; 5H (in hand at completion) is discarded
    assert s.current_player() == 1 and str(s.view(1).top_discard) == "5H"
    assert [str(a) for a in s.legal_actions()] == ["stock", "discard"]
    s.play("discard")
    assert "5:5H" in face_up(s, 1) and s.view(1).free_draws_left == 2


def test_trv8_implies_reveal():
    """TR-V8 implies TR-V7: with loser_reveal left off, a loser whose face-down cards are all
    correct after the free turns shrinks."""
    s = new([RUN_LAYOUT, CORRECT], RUN_STOCK + " QH QD QS", loser_free_draws=3)
    assert not s.game.options.loser_reveal
    for _ in range(4):
        s.play("stock")
    assert s.hands_played == 1 and s.sizes == [9, 9]
    assert "reveal" in event_kinds(s)


def test_trv8_tra9_loser_completing_in_free_draws_is_floored():
    """TR-V8, TR-A9: the loser's reduction never reaches target_size; the winner ends the match."""
    s = new(["2C 3C 4C 5C 6C 7C KC", IDLE], "AC AD", target_size=6, loser_free_draws=3)
    redeal(s, [7, 7], ["2C 3C 4C 5C 6C 7C KC", "2D 3D 4D 5D 6D 7D KD"], "AC AD")
    s.play("stock")  # seat 0 completes: 7 -> 6 = target
    assert not s.is_terminal() and s.current_player() == 1  # free turns first
    s.play("stock")  # seat 1 completes on its first free turn
    assert s.outcome().winners == (0,) and s.sizes == [6, 7]


def test_trv9_d2_kings_single_hand_mode():
    s = new([RUN_LAYOUT.replace("KC", "QC"), IDLE], RUN_STOCK, preset="d2_kings", max_hands=1)
    s.play("stock")
    assert s.outcome().winners == (0,) and s.outcome().reason == "max_hands"


def test_trv9_presets_standard_and_seed_are_the_defaults():
    default = cardtable.load("trash").options
    assert cardtable.load("trash", preset="standard").options == default
    assert cardtable.load("trash", preset="seed").options == default
    d2 = cardtable.load("trash", preset="d2_kings").options
    assert (d2.players, d2.decks, d2.wild_mode, d2.jokers, d2.target_size) == (2, 1, "kings", False, 0)
