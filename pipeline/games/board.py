"""What every game of a board and hole cards does alike: the :class:`BoardGame` behind the interface.

Layer: games (:mod:`pipeline.games`); imports the game interface
(:mod:`pipeline.games.base`), the deals (:mod:`pipeline.games.deals`),
:mod:`pipeline.games.tally`, card notation and the foundation modules,
nothing above.

This module owns the part of hold'em, Omaha and short-deck that is one
logic: a batch of ``board,p1..p10`` text parsed by the game's
:class:`~pipeline.games.deals.Shape`, the winners of every deal, the result
columns (``winners``, ``winner_count``, ``winning_category``,
``winning_key``, ``pN_category``, ``pN_key``), the tally, and the dealing of
``generate`` (a board of five, then each seat's hole cards, from the game's
deck).  A game says only what differs (:meth:`BoardGame.seat_keys`, its
categories, the best five and their descriptions, extra columns such as a
hi-lo game's low half); each game is still one module of its own.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import InputError, UsageError
from pipeline.games import base
from pipeline.games.deals import (
    BOARD_COLUMN,
    EXPECTED_COLUMN,
    MAX_PLAYERS,
    SEATS,
    WINNER_TEXTS,
    Deals,
    Shape,
    counts_text,
    parse_deals,
    seats_of,
    winner_column,
    winner_masks,
)
from pipeline.games.tally import Tally
from pipeline.poker import notation
from pipeline.poker.holdem import BEST_OF
from pipeline.text import string_column


class BoardGame(base.Game):
    """A game of a shared board of five and hole cards: ``board,p1..p10[,winners]`` in, winners out.

    Subclasses set :attr:`shape` and the interface's names and categories,
    and implement :meth:`seat_keys`, :meth:`key_categories` and
    :meth:`best_columns`; a game that splits its pot (hi-lo) also
    overrides :meth:`receivers`; :meth:`pot_keys` stays each game's own.

    Parameters
    ----------
    hole_cards : int, optional
        The hole cards ``generate`` deals each seat, one of the shape's
        sizes; its smallest by default.  Scoring reads any of the sizes.
    """

    shape: ClassVar[Shape]
    expected_column = EXPECTED_COLUMN
    row_noun = "deals"
    required_columns = (BOARD_COLUMN,)
    columns_hint = f"{BOARD_COLUMN},p1,...,p{MAX_PLAYERS}"
    max_players = MAX_PLAYERS

    def __init__(self, *, hole_cards: int | None = None) -> None:
        sizes = self.shape.hole_sizes
        if hole_cards is None:
            hole_cards = sizes[0]
        if hole_cards not in sizes:
            raise UsageError(f"{self.title} deals {counts_text(sizes)} hole cards, "
                             f"not {hole_cards!r}")
        self.hole_cards = hole_cards

    def holds(self, hole_cards: int) -> bool:
        return hole_cards in self.shape.hole_sizes

    def dealing(self, hole_cards: int | None) -> BoardGame:
        if hole_cards is None or hole_cards == self.hole_cards:
            return self
        return type(self)(hole_cards=hole_cards)

    @abstractmethod
    def seat_keys(self, deals: Deals) -> NDArray[np.int16]:
        """The key of every seat of valid deals, seat-major (seats, n); any value at an empty seat."""

    @abstractmethod
    def key_categories(self, keys: NDArray[np.int16]) -> NDArray[np.int8]:
        """The category code of each key, an index into :attr:`categories` (any shape)."""

    @abstractmethod
    def best_columns(self, deals: Deals, keys: NDArray[np.int16],
                     seats: tuple[str, ...]) -> list[dict[str, pa.Array]]:
        """The ``pN_best`` and ``pN_hand`` columns of every seat, for ``--best-five``.

        ``keys`` is seat-major (seats, n), 0 at an empty seat.
        """

    def receivers(self, deals: Deals, keys: NDArray[np.int16], high: NDArray[np.uint16]
                  ) -> tuple[NDArray[np.uint16], dict[str, pa.Array], list[dict[str, pa.Array]]]:
        """The seats that receive chips (bit masks), and the columns that say why beyond the high hand's.

        Returns the masks, the deal's columns (placed after ``winners``) and
        each seat's (after its key).  A game of one pot to the best hand
        gives the high winners and no columns.
        """
        return high, {}, []

    def prepare(self) -> None:
        # One deal of the shortest hole cards, all of one suit (a flush), builds every table a
        # deal's keys use, the flush tables included.
        deck = self.deck()
        dealt = deck[deck % 4 == 0][:BEST_OF + self.shape.hole_sizes[0]]
        holes = dealt[BEST_OF:][None, None]
        parsed = Deals(dealt[None, :BEST_OF], holes, np.ones((1, 1), bool), np.full(1, None, object),
                       np.full(1, -1, np.int8), np.array([holes.shape[2]], np.int8))
        self.seat_keys(parsed)

    def known_columns(self) -> tuple[str, ...]:
        return (BOARD_COLUMN, *SEATS, EXPECTED_COLUMN)

    def input_columns(self, columns: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
        for label, names in columns.items():
            if BOARD_COLUMN not in names or not seats_of(names):
                raise InputError(f"{label}: {_article(self.title)} {self.title} archive needs a board column "
                                 f"and player columns p1..p{MAX_PLAYERS}")
        # Up to the highest seat any input has: p1,p3 is seats 1 to 3, seat 2 empty.
        last = max(SEATS.index(seats_of(names)[-1]) for names in columns.values())
        return (BOARD_COLUMN, *SEATS[:last + 1])

    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> base.Scored:
        """Score a batch of deals given as board and p1..pK text columns.

        ``best_five`` adds each seat's best five cards and their description.
        """
        seats = seats_of(columns)
        deals = parse_deals(table.column(BOARD_COLUMN), [table.column(name) for name in seats],
                            shape=self.shape)
        ok = deals.reasons == None  # noqa: E711
        valid = deals if ok.all() else deals.take(ok)
        # Seat-major keys: every step below runs down whole contiguous rows
        # instead of reducing across a short axis, which numpy does slowly.
        keys = self.seat_keys(valid)
        seated = valid.seated.T
        keys[~seated] = 0
        high = winner_masks(keys, valid.seated)
        masks, extra, per_seat = self.receivers(valid, keys, high)
        categories = np.where(seated, self.key_categories(keys), -1)
        best = keys.max(axis=0, initial=0)
        best_category = self.key_categories(best)
        winner_count = np.bitwise_count(masks).astype(np.int8)
        results: dict[str, pa.Array] = {
            EXPECTED_COLUMN: winner_column(masks),
            **extra,
            "winner_count": pa.array(winner_count),
            "winning_category": base.category_column(best_category, self.categories),
            "winning_key": pa.array(best),
        }
        described = self.best_columns(valid, keys, seats) if best_five else []
        for seat, name in enumerate(seats):
            present = seated[seat]
            results[f"{name}_category"] = base.category_column(np.maximum(categories[seat], 0),
                                                                self.categories, present=present)
            results[f"{name}_key"] = pa.array(keys[seat], mask=~present)
            if per_seat:
                results.update(per_seat[seat])
            if best_five:
                results.update(described[seat])
        shifts = np.arange(len(seats), dtype=np.uint16)[:, None]
        # The tally counts the high hands: the categories are the high hand's.
        winning_high = (high >> shifts) & 1 == 1
        tally = Tally.of_deals(self.categories, categories, winning_high, winning_category=best_category)
        receiving = (masks >> shifts) & 1 == 1
        counts = {f"{name}_wins": int(receiving[seat].sum()) for seat, name in enumerate(seats)}
        counts["split_pots"] = int((winner_count > 1).sum())
        return base.Scored(pa.table(results), ok, deals.reasons, tally, masks, WINNER_TEXTS, counts,
                           deals.fields)

    def deck(self) -> NDArray[np.uint8]:
        return np.array(self.shape.deck, dtype=np.uint8)

    def deal_columns(self, players: int) -> tuple[str, ...]:
        return (BOARD_COLUMN, *SEATS[:players])

    def cards_per_row(self, players: int) -> int:
        dealt = BEST_OF + self.hole_cards * players
        if dealt > len(self.shape.deck):
            most = (len(self.shape.deck) - BEST_OF) // self.hole_cards
            raise UsageError(f"{self.title} with {self.hole_cards} hole cards deals at most {most} players "
                             f"from {self.shape.deck_name}, not {players}")
        return dealt

    def text_width(self, players: int) -> int:
        return notation.text_width(max(BEST_OF, self.hole_cards))

    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        n = dealt.shape[1]
        columns = []
        for first, size in [(0, BEST_OF)] + [(start, self.hole_cards)
                                             for start in range(BEST_OF, len(dealt), self.hole_cards)]:
            text = np.empty((n, notation.text_width(size)), dtype=np.uint8)
            notation.put_cards(text, 0, dealt[first:first + size], notation.CARD_BYTES, None)
            columns.append(string_column(text))
        return pa.RecordBatch.from_arrays(columns, schema=schema)


def _article(word: str) -> str:
    """>>> _article("Omaha"), _article("hold'em")
    ('an', 'a')
    """
    return "an" if word[:1].lower() in "aeiou" else "a"
