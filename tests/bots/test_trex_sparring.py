"""The Trex sparring partners that play as strong players do, and the King of Hearts fix of
``hard``: behaviour on stacked deals (TX-22, TX-24, TX-26), not strength."""

from __future__ import annotations

import random

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.base import adapt
from cardtable.bots.sparring.pro import ProTrexBot, advantage
from cardtable.core.cards import Card
from cardtable.games.trex.actions import A_CONTRACT, KH, QN, TK, TR
from cardtable.games.trex.state import TrexState


def deck(*hands: str) -> list[int]:
    """Seat ``i`` gets ``hands[i]`` (card texts), the other cards fill the hands in id order."""
    named = [[Card.parse(t).id for t in h.split()] for h in hands]
    named += [[] for _ in range(4 - len(named))]
    rest = [c for c in range(52) if all(c not in h for h in named)]
    out: list[int] = []
    for h in named:
        fill = 13 - len(h)
        out += h + rest[:fill]
        rest = rest[fill:]
    return out


def kh_deal(*hands: str) -> TrexState:
    """A King of Hearts deal from stacked hands, hearts free to lead, no doubling; seat 0 holds
    the 7♥, so it holds the kingdom, announces KH and leads."""
    game = cardtable.load("trex", hearts_lead_rule="free", doubling=False, redeal_requests=False)
    state = game.new_state(seed=1, deck=deck(*hands))
    assert isinstance(state, TrexState) and state.holder == 0
    state.apply(A_CONTRACT[KH])
    return state


HANDS = (
    "7H 9H AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "KH 5H 3H 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
    "2H 4H 6H 8H 2D 3D 4D 5D 6D 7D 8D 9D TD",
)


def play(state: TrexState, cards: str) -> None:
    for text in cards.split():
        state.play(text)


def act(name: str, state: TrexState) -> str:
    bot = adapt(make_bot("trex", name))
    attach = getattr(bot, "attach", None)
    if attach is not None:
        attach(state.game)
    seat = state.current_player()
    return str(bot.act(state.view(seat), random.Random(0)))


def test_pro_ducks_under_a_led_heart_holding_the_king_and_lower_hearts_tx22():
    state = kh_deal(*HANDS)
    state.play("9H")
    assert state.current_player() == 1
    assert act("spar-pro", state) == "5H"  # the highest heart under the 9♥, the K♥ kept guarded


def test_pro_drops_the_king_of_hearts_under_the_ace_tx24():
    state = kh_deal(*HANDS)
    state.play("AH")
    assert act("spar-pro", state) == "KH"


def test_pro_discards_the_king_of_hearts_when_void_tx22():
    state = kh_deal(*HANDS)
    state.play("2C")  # seat 1 holds no club: it unloads the K♥ on seat 0's trick
    assert act("spar-pro", state) == "KH"


def test_pro_never_leads_a_heart_while_holding_the_king():
    state = kh_deal("7H KH 2H 3H 4H 9C TC JC 9S TS JS 9D TD")
    assert state.current_player() == 0
    assert not act("spar-pro", state).endswith("H")


CLEAN = ("7H 5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", "6H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
         "8H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "AH KH 2H 3H 4H 9H TH JH QH AC KC AD AS")


def test_pro_sheds_the_ace_of_hearts_last_to_a_clean_trick():
    state = kh_deal(*CLEAN)
    play(state, "5H 6H 8H")
    assert act("spar-pro", state) == "AH"  # nobody can put the K♥ on this trick: the A♥ goes free


def test_hard_sheds_the_ace_of_hearts_last_to_a_clean_trick():
    """``hard`` plays the A♥ to a trick the K♥ cannot reach: ducking with the 4♥ would keep an
    A♥ that later catches the K♥."""
    state = kh_deal(*CLEAN)
    play(state, "5H 6H 8H")
    assert act("hard", state) == "AH"


def test_hard_still_ducks_when_the_trick_holds_a_penalty_card():
    state = kh_deal("7H 5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", "KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
                    "8H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "AH 6H 2H 3H 4H 9H TH JH QH AC KC AD AS")
    play(state, "5H KH 8H")  # seat 1 holds no other heart
    assert act("hard", state) == "QH"  # the highest heart under the K♥: the A♥ would take it


def ids(text: str) -> list[int]:
    return [Card.parse(t).id for t in text.split(" ")]


def test_pro_contract_choice_reads_the_hand_shape():
    low = ids("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S")
    high = ids("AC KC QC AD KD QD AH KH AS KS QS JS JC")
    assert advantage(low, TK) > advantage(high, TK)  # low cards lose the tricks in Slaps
    # the holder holds the 7♥, a heart under the K♥: a K♥ behind small hearts is doubled and
    # scores (TX-16); the A♥ without the K♥ may catch it
    doubled_king = ids("7H KH 2H 3H 4H 5C 6C 7C 8D 9D TS JS QS")
    ace = ids("7H AH 2C 3C 4C 5C 6C 7C 8D 9D TS JS QS")
    assert advantage(ace, KH) < advantage(doubled_king, KH)
    assert advantage(high, QN) < advantage(low, QN)  # three unguarded queens
    naked = ids("QS AS 7H 2C 3C 4C 5C 6C 7C 8D 9D TD JD")  # no spade under the Q♠: not doubled
    guarded = ids("QS 2S 3S 4S 7H 2C 3C 4C 5C 6C 7C 8D 9D")
    assert advantage(naked, QN) < advantage(guarded, QN)
    jacks = ids("JC TC QC 9C JD TD QD JH TH QH JS TS QS")
    assert advantage(jacks, TR) > advantage(low, TR)  # every jack, with its neighbours


def test_pro_plays_legal_moves_from_views_only_for_whole_games():
    game = cardtable.load("trex")
    for seed in range(2):
        state = game.new_state(seed=seed)
        bots = [ProTrexBot(), make_bot("trex", "hard"), ProTrexBot(), make_bot("trex", "spar-counter")]
        rngs = [random.Random(q) for q in range(4)]
        for _ in range(5000):
            if state.is_terminal():
                break
            q = state.current_player()
            action = adapt(bots[q]).act(state.view(q), rngs[q])
            assert action in state.legal_actions()
            state.apply(action)
        assert state.is_terminal()


def double_phase(self_capture: str, *hands: str) -> TrexState:
    """A King of Hearts deal from stacked hands, doubling on (TX-15), at seat 1's doubling turn."""
    game = cardtable.load("trex", hearts_lead_rule="free", redeal_requests=False, doubled_self_capture=self_capture)
    state = game.new_state(seed=1, deck=deck(*hands))
    assert isinstance(state, TrexState) and state.holder == 0
    state.apply(A_CONTRACT[KH])
    while state.current_player() != 1:  # the seats before it have nothing to double
        state.apply(state.legal_actions()[0])
    return state


GUARDED_ONCE = (  # seat 1 holds the K♥ with a single lower heart
    "7H 9H AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC",
    "KH 5H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
)
BARE = (  # seat 1 holds the K♥ and no other heart
    "7H 9H AH 5H 3C 4C 5C 6C 7C 8C 9C TC JC",
    "KH 2C 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
)


def test_tx16_hard_and_pro_double_a_king_of_hearts_with_a_lower_heart():
    """Hard's King of Hearts (issue item: hard gives points away in KH): under the default scoring
    of a doubled card (the doubler who takes it back pays the plain value) the K♥ is doubled as
    soon as a lower heart can duck under it; alone, it is not."""
    for name in ("hard", "spar-pro"):
        state = double_phase("single", *GUARDED_ONCE)
        assert state.current_player() == 1 and state.phase.name == "DOUBLE"
        assert act(name, state) == "double KH", name
        state = double_phase("single", *BARE)
        assert act(name, state) != "double KH", name


def test_tx16_when_self_capture_pays_double_only_a_long_guarded_king_is_doubled():
    for name in ("hard", "spar-pro"):
        state = double_phase("forced_bonus", *GUARDED_ONCE)
        assert act(name, state) != "double KH", name


def test_tx15_hard_sheds_its_ace_of_hearts_once_the_doubled_king_has_been_played_past():
    """Hard's King of Hearts: the doubled K♥ stays in its doubler's hand (TX-15), so once the
    doubler has played to a heart trick without it, nobody can drop it on that trick: hard sheds
    its A♥ there (a card that would catch the K♥ later) instead of ducking with its 2♥."""
    state = double_phase("single", "7H 9H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
                         "KH 5H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
                         "AH 2H 8H 2D 3D 4D 5D 6D 7D 8D 9D TD JD")
    doubles = [a for a in state.legal_actions() if str(a) == "double KH"]
    state.apply(doubles[0])
    while state.phase.name == "DOUBLE":
        state.apply(next(a for a in state.legal_actions() if str(a) == "done"))
    play(state, "7H 5H")
    assert state.current_player() == 2
    assert act("hard", state) == "AH"
