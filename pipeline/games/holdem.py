"""Texas Hold'em as a game: deals written as text in, winners out.

Layer: games (:mod:`pipeline.games`); imports the game interface
(:mod:`pipeline.games.base`), the deals (:mod:`pipeline.games.deals`),
:mod:`pipeline.games.tally` and pure
evaluation (:mod:`pipeline.poker`), nothing above.

This module owns the hold'em game: the winners of a deal, the contest's
winners and the :class:`Holdem` game behind the interface.  Its deals are
read as every board game's are (:mod:`pipeline.games.deals`: the columns,
the parsing with a reason for every deal refused); the keys of hands are
:mod:`pipeline.poker.holdem`'s.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import InputError
from pipeline.games import base
from pipeline.games.deals import (
    BOARD_COLUMN,
    EXPECTED_COLUMN,
    MAX_PLAYERS,
    SEATS,
    WINNER_TEXTS,
    Deals,
    parse_deals,
    seats_of,
    winner_column,
    winner_masks,
    winners_text,
)
from pipeline.games.tally import Tally
from pipeline.poker import describe, exact, notation
from pipeline.poker.holdem import BEST_OF, CATEGORIES, deal_keys, key_categories
from pipeline.text import string_column

HOLE_SIZE = 2
_NEWLINE = ord("\n")


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
    # Seat-major keys: every step below runs down whole contiguous rows
    # instead of reducing across a short axis, which numpy does slowly.
    by_seat = deal_keys(deals.board, deals.holes)
    by_seat[~deals.seated.T] = 0
    return by_seat.T, winner_masks(by_seat, deals.seated)


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
            EXPECTED_COLUMN: winner_column(masks),
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
        return base.Scored(pa.table(results), ok, deals.reasons, tally, masks, WINNER_TEXTS, counts,
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
