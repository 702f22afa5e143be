"""Omaha and Omaha hi-lo as games: deals of four to six hole cards written as text in, winners out.

Layer: games (:mod:`pipeline.games`); imports the board games' part
(:mod:`pipeline.games.board`), the deals (:mod:`pipeline.games.deals`) and
pure evaluation (:mod:`pipeline.poker`), nothing above.

This module owns two games behind the interface:

* :class:`Omaha` (``omaha``): pot-limit Omaha and its five- and six-card
  forms (PLO, PLO5, PLO6).  A seat holds 4, 5 or 6 hole cards, every seat of
  a deal as many, and its hand is exactly two of them with exactly three of
  the board's five; the best high hand takes the pot.
* :class:`OmahaHiLo` (``omaha-hilo``): eight-or-better.  The high half as in
  Omaha; the low half to the best five distinct ranks of eight or lower (the
  ace low, straights and flushes ignored), again two hole cards and three
  board cards.  With no qualifying low the high takes the whole pot.  Its
  ``winners`` are every seat that receives chips; ``winners_high`` and
  ``winners_low`` say which half (``winners_low`` null where no hand makes a
  low), and ``pN_low_key`` each seat's low (1 .. 56, higher the better; null
  for no low).  The tally and categories are the high hands'.

The keys are :mod:`pipeline.poker.omaha`'s (the high keys in hold'em's key
space, so categories and descriptions are hold'em's).  Exact category
shares of Omaha hands are not counted: the statistics report says so.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import UsageError
from pipeline.games.board import BoardGame
from pipeline.games.deals import Deals, Shape, winner_column, winner_masks
from pipeline.poker import cards, describe, notation, omaha
from pipeline.poker.holdem import BEST_OF, CATEGORIES, key_categories

#: An Omaha deal: 4, 5 or 6 hole cards a seat, a board of five, the 52 cards.
OMAHA = Shape(hole_sizes=omaha.HOLE_SIZES)

#: Seat-major keys of deals from board (n, 5) and holes (n, seats, k) codes.
_DealScorer = Callable[[NDArray[np.uint8], NDArray[np.uint8]], NDArray[np.integer]]
#: Five cards (n, 5) of hands from board (n, 5) and holes (n, k) codes.
_FiveChooser = Callable[[NDArray[np.uint8], NDArray[np.uint8]], NDArray[np.uint8]]


def _by_hole_count(deals: Deals, score: _DealScorer, dtype: type[np.integer]) -> NDArray[np.integer]:
    """Seat-major keys (seats, n) of deals whose seats hold 4, 5 or 6 cards, one call per count.

    Empty seats are scored on stand-in cards (their keys are cleared by the caller).
    """
    holes = np.where(deals.seated[:, :, None], deals.holes, 0)
    keys = np.zeros((holes.shape[1], len(deals.board)), dtype=dtype)
    counts = np.unique(deals.hole_count)
    if len(counts) == 1:  # the usual batch: one count, no gather
        keys[:] = score(deals.board, holes[:, :, :int(counts[0])])
        return keys
    for k in counts.tolist():
        rows = np.flatnonzero(deals.hole_count == k)
        keys[:, rows] = score(deals.board[rows], holes[rows, :, :k])
    return keys


def _low_text(keys: NDArray[np.int8]) -> list[str]:
    """A low as a player says it, highest rank first.

    >>> _low_text(np.array([56, 1], np.int8))
    ['Low, 5 4 3 2 A', 'Low, 8 7 6 5 4']
    """
    ranks = omaha.low_key_ranks(keys)
    return ["Low, " + " ".join(cards.RANKS[rank] for rank in row) for row in ranks.tolist()]


@cache
def _low_texts() -> pa.Array:
    """The description of every low key; index 0 (no low) empty."""
    return pa.array([""] + _low_text(np.arange(1, omaha.LOW_KEYS + 1, dtype=np.int8)), pa.string())


def _low_descriptions(keys: NDArray[np.int8], present: NDArray[np.bool_]) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(keys.astype(np.int8), mask=~present), _low_texts())


def _low_order(five: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A low's five cards highest rank first, the ace last (it plays as one)."""
    low_rank = ((five.astype(np.int16) >> 2) + 1) % len(cards.RANKS)
    order = np.argsort(-low_rank, axis=1, kind="stable")
    ordered: NDArray[np.uint8] = np.take_along_axis(five, order, axis=1)
    return ordered


class Omaha(BoardGame):
    """Omaha behind the game interface: ``board,p1..p10[,winners]`` with 4 to 6 cards a seat."""

    name = "omaha"
    title = "Omaha"
    shape = OMAHA
    categories = tuple(str(category) for category in CATEGORIES)
    #: Four hole cards and a board of five; no exact shares are counted for them.
    hand_cards = omaha.HOLE_SIZES[0] + BEST_OF
    exact_hand_sizes = ()

    def seat_keys(self, deals: Deals) -> NDArray[np.int16]:
        return _by_hole_count(deals, omaha.deal_keys, np.int16).astype(np.int16, copy=False)

    def key_categories(self, keys: NDArray[np.int16]) -> NDArray[np.int8]:
        return key_categories(keys)

    def best_columns(self, deals: Deals, keys: NDArray[np.int16],
                     seats: tuple[str, ...]) -> list[dict[str, pa.Array]]:
        return [{f"{name}_best": notation.cards_text(best, present=present),
                 f"{name}_hand": describe.descriptions(keys[seat], present=present)}
                for seat, name, present, best in self._best(deals, keys, seats, omaha.best_five)]

    def _best(self, deals: Deals, keys: NDArray[np.integer], seats: tuple[str, ...],
              choose: _FiveChooser) -> list[tuple[int, str, NDArray[np.bool_], NDArray[np.uint8]]]:
        """Each seat's best five (by ``choose``), ordered by significance for a high hand."""
        out = []
        for seat, name in enumerate(seats):
            present = deals.seated[:, seat] & (keys[seat] > 0)
            best = np.zeros((len(deals.board), BEST_OF), dtype=np.uint8)
            for k in np.unique(deals.hole_count[present]).tolist():
                rows = np.flatnonzero(present & (deals.hole_count == k))
                five = choose(deals.board[rows], deals.holes[rows, seat, :k])
                best[rows] = describe.best_five(five, keys[seat][rows]) if choose is omaha.best_five \
                    else _low_order(five)
            out.append((seat, name, present, best))
        return out

    def pot_keys(self, board: NDArray[np.uint8], holes: NDArray[np.uint8]) -> NDArray[np.int64]:
        keys: NDArray[np.int64] = omaha.deal_keys(board, holes).T[None].astype(np.int64)
        return keys

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        raise UsageError(f"exact category shares of {self.title} hands are not counted")


class OmahaHiLo(Omaha):
    """Omaha eight-or-better: the pot split between the best high and the best qualifying low."""

    name = "omaha-hilo"
    title = "Omaha hi-lo"
    detectable = False  # its deals look like another game's: named with --game only

    def receivers(self, deals: Deals, keys: NDArray[np.int16], high: NDArray[np.uint16]
                  ) -> tuple[NDArray[np.uint16], dict[str, pa.Array], list[dict[str, pa.Array]]]:
        lows = self._lows(deals)
        low = winner_masks(lows, deals.seated)
        halves = {"winners_high": winner_column(high),
                  "winners_low": pa.DictionaryArray.from_arrays(
                      pa.array(low.astype(np.int16), mask=low == 0), winner_column(low).dictionary)}
        per_seat = [{f"p{seat + 1}_low_key": pa.array(lows[seat], mask=lows[seat] == 0)}
                    for seat in range(len(lows))]
        return high | low, halves, per_seat

    def _lows(self, deals: Deals) -> NDArray[np.int8]:
        lows = _by_hole_count(deals, omaha.low_deal_keys, np.int8).astype(np.int8, copy=False)
        lows[~deals.seated.T] = 0
        return lows

    def best_columns(self, deals: Deals, keys: NDArray[np.int16],
                     seats: tuple[str, ...]) -> list[dict[str, pa.Array]]:
        columns = super().best_columns(deals, keys, seats)
        lows = self._lows(deals)
        for (seat, name, present, best), out in zip(self._best(deals, lows, seats, omaha.best_low_five),
                                                    columns):
            out[f"{name}_low_best"] = notation.cards_text(best, present=present)
            out[f"{name}_low_hand"] = _low_descriptions(lows[seat], present)
        return columns

    def pot_keys(self, board: NDArray[np.uint8], holes: NDArray[np.uint8]) -> NDArray[np.int64]:
        # Two parts: the high half, then the low, whose key 0 (no low) never wins it.
        return np.stack([omaha.deal_keys(board, holes).T,
                         omaha.low_deal_keys(board, holes).T]).astype(np.int64)


OMAHA_GAME = Omaha()
HILO_GAME = OmahaHiLo()
