"""The replay of a group of PHH hands: the chips each player put in and received, the audit of
the recorded results, and the batch of the showdowns.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.sources`,
:mod:`~pipeline.formats.histories`, :mod:`~pipeline.formats.phh.toml`,
:mod:`~pipeline.formats.phh.actions`, :mod:`~pipeline.formats.phh.checks`, the hold'em game's
columns, pure evaluation and the foundation modules.

This module owns :func:`replay`, a sequence of steps over all hands and
actions of a group at once: the checks and cards of
:mod:`~pipeline.formats.phh.checks`, then the chips: the street of each
action is the number of board deals before it; the level a call matches is
the running maximum of the bets on its street (the big blind before the
flop); what a player commits on a street is its largest bet or call there,
capped by what it has behind; the uncalled part of the largest bet goes
back to its owner (antes are dead money: never returned, no side pot).
``received = finishing - starting + contributed`` (or ``winnings``) names
the recorded winners of the showdown, once the recorded result is checked
to be a result (:func:`inconsistent_records`, the reasons
:data:`ZERO_WINNINGS` ... :data:`NOBODY_PAID`).  :func:`to_batch` makes
the batch of a replayed group: a row per scored showdown, the rejected
hands, the counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.formats.histories import EXPECTED, NO_RECORDED_WINNER, complete, reason_key, venue_counts
from pipeline.formats.phh.actions import (
    CBR,
    CC,
    DB,
    DH,  # noqa: F401 (streets' doctest)
    FOLD,
    Actions,
    split_actions,
)
from pipeline.formats.phh.checks import NO_CARD as _NO_CARD  # noqa: F401 (cards_known's doctest)
from pipeline.formats.phh.checks import UNKNOWN_CARD as _UNKNOWN_CARD  # noqa: F401 (cards_known's doctest)
from pipeline.formats.phh.checks import (
    Rejections,
    board_cards,
    card_codes,
    check_actions,
    check_dealt_twice,
    check_fields,
    check_folded,
    hole_cards,
)
from pipeline.formats.phh.toml import Hands
from pipeline.formats.phh.toml import padded as _padded  # the replay keeps the name it was written with
from pipeline.formats.sources import Batch
from pipeline.games import holdem
from pipeline.poker import cards, notation
from pipeline.poker.holdem import BEST_OF

_SEATS = holdem.MAX_PLAYERS
_MAX_STREETS = BEST_OF + 1  # at most one street per board card, and the pre-flop


# --- The replay: steps over every hand of a group at once ---------------------------------------
#
# Each step below takes and returns whole arrays, one row per hand (``hands``)
# or per action (``n``), so that a group of thousands of hands costs a few
# numpy calls per step, and each step can be called on a few hand-built rows.


def streets(verb: NDArray[np.int8], hand: NDArray[np.int64], counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """The street of every action: the board deals before it in its hand.

    Parameters
    ----------
    verb : ndarray of shape (n,), dtype int8
        Verb codes of the actions of a group, hand after hand.
    hand : ndarray of shape (n,), dtype int64
        The hand of each action (non-decreasing).
    counts : ndarray of shape (hands,), dtype int64
        Actions per hand.

    Returns
    -------
    ndarray of shape (n,), dtype int64
        0 before the flop, 1 after the first board deal, ..., at most 5: a
        hand dealt more is rejected, and the cap keeps it inside the arrays.
        A board deal counts only for the actions after it.

    Examples
    --------
    >>> streets(np.array([DH, CBR, DB, CC, DB, CC, DH]), np.array([0, 0, 0, 0, 0, 0, 1]),
    ...         np.array([6, 1])).tolist()
    [0, 0, 0, 1, 1, 2, 0]
    """
    is_db = (verb == DB).astype(np.int64)
    before = np.cumsum(is_db) - is_db
    hand_start = np.cumsum(counts) - counts
    street = before - before[np.minimum(hand_start, max(len(before) - 1, 0))][hand] if len(before) \
        else before
    capped: NDArray[np.int64] = np.minimum(street, _MAX_STREETS - 1)
    return capped


def heads_up_order(ante: NDArray[np.float64], blind: NDArray[np.float64],
                   players: NDArray[np.int64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The antes and blinds each seat posts: as listed, but swapped between the two seats of a heads-up hand.

    The specification lists the forced bets from the small blind on, and
    reverses them when two play: the first player is then the button and
    posts the second value (pokerkit does the same).

    Parameters
    ----------
    ante, blind : ndarray of shape (hands, seats), dtype float64
        As the hands list them.
    players : ndarray of shape (hands,), dtype int64

    Returns
    -------
    ante, blind : ndarray of shape (hands, seats), dtype float64
        New arrays.

    Examples
    --------
    >>> ante, blind = heads_up_order(np.zeros((2, 3)), np.array([[1., 2., 0.], [1., 2., 0.]]),
    ...                              np.array([2, 3]))
    >>> blind.tolist()
    [[2.0, 1.0, 0.0], [1.0, 2.0, 0.0]]
    """
    two = np.flatnonzero(players == 2)
    swapped = []
    for values in (ante, blind):
        values = values.copy()
        values[two, 0], values[two, 1] = values[two, 1], values[two, 0].copy()
        swapped.append(values)
    return swapped[0], swapped[1]


def posted_forced_bets(stack: NDArray[np.float64], ante: NDArray[np.float64], blind: NDArray[np.float64],
                       seated: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The antes and then the blinds or straddles posted, each capped by what the player has left.

    Parameters
    ----------
    stack, ante, blind : ndarray of shape (hands, seats), dtype float64
        Starting stacks, antes, blinds or straddles.
    seated : ndarray of shape (hands, seats), dtype bool
        The seats that have a player.

    Returns
    -------
    posted_ante, posted_blind : ndarray of shape (hands, seats), dtype float64
        0 at an empty seat.

    Examples
    --------
    >>> posted_ante, posted_blind = posted_forced_bets(
    ...     np.array([[100., 30., 8.]]), np.array([[5., 5., 5.]]), np.array([[10., 20., 0.]]),
    ...     np.array([[True, True, True]]))
    >>> posted_ante.tolist(), posted_blind.tolist()
    ([[5.0, 5.0, 5.0]], [[10.0, 20.0, 0.0]])
    """
    posted_ante = np.minimum(ante, stack) * seated
    posted_blind = np.minimum(blind, stack - posted_ante) * seated
    return posted_ante, posted_blind


def call_levels(verb: NDArray[np.int8], amount: NDArray[np.float64], street: NDArray[np.int64],
                hand: NDArray[np.int64], posted_blind: NDArray[np.float64]) -> NDArray[np.float64]:
    """The level a call matches at every action: the largest bet before it on its street.

    Before the flop the largest blind counts as a bet.

    Parameters
    ----------
    verb : ndarray of shape (n,), dtype int8
        The verb codes of the actions.
    street, hand : ndarray of shape (n,), dtype int64
        The streets (:func:`streets`) and hands of the actions.
    amount : ndarray of shape (n,), dtype float64
        The amount of each ``cbr`` (a bet or raise *to* that total on the street).
    posted_blind : ndarray of shape (hands, seats), dtype float64
        From :func:`posted_forced_bets`.

    Returns
    -------
    ndarray of shape (n,), dtype float64
        -inf where nothing was bet before on the street.
    """
    segment = hand * _MAX_STREETS + street
    is_bet = verb == CBR
    bets = np.flatnonzero(is_bet)
    # The largest bet through each bet, read at every action after it: the last bet before it.
    through = _running_max(amount[bets], segment[bets])
    last = np.cumsum(is_bet) - is_bet - 1
    level = np.full(len(verb), -np.inf)
    after = np.flatnonzero(last >= 0)
    after = after[segment[bets[last[after]]] == segment[after]]
    level[after] = through[last[after]]
    np.maximum(level, _across(np.maximum, posted_blind)[hand], out=level, where=street == 0)
    return level


def contributions(actions: Actions, players: NDArray[np.int64], street: NDArray[np.int64],
                  level: NDArray[np.float64], stack: NDArray[np.float64], posted_ante: NDArray[np.float64],
                  posted_blind: NDArray[np.float64], *,
                  rejections: Rejections | None = None) -> NDArray[np.float64]:
    """The chips every player put in, street by street, before the uncalled bet goes back.

    On a street a player commits the largest of its blind (before the
    flop), its bets (``cbr``, to the amount) and its calls (``cc``, to the
    level of :func:`call_levels`), capped by what it had left when the street
    began: a call for more than the stack is an all-in call.

    Parameters
    ----------
    actions : Actions
        The split actions of a group; only understood ``cbr`` and ``cc`` of
        seated players count.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    street : ndarray of shape (n,), dtype int64
        From :func:`streets`.
    level : ndarray of shape (n,), dtype float64
        From :func:`call_levels`.
    stack, posted_ante, posted_blind : ndarray of shape (hands, seats), dtype float64
        Starting stacks, and the antes and blinds of :func:`posted_forced_bets`.
    rejections : Rejections, optional
        Gets "bet X beyond the stack" for a ``cbr`` to more than the player
        had when the street began: such a hand cannot have been played.

    Returns
    -------
    ndarray of shape (hands, seats), dtype float64
        Antes included.
    """
    verb = actions.verb
    playing = np.flatnonzero(actions.by_player(players) & ((verb == CBR) | (verb == CC)))
    slot, bet, on_street = actions.slot[playing], verb[playing] == CBR, street[playing]
    wanted = np.where(bet, actions.amount[playing], level[playing])
    tolerance = _tolerance(stack)[actions.hand[playing]]
    contributed = posted_ante.copy()
    beyond = np.zeros(len(verb), dtype=bool)
    caps = np.zeros(len(verb))
    # A street at a time: its cap is what the earlier streets left.
    for s in range(int(street.max(initial=0)) + 1):
        committed = posted_blind.copy() if s == 0 else np.zeros_like(contributed)
        acts = np.flatnonzero(on_street == s)  # of the playing actions
        cap = (stack - contributed).reshape(-1)[slot[acts]]
        beyond[playing[acts]] = bet[acts] & (wanted[acts] > cap + tolerance[acts])
        caps[playing[acts]] = cap
        np.maximum.at(committed.reshape(-1), slot[acts], np.minimum(wanted[acts], cap))
        contributed += committed
    if rejections is not None:
        rejections.reject_actions(actions, beyond, lambda a: f"bet {actions.amount[a]:g} beyond the stack "
                                                             f"(p{actions.actor[a]} has {caps[a]:g})")
    return contributed


def return_uncalled(contributed: NDArray[np.float64],
                    posted_ante: NDArray[np.float64]) -> NDArray[np.float64]:
    """The contributions once the part of the largest bet that nobody matched goes back to its owner.

    An ante is dead money, never matched nor returned: only the bets
    (contributions without the antes) are compared, so that a big blind
    ante neither comes back as if uncalled nor hides a raise nobody called.

    Parameters
    ----------
    contributed : ndarray of shape (hands, seats), dtype float64
        From :func:`contributions`, antes included.
    posted_ante : ndarray of shape (hands, seats), dtype float64
        From :func:`posted_forced_bets`.

    Returns
    -------
    ndarray of shape (hands, seats), dtype float64
        A new array: the largest bet of each hand lowered to the second
        largest, antes still included.

    Examples
    --------
    >>> return_uncalled(np.array([[50., 300., 100.]]), np.zeros((1, 3))).tolist()
    [[50.0, 100.0, 100.0]]
    >>> return_uncalled(np.array([[50., 400., 300.]]), np.array([[0., 100., 0.]])).tolist()
    [[50.0, 400.0, 300.0]]
    """
    bets = contributed - posted_ante
    ranked = np.sort(bets, axis=1)
    top = bets.argmax(axis=1)
    returned = contributed.copy()
    returned[np.arange(len(returned)), top] -= ranked[:, -1] - ranked[:, -2]
    return returned


def live_players(actions: Actions, players: NDArray[np.int64],
                 seated: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The players still in every hand at its end: seated and not folded.

    Parameters
    ----------
    actions : Actions
        The split actions of a group.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    seated : ndarray of shape (hands, seats), dtype bool
        The seats that have a player.

    Returns
    -------
    ndarray of shape (hands, seats), dtype bool
        Two or more live players make a showdown.
    """
    folded = np.zeros(seated.shape, dtype=bool)
    folds = np.flatnonzero(actions.by_player(players) & (actions.verb == FOLD))
    folded.reshape(-1)[actions.slot[folds]] = True
    live: NDArray[np.bool_] = seated & ~folded
    return live


def mucked_players(actions: Actions, players: NDArray[np.int64],
                   live: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The live players who give their hand up at the showdown: ``pN sm`` without cards.

    A player who mucks forfeits the pot, as the specification says: its
    seat is left empty, whatever cards it was dealt.

    Parameters
    ----------
    actions : Actions
        The split actions of a group.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.

    Returns
    -------
    ndarray of shape (hands, seats), dtype bool
    """
    mucked = np.zeros(live.shape, dtype=bool)
    mucks = np.flatnonzero(actions.by_player(players) & actions.mucks)
    mucked.reshape(-1)[actions.slot[mucks]] = True
    mucked &= live
    return mucked


def cards_known(board: NDArray[np.uint8], holes: NDArray[np.uint8],
                contesting: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Whether every card a showdown needs is known: five board cards and the contesting players' holes.

    A card written ``??`` is unknown: such a showdown is never scored, as
    if the card were any other.

    Parameters
    ----------
    board : ndarray of shape (hands, 5), dtype uint8
        From :func:`board_cards`.
    holes : ndarray of shape (hands, seats, 2), dtype uint8
        From :func:`hole_cards`.
    contesting : ndarray of shape (hands, seats), dtype bool
        The players who contest the pot at the showdown; at least one.

    Returns
    -------
    ndarray of shape (hands,), dtype bool

    Examples
    --------
    >>> board = np.array([[0, 1, 2, 3, 4], [0, 1, _UNKNOWN_CARD, 3, 4]], dtype=np.uint8)
    >>> holes = np.full((2, _SEATS, 2), _NO_CARD, dtype=np.uint8)
    >>> holes[:, 0] = [8, 9]
    >>> contesting = np.zeros((2, _SEATS), dtype=bool)
    >>> contesting[:, 0] = True
    >>> cards_known(board, holes, contesting).tolist()
    [True, False]
    """
    dealt = (holes[:, :, 0] < cards.DECK_SIZE) & (holes[:, :, 1] < cards.DECK_SIZE)  # not a reduction of 2
    known: NDArray[np.bool_] = (_across(np.logical_and, board < cards.DECK_SIZE)
                                & _across(np.logical_and, dealt | ~contesting)
                                & _across(np.logical_or, contesting))
    return known


def received_chips(stack: NDArray[np.float64], contributed: NDArray[np.float64],
                   finishing: NDArray[np.float64], has_finishing: NDArray[np.bool_],
                   winnings: NDArray[np.float64]) -> NDArray[np.float64]:
    """The chips every player received from the pot, as the recorded result says.

    Parameters
    ----------
    stack, contributed : ndarray of shape (hands, seats), dtype float64
        Starting stacks, and contributions after :func:`return_uncalled`.
    finishing, winnings : ndarray of shape (hands, seats), dtype float64
        The recorded finishing stacks and winnings (0 where absent).
    has_finishing : ndarray of shape (hands,), dtype bool
        The hand records finishing stacks; they win over winnings.

    Returns
    -------
    ndarray of shape (hands, seats), dtype float64
        ``finishing - stack + contributed``, or else ``winnings``.

    Examples
    --------
    >>> received_chips(np.array([[100., 100.]]), np.array([[40., 40.]]), np.array([[180., 20.]]),
    ...                np.array([True]), np.zeros((1, 2))).tolist()
    [[120.0, -40.0]]
    """
    received: NDArray[np.float64] = np.where(has_finishing[:, None], finishing - stack + contributed,
                                             winnings)
    return received


def _across(ufunc: np.ufunc, values: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(values, axis=1)`` a column at a time, for an ufunc blind to order (max, or).

    numpy reduces a short last axis (the seats, the board) row by row, a
    call for each row; a column at a time takes a call for each column.

    >>> _across(np.maximum, np.array([[1., 5., 2.], [7., 3., np.nan]])).tolist()
    [5.0, nan]
    """
    out = values[:, 0].copy()
    for column in range(1, values.shape[1]):
        ufunc(out, values[:, column], out=out)
    return out


def _tolerance(stack: NDArray[np.float64]) -> NDArray[np.float64]:
    """(hands,) float64: differences of chips below this are rounding, not chips."""
    finite = np.where(np.isfinite(stack), np.abs(stack), 0.0)  # an unknown (inf) stack sets no scale
    tolerance: NDArray[np.float64] = 1e-9 * (1 + _across(np.maximum, finite))  # finite >= 0: as initial=0
    return tolerance


def side_pots(live: NDArray[np.bool_], contributed: NDArray[np.float64], posted_ante: NDArray[np.float64],
              stack: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Whether the live players of every hand bet different amounts: a side pot.

    With a side pot the players who received chips need not hold the best
    hand (a short all-in can win the main pot only), so the recorded result
    cannot check the winners.  The antes are dead money in the main pot,
    which every live player can win: they make no side pot.

    Parameters
    ----------
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.
    contributed : ndarray of shape (hands, seats), dtype float64
        After :func:`return_uncalled`.
    posted_ante : ndarray of shape (hands, seats), dtype float64
        From :func:`posted_forced_bets`.
    stack : ndarray of shape (hands, seats), dtype float64
        Starting stacks, which set the rounding tolerance.

    Returns
    -------
    ndarray of shape (hands,), dtype bool
        False where one player or none is live.
    """
    bets = contributed - posted_ante
    spread = (_across(np.maximum, np.where(live, bets, -np.inf))
              - _across(np.minimum, np.where(live, bets, np.inf)))
    side: NDArray[np.bool_] = spread > _tolerance(stack)
    return side


def recorded_winners(received: NDArray[np.float64], live: NDArray[np.bool_],
                     stack: NDArray[np.float64]) -> NDArray[np.object_]:
    """The winners the recorded chips name: the live players who received chips.

    Parameters
    ----------
    received : ndarray of shape (hands, seats), dtype float64
        From :func:`received_chips`.
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.
    stack : ndarray of shape (hands, seats), dtype float64
        Starting stacks, which set the rounding tolerance.

    Returns
    -------
    ndarray of shape (hands,), dtype object
        Seats from 1 as the winners column writes them ("1 3"), or
        :data:`NO_RECORDED_WINNER`.
    """
    received_bits = ((received > _tolerance(stack)[:, None]) & live) << np.arange(_SEATS)
    masks = received_bits.sum(axis=1).astype(np.int64)
    expected: NDArray[np.object_] = np.where(masks > 0, holdem.winners_text(masks), NO_RECORDED_WINNER)
    return expected


#: Why a recorded result is not a result (summary.json ``expected``, ``inconsistent_records``).
ZERO_WINNINGS = "winnings sum to 0 while chips went into the pot"
NOT_CONSERVED = "finishing stacks do not conserve the chips (beyond a rake of 10 % of the pot)"
DISAGREE = "winnings and finishing stacks disagree"
MUCK_PAID = "a player who mucked received chips"
NOBODY_PAID = "no player at the showdown received chips"
#: The rake a record may take from a pot, as a share of it.
MAX_RAKE = 0.10


def inconsistent_records(stack: NDArray[np.float64], seated: NDArray[np.bool_],
                         contributed: NDArray[np.float64], finishing: NDArray[np.float64],
                         has_finishing: NDArray[np.bool_], winnings: NDArray[np.float64],
                         has_winnings: NDArray[np.bool_], contesting: NDArray[np.bool_],
                         mucked: NDArray[np.bool_]) -> tuple[NDArray[np.object_], NDArray[np.bool_],
                                                             NDArray[np.float64]]:
    """Check that each recorded result is a result before it is trusted, and what each player received.

    Records converted from other formats can be wrong: winnings of 0 for
    everybody, finishing stacks that do not add up.  Such a record cannot
    check the evaluator; a mismatch must only ever mean that a consistent
    record and the evaluator disagree.  An unknown (``inf``) starting stack
    makes finishing stacks useless: the record is checked through
    ``winnings`` only.

    Parameters
    ----------
    stack, contributed : ndarray of shape (hands, seats), dtype float64
        Starting stacks, and contributions after :func:`return_uncalled`.
    seated : ndarray of shape (hands, seats), dtype bool
    finishing, winnings : ndarray of shape (hands, seats), dtype float64
        The recorded finishing stacks and winnings (0 where absent).
    has_finishing, has_winnings : ndarray of shape (hands,), dtype bool
        Which of the two each hand records.
    contesting, mucked : ndarray of shape (hands, seats), dtype bool
        The players who contest the pot at the showdown, and those who
        mucked (:func:`mucked_players`).

    Returns
    -------
    reason : ndarray of shape (hands,), dtype object
        Why the record is inconsistent (one of the texts above), None where
        it is consistent or there is none.
    unknown_stacks : ndarray of shape (hands,), dtype bool
        A record that cannot be checked: an unknown stack and no winnings.
    received : ndarray of shape (hands, seats), dtype float64
        What each player received as the record says (:func:`received_chips`
        from the finishing stacks where the stacks are known, else winnings).

    Examples
    --------
    >>> live = np.array([[True, True]])
    >>> def check(finishing, winnings):
    ...     reason, unknown, _ = inconsistent_records(
    ...         np.array([[100., 100.]]), live, np.array([[50., 50.]]), np.array([finishing or [0., 0.]]),
    ...         np.array([finishing is not None]), np.array([winnings or [0., 0.]]),
    ...         np.array([winnings is not None]), live, ~live)
    ...     return reason[0]
    >>> check([150., 50.], [100., 0.]) is None          # the winner took the pot of 100
    True
    >>> check(None, [0., 0.]) == ZERO_WINNINGS, check([170., 50.], None) == NOT_CONSERVED
    (True, True)
    >>> check([140., 50.], None) is None                # a rake of 10 from a pot of 100
    True
    """
    known_stacks = _across(np.logical_and, np.isfinite(np.where(seated, stack, 0.0)))
    tolerance = _tolerance(stack)
    pot = np.where(seated, contributed, 0.0).sum(axis=1)
    chips_in = pot > tolerance
    use_finishing = has_finishing & known_stacks
    from_finishing = received_chips(np.where(seated, stack, 0.0), contributed, finishing,
                                    np.ones(len(stack), dtype=bool), winnings)
    received: NDArray[np.float64] = np.where(use_finishing[:, None], from_finishing, winnings)
    recorded = use_finishing | has_winnings
    rake = np.where(seated, stack, 0.0).sum(axis=1) - np.where(seated, finishing, 0.0).sum(axis=1)
    paid = received > tolerance[:, None]
    checks = (
        (ZERO_WINNINGS, has_winnings & chips_in & (np.abs(np.where(seated, winnings, 0.0)).sum(axis=1)
                                                   <= tolerance)),
        (NOT_CONSERVED, use_finishing & ((rake < -tolerance) | (rake > MAX_RAKE * pot + tolerance))),
        (DISAGREE, use_finishing & has_winnings & (seated & (np.abs(from_finishing - winnings)
                                                             > tolerance[:, None])).any(axis=1)),
        (MUCK_PAID, recorded & _across(np.logical_or, paid & mucked)),
        (NOBODY_PAID, recorded & chips_in & ~_across(np.logical_or, paid & contesting)),
    )
    reason = np.full(len(stack), None, dtype=object)
    for text, found in reversed(checks):  # the first check that fails names the record
        reason[found] = text
    unknown_stacks: NDArray[np.bool_] = has_finishing & ~known_stacks & ~has_winnings
    return reason, unknown_stacks, received


@dataclass
class Replay:
    """What the replay of a group of hands found; hand i is row i of every array.

    Attributes
    ----------
    rejections : Rejections
        Why hands are rejected.
    variant : ndarray of shape (hands,), dtype object
    board : ndarray of shape (hands, 5), dtype uint8
        From :func:`board_cards`.
    holes : ndarray of shape (hands, seats, 2), dtype uint8
        From :func:`hole_cards`.
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.
    contributed : ndarray of shape (hands, seats), dtype float64
        The chips each player put in the pot, the uncalled bet returned
        (:func:`return_uncalled`).
    received : ndarray of shape (hands, seats), dtype float64
        The chips each player received from the pot (:func:`received_chips`);
        0 where the hand records no result.
    recorded : ndarray of shape (hands,), dtype bool
        The hand records finishing stacks or winnings.
    side_pot : ndarray of shape (hands,), dtype bool
        From :func:`side_pots`.
    scored : ndarray of shape (hands,), dtype bool
        A showdown with every card known, not rejected: a row of the table.
    expected : ndarray of shape (hands,), dtype object
        The recorded winners of the scored showdowns that the chips check,
        "" elsewhere.
    counts : dict of str to int
        The hands of :data:`~pipeline.formats.histories.SET_APART` and the showdowns of
        :data:`~pipeline.formats.histories.NOT_CHECKED`.
    """

    rejections: Rejections
    variant: NDArray[np.object_]
    board: NDArray[np.uint8]
    holes: NDArray[np.uint8]
    live: NDArray[np.bool_]
    contributed: NDArray[np.float64]
    received: NDArray[np.float64]
    recorded: NDArray[np.bool_]
    side_pot: NDArray[np.bool_]
    scored: NDArray[np.bool_]
    expected: NDArray[np.object_]
    counts: dict[str, int]


def replay(hands: Hands) -> Replay:
    """Replay every hand of a group at once: the steps above, in order.

    The order of the checks is the order of the reasons: a hand keeps the
    first one.
    """
    count = len(hands.ordinal)
    rejections = Rejections.of(hands)
    fields = check_fields(hands, rejections)
    actions = split_actions(hands.actions, hands.action_counts)
    check_actions(actions, fields.players, rejections)
    check_folded(actions, fields.players, rejections)
    code, owner = card_codes(actions, rejections)
    board, _ = board_cards(code, owner, actions, count, rejections)
    holes = hole_cards(code, owner, actions, count, rejections)
    check_dealt_twice(board, holes, rejections)

    street = streets(actions.verb, actions.hand, actions.counts)
    ante, blind = heads_up_order(fields.ante, fields.blind, fields.players)
    posted_ante, posted_blind = posted_forced_bets(fields.stack, ante, blind, fields.seated)
    level = call_levels(actions.verb, actions.amount, street, actions.hand, posted_blind)
    put_in = contributions(actions, fields.players, street, level, fields.stack, posted_ante, posted_blind,
                           rejections=rejections)
    contributed = return_uncalled(put_in, posted_ante)
    live = live_players(actions, fields.players, fields.seated)
    mucked = mucked_players(actions, fields.players, live)
    contesting = live & ~mucked
    showdown = live.sum(axis=1) >= 2
    complete = cards_known(board, holes, contesting)

    rejected = rejections.rejected
    scored = ~rejected & showdown & complete
    counts = {"without_showdown": int((~rejected & ~showdown).sum()),
              "unknown_cards": int((~rejected & showdown & ~complete).sum()),
              "mucked": int(mucked[~rejected & showdown].sum())}
    finishing, winnings = hands.numbers["finishing_stacks"], hands.numbers["winnings"]
    has_finishing, has_winnings = finishing[1] >= 0, winnings[1] >= 0
    problem, unknown_stacks, received = inconsistent_records(
        fields.stack, fields.seated, contributed, _padded(*finishing), has_finishing, _padded(*winnings),
        has_winnings, contesting, mucked)
    recorded = has_finishing | has_winnings
    side_pot = side_pots(live, contributed, posted_ante, fields.stack)
    inconsistent = scored & recorded & (problem != None)  # noqa: E711 (elementwise)
    unknown = scored & recorded & ~inconsistent & unknown_stacks
    checked = scored & recorded & ~inconsistent & ~unknown & ~side_pot
    expected = np.where(checked, recorded_winners(received, contesting, fields.stack), "")
    counts["inconsistent_record"] = int(inconsistent.sum())
    counts["unknown_stacks"] = int(unknown.sum())
    counts["side_pots"] = int((scored & recorded & ~inconsistent & ~unknown & side_pot).sum())
    counts["no_recorded_result"] = int((scored & ~recorded).sum())
    for row in np.flatnonzero(inconsistent):  # few: inconsistent records are counted by reason
        key = reason_key("inconsistent_record", str(problem[row]))
        counts[key] = counts.get(key, 0) + 1
    # The audit by the venue each record names (HandHQ's .phhs files mix six sites).
    counts.update(venue_counts(hands.venue, {
        "checked": checked, "not_checked_inconsistent_record": inconsistent,
        "not_checked_unknown_stacks": unknown,
        "not_checked_side_pots": scored & recorded & ~inconsistent & ~unknown & side_pot}))
    return Replay(rejections=rejections, variant=fields.variant, board=board, holes=holes, live=contesting,
                  contributed=contributed, received=received, recorded=recorded, side_pot=side_pot,
                  scored=scored, expected=expected, counts=counts)


def to_batch(hands: Hands, replayed: Replay, path: str | Mapping[int, str]) -> Batch:
    """The batch of a replayed group: a table row per scored showdown, the rejected hands, the counts.

    Parameters
    ----------
    hands : Hands
        The group as read.
    replayed : Replay
        Its :func:`replay`.
    path : str or mapping of int to str
        The file as the user named it, for the ``file`` column; for a group
        of one-hand files, the file of each hand by its ordinal.

    Returns
    -------
    Batch
        Rows and rejections in the order of the hands in the file.
    """
    order = np.argsort(hands.ordinal, kind="stable")
    keep = order[replayed.scored[order]]
    files = [path] * len(keep) if isinstance(path, str) else [path[int(hands.ordinal[i])] for i in keep]
    table = _table(replayed.board[keep], replayed.holes[keep], replayed.live[keep], replayed.expected[keep],
                   files, [hands.key[i] for i in keep], [hands.players[i] for i in keep],
                   replayed.variant[keep])
    problem, excerpt = replayed.rejections.problem, replayed.rejections.excerpt
    unreadable = []
    for row in order[replayed.rejections.rejected[order]]:
        where = f"hand {hands.key[row]}: " if hands.key[row] is not None else ""
        unreadable.append((int(hands.ordinal[row]), int(hands.line[row]), excerpt[row] or "",
                           where + problem[row]))
    return Batch(table, hands.ordinal[keep], hands.line[keep], unreadable, counts=replayed.counts)


def _running_max(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Maximum of the values of each value's segment so far, itself included; NaN is the largest.

    ``segment`` is non-decreasing.  Each pass doubles the span taken in, so
    that a segment of k values takes log2(k) passes.

    >>> _running_max(np.array([1., 5., 2., 7., 3., np.nan, 4.]), np.array([0, 0, 0, 1, 1, 2, 2])).tolist()
    [1.0, 5.0, 5.0, 7.0, 7.0, nan, nan]
    """
    running = values.copy()
    step = 1
    while step < len(values):
        same = segment[step:] == segment[:-step]
        if not same.any():
            break
        running[step:] = np.where(same, np.maximum(running[step:], running[:-step]), running[step:])
        step *= 2
    return running


def _table(board: np.ndarray, holes: np.ndarray, live: np.ndarray, expected: np.ndarray, files: list[str],
           keys: list[str | None], players: list[str | None], variant: np.ndarray) -> pa.Table:
    n = len(board)
    columns = {"board": notation.cards_text(np.minimum(board, cards.DECK_SIZE - 1))}
    for seat, name in enumerate(holdem.SEATS):
        columns[name] = notation.cards_text(np.where(live[:, seat, None], holes[:, seat], 0),
                                            present=live[:, seat])
    columns[EXPECTED] = pa.array(expected.tolist() if n else [], pa.string())
    columns["file"] = pa.array(files, pa.string())
    columns["hand"] = pa.array(keys, pa.string())
    columns["players"] = pa.array(players, pa.string())
    columns["variant"] = pa.array(variant.tolist() if n else [], pa.string())
    return complete(pa.table(columns))
