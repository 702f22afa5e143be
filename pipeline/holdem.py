"""Texas Hold'em: the best five of five, six or seven cards, and whole deals.

This module owns the hold'em rules: the key of every hand, its category,
the parsing of cards written as text ("Ah Kd") and the winners of a deal.

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

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from itertools import combinations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline import cards, games
from pipeline.errors import InputError, UsageError
from pipeline.statistics import MAX_SEATS, Tally
from pipeline.text import shown, text_lengths, text_matrix

BEST_OF = 5
HAND_SIZES = (5, 6, 7)
MAX_PLAYERS = MAX_SEATS  # the statement's limit, 1 to 10; the statistics tables are sized by it


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


@cache
def _five_card_tables() -> tuple[NDArray[np.int16], NDArray[np.int16], NDArray[np.int8]]:
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


@cache
def plain_table(k: int) -> np.ndarray:
    """Key of the best five cards of every k-rank multiset, ignoring suits.

    Returns
    -------
    keys : ndarray of shape (cards.multiset_count(k),), dtype int16
        Indexed by ``cards.multiset_index``; 0 where a rank occurs more than
        four times.
    """
    five_plain = _five_card_tables()[0]
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


@cache
def flush_table() -> np.ndarray:
    """Key of the best flush in every set of ranks of one suit.

    Returns
    -------
    keys : ndarray of shape (8192,), dtype int16
        Indexed by a 13-bit rank mask (bit r set when rank r is present);
        0 for fewer than five ranks.
    """
    five_suited = _five_card_tables()[1]
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
_CARD_BIT = np.append(np.left_shift(np.uint64(1), np.arange(52, dtype=np.uint64)), np.uint64(0))


@cache
def _flush_suit() -> np.ndarray:
    # Packed suit counts (four 4-bit fields) -> the suit with five or more, or -1.
    packed = np.arange(1 << 16)
    counts = (packed[:, None] >> (4 * np.arange(4))) & 15
    suit = np.where((counts >= BEST_OF).any(axis=1), counts.argmax(axis=1), -1)
    return suit.astype(np.int8)


def hand_keys(hands: np.ndarray) -> np.ndarray:
    """Key of the best five-card hand in each row of cards.

    Parameters
    ----------
    hands : array-like of shape (n, k), k in {5, 6, 7}
        Card codes ``4 * rank + suit`` (see :mod:`pipeline.cards`); the cards
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
    >>> from pipeline.cards import card_code
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
    _raise_flushes(keys, list(columns), _suit_counts(columns).sum(axis=0, dtype=np.uint16))
    return keys


def _suit_counts(codes: np.ndarray) -> NDArray[np.uint16]:
    """Four 4-bit suit counters in one uint16 per card: ``1 << 4 * suit``."""
    counters: NDArray[np.uint16] = np.left_shift(np.uint16(1), (codes & 3).astype(np.uint16) << 2)
    return counters


def _raise_flushes(keys: np.ndarray, columns: list[np.ndarray], suit_counts: np.ndarray) -> None:
    """Raise ``keys`` in place to the best flush of the rows that hold five cards of a suit.

    ``columns`` are the card codes of every row, one array per card, and
    ``suit_counts`` the sum of their :func:`_suit_counts`.  Only the few
    rows with a flush (about 3 % of seven-card hands) are looked at.
    """
    flush_suit = _flush_suit()[suit_counts]
    rows = np.flatnonzero(flush_suit >= 0)
    if not rows.size:
        return
    suit = flush_suit[rows]
    mask = np.zeros(rows.size, dtype=np.uint16)
    for column in columns:
        flushed = column[rows]
        mask |= np.where((flushed & 3) == suit, _RANK_BIT[flushed >> 2], 0).astype(np.uint16)
    keys[rows] = np.maximum(keys[rows], flush_table()[mask])


@cache
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
    seven = np.concatenate([np.repeat(boards, len(pairs), axis=0), np.tile(pairs, (len(boards), 1))], axis=1)
    keys = plain_table(7)[cards.multiset_index(cards.sorted_columns(seven))]
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
        Card codes of each seat's hole cards; all cards of a deal distinct.

    Returns
    -------
    keys : ndarray of shape (seats, n), dtype int16
        Seat-major: ``keys[s]`` holds seat s + 1's key in every deal.

    Examples
    --------
    >>> from pipeline.cards import card_code
    >>> board = [[card_code(c) for c in ("As", "Ks", "Qs", "2d", "7c")]]
    >>> holes = [[[card_code("Js"), card_code("Ts")], [card_code("Ah"), card_code("Ad")]]]
    >>> deal_keys(board, holes).ravel().tolist() == [7462, hand_keys([board[0] + holes[0][1]])[0]]
    True
    """
    board = np.asarray(board, dtype=np.uint8)
    holes = np.asarray(holes, dtype=np.uint8)
    board_columns = list(np.ascontiguousarray(board.T))
    board_ranks = cards.sort_columns([column >> 2 for column in board_columns])
    board_index = cards.multiset_index(board_ranks) * np.int32(cards.multiset_count(2))
    board_suits = _suit_counts(np.stack(board_columns)).sum(axis=0, dtype=np.uint16)
    table = board_pair_table()
    keys = np.empty((holes.shape[1], len(board)), dtype=np.int16)
    for seat in range(holes.shape[1]):
        first, second = np.ascontiguousarray(holes[:, seat, 0]), np.ascontiguousarray(holes[:, seat, 1])
        pair = cards.multiset_index(cards.sort_columns([first >> 2, second >> 2]))
        keys[seat] = table[board_index + pair]
        _raise_flushes(keys[seat], board_columns + [first, second],
                       board_suits + _suit_counts(first) + _suit_counts(second))
    return keys


def key_categories(keys: np.ndarray) -> NDArray[np.int8]:
    """Category code (index into ``CATEGORIES``) of each key.

    >>> [str(CATEGORIES[c]) for c in key_categories(np.array([1, 5854, 7462]))]
    ['High Card', 'Straight', 'Straight Flush']
    """
    categories: NDArray[np.int8] = _five_card_tables()[2][keys]
    return categories


# --- deals: text in, winners out -------------------------------------------

HOLE_TEXT_WIDTH = 5  # "Ah Kd"
# Whitespace as str.split() knows it (RE2's \s is ASCII only), so that the
# vectorized parse and deal_problem agree on where the cards are.
_WHITESPACE = r"[\s\x0b\x1c-\x1f\x85\p{Z}]+"


@dataclass
class Deals:
    """Parsed deals, one row per deal.

    Attributes
    ----------
    board : ndarray of shape (n, 5), dtype uint8
        Card codes of the community cards.
    holes : ndarray of shape (n, seats, 2), dtype uint8
        Card codes of each seat's hole cards; 0 for an empty seat.
    seated : ndarray of shape (n, seats), dtype bool
        True where the seat has a player.
    reasons : ndarray of shape (n,), dtype object
        None for a valid deal, else why it is rejected.
    fields : ndarray of shape (n,), dtype int8
        Which text field the reason is about: 0 = board, s = seat s, -1 none.
    """

    board: np.ndarray
    holes: np.ndarray
    seated: np.ndarray
    reasons: np.ndarray
    fields: np.ndarray

    def take(self, rows: np.ndarray) -> Deals:
        """The deals at ``rows``: a boolean mask of shape (n,) or integer indices."""
        return Deals(self.board[rows], self.holes[rows], self.seated[rows], self.reasons[rows],
                     self.fields[rows])


def _card_matrix(strings: pa.Array, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parse ``count`` cards separated by single spaces, whitespace tolerated.

    Returns codes (n, count) uint8, ``fits`` (the text has that layout) and
    ``known`` (every card is a known card) as (n,) bool arrays.
    """
    width = 3 * count - 1
    matrix, fits = text_matrix(strings, width)
    spaced = _spaced(matrix, fits, count)
    if not spaced.all():
        # Rare slow path: tidy stray, doubled or other whitespace (a tab
        # between cards too), then look again.
        tidy = pc.replace_substring_regex(pc.utf8_trim_whitespace(strings), _WHITESPACE, " ")
        matrix, fits = text_matrix(tidy, width)
        spaced = _spaced(matrix, fits, count)
    matrix = np.ascontiguousarray(matrix)
    # Card-major storage: each card's codes are contiguous; returned transposed.
    codes = np.zeros((count, len(fits)), dtype=np.uint8)
    known = spaced
    if not len(fits):
        return codes.T, fits, known
    # Column by column: reductions across a 2-5 wide axis are slow in numpy.
    for card in range(count):
        # A card's two bytes read as one little-endian uint16: one look-up.
        text = np.ndarray((len(fits),), dtype="<u2", buffer=matrix, offset=3 * card, strides=(width,))
        code = cards.CODE_OF_TEXT[text]
        known &= code != cards.INVALID
        codes[card] = code
    codes[:, ~known] = 0
    return codes.T, fits, known


def _spaced(matrix: np.ndarray, fits: np.ndarray, count: int) -> np.ndarray:
    """True where a fitting text has one space between each pair of cards."""
    spaced = fits.copy()
    for card in range(1, count):
        spaced &= matrix[:, 3 * card - 1] == ord(" ")
    return spaced


def _blank(column: pa.Array) -> np.ndarray:
    """True where a seat's text is null, empty or only whitespace."""
    lengths = text_lengths(column)
    blank = lengths <= 0
    odd = ~blank & (lengths != HOLE_TEXT_WIDTH)
    if odd.any():
        rows = np.flatnonzero(odd)
        trimmed = pc.utf8_trim_whitespace(column.take(pa.array(rows)))
        blank[rows] = pc.equal(trimmed, "").to_numpy(zero_copy_only=False)
    return blank


def parse_deals(board: pa.Array, seats: list[pa.Array]) -> Deals:
    """Parse deals written as text: a board and up to ten seats.

    Parameters
    ----------
    board : pyarrow string array of length n
        Five cards separated by spaces, e.g. ``"Ah Kd 2c 3s Xh"``.
    seats : list of pyarrow string arrays of length n
        Two cards separated by a space per seat, null or empty for an empty
        seat; seat s + 1 is ``seats[s]``.

    Returns
    -------
    Deals
        Codes for every deal and, for each invalid one, why.
    """
    n = len(board)
    board_codes, board_fits, board_known = _card_matrix(board, BEST_OF)
    holes, seated, ok = parse_seats(seats, n)
    ok &= board_known & all_distinct(board_codes, holes, seated)
    reasons = np.full(n, None, dtype=object)
    fields = np.full(n, -1, dtype=np.int8)
    if not ok.all():
        board_text = board.to_pylist()
        seat_text = [column.to_pylist() for column in seats]
        for row in np.flatnonzero(~ok):
            reasons[row], fields[row] = deal_problem(
                board_text[row], [text[row] for text in seat_text])
            if reasons[row] is None:  # never score a row the parse refused
                reasons[row] = "cards not understood"
    return Deals(board_codes, holes, seated, reasons, fields)


def parse_seats(seats: list[pa.Array], n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parse the hole cards of up to ten seats.

    Parameters
    ----------
    seats : list of pyarrow string arrays of length n
        Two cards separated by a space per seat, null or empty for an empty
        seat; seat s + 1 is ``seats[s]``.
    n : int
        Number of deals.

    Returns
    -------
    holes : ndarray of shape (n, seats, 2), dtype uint8
        Card codes; 0 for an empty seat.
    seated : ndarray of shape (n, seats), dtype bool
    ok : ndarray of shape (n,), dtype bool
        Every seated hand is two known cards and at least one seat is taken.
    """
    if len(seats) > MAX_PLAYERS:
        raise UsageError(f"{len(seats)} seats, at most {MAX_PLAYERS}")
    # Seat-major storage, handed out as (n, seats, ...) views: every column a
    # later step reads (one seat, one card) is contiguous.
    hole_storage = np.zeros((len(seats), 2, n), dtype=np.uint8)
    seated_storage = np.zeros((len(seats), n), dtype=bool)
    holes, seated = hole_storage.transpose(2, 0, 1), seated_storage.T
    ok = np.ones(n, dtype=bool)
    for seat, column in enumerate(seats):
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        seated_storage[seat] = ~_blank(column)
        codes, _, known = _card_matrix(column, 2)
        hole_storage[seat] = codes.T
        ok &= known | ~seated[:, seat]
    has_player = np.zeros(n, dtype=bool)
    for seat in range(len(seats)):  # not seated.any(axis=1): slow across a short axis
        has_player |= seated[:, seat]
    return holes, seated, ok & has_player


def all_distinct(board: np.ndarray, holes: np.ndarray, seated: np.ndarray) -> np.ndarray:
    """True for each deal whose cards are all different.

    ``board`` is (n, b) card codes, 52 marking a board slot not dealt yet;
    ``holes`` (n, seats, 2) and ``seated`` (n, seats) as in :class:`Deals`.
    """
    # Every card of a deal is a distinct bit of one 64-bit mask, so a card
    # dealt twice leaves fewer bits than cards; code 52 (an empty seat's
    # cards, an undealt board card) has no bit.
    n = len(board)
    seen = np.zeros(n, dtype=np.uint64)
    dealt = np.zeros(n, dtype=np.uint8)
    for column in [board[:, i] for i in range(board.shape[1])]:
        seen |= _CARD_BIT[column]
        dealt += column < 52
    for seat in range(seated.shape[1]):
        for i in range(2):
            seen |= _CARD_BIT[np.where(seated[:, seat], holes[:, seat, i], 52)]
        dealt += seated[:, seat].astype(np.uint8) << 1
    distinct: NDArray[np.bool_] = np.bitwise_count(seen) == dealt
    return distinct


def deal_problem(board: str | None, seats: list[str | None], *,
                 board_sizes: tuple[int, ...] = (BEST_OF,)) -> tuple[str | None, int]:
    """Why a written deal is not valid, and which field: 0 board, s seat s.

    ``board_sizes`` are the numbers of board cards allowed (an unfinished
    board has 0, 3 or 4).

    >>> deal_problem("Ah Kd 2c 3s Xh", ["As Ad", None])
    (None, -1)
    >>> deal_problem("Ah Kd 2c 3s Xh", ["Ah 2d"])
    ("p1 'Ah 2d': card Ah is dealt twice", 1)
    >>> deal_problem("Ah Kd 2c 3s", ["As Ad"])
    ("board 'Ah Kd 2c 3s': 4 cards, expected 5", 0)
    >>> deal_problem("Ah Kd", ["As Ad"], board_sizes=(0, 3, 4, 5))
    ("board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5", 0)
    """
    seen: set[int] = set()
    fields = [("board", board, board_sizes)] + [(f"p{s}", text, (2,)) for s, text in enumerate(seats, 1)]
    seated = 0
    for index, (label, text, counts) in enumerate(fields):
        written = text or ""
        words = written.split()
        if index and not words:
            continue
        seated += index > 0
        if len(words) not in counts:
            expected = ", ".join(map(str, counts[:-1])) + " or " * (len(counts) > 1) + str(counts[-1])
            what = "empty" if not words else f"{len(words)} cards, expected {expected}"
            return f"{label} {shown(written)}: {what}" if words else f"{label} is empty", index
        for word in words:
            try:
                code = cards.card_code(word)
            except ValueError:
                return (f"{label} {shown(written)}: unknown card {shown(word)} "
                        f"(ranks {cards.RANKS} or X, suits {cards.SUITS})"), index
            if code in seen:
                return f"{label} {shown(written)}: card {word} is dealt twice", index
            seen.add(code)
    if not seated:
        return "no player: every seat is empty", -1
    return None, -1


_WINNER_TEXT = np.array([" ".join(str(s + 1) for s in range(MAX_PLAYERS) if mask >> s & 1)
                         for mask in range(1 << MAX_PLAYERS)], dtype=object)


def winners_text(masks: np.ndarray) -> NDArray[np.object_]:
    """Winners written as the contest prints them, from bit masks of seats.

    >>> winners_text(np.array([0b101, 0b1000000000])).tolist()
    ['1 3', '10']
    """
    texts: NDArray[np.object_] = _WINNER_TEXT[masks]
    return texts


def score_deals(deals: Deals) -> tuple[np.ndarray, np.ndarray]:
    """Keys of every seated hand and the winners of every deal.

    Parameters
    ----------
    deals : Deals
        Valid deals only (``reasons`` all None).

    Returns
    -------
    keys : ndarray of shape (n, seats), dtype int16
        Key of each seat's best five of seven; 0 for an empty seat.
    winners : ndarray of shape (n,), dtype uint16
        Bit s set when seat s + 1 holds the best key of its deal.
    """
    n, seat_count = deals.seated.shape
    # Seat-major keys: every step below runs down whole contiguous rows
    # instead of reducing across a short axis, which numpy does slowly.
    by_seat = deal_keys(deals.board, deals.holes)
    by_seat[~deals.seated.T] = 0
    best = by_seat.max(axis=0, initial=0)
    winners = np.zeros(n, dtype=np.uint16)
    for seat in range(seat_count):
        winning = (by_seat[seat] == best) & deals.seated[:, seat]
        winners |= winning.astype(np.uint16) << np.uint16(seat)
    return by_seat.T, winners


SEATS = tuple(f"p{seat}" for seat in range(1, MAX_PLAYERS + 1))
BOARD_COLUMN = "board"
EXPECTED_COLUMN = "winners"
HOLE_SIZE = 2
_NEWLINE = ord("\n")


@cache
def _winner_dictionary() -> pa.Array:
    """Every winners text, indexed by the winner bits: a dictionary of 1,024 values.

    Built on first use: a pyarrow conversion at import would import pandas.
    """
    return pa.array(_WINNER_TEXT.tolist(), pa.string())


def seats_of(columns: tuple[str, ...]) -> tuple[str, ...]:
    """The seat columns among ``columns``, in seat order.

    >>> seats_of(("board", "p3", "p1", "winners"))
    ('p1', 'p3')
    """
    return tuple(name for name in SEATS if name in columns)


class Holdem(games.Game):
    """Texas hold'em behind the game interface: ``board,p1..p10[,winners]`` in, winners out."""

    name = "holdem"
    title = "hold'em"
    categories = tuple(str(category) for category in CATEGORIES)
    expected_column = EXPECTED_COLUMN
    row_noun = "deals"
    hand_cards = 7
    exact_hand_sizes = (BEST_OF, 7)
    required_columns = (BOARD_COLUMN,)
    columns_hint = f"{BOARD_COLUMN},p1,...,p{MAX_PLAYERS}"
    writes_contest = True
    max_players = MAX_PLAYERS

    def known_columns(self) -> tuple[str, ...]:
        return (BOARD_COLUMN, *SEATS, EXPECTED_COLUMN)

    def input_columns(self, columns: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
        for label, names in columns.items():
            if BOARD_COLUMN not in names or not seats_of(names):
                raise InputError(f"{label}: a hold'em archive needs a board column and "
                                 f"player columns p1..p{MAX_PLAYERS}")
        # Up to the highest seat any input has: p1,p3 is seats 1 to 3, seat 2 empty.
        last = max(SEATS.index(seats_of(names)[-1]) for names in columns.values())
        return (BOARD_COLUMN, *SEATS[:last + 1])

    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> games.Scored:
        """Score a batch of deals given as board and p1..pK text columns.

        ``best_five`` adds each seat's best five cards and their description.
        """
        from pipeline import describe

        seats = seats_of(columns)
        deals = parse_deals(table.column(BOARD_COLUMN), [table.column(name) for name in seats])
        ok = deals.reasons == None  # noqa: E711
        valid = deals if ok.all() else deals.take(ok)
        keys, masks = score_deals(valid)
        seated = valid.seated.T  # seat-major, like the keys: (seats, n), each row contiguous
        keys_by_seat = keys.T
        categories = np.where(seated, key_categories(keys_by_seat), -1)
        best = keys_by_seat.max(axis=0, initial=0)  # down the seat-major rows: fast
        best_category = key_categories(best)
        winner_count = np.bitwise_count(masks).astype(np.int8)
        results = {
            EXPECTED_COLUMN: pa.DictionaryArray.from_arrays(pa.array(masks.astype(np.int16)),
                                                             _winner_dictionary()),
            "winner_count": pa.array(winner_count),
            "winning_category": games.category_column(best_category, self.categories),
            "winning_key": pa.array(best),
        }
        described = describe.deal_columns(valid.board, valid.holes, keys, valid.seated, seats) \
            if best_five else []
        for seat, name in enumerate(seats):
            present = seated[seat]
            results[f"{name}_category"] = games.category_column(np.maximum(categories[seat], 0),
                                                                self.categories, present=present)
            results[f"{name}_key"] = pa.array(keys_by_seat[seat], mask=~present)
            if best_five:
                results.update(described[seat])
        winning = (masks >> np.arange(len(seats), dtype=np.uint16)[:, None]) & 1 == 1
        tally = Tally.of_deals(self.categories, categories, winning, winning_category=best_category)
        counts = {f"{name}_wins": int(winning[seat].sum()) for seat, name in enumerate(seats)}
        counts["split_pots"] = int((winner_count > 1).sum())
        return games.Scored(pa.table(results), ok, deals.reasons, tally, masks, _WINNER_TEXT, counts,
                            deals.fields)

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        from pipeline.probabilities import holdem_counts

        return holdem_counts(cards or self.hand_cards)

    def deal_columns(self, players: int) -> tuple[str, ...]:
        return (BOARD_COLUMN, *SEATS[:players])

    def cards_per_row(self, players: int) -> int:
        return BEST_OF + HOLE_SIZE * players

    def text_width(self, players: int) -> int:
        return 3 * BEST_OF - 1

    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        from pipeline.generate import CARD_BYTES, put_cards, string_column

        n = dealt.shape[1]
        board = np.empty((n, 3 * BEST_OF - 1), dtype=np.uint8)
        put_cards(board, 0, dealt[:BEST_OF], CARD_BYTES, None)
        columns = [string_column(board)]
        for first in range(BEST_OF, len(dealt), HOLE_SIZE):
            hole = np.empty((n, 3 * HOLE_SIZE - 1), dtype=np.uint8)
            put_cards(hole, 0, dealt[first:first + HOLE_SIZE], CARD_BYTES, None)
            columns.append(string_column(hole))
        return pa.RecordBatch.from_arrays(columns, schema=schema)

    def contest_bytes(self, dealt: np.ndarray) -> np.ndarray:
        """The contest-file text of dealt cards (cards, n), one fixed-width row of bytes per instance."""
        from pipeline.generate import CONTEST_CARD_BYTES, put_cards

        players = (len(dealt) - BEST_OF) // HOLE_SIZE
        header = np.frombuffer(f"{players}\n".encode("ascii"), np.uint8)
        board_width, hole_width = 3 * BEST_OF, 3 * HOLE_SIZE
        matrix = np.empty((dealt.shape[1], len(header) + board_width + players * hole_width), np.uint8)
        matrix[:, :len(header)] = header
        put_cards(matrix, len(header), dealt[:BEST_OF], CONTEST_CARD_BYTES, _NEWLINE)
        for p in range(players):
            first = BEST_OF + HOLE_SIZE * p
            put_cards(matrix, len(header) + board_width + p * hole_width,
                      dealt[first:first + HOLE_SIZE], CONTEST_CARD_BYTES, _NEWLINE)
        return matrix


def contest_winners(table: pa.Table, instances: np.ndarray, lines: np.ndarray, *,
                    name: str) -> tuple[list[str], str | None]:
    """Winners of contest instances, in order, up to the first broken one, and why it is broken.

    Parameters
    ----------
    table : pyarrow.Table
        Instances as :func:`pipeline.readers.contest_batches` reads them.
    instances : ndarray of shape (n,), int64
        The number of each instance in its file.
    lines : ndarray of shape (n,), int64
        The line of each instance's N.
    name : str
        The file, as the message names it.

    Returns
    -------
    winners : list of str
        The winners of each instance before the first broken one, as the
        contest prints them.
    problem : str or None
        ``name: line L: reason (instance i)`` for the first broken instance.
    """
    deals = parse_deals(table.column(BOARD_COLUMN), [table.column(seat) for seat in SEATS])
    bad = np.flatnonzero(deals.reasons != None)  # noqa: E711
    good = np.zeros(len(deals.reasons), dtype=bool)
    good[:bad[0] if len(bad) else len(good)] = True
    _, masks = score_deals(deals.take(good))
    printed = winners_text(masks).tolist()
    if not len(bad):
        return printed, None
    first = int(bad[0])
    line = int(lines[first]) + 1 + max(int(deals.fields[first]), 0)
    return printed, f"{name}: line {line}: {deals.reasons[first]} (instance {int(instances[first])})"


GAME = games.register(Holdem())
