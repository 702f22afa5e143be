"""Hold'em keys: the best five of five, six or seven cards, and of whole deals.

Layer: pure evaluation (:mod:`pipeline.poker`); imports only
:mod:`pipeline.poker.cards` and the foundation modules.

This module owns the hold'em hand ranking: the key of every hand of five
to seven cards, its category, and the keys of every seat of deals sharing
a board.  Reading cards from text and deciding winners is the game's
(:mod:`pipeline.games.holdem`).

Keys
----
``hand_keys`` gives each row of cards the key of its best five-card hand,
one of the 7,462 classes of distinct five-card hands: 1 is 7 5 4 3 2 high,
7462 the royal flush; a higher key wins and equal keys tie.  Categories
take consecutive key ranges, weakest first::

    High Card          1 .. 1277    Flush           5864 .. 7140
    Pair            1278 .. 4137    Full House      7141 .. 7296
    Two Pair        4138 .. 4995    Four of a Kind  7297 .. 7452
    Three of a Kind 4996 .. 5853    Straight Flush  7453 .. 7462
    Straight        5854 .. 5863

How a row is scored
-------------------
Without a flush, the best hand depends only on the multiset of ranks, so the
sorted ranks index a table built once from every rank multiset (50,388 for
seven cards).  A row has a flush when five cards share a suit; only those
rows (about 3 % of random seven-card hands) are looked at again, through a
table of the 8,192 rank sets of one suit.  Seven cards cannot hold a flush
and a full house at once, so the row's key is the larger of the two.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import StrEnum
from functools import cache, wraps
from itertools import combinations
from typing import ParamSpec, TypeVar

import numpy as np
from numpy.typing import NDArray

from pipeline.poker import cards

BEST_OF = 5

_P = ParamSpec("_P")
_T = TypeVar("_T")
_BUILDING = threading.RLock()


def built_once(build: Callable[_P, _T]) -> Callable[_P, _T]:
    """:func:`functools.cache`, the build run by one thread at a time.

    Scoring threads that need a table at the same moment wait for the first
    one's build rather than each building it: a build takes tens of
    milliseconds and holds the GIL much of that time.
    """
    cached = cache(build)

    @wraps(build)
    def table(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        with _BUILDING:
            return cached(*args, **kwargs)  # type: ignore[arg-type]  # the tables take ints, all hashable

    return table
HAND_SIZES = (5, 6, 7)


class Category(StrEnum):
    """Hold'em categories, weakest first; ``list(Category).index`` is the code.

    The contest statement's "Royal Flush" is any straight flush.
    """

    HIGH_CARD = "High Card"
    PAIR = "Pair"
    TWO_PAIR = "Two Pair"
    THREE_OF_A_KIND = "Three of a Kind"
    STRAIGHT = "Straight"
    FLUSH = "Flush"
    FULL_HOUSE = "Full House"
    FOUR_OF_A_KIND = "Four of a Kind"
    STRAIGHT_FLUSH = "Straight Flush"


CATEGORIES = tuple(Category)
#: The hold'em category of each shape the ranks make (``cards.SHAPES``); a
#: flush, a matter of suits, is found apart.
CATEGORY_OF_SHAPE = np.array([CATEGORIES.index(c) for c in (
    Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.STRAIGHT,
    Category.FULL_HOUSE, Category.FOUR_OF_A_KIND)], dtype=np.int8)


@built_once
def five_card_tables() -> tuple[NDArray[np.int16], NDArray[np.int16], NDArray[np.int8]]:
    """Keys of five-card rank multisets without and with a flush, and categories."""
    hands = cards.all_multisets(BEST_OF)
    _, distinct, ordered = cards.five_card_groups(hands)
    shapes = cards.rank_shapes(cards.rank_counts(hands), straights=True)
    straight = shapes == cards.STRAIGHT
    wheel = (hands == np.array(cards.WHEEL)).all(axis=1)
    # A straight is told apart by its top card alone; the wheel's is the five.
    ordered = ordered.copy()
    ordered[straight] = 0
    ordered[straight, 0] = np.where(wheel[straight], 3, hands[straight, -1])
    plain = np.where(shapes >= 0, CATEGORY_OF_SHAPE[shapes], -1).astype(np.int64)
    suited = np.where(distinct == 5, np.where(straight, CATEGORIES.index(Category.STRAIGHT_FLUSH),
                                              CATEGORIES.index(Category.FLUSH)), -1).astype(np.int64)
    digits = cards.digits_value(ordered)
    scale = len(cards.RANKS) ** BEST_OF
    values = np.concatenate([plain * scale + digits, suited * scale + digits])
    possible = np.concatenate([plain, suited]) >= 0
    keys = np.zeros(len(values), dtype=np.int16)
    keys[possible] = np.unique(values[possible], return_inverse=True)[1] + 1
    category_of_key = np.full(keys.max() + 1, -1, dtype=np.int8)
    category_of_key[keys[possible]] = np.concatenate([plain, suited])[possible]
    return keys[:len(hands)], keys[len(hands):], category_of_key


@built_once
def plain_table(k: int) -> np.ndarray:
    """Key of the best five cards of every k-rank multiset, ignoring suits.

    Returns
    -------
    keys : ndarray of shape (cards.multiset_count(k),), dtype int16
        Indexed by ``cards.multiset_index``; 0 where a rank occurs more than
        four times.
    """
    five_plain = five_card_tables()[0]
    columns = list(cards.all_multisets(k).T)
    keys = np.zeros(len(columns[0]), dtype=np.int16)
    for subset in combinations(range(k), BEST_OF):
        # Any five of a sorted row are still sorted: index them directly.
        keys = np.maximum(keys, five_plain[cards.multiset_index([columns[i] for i in subset])])
    too_many = np.zeros(len(keys), dtype=bool)
    for i in range(k - 4):
        too_many |= columns[i] == columns[i + 4]
    keys[too_many] = 0
    keys.setflags(write=False)
    return keys


@built_once
def flush_table() -> np.ndarray:
    """Key of the best flush in every set of ranks of one suit.

    Returns
    -------
    keys : ndarray of shape (8192,), dtype int16
        Indexed by a 13-bit rank mask (bit r set when rank r is present);
        0 for fewer than five ranks.
    """
    five_suited = five_card_tables()[1]
    masks = np.arange(1 << len(cards.RANKS), dtype=np.int64)
    bits = (masks[:, None] >> np.arange(len(cards.RANKS))) & 1
    count = bits.sum(axis=1)
    best = masks.copy()
    # Without a straight the flush is the top five ranks: drop the lowest.
    for _ in range(len(cards.RANKS) - BEST_OF):
        best = np.where(np.bitwise_count(best) > BEST_OF, best & (best - 1), best)
    for window in cards.STRAIGHT_WINDOWS:  # weakest straight first, so the strongest wins
        best = np.where((masks & window) == window, window, best)
    chosen = (best[:, None] >> np.arange(len(cards.RANKS))) & 1
    ranks = np.argsort(-chosen, axis=1, kind="stable")[:, :BEST_OF]
    index = cards.multiset_index(list(np.sort(ranks, axis=1).T))
    keys = np.where(count >= BEST_OF, five_suited[index], 0).astype(np.int16)
    keys.setflags(write=False)
    return keys


_RANK_BIT = (1 << np.arange(len(cards.RANKS))).astype(np.uint16)


@built_once
def flush_suit_table() -> NDArray[np.int8]:
    """The suit held five or more times, from packed suit counts (see :func:`suit_counts`).

    Returns
    -------
    suits : ndarray of shape (65536,), dtype int8
        Indexed by the sum of a hand's :func:`suit_counts`: the suit with
        five or more cards, or -1.
    """
    packed = np.arange(1 << 16)
    counts = (packed[:, None] >> (4 * np.arange(4))) & 15
    suit = np.where((counts >= BEST_OF).any(axis=1), counts.argmax(axis=1), -1)
    table: NDArray[np.int8] = suit.astype(np.int8)
    return table


def hand_keys(hands: np.ndarray) -> np.ndarray:
    """Key of the best five-card hand in each row of cards.

    Parameters
    ----------
    hands : array-like of shape (n, k), k in {5, 6, 7}
        Card codes ``4 * rank + suit`` (see :mod:`pipeline.poker.cards`); the cards
        of a row must be distinct (readers check this).

    Returns
    -------
    keys : ndarray of shape (n,), dtype int16
        1 (7 5 4 3 2 high) ... 7462 (royal flush); higher wins, equal ties.

    Raises
    ------
    ValueError
        If the shape is wrong, a code is outside 0..51 or a row holds a rank
        five times.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> royal = [card_code(c) for c in ("As", "Ks", "Qs", "Js", "Ts", "2c", "2d")]
    >>> worst = [card_code(c) for c in ("7c", "5d", "4h", "3s", "2c")]
    >>> hand_keys([royal]).tolist(), hand_keys([worst]).tolist()
    ([7462], [1])
    """
    codes = cards.code_matrix(hands, widths=HAND_SIZES, top=51, what="card codes")
    if codes.size == 0:
        return np.zeros(len(codes), dtype=np.int16)
    # One transposition up front makes every later pass run down a column.
    columns = np.ascontiguousarray(codes.T)
    ranks = cards.sort_columns(list(columns >> 2))
    keys = plain_table(codes.shape[1])[cards.multiset_index(ranks)]
    if not keys.all():
        row = int(np.argmin(keys))
        raise ValueError(f"row {row}: a rank appears five times, so a card is dealt twice")
    raise_flushes(keys, list(columns), suit_counts(columns).sum(axis=0, dtype=np.uint16))
    return keys


def suit_counts(codes: np.ndarray) -> NDArray[np.uint16]:
    """Four 4-bit suit counters in one uint16 per card: ``1 << 4 * suit``."""
    counters: NDArray[np.uint16] = np.left_shift(np.uint16(1), (codes & 3).astype(np.uint16) << 2)
    return counters


def raise_flushes(keys: np.ndarray, columns: list[np.ndarray], suits: np.ndarray, *,
                  table: np.ndarray | None = None, rank_bits: np.ndarray | None = None) -> None:
    """Raise ``keys`` in place to the best flush of the rows that hold five cards of a suit.

    ``columns`` are the card codes of every row, one array per card, and
    ``suits`` the sum of their :func:`suit_counts`.  Only the few rows with
    a flush (about 3 % of seven-card hands) are looked at.  ``table`` (keys by
    a suit's set of rank bits) and ``rank_bits`` (the bit of each rank) are
    hold'em's unless another ranking gives its own (short-deck's).
    """
    flush_suit = flush_suit_table()[suits]
    rows = np.flatnonzero(flush_suit >= 0)
    if not rows.size:
        return
    bits = _RANK_BIT if rank_bits is None else rank_bits
    suit = flush_suit[rows]
    mask = np.zeros(rows.size, dtype=np.uint16)
    for column in columns:
        flushed = column[rows]
        mask |= np.where((flushed & 3) == suit, bits[flushed >> 2], 0).astype(np.uint16)
    keys[rows] = np.maximum(keys[rows], (flush_table() if table is None else table)[mask])


@built_once
def board_pair_table() -> np.ndarray:
    """Plain key of every five-rank board with every pair of hole ranks.

    Returns
    -------
    keys : ndarray of shape (6188 * 91,), dtype int16
        At ``multiset_index(board) * 91 + multiset_index(pair)``: the key
        of the best five of the seven ranks, ignoring suits; 0 where a
        rank occurs more than four times.
    """
    boards, pairs = cards.all_multisets(BEST_OF), cards.all_multisets(2)
    # As columns, not a (563108, 7) matrix for the sort to transpose: a third of the time, which
    # every run that scores a deal pays once.
    seven = ([np.repeat(column, len(pairs)) for column in boards.T]
             + [np.tile(column, len(boards)) for column in pairs.T])
    keys = plain_table(7)[cards.multiset_index(cards.sort_columns(seven))]
    keys.setflags(write=False)
    return keys


def deal_keys(board: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """Key of every seat's best five of seven in deals sharing a board.

    The same as :func:`hand_keys` on each seat's seven cards, but the board
    is sorted and indexed once per deal: a seat then costs one look-up in
    :func:`board_pair_table` by its two hole ranks, plus the flush check.

    Parameters
    ----------
    board : ndarray of shape (n, 5), integer
        Card codes of the community cards.
    holes : ndarray of shape (n, seats, 2), integer
        Card codes of each seat's hole cards; all cards of a deal distinct
        (readers check this).

    Returns
    -------
    keys : ndarray of shape (seats, n), dtype int16
        Seat-major: ``keys[s]`` holds seat s + 1's key in every deal.

    Raises
    ------
    ValueError
        If a shape is wrong (a board of other than five cards, holes of
        other than two, another number of deals) or a code is not an
        integer in 0..51.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> board = [[card_code(c) for c in ("As", "Ks", "Qs", "2d", "7c")]]
    >>> holes = [[[card_code("Js"), card_code("Ts")], [card_code("Ah"), card_code("Ad")]]]
    >>> deal_keys(board, holes).ravel().tolist() == [7462, hand_keys([board[0] + holes[0][1]])[0]]
    True
    """
    board = cards.code_matrix(board, widths=(BEST_OF,), top=51, what="board card codes")
    holes = np.asarray(holes)
    if holes.ndim != 3 or holes.shape[0] != len(board) or holes.shape[2] != 2:
        raise ValueError(f"hole card codes must have shape ({len(board)}, seats, 2), got {holes.shape}")
    holes = cards.checked_integers(holes, top=51, what="hole card codes").astype(np.uint8, copy=False)
    if not len(board):  # no deal, no table: a run's schema is found without building them
        return np.empty((holes.shape[1] if holes.ndim == 3 else 0, 0), dtype=np.int16)
    board_columns = list(np.ascontiguousarray(board.T))
    board_ranks = cards.sort_columns([column >> 2 for column in board_columns])
    board_index = cards.multiset_index(board_ranks) * np.int32(cards.multiset_count(2))
    board_suits = suit_counts(np.stack(board_columns)).sum(axis=0, dtype=np.uint16)
    table = board_pair_table()
    keys = np.empty((holes.shape[1], len(board)), dtype=np.int16)
    for seat in range(holes.shape[1]):
        first, second = np.ascontiguousarray(holes[:, seat, 0]), np.ascontiguousarray(holes[:, seat, 1])
        pair = cards.multiset_index(cards.sort_columns([first >> 2, second >> 2]))
        keys[seat] = table[board_index + pair]
        raise_flushes(keys[seat], board_columns + [first, second],
                       board_suits + suit_counts(first) + suit_counts(second))
    return keys


def key_categories(keys: np.ndarray) -> NDArray[np.int8]:
    """Category code (index into ``CATEGORIES``) of each key, -1 for key 0 (no hand: an empty seat).

    Raises ValueError for keys that are not integers in 0..7462.

    >>> [str(CATEGORIES[c]) for c in key_categories(np.array([1, 5854, 7462]))]
    ['High Card', 'Straight', 'Straight Flush']
    >>> key_categories(np.zeros((3, 0), dtype=np.int16)).shape  # no deal: no table is needed
    (3, 0)
    """
    keys = np.asarray(keys)
    if not keys.size:  # a run's schema scores no deal: it need not wait for a table being built
        return np.zeros(keys.shape, dtype=np.int8)
    table = five_card_tables()[2]
    categories: NDArray[np.int8] = table[cards.checked_integers(keys, top=len(table) - 1, what="keys")]
    return categories
