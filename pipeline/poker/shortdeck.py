"""Short-deck (6+) hold'em keys: the best five of five, six or seven cards, and of whole deals.

Layer: pure evaluation (:mod:`pipeline.poker`); imports only
:mod:`pipeline.poker.cards`, :mod:`pipeline.poker.holdem` (whose table
builder, suit counters and flush-suit table it reuses) and numpy.

This module owns the short-deck hand ranking: the key of every hand of five
to seven cards of the 36-card deck, its category, and the keys of every
seat of deals sharing a board.  Reading cards and deciding winners is a
game's business, not this module's.

The deck and its rules
----------------------
The deck is the 36 cards six to ace (:data:`DECK_CODES`); card codes are the
package's, ``4 * rank + suit`` with rank 4 the six, so a code below 16 is
not a short-deck card.  The ace plays high (A K Q J T, the best straight)
or low below the six (A 6 7 8 9, the worst), and a flush beats a full
house.  The order of the categories is pokerkit's short-deck ranking
(``ShortDeckHoldemLookup``), the one PHH ``NS`` hands follow::

    high card < pair < two pair < three of a kind < straight
              < full house < flush < four of a kind < straight flush

PokerStars' 6+ Hold'em ranks so too (a flush above a full house, A 6 7 8 9
a straight, "all other hand rankings remain the same"); other rooms (PokerKing,
Spartan Poker; GGPoker by some accounts) rank three of a kind above a straight.
Every function takes ``trips_beat_straight=True`` for that ranking, whose keys
live in a key space of their own: compare keys of one ranking only.

Keys
----
A key is one of the 1,404 classes of distinct short-deck five-card hands:
higher wins, equal ties.  Categories take consecutive key ranges, weakest
first.  The default ranking (:class:`Category`)::

    High Card          1 ..  120    Full House      1135 .. 1206
    Pair             121 ..  624    Flush           1207 .. 1326
    Two Pair         625 ..  876    Four of a Kind  1327 .. 1398
    Three of a Kind  877 .. 1128    Straight Flush  1399 .. 1404
    Straight        1129 .. 1134

and with ``trips_beat_straight=True`` (:class:`TripsCategory`) the same but
``Straight 877 .. 882`` and ``Three of a Kind 883 .. 1134``.

How a row is scored
-------------------
As for hold'em (:mod:`pipeline.poker.holdem`): without a flush the best hand
depends only on the multiset of ranks, so the sorted ranks index a table
built once from every rank multiset.  Ranks are counted from the six
(:data:`LOWEST_RANK`), which makes the short-deck multisets the first
``C(8 + k, k)`` of :func:`pipeline.poker.cards.multiset_index` (6,435 for
seven cards, against hold'em's 50,388): 13 KB, small enough for a first
level cache.  Rows with five cards of a suit (about 2 % of random seven-card
deals) are looked at again through a table of the 512 rank sets of one suit;
a row's key is the larger of the two.  Tables are built on first use, once per ranking (:func:`built_once`).
"""

from __future__ import annotations

from enum import StrEnum
from itertools import combinations
from math import comb

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pipeline.poker import cards, holdem
from pipeline.poker.holdem import built_once

BEST_OF = holdem.BEST_OF
HAND_SIZES = holdem.HAND_SIZES
#: The rank index of the six, the lowest short-deck rank; a short rank is ``rank - LOWEST_RANK``.
LOWEST_RANK = cards.RANKS.index("6")
#: Nine ranks, six to ace.
RANK_COUNT = len(cards.RANKS) - LOWEST_RANK
LOWEST_CODE = 4 * LOWEST_RANK
#: The 36 card codes of the short deck, 6c (16) to As (51), for dealing.
DECK_CODES = np.arange(LOWEST_CODE, cards.DECK_SIZE, dtype=np.uint8)
DECK_CODES.setflags(write=False)
#: The six runs of five short ranks as 9-bit masks (bit r for short rank r,
#: 0 = six .. 8 = ace), weakest first: A 6 7 8 9, then 6..T up to T..A.
STRAIGHT_WINDOWS = (((1 << (RANK_COUNT - 1)) | 0b1111,)
                    + tuple(0b11111 << low for low in range(RANK_COUNT - 4)))


class Category(StrEnum):
    """Short-deck categories of pokerkit's ranking, weakest first; ``list(Category).index`` is the code.

    Named as :class:`pipeline.poker.holdem.Category` names them, but a flush
    ranks above a full house here.
    """

    HIGH_CARD = holdem.Category.HIGH_CARD.value
    PAIR = holdem.Category.PAIR.value
    TWO_PAIR = holdem.Category.TWO_PAIR.value
    THREE_OF_A_KIND = holdem.Category.THREE_OF_A_KIND.value
    STRAIGHT = holdem.Category.STRAIGHT.value
    FULL_HOUSE = holdem.Category.FULL_HOUSE.value
    FLUSH = holdem.Category.FLUSH.value
    FOUR_OF_A_KIND = holdem.Category.FOUR_OF_A_KIND.value
    STRAIGHT_FLUSH = holdem.Category.STRAIGHT_FLUSH.value


class TripsCategory(StrEnum):
    """Categories of the ranking where three of a kind beats a straight, weakest first.

    Members compare equal, as strings, to the :class:`Category` members of
    the same name; only their order (the code) differs.
    """

    HIGH_CARD = holdem.Category.HIGH_CARD.value
    PAIR = holdem.Category.PAIR.value
    TWO_PAIR = holdem.Category.TWO_PAIR.value
    STRAIGHT = holdem.Category.STRAIGHT.value
    THREE_OF_A_KIND = holdem.Category.THREE_OF_A_KIND.value
    FULL_HOUSE = holdem.Category.FULL_HOUSE.value
    FLUSH = holdem.Category.FLUSH.value
    FOUR_OF_A_KIND = holdem.Category.FOUR_OF_A_KIND.value
    STRAIGHT_FLUSH = holdem.Category.STRAIGHT_FLUSH.value


CATEGORIES: tuple[Category, ...] = tuple(Category)
TRIPS_CATEGORIES: tuple[TripsCategory, ...] = tuple(TripsCategory)


def category_order(*, trips_beat_straight: bool = False) -> tuple[StrEnum, ...]:
    """The categories of a ranking, weakest first: what :func:`key_categories` codes index.

    >>> [str(c) for c in category_order()[3:5]]
    ['Three of a Kind', 'Straight']
    >>> [str(c) for c in category_order(trips_beat_straight=True)[3:5]]
    ['Straight', 'Three of a Kind']
    """
    return TRIPS_CATEGORIES if trips_beat_straight else CATEGORIES


def short_multiset_count(k: int) -> int:
    """Number of sorted sequences of k short-deck ranks, the size of a short multiset index.

    >>> short_multiset_count(2), short_multiset_count(5), short_multiset_count(7)
    (45, 1287, 6435)
    """
    return comb(RANK_COUNT + k - 1, k)


def short_multisets(k: int) -> NDArray[np.int8]:
    """Every sorted sequence of k short ranks (0 = six .. 8 = ace), row i having multiset index i.

    Returns
    -------
    ranks : ndarray of shape (short_multiset_count(k), k), dtype int8
        Read-only; includes impossible hands (a rank five times or more).

    >>> short_multisets(2)[:3].tolist(), int(short_multisets(7).max())
    ([[0, 0], [0, 1], [1, 1]], 8)
    """
    # cards.multiset_index is colexicographic: the sequences whose largest
    # value is below 9 come first, so the short multisets are a prefix.
    rows: NDArray[np.int8] = cards.all_multisets(k)[:short_multiset_count(k)]
    return rows


def _refuse_long_deck(codes: NDArray[np.uint8], what: str) -> None:
    """ValueError if a card code below the six (a deuce to a five) is among ``codes``.

    Such a code would read as a short rank past the tables.  The codes are
    already known to be cards (0..51); this is checked on the contiguous
    columns the scoring reads anyway, since one pass over a strided view of
    the caller's array costs a fifth of the scoring.
    """
    if codes.size and (low := int(codes.min())) < LOWEST_CODE:
        raise ValueError(f"{what} must be short-deck cards, six to ace (codes {LOWEST_CODE}.."
                         f"{cards.DECK_SIZE - 1}), found {cards.CARD_TEXT[low]}")


def _short_ranks(columns: NDArray[np.uint8]) -> list[NDArray[np.uint8]]:
    """Short ranks of card codes already checked, one array per card, sorted across the list."""
    return cards.sort_columns(list((columns >> 2) - np.uint8(LOWEST_RANK)))


def _five_card_categories(hands: NDArray[np.int8], trips_beat_straight: bool
                          ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Category codes of five-rank multisets without and with a flush (-1: no such hand), and tie-breaks."""
    _, distinct, ordered = cards.five_card_groups(hands)
    # rank_shapes knows hold'em's straights only (its wheel is A 2 3 4 5): ask it
    # for the groups and find the short-deck straights here.
    shapes = cards.rank_shapes(cards.rank_counts(hands), straights=False)
    masks = np.bitwise_or.reduce(np.left_shift(1, hands.astype(np.int64)), axis=1)
    runs = masks[:, None] == np.array(STRAIGHT_WINDOWS)
    straight = runs.any(axis=1)
    shapes[straight] = cards.STRAIGHT
    # A straight is told apart by its place among the runs alone.
    ordered = ordered.astype(np.int64)
    ordered[straight] = 0
    ordered[straight, 0] = runs[straight].argmax(axis=1)
    names = category_order(trips_beat_straight=trips_beat_straight)
    code = {str(name): index for index, name in enumerate(names)}
    of_shape = np.array([code[str(c)] for c in (
        Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND, Category.STRAIGHT,
        Category.FULL_HOUSE, Category.FOUR_OF_A_KIND)])
    plain = np.where(shapes >= 0, of_shape[shapes], -1)
    suited = np.where(distinct == BEST_OF,
                      np.where(straight, code[str(Category.STRAIGHT_FLUSH)], code[str(Category.FLUSH)]), -1)
    return plain, suited, cards.digits_value(ordered)


@built_once
def five_card_tables(trips_beat_straight: bool
                     ) -> tuple[NDArray[np.int16], NDArray[np.int16], NDArray[np.int8]]:
    """Keys of the five-rank short multisets without and with a flush, and the category of each key.

    Returns
    -------
    plain, suited : ndarrays of shape (1287,), dtype int16
        Indexed by the short multiset index; 0 where there is no such hand
        (a rank five times; a flush with a pair).
    category_of_key : ndarray of shape (1405,), dtype int8
        Category code of each key, -1 for key 0.
    """
    plain, suited, ties = _five_card_categories(short_multisets(BEST_OF), trips_beat_straight)
    categories = np.concatenate([plain, suited])
    values = categories * len(cards.RANKS) ** BEST_OF + np.concatenate([ties, ties])
    possible = categories >= 0
    keys = np.zeros(len(values), dtype=np.int16)
    keys[possible] = np.unique(values[possible], return_inverse=True)[1] + 1
    category_of_key = np.full(int(keys.max()) + 1, -1, dtype=np.int8)
    category_of_key[keys[possible]] = categories[possible]
    for table in (keys, category_of_key):
        table.setflags(write=False)
    return keys[:len(plain)], keys[len(plain):], category_of_key


@built_once
def plain_table(k: int, trips_beat_straight: bool) -> NDArray[np.int16]:
    """Key of the best five cards of every k-rank short multiset, ignoring suits.

    Returns
    -------
    keys : ndarray of shape (short_multiset_count(k),), dtype int16
        Indexed by the short multiset index; 0 where a rank occurs more
        than four times.
    """
    five_plain = five_card_tables(trips_beat_straight)[0]
    rows = short_multisets(k)
    columns = list(rows.T)
    keys = np.zeros(len(rows), dtype=np.int16)
    for subset in combinations(range(k), BEST_OF):
        # Any five of a sorted row are still sorted: they index the five-card table directly.
        keys = np.maximum(keys, five_plain[cards.multiset_index([columns[i] for i in subset])])
    # In a sorted row a rank held five times spans five neighbours.
    keys[(rows[:, BEST_OF - 1:] == rows[:, :k - BEST_OF + 1]).any(axis=1)] = 0
    keys.setflags(write=False)
    return keys


@built_once
def flush_table(trips_beat_straight: bool) -> NDArray[np.int16]:
    """Key of the best flush in every set of short ranks of one suit.

    Returns
    -------
    keys : ndarray of shape (512,), dtype int16
        Indexed by a 9-bit mask (bit r set when short rank r is held);
        0 for fewer than five ranks.
    """
    five_suited = five_card_tables(trips_beat_straight)[1]
    masks = [mask for mask in range(1 << RANK_COUNT) if mask.bit_count() >= BEST_OF]
    chosen = []
    for mask in masks:
        runs = [window for window in STRAIGHT_WINDOWS if mask & window == window]
        ranks = [r for r in range(RANK_COUNT) if (runs[-1] if runs else mask) >> r & 1]
        # The strongest run if any, else the five highest ranks.
        chosen.append(ranks[-BEST_OF:])
    keys = np.zeros(1 << RANK_COUNT, dtype=np.int16)
    keys[masks] = five_suited[cards.multiset_index(list(np.array(chosen).T))]
    keys.setflags(write=False)
    return keys


#: Rank -> the bit of its short rank in a 9-bit mask (none for a rank below the six).
_RANK_BIT = np.where(np.arange(len(cards.RANKS)) >= LOWEST_RANK,
                     1 << np.maximum(np.arange(len(cards.RANKS)) - LOWEST_RANK, 0), 0).astype(np.uint16)


def _raise_flushes(keys: NDArray[np.int16], columns: list[NDArray[np.uint8]], suits: NDArray[np.uint16],
                   trips_beat_straight: bool) -> None:
    """Raise ``keys`` in place to the best flush, as hold'em does, by the short-deck flush table."""
    holdem.raise_flushes(keys, columns, suits, table=flush_table(trips_beat_straight), rank_bits=_RANK_BIT)


def hand_keys(hands: ArrayLike, *, trips_beat_straight: bool = False) -> NDArray[np.int16]:
    """Key of the best five-card short-deck hand in each row of cards.

    Parameters
    ----------
    hands : array-like of shape (n, k), k in {5, 6, 7}, integer
        Card codes ``4 * rank + suit`` of the short deck (16..51, see
        :data:`DECK_CODES`); the cards of a row must be distinct (readers
        check this).
    trips_beat_straight : bool, keyword-only
        Rank three of a kind above a straight (keys of that ranking's own
        key space).

    Returns
    -------
    keys : ndarray of shape (n,), dtype int16
        1 (J 9 8 7 6, the worst high card) .. 1404 (A K Q J T of a suit);
        higher wins, equal ties.

    Raises
    ------
    ValueError
        If the shape is wrong, a code is outside 16..51 (not a card of the
        short deck) or a row holds a rank five times.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> def key(text, **ranking):
    ...     return int(hand_keys([[card_code(text[i:i + 2]) for i in range(0, len(text), 2)]], **ranking)[0])
    >>> key("Js9d8h7s6c"), key("AsKsQsJsTs"), key("As6d7h8s9c"), key("TsJdQhKsAc")
    (1, 1404, 1129, 1134)
    >>> key("6s7s8s9sJs") > key("AsAhAdKsKh")        # a flush beats a full house
    True
    >>> key("AsAhAdKsQh") < key("As6d7h8s9c"), key("AsAhAdKsQh", trips_beat_straight=True) > key(
    ...     "As6d7h8s9c", trips_beat_straight=True)
    (True, True)
    """
    codes = cards.code_matrix(hands, widths=HAND_SIZES, top=cards.DECK_SIZE - 1, what="card codes")
    if not codes.size:
        return np.zeros(len(codes), dtype=np.int16)
    # One transposition up front makes every later pass run down a column.
    columns = np.ascontiguousarray(codes.T)
    _refuse_long_deck(columns, "card codes")
    keys = plain_table(codes.shape[1], trips_beat_straight)[cards.multiset_index(_short_ranks(columns))]
    if not keys.all():
        row = int(np.argmin(keys))
        raise ValueError(f"row {row}: a rank appears five times, so a card is dealt twice")
    _raise_flushes(keys, list(columns), holdem.suit_counts(columns).sum(axis=0, dtype=np.uint16),
                   trips_beat_straight)
    return keys


@built_once
def board_pair_table(trips_beat_straight: bool) -> NDArray[np.int16]:
    """Plain key of every five-rank short board with every pair of short hole ranks.

    Returns
    -------
    keys : ndarray of shape (1287 * 45,), dtype int16
        At ``board_index * 45 + pair_index`` (short multiset indices): the
        key of the best five of the seven ranks, ignoring suits; 0 where a
        rank occurs more than four times.
    """
    boards, pairs = short_multisets(BEST_OF), short_multisets(2)
    seven = ([np.repeat(column, len(pairs)) for column in boards.T]
             + [np.tile(column, len(boards)) for column in pairs.T])
    keys = plain_table(7, trips_beat_straight)[cards.multiset_index(cards.sort_columns(seven))]
    keys.setflags(write=False)
    return keys


def deal_keys(board: ArrayLike, holes: ArrayLike, *, trips_beat_straight: bool = False) -> NDArray[np.int16]:
    """Key of every seat's best five of seven in short-deck deals sharing a board.

    The same as :func:`hand_keys` on each seat's seven cards, with the board
    sorted and indexed once per deal: a seat then costs one look-up in
    :func:`board_pair_table` by its two hole ranks, plus the flush check.

    Parameters
    ----------
    board : array-like of shape (n, 5), integer
        Short-deck card codes (16..51) of the community cards.
    holes : array-like of shape (n, seats, 2), integer
        Short-deck card codes of each seat's hole cards; all cards of a deal
        distinct (readers check this).
    trips_beat_straight : bool, keyword-only
        Rank three of a kind above a straight.

    Returns
    -------
    keys : ndarray of shape (seats, n), dtype int16
        Seat-major, as :func:`pipeline.poker.holdem.deal_keys`: ``keys[s]``
        holds seat s + 1's key in every deal.

    Raises
    ------
    ValueError
        If a shape is wrong (a board of other than five cards, holes of
        other than two, another number of deals) or a code is not a
        short-deck card.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> board = [[card_code(c) for c in ("As", "Ks", "Qs", "6d", "7c")]]
    >>> holes = [[[card_code("Js"), card_code("Ts")], [card_code("8h"), card_code("9d")]]]
    >>> deal_keys(board, holes).tolist()
    [[1404], [1129]]
    """
    board = cards.code_matrix(board, widths=(BEST_OF,), top=cards.DECK_SIZE - 1, what="board card codes")
    holes = np.asarray(holes)
    if holes.ndim != 3 or holes.shape[0] != len(board) or holes.shape[2] != 2:
        raise ValueError(f"hole card codes must have shape ({len(board)}, seats, 2), got {holes.shape}")
    holes = cards.checked_integers(holes, top=cards.DECK_SIZE - 1, what="hole card codes").astype(
        np.uint8, copy=False)
    if not len(board):  # no deal, no table to build
        return np.empty((holes.shape[1], 0), dtype=np.int16)
    board_columns = np.ascontiguousarray(board.T)
    _refuse_long_deck(board_columns, "board card codes")
    board_index = cards.multiset_index(_short_ranks(board_columns)) * np.int32(short_multiset_count(2))
    board_suits = holdem.suit_counts(board_columns).sum(axis=0, dtype=np.uint16)
    table = board_pair_table(trips_beat_straight)
    keys = np.empty((holes.shape[1], len(board)), dtype=np.int16)
    for seat in range(holes.shape[1]):
        pair = np.ascontiguousarray(holes[:, seat].T)
        _refuse_long_deck(pair, "hole card codes")
        keys[seat] = table[board_index + cards.multiset_index(_short_ranks(pair))]
        suits = board_suits + holdem.suit_counts(pair).sum(axis=0, dtype=np.uint16)
        _raise_flushes(keys[seat], [*board_columns, *pair], suits, trips_beat_straight)
    return keys


def key_categories(keys: ArrayLike, *, trips_beat_straight: bool = False) -> NDArray[np.int8]:
    """Category code of each key (an index into :func:`category_order`), -1 for key 0 (no hand).

    Raises ValueError for keys that are not integers in 0..1404.

    >>> [str(CATEGORIES[c]) for c in key_categories(np.array([1, 877, 1129, 1404]))]
    ['High Card', 'Three of a Kind', 'Straight', 'Straight Flush']
    >>> [str(TRIPS_CATEGORIES[c]) for c in key_categories(np.array([877, 883]), trips_beat_straight=True)]
    ['Straight', 'Three of a Kind']
    >>> key_categories(np.zeros((3, 0), dtype=np.int16)).shape  # no deal: no table is built
    (3, 0)
    """
    keys = np.asarray(keys)
    if not keys.size:
        return np.zeros(keys.shape, dtype=np.int8)
    table = five_card_tables(trips_beat_straight)[2]
    categories: NDArray[np.int8] = table[cards.checked_integers(keys, top=len(table) - 1, what="keys")]
    return categories
