"""OpenSpiel games ``python_trash`` and ``python_trex``: ``import cardtable.envs.openspiel`` registers
them with ``pyspiel.register_game`` (the ``openspiel`` extra).

>>> import pyspiel
>>> import cardtable.envs.openspiel
>>> game = pyspiel.load_game("python_trex", {"preset": "complex"})
>>> game.num_distinct_actions(), game.num_players()
(76, 4)

* **Types as data.** :data:`TRASH_TYPE`/:data:`TREX_TYPE` and the ``GameInfo`` of
  each loaded game: sequential, imperfect information, explicit stochastic chance,
  terminal rewards. Trash is constant-sum (the match win is worth 1); Trex is
  general-sum (the inverted preset and some options break the zero sum, §2.7).
* **Parameters.** ``preset`` and ``options`` (``"key:value;key:value"``, any
  option of docs/rules/; ``"key=value,key=value"`` is read too, but does not survive OpenSpiel's
  game strings); Trash also ``players`` and
  ``max_hands`` (0: none; a negative count is refused), for short games. Trash's ``time_limit``
  (TR-V2) is refused: the game has no clock (use ``max_hands``).
* **Chance.** The first ``draws`` nodes (default 4) are chance nodes: each draws a
  digit of the game's seed, uniformly among ``seeds`` outcomes (default 65536), so the
  seed is one of ``seeds ** draws`` (2**64 by default: a seat's own cards cannot be
  matched against every seed to find the others' hands). Every shuffle of the game
  derives from the seed (docs/rules/index.md §0.3), so a history of actions is a whole
  game and replays exactly; :func:`seed_actions` gives the chance actions of a seed.
* **Observations** come from ``state.view(player)`` only: the observation tensor
  is the env encoding (docs/rl.md), the observation string the view as text. The
  information state string is perfect recall: a digest of everything the player
  has seen, step by step (each action, the public events it caused, and the
  player's own hand at every deal), then the current view. The information state
  tensor is the observation tensor (the view already holds the score sheet, the
  tricks and the layouts; it does not hold a move-by-move history).
* **Resampling.** ``resample_from_infostate(player, sampler)`` deals the cards the
  player cannot see anew, consistently with its view (:func:`cardtable.bots.worlds.sample_world`),
  under the game's own rules and options, so OpenSpiel's ``ISMCTSBot`` searches over those worlds.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..bots.worlds import sample_world
from ..core.errors import ConfigError
from ..core.game import Action, Game, State
from ..core.registry import load
from ..games.trash.options import MAX_PLAYERS as TRASH_MAX_PLAYERS
from ..games.trex import TrexView
from .encode_trash import TrashEncoder
from .encode_trex import TrexEncoder
from .render import view_line

SEEDS = 1 << 16
DRAWS = 4
DEAL_EVENTS = frozenset({"deal", "redeal_deal", "tiebreak_deal"})


def _game_type(name: str, long_name: str, utility: Any, players: tuple[int, int],
               params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


TRASH_TYPE = _game_type(
    "python_trash", "Python Trash (cardtable)", pyspiel.GameType.Utility.CONSTANT_SUM, (2, TRASH_MAX_PLAYERS),
    {"preset": "standard", "players": 2, "max_hands": 0, "options": "", "seeds": SEEDS, "draws": DRAWS},
)
TREX_TYPE = _game_type(
    "python_trex", "Python Trex (cardtable)", pyspiel.GameType.Utility.GENERAL_SUM, (4, 4),
    {"preset": "standard", "options": "", "seeds": SEEDS, "draws": DRAWS},
)
TREX_UTILITY_BOUND = 10_000.0
"""|side total| stays below this under every option (four kingdoms of doubled, quadrupled penalties)."""


def parse_options(game: str, text: str) -> dict[str, Any]:
    """``"key:value;key:value"`` (or ``"key=value,key=value"``) as option values (validated when
    the game is loaded). OpenSpiel writes a game's parameters as ``name(key=value,key=value)``,
    so only the first form survives a game's string being written and read back
    (``pyspiel.deserialize_game_and_state``, ``random_sim_test(serialize=True)``)."""
    cls = type(load(game))
    specs = {o.name: o for o in cls.OPTIONS}
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in re.split(r"[;,]", text))):
        pair = re.fullmatch(r"([^:=]+?)\s*[:=](.*)", part)
        if pair is None or pair[1] not in specs:
            raise ConfigError(f"options: {part!r} is not key:value with a {game} option")
        out[pair[1]] = specs[pair[1]].parse(pair[2])
    return out


class _Ref:
    """A reference OpenSpiel's clone keeps as it is (pyspiel deep-copies a Python state's attributes)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: Any) -> _Ref:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its OpenSpiel game string (pyspiel serialises a state's attributes)."""
        if isinstance(self.value, pyspiel.Game):
            return (_game_ref, (str(self.value),))
        raise TypeError("only a game reference is serialised")


def _game_ref(text: str) -> _Ref:
    return _Ref(pyspiel.load_game(text))


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """A cardtable game as an OpenSpiel game (see the module docstring)."""

    def __init__(self, name: str, game_type: Any, params: dict[str, Any] | None) -> None:
        p = {**game_type.parameter_specification, **(params or {})}
        options = parse_options(name, str(p["options"]))
        if name == "trash":
            options.setdefault("players", int(p["players"]))
            max_hands = int(p["max_hands"])
            if max_hands < 0:
                raise ConfigError(f"max_hands must be 0 (no limit) or a positive number of hands, not {max_hands}")
            if max_hands > 0:
                options.setdefault("max_hands", max_hands)
        rules: Game = load(name, str(p["preset"]), **options)
        if rules.options.get("time_limit") is not None:  # TR-V2 needs the host's clock
            raise ConfigError("option time_limit: an OpenSpiel game has no clock (TR-V2); use max_hands"
                              " (the PettingZoo and Gymnasium envs keep a virtual clock)")
        seeds = int(p["seeds"])
        if not 1 <= seeds <= 1 << 24:
            raise ConfigError(f"seeds must be from 1 to {1 << 24}, not {seeds}")
        draws = int(p["draws"])
        if not 1 <= draws <= 8:
            raise ConfigError(f"draws must be from 1 to 8, not {draws}")
        n = rules.num_players
        encoder: Any
        if name == "trash":
            encoder = TrashEncoder(rules)  # type: ignore[arg-type]
            info = pyspiel.GameInfo(
                num_distinct_actions=rules.num_distinct_actions, max_chance_outcomes=seeds,
                num_players=n, min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=1_000_000,
            )
        else:
            encoder = TrexEncoder()
            info = pyspiel.GameInfo(
                num_distinct_actions=rules.num_distinct_actions, max_chance_outcomes=seeds,
                num_players=n, min_utility=-TREX_UTILITY_BOUND, max_utility=TREX_UTILITY_BOUND,
                utility_sum=None, max_game_length=20_000,
            )
        super().__init__(game_type, info, p)
        self._data = _Ref((rules, encoder, seeds, draws))

    @property
    def rules(self) -> Game:
        """The cardtable rules with their options."""
        rules: Game = self._data.value[0]
        return rules

    @property
    def encoder(self) -> Any:
        return self._data.value[1]

    @property
    def seeds(self) -> int:
        seeds: int = self._data.value[2]
        return seeds

    @property
    def draws(self) -> int:
        """How many chance nodes draw the seed, a digit of base :attr:`seeds` each."""
        draws: int = self._data.value[3]
        return draws

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(self, perfect_recall)


class TrashGameOS(CardtableGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("trash", TRASH_TYPE, params)


class TrexGameOS(CardtableGame):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__("trex", TREX_TYPE, params)


def _digest(old: str, token: str) -> str:
    return hashlib.blake2b((old + "\x1f" + token).encode(), digest_size=16).hexdigest()


class _Core:
    """The mutable part of a state, cloned the cheap way (``State.clone``) when OpenSpiel clones.

    ``st`` is the cardtable state (``None`` before the chance nodes; ``seed`` is then the
    digits ``drawn`` so far, the lowest first). The perfect-recall chains
    are synced lazily: ``chains`` hold for ``synced`` (a state nobody mutates), ``pending`` are
    the actions applied since; searches that never ask for an information state pay nothing."""

    __slots__ = ("chains", "drawn", "pending", "seed", "st", "synced")

    def __init__(self, st: State | None, chains: tuple[str, ...], synced: State | None,
                 pending: list[Action], seed: int | None = None, drawn: int = 0) -> None:
        self.st = st
        self.chains = chains
        self.synced = synced
        self.pending = pending
        self.seed = seed
        self.drawn = drawn

    def __deepcopy__(self, memo: Any) -> _Core:
        st = None if self.st is None else self.st.clone()
        return _Core(st, self.chains, self.synced, list(self.pending), self.seed, self.drawn)

    def __reduce__(self) -> tuple[Any, ...]:
        """Serialised as the seed and the actions (a replay); a resampled world has no seed."""
        if self.st is None:
            return (_Core, (None, self.chains, None, [], self.seed, self.drawn))
        if self.seed is None:
            raise TypeError("a resampled world (a search's sample) is not serialised")
        game = self.st.game
        return (_replayed, (game.name, dict(game.options), game.preset, self.seed, [a.index for a in self.st.history]))


def _replayed(name: str, options: dict[str, Any], preset: str, seed: int, actions: list[int]) -> _Core:
    game = load(name, None, **options)  # every option value, so the preset's own are kept
    st = game.new_state(seed=seed)
    for i in actions:
        st.apply(game.action_from_index(i))
    start = game.new_state(seed=seed)
    chains = tuple(_digest("", t) for t in _tokens(start, None))
    return _Core(st, chains, start, list(st.history), seed)


class CardtableState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a cardtable state (see the module docstring)."""

    def __init__(self, game: CardtableGame) -> None:
        super().__init__(game)
        self._game = _Ref(game)
        self._core = _Core(None, ("",) * game.rules.num_players, None, [])

    @property
    def g(self) -> CardtableGame:
        game: CardtableGame = self._game.value
        return game

    @property
    def st(self) -> State | None:
        """The cardtable state (for tests and observers; players see views only)."""
        return self._core.st

    # ------------------------------------------------------------- protocol
    def current_player(self) -> int:
        st = self._core.st
        if st is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = st.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p < 0 else p

    def _legal_actions(self, player: int) -> list[int]:
        st = self._core.st
        assert st is not None
        return [a.index for a in st.legal_actions(player)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._core.st is None
        seeds = self.g.seeds
        p = 1.0 / seeds
        return [(i, p) for i in range(seeds)]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.st is None:
            g = self.g
            core.seed = (core.seed or 0) + int(action) * g.seeds ** core.drawn
            core.drawn += 1
            if core.drawn < g.draws:
                return
            core.st = g.rules.new_state(seed=core.seed)
            core.synced = core.st.clone()
            core.chains = tuple(_digest("", t) for t in _tokens(core.synced, None))
            return
        a = self.g.rules.action_from_index(int(action))
        core.st.apply(a)
        core.pending.append(a)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed digit {action}"
        return str(self.g.rules.action_from_index(int(action)))

    def is_terminal(self) -> bool:
        st = self._core.st
        return st is not None and st.is_terminal()

    def returns(self) -> list[float]:
        st = self._core.st
        outcome = st.outcome() if st is not None else None
        if outcome is None:
            return [0.0] * self.g.rules.num_players
        return list(outcome.returns)

    def __str__(self) -> str:
        st = self._core.st
        if st is None:
            return f"chance: {self._core.drawn} of the seed's {self.g.draws} digits drawn"
        return view_line(st.view(None))

    # --------------------------------------------------- perfect recall
    def chain(self, player: int) -> str:
        """The digest of everything ``player`` has seen so far, step by step."""
        core = self._core
        if core.pending:
            assert core.synced is not None
            s = core.synced.clone()
            chains = list(core.chains)
            for a in core.pending:
                s.apply(a)
                for p, token in enumerate(_tokens(s, a)):
                    chains[p] = _digest(chains[p], token)
            core.chains = tuple(chains)
            core.synced = s
            core.pending = []
        return core.chains[player]

    # ------------------------------------------------------- resampling
    def resample_from_infostate(self, player: int, probability_sampler: Any) -> CardtableState:
        """A state ``player`` cannot tell from this one: the cards it cannot see dealt anew from its
        view. Its own chain is kept; the other seats' chains continue from it with their new hands."""
        st = self._core.st
        assert st is not None
        rng = random.Random(int(probability_sampler() * (1 << 52)))
        world = sample_world(st.view(player), rng, self.g.rules)  # the game's own rules and options
        mine = self.chain(player)
        out: CardtableState = self.clone()
        tokens = _tokens(world, None)
        chains = tuple(
            mine if q == player else _digest(mine, f"world of seat {player}: {t}") for q, t in enumerate(tokens)
        )
        out._core = _Core(world, chains, world.clone(), [])
        return out


def seed_actions(game: CardtableGame, seed: int) -> list[int]:
    """The chance actions that draw ``seed`` (its digits in base ``game.seeds``, the lowest
    first), so that the game deals as ``game.rules.new_state(seed=seed)`` does."""
    if not 0 <= seed < game.seeds ** game.draws:
        raise ConfigError(f"seed must be from 0 to {game.seeds ** game.draws - 1}, not {seed}")
    out = []
    for _ in range(game.draws):
        seed, digit = divmod(seed, game.seeds)
        out.append(digit)
    return out


def _tokens(state: State, action: Action | None) -> list[str]:
    """What each seat learns from ``action`` and the position it leads to, as text: the action,
    the public events (a spectator's view) and, when a deal is dealt, the seat's own hand."""
    public = state.view(None)
    text = "; ".join([str(action) if action is not None else "start", *(e.text for e in public.events)])
    n = public.num_players
    if action is not None and not any(e.kind in DEAL_EVENTS for e in public.events):
        return [text] * n
    views = [state.view(p) for p in range(n)]
    hands = [" ".join(str(c) for c in v.hand) if isinstance(v, TrexView) else "" for v in views]  # Trex hands only
    return [f"{text}; hand {h}" for h in hands]


class TotalsRolloutEvaluator:
    """An OpenSpiel MCTS evaluator (``evaluate``, ``prior``) for long games: a random rollout of at
    most ``max_length`` actions, then the public score so far (each seat's side total plus its score
    in the deal being played, from a spectator's view) stands for the return. A whole Trex game is
    20 deals; rollouts to its end would cost a thousand actions each."""

    def __init__(self, max_length: int = 40, random_state: np.random.RandomState | None = None) -> None:
        self.max_length = max_length
        self.random_state = random_state or np.random.RandomState()

    def evaluate(self, state: CardtableState) -> np.ndarray:
        working = state.clone()
        for _ in range(self.max_length):
            if working.is_terminal():
                return np.array(working.returns())
            if working.is_chance_node():
                working.apply_action(int(self.random_state.randint(working.g.seeds)))
                continue
            legal = working.legal_actions()
            working.apply_action(legal[self.random_state.randint(len(legal))])
        if working.is_terminal():
            return np.array(working.returns())
        st = working.st
        assert st is not None
        view: Any = st.view(None)
        if view.game != "trex":
            return np.array(working.returns())
        totals = view.team_totals if view.team_totals is not None else view.totals
        now = list(view.deal_scores_now)
        if view.partnership:
            now = [now[q] + now[(q + 2) % 4] for q in range(4)]
        return np.array([float(t + d) for t, d in zip(totals, now, strict=True)])

    def prior(self, state: CardtableState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class ViewObserver:
    """OpenSpiel's observer: tensors and strings from ``state.view(player)`` alone."""

    def __init__(self, game: CardtableGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {f.name: self.tensor[f.offset:f.offset + f.size] for f in game.encoder.layout.fields}

    def set_from(self, state: CardtableState, player: int) -> None:
        st = state.st
        if st is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.game.encoder.encode(st.view(player))

    def string_from(self, state: CardtableState, player: int) -> str:
        st = state.st
        if st is None:
            return f"seat {player}: the seed is not drawn yet"
        text = f"seat {player} " + view_line(st.view(player))
        if self.perfect_recall:
            return f"seat {player} history {state.chain(player)}\n{text}"
        return text


pyspiel.register_game(TRASH_TYPE, TrashGameOS)
pyspiel.register_game(TREX_TYPE, TrexGameOS)
