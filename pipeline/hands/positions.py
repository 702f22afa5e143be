"""Table positions: each player's seat named from the button and the blinds, for whole batches of hands.

Layer: hands (:mod:`pipeline.hands`); imports numpy only.

This module owns the names of the positions (:class:`Position`) and the
rule that gives them (:func:`positions`), so that every hand-history format
names a seat alike.  The rule, over the players dealt in:

- ``BB`` and ``SB`` are the players who posted the big and the small blind
  (an ante-only hand counts the first two players after the button as its
  blinds; a hand whose one blind is the button's, short-deck's button blind,
  has neither);
- ``BTN`` is the player on the button, who in a heads-up hand posts the
  small blind and is named ``BTN``; a dead button (the seat the record
  names as the button is empty) leaves ``BTN`` to nobody;
- the others, from the first after the big blind to the last before the
  button's seat, are named by how many they are: ``CO`` alone; ``HJ CO``;
  ``UTG HJ CO``; ``UTG LJ HJ CO``; then ``UTG UTG+1 ... LJ HJ CO``.

So a full table of n players reads, from the first to act before the flop:
2 ``BTN BB``; 3 ``BTN SB BB``; 4 ``CO BTN SB BB``; 5 ``HJ CO BTN SB BB``;
6 ``UTG HJ CO BTN SB BB``; 7 ``UTG LJ HJ CO BTN SB BB``; 8 ``UTG UTG+1 LJ
HJ CO BTN SB BB``; 9 adds ``UTG+2``; 10 ``UTG+3``.  Straddles and entry
posts name no position: their players keep the seat's.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np
from numpy.typing import NDArray


class Position(StrEnum):
    """A position at the table, in the order the players act before the flop."""

    UTG = "UTG"
    UTG1 = "UTG+1"
    UTG2 = "UTG+2"
    UTG3 = "UTG+3"
    UTG4 = "UTG+4"
    UTG5 = "UTG+5"
    LJ = "LJ"
    HJ = "HJ"
    CO = "CO"
    BTN = "BTN"
    SB = "SB"
    BB = "BB"


#: The positions in order; a position's code is its index here.
POSITIONS = tuple(Position)
_CODE = {position: code for code, position in enumerate(POSITIONS)}
NONE = -1  # the code of a seat no one was dealt into


def others(count: int) -> tuple[Position, ...]:
    """The positions of ``count`` players who are neither on the button nor in the blinds, in order.

    >>> [str(p) for p in others(1)], [str(p) for p in others(3)], [str(p) for p in others(6)]
    (['CO'], ['UTG', 'HJ', 'CO'], ['UTG', 'UTG+1', 'UTG+2', 'LJ', 'HJ', 'CO'])
    """
    last = (Position.LJ, Position.HJ, Position.CO)
    if count <= 2:
        return last[3 - count:]
    if count == 3:
        return (Position.UTG, Position.HJ, Position.CO)
    early = (Position.UTG, Position.UTG1, Position.UTG2, Position.UTG3, Position.UTG4, Position.UTG5)
    if count - 3 > len(early):
        raise ValueError(f"{count} players besides the button and the blinds: at most {len(early) + 3}")
    return early[:count - 3] + last


def positions(dealt: NDArray[np.bool_], button: NDArray[np.integer], *,
              small_blind: NDArray[np.integer] | None = None,
              big_blind: NDArray[np.integer] | None = None,
              button_blind: NDArray[np.bool_] | None = None) -> NDArray[np.int8]:
    """The position of every seat of every hand, as codes into :data:`POSITIONS`.

    Parameters
    ----------
    dealt : ndarray of shape (n, seats), dtype bool
        The seats dealt into each hand, in the table's order: the seat after
        seat s (clockwise) is s + 1, and the first follows the last.
    button : ndarray of shape (n,), integer
        The seat (index into ``dealt``'s columns) the record names as the
        button; one no one was dealt into is a dead button.
    small_blind, big_blind : ndarray of shape (n,), integer, optional
        The seat that posted each blind, -1 where none did.  A hand where
        neither was posted (ante only, or not given) takes the first two
        players after the button; a heads-up one, the button and the other.
    button_blind : ndarray of shape (n,), dtype bool, optional
        Hands whose one blind the button posts (short-deck's button blind):
        no seat is ``SB`` or ``BB``, the others are named from the first
        after the button.

    Returns
    -------
    ndarray of shape (n, seats), dtype int8
        The code of each seat's position, :data:`NONE` (-1) where no one was
        dealt in.

    Examples
    --------
    Six seats, five players, the button on seat 3 (index 2) and seat 5 empty:

    >>> dealt = np.array([[True, True, True, True, False, True]])
    >>> [str(POSITIONS[c]) if c >= 0 else None for c in positions(dealt, np.array([2]))[0]]
    ['HJ', 'CO', 'BTN', 'SB', None, 'BB']

    A button blind: the button, and four others in their order of play:

    >>> codes = positions(dealt, np.array([2]), button_blind=np.array([True]))
    >>> [str(POSITIONS[c]) if c >= 0 else None for c in codes[0]]
    ['HJ', 'CO', 'BTN', 'UTG', None, 'LJ']

    The same table with the button's seat empty (a dead button), the blinds as posted:

    >>> dealt = np.array([[True, True, False, True, True, True]])
    >>> codes = positions(dealt, np.array([2]), small_blind=np.array([3]), big_blind=np.array([4]))
    >>> [str(POSITIONS[c]) if c >= 0 else None for c in codes[0]]
    ['HJ', 'CO', None, 'SB', 'BB', 'UTG']
    """
    dealt = np.asarray(dealt, dtype=bool)
    n, seats = dealt.shape
    button = np.asarray(button, dtype=np.int64)
    missing = np.full(n, -1, dtype=np.int64)
    small = missing if small_blind is None else np.asarray(small_blind, dtype=np.int64)
    big = missing if big_blind is None else np.asarray(big_blind, dtype=np.int64)
    hands = np.arange(n)
    # Each seat's distance clockwise after the button's seat: 0 is the next seat, seats - 1 the
    # button's own; the order of play before the flop, blinds first, follows from it.
    after = (np.arange(seats) - button[:, None] - 1) % seats
    order = np.argsort(np.where(dealt, after, seats), axis=1, kind="stable")  # the dealt seats first
    players = dealt.sum(axis=1)
    first, second = order[:, 0], order[:, 1 if seats > 1 else 0]
    unposted = (small < 0) & (big < 0)
    if button_blind is not None:  # no blinds to name, not blinds to take from the seats after the button
        unposted &= ~np.asarray(button_blind, dtype=bool)
    heads_up = players == 2
    small = np.where(unposted, np.where(heads_up, button, first), small)
    big = np.where(unposted, np.where(heads_up, np.where(first == button, second, first), second), big)

    codes = np.full((n, seats), NONE, dtype=np.int8)
    on_button = dealt[hands, np.clip(button, 0, seats - 1)] & (button >= 0) & (button < seats)
    labelled = np.zeros((n, seats), dtype=bool)
    for seat, code in ((small, _CODE[Position.SB]), (big, _CODE[Position.BB])):
        rows = np.flatnonzero((seat >= 0) & (seat < seats))
        rows = rows[dealt[rows, seat[rows]]]
        codes[rows, seat[rows]] = code
        labelled[rows, seat[rows]] = True
    rows = np.flatnonzero(on_button)
    codes[rows, button[rows]] = _CODE[Position.BTN]  # the button wins over the small blind it posts
    labelled[rows, button[rows]] = True

    # The others, in the order of play: their rank among the unlabelled dealt seats by distance.
    rest = dealt & ~labelled
    count = rest.sum(axis=1)
    ranked = np.take_along_axis(rest, order, axis=1)
    rank_in_order = np.cumsum(ranked, axis=1) - 1
    rank = np.empty_like(rank_in_order)
    np.put_along_axis(rank, order, rank_in_order, axis=1)
    table = _others_table(seats)
    rows, cols = np.nonzero(rest)
    codes[rows, cols] = table[count[rows], rank[rows, cols]]
    return codes


def _others_table(seats: int) -> NDArray[np.int8]:
    """``table[count, rank]``: the code of the rank-th of ``count`` other players (see :func:`others`)."""
    table = np.full((seats + 1, max(seats, 1)), NONE, dtype=np.int8)
    for count in range(1, min(seats, len(POSITIONS) - 3) + 1):
        for rank, position in enumerate(others(count)):
            table[count, rank] = _CODE[position]
    return table
