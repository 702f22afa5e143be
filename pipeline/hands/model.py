"""The hand tables: what a recorded hand is, whatever format wrote it, as three typed Arrow tables.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.positions`,
:mod:`pipeline.arrays` and pyarrow only.

This module owns the vocabulary of a recorded hand (:class:`Street`,
:class:`Action`, :class:`Outcome`, :class:`Betting`) and the schemas of the
three tables every hand-history format reads its text into:

- :data:`HANDS`: one row per hand read, every hand, rejected ones with
  their reason;
- :data:`SEATS`: one row per player dealt into a hand;
- :data:`ACTIONS`: one row per action, in order.

They join on ``hand_key`` (:func:`hand_key`), an integer unique in a run
that is known without reading the inputs before the hand's own: its
input's place in the run and its number in the input.  The types are
fixed whatever the input, so that pandas, polars and DuckDB read them as
what they are: dictionary-encoded text for names, sites and vocabularies
(the vocabularies ordered as listed here), small integers for seats and
indexes, timestamps in UTC, floats for chips, nullable where unknown.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import masked
from pipeline.hands.positions import POSITIONS


class Street(StrEnum):
    """A betting round, in order."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


class Action(StrEnum):
    """What an action row records: the forced bets, the decisions, and what is done with the cards."""

    POST_ANTE = "post ante"
    POST_SMALL_BLIND = "post small blind"
    POST_BIG_BLIND = "post big blind"
    POST_STRADDLE = "post straddle"
    POST = "post"  # a live entry post: it counts toward the player's bet, as a big blind does
    POST_DEAD = "post dead"  # dead money: it does not
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    SHOW = "show"
    MUCK = "muck"


class Outcome(StrEnum):
    """How a hand read ends: every hand in exactly one of these."""

    SCORED = "scored"
    NO_SHOWDOWN = "no showdown"
    UNKNOWN_CARDS = "unknown cards"
    SET_APART = "set apart"
    REJECTED = "rejected"


class Apart(StrEnum):
    """Why a valid hand is set apart rather than scored: the reason texts of every format."""

    RUN_TWICE = "run twice"  # the board was dealt again: not one board to score
    CANCELLED = "cancelled"  # the site cancelled the hand
    DUPLICATE = "duplicate"  # the same site and hand id as a hand read before it (pipeline.hands.duplicates)


class Betting(StrEnum):
    """The betting structure of a game."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


def _text() -> pa.DataType:
    """Text that repeats (names, sites, tables): dictionary-encoded."""
    return pa.dictionary(pa.int32(), pa.string())


def _vocabulary() -> pa.DataType:
    """A small closed vocabulary, ordered as its enum lists it."""
    return pa.dictionary(pa.int8(), pa.string(), ordered=True)


CHIPS = pa.float64()
SEAT = pa.int8()
#: The timestamp of a hand: UTC where the record's zone is known (the zone as written beside it).
TIME = pa.timestamp("us", tz="UTC")

HANDS = pa.schema([
    ("hand_key", pa.int64()), ("hand_id", pa.string()), ("table_key", pa.string()),
    ("source", _text()), ("site", _text()),
    ("table", _text()), ("time", TIME), ("time_zone", _text()),
    ("game", _vocabulary()), ("betting", _vocabulary()), ("variant", _text()),
    ("currency", _text()), ("small_blind", CHIPS), ("big_blind", CHIPS), ("ante", CHIPS),
    ("tournament_id", pa.string()), ("buy_in", CHIPS), ("level", pa.int16()),
    ("max_seats", SEAT), ("players", SEAT), ("button_seat", SEAT),
    ("board", pa.string()), ("pot", CHIPS), ("rake", CHIPS),
    ("outcome", _vocabulary()), ("reason", pa.string()),
])
SEATS = pa.schema([
    ("hand_key", pa.int64()), ("hand_id", pa.string()), ("seat", SEAT), ("player", _text()),
    ("position", _vocabulary()),
    ("starting_stack", CHIPS), ("contributed", CHIPS), ("received", CHIPS), ("net", CHIPS),
    ("hole_cards", pa.string()),
    ("folded_street", _vocabulary()), ("all_in_street", _vocabulary()),
    ("showed", pa.bool_()), ("mucked", pa.bool_()), ("at_showdown", pa.bool_()), ("won", pa.bool_()),
])
ACTIONS = pa.schema([
    ("hand_key", pa.int64()), ("hand_id", pa.string()), ("index", pa.int16()),
    ("street", _vocabulary()), ("seat", SEAT), ("player", _text()),
    ("action", _vocabulary()), ("amount", CHIPS), ("to", CHIPS), ("all_in", pa.bool_()),
    ("pot_before", CHIPS),
])
#: The three tables by the name of their file.
TABLES = {"hands": HANDS, "seats": SEATS, "actions": ACTIONS}
#: The values of each vocabulary column, in their order.
VOCABULARIES: dict[str, tuple[str, ...]] = {
    # The games a hand history may hold, as the registry names them.
    "game": ("holdem", "omaha", "omaha-hilo", "shortdeck", "shortdeck-trips"),
    "betting": tuple(Betting),
    "outcome": tuple(Outcome),
    "position": tuple(POSITIONS),
    "street": tuple(Street),
    "folded_street": tuple(Street),
    "all_in_street": tuple(Street),
    "action": tuple(Action),
}

#: Bits of ``hand_key`` that number the hands of one input: 2^32 hands per input is room enough.
_HAND_BITS = 32


def hand_key(source: int | NDArray[np.integer], number: int | NDArray[np.integer]) -> NDArray[np.int64]:
    """The key of a hand: its input's place in the run (from 0) and its number in the input (from 1).

    Known as soon as the hand is read, without the inputs before it: the
    tables of every input can be written at once and still join.

    >>> hand_key(0, 1).tolist(), hand_key(np.array([2, 2]), np.array([1, 7])).tolist()
    (1, [8589934593, 8589934599])
    """
    places = np.asarray(source, dtype=np.int64)
    numbers = np.asarray(number, dtype=np.int64)
    if (places < 0).any() or (numbers < 1).any() or (numbers >= 1 << _HAND_BITS).any():
        raise ValueError(f"an input's place is 0 or more and a hand's number 1 to {(1 << _HAND_BITS) - 1}")
    keys: NDArray[np.int64] = (places << _HAND_BITS) | numbers
    return keys


def hand_place(key: NDArray[np.int64]) -> NDArray[np.int64]:
    """The input's place of each hand :func:`hand_key` gives ``key``.

    >>> hand_place(hand_key(np.array([0, 2]), np.array([5, 7]))).tolist()
    [0, 2]
    """
    places: NDArray[np.int64] = np.asarray(key, dtype=np.int64) >> _HAND_BITS
    return places


def vocabulary_column(name: str, codes: NDArray[np.integer], *,
                      present: NDArray[np.bool_] | None = None) -> pa.DictionaryArray:
    """A vocabulary column (``VOCABULARIES[name]``) from the codes of its values; null where not ``present``.

    >>> vocabulary_column("street", np.array([0, 3])).to_pylist()
    ['preflop', 'river']
    """
    mask = None if present is None else ~np.asarray(present)
    return pa.DictionaryArray.from_arrays(masked(np.asarray(codes, dtype=np.int8), pa.int8(), mask),
                                          pa.array(list(VOCABULARIES[name]), pa.string()), ordered=True)


def vocabulary_codes(column: pa.Array | pa.ChunkedArray, name: str) -> NDArray[np.int64]:
    """The code of each value of a vocabulary column (its index in ``VOCABULARIES[name]``), -1 for null.

    Read by value, not by the column's own dictionary, which a file read back may hold in
    another order.

    >>> vocabulary_codes(pa.array(["flop", None, "preflop"]), "street").tolist()
    [1, -1, 0]
    """
    vocabulary = pa.array(list(VOCABULARIES[name]))
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
    if pa.types.is_dictionary(column.type):  # each distinct value looked up once, not each row
        known = pc.fill_null(pc.index_in(pc.cast(column.dictionary, pa.string()), value_set=vocabulary), -1)
        found = np.asarray(known.to_numpy(zero_copy_only=False), dtype=np.int64)
        indices = column.indices.to_numpy(zero_copy_only=False)
        valid = np.asarray(column.is_valid().to_numpy(zero_copy_only=False))
        return np.where(valid, found[np.where(valid, indices, 0).astype(np.int64)] if len(found) else -1, -1)
    found = pc.index_in(pc.cast(column, pa.string()), value_set=vocabulary)
    return np.asarray(pc.fill_null(found, -1).to_numpy(zero_copy_only=False), dtype=np.int64)


def board_card_count(board: pa.Array | pa.ChunkedArray) -> NDArray[np.int64]:
    """Cards of each board as the ``board`` column writes it (``"7d 5h 9d"``: 3), 0 for none.

    >>> board_card_count(pa.array(["7d 5h 9d", None, "2c 7d 9h Js 3s"])).tolist()
    [3, 0, 5]
    """
    letters = pc.utf8_length(pc.replace_substring(pc.fill_null(board, ""), " ", ""))
    counts: NDArray[np.int64] = np.asarray(letters.to_numpy(zero_copy_only=False), dtype=np.int64) // 2
    return counts
