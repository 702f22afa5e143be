"""Texas Hold'em as a game: deals written as text in, winners out.

Layer: games (:mod:`pipeline.games`); imports the board games' part
(:mod:`pipeline.games.board`), the deals (:mod:`pipeline.games.deals`) and
pure evaluation (:mod:`pipeline.poker`), nothing above.

This module owns the hold'em game: the winners of a deal, the contest's
winners and the :class:`Holdem` game behind the interface.  Its deals are
read and scored as every board game's are (:mod:`pipeline.games.board`,
:mod:`pipeline.games.deals`: the columns, the parsing with a reason for
every deal refused); the keys of hands are :mod:`pipeline.poker.holdem`'s.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.games.board import BoardGame
from pipeline.games.deals import (
    BOARD_COLUMN,
    HOLDEM,
    SEATS,
    Deals,
    parse_deals,
    winner_masks,
    winners_text,
)
from pipeline.poker import describe, exact, notation
from pipeline.poker.holdem import BEST_OF, CATEGORIES, deal_keys, key_categories

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


class Holdem(BoardGame):
    """Texas hold'em behind the game interface: ``board,p1..p10[,winners]`` in, winners out."""

    name = "holdem"
    title = "hold'em"
    shape = HOLDEM
    categories = tuple(str(category) for category in CATEGORIES)
    hand_cards = 7
    exact_hand_sizes = (BEST_OF, 7)
    writes_contest = True

    def seat_keys(self, deals: Deals) -> NDArray[np.int16]:
        keys: NDArray[np.int16] = deal_keys(deals.board, deals.holes)
        return keys

    def key_categories(self, keys: NDArray[np.int16]) -> NDArray[np.int8]:
        return key_categories(keys)

    def best_columns(self, deals: Deals, keys: NDArray[np.int16],
                     seats: tuple[str, ...]) -> list[dict[str, pa.Array]]:
        return describe.deal_columns(deals.board, deals.holes, keys.T, deals.seated, seats)

    def pot_keys(self, board: NDArray[np.uint8], holes: NDArray[np.uint8]) -> NDArray[np.int64]:
        # One part, the best five of seven: deal_keys is seat-major, the parts are deal-major.
        keys: NDArray[np.int64] = deal_keys(board, holes).T[None].astype(np.int64)
        return keys

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        return exact.holdem_counts(cards or self.hand_cards)

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
