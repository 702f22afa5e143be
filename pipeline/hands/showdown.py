"""The showdowns of recorded hands as the hold'em game scores them: one deal row per scored hand.

Layer: hands (:mod:`pipeline.hands`); imports the other hands modules, the
board games' columns (:mod:`pipeline.games.deals`) and :mod:`pipeline.arrays`.

This module owns how a scored showdown becomes a deal row (:func:`deal_rows`),
for every format alike: the board, and in the column of each contesting
player's table seat (``p3`` is the seat the ``seats`` table numbers 3) its
hole cards, the others empty; the winners the record names
(``expected``, seats as the winners column writes them, where the audit
checked the record, else empty); the hand's key; and the name of the
player of every seat (``p3_player``), so that a winners row needs no join
to say who won.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import masked
from pipeline.games import deals
from pipeline.hands.audit import Audit
from pipeline.hands.record import NO_CARD, SLOTS, Record
from pipeline.hands.replay import Chips
from pipeline.hands.tables import Ending, cards_text, slot_cards

#: The player-name column of each seat of a winners row.
PLAYERS = tuple(f"{seat}_player" for seat in deals.SEATS)
#: A scored showdown whose record names nobody: its expected text.
NO_RECORDED_WINNER = "none"


def seat_masks(seats: NDArray[np.int8], chosen: NDArray[np.bool_]) -> NDArray[np.int64]:
    """(hands,) int64: a bit per chosen slot's seat number (bit 0 is seat 1), for ``deals.winners_text``.

    >>> seat_masks(np.array([[3, 1, 0]], np.int8), np.array([[True, True, False]])).tolist()
    [5]
    """
    bits = np.where(chosen & (seats > 0), np.left_shift(1, np.maximum(seats.astype(np.int64) - 1, 0)), 0)
    masks: NDArray[np.int64] = bits.sum(axis=1).astype(np.int64)
    return masks


def deal_rows(record: Record, chips: Chips, ending: Ending, checked_record: Audit,
              keys: NDArray[np.int64]) -> tuple[NDArray[np.intp], dict[str, pa.Array]]:
    """The deal rows of the scored hands of a group, in row order.

    Parameters
    ----------
    record, chips, ending, checked_record : Record, Chips, Ending, Audit
        A group of hands, its replay, its outcomes and its audit.
    keys : ndarray of shape (hands,), dtype int64
        The ``hand_key`` of each hand.

    Returns
    -------
    rows : ndarray of shape (scored,), dtype intp
        The hands scored.
    columns : dict of str to pyarrow.Array
        ``board``, ``p1`` ... ``p10``, ``expected`` (:data:`deals.EXPECTED_COLUMN`),
        ``hand_key``, ``game`` (what the hand is scored as) and :data:`PLAYERS`, a value
        per scored hand.
    """
    rows = np.flatnonzero(ending.scored)
    seats = record.seat[rows].astype(np.int64)
    columns: dict[str, pa.Array] = {deals.BOARD_COLUMN: cards_text(record.board[rows])}
    # The slot of each table seat: seat numbers past the columns' are never a slot's.
    slot_of = np.full((len(rows), SLOTS + 1), -1, dtype=np.int64)
    hands, slots = np.nonzero((seats > 0) & (seats <= SLOTS))
    slot_of[hands, seats[hands, slots]] = slots
    # Every seat's column at once, seat after seat, each a slice: the cards and the names of ten
    # columns in one pass each, not ten passes over a few rows.
    scored, seat_count = len(rows), len(deals.SEATS)
    slot = slot_of[:, 1:seat_count + 1].T.reshape(-1)  # (seats * scored,): seat-major
    here = slot >= 0
    place = np.tile(rows * SLOTS, seat_count) + np.maximum(slot, 0)
    held = here & chips.contesting.reshape(-1)[place]
    cards = cards_text(np.where(held[:, None], slot_cards(record.holes, place), NO_CARD).astype(np.uint8))
    for index, column in enumerate(deals.SEATS):
        columns[column] = cards.slice(index * scored, scored)
    checked = checked_record.checked(ending)[rows]
    masks = seat_masks(record.seat[rows], checked_record.winners[rows])
    expected = np.where(checked, np.where(masks > 0, deals.winners_text(masks), NO_RECORDED_WINNER), "")
    columns[deals.EXPECTED_COLUMN] = pa.array(expected.tolist(), pa.string())
    columns["hand_key"] = pa.array(keys[rows], pa.int64())
    columns["game"] = pc.cast(record.hand["game"], pa.string()).take(pa.array(rows, pa.int64()))
    names = record.player.take(masked(place, pa.int64(), ~here)).cast(pa.string())
    for index, column in enumerate(PLAYERS):
        columns[column] = names.slice(index * scored, scored)
    return rows, columns
