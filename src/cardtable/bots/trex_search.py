"""Trex search: determinized Monte Carlo (PIMC) over worlds sampled from the view; here the
compiled part of it, the rollout (:func:`rollout_deal`) and the value of a candidate
(:func:`candidate`, :func:`action_value`). The bots that search are in
:mod:`cardtable.bots.trex_pimc` (``search``) and :mod:`cardtable.bots.trex_infer` (``expert``).

For a decision with several legal actions the bot deals worlds consistent with
its view and its :class:`~cardtable.bots.worlds.TrexMemory` (voids, passes,
doubled cards), plays every candidate action in each world and finishes the
deal with the :func:`~cardtable.bots.trex_strong.strong_policy` for every seat
(the opponents are modelled as strong players), and keeps the action with the
best mean score for itself over the deal. Worlds are shared by the candidates
(common random numbers), which makes the comparison much sharper than
independent samples. In the last ``endgame`` tricks of a trick contract each
world is solved exactly instead (:mod:`cardtable.bots.trex_endgame`: alpha-beta
with a transposition table).

The search is written against the public State API (``clone``, ``apply``,
``legal_actions``), so a faster engine makes it think more within its budget.
Its default budget is a quarter of a second a decision (:data:`DEFAULT_SECONDS`);
``Budget(iterations=N)`` makes a run reproducible whatever the machine.

The same search makes the kingdom decisions:

* **Contract order.** Each contract left is played out from the holder's real
  hand in sampled worlds; its mean score is compared with what a random hand
  scores under that contract (:data:`~cardtable.bots.trex_expert.BASELINE`),
  since every contract of the kingdom must be played once anyway: the holder
  announces the contract this hand is best suited for.
* **Doubling** and **redeal requests**: each option is simulated to the end of
  the deal (a redeal deals a fresh random hand in each world).

An *iteration* is one rollout: one world, one candidate, played to the end of
the deal. ``bench/search.py`` measures iterations per second.
"""

from __future__ import annotations

from ..core.game import Action
from ..games.trex.actions import TR
from ..games.trex.state import Phase, TrexState
from .trex_strong import strong_policy

DEFAULT_SECONDS = 0.25
"""The default thinking time of a decision (seconds)."""

ENDGAME_TRICKS = 3
"""Solve a world exactly once every hand holds at most this many cards."""

TRICK = Phase.TRICK
TREX = Phase.TREX


def rollout_deal(st: TrexState, seat: int, weights: tuple[float, ...] | None = None) -> float:
    """Finish the current deal of ``st`` with the policy at every seat; ``seat``'s score for it
    (its team's in partnership, TX-V2); in the play phases with ``weights`` (one a seat), the
    deal's scores weighted by them (:func:`deal_value`).

    ``st`` is a world of the bot's own: in the play phases the rollout stops as
    the deal ends, instead of letting the engine score it and deal the next one
    (``TrexState.stop_at_deal_end``, set on this world only)."""
    o = st.game.options
    if st.phase in (TRICK, TREX) and not st.tiebreak:
        st.stop_at_deal_end = True
        apply = st.apply
        while not st.deal_ended:
            apply(strong_policy(st))
        return deal_value(st, own_weights(seat, o.partnership) if weights is None else weights)
    seats = (seat, (seat + 2) % 4) if o.partnership else (seat,)
    start = sum(st.totals[q] for q in seats)
    deal = st.deal_index
    tiebreak = st.tiebreak
    while st.deal_index == deal and st.to_move >= 0 and st.tiebreak == tiebreak:
        st.apply(strong_policy(st))
    if st.deal_index != deal or st.to_move < 0:
        delta = sum(st.totals[q] for q in seats) - start
        return float(-delta if o.reverse_scores else delta)  # totals are negated under TX-V7
    return float(sum(st.deal_scores[q] for q in seats))


_OWN: dict[tuple[bool, int], tuple[float, ...]] = {
    (team, seat): tuple(1.0 if q == seat or (team and q == (seat + 2) % 4) else 0.0 for q in range(4))
    for team in (False, True) for seat in range(4)
}


def own_weights(seat: int, partnership: bool) -> tuple[float, ...]:
    """The weights by which :func:`deal_value` is ``seat``'s own score for the deal (its team's
    in partnership, TX-V2); worked out once, since every rollout that values its own score asks."""
    return _OWN[(bool(partnership), seat)]


def deal_value(st: TrexState, weights: tuple[float, ...]) -> float:
    """The scores of the deal ``st`` has played (the Trex payouts included once it is over)
    weighted by ``weights``, one a seat. Raw scores: under reverse_scores (TX-V7) the same play
    is best."""
    o = st.game.options
    value = 0.0
    for q in range(4):
        score = st.deal_scores[q]
        if st.contract == TR and q in st.finishing:
            score += o.trex_payouts[st.finishing.index(q)]
        value += weights[q] * score
    return value


def candidate(world: TrexState, action: Action) -> TrexState:
    """A copy of ``world`` with ``action`` played on it, to be finished by a rollout.

    In the play phases the copy stops at the end of *this* deal before the action is applied,
    so a card that ends the deal (its last trick, the last scoring card under TX-25, the third
    seat out in Trex) is judged by this deal's score, not by the next deal's."""
    trial = world.clone()
    if trial.phase in (TRICK, TREX) and not trial.tiebreak:
        trial.stop_at_deal_end = True
    trial.apply(action)
    return trial


def action_value(world: TrexState, action: Action, seat: int) -> float:
    """``seat``'s score for the deal in which ``action`` is played: :func:`candidate`, finished
    as :func:`rollout_deal` does."""
    return rollout_deal(candidate(world, action), seat)


__all__ = ["DEFAULT_SECONDS", "ENDGAME_TRICKS", "action_value", "candidate", "deal_value", "own_weights",
           "rollout_deal"]
