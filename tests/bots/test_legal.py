"""Every registered bot plays only legal actions, over seeded games of every preset."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.bots import Budget, bot_names, make_bot
from cardtable.host import Match


def run(game, names: list[str], seed: int) -> None:
    bots = {s: make_bot(game.name, n) for s, n in enumerate(names)}
    match = Match(game, seed=seed, bots=bots, bot_seed=seed)
    match.run_bots()  # Match.submit raises IllegalActionError on an illegal action
    assert match.is_over


TRASH_CASES = [(p, {}) for p in sorted(cardtable.game_class("trash").PRESETS)] + [
    ("standard", {"jokers": True}),
    ("standard", {"wild_mode": "all_faces"}),
    ("standard", {"players": 3, "decks": 2}),
    ("standard", {"loser_free_draws": 3}),
]


@pytest.mark.parametrize(("preset", "extra"), TRASH_CASES)
def test_trash_bots_play_legally(preset, extra):
    game = cardtable.load("trash", preset, max_hands=2, **extra)
    names = bot_names("trash")
    for i, name in enumerate(names):
        others = names[(i + 1) % len(names)]
        seats = [name] + [others] * (game.num_players - 1)
        run(game, seats, seed=i)


def test_budget_is_honoured():
    from cardtable.bots.trash import SearchTrashBot

    game = cardtable.load("trash")
    state = game.new_state(seed=1)
    import random

    rng = random.Random(0)
    bot = SearchTrashBot()
    while not state.is_terminal():
        view = state.view(state.current_player())
        state.apply(bot.act(view, rng, Budget(iterations=2)))
        if len(state.history) > 60:
            break
    with pytest.raises(cardtable.ConfigError):
        Budget(iterations=0)


def test_the_trash_search_deals_its_worlds_under_the_game_it_is_attached_to(monkeypatch):
    """TR-26, TR-V1: an attached Trash search deals its worlds under the table's rules (options a
    view does not show, such as stall_reshuffles or target_size), not the rules the view implies."""
    import random

    from cardtable.bots import trash
    from cardtable.bots.base import attach

    game = cardtable.load("trash", stall_reshuffles=1, target_size=4, discard_take_requires_playable=False)
    dealt = []

    def sample(view, rng, rules=None):
        dealt.append(rules)
        return real(view, rng, rules)

    real = trash.sample_trash
    monkeypatch.setattr(trash, "sample_trash", sample)
    bot = trash.SearchTrashBot(iterations=2, search_draw=True)
    attach(bot, game)
    state = game.new_state(seed=4)
    state.play("stock")
    while state.current_player() == 0:  # seat 0's turn ends: seat 1 may take the discard or draw
        state.apply(state.legal_actions()[0])
    bot.act(state.view(state.current_player()), random.Random(0))
    assert dealt and all(rules is game for rules in dealt)


@pytest.fixture
def cheap_search(monkeypatch):
    """Search bots with a tiny default budget, so that whole games stay quick."""
    from cardtable.bots import base, trash, trex_pimc

    # every Trex search bot (search, expert, spar-search) is a PimcTrexBot
    monkeypatch.setattr(trex_pimc.PimcTrexBot, "default_iterations", 6)
    monkeypatch.setitem(base._BOTS, ("trash", "search"), lambda: trash.SearchTrashBot(4, False))


@pytest.mark.parametrize("preset", sorted(cardtable.game_class("trex").PRESETS))
def test_trex_bots_play_legally(preset, cheap_search):
    game = cardtable.load("trex", preset)
    names = bot_names("trex")
    for i, name in enumerate(names):
        seats = [name, names[(i + 1) % len(names)], names[(i + 2) % len(names)], "random"]
        run(game, seats[i % 4:] + seats[:i % 4], seed=100 + i)


@pytest.mark.parametrize(
    "extra",
    [{"hearts_lead_rule": "only_if_no_choice"}, {"forced_penalty_discard": True}, {"doubling": "queens_only"},
     {"redeal_timing": "after_announcement"}, {"accept_unchecked_plays": True}, {"end_early": False}],
)
def test_trex_bots_play_legally_under_options(extra, cheap_search):
    game = cardtable.load("trex", **extra)
    run(game, ["search", "expert-rules", "easy", "rules"], seed=7)


def test_search_bot_uses_its_budget():
    import random

    from cardtable.bots.trex_pimc import SearchTrexBot

    state = cardtable.load("trex").new_state(seed=3)
    bot = SearchTrexBot()
    rng = random.Random(1)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    bot.act(state.view(state.current_player()), rng, Budget(iterations=30))
    k = len(state.legal_actions())
    assert 30 <= bot.last_iterations < 30 + k


class _CheckedSpit:
    """Wraps a real-time bot: every move it intends must be legal in the view it saw."""

    def __init__(self, bot):
        self.bot = bot
        self.name = bot.name
        self.moves = 0

    def react(self, view, now, rng):
        intent = self.bot.react(view, now, rng)
        if intent is not None and intent[0] is not None:
            assert intent[0] in view.legal_actions, (intent, view.legal_actions)
            self.moves += 1
        return intent

    def sent(self, action, when):
        self.bot.sent(action, when)

    def sticky(self, action):
        return self.bot.sticky(action)


@pytest.mark.parametrize("preset", sorted(cardtable.game_class("spit").PRESETS))
def test_spit_bots_intend_only_legal_moves(preset):
    from cardtable.host import RealtimeHost, VirtualClock

    game = cardtable.load("spit", preset, max_rounds=4)
    names = [n for n in bot_names("spit") if hasattr(make_bot("spit", n), "react")]  # real-time bots
    for i, name in enumerate(names):
        bots = {0: _CheckedSpit(make_bot("spit", name)), 1: _CheckedSpit(make_bot("spit", names[i - 1]))}
        outcome = RealtimeHost(game.new_state(seed=i), VirtualClock(), bots=bots, seed=i).run()
        assert outcome is not None and bots[0].moves > 0


def test_spit_levels_keep_the_reaction_model():
    from cardtable.bots.spit import SpitBot
    from cardtable.bots.spit_policy import PolicySpitBot

    assert isinstance(make_bot("spit", "expert"), PolicySpitBot)
    assert all(isinstance(make_bot("spit", lv), SpitBot) for lv in ("easy", "medium", "hard", "expert"))


def test_a_time_budget_stops_the_search():
    import random
    import time

    from cardtable.bots.trex_pimc import SearchTrexBot

    state = cardtable.load("trex").new_state(seed=4)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    bot = SearchTrexBot(iterations=10**9)
    start = time.perf_counter()
    bot.act(state.view(state.current_player()), random.Random(0), Budget(seconds=0.05))
    assert time.perf_counter() - start < 10.0 and bot.last_iterations >= 1


def test_optional_bot_hooks_are_asked_in_one_place():
    """The optional parts of the Bot protocol (rule options, real-time play, a search budget) are
    asked through bots.base, not probed by each client."""
    import cardtable
    from cardtable.bots import make_bot
    from cardtable.bots.base import attach, reacts, searches

    expert = make_bot("trex", "expert")
    game = cardtable.load("trex", "complex")
    attach(expert, game)
    assert expert.game is game  # type: ignore[attr-defined]
    attach(make_bot("trex", "random"), game)  # a bot without the hook is left alone
    assert searches(expert) and not searches(make_bot("trex", "random"))
    assert reacts(make_bot("spit", "medium")) and not reacts(make_bot("trash", "random"))


def test_make_bot_for_a_game_that_does_not_exist_says_unknown_game():
    from cardtable.core.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown game 'poker'; games: spit, trash, trex"):
        make_bot("poker", "hard")
    with pytest.raises(ConfigError, match="no trex bot named 'genius'"):
        make_bot("trex", "genius")
    assert make_bot("garbage", "sensible").name == make_bot("trash", "sensible").name  # an alias of Trash
    assert not hasattr(make_bot("spit", "random"), "react")  # Spit-v0 ticks it; no table seats it (docs/bots.md)
