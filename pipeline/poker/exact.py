"""Exact counts: the number of hands in each category, counted from the rules.

Layer: pure evaluation (:mod:`pipeline.poker`); imports the cards and the
keys of the games (:mod:`pipeline.poker.larvis`, :mod:`pipeline.poker.holdem`,
:mod:`pipeline.poker.shortdeck`).

This module owns the exact number of hands in each category of the games,
computed by counting (nothing is typed in): hold'em with five or seven
cards from a 52-card deck, Larvis with five, and short-deck hold'em with
five to seven cards from its 36-card deck, in either ranking.

How the counts are computed
---------------------------
A hand of k cards is a multiset of k ranks (``cards.all_multisets(k)``, at
most four of a rank) plus a choice of suits.  A rank present ``c`` times can
take its suits in ``C(4, c)`` ways, so without regard to flushes the number
of hands behind one rank multiset is ``prod_r C(4, c_r)``, and every one of
them has the same best hand unless five or more cards share a suit.

For hold'em the flush hands are then counted per multiset and moved out of
its suitless category.  Fix the flush suit ``s`` and the set ``S`` of ranks
that appear in it (each rank at most once, ``|S| >= 5``).  A rank in ``S``
places its other ``c_r - 1`` cards in the three other suits, a rank outside
``S`` all its ``c_r`` cards there, so::

    hands with exactly S in suit s  =  prod_{r in S} C(3, c_r - 1) * prod_{r not in S} C(3, c_r)

Seven cards hold at most one suit five times (5 + 5 > 7), so the four suits
are disjoint cases and the count is multiplied by four.  The hand is a
straight flush when ``S`` contains five consecutive ranks (or A 2 3 4 5),
otherwise a flush.  A flush always beats the suitless hand of the same
cards: with five cards of one suit among seven, only two cards are left, too
few to complete a full house or four of a kind (a guard checks this).

Short deck is counted by enumeration instead: every one of the C(36, k)
hands (8,347,680 for seven cards) is scored by
:func:`pipeline.poker.shortdeck.hand_keys`, block by block.  The hands are
generated as arrays, not tuples: the (k - 1)-card sets of the deck in
lexicographic order put the sets above any card last, so the hands whose
lowest card is ``c`` are ``c`` beside a suffix of that one table.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pipeline.poker import cards, holdem, larvis, shortdeck

_H = holdem.Category


def _binomials(n: int, top: int) -> np.ndarray:
    # C(n, j) for j = 0..top, zero past n: indexed by a rank's count, it makes
    # "five of a rank" weigh nothing without a special case.
    return np.array([math.comb(n, j) for j in range(top + 1)], dtype=np.int64)


def _flush_hands(ranks: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flush and straight-flush suit assignments of each rank multiset.

    ``ranks`` is (n, k) sorted ascending, ``counts`` its (n, 13) rank counts;
    returns two int64 arrays of shape (n,): hands whose flush suit holds a
    straight, and hands whose flush suit does not.
    """
    n, k = ranks.shape
    c3 = _binomials(3, k)
    # A sorted row names each distinct rank by its first position; taking
    # only first positions enumerates every suited rank set S exactly once.
    first = np.ones((n, k), dtype=bool)
    first[:, 1:] = ranks[:, 1:] != ranks[:, :-1]
    straight_flush = np.zeros(n, dtype=np.int64)
    plain_flush = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for size in range(holdem.BEST_OF, k + 1):
        for positions in combinations(range(k), size):
            chosen = ranks[:, positions].astype(np.intp)
            valid = first[:, positions].all(axis=1)
            in_suit = np.zeros_like(counts)
            in_suit[rows[:, None], chosen] = 1
            # Ranks of S keep c - 1 cards for the other three suits, the rest c.
            ways = c3[counts - in_suit].prod(axis=1) * valid
            straight = cards.has_straight(in_suit @ cards.RANK_BITS)
            straight_flush += np.where(straight, ways, 0)
            plain_flush += np.where(straight, 0, ways)
    # At most one suit can hold five of the k <= 7 cards, so suits are disjoint.
    return len(cards.SUITS) * straight_flush, len(cards.SUITS) * plain_flush


@cache
def _suitless(k: int, straights: bool) -> tuple[NDArray[Any], NDArray[np.int64], NDArray[np.int64],
                                                NDArray[np.int8]]:
    """Every k-rank multiset: its ranks, rank counts, suited hands and shape (cards.SHAPES)."""
    ranks = cards.all_multisets(k)
    counts = cards.rank_counts(ranks)
    # Ways to give a rank present c times its c suits; C(4, 5+) = 0 drops
    # the impossible multisets all_multisets includes.
    hands: NDArray[np.int64] = _binomials(len(cards.SUITS), k)[counts].prod(axis=1)
    return ranks, counts, hands, cards.rank_shapes(counts, straights=straights)


@cache
def shape_counts(k: int, *, straights: bool) -> dict[str, int]:
    """Hands of k cards from a 52-card deck by the shape their ranks make (``cards.SHAPES``).

    With ``straights=False`` five in a row is no shape of its own (Larvis).
    Integer sums: float weights would round counts above 2**53 (not reached
    here, but exactness is the point of this module).
    """
    _, _, hands, shapes = _suitless(k, straights)
    possible = shapes >= 0
    totals = np.zeros(len(cards.SHAPES), dtype=np.int64)
    np.add.at(totals, shapes[possible], hands[possible])
    return {shape: int(total) for shape, total in zip(cards.SHAPES, totals, strict=True)}


@cache
def holdem_counts(k: int) -> dict[str, int]:
    """Hands of the best five of k cards from a 52-card deck in each hold'em category."""
    ranks, counts, hands, shapes = _suitless(k, True)
    possible = shapes >= 0
    codes = holdem.CATEGORY_OF_SHAPE[shapes[possible]]
    ranks, counts, hands = ranks[possible], counts[possible], hands[possible]
    totals = np.zeros(len(holdem.CATEGORIES), dtype=np.int64)
    straight_flush, plain_flush = _flush_hands(ranks, counts)
    flushed = (straight_flush + plain_flush) > 0
    if (codes[flushed] >= holdem.CATEGORIES.index(_H.FLUSH)).any():
        # The module docstring argues this cannot happen for k <= 7; if it
        # did, the flush would not be the best hand and the counts would lie.
        raise AssertionError("a rank multiset with a flush also beats a flush without suits")
    np.add.at(totals, codes, hands - straight_flush - plain_flush)
    totals[holdem.CATEGORIES.index(_H.STRAIGHT_FLUSH)] += straight_flush.sum()
    totals[holdem.CATEGORIES.index(_H.FLUSH)] += plain_flush.sum()
    return {str(name): int(total) for name, total in zip(holdem.CATEGORIES, totals, strict=True)}


@cache
def larvis_counts(k: int) -> dict[str, int]:
    """Hands of k cards from a 52-card deck in each Larvis category (no straights, no flushes).

    >>> larvis_counts(5)["Four of a kind"]
    624
    """
    shapes = shape_counts(k, straights=False)
    return {str(category): shapes[cards.SHAPES[shape]]
            for category, shape in zip(larvis.CATEGORIES, larvis.SHAPE_OF_CATEGORY, strict=True)}


def combination_rows(n: int, k: int) -> NDArray[np.uint8]:
    """Every k-subset of ``range(n)`` (1 <= k <= n <= 256) as an ascending row, in lexicographic order.

    Returns
    -------
    rows : ndarray of shape (C(n, k), k), dtype uint8
        The rows of ``itertools.combinations(range(n), k)``, in its order.

    >>> combination_rows(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    rows = np.arange(n, dtype=np.uint8)[:, None]
    for size in range(2, k + 1):
        # The sets of size - 1 whose least element is above a are the last C(n - 1 - a, size - 1)
        # rows: put a before each of them.
        tails = [rows[len(rows) - math.comb(n - 1 - a, size - 1):] for a in range(n - size + 1)]
        rows = np.concatenate([np.column_stack([np.full(len(tail), a, dtype=np.uint8), tail])
                               for a, tail in enumerate(tails)])
    return rows


#: Hands scored at a time by :func:`shortdeck_counts`: 7 MB of seven-card rows and the scoring's
#: temporaries, some 60 MB in all.
_BLOCK_ROWS = 1 << 20


def shortdeck_counts(k: int, *, trips_beat_straight: bool = False) -> dict[str, int]:
    """Hands of the best five of k cards from the 36-card short deck in each category.

    Parameters
    ----------
    k : int
        5, 6 or 7 cards.
    trips_beat_straight : bool, keyword-only
        The ranking where three of a kind beats a straight: from six cards
        up, a hand holding both counts as three of a kind.

    Returns
    -------
    counts : dict of str to int
        ``str(category)`` of :func:`pipeline.poker.shortdeck.category_order`,
        weakest first, to its number of hands; they sum to C(36, k).  Counted
        once per k and ranking (seven cards: some 8 million hands scored).

    Raises
    ------
    ValueError
        For k other than 5, 6 or 7.

    >>> counts = shortdeck_counts(5)
    >>> counts["Flush"], counts["Full House"], sum(counts.values()) == math.comb(36, 5)
    (480, 1728, True)
    """
    if k not in shortdeck.HAND_SIZES:
        raise ValueError(f"short-deck counts are for hands of {shortdeck.HAND_SIZES} cards, not {k}")
    return dict(_shortdeck_counts(k, bool(trips_beat_straight)))


@cache
def _shortdeck_counts(k: int, trips_beat_straight: bool) -> dict[str, int]:
    deck = shortdeck.DECK_CODES
    category_of_key = shortdeck.five_card_tables(trips_beat_straight)[2]
    rest = deck[combination_rows(len(deck), k - 1)]
    per_key = np.zeros(len(category_of_key), dtype=np.int64)
    for low in range(len(deck) - k + 1):
        tails = rest[len(rest) - math.comb(len(deck) - 1 - low, k - 1):]  # every set above the card
        for start in range(0, len(tails), _BLOCK_ROWS):
            tail = tails[start:start + _BLOCK_ROWS]
            hands = np.empty((len(tail), k), dtype=np.uint8)
            hands[:, 0], hands[:, 1:] = deck[low], tail
            keys = shortdeck.hand_keys(hands, trips_beat_straight=trips_beat_straight)
            per_key += np.bincount(keys, minlength=len(per_key))
    totals = np.zeros(len(shortdeck.CATEGORIES), dtype=np.int64)
    np.add.at(totals, category_of_key[1:], per_key[1:])  # key 0, no hand, never occurs
    names = shortdeck.category_order(trips_beat_straight=trips_beat_straight)
    return {str(name): int(total) for name, total in zip(names, totals, strict=True)}
