"""Texas Hold'em as a game: deals written as text in, winners out.

Layer: games (:mod:`pipeline.games`); imports the game interface
(:mod:`pipeline.games.base`), :mod:`pipeline.games.tally` and pure
evaluation (:mod:`pipeline.poker`), nothing above.

This module owns the hold'em game: its columns (``board``, ``p1`` ...
``p10``, ``winners``), the parsing of deals written as text with a reason
for every deal it refuses (a finished board of five cards, or any of the
sizes a board shows on its way, :data:`BOARD_SIZES`), the winners of a
deal, the contest's winners and the :class:`Holdem` game behind the
interface.  The keys of hands are :mod:`pipeline.poker.holdem`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask
from pipeline.errors import InputError, UsageError
from pipeline.games import base
from pipeline.games.tally import MAX_SEATS, Tally
from pipeline.poker import cards, describe, exact, notation
from pipeline.poker.holdem import BEST_OF, CATEGORIES, deal_keys, key_categories
from pipeline.text import shown, string_column, text_lengths

MAX_PLAYERS = MAX_SEATS  # the statement's limit, 1 to 10
HOLE_SIZE = 2
HOLE_TEXT_WIDTH = notation.text_width(HOLE_SIZE)  # "Ah Kd"
#: Cards a board shows on its way: preflop, flop, turn and river.
BOARD_SIZES = (0, 3, 4, BEST_OF)


@dataclass
class Deals:
    """Parsed deals, one row per deal.

    Attributes
    ----------
    board : ndarray of shape (n, 5), dtype uint8
        Card codes of the community cards; ``cards.DECK_SIZE`` past the
        last card of an unfinished board.
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

    @property
    def board_size(self) -> NDArray[np.intp]:
        """Cards on each board: ndarray of shape (n,), dtype intp; 0, 3, 4 or 5 for a valid deal."""
        size: NDArray[np.intp] = np.count_nonzero(self.board != cards.DECK_SIZE, axis=1)
        return size


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


def parse_deals(board: pa.Array | pa.ChunkedArray, seats: list[pa.Array], *,
                board_sizes: tuple[int, ...] = (BEST_OF,)) -> Deals:
    """Parse deals written as text: a board and up to ten seats.

    Parameters
    ----------
    board : pyarrow string array of length n
        Cards separated by spaces, e.g. ``"Ah Kd 2c 3s Xh"``; null or empty
        for a board of no cards.
    seats : list of pyarrow string arrays of length n
        Two cards separated by a space per seat, null or empty for an empty
        seat; seat s + 1 is ``seats[s]``.
    board_sizes : tuple of int
        The numbers of board cards a deal may show, among :data:`BOARD_SIZES`:
        five by default, ``BOARD_SIZES`` for unfinished boards too.

    Returns
    -------
    Deals
        Codes for every deal and, for each invalid one, why.

    Examples
    --------
    >>> deals = parse_deals(pa.array(["Ah Kd 2c", "", "Ah Kd"]), [pa.array(["As Ad"] * 3)],
    ...                     board_sizes=BOARD_SIZES)
    >>> deals.board_size.tolist()[:2], deals.reasons.tolist()
    ([3, 0], [None, None, "board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5"])
    """
    n = len(board)
    board_codes, board_known = parse_boards(board, board_sizes)
    holes, seated, ok = parse_seats(seats, n)
    ok &= board_known & all_distinct(board_codes, holes, seated)
    reasons = np.full(n, None, dtype=object)
    fields = np.full(n, -1, dtype=np.int8)
    if not ok.all():
        board_text = board.to_pylist()
        seat_text = [column.to_pylist() for column in seats]
        for row in np.flatnonzero(~ok):
            reasons[row], fields[row] = deal_problem(
                board_text[row], [text[row] for text in seat_text], board_sizes=board_sizes)
            if reasons[row] is None:  # never score a row the parse refused
                reasons[row] = "cards not understood"
    return Deals(board_codes, holes, seated, reasons, fields)


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
    n = len(board)
    tidy = pc.fill_null(board, "")
    # Only the rows with stray, doubled or other whitespace are rewritten: the others (nearly all)
    # are read as they are, without a copy of the whole column made by the regular expression.
    untidy = ~as_mask(pc.match_substring_regex(tidy, _TIDY))
    if untidy.any():
        rows = pa.array(np.flatnonzero(untidy), pa.int64())
        fixed = pc.replace_substring_regex(pc.utf8_trim_whitespace(tidy.take(rows)), notation.WHITESPACE, " ")
        if isinstance(fixed, pa.ChunkedArray):  # few rows: one array of them
            fixed = fixed.combine_chunks()
        tidy = pc.replace_with_mask(tidy, pa.array(untidy), fixed.cast(tidy.type))
    lengths = text_lengths(tidy)
    # k cards take 3k - 1 characters; any other length is no number of cards.
    size = np.where(lengths % 3 == 2, (lengths + 1) // 3, np.where(lengths == 0, 0, -1))
    known = np.isin(size, board_sizes)
    codes = np.full((n, BEST_OF), cards.DECK_SIZE, dtype=np.uint8)
    for count in board_sizes:
        rows = np.flatnonzero(known & (size == count))
        if count and rows.size:
            parsed, _, parsed_known = notation.card_matrix(tidy.take(pa.array(rows)), count)
            codes[rows, :count] = parsed
            known[rows] &= parsed_known
    return codes, known


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
        codes, _, known = notation.card_matrix(column, 2)
        hole_storage[seat] = codes.T
        ok &= known | ~seated[:, seat]
    has_player = np.zeros(n, dtype=bool)
    for seat in range(len(seats)):  # not seated.any(axis=1): slow across a short axis
        has_player |= seated[:, seat]
    return holes, seated, ok & has_player


def all_distinct(board: np.ndarray, holes: np.ndarray, seated: np.ndarray) -> NDArray[np.bool_]:
    """True for each deal whose cards are all different.

    ``board`` is (n, b) card codes, ``cards.DECK_SIZE`` marking a board slot
    not dealt yet; ``holes`` (n, seats, 2) and ``seated`` (n, seats) as in
    :class:`Deals`.
    """
    columns = [board[:, i] for i in range(board.shape[1])]
    for seat in range(seated.shape[1]):
        columns += [np.where(seated[:, seat], holes[:, seat, i], cards.DECK_SIZE) for i in range(HOLE_SIZE)]
    return cards.all_distinct(columns)


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
    >>> deal_problem("Ah Kd 2c 3s 4h", ["10h10s"])[0]
    "p1 '10h10s': ten is written T or X, not 10, and cards are separated by spaces: 'Th Ts'"
    >>> deal_problem("Ah Kd 2c 3s 4h", ["QhQs"])[0]
    "p1 'QhQs': 1 cards, expected 2: cards are separated by spaces, like 'Ah Kd'"
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
        if "10" in written:
            packed = "".join(written.replace("10", "T").split())
            meant = " ".join(packed[i:i + 2] for i in range(0, len(packed), 2)) if len(packed) % 2 == 0 \
                else "Th Ts"
            return (f"{label} {shown(written)}: {cards.TEN_HINT}, and cards are separated by spaces: "
                    f"{shown(meant)}"), index
        if len(words) not in counts:
            expected = ", ".join(map(str, counts[:-1])) + " or " * (len(counts) > 1) + str(counts[-1])
            what = "empty" if not words else f"{len(words)} cards, expected {expected}"
            if any(len(word) > 2 for word in words):  # "AhKd": cards written together
                what += ": cards are separated by spaces, like 'Ah Kd'"
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
_NEWLINE = ord("\n")
#: A board written tidily: cards (or none) separated by single spaces, nothing around them.
_TIDY = r"^(?:\S+(?: \S+)*)?$"


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


class Holdem(base.Game):
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

    def prepare(self) -> None:
        # One deal with a flush builds every table a deal's keys use.
        deal_keys(np.array([[0, 4, 8, 12, 20]]), np.array([[[24, 28]]]))

    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> base.Scored:
        """Score a batch of deals given as board and p1..pK text columns.

        ``best_five`` adds each seat's best five cards and their description.
        """
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
            "winning_category": base.category_column(best_category, self.categories),
            "winning_key": pa.array(best),
        }
        described = describe.deal_columns(valid.board, valid.holes, keys, valid.seated, seats) \
            if best_five else []
        for seat, name in enumerate(seats):
            present = seated[seat]
            results[f"{name}_category"] = base.category_column(np.maximum(categories[seat], 0),
                                                                self.categories, present=present)
            results[f"{name}_key"] = pa.array(keys_by_seat[seat], mask=~present)
            if best_five:
                results.update(described[seat])
        winning = (masks >> np.arange(len(seats), dtype=np.uint16)[:, None]) & 1 == 1
        tally = Tally.of_deals(self.categories, categories, winning, winning_category=best_category)
        counts = {f"{name}_wins": int(winning[seat].sum()) for seat, name in enumerate(seats)}
        counts["split_pots"] = int((winner_count > 1).sum())
        return base.Scored(pa.table(results), ok, deals.reasons, tally, masks, _WINNER_TEXT, counts,
                            deals.fields)

    def pot_keys(self, board: NDArray[np.uint8], holes: NDArray[np.uint8]) -> NDArray[np.int64]:
        # One part, the best five of seven: deal_keys is seat-major, the parts are deal-major.
        keys: NDArray[np.int64] = deal_keys(board, holes).T[None].astype(np.int64)
        return keys

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        return exact.holdem_counts(cards or self.hand_cards)

    def deal_columns(self, players: int) -> tuple[str, ...]:
        return (BOARD_COLUMN, *SEATS[:players])

    def cards_per_row(self, players: int) -> int:
        return BEST_OF + HOLE_SIZE * players

    def text_width(self, players: int) -> int:
        return 3 * BEST_OF - 1

    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        n = dealt.shape[1]
        board = np.empty((n, 3 * BEST_OF - 1), dtype=np.uint8)
        notation.put_cards(board, 0, dealt[:BEST_OF], notation.CARD_BYTES, None)
        columns = [string_column(board)]
        for first in range(BEST_OF, len(dealt), HOLE_SIZE):
            hole = np.empty((n, 3 * HOLE_SIZE - 1), dtype=np.uint8)
            notation.put_cards(hole, 0, dealt[first:first + HOLE_SIZE], notation.CARD_BYTES, None)
            columns.append(string_column(hole))
        return pa.RecordBatch.from_arrays(columns, schema=schema)

    def contest_bytes(self, dealt: np.ndarray) -> np.ndarray:
        """The contest-file text of dealt cards (cards, n), one fixed-width row of bytes per instance."""
        players = (len(dealt) - BEST_OF) // HOLE_SIZE
        header = np.frombuffer(f"{players}\n".encode("ascii"), np.uint8)
        board_width, hole_width = 3 * BEST_OF, 3 * HOLE_SIZE
        matrix = np.empty((dealt.shape[1], len(header) + board_width + players * hole_width), np.uint8)
        matrix[:, :len(header)] = header
        notation.put_cards(matrix, len(header), dealt[:BEST_OF], notation.CONTEST_CARD_BYTES, _NEWLINE)
        for p in range(players):
            first = BEST_OF + HOLE_SIZE * p
            notation.put_cards(matrix, len(header) + board_width + p * hole_width,
                      dealt[first:first + HOLE_SIZE], notation.CONTEST_CARD_BYTES, _NEWLINE)
        return matrix


def contest_winners(table: pa.Table, instances: np.ndarray, lines: np.ndarray, *,
                    name: str) -> tuple[list[str], str | None]:
    """Winners of contest instances, in order, up to the first broken one, and why it is broken.

    Parameters
    ----------
    table : pyarrow.Table
        Instances as :func:`pipeline.formats.contest_files.contest_batches` reads them.
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


GAME = Holdem()
