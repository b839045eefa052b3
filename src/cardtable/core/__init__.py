"""cardtable.core: cards, seats, the Game/State protocol, views, seeded chance,
errors and the registry. Standard library only; no I/O, clock or global random."""

from .build import COMPILED, build_name
from .cards import JOKER_ID, Card, Rank, Suit, cards_text, parse_cards, standard_deck
from .errors import CardtableError, ConfigError, IllegalActionError, ParseError
from .game import Action, Event, Game, Outcome, PlayerView, State
from .options import Option, Options
from .playout import playouts
from .registry import game_class, game_names, load, register
from .seats import CHANCE, SIMULTANEOUS, TERMINAL, next_seat, prev_seat, seats_from

__all__ = [
    "CHANCE",
    "COMPILED",
    "JOKER_ID",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "Card",
    "CardtableError",
    "ConfigError",
    "Event",
    "Game",
    "IllegalActionError",
    "Option",
    "Options",
    "Outcome",
    "ParseError",
    "PlayerView",
    "Rank",
    "State",
    "Suit",
    "build_name",
    "cards_text",
    "game_class",
    "game_names",
    "load",
    "next_seat",
    "parse_cards",
    "playouts",
    "prev_seat",
    "register",
    "seats_from",
    "standard_deck",
]
