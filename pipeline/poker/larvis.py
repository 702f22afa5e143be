"""Larvis keys: suitless five-card hands ranked, and the outcome of two hands head to head.

Layer: pure evaluation (:mod:`pipeline.poker`); imports only
:mod:`pipeline.poker.cards`.

This module owns the Larvis hand ranking: the key of every hand, its
category and the outcome of a game between two keys.  Reading hands
written as rank symbols ("AAAQQ") is the game's (:mod:`pipeline.games.larvis`).

Keys
----
``hand_keys`` gives each hand a dense integer key: 1 is the weakest hand
(6 5 4 3 2), 6175 the strongest (A A A A K).  A higher key wins and equal
keys tie.  The keys run through the categories from weakest to strongest::

    High card       1 .. 1287    Triple          5006 .. 5863
    A pair       1288 .. 4147    Full house      5864 .. 6019
    Two pairs    4148 .. 5005    Four of a kind  6020 .. 6175

There are no straights and no flushes: 6 5 4 3 2 is a high card.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

import numpy as np
from numpy.typing import NDArray

from pipeline.poker import cards

HAND_SIZE = 5
#: Outcome of a game, by its code from :func:`winners`.
OUTCOMES = ("Hand 1", "Hand 2", "Tie")


class Category(StrEnum):
    """Larvis categories, weakest first; ``list(Category).index`` is the code."""

    HIGH_CARD = "High card"
    PAIR = "A pair"
    TWO_PAIRS = "Two pairs"
    TRIPLE = "Triple"
    FULL_HOUSE = "Full house"
    FOUR_OF_A_KIND = "Four of a kind"


CATEGORIES = tuple(Category)
#: The shape (``cards.SHAPES``) each category is; no straights in Larvis.
SHAPE_OF_CATEGORY = (cards.NO_PAIR, cards.PAIR, cards.TWO_PAIRS, cards.THREE, cards.FULL_HOUSE, cards.FOUR)
_CATEGORY_OF_SHAPE = np.full(len(cards.SHAPES), -1, dtype=np.int8)
_CATEGORY_OF_SHAPE[list(SHAPE_OF_CATEGORY)] = np.arange(len(CATEGORIES))


@cache
def _tables() -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    hands = cards.all_multisets(HAND_SIZE)
    _, _, ordered = cards.five_card_groups(hands)
    shapes = cards.rank_shapes(cards.rank_counts(hands), straights=False)
    # Five alike (shape -1) is no hand.
    category = np.where(shapes >= 0, _CATEGORY_OF_SHAPE[shapes], -1).astype(np.int8)
    value = category.astype(np.int64) * len(cards.RANKS) ** HAND_SIZE + cards.digits_value(ordered)
    possible = category >= 0
    keys = np.zeros(len(hands), dtype=np.int16)
    keys[possible] = np.unique(value[possible], return_inverse=True)[1] + 1
    category_of_key = np.full(keys.max() + 1, -1, dtype=np.int8)
    category_of_key[keys[possible]] = category[possible]
    keys.setflags(write=False)
    category_of_key.setflags(write=False)
    return keys, category_of_key


def key_table() -> NDArray[np.int16]:
    """Key of every five-rank multiset, indexed by ``cards.multiset_index``.

    Returns
    -------
    keys : ndarray of shape (6188,), dtype int16
        1..6175 for a possible hand, 0 for a rank five times.
    """
    return _tables()[0]


def hand_keys(ranks: np.ndarray) -> np.ndarray:
    """Key of each five-card Larvis hand.

    Parameters
    ----------
    ranks : array-like of shape (n, 5)
        Rank indices, 0 = '2' ... 12 = 'A', in any order within a row.

    Returns
    -------
    keys : ndarray of shape (n,), dtype int16
        1 (6 5 4 3 2) ... 6175 (A A A A K); higher wins, equal ties.

    Raises
    ------
    ValueError
        If the shape is wrong, a rank is outside 0..12, or a row holds one
        rank five times.

    Examples
    --------
    >>> hand_keys([[4, 3, 2, 1, 0], [12, 12, 12, 12, 11]]).tolist()
    [1, 6175]
    """
    ranks = cards.code_matrix(ranks, widths=(HAND_SIZE,), top=len(cards.RANKS) - 1, what="ranks")
    if ranks.size == 0:
        return np.zeros(len(ranks), dtype=np.int16)
    columns = cards.sorted_columns(ranks)
    keys = key_table()[cards.multiset_index(columns)]
    if not keys.all():
        row = int(np.argmin(keys))
        raise ValueError(f"row {row}: rank {cards.RANKS[ranks[row, 0]]} appears five times")
    return keys


def key_categories(keys: NDArray[np.integer]) -> NDArray[np.int8]:
    """Category code (index into ``CATEGORIES``) of each key, -1 for key 0 (no hand).

    Raises ValueError for keys that are not integers in 0..6175.

    >>> [CATEGORIES[c] for c in key_categories(np.array([1, 6175]))]
    [<Category.HIGH_CARD: 'High card'>, <Category.FOUR_OF_A_KIND: 'Four of a kind'>]
    """
    table = _tables()[1]
    categories: NDArray[np.int8] = table[cards.checked_integers(keys, top=len(table) - 1, what="keys")]
    return categories


def winners(keys1: np.ndarray, keys2: np.ndarray) -> np.ndarray:
    """Outcome code of each game: 0 = "Hand 1", 1 = "Hand 2", 2 = "Tie".

    >>> winners(np.array([5, 1, 3]), np.array([1, 5, 3])).tolist()
    [0, 1, 2]
    """
    return np.where(keys1 > keys2, 0, np.where(keys1 < keys2, 1, 2)).astype(np.int8)
