"""Omaha keys: the best two hole cards with three board cards, high and eight-or-better low.

Layer: pure evaluation (:mod:`pipeline.poker`); imports only
:mod:`pipeline.poker.cards` and :mod:`pipeline.poker.holdem` (and numpy).

This module owns the Omaha hand ranking: the high key and the
eight-or-better low key of every hand of four, five or six hole cards
(PLO, PLO5, PLO6) on a board of three, four or five cards, the keys of
every seat of deals sharing a board, and a best five cards of each.
Reading Omaha hands from text and splitting pots belong to a game (:mod:`pipeline.games`).

Rules
-----
A hand is exactly two of the seat's hole cards and exactly three of the
board's cards; an unfinished board is scored on the cards it shows, still
two and three.  The high hand is ranked as in hold'em.  The low hand is
five distinct ranks of eight or lower, the ace low, straights and flushes
ignored; of two lows the one whose highest rank is lower wins, then the
next rank down, and so on (8 6 4 3 2 beats 8 7 3 2 A; 5 4 3 2 A, the wheel,
is the best).

Keys
----
High keys are hold'em's (:func:`pipeline.poker.holdem.hand_keys` of the
best five cards): 1 .. 7462, higher wins, equal keys tie, and
:func:`~pipeline.poker.holdem.key_categories` and the package's
descriptions apply unchanged.  Low keys are 0 for no low, else 1 (8 7 6 5 4)
.. ``LOW_KEYS`` = 56 (the wheel): higher is the better low, so the winners
of both halves of a pot are the maxima.

How a row is scored
-------------------
Without a flush the best hand depends only on ranks, and a hand's best is
the best of its hole pairs.  So the board's ranks, sorted, give one index
(its rank multiset: 455, 1,820 or 6,188 of them for three, four or five
cards), a pair of hole ranks another (``13 * r1 + r2``: no sorting, each
pair is in the table in both orders), and :func:`plain_pair_table` holds at
``board * 169 + pair`` the best key of that pair with any three of the
board's ranks: 6,188 * 169 int16 for a five-card board, 2 MB, reduced from
:func:`pair_triple_table` (every pair with every three ranks) over the ten
triples of each board.  A board's 169 pairs are adjacent, so a hand's
look-ups fall in a few cache lines; a hand costs one look-up per hole pair
(6, 10 or 15) and a running maximum, the board's part once per deal.

A flush needs three board cards of one suit and two hole cards of it.  A
board holds at most one such suit; only rows whose hand holds two of its
cards (about 7 %, 10 % and 14 % of random PLO, PLO5 and PLO6 deals) are
scored again, through :func:`flush_pair_table`: the best flush of each set
of three to five suited board ranks (2,288 sets) with each pair of suited
hole ranks, where a hole card of another suit is rank 13 and scores 0.
The row's key is the larger of the two: a flush's cards taken rank-only
never score above the flush, so the maximum is right.

The low needs neither order nor suit: only the set of low ranks the board
shows (8 bits, the ace first) and the set the hole pair adds, so
:func:`low_pair_table` is 256 * 256 one-byte keys indexed by the two sets;
a pair of equal or high ranks, whose set has fewer than two bits, scores 0.
Of two lows the better is the one whose set, read as a number with the
eight as its top bit, is smaller, so the keys count down that order.

The tables are built once per process, on first use, each by a thread at
a time (:func:`pipeline.poker.holdem.built_once`): about 50 ms for all of
them, hold'em's five-card tables included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, islice
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pipeline.poker import cards, holdem

HOLE_SIZES = (4, 5, 6)
BOARD_SIZES = (3, 4, 5)
#: Hole cards and board cards of every Omaha hand.
HOLE_USED, BOARD_USED = 2, 3
#: Number of eight-or-better lows, C(8, 5): low keys run 1 .. LOW_KEYS.
LOW_KEYS = 56

_RANKS = len(cards.RANKS)
#: Pairs of hole ranks in both orders, ``13 * r1 + r2``: a row of the plain tables.
_PAIRS = _RANKS * _RANKS
#: Suited hole ranks take a fourteenth value, 13, for a card of another suit.
_OFF_SUIT = _RANKS
_SUITED_PAIRS = (_RANKS + 1) ** 2
_LOW_RANKS = 8
_TOP_CODE = cards.DECK_SIZE - 1


class _HighBoard(NamedTuple):
    """The board's part of a deal's high keys, computed once for all its seats."""

    size: int
    plain_rows: NDArray[np.int32]  # multiset index * 169: the board's row of the plain table
    flush_rows: NDArray[np.intp]   # deals whose board holds three or more cards of one suit
    flush_suit: NDArray[np.uint8]  # that suit, per flush row
    flush_base: NDArray[np.int32]  # the suited board ranks' row of the flush table * 196


#: A row's keys from the hole columns of a pair, and the keys of exactly five cards: the two
#: scores a best five is found with.
_PairKeys = Callable[[list[np.ndarray]], np.ndarray]
_FiveKeys = Callable[[np.ndarray], np.ndarray]


@holdem.built_once
def pair_triple_table() -> NDArray[np.int16]:
    """Plain key of every pair of hole ranks with every three board ranks.

    Returns
    -------
    keys : ndarray of shape (455 * 169,), dtype int16
        At ``multiset_index(triple) * 169 + 13 * r1 + r2``: the key of the
        five ranks, suits ignored; 0 for a rank five times.
    """
    triples = cards.all_multisets(BOARD_USED)
    pairs = np.indices((_RANKS, _RANKS), dtype=np.int8).reshape(2, -1)
    five = ([np.repeat(column, _PAIRS) for column in triples.T]
            + [np.tile(column, len(triples)) for column in pairs])
    keys: NDArray[np.int16] = holdem.five_card_tables()[0][cards.multiset_index(cards.sort_columns(five))]
    keys.setflags(write=False)
    return keys


@holdem.built_once
def plain_pair_table(board_size: int) -> NDArray[np.int16]:
    """Best plain key of every pair of hole ranks with three of a board's ranks.

    Parameters
    ----------
    board_size : int
        3, 4 or 5.

    Returns
    -------
    keys : ndarray of shape (cards.multiset_count(board_size) * 169,), dtype int16
        At ``multiset_index(board) * 169 + 13 * r1 + r2``: the best key,
        suits ignored, of the two hole ranks with any three of the board's.
    """
    if board_size not in BOARD_SIZES:
        raise ValueError(f"boards have {BOARD_SIZES} cards, not {board_size}")
    if board_size == BOARD_USED:  # one triple: the board is its own
        return pair_triple_table()
    triple_keys = pair_triple_table().reshape(-1, _PAIRS)
    columns = list(cards.all_multisets(board_size).T)
    keys = np.zeros((len(columns[0]), _PAIRS), dtype=np.int16)
    for subset in combinations(range(board_size), BOARD_USED):
        # Three ranks of a sorted board are still sorted: index them directly.
        np.maximum(keys, triple_keys[cards.multiset_index([columns[i] for i in subset])], out=keys)
    flat = keys.ravel()
    flat.setflags(write=False)
    return flat


def _set_bits(masks: NDArray[np.int64], top: int) -> NDArray[np.int64]:
    """The bits of each mask, lowest first, as single-bit masks; 0 past its last bit: shape (top, n)."""
    bits = np.zeros((top, len(masks)), dtype=np.int64)
    rest = masks.copy()
    for place in range(top):
        bits[place] = rest & -rest
        rest &= rest - 1
    return bits


@holdem.built_once
def flush_pair_table() -> tuple[NDArray[np.int16], NDArray[np.intp]]:
    """Best flush of every set of suited board ranks with every pair of suited hole ranks.

    Returns
    -------
    keys : ndarray of shape (2288 * 196,), dtype int16
        At ``row * 196 + 14 * r1 + r2``: the best flush (or straight flush)
        of the hole ranks r1, r2 with three of the board's suited ranks; a
        rank of 13 stands for a hole card of another suit, and a pair with
        it (or a rank the board holds in the suit) scores 0.
    rows : ndarray of shape (8192,), dtype intp
        The row of each 13-bit set of suited board ranks with three to five
        ranks; -1 for the others, which hold no flush.
    """
    masks = np.arange(1 << _RANKS, dtype=np.int64)
    boards = masks[(np.bitwise_count(masks) >= BOARD_USED) & (np.bitwise_count(masks) <= max(BOARD_SIZES))]
    rows = np.full(len(masks), -1, dtype=np.intp)
    rows[boards] = np.arange(len(boards))
    hole_bits = np.append(cards.RANK_BITS, 0)  # rank 13, a card of another suit, adds no bit
    pairs = (hole_bits[:, None] | hole_bits[None, :]).ravel()
    bits = _set_bits(boards, max(BOARD_SIZES))
    flushes = holdem.flush_table()
    keys = np.zeros((len(boards), _SUITED_PAIRS), dtype=np.int16)
    for subset in combinations(range(max(BOARD_SIZES)), BOARD_USED):
        triple = bits[list(subset)].sum(axis=0)
        whole = np.bitwise_count(triple) == BOARD_USED  # a board of fewer ranks has no such triple
        # Five bits, or fewer when a hole rank repeats one: flush_table gives 0 below five.
        np.maximum(keys, np.where(whole[:, None], flushes[triple[:, None] | pairs[None, :]], 0), out=keys)
    flat = keys.ravel()
    flat.setflags(write=False)
    rows.setflags(write=False)
    return flat, rows


@holdem.built_once
def three_suit_table() -> NDArray[np.int8]:
    """The suit a board holds three or more times, from its packed suit counts.

    Returns
    -------
    suits : ndarray of shape (65536,), dtype int8
        Indexed by the sum of the board's :func:`pipeline.poker.holdem.suit_counts`:
        the suit with three or more cards (a board of five has at most one), or -1.
    """
    counts = (np.arange(1 << 16)[:, None] >> (4 * np.arange(4))) & 15
    suit = np.where((counts >= BOARD_USED).any(axis=1), counts.argmax(axis=1), -1)
    table: NDArray[np.int8] = suit.astype(np.int8)
    table.setflags(write=False)
    return table


#: Card code -> the bit of its low rank (bit 0 the ace, bit 7 the eight), 0 for a nine or higher
#: and for ``cards.DECK_SIZE`` (no card).
LOW_BITS = np.array([0 if rank > 6 and rank != 12 else 1 << ((rank + 1) % _RANKS)
                     for rank in range(_RANKS) for _ in cards.SUITS] + [0], dtype=np.uint8)
#: Card code -> its suit's 4-bit counter (:func:`pipeline.poker.holdem.suit_counts`).
_SUIT_COUNTER = holdem.suit_counts(np.arange(cards.DECK_SIZE))
#: ``4 * code + suit`` -> the card's rank bit if it is of that suit, else 0.
_SUITED_BIT = np.array([1 << (code >> 2) if code & 3 == suit else 0
                        for code in range(cards.DECK_SIZE) for suit in range(len(cards.SUITS))],
                       dtype=np.uint16)
for _table in (LOW_BITS, _SUIT_COUNTER, _SUITED_BIT):
    _table.setflags(write=False)


def _low_key_of_set() -> NDArray[np.int8]:
    # Two sets of five low ranks compare as their masks do, bit 7 (the eight) the most
    # significant: the lower mask is the better low, so the key counts down from 56.
    masks = np.arange(1 << _LOW_RANKS)
    lows = np.flatnonzero(np.bitwise_count(masks) == holdem.BEST_OF)
    keys = np.zeros(len(masks), dtype=np.int8)
    keys[lows] = LOW_KEYS - np.arange(len(lows))
    return keys


@holdem.built_once
def low_pair_table() -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """Best low of every set of board low ranks with every set of two hole low ranks.

    Returns
    -------
    keys : ndarray of shape (65536,), dtype int8
        At ``board_set * 256 + pair_set``, sets of low ranks as 8-bit masks
        (bit 0 the ace .. bit 7 the eight, see ``LOW_BITS``): the best low
        of the pair's two ranks with three of the board's others, 1 .. 56;
        0 where the pair's set has fewer than two ranks or the board has
        fewer than three others.
    of_set : ndarray of shape (256,), dtype int8
        The low key of each set of exactly five low ranks, 0 for the others.
    """
    of_set = _low_key_of_set()
    index = np.arange(1 << (2 * _LOW_RANKS), dtype=np.int64)
    board, pair = index >> _LOW_RANKS, index & 0xFF
    # The three lowest ranks the pair leaves on the board make its best low.
    three = _set_bits(board & ~pair, BOARD_USED).sum(axis=0)
    whole = (np.bitwise_count(pair) == HOLE_USED) & (np.bitwise_count(three) == BOARD_USED)
    keys = np.where(whole, of_set[pair | three], 0).astype(np.int8)
    keys.setflags(write=False)
    of_set.setflags(write=False)
    return keys, of_set


def _columns(values: ArrayLike, *, shape: str, rows: int | None, widths: tuple[int, ...],
             what: str) -> NDArray[np.uint8]:
    """Card codes of shape (n, ..., k), checked, as uint8 columns: the first axis moved last.

    ``shape`` names the axes for messages, ``"(n, seats, k)"``; ``rows``, when given, is the n
    the array must have.  Transposed before the range check: the check then reads contiguous
    memory, and every later pass runs down a column.
    """
    values = np.asarray(values)
    if (values.ndim != shape.count(",") + 1 or values.shape[-1] not in widths
            or rows not in (None, values.shape[0])):
        named = shape if rows is None else shape.replace("(n,", f"({rows},")
        raise ValueError(f"{what} must have shape {named}, {shape[-2]} in {widths}, got {values.shape}")
    moved = np.ascontiguousarray(np.moveaxis(values, 0, -1))
    columns: NDArray[np.uint8] = cards.checked_integers(moved, top=_TOP_CODE, what=what).astype(
        np.uint8, copy=False)
    return columns


def _deal_columns(board: ArrayLike, holes: ArrayLike,
                  *, seats: bool) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Board columns (b, n) and hole columns (seats, k, n) of deals, or of hands (one seat), checked."""
    board_columns = _columns(board, shape="(n, b)", rows=None, widths=BOARD_SIZES, what="board card codes")
    hole_columns = _columns(holes, shape="(n, seats, k)" if seats else "(n, k)", rows=board_columns.shape[1],
                            widths=HOLE_SIZES, what="hole card codes")
    # (seats, k, n) once moved: seat-major, as the keys are returned.
    return board_columns, hole_columns if seats else hole_columns[None]


def _high_board(columns: NDArray[np.uint8]) -> _HighBoard:
    """The board's part of its seats' high keys: its plain row, and its flush suit and suited ranks."""
    ranks = cards.sort_columns([column >> 2 for column in columns])
    plain_rows = cards.multiset_index(ranks) * np.int32(_PAIRS)
    counts = np.take(_SUIT_COUNTER, columns[0])
    for column in columns[1:]:
        counts += np.take(_SUIT_COUNTER, column)
    suit = np.take(three_suit_table(), counts)
    flush_rows = np.flatnonzero(suit >= 0)
    flush_suit = suit[flush_rows].view(np.uint8)
    mask = np.zeros(flush_rows.size, dtype=np.uint16)
    for column in columns:
        mask |= np.take(_SUITED_BIT, (column[flush_rows] << 2) | flush_suit)
    flush_base = np.take(flush_pair_table()[1], mask).astype(np.int32) * np.int32(_SUITED_PAIRS)
    return _HighBoard(len(columns), plain_rows, flush_rows, flush_suit, flush_base)


def _low_board(columns: NDArray[np.uint8]) -> NDArray[np.uint16]:
    """The board's part of its seats' low keys: its set of low ranks, times 256."""
    low = np.take(LOW_BITS, columns[0])
    for column in columns[1:]:
        low |= np.take(LOW_BITS, column)
    base: NDArray[np.uint16] = low.astype(np.uint16) << _LOW_RANKS
    return base


def _high_keys(board: _HighBoard, holes: Sequence[np.ndarray]) -> NDArray[np.int16]:
    """High key of each row from its board's part and any two or more hole columns."""
    table = plain_pair_table(board.size)
    # int32 indices: numpy gathers with them directly, and they are half the memory of intp.
    ranks = [(column >> 2).astype(np.int32) for column in holes]
    firsts = [board.plain_rows + np.int32(_RANKS) * rank for rank in ranks[:-1]]
    index = firsts[0] + ranks[1]
    keys: NDArray[np.int16] = table[index]
    for i, j in islice(combinations(range(len(holes)), HOLE_USED), 1, None):  # pair (0, 1) is done
        np.add(firsts[i], ranks[j], out=index)
        np.maximum(keys, table[index], out=keys)
    _raise_flushes(keys, board, holes)
    return keys


def _raise_flushes(keys: np.ndarray, board: _HighBoard, holes: Sequence[np.ndarray]) -> None:
    """Raise ``keys`` in place to the best flush of rows with three suited board and two suited hole cards."""
    held = [column[board.flush_rows] for column in holes]
    suited = [(card & 3) == board.flush_suit for card in held]
    count = np.zeros(board.flush_rows.size, dtype=np.uint8)
    for flags in suited:
        count += flags
    hits = np.flatnonzero(count >= HOLE_USED)
    if not hits.size:
        return
    table = flush_pair_table()[0]
    # A card of another suit becomes rank 13: every pair holding one scores 0.
    ranks = [np.where(flags[hits], card[hits] >> 2, _OFF_SUIT).astype(np.int32)
             for flags, card in zip(suited, held)]
    base = board.flush_base[hits]
    firsts = [base + np.int32(_RANKS + 1) * rank for rank in ranks[:-1]]
    best = table[firsts[0] + ranks[1]]
    for i, j in islice(combinations(range(len(holes)), HOLE_USED), 1, None):
        np.maximum(best, table[firsts[i] + ranks[j]], out=best)
    rows = board.flush_rows[hits]
    keys[rows] = np.maximum(keys[rows], best)


def _low_keys(board: NDArray[np.uint16], holes: Sequence[np.ndarray]) -> NDArray[np.int8]:
    """Low key of each row from its board's part and any two or more hole columns."""
    table = low_pair_table()[0]
    bits = [np.take(LOW_BITS, column) for column in holes]
    firsts = [board | bit for bit in bits[:-1]]
    # uint16 indices into a table of 64 KB: the cheapest gather numpy has.
    index = firsts[0] | bits[1]
    keys: NDArray[np.int8] = np.take(table, index)
    for i, j in islice(combinations(range(len(holes)), HOLE_USED), 1, None):
        np.bitwise_or(firsts[i], bits[j], out=index)
        np.maximum(keys, np.take(table, index), out=keys)
    return keys


def hand_keys(board: ArrayLike, holes: ArrayLike) -> NDArray[np.int16]:
    """High key of each Omaha hand: the best of two hole cards with three board cards.

    Parameters
    ----------
    board : array-like of shape (n, b), b in {3, 4, 5}, integer
        Card codes ``4 * rank + suit`` of the board.
    holes : array-like of shape (n, k), k in {4, 5, 6}, integer
        Card codes of the hole cards; all cards of a row distinct (readers
        check this).

    Returns
    -------
    keys : ndarray of shape (n,), dtype int16
        Hold'em keys 1 .. 7462 of the best five cards; higher wins, equal ties.

    Raises
    ------
    ValueError
        If a shape is wrong or a code is not an integer in 0..51.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> board = [[card_code(c) for c in ("As", "Ks", "Qs", "2d", "7c")]]
    >>> holes = [[card_code(c) for c in ("Ah", "Ad", "Ac", "Js")]]
    >>> # Three aces in the hand, but two play: trips, A A with A K Q, and no royal flush (Js alone).
    >>> str(holdem.CATEGORIES[holdem.key_categories(hand_keys(board, holes))[0]])
    'Three of a Kind'
    >>> trips = [card_code(c) for c in ("Ah", "Ad", "As", "Ks", "Qs")]
    >>> hand_keys(board, holes).tolist() == holdem.hand_keys([trips]).tolist()
    True
    """
    keys: NDArray[np.int16] = _seat_keys(board, holes, seats=False)[0]
    return keys


def deal_keys(board: ArrayLike, holes: ArrayLike) -> NDArray[np.int16]:
    """High key of every seat in deals sharing a board.

    The same as :func:`hand_keys` seat by seat, but the board's part (its
    rank multiset, its flush suit and suited ranks) is computed once per deal.

    Parameters
    ----------
    board : array-like of shape (n, b), b in {3, 4, 5}, integer
        Card codes of the community cards.
    holes : array-like of shape (n, seats, k), k in {4, 5, 6}, integer
        Card codes of each seat's hole cards; all cards of a deal distinct
        (readers check this).

    Returns
    -------
    keys : ndarray of shape (seats, n), dtype int16
        Seat-major, as :func:`pipeline.poker.holdem.deal_keys`: ``keys[s]``
        holds seat s + 1's key in every deal.

    Raises
    ------
    ValueError
        If a shape is wrong or a code is not an integer in 0..51.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> board = [[card_code(c) for c in ("9s", "8s", "2s", "2d")]]
    >>> seats = (("As", "Ks", "Qh", "Qd"), ("2h", "9h", "4c", "5c"))
    >>> holes = [[[card_code(c) for c in hand] for hand in seats]]
    >>> [str(holdem.CATEGORIES[c]) for c in holdem.key_categories(deal_keys(board, holes)[:, 0])]
    ['Flush', 'Full House']
    """
    return _seat_keys(board, holes, seats=True)


def _seat_keys(board: ArrayLike, holes: ArrayLike, *, seats: bool) -> NDArray[np.int16]:
    """High keys (seats, n) of deals, or (1, n) of hands; the board's part once."""
    board_columns, hole_columns = _deal_columns(board, holes, seats=seats)
    keys = np.zeros(hole_columns.shape[:1] + board_columns.shape[1:], dtype=np.int16)
    if keys.size:  # no deal, no table: a run's schema is found without building them
        part = _high_board(board_columns)
        for seat, columns in enumerate(hole_columns):
            keys[seat] = _high_keys(part, columns)
    return keys


def low_keys(board: ArrayLike, holes: ArrayLike) -> NDArray[np.int8]:
    """Eight-or-better low key of each Omaha hand, 0 where it has no low.

    Parameters
    ----------
    board : array-like of shape (n, b), b in {3, 4, 5}, integer
        Card codes of the board.
    holes : array-like of shape (n, k), k in {4, 5, 6}, integer
        Card codes of the hole cards.

    Returns
    -------
    keys : ndarray of shape (n,), dtype int8
        0 (no low), else 1 (8 7 6 5 4) .. 56 (5 4 3 2 A): higher is the
        better low, equal keys tie.

    Raises
    ------
    ValueError
        If a shape is wrong or a code is not an integer in 0..51.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code
    >>> board = [[card_code(c) for c in ("2s", "3d", "4h", "Kc", "Kd")]] * 2
    >>> holes = [[card_code(c) for c in ("As", "5c", "Qh", "Qd")],     # the wheel
    ...          [card_code(c) for c in ("As", "2c", "3h", "Jd")]]     # A 2 and A 3 pair the board
    >>> low_keys(board, holes).tolist()
    [56, 0]
    """
    keys: NDArray[np.int8] = _seat_lows(board, holes, seats=False)[0]
    return keys


def low_deal_keys(board: ArrayLike, holes: ArrayLike) -> NDArray[np.int8]:
    """Eight-or-better low key of every seat in deals sharing a board, seat-major as :func:`deal_keys`.

    Parameters
    ----------
    board : array-like of shape (n, b), b in {3, 4, 5}, integer
    holes : array-like of shape (n, seats, k), k in {4, 5, 6}, integer

    Returns
    -------
    keys : ndarray of shape (seats, n), dtype int8
        As :func:`low_keys`, ``keys[s]`` the keys of seat s + 1.

    Raises
    ------
    ValueError
        If a shape is wrong or a code is not an integer in 0..51.
    """
    return _seat_lows(board, holes, seats=True)


def _seat_lows(board: ArrayLike, holes: ArrayLike, *, seats: bool) -> NDArray[np.int8]:
    """Low keys (seats, n) of deals, or (1, n) of hands; the board's part once."""
    board_columns, hole_columns = _deal_columns(board, holes, seats=seats)
    keys = np.zeros(hole_columns.shape[:1] + board_columns.shape[1:], dtype=np.int8)
    if keys.size:
        part = _low_board(board_columns)
        for seat, columns in enumerate(hole_columns):
            keys[seat] = _low_keys(part, columns)
    return keys


def low_key_ranks(keys: ArrayLike) -> NDArray[np.int8]:
    """The five ranks of each low key, highest first, the ace as rank 12 (``cards.RANKS``).

    Parameters
    ----------
    keys : array-like of shape (n,), integer
        Low keys 1 .. 56 (0, no low, has no ranks: ValueError).

    Returns
    -------
    ranks : ndarray of shape (n, 5), dtype int8

    Examples
    --------
    >>> ["".join(cards.RANKS[r] for r in row) for row in low_key_ranks([56, 1])]
    ['5432A', '87654']
    """
    keys = cards.checked_integers(np.asarray(keys).reshape(-1), top=LOW_KEYS, what="low keys")
    if keys.size and keys.min() < 1:
        raise ValueError("low key 0 is no low: it has no ranks")
    of_set = low_pair_table()[1]
    sets = np.zeros(LOW_KEYS + 1, dtype=np.int64)
    sets[of_set[of_set > 0]] = np.flatnonzero(of_set > 0)
    # Bit b of a set is rank b - 1, bit 0 the ace (rank 12); the highest bit first.
    bits = (sets[keys.astype(np.intp)][:, None] >> np.arange(_LOW_RANKS - 1, -1, -1)) & 1
    places = np.argsort(-bits, axis=1, kind="stable")[:, :holdem.BEST_OF]
    ranks: NDArray[np.int8] = ((_LOW_RANKS - 1 - places + _RANKS - 1) % _RANKS).astype(np.int8)
    return ranks


def best_five(board: ArrayLike, holes: ArrayLike) -> NDArray[np.uint8]:
    """The five cards of a best high hand of each row: two hole cards, then three board cards.

    Where several choices tie, any one of them.  Slower than :func:`hand_keys`
    (a pass per hole pair, then the best pair's board triples scored as
    five cards), for the rows a run is asked to show.

    Parameters
    ----------
    board : array-like of shape (n, b), b in {3, 4, 5}, integer
    holes : array-like of shape (n, k), k in {4, 5, 6}, integer
        As for :func:`hand_keys`.

    Returns
    -------
    best : ndarray of shape (n, 5), dtype uint8
        Card codes; ``holdem.hand_keys(best)`` is the row's :func:`hand_keys`.
        :func:`pipeline.poker.describe.best_five` orders them by significance.

    Raises
    ------
    ValueError
        If a shape is wrong or a code is not an integer in 0..51.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code, CARD_TEXT
    >>> board = [[card_code(c) for c in ("As", "Ks", "Qs", "2d", "7c")]]
    >>> holes = [[card_code(c) for c in ("Ah", "Ad", "Ts", "Js")]]
    >>> " ".join(CARD_TEXT[best_five(board, holes)[0]])
    'Ts Js As Ks Qs'
    """
    board_columns, hole_columns = _deal_columns(board, holes, seats=False)
    if not board_columns.shape[1]:
        return np.zeros((0, holdem.BEST_OF), dtype=np.uint8)
    part = _high_board(board_columns)
    return _best_cards(board_columns, hole_columns[0], lambda pair: _high_keys(part, pair), holdem.hand_keys)


def best_low_five(board: ArrayLike, holes: ArrayLike) -> NDArray[np.uint8]:
    """The five cards of a best low of each row: two hole cards, then three board cards.

    Parameters
    ----------
    board : array-like of shape (n, b), b in {3, 4, 5}, integer
    holes : array-like of shape (n, k), k in {4, 5, 6}, integer
        As for :func:`low_keys`.

    Returns
    -------
    best : ndarray of shape (n, 5), dtype uint8
        Card codes of five whose low is the row's :func:`low_keys`; a row
        without a low is ``cards.DECK_SIZE`` five times (no card).

    Raises
    ------
    ValueError
        If a shape is wrong or a code is not an integer in 0..51.

    Examples
    --------
    >>> from pipeline.poker.cards import card_code, CARD_TEXT
    >>> board = [[card_code(c) for c in ("2s", "3d", "8h", "Kc", "7d")]] * 2
    >>> holes = [[card_code(c) for c in ("As", "4c", "Qh", "2d")],
    ...          [card_code(c) for c in ("Ks", "Qc", "Jh", "Td")]]
    >>> best = best_low_five(board, holes)
    >>> " ".join(CARD_TEXT[best[0]]), best[1].tolist()
    ('As 4c 2s 3d 7d', [52, 52, 52, 52, 52])
    """
    board_columns, hole_columns = _deal_columns(board, holes, seats=False)
    if not board_columns.shape[1]:
        return np.zeros((0, holdem.BEST_OF), dtype=np.uint8)
    part = _low_board(board_columns)
    return _best_cards(board_columns, hole_columns[0], lambda pair: _low_keys(part, pair), _five_low_keys)


def _five_low_keys(five: np.ndarray) -> NDArray[np.int8]:
    """Low key of exactly five cards per row, (n, 5) codes: 0 unless five distinct low ranks."""
    bits = np.take(LOW_BITS, five[:, 0])
    for place in range(1, five.shape[1]):
        bits |= np.take(LOW_BITS, five[:, place])
    keys: NDArray[np.int8] = np.take(low_pair_table()[1], bits)
    return keys


def _best_cards(board: NDArray[np.uint8], holes: NDArray[np.uint8], pair_keys: _PairKeys,
                five_keys: _FiveKeys) -> NDArray[np.uint8]:
    """Two hole cards of a best pair and three board cards that make its key; DECK_SIZE rows for key 0.

    ``board`` and ``holes`` are columns, shapes (b, n) and (k, n).
    """
    n = board.shape[1]
    best = np.full((n, holdem.BEST_OF), cards.DECK_SIZE, dtype=np.uint8)
    pairs = np.array(list(combinations(range(len(holes)), HOLE_USED)), dtype=np.intp)
    by_pair = np.stack([pair_keys([holes[i], holes[j]]) for i, j in pairs])
    chosen = by_pair.argmax(axis=0)
    keys = np.take_along_axis(by_pair, chosen[None], axis=0)[0]
    hole = np.take_along_axis(holes.T, pairs[chosen], axis=1)
    left = np.flatnonzero(keys > 0)  # a low's key 0 is no hand: the row keeps its marker
    for triple in combinations(range(len(board)), BOARD_USED):
        if not left.size:
            break
        five = np.concatenate([hole[left], board[list(triple)][:, left].T], axis=1)
        found = five_keys(five) == keys[left]
        best[left[found]] = five[found]
        left = left[~found]
    if left.size:  # the best pair's key is that of one of its triples, unless a card is dealt twice
        raise ValueError(f"row {int(left[0])}: no five of its cards make its key: a card is dealt twice")
    return best
