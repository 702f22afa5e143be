"""Cards: the deck, symbols, integer codes and the array tools both games score with.

Layer: pure evaluation (:mod:`pipeline.poker`), its lowest module; imports
only the foundation modules (:mod:`pipeline.errors`, :mod:`pipeline.text`).

This module owns everything that is about a card rather than about a game:

* the deck (``DECK_SIZE``), the rank and suit symbols and their integer codes,
* lookup tables that turn raw text bytes into codes in one vectorized step
  (whole columns of card text are :mod:`pipeline.poker.notation`'s),
* a card as a bit of a 64-bit mask, and the "card dealt twice" check
  (:func:`all_distinct`),
* the sorting network and the multiset index that map a hand of ranks to a
  small integer, whatever the order its cards came in,
* the grouping of a five-card rank multiset (quads, full house, ...) that
  both games rank from.

Card encoding
-------------
A rank is an index 0..12 in ``RANKS`` (0 = '2', 12 = 'A'); a suit an index
0..3 in ``SUITS`` (c, d, h, s).  A card is one small integer::

    code = 4 * rank + suit

    bit   5 4 3 2   1 0
         +---------+---+
         |  rank   |suit|      0 = 2c, 1 = 2d, ..., 50 = Ah, 51 = As
         +---------+---+

so ``code >> 2`` is the rank and ``code & 3`` the suit.  Ten is written
``T`` on output and read as ``T`` or ``X`` (the contest's spelling).
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pipeline.errors import InputError
from pipeline.text import shown

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: What a message says to a ten written "10": the most common way a hand is miswritten.
TEN_HINT = "ten is written T or X, not 10"
DECK_SIZE = len(RANKS) * len(SUITS)
INVALID = 255
#: Rank index -> its symbol byte, and suit index -> its symbol byte (ten written T).
RANK_BYTES = np.frombuffer(RANKS.encode("ascii"), np.uint8)
SUIT_BYTES = np.frombuffer(SUITS.encode("ascii"), np.uint8)
#: Card code -> a bit of its own in a 64-bit mask; code ``DECK_SIZE`` (no
#: card: an empty seat, a board card not dealt yet) has none.
CARD_BIT = np.append(np.left_shift(np.uint64(1), np.arange(DECK_SIZE, dtype=np.uint64)), np.uint64(0))

#: Byte value -> rank index, INVALID for any byte that is not a rank symbol.
RANK_OF_BYTE = np.full(256, INVALID, dtype=np.uint8)
for _index, _symbol in enumerate(RANKS):
    RANK_OF_BYTE[ord(_symbol)] = _index
RANK_OF_BYTE[ord("X")] = RANKS.index("T")

#: Byte value -> suit index, INVALID for any byte that is not a suit symbol.
SUIT_OF_BYTE = np.full(256, INVALID, dtype=np.uint8)
for _index, _symbol in enumerate(SUITS):
    SUIT_OF_BYTE[ord(_symbol)] = _index

#: Two card bytes read as a little-endian uint16 (rank byte low) -> card code,
#: INVALID for anything that is not a card.
CODE_OF_TEXT = np.full(1 << 16, INVALID, dtype=np.uint8)
_rank_bytes = np.flatnonzero(RANK_OF_BYTE != INVALID)
_suit_bytes = np.flatnonzero(SUIT_OF_BYTE != INVALID)
CODE_OF_TEXT[_rank_bytes[:, None] | _suit_bytes[None, :] << 8] = (
    4 * RANK_OF_BYTE[_rank_bytes][:, None] + SUIT_OF_BYTE[_suit_bytes][None, :])

#: Card code -> its two-character text, ten written as ``T``.
CARD_TEXT = np.array([r + s for r in RANKS for s in SUITS])

# Sorting networks (Knuth, TAOCP vol. 3): a fixed list of compare-exchange
# steps sorts every row at once with np.minimum/np.maximum, far cheaper than
# np.sort along a short axis.  Tests check each one by the 0-1 principle.
SORTING_NETWORKS: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((0, 1),),
    3: ((0, 1), (1, 2), (0, 1)),
    4: ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)),
    5: ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)),
    6: ((1, 2), (4, 5), (0, 2), (3, 5), (0, 1), (3, 4), (2, 5), (0, 3),
        (1, 4), (2, 4), (1, 3), (2, 3)),
    7: ((1, 2), (3, 4), (5, 6), (0, 2), (3, 5), (4, 6), (0, 1), (4, 5),
        (2, 6), (0, 4), (1, 5), (0, 3), (2, 5), (1, 3), (2, 4), (2, 3)),
}


def rank_index(symbol: str) -> int:
    """Return the rank index of one rank symbol.

    >>> rank_index("2"), rank_index("T"), rank_index("X"), rank_index("A")
    (0, 8, 8, 12)
    """
    value = RANK_OF_BYTE[ord(symbol)] if len(symbol) == 1 and symbol.isascii() else INVALID
    if value == INVALID:
        raise InputError(f"unknown rank symbol {symbol!r}: expected one of {RANKS} or X")
    return int(value)


def card_code(text: str) -> int:
    """Return the integer code of a card written as rank and suit.

    >>> card_code("2c"), card_code("Xh"), card_code("Th"), card_code("As")
    (0, 34, 34, 51)
    """
    if len(text) != 2 or not text.isascii():
        raise InputError(f"unknown card {shown(text)}: a card is a rank and a suit, like 'Ah' or 'Xd'")
    rank, suit = RANK_OF_BYTE[ord(text[0])], SUIT_OF_BYTE[ord(text[1])]
    if rank == INVALID or suit == INVALID:
        raise InputError(f"unknown card {text!r}: ranks are {RANKS} (or X), suits are {SUITS}")
    return int(4 * rank + suit)


def code_matrix(values: ArrayLike, *, widths: tuple[int, ...], top: int, what: str) -> np.ndarray:
    """Check a matrix of small codes (ranks or cards) and return it as uint8.

    Parameters
    ----------
    values : array-like of shape (n, k)
        Integers in 0..top; k must be one of ``widths``.
    widths : tuple of int
    top : int
    what : str
        Names the values in messages, e.g. ``"ranks"``.

    Raises
    ------
    ValueError
        On another shape, a non-integer dtype or a value outside 0..top.

    >>> code_matrix([[0, 12]], widths=(2,), top=12, what="ranks").dtype
    dtype('uint8')
    """
    values = np.asarray(values)
    if values.ndim != 2 or values.shape[1] not in widths:
        shapes = " or ".join(f"(n, {width})" for width in widths)
        raise ValueError(f"{what} must have shape {shapes}, got {values.shape}")
    return checked_integers(values, top=top, what=what).astype(np.uint8, copy=False)


def checked_integers(values: ArrayLike, *, top: int, what: str) -> np.ndarray:
    """An array of any shape whose values are integers in 0..top, as given; ValueError otherwise.

    A cast would wrap a code of 300 to 44, and an index past a table fails
    far from the caller: the values are checked where they come in.

    >>> checked_integers([[3, 0]], top=3, what="codes").tolist()
    [[3, 0]]
    >>> checked_integers([4], top=3, what="codes")
    Traceback (most recent call last):
    ...
    ValueError: codes must lie in 0..3, found 4
    """
    values = np.asarray(values)
    if values.size == 0:
        return values.astype(np.int64) if not np.issubdtype(values.dtype, np.integer) else values
    if not np.issubdtype(values.dtype, np.integer):
        raise ValueError(f"{what} must be integers, got dtype {values.dtype}")
    low, high = values.min(), values.max()
    if low < 0 or high > top:
        raise ValueError(f"{what} must lie in 0..{top}, found {low if low < 0 else high}")
    return values


def sorted_columns(values: np.ndarray) -> list[np.ndarray]:
    """Sort each row of a small-integer matrix, returning the sorted columns.

    Parameters
    ----------
    values : ndarray of shape (n, k)
        Any integer dtype; k must have a network in ``SORTING_NETWORKS``.

    Returns
    -------
    columns : list of k ndarrays of shape (n,)
        ``columns[i][row]`` is the i-th smallest value of ``values[row]``.
    """
    # Contiguous columns keep every compare-exchange a streaming SIMD pass.
    return sort_columns(list(np.ascontiguousarray(values.T)))


def sort_columns(columns: list[np.ndarray]) -> list[np.ndarray]:
    """Sort across a list of k equal-length columns, row by row.

    Parameters
    ----------
    columns : list of k ndarrays of shape (n,)

    Returns
    -------
    columns : list of k ndarrays of shape (n,)
        New list; ``columns[i][row]`` is the i-th smallest of that row.
    """
    try:
        network = SORTING_NETWORKS[len(columns)]
    except KeyError:
        raise ValueError(f"cannot sort rows of {len(columns)} values: supported widths are "
                         f"{sorted(SORTING_NETWORKS)}") from None
    columns = list(columns)
    for i, j in network:
        low = np.minimum(columns[i], columns[j])
        columns[j] = np.maximum(columns[i], columns[j])
        columns[i] = low
    return columns


@cache
def multiset_weights(k: int) -> np.ndarray:
    """Weights of the multiset index: ``index = sum_i weights[i, ranks[i]]`` over sorted ranks.

    Returns
    -------
    weights : ndarray of shape (k, 13), dtype int32
    """
    # Combinatorial number system: ascending a_0 <= ... <= a_{k-1} becomes
    # the strictly increasing a_i + i, whose index is sum C(a_i + i, i + 1).
    return np.array([[comb(rank + i, i + 1) for rank in range(len(RANKS))]
                     for i in range(k)], dtype=np.int32)


# Columns are folded into the index up to four at a time: four ranks make a
# base-13 number below 13**4 that indexes a small table of partial sums, so
# a seven-card index costs two table look-ups instead of seven.
_FOLD = 4


@cache
def _partial_sums(k: int, start: int, width: int) -> NDArray[np.int32]:
    weights = multiset_weights(k)[start:start + width]
    grid = np.indices((len(RANKS),) * width).reshape(width, -1)
    sums: NDArray[np.int32] = weights[np.arange(width)[:, None], grid].sum(axis=0).astype(np.int32)
    return sums


def multiset_count(k: int) -> int:
    """Number of sorted sequences of k ranks, the size of a multiset index.

    >>> multiset_count(5), multiset_count(7)
    (6188, 50388)
    """
    return comb(len(RANKS) + k - 1, k)


def multiset_index(columns: list[np.ndarray]) -> NDArray[np.int32]:
    """Map sorted rank columns to a dense index of the rank multiset.

    Parameters
    ----------
    columns : list of k ndarrays of shape (n,)
        Ranks 0..12 sorted ascending across the list, as from
        :func:`sorted_columns`.

    Returns
    -------
    index : ndarray of shape (n,), dtype int32
        In ``0 .. multiset_count(k) - 1``; equal multisets get equal indices.
    """
    k = len(columns)
    parts = []
    for start in range(0, k, _FOLD):
        group = columns[start:start + _FOLD]
        digits = group[0].astype(np.intp)
        for column in group[1:]:
            digits *= len(RANKS)
            digits += column
        parts.append(_partial_sums(k, start, len(group))[digits])
    index = parts[0]
    for part in parts[1:]:
        index = index + part
    return index


@cache
def all_multisets(k: int) -> np.ndarray:
    """Every sorted sequence of k ranks, row i having multiset index i.

    Returns
    -------
    ranks : ndarray of shape (multiset_count(k), k), dtype int8
        Includes impossible hands (a rank five times or more); callers mark
        those.
    """
    rows = np.zeros((1, 0), dtype=np.int8)
    for _ in range(k):
        # Extend every sequence by each rank not below its last one.
        last = rows[:, -1] if rows.shape[1] else np.zeros(len(rows), dtype=np.int8)
        grown = [np.column_stack([rows[last <= r], np.full((last <= r).sum(), r, np.int8)])
                 for r in range(len(RANKS))]
        rows = np.concatenate(grown)
    order = np.argsort(multiset_index(list(rows.T)), kind="stable")
    rows = rows[order]
    rows.setflags(write=False)
    return rows


def five_card_groups(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Describe five-card rank multisets by their groups of equal ranks.

    Parameters
    ----------
    ranks : ndarray of shape (n, 5)
        Rank indices, any order.

    Returns
    -------
    largest : ndarray of shape (n,), dtype int8
        Size of the largest group: 4 for quads, 3 for trips or a full house.
    distinct : ndarray of shape (n,), dtype int8
        Number of distinct ranks: 2 for a full house or quads, 5 for no pair.
    ordered : ndarray of shape (n, 5), dtype int8
        The ranks ordered by group size, then rank, both descending; compared
        left to right this breaks every tie between hands of the same shape,
        as the rules do (the triple before the pair, the higher pair first,
        then the kickers high to low).
    """
    ranks = np.asarray(ranks, dtype=np.int8)
    group_size = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2).astype(np.int8)
    sort_key = -(group_size.astype(np.int16) * 16 + ranks)
    ordered = np.take_along_axis(ranks, np.argsort(sort_key, axis=1, kind="stable"), axis=1)
    largest = group_size.max(axis=1)
    distinct = (np.diff(np.sort(ranks, axis=1), axis=1) != 0).sum(axis=1).astype(np.int8) + 1
    return largest, distinct, ordered


#: A 2 3 4 5: the ace plays low, the five is the top card.
WHEEL = (0, 1, 2, 3, 12)
#: The ten runs of five ranks as 13-bit masks (bit r for rank r), weakest
#: first: the wheel, then 2..6 up to T..A.
STRAIGHT_WINDOWS = (sum(1 << r for r in WHEEL),) + tuple(0b11111 << low for low in range(len(RANKS) - 4))
RANK_BITS = (1 << np.arange(len(RANKS))).astype(np.int64)
#: What the ranks of a hand make, suits aside, weakest first: the one
#: classification both games name their categories from (a flush is a
#: matter of suits, so hold'em adds it; Larvis has no straights).
SHAPES = ("no pair", "pair", "two pairs", "three of a kind", "straight", "full house", "four of a kind")
NO_PAIR, PAIR, TWO_PAIRS, THREE, STRAIGHT, FULL_HOUSE, FOUR = range(len(SHAPES))


def rank_counts(ranks: ArrayLike) -> NDArray[np.int64]:
    """Count how often each rank occurs in each row.

    Parameters
    ----------
    ranks : array_like of shape (n, k)
        Rank indices 0..12, any integer dtype, any order within a row.

    Returns
    -------
    counts : ndarray of shape (n, 13), dtype int64
        ``counts[i, r]`` is the number of cards of rank r in row i.

    Examples
    --------
    >>> rank_counts(np.array([[0, 0, 12, 5, 0]])).tolist()
    [[3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]]
    """
    values = np.asarray(ranks)
    counts: NDArray[np.int64] = (values[:, :, None] == np.arange(len(RANKS))).sum(axis=1, dtype=np.int64)
    return counts


def has_straight(masks: ArrayLike) -> NDArray[np.bool_]:
    """Whether each 13-bit rank mask holds five consecutive ranks.

    Parameters
    ----------
    masks : array_like of shape (n,)
        Integer masks, bit r set when rank r (0 = '2' ... 12 = 'A') is held.

    Returns
    -------
    straight : ndarray of shape (n,), dtype bool

    Examples
    --------
    >>> wheel = 0b1000000001111          # A 2 3 4 5: the ace plays low
    >>> broadway = 0b1111100000000       # T J Q K A
    >>> around = 0b0000000000111 | 1 << 11 | 1 << 12   # K A 2 3 4 does not wrap
    >>> has_straight(np.array([wheel, broadway, around])).tolist()
    [True, True, False]
    """
    values = np.asarray(masks, dtype=np.int64)
    windows = np.array(STRAIGHT_WINDOWS, dtype=np.int64)
    straight: NDArray[np.bool_] = ((values[:, None] & windows) == windows).any(axis=1)
    return straight


def rank_shapes(counts: ArrayLike, *, straights: bool) -> NDArray[np.int8]:
    """The best shape (an index into :data:`SHAPES`) that five of each row's ranks make.

    Parameters
    ----------
    counts : array_like of shape (n, 13)
        Rank counts of hands of five or more cards, as from :func:`rank_counts`.
    straights : bool
        Whether five consecutive ranks make a straight.

    Returns
    -------
    shapes : ndarray of shape (n,), dtype int8
        -1 where a rank occurs more than four times (no such hand).

    Examples
    --------
    >>> def shape(ranks, straights=True):
    ...     return SHAPES[rank_shapes(rank_counts(np.array([ranks])), straights=straights)[0]]
    >>> shape([0, 0, 0, 1, 1, 1, 5])      # two triples among seven: a full house
    'full house'
    >>> shape([0, 0, 1, 1, 2, 2, 5])      # three pairs: the best two count
    'two pairs'
    >>> shape([12, 0, 1, 2, 3]), shape([12, 0, 1, 2, 3], straights=False)
    ('straight', 'no pair')
    """
    values = np.asarray(counts, dtype=np.int64)
    ordered = np.sort(values, axis=1)
    largest, second = ordered[:, -1], ordered[:, -2]
    if straights:
        straight = has_straight((values > 0).astype(np.int64) @ RANK_BITS)
    else:
        straight = np.zeros(len(values), dtype=bool)
    # Strongest first: np.select takes the first condition that holds, and a
    # hand that is, say, both trips and a straight is a straight.
    conditions = [largest > 4, largest == 4, (largest >= 3) & (second >= 2), straight,
                  largest == 3, (largest == 2) & (second == 2), largest == 2]
    shapes: NDArray[np.int8] = np.select(conditions, [-1, FOUR, FULL_HOUSE, STRAIGHT, THREE, TWO_PAIRS, PAIR],
                                         default=NO_PAIR).astype(np.int8)
    return shapes


def digits_value(ordered: np.ndarray) -> np.ndarray:
    """Read rows of ranks as base-13 numbers, most significant first.

    >>> int(digits_value(np.array([[1, 0]]))[0])
    13
    """
    value = np.zeros(len(ordered), dtype=np.int64)
    for column in np.asarray(ordered, dtype=np.int64).T:
        value = value * len(RANKS) + column
    return value


def all_distinct(columns: list[np.ndarray]) -> NDArray[np.bool_]:
    """True for each row whose cards are all different.

    Parameters
    ----------
    columns : list of ndarrays of shape (n,), integer
        The card codes of every row, one array per card, in 0..DECK_SIZE;
        ``DECK_SIZE`` marks a place without a card (an empty seat, a board
        card not dealt yet).

    Returns
    -------
    distinct : ndarray of shape (n,), dtype bool

    Examples
    --------
    >>> all_distinct([np.array([0, 5, 0]), np.array([1, 5, DECK_SIZE]), np.array([DECK_SIZE] * 3)]).tolist()
    [True, False, True]
    """
    # Every card of a row is a distinct bit of one 64-bit mask, so a card
    # dealt twice leaves fewer bits than cards.
    n = len(columns[0]) if columns else 0
    seen = np.zeros(n, dtype=np.uint64)
    dealt = np.zeros(n, dtype=np.uint8)
    for column in columns:
        seen |= CARD_BIT[column]
        dealt += column < DECK_SIZE
    distinct: NDArray[np.bool_] = np.bitwise_count(seen) == dealt
    return distinct
