"""Trex in the terminal: what one seat sees, and how to type its moves.

``render(view, color=...)`` draws the table for ``view.seat``: the deal and
kingdom, the contract, the hand sorted by suit, the current and last trick,
captured and doubled cards, the Trex layout as four suit rows and the score
sheet. ``ACTION_HELP`` explains the action texts (``help_text(game)`` gives it to the text
loop). It uses only the view, never a state.
"""

from __future__ import annotations

from ..core.cards import Card
from ..core.game import Game, PlayerView
from ..games.trex.view import PLACES, TrexView
from .style import Style

ACTION_HELP = """\
Type a card to play it: QH, 10d, td, Q♥ (rank then suit; T or 10 for ten).
  Trick contracts: follow the led suit if you can. In King of Hearts you may
  not lead a heart until hearts are broken (unless you hold only hearts).
  Trex: a Jack opens its row; then one rank above the top or below the bottom.
  When you cannot play, the game passes for you.
Kingdom holder, announcing:  contract KH | QN | DI | TK | TR | CX (Complex)
  (names work too: contract queens, contract trex, contract complex)
Doubling (King of Hearts, Queens):  double KH   double QS   done
Redeal request (a qualifying hand):  redeal   keep
Any time:  ?  help    q  quit"""


def help_text(game: Game) -> str:
    """:data:`ACTION_HELP`, the same under every option."""
    return ACTION_HELP


SUITS = "♣♦♥♠"
_RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K",
              14: "A"}


def _strength(card: Card) -> int:
    r = int(card.rank)
    return 14 if r == 1 else r


def who(view: TrexView, seat: int) -> str:
    return "You" if seat == view.seat else f"Seat {seat}"


def _cards(st: Style, cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(st.card(c) for c in cards) if cards else "—"


def hand_rows(view: TrexView, st: Style) -> list[str]:
    """The seat's hand, one row per suit, high cards first."""
    rows = []
    for s in (3, 2, 0, 1):  # ♠ ♥ ♣ ♦: alternating colours
        cards = sorted((c for c in view.hand if c.suit == s), key=_strength, reverse=True)
        sym = st(SUITS[s], "red") if s in (1, 2) else SUITS[s]
        rows.append(f"  {sym}  " + (" ".join(st.card(c) for c in cards) if cards else st("—", "dim")))
    return rows


def layout_rows(view: TrexView, st: Style) -> list[str]:
    """The Trex layout, one row per suit: the run from its bottom to its top (TX-32)."""
    rows = []
    for s in (3, 2, 0, 1):
        sym = st(SUITS[s], "red") if s in (1, 2) else SUITS[s]
        span = view.layout[s]
        if span is None:
            rows.append(f"  {sym}  " + st("(not opened: needs the Jack)", "dim"))
            continue
        lo, hi = span
        run = " ".join(_RANK_TEXT[r] for r in range(lo, hi + 1))
        below = st(f"next ↓ {_RANK_TEXT[lo - 1]}", "dim") if lo > 2 else st("bottom done", "dim")
        above = st(f"next ↑ {_RANK_TEXT[hi + 1]}", "dim") if hi < 14 else st("top done", "dim")
        rows.append(f"  {sym}  {st(run, 'red') if s in (1, 2) else run}   {below}  {above}")
    return rows


def score_sheet(view: TrexView, st: Style) -> list[str]:
    """Scores by deal, kingdom totals and game totals."""
    first = "  deal  kingdom  holder  contract "  # the columns before the seats' (totals pad to its width)
    head = first + "".join(f"{'seat ' + str(q):>9}" for q in range(view.num_players))
    rows = [st(head, "bold")]
    for number, kingdom, holder, contract, deltas in view.deal_scores[-8:]:
        rows.append(
            f"  {number:>4}  {kingdom + 1:>7}  {holder:>6}  {contract:<8} " + "".join(f"{d:>+9d}" for d in deltas)
        )
    if len(view.deal_scores) > 8:
        rows.insert(1, st(f"  … {len(view.deal_scores) - 8} earlier deals", "dim"))
    for k, row in enumerate(view.kingdom_scores):
        if any(row):
            rows.append(st(f"  kingdom {k + 1} total".ljust(len(first)) + "".join(f"{d:>+9d}" for d in row), "dim"))
    rows.append(st("  total".ljust(len(first)) + "".join(f"{t:>+9d}" for t in view.totals), "bold"))
    if view.team_totals is not None:
        rows.append(f"  teams: seats 0+2 {view.team_totals[0]:+d}, seats 1+3 {view.team_totals[1]:+d}")
    return rows


def render(view: PlayerView, *, color: bool) -> str:
    """The table as ``view.seat`` sees it."""
    assert isinstance(view, TrexView)
    st = Style(color)
    title = f"Trex — deal {view.deal_number}/{view.num_deals}"
    if view.tiebreak:
        title = "Trex — tie-break deal (outside the totals)"
    lines = [
        st(title, "bold")
        + st(f"   kingdom {view.kingdom + 1}: {who(view, view.kingdom_holder)} (holder)   dealer: seat {view.dealer}",
             "dim")
    ]
    if view.contract is not None:
        left = ", ".join(c for c in view.contracts_left if c != view.contract)
        lines.append(f"Contract: {st(view.contract_title or '', 'cyan', 'bold')}"
                     + st(f"   still to play in this kingdom: {left or '—'}", "dim"))
    else:
        lines.append(f"Contract: not yet announced; unused: {', '.join(view.contracts_left)}")
    for seat, shown in view.redeal_shown:
        lines.append(st(f"{who(view, seat)} showed {_cards(st, shown)} and forced a redeal", "yellow"))
    lines.append("")
    for q in range(view.num_players):
        mark = st(" ◀ to play", "yellow") if q == view.current_player else ""
        extra = []
        if view.contract and view.contract != "TR":
            extra.append(f"tricks {view.tricks_taken[q]}")
            if view.captured[q]:
                extra.append("captured " + _cards(st, view.captured[q]))
        if view.exposed_twos[q]:
            extra.append("2s: " + _cards(st, view.exposed_twos[q]))
        if q in view.finishing:
            extra.append(st(f"out {PLACES[view.finishing.index(q)]}", "green"))
        visible = view.hands[q] if q != view.seat else None  # open hands (TX-V6)
        cards = f"  {_cards(st, visible)}" if visible is not None else ""
        held = f"{view.hand_sizes[q]:>2} {'card ' if view.hand_sizes[q] == 1 else 'cards'}"  # as wide either way
        lines.append(f"{who(view, q):<7} {held}  " + "  ".join(extra) + cards + mark)
    if view.doubled:
        lines.append("Doubled: " + ", ".join(f"{st.card(c)} by {who(view, q).lower()}" for c, q in view.doubled))
    if view.contract == "TR":
        lines.append("")
        lines.append(st("Layout", "bold"))
        lines += layout_rows(view, st)
    elif view.contract is not None and view.phase in ("trick", "double"):
        lines.append("")
        if view.trick:
            lines.append("Trick:      " + "   ".join(f"{who(view, q)} {st.card(c)}" for q, c in view.trick))
        else:
            lines.append("Trick:      " + st("(empty)", "dim"))
        if view.last_trick:
            won = who(view, view.last_trick_winner) if view.last_trick_winner is not None else "?"
            last = "   ".join(f"{who(view, q)} {st.card(c)}" for q, c in view.last_trick)
            lines.append(st("Last trick: ", "dim") + last + st(f"   → {won}", "dim"))
        if view.contract is not None and "KH" in view.contract.split("+") + (["KH"] if view.contract == "CX" else []):
            lines.append(st(f"Hearts {'broken' if view.hearts_broken else 'not broken'}", "dim"))
    if view.seat is not None:
        lines.append("")
        lines.append(st("Your hand", "bold"))
        lines += hand_rows(view, st)
    if view.deal_scores:
        lines.append("")
        lines += score_sheet(view, st)
    if view.events:
        lines.append("")
        lines += [st("· " + e.text, "dim") for e in view.events[-12:]]
    if view.outcome is not None:
        winners = ", ".join(who(view, q) for q in view.outcome.winners)
        lines.append(st(f"Game over: {winners} ({view.outcome.reason.replace('_', ' ')})", "bold", "green"))
    elif view.seat is not None and view.current_player == view.seat and view.legal_actions:
        lines.append("")
        lines.append("Your move: " + ", ".join(str(a) for a in view.legal_actions[:16])
                     + (" …" if len(view.legal_actions) > 16 else ""))
    return "\n".join(lines)


def prompt(view: PlayerView) -> str:
    """The input prompt for the seat to play."""
    assert isinstance(view, TrexView)
    return {"redeal": "redeal or keep> ", "choose": "contract> ", "double": "double <card> or done> "}.get(
        view.phase, "card> "
    )


def interpret(view: PlayerView, text: str) -> str:
    """Shortcuts: Enter keeps or stops doubling; a bare contract code announces it."""
    assert isinstance(view, TrexView)
    key = text.strip()
    if not key and view.phase == "redeal":
        return "keep"
    if not key and view.phase == "double":
        return "done"
    if view.phase == "choose" and not key.lower().startswith("contract"):
        return f"contract {key}"
    if view.phase == "double" and key and not key.lower().startswith(("double", "done")):
        return f"double {key}"
    return key
