"""Trash in the terminal: what one seat sees, and how to type its moves."""

from __future__ import annotations

from ..core.game import Game, PlayerView
from ..games.trash.view import TrashView
from .style import Style, count

ACTION_HELP = """\
On your turn:
  s  or Enter   draw from the stock
  d             take the top discard (only when you can place it)
When you hold a wild:
  1 … 10        the face-down slot to put it on
When a number can displace your wild:
  y  or Enter   displace it (never worse: the wild moves to a face-down slot)
  n             decline: the number is discarded
Any time:  ?  help    q  quit (with --save the game is saved)"""


TAKE_PLACEABLE = "take the top discard (only when you can place it)"
TAKE_ANY = "take the top discard (any card: one you cannot place ends your turn)"


def help_text(game: Game) -> str:
    """:data:`ACTION_HELP` as ``game``'s options have it: what ``d`` may take (TR-7)."""
    if game.options["discard_take_requires_playable"]:
        return ACTION_HELP
    return ACTION_HELP.replace(TAKE_PLACEABLE, TAKE_ANY)


def _layout(view: TrashView, seat: int, st: Style) -> list[str]:
    cards = view.layouts[seat]
    size = view.sizes[seat]
    rows = []
    for lo, hi in ((1, 5), (6, 10)):
        nums, faces = [], []
        for k in range(lo, hi + 1):
            if k > size:
                nums.append(st(f"{k:>2} ", "dim"))
                faces.append("  ·")
                continue
            nums.append(f"{k:>2} ")
            faces.append(" " + st.card(cards[k - 1], 2))
        rows.append("  " + " ".join(nums))
        rows.append("  " + " ".join(faces))
    return rows


ROOMY_PLAYERS = 4
"""Up to this many players every layout is drawn in two rows (5 lines a seat: 4 players and the
piles fill a 24-line terminal); at a larger table the other seats take one line each."""


def _row(view: TrashView, seat: int, st: Style) -> str:
    """``seat``'s layout on one line under the slot numbers of :func:`_numbers`, then its counts."""
    cards = view.layouts[seat]
    size = view.sizes[seat]
    faces = "".join(" " + (st.card(cards[k - 1], 3) if k <= size else st("·  ", "dim")) for k in range(1, 11))
    mark = st(" ◀ to play", "yellow") if seat == view.current_player else ""
    counts = f"{count(size, 'slot')}, {count(view.hands_won[seat], 'hand')} won"
    return st(f"{who(view, seat):<8}", "cyan", "bold") + faces + " " + counts + mark  # at most 80 columns


def _numbers() -> str:
    """The slot numbers above the one-line layouts of :func:`_row`."""
    return " " * 8 + "".join(f" {k:<3}" for k in range(1, 11)).rstrip()


def who(view: PlayerView, seat: int) -> str:
    return "You" if seat == view.seat else f"Seat {seat}"


def render(view: PlayerView, *, color: bool) -> str:
    """The table as ``view.seat`` sees it."""
    assert isinstance(view, TrashView)
    st = Style(color)
    # after the last hand the view counts the hand that would come next: show the one just played
    hand = view.hand_number - 1 if view.outcome is not None else view.hand_number
    lines = [st(f"Trash — hand {hand}", "bold") + st(f"  (wild: {view.wild_mode})", "dim")]
    order = [s for s in range(view.num_players) if s != view.seat] + ([view.seat] if view.seat is not None else [])
    if view.num_players > ROOMY_PLAYERS:  # the others one a line; the seat on screen keeps its two rows
        others = order[:-1] if view.seat is not None else order
        lines.append(st(_numbers(), "dim"))
        lines += [_row(view, seat, st) for seat in others]
        order = order[len(others):]
    for seat in order:
        mark = st(" ◀ to play", "yellow") if seat == view.current_player else ""
        lines.append(
            st(f"{who(view, seat)}", "cyan", "bold")
            + f": {count(view.sizes[seat], 'slot')}, {count(view.hands_won[seat], 'hand')} won{mark}"
        )
        lines += _layout(view, seat, st)
    top = view.top_discard
    lines.append(
        f"Stock: {count(view.stock_count, 'card')}   Discard: "
        + (st.card(top, 2) + st(f" ({len(view.discard)})", "dim") if top else st("empty", "dim"))
    )
    if view.card_in_hand is not None:
        lines.append("In hand: " + st.card(view.card_in_hand, 2))
    if view.free_draws_left:
        lines.append(st(f"Free draws left: {view.free_draws_left}", "yellow"))
    if view.time_up:
        lines.append(st("Time is up: this is the last hand.", "yellow"))
    return "\n".join(lines)


def prompt(view: PlayerView) -> str:
    """The question for the seat to move."""
    assert isinstance(view, TrashView)
    legal = [str(a) for a in view.legal_actions]
    if view.phase == "draw":
        if "discard" in legal and view.top_discard is not None:
            return f"[s]tock or [d]iscard ({view.top_discard.unicode()})? "
        return "Press Enter to draw from the stock: "
    card = view.card_in_hand
    if card is None:  # not reached: the other phases always have a card in hand
        return "Your move: "
    if view.phase == "place_wild":
        slots = ", ".join(str(a).split()[1] for a in view.legal_actions)
        return f"Place {card.unicode()} on which slot ({slots})? "
    return f"Displace the wild on slot {view.role(card)} with {card.unicode()}? [Y/n] "


def interpret(view: PlayerView, text: str) -> str:
    """Turn a short answer into an action's text (``3`` -> ``wild 3``, Enter -> the default)."""
    assert isinstance(view, TrashView)
    word = text.strip().lower()
    if word == "":
        return "displace" if view.phase == "displace" else "stock" if view.phase == "draw" else ""
    if word.isdigit() and view.phase == "place_wild":
        return f"wild {word}"
    return word
