"""Equity: each seat's share of the pot over the run-outs of an unfinished board.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.runner`,
the formats, the hold'em game, pure evaluation and the foundation modules.

This module owns ``pokerpipe equity``: the parsing of deals whose board has
0, 3, 4 or 5 cards, the enumeration (or sampling) of the cards still to
come, and the equity table written batch by batch.

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
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.errors import InputError, UsageError
from pipeline.formats import readers
from pipeline.formats.publish import OutputSet
from pipeline.formats.sources import DEFAULT_BATCH_ROWS, Batch, Source
from pipeline.formats.writers import FORMATS, TableWriter, write_json
from pipeline.games import holdem
from pipeline.games.base import Scored
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
from pipeline.runs.runner import (
    REJECT_SCHEMA,
    Scoring,
    Totals,
    batch_span,
    reject_lines,
    stream_sources,
    summarize,
)
from pipeline.text import text_lengths

BOARD_SIZES = (0, 3, 4, 5)
DEFAULT_SAMPLES = 20_000
SPLIT_UNIT = 2520  # lcm(1..10): a k-way share of the pot is a whole number of units
CHUNK = 1 << 18  # (deal, run-out) pairs scored at a time: bounds memory to a few MB per array
SAMPLE_BLOCK = 1 << 14  # random run-outs drawn from one child seed: the unit of the random stream
# Sums of squared shares stay exact in int64: samples * SPLIT_UNIT ** 2 < 2 ** 63.
MAX_SAMPLES = 10 ** 12
_RANKS = len(cards.RANKS)
_SUIT_BITS = 13  # a suit-major card mask: bit 13 * suit + rank
# Board text length -> card count: "Ah Kd 2c" is 8 characters; -1 for any other length.
_SIZE_OF_LENGTH = np.full(3 * BEST_OF, -1, dtype=np.int8)
for _size in BOARD_SIZES:
    _SIZE_OF_LENGTH[max(3 * _size - 1, 0)] = _size
_UNITS = np.array([0] + [SPLIT_UNIT // k for k in range(1, holdem.MAX_PLAYERS + 1)], dtype=np.int32)


@dataclass
class Spots:
    """Parsed deals whose board may be unfinished, one row per deal.

    Attributes
    ----------
    board : ndarray of shape (n, 5), dtype uint8
        Card codes of the board so far; 52 past its last card.
    board_size : ndarray of shape (n,), dtype int8
        0, 3, 4 or 5 (-1 for a board that is none of these).
    holes : ndarray of shape (n, seats, 2), dtype uint8
    seated : ndarray of shape (n, seats), dtype bool
    reasons : ndarray of shape (n,), dtype object
        None for a valid deal, else why it is rejected.
    """

    board: np.ndarray
    board_size: np.ndarray
    holes: np.ndarray
    seated: np.ndarray
    reasons: np.ndarray

    def take(self, rows: np.ndarray) -> Spots:
        """The deals at ``rows`` (an index or a boolean mask)."""
        return Spots(self.board[rows], self.board_size[rows], self.holes[rows], self.seated[rows],
                     self.reasons[rows])


def parse_spots(board: pa.Array | pa.ChunkedArray, seats: list[pa.Array]) -> Spots:
    """Parse deals written as text: a board of 0, 3, 4 or 5 cards and up to ten seats.

    Parameters
    ----------
    board : pyarrow string array of length n
        Cards separated by spaces, e.g. ``"Ah Kd 2c"``; null or empty preflop.
    seats : list of pyarrow string arrays of length n
        As in :func:`pipeline.games.holdem.parse_deals`.

    Returns
    -------
    Spots
        Codes for every deal and, for each invalid one, why.

    Examples
    --------
    >>> spots = parse_spots(pa.array(["Ah Kd 2c", "", "Ah Kd"]), [pa.array(["As Ad"] * 3)])
    >>> spots.board_size.tolist(), spots.reasons.tolist()
    ([3, 0, -1], [None, None, "board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5"])
    """
    if isinstance(board, pa.ChunkedArray):
        board = board.combine_chunks()
    n = len(board)
    tidy = pc.replace_substring_regex(pc.utf8_trim_whitespace(pc.fill_null(board, "")),
                                      notation.WHITESPACE, " ")
    lengths = text_lengths(tidy)
    size = np.where(lengths < len(_SIZE_OF_LENGTH),
                    _SIZE_OF_LENGTH[np.clip(lengths, 0, len(_SIZE_OF_LENGTH) - 1)], -1)
    codes = np.full((n, BEST_OF), cards.DECK_SIZE, dtype=np.uint8)
    ok = size >= 0
    for count in BOARD_SIZES[1:]:
        rows = np.flatnonzero(size == count)
        if rows.size:
            parsed, _, known = notation.card_matrix(tidy.take(pa.array(rows)), count)
            codes[rows, :count] = parsed
            ok[rows] &= known
    holes, seated, seats_ok = holdem.parse_seats(seats, n)
    ok &= seats_ok & holdem.all_distinct(codes, holes, seated)
    reasons = np.full(n, None, dtype=object)
    if not ok.all():
        board_text = board.to_pylist()
        seat_text = [column.to_pylist() for column in seats]
        for row in np.flatnonzero(~ok):
            reasons[row] = holdem.deal_problem(board_text[row], [text[row] for text in seat_text],
                                               board_sizes=BOARD_SIZES)[0] or "cards not understood"
    return Spots(codes, size.astype(np.int8), holes, seated, reasons)


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


def equities(spots: Spots, *, samples: int = DEFAULT_SAMPLES, seed: int = 0, exact: bool = False,
             chunk: int = CHUNK, on_progress: Callable[[int, int], None] | None = None) -> Equity:
    """Each seat's equity in every deal.

    Parameters
    ----------
    spots : Spots
        Valid deals only (``reasons`` all None).
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

    >>> spots = parse_spots(pa.array(["Ah Kd 2c 3s"]), [pa.array(["As Ad"]), pa.array(["Qs Js"])])
    >>> equities(spots).equity.tolist() == [[40 / 44, 4 / 44]]
    True
    """
    if not 2 <= samples <= MAX_SAMPLES:
        raise UsageError(f"samples must be 2 to {MAX_SAMPLES:,}, got {samples:,}")
    if chunk < 1:
        raise UsageError(f"chunk must be at least 1, got {chunk}")
    n, seat_count = spots.seated.shape
    equity = np.full((n, seat_count), np.nan)
    se = np.full((n, seat_count), np.nan)
    runouts = np.zeros(n, dtype=np.int64)
    exact_rows = np.ones(n, dtype=bool)
    if not n:
        return Equity(equity, se, runouts, exact_rows)
    players = spots.seated.sum(axis=1)
    # Seated hands first, in seat order: a deal of m players is scored as
    # seats 0..m-1 and put back where they sit.
    order = np.argsort(~spots.seated, axis=1, kind="stable")
    holes = np.take_along_axis(spots.holes, order[:, :, None], axis=1)
    groups = []  # deals of one board size and player count, and the run-outs of each
    for size in BOARD_SIZES:
        for count in range(1, seat_count + 1):
            rows = np.flatnonzero((spots.board_size == size) & (players == count))
            if rows.size:
                sampled = size == 0 and not exact
                live = cards.DECK_SIZE - size - 2 * count
                total = samples if sampled else comb(live, BEST_OF - size)
                groups.append((size, count, rows, sampled, live, total))
    progress = _Progress(on_progress, sum(len(rows) * total for *_, rows, _, _, total in groups))
    for size, count, rows, sampled, live, total in groups:
        picks = _sample_stream(live, seed) if sampled else \
            partial(_picks_slice, _all_picks(live, BEST_OF - size))
        totals, squares = _share_sums(spots.board[rows, :size], holes[rows, :count], picks, total,
                                      squares=sampled, chunk=chunk, progress=progress)
        seats = order[rows, :count]
        mean = totals / (SPLIT_UNIT * total)
        place = (rows[:, None], seats)
        equity[place] = mean
        runouts[rows] = total
        if squares is not None:  # sampled: sums of squares give the standard error
            exact_rows[rows] = False
            variance = (squares / SPLIT_UNIT ** 2 - total * mean ** 2) / (total - 1)
            se[place] = np.sqrt(np.maximum(variance, 0) / total)
    return Equity(equity, se, runouts, exact_rows)


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
        starts = np.repeat(low, room)
        offsets = np.arange(room.sum()) - np.repeat(np.cumsum(room) - room, room)
        picks = np.column_stack([np.repeat(picks, room, axis=0), (starts + offsets).astype(np.uint8)])
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
    # Run-outs outside, deals inside: each chunk of run-outs is drawn once, and all the
    # sums are whole numbers, so the result is the same whatever the chunk.
    pick_chunk = min(runouts, chunk)
    per_chunk = max(1, chunk // pick_chunk)
    for first in range(0, runouts, pick_chunk):
        drawn = picks(first, min(pick_chunk, runouts - first))
        for start in range(0, n, per_chunk):
            deals = slice(start, start + per_chunk)
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


def spaced_cards(text: str) -> str:
    """Cards written with or without spaces, as the readers take them.

    >>> spaced_cards("AhAs"), spaced_cards(" Qs Jh  2c "), spaced_cards("")
    ('Ah As', 'Qs Jh 2c', '')
    """
    packed = "".join(text.split())
    if len(packed) % 2:
        return " ".join(text.split())
    return " ".join(packed[i:i + 2] for i in range(0, len(packed), 2))


def deal_equity(hands: list[str], board: str = "", *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                exact: bool = False, on_progress: Callable[[int, int], None] | None = None) -> Equity:
    """Equity of each hand of one deal, as ``pokerpipe equity --hand ... --board ...`` prints it.

    Parameters
    ----------
    hands : list of str
        Two cards each, with or without a space: ``"AhAs"``, ``"Kd Kc"``.
    board : str
        0, 3, 4 or 5 cards.
    samples, seed, exact, on_progress
        As in :func:`equities`.

    Raises
    ------
    InputError
        For a bad card, a card dealt twice, a board of another size or a
        number of hands outside 1..10.

    >>> deal_equity(["AhAs", "KdKc"], "Kh 7c 2d 9s 4h").equity.tolist()  # three kings
    [[0.0, 1.0]]
    """
    if not 1 <= len(hands) <= holdem.MAX_PLAYERS:
        raise InputError(f"{len(hands)} hands: give 1 to {holdem.MAX_PLAYERS}")
    spots = parse_spots(pa.array([spaced_cards(board)]), [pa.array([spaced_cards(hand)]) for hand in hands])
    if spots.reasons[0] is not None:
        raise InputError(spots.reasons[0])
    return equities(spots, samples=samples, seed=seed, exact=exact, on_progress=on_progress)


# --- whole archives -------------------------------------------------------------


class EquityRun:
    """Equity of every deal of a list of inputs; call :meth:`execute`.

    Reads the inputs of ``pokerpipe run`` (hold'em archives and contest
    files) batch by batch and writes ``equity.<format>``, ``rejects.csv``
    and ``summary.json`` into ``outdir``, published as one set
    (:class:`pipeline.formats.publish.OutputSet`).
    Rows are numbered and rejected as in :class:`pipeline.runs.runner.Run`:
    rows read = scored + rejected.

    Parameters
    ----------
    inputs : list of paths, folders or glob patterns
    outdir : path of the output folder (created if missing)
    output_format : "csv" or "parquet"
    samples, seed, exact : as in :func:`equities`
    batch_rows : rows per batch; bounds memory
    on_progress : called with (rows read so far, rows per second)
    on_reject : called with one line per rejected row
    """

    def __init__(self, inputs: list[str | os.PathLike[str]], outdir: str | os.PathLike[str], *,
                 output_format: str = "csv", samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 exact: bool = False, batch_rows: int = DEFAULT_BATCH_ROWS,
                 on_progress: Callable[[int, float], None] | None = None,
                 on_reject: Callable[[str], None] | None = None) -> None:
        if output_format not in FORMATS:
            raise UsageError(f"unknown output format {output_format!r}: expected csv or parquet")
        if batch_rows < 1:
            raise UsageError(f"batch_rows must be at least 1, got {batch_rows}")
        if samples < 2:
            raise UsageError(f"samples must be at least 2, got {samples}")
        OutputSet(outdir).check()  # before any input is read, as run does
        self.sources = [readers.open_source(path) for path in readers.expand_inputs(inputs)]
        for source in self.sources:
            if source.format == "phh":
                # A PHH hand is scored at its showdown, with a full board: nothing left to run out.
                raise InputError(f"{source.path}: equity reads deal tables and contest files, "
                                 f"not PHH hand histories")
        columns = holdem.GAME.input_columns({str(source.path): source.columns for source in self.sources})
        self.seats = holdem.seats_of(columns)
        # The run's rejects, row numbers and accounting, without an expected column.
        self.scoring = Scoring(holdem.GAME.name, columns, None)
        self.outdir = Path(outdir)
        self.output_format = output_format
        self.samples, self.seed, self.exact = samples, seed, exact
        self.batch_rows = batch_rows
        self.on_progress = on_progress
        self.on_reject = on_reject

    def results_schema(self) -> pa.Schema:
        """Schema of the equity table."""
        fields = [pa.field("row", pa.int64()), pa.field("runouts", pa.int64()), pa.field("exact", pa.bool_())]
        for name in self.seats:
            fields += [pa.field(f"{name}_equity", pa.float64()), pa.field(f"{name}_equity_se", pa.float64())]
        return pa.schema(fields)

    def process_batch(self, source: Source, batch: Batch,
                      offset: int) -> tuple[pa.Table, pa.Table, Totals, np.ndarray]:
        """Equities of one batch of ``source`` whose rows follow ``offset`` rows of the run.

        Returns the equity rows, the rejected rows, the batch's counts and
        whether each scored deal was enumerated exactly.
        """
        table = batch.table
        spots = parse_spots(table.column("board"), [table.column(name) for name in self.seats])
        ok = spots.reasons == None  # noqa: E711 (elementwise)
        result = equities(spots.take(ok), samples=self.samples, seed=self.seed, exact=self.exact)
        columns = {"row": pa.array((batch.rows + offset)[ok]), "runouts": pa.array(result.runouts),
                   "exact": pa.array(result.exact)}
        for seat, name in enumerate(self.seats):
            columns[f"{name}_equity"] = pa.array(result.equity[:, seat], from_pandas=True)
            columns[f"{name}_equity_se"] = pa.array(result.se[:, seat], from_pandas=True)
        results = pa.table(columns, schema=self.results_schema())
        scored = Scored(results, ok, spots.reasons, Tally.zeros(holdem.GAME.categories), np.zeros(0, np.int8),
                        np.zeros(0, dtype=object))
        totals = Totals.empty(holdem.GAME.name)
        totals.read = table.num_rows + len(batch.unreadable)
        totals.scored = int(ok.sum())
        totals.blank_lines = batch.blank_lines
        totals.span = batch_span(batch)
        return results, self.scoring.rejects(source, batch, scored, offset), totals, result.exact

    def execute(self) -> dict[str, Any]:
        """Score every input; write the outputs and return the summary written."""
        started = time.perf_counter()
        per_source = [Totals.empty(holdem.GAME.name) for _ in self.sources]
        exact_deals = read_so_far = 0
        table_name = f"equity.{self.output_format}"
        with OutputSet(self.outdir) as staged:
            with TableWriter(staged.path / table_name, schema=self.results_schema()) as table, \
                    TableWriter(staged.path / "rejects.csv", schema=REJECT_SCHEMA,
                                quote_strings=True) as rejects:

                def write(place: int, done: tuple[pa.Table, pa.Table, Totals, NDArray[np.bool_]]) -> None:
                    nonlocal exact_deals, read_so_far
                    results, rejected, counts, exact = done
                    table.write(results)
                    rejects.write(rejected)
                    if self.on_reject:
                        for line in reject_lines(rejected):
                            self.on_reject(line)
                    per_source[place] += counts
                    exact_deals += int(exact.sum())
                    read_so_far += counts.read
                    if self.on_progress:
                        elapsed = time.perf_counter() - started
                        self.on_progress(read_so_far, read_so_far / elapsed if elapsed else 0.0)

                # One thread: a batch's run-outs fill memory in chunks of their own, and the
                # command has no --threads (yet) to trade memory for speed.
                first_rows = stream_sources(self.sources, self.scoring.columns, batch_rows=self.batch_rows,
                                            threads=1, process=self.process_batch, consume=write)
            totals, inputs = summarize(holdem.GAME.name, self.sources, first_rows, per_source)
            return self._finish(staged.path, totals, inputs, exact_deals, started, table_name)

    def _finish(self, folder: Path, totals: Totals, inputs: list[dict[str, Any]], exact_deals: int,
                started: float, table_name: str) -> dict[str, Any]:
        """Write summary.json into ``folder`` (the staging folder) and return it."""
        elapsed = time.perf_counter() - started
        summary = {
            "command": "equity",
            "inputs": inputs,
            "rows_read": totals.read,
            "rows_scored": totals.scored,
            "rows_rejected": totals.rejected,
            "deals": {"exact": exact_deals, "sampled": totals.scored - exact_deals},
            "preflop": {"exact": self.exact, "samples": None if self.exact else self.samples,
                        "seed": None if self.exact else self.seed},
            "outputs": {"equity": table_name, "rejects": "rejects.csv"},
            "elapsed_seconds": round(elapsed, 3),
            "rows_per_second": round(totals.read / elapsed) if elapsed else None,
        }
        write_json(folder / "summary.json", summary)
        return summary
