"""Generate: reproducible random archives dealt from a real deck.

Layer: runs (:mod:`pipeline.runs`); imports the formats, the games, pure
evaluation and the foundation modules.

This module owns synthetic input for the rest of the pipeline: hold'em deal
archives and Larvis games files of any size, written as CSV (plain or
compressed), Parquet or, for hold'em, a contest file, all from a seed.

Formats, chosen by the file's extension
---------------------------------------
``.csv``, ``.csv.gz``, ``.csv.bz2``, ``.csv.zst``
    CSV with a header.  Hold'em: ``board`` (five cards, "Ah Kd 2c 3s 4h"),
    then ``p1`` ... ``pK`` (two cards, "Qs Td").  Larvis: ``Hand1`` and
    ``Hand2``, five rank symbols each ("AAKQ2").  Ten is written ``T``.  A
    compressed CSV decompresses to exactly the bytes of the plain one.
``.parquet``
    The same columns, all strings, zstd-compressed.
``.in``, ``.txt``
    Hold'em only: instances as in the CTU Open 2012 "Rhinoceros Beetle"
    statement -- a line with N, a line with the five community cards, then
    N lines of two cards -- with ten written ``X``, the statement's symbol.

Dealing
-------
Each row is dealt from its own 52-card deck by a partial Fisher-Yates
shuffle: position i takes the card at a uniform position j in i..51 and
the card at i moves to j.  Only the 5 + 2K (hold'em) or 10 (Larvis) dealt
positions are shuffled, and each step runs over all rows at once on an
``(n, 52)`` uint8 deck, so no card appears twice within a deal and every
deal is uniform over ordered draws without replacement.  Larvis games take
both hands from one deck and keep only the ranks.

Reproducibility
---------------
Rows are dealt in blocks of ``BLOCK_ROWS``.  Block b draws from its own
generator, ``np.random.default_rng(SeedSequence(seed, spawn_key=(b,)))``,
the b-th child that ``SeedSequence(seed).spawn`` would give (numpy's
recommended way to split one seed into independent streams), and a block
is always dealt whole.  A row's cards therefore depend only on the game,
the number of players, the seed and the row's number: not on
``batch_rows``, not on the format, and a shorter archive is a prefix of a
longer one.  The same arguments give a byte-identical CSV or contest file.

Memory is bounded by ``batch_rows`` (about 250 bytes per six-player row at
the peak), whatever ``rows`` is; every file is written under a temporary
name and renamed into place only when complete (:mod:`pipeline.formats.writers`).
An existing file is replaced only when asked (``force``).
"""

from __future__ import annotations

import operator
import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from pipeline.errors import UsageError
from pipeline.formats import contest_files, csv_files, parquet_files
from pipeline.formats.sources import COMPRESSIONS
from pipeline.formats.writers import TableWriter, atomic_path, check_writable, csv_write_options
from pipeline.games import registry

#: Rows dealt from one generator; a block is the unit of reproducibility.
BLOCK_ROWS = 1 << 16

#: Compressed CSV extensions and their pyarrow codec names.
CSV_SUFFIX = csv_files.SUFFIXES[0]
CSV_CODECS = {f"{CSV_SUFFIX}{suffix}": codec for suffix, codec in COMPRESSIONS.items()}
CONTEST_EXTENSIONS = contest_files.SUFFIXES
EXTENSIONS = (CSV_SUFFIX, *CSV_CODECS, parquet_files.SUFFIXES[0], *CONTEST_EXTENSIONS)

# A StringArray addresses its bytes with int32 offsets; a batch must fit.
_MAX_COLUMN_BYTES = 2**31 - 1



def generate(path: str | os.PathLike[str], *, game: str, rows: int, players: int = 6, seed: int = 0,
             batch_rows: int = 1_000_000, force: bool = False, hole_cards: int | None = None) -> int:
    """Write ``rows`` random deals to ``path``; return the number of rows written.

    Parameters
    ----------
    path : str or path-like
        The format follows the extension: ``.csv``, ``.csv.gz``, ``.csv.bz2``,
        ``.csv.zst``, ``.parquet``, or ``.in`` / ``.txt`` for a contest file
        (hold'em only).
    game : str
        A registered game (:func:`pipeline.games.names`).
    rows : int
        Number of rows (deals, games), 0 or more.  Zero writes a valid empty
        file (a header only, for CSV).
    players : int
        Players per deal, 1 to the game's ``max_players``; ignored by a game
        whose rows have a fixed number of hands (Larvis).
    seed : int
        Non-negative; the same arguments always give the same deals.
    batch_rows : int
        Rows built and written at a time; bounds memory.  Does not change
        the deals.
    hole_cards : int, optional
        The hole cards of each seat where the game deals several counts
        (Omaha: 4, 5 or 6; its smallest by default).
    force : bool
        Replace ``path`` if it exists.  Without it an existing file is
        refused before anything is dealt, and one that appears while the
        archive is written is left as it is.

    Raises
    ------
    UsageError
        On an unknown game or extension, a negative ``rows``, ``players``
        outside the game's range, a negative ``seed``, ``batch_rows`` below
        1, or a contest file asked of a game that has none.
    OutputExists
        ``path`` exists and ``force`` is not set (a UsageError too).
    OutputError
        When the file cannot be written, or appeared meanwhile (without ``force``).
    """
    path = Path(path)
    rows = _whole_number("rows", rows, minimum=0)
    seed = _whole_number("seed", seed, minimum=0)
    batch_rows = _whole_number("batch_rows", batch_rows, minimum=1)
    played = registry.get(game).dealing(hole_cards)
    if played.max_players is not None:
        players = _whole_number("players", players, minimum=1)
        if players > played.max_players:
            raise UsageError(f"players must be between 1 and {played.max_players} for {game}, got {players}")
    extension = output_extension(path)
    if extension in CONTEST_EXTENSIONS and not played.writes_contest:
        raise UsageError(f"{path}: contest files ({', '.join(CONTEST_EXTENSIONS)}) hold hold'em "
                         f"instances; game {game!r} needs .csv, .csv.gz, .csv.bz2, .csv.zst or .parquet")
    codec = CSV_CODECS.get(extension)
    if codec is not None and not pa.Codec.is_available(codec):
        raise UsageError(f"{path}: this pyarrow build cannot write {codec} ({extension})")

    check_writable(path, replace=force)

    dealer = _Dealer(seed, played.cards_per_row(players), played.deck())
    if extension in CONTEST_EXTENSIONS:
        step = batch_rows
        with atomic_path(path, replace=force) as temporary, open(temporary, "wb") as out:
            for start in range(0, rows, step):
                out.write(played.contest_bytes(dealer.deal(start, min(start + step, rows))).data)
        return rows

    schema = pa.schema([(name, pa.string()) for name in played.deal_columns(players)])
    step = min(batch_rows, _MAX_COLUMN_BYTES // played.text_width(players))
    batches = (played.dealt_batch(dealer.deal(start, min(start + step, rows)), schema)
               for start in range(0, rows, step))

    if codec is None:
        with TableWriter(path, schema=schema, replace=force) as writer:
            for batch in batches:
                writer.write(batch)
    else:
        # TableWriter knows plain .csv only; same CSV writer, compressed stream.
        with atomic_path(path, replace=force) as temporary:
            with pa.CompressedOutputStream(pa.OSFile(str(temporary), "wb"), codec) as stream:
                with pacsv.CSVWriter(stream, schema, write_options=csv_write_options()) as writer:
                    for batch in batches:
                        writer.write_batch(batch)
    return rows


def output_extension(path: str | os.PathLike[str]) -> str:
    """The output format's extension of ``path``, lower case.

    >>> output_extension("deals.CSV.gz"), output_extension("a.b/deals.parquet")
    ('.csv.gz', '.parquet')
    """
    name = Path(path).name.lower()
    # Longest first, so ".csv.gz" is not taken for a bare ".gz".
    for extension in sorted(EXTENSIONS, key=len, reverse=True):
        if name.endswith(extension) and len(name) > len(extension):
            return extension
    raise UsageError(f"path {str(path)!r} has an unknown output format: expected one of "
                     f"{', '.join(EXTENSIONS)}")


def _whole_number(name: str, value: int, *, minimum: int) -> int:
    if isinstance(value, bool):
        raise UsageError(f"{name} must be an integer, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise UsageError(f"{name} must be an integer, got {value!r}") from None
    if value < minimum:
        raise UsageError(f"{name} must be at least {minimum}, got {value}")
    return value


class _Dealer:
    """Deals rows ``start:stop`` of an archive, block by block.

    ``deal`` returns an ``(m, n)`` uint8 array: ``dealt[i, row]`` is the
    i-th card dealt to that row.  The last block dealt is kept, so batches
    that do not line up with blocks deal each block once.
    """

    def __init__(self, seed: int, dealt_per_row: int, deck: np.ndarray) -> None:
        self.seed = seed
        self.dealt_per_row = dealt_per_row
        self.deck = deck
        self._block: tuple[int, np.ndarray] | None = None

    def deal(self, start: int, stop: int) -> np.ndarray:
        out = np.empty((self.dealt_per_row, stop - start), dtype=np.uint8)
        for block in range(start // BLOCK_ROWS, (stop - 1) // BLOCK_ROWS + 1):
            first = block * BLOCK_ROWS
            low, high = max(start, first), min(stop, first + BLOCK_ROWS)
            out[:, low - start:high - start] = self._dealt(block)[:, low - first:high - first]
        return out

    def _dealt(self, block: int) -> np.ndarray:
        if self._block is None or self._block[0] != block:
            self._block = block, _shuffle_block(self.seed, block, self.dealt_per_row, self.deck)
        return self._block[1]


def _shuffle_block(seed: int, block: int, dealt_per_row: int, codes: np.ndarray) -> np.ndarray:
    """Deal ``dealt_per_row`` cards to each of BLOCK_ROWS rows, one deck of ``codes`` each."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))
    size = len(codes)
    deck = np.empty((BLOCK_ROWS, size), dtype=np.uint8)
    deck[:] = codes.astype(np.uint8)
    flat = deck.reshape(-1)
    row_start = np.arange(0, BLOCK_ROWS * size, size, dtype=np.intp)
    index = np.empty(BLOCK_ROWS, dtype=np.intp)
    dealt = np.empty((dealt_per_row, BLOCK_ROWS), dtype=np.uint8)
    for i in range(dealt_per_row):
        chosen = rng.integers(i, size, size=BLOCK_ROWS, dtype=np.uint8)
        np.add(row_start, chosen, out=index)
        dealt[i] = flat[index]
        # Position i is never read again, so half a swap is enough.
        flat[index] = deck[:, i]
    return dealt
