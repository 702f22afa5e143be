"""Deals of the board games written as text: ``board,p1..p10`` in, card codes and reasons out.

Layer: games (:mod:`pipeline.games`); imports card notation and codes
(:mod:`pipeline.poker`) and the foundation modules, nothing above.

This module owns what every game of a board and hole cards (hold'em,
Omaha, short-deck) reads alike: the columns (``board``, ``p1`` ... ``p10``,
``winners``), the parsing of a deal's text into card codes with a reason
for every deal refused, the shape a game allows (:class:`Shape`: the board
sizes, the hole cards of a seat, the deck), and the winners written as the
contest prints them.  Each game says its :class:`Shape` and scores the
codes; none of them reads text itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask
from pipeline.errors import UsageError
from pipeline.games.tally import MAX_SEATS
from pipeline.poker import cards, notation
from pipeline.poker.holdem import BEST_OF
from pipeline.text import shown, text_lengths

MAX_PLAYERS = MAX_SEATS  # the statement's limit, 1 to 10
#: Cards a board shows on its way: preflop, flop, turn and river.
BOARD_SIZES = (0, 3, 4, BEST_OF)
SEATS = tuple(f"p{seat}" for seat in range(1, MAX_PLAYERS + 1))
BOARD_COLUMN = "board"
EXPECTED_COLUMN = "winners"
#: A board written tidily: cards (or none) separated by single spaces, nothing around them.
_TIDY = r"^(?:\S+(?: \S+)*)?$"


@dataclass(frozen=True)
class Shape:
    """What a game's deal may hold.

    Attributes
    ----------
    hole_sizes : tuple of int
        The cards of a seat, ascending (every seat of a deal holds as many).
    board_sizes : tuple of int
        The cards a board may show, among :data:`BOARD_SIZES`.
    deck : tuple of int
        The card codes of the deck, ascending.
    deck_name : str
        How a message names the deck ("the 36-card deck, 6 to A").
    """

    hole_sizes: tuple[int, ...] = (2,)
    board_sizes: tuple[int, ...] = (BEST_OF,)
    deck: tuple[int, ...] = tuple(range(cards.DECK_SIZE))
    deck_name: str = "the deck"
    in_deck: NDArray[np.bool_] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not set(self.board_sizes) <= set(BOARD_SIZES):
            raise UsageError(f"board sizes {self.board_sizes}: each one of {BOARD_SIZES}")
        in_deck = np.zeros(cards.DECK_SIZE + 1, bool)  # the code past the deck never is
        in_deck[list(self.deck)] = True
        object.__setattr__(self, "in_deck", in_deck)

    def with_boards(self, board_sizes: tuple[int, ...]) -> Shape:
        """The same shape with other board sizes (unfinished boards for equity)."""
        return Shape(self.hole_sizes, board_sizes, self.deck, self.deck_name)

    @property
    def full_deck(self) -> bool:
        return len(self.deck) == cards.DECK_SIZE


HOLDEM = Shape()


@dataclass
class Deals:
    """Parsed deals, one row per deal.

    Attributes
    ----------
    board : ndarray of shape (n, 5), dtype uint8
        Card codes of the community cards; ``cards.DECK_SIZE`` past the
        last card of an unfinished board.
    holes : ndarray of shape (n, seats, k), dtype uint8
        Card codes of each seat's hole cards, k the shape's most; 0 for an
        empty seat, and past a seat's last card where it holds fewer.
    seated : ndarray of shape (n, seats), dtype bool
        True where the seat has a player.
    reasons : ndarray of shape (n,), dtype object
        None for a valid deal, else why it is rejected.
    fields : ndarray of shape (n,), dtype int8
        Which text field the reason is about: 0 = board, s = seat s, -1 none.
    hole_count : ndarray of shape (n,), dtype int8
        The hole cards of each seat of the deal (0 where it is not valid).
    """

    board: np.ndarray
    holes: np.ndarray
    seated: np.ndarray
    reasons: np.ndarray
    fields: np.ndarray
    hole_count: np.ndarray

    def take(self, rows: np.ndarray) -> Deals:
        """The deals at ``rows``: a boolean mask of shape (n,) or integer indices."""
        return Deals(self.board[rows], self.holes[rows], self.seated[rows], self.reasons[rows],
                     self.fields[rows], self.hole_count[rows])

    @property
    def board_size(self) -> NDArray[np.intp]:
        """Cards on each board: ndarray of shape (n,), dtype intp; 0, 3, 4 or 5 for a valid deal."""
        size: NDArray[np.intp] = np.count_nonzero(self.board != cards.DECK_SIZE, axis=1)
        return size


def _blank(column: pa.Array, width: int) -> np.ndarray:
    """True where a seat's text is null, empty or only whitespace (``width``: a seat's usual text)."""
    lengths = text_lengths(column)
    blank = lengths <= 0
    odd = ~blank & (lengths != width)
    if odd.any():
        rows = np.flatnonzero(odd)
        trimmed = pc.utf8_trim_whitespace(column.take(pa.array(rows)))
        blank[rows] = pc.equal(trimmed, "").to_numpy(zero_copy_only=False)
    return blank


def parse_deals(board: pa.Array | pa.ChunkedArray, seats: list[pa.Array], *, shape: Shape = HOLDEM) -> Deals:
    """Parse deals written as text: a board and up to ten seats.

    Parameters
    ----------
    board : pyarrow string array of length n
        Cards separated by spaces, e.g. ``"Ah Kd 2c 3s Xh"``; null or empty
        for a board of no cards.
    seats : list of pyarrow string arrays of length n
        A seat's cards separated by spaces, null or empty for an empty
        seat; seat s + 1 is ``seats[s]``.
    shape : Shape
        What a deal may hold: hold'em's (two hole cards, a board of five,
        the 52 cards) by default.

    Returns
    -------
    Deals
        Codes for every deal and, for each invalid one, why.

    Examples
    --------
    >>> deals = parse_deals(pa.array(["Ah Kd 2c", "", "Ah Kd"]), [pa.array(["As Ad"] * 3)],
    ...                     shape=HOLDEM.with_boards(BOARD_SIZES))
    >>> deals.board_size.tolist()[:2], deals.reasons.tolist()
    ([3, 0], [None, None, "board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5"])
    """
    n = len(board)
    board_codes, board_known = parse_boards(board, shape.board_sizes)
    holes, seated, count, ok = parse_seats(seats, n, shape.hole_sizes)
    ok &= board_known & all_distinct(board_codes, holes, seated)
    if not shape.full_deck:
        ok &= (shape.in_deck[board_codes] | (board_codes == cards.DECK_SIZE)).all(axis=1)  # or not dealt
        ok &= (shape.in_deck[holes] | ~seated[:, :, None]
               | (np.arange(holes.shape[2]) >= count[:, None, None])).all(axis=(1, 2))
    reasons = np.full(n, None, dtype=object)
    fields = np.full(n, -1, dtype=np.int8)
    if not ok.all():
        board_text = board.to_pylist()
        seat_text = [column.to_pylist() for column in seats]
        for row in np.flatnonzero(~ok):
            reasons[row], fields[row] = deal_problem(
                board_text[row], [text[row] for text in seat_text], shape=shape)
            if reasons[row] is None:  # never score a row the parse refused
                reasons[row] = "cards not understood"
    return Deals(board_codes, holes, seated, reasons, fields, np.where(ok, count, 0).astype(np.int8))


def parse_boards(board: pa.Array | pa.ChunkedArray,
                 board_sizes: tuple[int, ...] = (BEST_OF,)) -> tuple[np.ndarray, np.ndarray]:
    """Parse boards of any of ``board_sizes`` cards.

    Parameters
    ----------
    board : pyarrow string array of length n
        Cards separated by spaces; null or empty for no cards.
    board_sizes : tuple of int
        The numbers of cards a board may hold, among :data:`BOARD_SIZES`.

    Returns
    -------
    codes : ndarray of shape (n, 5), dtype uint8
        Card codes, ``cards.DECK_SIZE`` past a board's last card; 0 for the
        cards of a board that is not understood.
    known : ndarray of shape (n,), dtype bool
        The board is an allowed number of known cards.
    """
    if not set(board_sizes) <= set(BOARD_SIZES):
        raise UsageError(f"board sizes {board_sizes}: each one of {BOARD_SIZES}")
    if board_sizes == (BEST_OF,):
        # The common case, finished boards: one vectorized read of every row,
        # which tidies whitespace only when some row needs it.
        codes, _, known = notation.card_matrix(board, BEST_OF)
        return codes, known
    tidy = _tidied(board)
    size = _card_counts(tidy)
    known = np.isin(size, board_sizes)
    codes = np.full((len(board), BEST_OF), cards.DECK_SIZE, dtype=np.uint8)
    for count in board_sizes:
        rows = np.flatnonzero(known & (size == count))
        if count and rows.size:
            parsed, _, parsed_known = notation.card_matrix(tidy.take(pa.array(rows)), count)
            codes[rows, :count] = parsed
            known[rows] &= parsed_known
    return codes, known


def _tidied(text: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Texts with nulls as empty and whitespace tidied to single spaces between cards."""
    tidy = pc.fill_null(text, "")
    # Only the rows with stray, doubled or other whitespace are rewritten: the others (nearly all)
    # are read as they are, without a copy of the whole column made by the regular expression.
    untidy = ~as_mask(pc.match_substring_regex(tidy, _TIDY))
    if untidy.any():
        rows = pa.array(np.flatnonzero(untidy), pa.int64())
        fixed = pc.replace_substring_regex(pc.utf8_trim_whitespace(tidy.take(rows)), notation.WHITESPACE, " ")
        if isinstance(fixed, pa.ChunkedArray):  # few rows: one array of them
            fixed = fixed.combine_chunks()
        tidy = pc.replace_with_mask(tidy, pa.array(untidy), fixed.cast(tidy.type))
    return tidy


def _card_counts(tidy: pa.Array | pa.ChunkedArray) -> NDArray[np.int64]:
    """The cards of each tidy text: k cards take 3k - 1 characters; -1 for any other length."""
    lengths = text_lengths(tidy)
    counts: NDArray[np.int64] = np.where(lengths % 3 == 2, (lengths + 1) // 3,
                                         np.where(lengths == 0, 0, -1)).astype(np.int64)
    return counts


def parse_seats(seats: list[pa.Array], n: int,
                hole_sizes: tuple[int, ...] = (2,)) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Parse the hole cards of up to ten seats.

    Parameters
    ----------
    seats : list of pyarrow string arrays of length n
        A seat's cards separated by spaces, null or empty for an empty
        seat; seat s + 1 is ``seats[s]``.
    n : int
        Number of deals.
    hole_sizes : tuple of int
        The cards a seat may hold, ascending; every seat of a deal holds as many.

    Returns
    -------
    holes : ndarray of shape (n, seats, max(hole_sizes)), dtype uint8
        Card codes; 0 for an empty seat, ``cards.DECK_SIZE`` past a seat's last card.
    seated : ndarray of shape (n, seats), dtype bool
    count : ndarray of shape (n,), dtype int64
        The cards of the deal's seats.
    ok : ndarray of shape (n,), dtype bool
        Every seated hand is known cards of one allowed count, as many at every
        seat, and at least one seat is taken.
    """
    if len(seats) > MAX_PLAYERS:
        raise UsageError(f"{len(seats)} seats, at most {MAX_PLAYERS}")
    widest = hole_sizes[-1]
    # Seat-major storage, handed out as (n, seats, ...) views: every column a
    # later step reads (one seat, one card) is contiguous.
    hole_storage = np.zeros((len(seats), widest, n), dtype=np.uint8)
    seated_storage = np.zeros((len(seats), n), dtype=bool)
    holes, seated = hole_storage.transpose(2, 0, 1), seated_storage.T
    ok = np.ones(n, dtype=bool)
    count = np.zeros(n, np.int64)
    for seat, column in enumerate(seats):
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        seated_storage[seat] = ~_blank(column, notation.text_width(hole_sizes[0]))
        if len(hole_sizes) == 1:  # one size (hold'em): one read of the column
            codes, _, known = notation.card_matrix(column, widest)
            hole_storage[seat] = codes.T
            size = np.full(n, widest)
        else:
            tidy = _tidied(column)
            size = _card_counts(tidy)
            known = np.isin(size, hole_sizes)
            hole_storage[seat] = cards.DECK_SIZE
            for k in hole_sizes:
                rows = np.flatnonzero(known & (size == k))
                if rows.size:
                    parsed, _, parsed_known = notation.card_matrix(tidy.take(pa.array(rows)), k)
                    hole_storage[seat, :k, rows] = parsed
                    known[rows] &= parsed_known
        here = seated[:, seat]
        ok &= known | ~here
        # Every seat of a deal as many cards as the first seated one.
        ok &= ~here | (count == 0) | (count == size)
        count = np.where(here & (count == 0), size, count)
    has_player = np.zeros(n, dtype=bool)
    for seat in range(len(seats)):  # not seated.any(axis=1): slow across a short axis
        has_player |= seated[:, seat]
    return holes, seated, count, ok & has_player


def all_distinct(board: np.ndarray, holes: np.ndarray, seated: np.ndarray) -> NDArray[np.bool_]:
    """True for each deal whose cards are all different.

    ``board`` is (n, b) card codes, ``cards.DECK_SIZE`` marking a board slot
    not dealt yet; ``holes`` (n, seats, k) and ``seated`` (n, seats) as in
    :class:`Deals`, ``cards.DECK_SIZE`` past a seat's last card.
    """
    columns = [board[:, i] for i in range(board.shape[1])]
    for seat in range(seated.shape[1]):
        columns += [np.where(seated[:, seat], holes[:, seat, i], cards.DECK_SIZE)
                    for i in range(holes.shape[2])]
    return cards.all_distinct(columns)


def counts_text(counts: tuple[int, ...]) -> str:
    """The counts as a sentence says them.

    >>> counts_text((4, 5, 6))
    '4, 5 or 6'
    """
    return ", ".join(map(str, counts[:-1])) + " or " * (len(counts) > 1) + str(counts[-1])


def deal_problem(board: str | None, seats: list[str | None], *,
                 shape: Shape = HOLDEM) -> tuple[str | None, int]:
    """Why a written deal is not valid, and which field: 0 board, s seat s.

    ``shape`` says what a deal may hold (an unfinished board has 0, 3 or 4
    cards where its board sizes allow them).

    >>> deal_problem("Ah Kd 2c 3s Xh", ["As Ad", None])
    (None, -1)
    >>> deal_problem("Ah Kd 2c 3s Xh", ["Ah 2d"])
    ("p1 'Ah 2d': card Ah is dealt twice", 1)
    >>> deal_problem("Ah Kd 2c 3s", ["As Ad"])
    ("board 'Ah Kd 2c 3s': 4 cards, expected 5", 0)
    >>> deal_problem("Ah Kd", ["As Ad"], shape=HOLDEM.with_boards((0, 3, 4, 5)))
    ("board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5", 0)
    >>> deal_problem("Ah Kd 2c 3s 4h", ["10h10s"])[0]
    "p1 '10h10s': ten is written T or X, not 10, and cards are separated by spaces: 'Th Ts'"
    >>> deal_problem("Ah Kd 2c 3s 4h", ["QhQs"])[0]
    "p1 'QhQs': 1 cards, expected 2: cards are separated by spaces, like 'Ah Kd'"
    >>> omaha = Shape(hole_sizes=(4, 5, 6))
    >>> deal_problem("Ah Kd 2c 3s 4h", ["Qh Qs Jh Jd", "Th Ts 9h 9d 8c"], shape=omaha)[0]
    "p2 'Th Ts 9h 9d 8c': 5 cards, where p1 holds 4: every seat of a deal holds as many"
    >>> deal_problem("Ah Kd 2c 3s 4h", ["Qh Qs Jh Jd Tc Ts"] * 8, shape=omaha)[0]
    '8 players of 6 hole cards and a board of 5 take 53 cards, and the deck has 52'
    """
    held = [len((text or "").split()) for text in seats]
    dealt = len((board or "").split()) + sum(held)
    if dealt > len(shape.deck) and len(set(held) - {0}) == 1:
        return (f"{sum(map(bool, held))} players of {max(held)} hole cards and a board of "
                f"{len((board or '').split())} take {dealt} cards, and {shape.deck_name} has "
                f"{len(shape.deck)}"), -1
    seen: set[int] = set()
    fields = [("board", board, shape.board_sizes)] + [(f"p{s}", text, shape.hole_sizes)
                                                       for s, text in enumerate(seats, 1)]
    seated, first = 0, None  # first: the first seat's label and cards
    for index, (label, text, counts) in enumerate(fields):
        written = text or ""
        words = written.split()
        if index and not words:
            continue
        seated += index > 0
        if "10" in written:
            packed = "".join(written.replace("10", "T").split())
            meant = " ".join(packed[i:i + 2] for i in range(0, len(packed), 2)) if len(packed) % 2 == 0 \
                else "Th Ts"
            return (f"{label} {shown(written)}: {cards.TEN_HINT}, and cards are separated by spaces: "
                    f"{shown(meant)}"), index
        if len(words) not in counts:
            what = "empty" if not words else f"{len(words)} cards, expected {counts_text(counts)}"
            if any(len(word) > 2 for word in words):  # "AhKd": cards written together
                what += ": cards are separated by spaces, like 'Ah Kd'"
            return f"{label} {shown(written)}: {what}" if words else f"{label} is empty", index
        if index and first is not None and len(words) != first[1]:
            return (f"{label} {shown(written)}: {len(words)} cards, where {first[0]} holds {first[1]}: "
                    f"every seat of a deal holds as many"), index
        if index and first is None:
            first = (label, len(words))
        for word in words:
            try:
                code = cards.card_code(word)
            except ValueError:
                return (f"{label} {shown(written)}: unknown card {shown(word)} "
                        f"(ranks {cards.RANKS} or X, suits {cards.SUITS})"), index
            if not shape.in_deck[code]:
                return f"{label} {shown(written)}: card {word} is not in {shape.deck_name}", index
            if code in seen:
                return f"{label} {shown(written)}: card {word} is dealt twice", index
            seen.add(code)
    if not seated:
        return "no player: every seat is empty", -1
    return None, -1


#: The winners text of every bit mask of seats (bit s is seat s + 1), as the contest prints them.
WINNER_TEXTS = np.array([" ".join(str(s + 1) for s in range(MAX_PLAYERS) if mask >> s & 1)
                         for mask in range(1 << MAX_PLAYERS)], dtype=object)


def winners_text(masks: np.ndarray) -> NDArray[np.object_]:
    """Winners written as the contest prints them, from bit masks of seats.

    >>> winners_text(np.array([0b101, 0b1000000000])).tolist()
    ['1 3', '10']
    """
    texts: NDArray[np.object_] = WINNER_TEXTS[masks]
    return texts


def winner_masks(keys: np.ndarray, seated: np.ndarray) -> NDArray[np.uint16]:
    """Bit s set where seat s + 1 holds the best key of its deal (keys of 0 never win).

    ``keys`` is seat-major (seats, n), ``seated`` (n, seats).

    >>> winner_masks(np.array([[5, 0], [5, 0]]), np.array([[True, True], [True, True]])).tolist()
    [3, 0]
    """
    best = keys.max(axis=0, initial=0)
    masks = np.zeros(keys.shape[1], dtype=np.uint16)
    for seat in range(keys.shape[0]):
        winning = (keys[seat] == best) & seated[:, seat] & (best > 0)
        masks |= winning.astype(np.uint16) << np.uint16(seat)
    return masks


@cache
def winner_dictionary() -> pa.Array:
    """Every winners text, indexed by the winner bits: a dictionary of 1,024 values.

    Built on first use: a pyarrow conversion at import would import pandas.
    """
    return pa.array(WINNER_TEXTS.tolist(), pa.string())


def winner_column(masks: np.ndarray) -> pa.DictionaryArray:
    """The winners of each deal as a dictionary column of the contest's texts."""
    return pa.DictionaryArray.from_arrays(pa.array(masks.astype(np.int16)), winner_dictionary())


def first_hole_count(seats: list[pa.Array | pa.ChunkedArray], *, rows: int = 256) -> int | None:
    """The cards of the first seated hand among the first ``rows`` rows, row by row, seat by seat.

    What tells an Omaha deal (four to six cards a seat) from a hold'em one
    (two) where no game is named; None where those rows seat nobody.

    >>> first_hole_count([pa.array([None, "Ah Kd Qc Js"]), pa.array(["2c 3c 4c 5c", None])])
    4
    """
    texts = [column.slice(0, rows).to_pylist() for column in seats]
    for row in zip(*texts):
        for text in row:
            if isinstance(text, str) and text.split():
                return len(text.split())
    return None


def seats_of(columns: tuple[str, ...]) -> tuple[str, ...]:
    """The seat columns among ``columns``, in seat order.

    >>> seats_of(("board", "p3", "p1", "winners"))
    ('p1', 'p3')
    """
    return tuple(name for name in SEATS if name in columns)
