"""Equity: each seat's share of the pot over the run-outs of an unfinished board.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.runner`,
the formats, the hold'em game, pure evaluation and the foundation modules.

This module owns ``pokerpipe equity``: the enumeration (or sampling) of the
cards still to come of deals whose board has 0, 3, 4 or 5 cards (parsed by
:func:`pipeline.games.deals.parse_deals`), and the equity table written
batch by batch.

Equity
------
A seat's equity is its share of the pot averaged over every run-out (the
cards that complete the board): a win counts 1, a k-way split 1/k, so the
seats of a deal sum to 1.  Boards of 3 or more cards are enumerated
exactly (at most C(45, 2) = 990 run-outs); a preflop board is estimated
from ``samples`` random run-outs, with a standard error, unless ``exact``
asks for all C(48, 5) = 1,712,304 of a heads-up deal.

How run-outs are scored
-----------------------
A seat's seven cards split into a fixed part (its hole cards and the
board so far) and the run-out.  Ranks ignoring suits, the key is one
look-up in a table indexed by ``fixed index * scale + run-out index``, where
both indices are multiset indices (:func:`pipeline.poker.cards.multiset_index`):
the fixed index is computed once per deal and seat, and the run-out index
is a sum of per-card weights, because the live cards of a deal are kept in
ascending order and a run-out is an ascending choice of positions among
them.  The positions are shared by every deal with as many live cards (all
combinations, or one set of random draws), so scoring a chunk of deals is a
handful of whole-array gathers and adds.  Suit counts add the same way; the
few run-outs with five cards of a suit look up the flush table.

Splits are counted in units of 2,520, the least common multiple of 1..10,
so that every k-way share is a whole number and sums are exact.

Memory
------
Run-outs are drawn (or sliced from the enumeration) and scored a chunk at
a time, ``CHUNK`` (deal, run-out) pairs, so memory is the same for 20,000
samples as for a billion.  Random run-outs come from one stream per seed
and live-card count, cut into blocks of ``SAMPLE_BLOCK`` drawn from child
seeds (:func:`_random_picks`); the sums are whole numbers, so neither the
chunk size nor the batch changes a result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import InputError, UsageError
from pipeline.formats import readers
from pipeline.formats.sources import DEFAULT_BATCH_ROWS, Batch, Source
from pipeline.games import holdem, registry
from pipeline.games.base import Scored
from pipeline.games.board import BoardGame
from pipeline.games.deals import (
    BOARD_COLUMN,
    BOARD_SIZES,
    HOLDEM,
    MAX_PLAYERS,
    SEATS,
    Deals,
    first_hole_count,
    parse_deals,
    seats_of,
)
from pipeline.games.tally import Tally
from pipeline.poker import cards, notation
from pipeline.poker.holdem import (
    BEST_OF,
    board_pair_table,
    flush_suit_table,
    flush_table,
    plain_table,
    suit_counts,
)
from pipeline.ranges import ranges
from pipeline.runs.columns import conformed, kept_columns
from pipeline.runs.runner import BaseRun, Summary, SummaryParts
from pipeline.runs.scoring import BatchOutcome, Scoring, Totals
from pipeline.text import shown

_SHAPE = HOLDEM.with_boards(BOARD_SIZES)
DEFAULT_SAMPLES = 20_000
SPLIT_UNIT = 2520  # lcm(1..10): a k-way share of the pot is a whole number of units
#: A pot split in two halves first (hi-lo), each half k ways: twice lcm(1..10).
POT_UNIT = 2 * SPLIT_UNIT
CHUNK = 1 << 18  # (deal, run-out) pairs scored at a time: bounds memory to a few MB per array
SAMPLE_BLOCK = 1 << 14  # random run-outs drawn from one child seed: the unit of the random stream
# Sums of squared shares stay exact in int64: samples * SPLIT_UNIT ** 2 < 2 ** 63.
MAX_SAMPLES = 10 ** 12
_RANKS = len(cards.RANKS)
_SUIT_BITS = 13  # a suit-major card mask: bit 13 * suit + rank
_UNITS = np.array([0] + [SPLIT_UNIT // k for k in range(1, MAX_PLAYERS + 1)], dtype=np.int32)


@dataclass
class Equity:
    """Equities of deals, one row per deal.

    Attributes
    ----------
    equity : ndarray of shape (n, seats), dtype float64
        Each seat's share of the pot; NaN for an empty seat.
    se : ndarray of shape (n, seats), dtype float64
        Standard error of a sampled equity; NaN where every run-out was
        enumerated, and for an empty seat.
    runouts : ndarray of shape (n,), dtype int64
        Run-outs counted: all of them, or the samples drawn.
    exact : ndarray of shape (n,), dtype bool
        True where every run-out was enumerated.
    """

    equity: np.ndarray
    se: np.ndarray
    runouts: np.ndarray
    exact: np.ndarray


def equities(deals: Deals, *, samples: int = DEFAULT_SAMPLES, seed: int = 0, exact: bool = False,
             chunk: int = CHUNK, on_progress: Callable[[int, int], None] | None = None,
             game: BoardGame | None = None) -> Equity:
    """Each seat's equity in every deal.

    Parameters
    ----------
    deals : Deals
        Valid deals only (``reasons`` all None), parsed with the game's
        shape and every board size (hold'em's: ``_SHAPE``): the board's
        cards, then ``cards.DECK_SIZE``.
    samples : int
        Random run-outs drawn for a preflop board (unless ``exact``), 2 to
        ``MAX_SAMPLES``.  Drawn and scored ``chunk`` at a time, so memory
        does not grow with ``samples``.
    seed : int
        Seeds the draws: the same seed gives the same numbers, whatever the
        batch a deal falls in and whatever ``chunk`` is.
    exact : bool
        Enumerate preflop run-outs too (1,712,304 heads-up: slow).
    chunk : int
        (deal, run-out) pairs scored at a time; bounds memory, never the result.
    on_progress : callable, optional
        Called with (run-outs scored so far, run-outs in all), summed over
        the deals, after every chunk.
    game : BoardGame, optional
        The game (hold'em by default).  Hold'em's run-outs are scored by
        the tables below; another game's (Omaha, hi-lo, short-deck) by its
        :meth:`~pipeline.games.base.Game.pot_keys` on each finished board,
        the pot shared as the game shares it (hi-lo: a half to the best
        high, a half to the best low, all to the high without a low).

    Returns
    -------
    Equity

    Raises
    ------
    UsageError
        For ``samples`` or ``chunk`` out of range.

    Examples
    --------
    Only a ten (four are left among 44 cards) saves Q J against the aces:

    >>> deals = parse_deals(pa.array(["Ah Kd 2c 3s"]), [pa.array(["As Ad"]), pa.array(["Qs Js"])],
    ...                            shape=_SHAPE)
    >>> equities(deals).equity.tolist() == [[40 / 44, 4 / 44]]
    True
    """
    check_samples(samples)
    if chunk < 1:
        raise UsageError(f"chunk must be at least 1, got {chunk}")
    played = holdem.GAME if game is None else game
    # Hold'em's run-outs are scored by its own tables; another game's by its pot keys.
    share, unit = (_share_sums, SPLIT_UNIT) if isinstance(played, holdem.Holdem) else \
        (partial(_pot_share_sums, played), POT_UNIT)
    n, seat_count = deals.seated.shape
    equity = np.full((n, seat_count), np.nan)
    se = np.full((n, seat_count), np.nan)
    runouts = np.zeros(n, dtype=np.int64)
    exact_rows = np.ones(n, dtype=bool)
    if not n:
        return Equity(equity, se, runouts, exact_rows)
    players, board_size, deck = deals.seated.sum(axis=1), deals.board_size, played.deck()
    # Seated hands first, in seat order: a deal of m players is scored as
    # seats 0..m-1 and put back where they sit.
    order = np.argsort(~deals.seated, axis=1, kind="stable")
    holes = np.take_along_axis(deals.holes, order[:, :, None], axis=1)
    # A row the parse refused counts no hole cards: it is run out as the widest hand the game deals.
    widths = np.where(deals.hole_count > 0, deals.hole_count, deals.holes.shape[2])
    groups = []  # deals of one board size, player count and hole cards, and the run-outs of each
    for size, count, width in sorted(set(zip(board_size.tolist(), players.tolist(), widths.tolist()))):
        rows = np.flatnonzero((board_size == size) & (players == count) & (widths == width))
        sampled = size == 0 and not exact
        live = len(deck) - size - width * count
        total = samples if sampled else comb(live, BEST_OF - size)
        groups.append((size, count, width, rows, sampled, live, total))
    progress = _Progress(on_progress, sum(len(rows) * total for *_, rows, _, _, total in groups))
    for size, count, width, rows, sampled, live, total in groups:
        picks = _sample_stream(live, seed) if sampled else \
            partial(_picks_slice, _all_picks(live, BEST_OF - size))
        totals, squares = share(deals.board[rows, :size], holes[rows, :count, :width], picks, total,
                                squares=sampled, chunk=chunk, progress=progress)
        mean = totals / (unit * total)
        place = (rows[:, None], order[rows, :count])
        equity[place] = mean
        runouts[rows] = total
        if squares is not None:  # sampled: sums of squares give the standard error
            exact_rows[rows] = False
            variance = (squares / unit ** 2 - total * mean ** 2) / (total - 1)
            se[place] = np.sqrt(np.maximum(variance, 0) / total)
    return Equity(equity, se, runouts, exact_rows)


def _pot_share_sums(game: BoardGame, board: np.ndarray, holes: np.ndarray,
                    picks: Callable[[int, int], np.ndarray], runouts: int, *, squares: bool, chunk: int,
                    progress: _Progress) -> tuple[np.ndarray, np.ndarray | None]:
    """Each seat's share of the pot summed over ``runouts`` run-outs, in units of 1 / POT_UNIT.

    As :func:`_share_sums`, for any game: ``board`` (n, k), ``holes`` (n, m, w)
    of seated players; each chunk of (deal, run-out) pairs becomes finished
    boards that :meth:`~pipeline.games.base.Game.pot_keys` scores.  The sums
    of squares are floats (for a standard error only); the sums are exact.
    """
    n, m = holes.shape[:2]
    deck = game.deck()
    dead = np.zeros((n, cards.DECK_SIZE), dtype=bool)
    dead[:, np.setdiff1d(np.arange(cards.DECK_SIZE), deck)] = True
    rows = np.arange(n)
    for column in range(board.shape[1]):
        dead[rows, board[:, column]] = True
    for seat in range(m):
        for column in range(holes.shape[2]):
            dead[rows, holes[:, seat, column]] = True
    live = np.nonzero(~dead)[1].reshape(n, -1).astype(np.uint8)
    totals = np.zeros((n, m), dtype=np.int64)
    total_squares = np.zeros((n, m), dtype=np.float64) if squares else None
    for deals, drawn in _chunks(picks, runouts, n, chunk):
        d, r = len(live[deals]), len(drawn)
        finished = np.concatenate([np.broadcast_to(board[deals][:, None], (d, r, board.shape[1])),
                                   live[deals][:, drawn]], axis=2).reshape(d * r, BEST_OF)
        seats = np.broadcast_to(holes[deals][:, None], (d, r) + holes.shape[1:]).reshape(
            (d * r,) + holes.shape[1:])
        share = pot_units(game.pot_keys(finished, seats)).reshape(d, r, m)
        totals[deals] += share.sum(axis=1)
        if total_squares is not None:
            total_squares[deals] += (share.astype(np.float64) ** 2).sum(axis=1)
        progress.add(d * r)
    return totals, total_squares


def _chunks(picks: Callable[[int, int], np.ndarray], runouts: int, n: int,
            chunk: int) -> Iterator[tuple[slice, np.ndarray]]:
    """The (deals, run-outs) blocks of about ``chunk`` pairs that cover ``n`` deals and ``runouts``.

    Run-outs outside, deals inside: each block of run-outs is drawn once, and
    all the sums are whole numbers, so a result is the same whatever the chunk.
    """
    pick_chunk = min(runouts, chunk)
    per_chunk = max(1, chunk // pick_chunk)
    for first in range(0, runouts, pick_chunk):
        drawn = picks(first, min(pick_chunk, runouts - first))
        for start in range(0, n, per_chunk):
            yield slice(start, start + per_chunk), drawn


def pot_units(keys: np.ndarray) -> NDArray[np.int64]:
    """Each seat's share of a pot in units of 1 / POT_UNIT, from the keys of its parts.

    Parameters
    ----------
    keys : ndarray of shape (parts, n, seats), integer
        As :meth:`~pipeline.games.base.Game.pot_keys` gives them: each part
        an equal share of the pot to the highest key (ties split it), a key
        of 0 never winning, and a part nobody wins going to the others.

    Returns
    -------
    ndarray of shape (n, seats), dtype int64
        Summing to POT_UNIT in every row that a seat wins.

    >>> pot_units(np.array([[[5, 5, 1]], [[0, 3, 2]]])).tolist()    # high split, low to seat 2
    [[1260, 3780, 0]]
    >>> pot_units(np.array([[[5, 1]], [[0, 0]]])).tolist()          # no low: the high takes all
    [[5040, 0]]
    """
    best = keys.max(axis=2, keepdims=True)
    winning = (keys == best) & (best > 0)
    winners = winning.sum(axis=2, keepdims=True)
    parts_won = (winners[..., 0] > 0).sum(axis=0)[None, :, None]
    unit = POT_UNIT // np.maximum(parts_won * winners, 1)
    shares: NDArray[np.int64] = np.where(winning, unit, 0).sum(axis=0).astype(np.int64)
    return shares


class _Progress:
    """Run-outs scored so far, handed to an optional callback."""

    def __init__(self, callback: Callable[[int, int], None] | None, total: int) -> None:
        self.callback, self.total, self.done = callback, total, 0

    def add(self, scored: int) -> None:
        self.done += scored
        if self.callback is not None:
            self.callback(self.done, self.total)


def _sample_stream(live: int, seed: int) -> Callable[[int, int], np.ndarray]:
    """``picks(first, count)``: random run-outs ``first`` to ``first + count - 1`` (:func:`_random_picks`)."""
    return lambda first, count: _random_picks(live, count, seed=seed, first=first)


def _picks_slice(picks: np.ndarray, first: int, count: int) -> np.ndarray:
    """Run-outs ``first`` to ``first + count - 1`` of an enumeration."""
    return picks[first:first + count]


def check_samples(samples: int) -> None:
    """UsageError unless ``samples`` can give a standard error and its sums fit: 2 to ``MAX_SAMPLES``."""
    if not 2 <= samples <= MAX_SAMPLES:
        raise UsageError(f"samples must be 2 to {MAX_SAMPLES:,}, got {samples:,}")


@cache
def _all_picks(live: int, width: int) -> np.ndarray:
    """Every ascending choice of ``width`` positions among ``live`` cards.

    Returns
    -------
    picks : ndarray of shape (comb(live, width), width), dtype uint8
        Lexicographic order; one empty row for width 0.

    >>> _all_picks(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    picks = np.zeros((1, 0), dtype=np.uint8)
    for column in range(width):
        # Extend each row by every position above its last one, leaving
        # room for the columns still to come.
        low = picks[:, -1].astype(np.int64) + 1 if column else np.zeros(len(picks), dtype=np.int64)
        room = np.maximum(live - (width - column - 1) - low, 0)
        picks = np.column_stack([np.repeat(picks, room, axis=0), ranges(low, room).astype(np.uint8)])
    assert len(picks) == comb(live, width)
    picks.setflags(write=False)
    return picks


def _random_picks(live: int, count: int, *, seed: int, first: int = 0) -> np.ndarray:
    """Random run-outs ``first`` to ``first + count - 1`` of the stream of ``seed``: five ascending
    positions among ``live`` cards each, every five-subset equally likely.

    The stream is cut into blocks of ``SAMPLE_BLOCK`` run-outs; block b is
    drawn from its own generator, seeded by the b-th child of
    ``SeedSequence([seed, live])`` (numpy's way to split one seed into
    independent streams, as :mod:`pipeline.runs.generate` deals its
    blocks).  A block is always drawn whole, so a run-out depends only on
    the seed, ``live`` and its place in the stream: not on the batch of its
    deal, nor on how many run-outs are drawn at a time.

    Examples
    --------
    >>> whole = _random_picks(20, 40_000, seed=3)
    >>> bool((_random_picks(20, 1_000, seed=3, first=20_000) == whole[20_000:21_000]).all())
    True
    """
    if count <= 0:
        return np.zeros((0, BEST_OF), dtype=np.uint8)
    blocks = range(first // SAMPLE_BLOCK, (first + count - 1) // SAMPLE_BLOCK + 1)
    drawn = np.concatenate([_picks_block(live, seed, block) for block in blocks])
    start = first - blocks.start * SAMPLE_BLOCK
    return drawn[start:start + count]


def _picks_block(live: int, seed: int, block: int) -> np.ndarray:
    """Block ``block`` of the random run-outs of ``seed`` among ``live`` cards: SAMPLE_BLOCK of them.

    Robert Floyd's algorithm, one step for all samples at once: step j
    draws t in 0..j and takes j instead when t is already chosen, which
    makes every five-subset equally likely.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, live], spawn_key=(block,))))
    chosen: list[np.ndarray] = []
    for j in range(live - BEST_OF, live):
        t = rng.integers(0, j + 1, size=SAMPLE_BLOCK, dtype=np.int16)
        taken = np.zeros(SAMPLE_BLOCK, dtype=bool)
        for earlier in chosen:
            taken |= earlier == t
        chosen.append(np.where(taken, np.int16(j), t))
    return np.stack(cards.sort_columns(chosen), axis=1).astype(np.uint8)


@cache
def _turn_table() -> np.ndarray:
    """Plain key of every six-rank multiset with one more rank.

    Returns
    -------
    keys : ndarray of shape (18564 * 13,), dtype int16
        At ``multiset_index(six) * 13 + rank``; 0 where a rank occurs
        more than four times.
    """
    six = cards.all_multisets(6)
    seven = np.column_stack([np.repeat(six, _RANKS, axis=0),
                             np.tile(np.arange(_RANKS, dtype=np.int8), len(six))])
    keys = plain_table(7)[cards.multiset_index(cards.sorted_columns(seven))]
    keys.setflags(write=False)
    return keys


def _layout(size: int) -> tuple[np.ndarray, int, int]:
    """The plain-key table of a board size and the scales of its two indices.

    The key of fixed ranks and run-out ranks is
    ``table[fixed index * fixed scale + run-out index * run-out scale]``.
    """
    pairs = cards.multiset_count(2)
    if size == 0:  # the run-out is a whole board, the hole cards a pair
        return board_pair_table(), 1, pairs
    if size == 3:  # board and hole cards make five, the run-out a pair
        return board_pair_table(), pairs, 1
    if size == 4:
        return _turn_table(), _RANKS, 1
    return plain_table(7), 1, 0


def _share_sums(board: np.ndarray, holes: np.ndarray, picks: Callable[[int, int], np.ndarray],
                runouts: int, *, squares: bool, chunk: int = CHUNK,
                progress: _Progress | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Sum of each seat's share of the pot over ``runouts`` run-outs given by ``picks``.

    Parameters
    ----------
    board : ndarray of shape (n, k), dtype uint8
        The board so far, k in {0, 3, 4, 5}.
    holes : ndarray of shape (n, m, 2), dtype uint8
        Hole cards of the m players of each deal, all seated.
    picks : callable
        ``picks(first, count)`` gives run-outs ``first`` to ``first + count - 1``
        as an ndarray of shape (count, 5 - k), dtype uint8: ascending
        positions among each deal's live cards (in code order).  Called
        once per chunk, so only a chunk of run-outs is ever in memory.
    runouts : int
        How many run-outs to score.
    squares : bool
        Also sum the squared shares (for a standard error).
    chunk : int
        (deal, run-out) pairs scored at a time.
    progress : optional
        Told of the (deal, run-out) pairs scored after each chunk.

    Returns
    -------
    totals : ndarray of shape (n, m), dtype int64
        In units of 1 / SPLIT_UNIT of the pot.
    squares : ndarray of shape (n, m), dtype int64, or None
    """
    n, m = holes.shape[:2]
    size = board.shape[1]
    width = BEST_OF - size
    table, fixed_scale, runout_scale = _layout(size)
    # Fixed part of each seat: hole cards and board, seat-major.
    fixed_index = np.empty((m, n), dtype=np.int32)
    fixed_suits = np.empty((m, n), dtype=np.uint16)
    fixed_mask = np.empty((m, n), dtype=np.uint64)
    dead = np.zeros((n, cards.DECK_SIZE), dtype=bool)
    rows = np.arange(n)
    for column in range(size):
        dead[rows, board[:, column]] = True
    for seat in range(m):
        codes = [np.ascontiguousarray(board[:, i]) for i in range(size)] + \
                [np.ascontiguousarray(holes[:, seat, i]) for i in range(2)]
        dead[rows, codes[-2]] = dead[rows, codes[-1]] = True
        fixed_index[seat] = cards.multiset_index(cards.sort_columns([c >> 2 for c in codes])) * fixed_scale
        fixed_suits[seat] = sum(suit_counts(c) for c in codes)
        fixed_mask[seat] = np.bitwise_or.reduce([_suit_major_bit(c) for c in codes])
    # Live cards of each deal, ascending: position p of row d is live[d, p].
    live = np.nonzero(~dead)[1].reshape(n, -1).astype(np.uint8)
    weights = cards.multiset_weights(width) if width else np.zeros((0, _RANKS), dtype=np.int32)
    live_weight = [weights[i][live >> 2] * np.int32(runout_scale) for i in range(width)]
    live_suits = suit_counts(live)
    live_mask = _suit_major_bit(live)
    totals = np.zeros((n, m), dtype=np.int64)
    total_squares = np.zeros((n, m), dtype=np.int64) if squares else None
    for deals, drawn in _chunks(picks, runouts, n, chunk):
        runout_index = np.zeros((len(live[deals]), len(drawn)), dtype=np.int32)
        runout_suits = np.zeros(runout_index.shape, dtype=np.uint16)
        for i in range(width):
            runout_index += live_weight[i][deals][:, drawn[:, i]]
            runout_suits += live_suits[deals][:, drawn[:, i]]
        keys = [_seat_keys(table, fixed_index[seat, deals], fixed_suits[seat, deals],
                           fixed_mask[seat, deals], runout_index, runout_suits,
                           live_mask[deals], drawn) for seat in range(m)]
        best = keys[0].copy()
        for key in keys[1:]:
            np.maximum(best, key, out=best)
        winning = [key == best for key in keys]
        count = np.zeros(best.shape, dtype=np.int8)
        for won in winning:
            count += won
        unit = _UNITS[count]
        for seat, won in enumerate(winning):
            share = np.where(won, unit, 0)
            totals[deals, seat] += share.sum(axis=1, dtype=np.int64)
            if total_squares is not None:
                total_squares[deals, seat] += (share.astype(np.int64) ** 2).sum(axis=1)
        if progress is not None:
            progress.add(best.size)
    return totals, total_squares


def _suit_major_bit(codes: np.ndarray) -> np.ndarray:
    """A card as one bit of a 52-bit mask laid out suit by suit (13 bits each)."""
    codes = np.asarray(codes, dtype=np.uint64)
    bit = (codes & np.uint64(3)) * np.uint64(_SUIT_BITS) + (codes >> np.uint64(2))
    return np.left_shift(np.uint64(1), bit)


def _seat_keys(table: np.ndarray, fixed_index: np.ndarray, fixed_suits: np.ndarray, fixed_mask: np.ndarray,
               runout_index: np.ndarray, runout_suits: np.ndarray, live_mask: np.ndarray,
               picks: np.ndarray) -> np.ndarray:
    """Keys of one seat over a chunk of deals (rows) and run-outs (columns)."""
    keys: np.ndarray = table[fixed_index[:, None] + runout_index]
    flush_suit = flush_suit_table()[fixed_suits[:, None] + runout_suits]
    deal, runout = np.nonzero(flush_suit >= 0)
    if deal.size:
        mask = fixed_mask[deal]
        for i in range(picks.shape[1]):
            mask |= live_mask[deal, picks[runout, i]]
        suit = flush_suit[deal, runout].astype(np.uint64)
        ranks = (mask >> (suit * np.uint64(_SUIT_BITS))) & np.uint64((1 << _SUIT_BITS) - 1)
        keys[deal, runout] = np.maximum(keys[deal, runout], flush_table()[ranks])
    return keys


# --- one deal given on the command line --------------------------------------


def deal_equity(hands: list[str], board: str = "", *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                exact: bool = False, on_progress: Callable[[int, int], None] | None = None,
                game: str | None = None) -> Equity:
    """Equity of each hand of one deal, as ``pokerpipe equity --hand ... --board ...`` prints it.

    Parameters
    ----------
    hands : list of str
        Two cards each, with or without a space: ``"AhAs"``, ``"Kd Kc"``;
        four to six for Omaha.
    board : str
        0, 3, 4 or 5 cards.
    samples, seed, exact, on_progress
        As in :func:`equities`.
    game : str, optional
        A board game's name (:func:`pipeline.games.registry.names`); told
        from the first hand's cards (two: hold'em, four to six: Omaha) when None.

    Raises
    ------
    InputError
        For a bad card, a card dealt twice, a board of another size or a
        number of hands outside 1..10.

    >>> deal_equity(["AhAs", "KdKc"], "Kh 7c 2d 9s 4h").equity.tolist()  # three kings
    [[0.0, 1.0]]
    """
    if isinstance(hands, str):  # one hand's letters would be read as hands of one letter each
        raise InputError(f"hands {shown(hands)}: give a list of hands, like ['AhAs', 'KdKc']")
    if not 1 <= len(hands) <= MAX_PLAYERS:
        raise InputError(f"{len(hands)} hands: give 1 to {MAX_PLAYERS}")
    for label, text in [*((f"p{seat}", hand) for seat, hand in enumerate(hands, start=1)), ("board", board)]:
        if not isinstance(text, str):
            raise InputError(f"{label} is {type(text).__name__}, not text: write cards like 'Ah As'")
        if label != "board" and not text.strip():  # an archive's empty seat; a hand given here is cards
            raise InputError(f"{label} is empty: give its cards, like AhAs")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # bytes of the command line that are not UTF-8
            raise InputError(f"{label} {shown(text)}: unknown card (a byte that is not UTF-8)") from None
    seats = [pa.array([notation.spaced_cards(hand)]) for hand in hands]
    played = board_game("--hand", game, first_hole_count(seats))
    parsed = parse_deals(pa.array([notation.spaced_cards(board)]), seats,
                         shape=played.shape.with_boards(BOARD_SIZES))
    if parsed.reasons[0] is not None:
        raise InputError(parsed.reasons[0])
    return equities(parsed, samples=samples, seed=seed, exact=exact, on_progress=on_progress, game=played)


def board_game(label: str, game: str | None, hole_cards: int | None,
               columns: tuple[str, ...] = (BOARD_COLUMN, SEATS[0])) -> BoardGame:
    """The board game equity is run for: ``game``, or the one these columns and cards tell.

    Raises UsageError for a game that deals no board (Larvis), InputError
    where the inputs are no board game's.
    """
    played = registry.get(game) if game is not None else \
        registry.detect(label, columns, hole_cards=hole_cards)
    if not isinstance(played, BoardGame):
        boards = [name for name in registry.names() if isinstance(registry.get(name), BoardGame)]
        problem = (f"equity runs out the board column of deals, and {played.title} has none "
                   f"(games with a board: {', '.join(boards)})")
        raise UsageError(problem) if game is not None else InputError(f"{label}: {problem}")
    return played


# --- whole archives -------------------------------------------------------------


class EquityRun(BaseRun):
    """Equity of every deal of a list of inputs; call :meth:`execute`.

    Reads the inputs of ``pokerpipe run`` (hold'em archives and contest
    files) batch by batch and writes ``equity.<format>``, ``rejects.csv``
    and ``summary.json`` into ``outdir``, published as one set
    (:class:`pipeline.formats.publish.OutputSet`).
    Rows are numbered and rejected as in :class:`pipeline.runs.runner.Run`:
    rows read = scored + rejected.

    Parameters
    ----------
    inputs, outdir, output_format, batch_rows, on_progress, on_reject, on_notice :
        As in :class:`pipeline.runs.runner.BaseRun`; ``output_format`` is the
        equity table's.
    samples, seed, exact : as in :func:`equities`
    keep, keep_all : columns of the user's carried into the equity table, as
        :func:`pipeline.runs.columns.kept_columns` reads them
    """

    results_stem = "equity"

    def __init__(self, inputs: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str], *,
                 output_format: str = "csv", samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 exact: bool = False, batch_rows: int = DEFAULT_BATCH_ROWS,
                 keep: Sequence[str] = (), keep_all: bool = False, game: str | None = None,
                 on_progress: Callable[[int, float], None] | None = None,
                 on_reject: Callable[[str, str], None] | None = None,
                 on_notice: Callable[[str], None] | None = None) -> None:
        check_samples(samples)  # before any input is read
        if game is not None:
            board_game("--game", game, None)  # a usage error before any input is read
        # One thread: a batch's run-outs fill memory in chunks of their own, and the
        # command has no --threads (yet) to trade memory for speed.
        super().__init__(inputs, outdir, output_format=output_format, batch_rows=batch_rows, threads=1,
                         on_progress=on_progress, on_reject=on_reject, on_notice=on_notice)
        for source in self.sources:
            if source.format in readers.HISTORY_FORMATS:
                # A PHH hand is scored at its showdown, with a full board: nothing left to run out.
                raise InputError(f"{source.path}: equity reads deal tables and contest files, "
                                 f"not hand histories")
        found = {board_game(str(source.path), game, readers.first_hole_cards(source), source.columns).name
                 for source in self.sources} if self.sources else {holdem.GAME.name}
        if len(found) > 1:
            raise InputError(f"inputs mix games ({', '.join(sorted(found))}): run each game separately "
                             f"or pass --game")
        self.game_of_deals = board_game("--game", found.pop(), None)
        self.shape = self.game_of_deals.shape.with_boards(BOARD_SIZES)
        columns = self.game_of_deals.input_columns({str(source.path): source.columns
                                                    for source in self.sources})
        self.seats = seats_of(columns)
        kept = kept_columns(self.sources, keep=keep, keep_all=keep_all, taken=self.equity_schema().names,
                            output_format=output_format, results=self.results_name)
        # The run's rejects, row numbers and accounting, without an expected column.
        self.scoring = Scoring(self.game_of_deals.name, columns + tuple(kept.names), None, kept=kept)
        self.samples, self.seed, self.exact = samples, seed, exact

    @staticmethod
    def equity_schema() -> pa.Schema:
        """The equity table's own columns: every seat, whatever the inputs hold."""
        fields = [pa.field("row", pa.int64()), pa.field("runouts", pa.int64()), pa.field("exact", pa.bool_())]
        for name in SEATS:
            fields += [pa.field(f"{name}_equity", pa.float64()), pa.field(f"{name}_equity_se", pa.float64())]
        return pa.schema(fields)

    def results_schema(self) -> pa.Schema:
        """Schema of the equity table: its own columns, then the kept ones."""
        schema = self.equity_schema()
        for kept in self.scoring.kept:
            schema = schema.append(kept)
        return schema

    def process_batch(self, source: Source, batch: Batch, offset: int) -> BatchOutcome:
        """Equities of one batch of ``source`` whose rows follow ``offset`` rows of the run.

        The batch's outcomes count the deals enumerated exactly (``exact``)
        and those sampled (``sampled``).
        """
        table = batch.table
        deals = parse_deals(table.column(BOARD_COLUMN),
                            [table.column(name) for name in self.seats], shape=self.shape)
        ok = deals.reasons == None  # noqa: E711 (elementwise)
        result = equities(deals.take(ok), samples=self.samples, seed=self.seed, exact=self.exact,
                          game=self.game_of_deals)
        columns = {"row": pa.array((batch.rows + offset)[ok]), "runouts": pa.array(result.runouts),
                   "exact": pa.array(result.exact)}
        for seat, name in enumerate(self.seats):
            columns[f"{name}_equity"] = pa.array(result.equity[:, seat], from_pandas=True)
            columns[f"{name}_equity_se"] = pa.array(result.se[:, seat], from_pandas=True)
        results = conformed(self.scoring.carry(pa.table(columns), table, pa.array(ok)),
                            self.results_schema().empty_table())
        exact_deals = int(result.exact.sum())
        scored = Scored(results, ok, deals.reasons, Tally.zeros(self.game_of_deals.categories),
                        np.zeros(0, np.int8),
                        np.zeros(0, dtype=object),
                        {"exact": exact_deals, "sampled": len(result.exact) - exact_deals})
        return BatchOutcome(results, self.scoring.rejects(source, batch, scored, offset),
                            Totals.of_batch(batch, scored))

    def summary_parts(self, folder: Path, totals: Totals, inputs: list[dict[str, Any]], *, engine: str,
                      extra: Summary) -> SummaryParts:
        """The command, the deals enumerated and sampled, and how preflop boards were run out.

        Equity runs on the local engine only, which its summary does not name.
        """
        return SummaryParts(
            head={"command": "equity", "game": self.game_of_deals.name},
            fields={"deals": {"exact": totals.outcomes.get("exact", 0),
                              "sampled": totals.outcomes.get("sampled", 0)},
                    "preflop": {"exact": self.exact, "samples": None if self.exact else self.samples,
                                "seed": None if self.exact else self.seed}})
