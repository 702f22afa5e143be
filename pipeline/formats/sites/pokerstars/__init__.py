"""PokerStars hand histories: the text logs a poker site writes, read into Records.

Layer: formats and I/O (:mod:`pipeline.formats`); the package imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.histories`,
:mod:`~pipeline.formats.scan`, the chunks every site's reader shares
(:class:`pipeline.formats.logs.reader.Chunk`), the board games' columns, the
hands' model and :class:`~pipeline.hands.record.Record`, and the foundation
modules, never the runs or the command line.

This package owns the PokerStars hand-history format (``.txt`` session files,
plain or compressed; one hand after another, each starting with a header line
``PokerStars Hand #ID: ...``, ``PokerStars Zoom Hand #...``, ``PokerStars Game
#...``, tournaments included): which files are PokerStars logs
(:func:`is_pokerstars`), their text cut into chunks of whole hands, and the
:class:`~pipeline.hands.record.Record` of every hand read
(:func:`read_records`).  Everything after the reading (the replay of the
chips, how each hand ends, the audit, the showdown rows and the hand tables)
is the hands layer's, as for every format (:func:`read_batches`).

How a file is read
------------------
In chunks of whole hands (:data:`CHUNK_BYTES`, cut where a hand starts by
:func:`pipeline.formats.scan.chunks`), so memory is bounded by the chunk, not
by the file; each chunk is read at once in numpy and pyarrow, never a loop or
a regular expression per line in Python.  One numpy pass over a chunk's bytes
finds its line ends; lines are told apart by their first and last bytes, read
as bytes or 64-bit words and compared in numpy, and numpy assigns each line to
its hand by a cumulative sum of hand starts.  pyarrow's string kernels (RE2
regular expressions run in C++ over whole arrays) read only the lines that
need them, and as few times as they can: lines that should all match one
pattern (hand starts, seat lines, headers, collections) are matched at once as
one text, line by line only if that fails; texts that recur (an action's
words, a seat's fate in the summary, the stakes) are read once per different
text; a header's fields are cut where its fixed characters are, an amount
where its word ends or in the bytes.  A name is taken from the line only as
the text before the last ``": "`` of an action line (the site's text after it
never holds one) or before the site's fixed words of a collection, and must
then be a seated name of that hand: it is never guessed.  Names are matched as
codes of one dictionary of the chunk's seated names: a seat line, an action or
a collection is a (hand, code) key, looked up in pyarrow's hash table (or, for
a few names, searched among the sorted keys).

The modules
-----------
Bottom to top, each importing only those before it:

* :mod:`~pipeline.formats.sites.pokerstars.lines`: a chunk's bytes, its lines, hands and sections, the
  first fault of each hand, patterns said of many lines at once, the streets, small array helpers;
* :mod:`~pipeline.formats.sites.pokerstars.values`: values as the site writes them: amounts, stakes,
  times with their zones, tournament levels and buy-ins, cards;
* :mod:`~pipeline.formats.sites.pokerstars.fields`: where each field of the site's lines is (seat lines,
  action lines, collections, cash-outs, uncalled bets, ``Dealt to``, totals, headers, tables);
* :mod:`~pipeline.formats.sites.pokerstars.record`: the format's patterns, the rules a hand is rejected
  by, and the Record filled in from the text (:func:`~pipeline.formats.sites.pokerstars.record.parse`).

This module puts them together into the reader (:func:`read_batches`,
:func:`read_pending`, :func:`read_records`).  :data:`CHUNK_BYTES` is read here, where it is
defined, each time a file is read.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import InputError
from pipeline.formats import scan
from pipeline.formats.logs.reader import Chunk, chunk_records, pending_batches
from pipeline.formats.scan import tidy
from pipeline.formats.sites.pokerstars.lines import Lines, lines_of
from pipeline.formats.sites.pokerstars.record import VENUE, parse
from pipeline.formats.sources import Batch, PendingBatch, Site, Source, format_suffix, head_of, open_input
from pipeline.hands.record import Record
from pipeline.text import repair_utf8

__all__ = ["CHUNK_BYTES", "HAND_START", "SUFFIXES", "VENUE", "is_pokerstars", "read_batches", "read_pending",
           "starts_a_log",
           "read_records"]

SUFFIXES = (".txt",)
#: Bytes read at a time, cut at the last hand start: memory is bounded by a chunk.  Not the PHH
#: reader's part size (phh.CHUNK_BYTES, 16 MiB), a fact of its own: a chunk here is also what one
#: parse holds at once, with arrays over every line of it, so its size bounds the run's memory
#: (100,000 hands: a peak RSS of about 240 MiB at 8 MiB, 320 MiB at 16 MiB); a PHH part is read at
#: once, and parsed :data:`pipeline.formats.phh.GROUP_HANDS` hands at a time.
CHUNK_BYTES = 1 << 23
#: What a line starting a hand looks like: enough to cut a file into hands.
HAND_START = r"^PokerStars [^#]*#[0-9]+: .* - [0-9]{4}/[0-9]{1,2}/[0-9]{1,2} "

_START_BYTES = re.compile(HAND_START.encode())
# The same, for many lines at once (see :func:`.lines.matching`): no class of
# characters takes a line end, and what the pattern leaves open at a line's end is the rest of it.
_HAND_STARTS = lines_of(r"PokerStars [^#\n]*#[0-9]+: .* - [0-9]{4}/[0-9]{1,2}/[0-9]{1,2} .*")
#: A hand's first line: its first bytes, its pattern, and that of many such lines at once.
_HAND = ("PokerStars ", HAND_START, _HAND_STARTS)


def is_pokerstars(path: Path) -> bool:
    """Whether a ``.txt`` file (plain or compressed) starts with a PokerStars header line.

    Reads the first bytes only; a file that cannot be read is not one.
    """
    suffix, compression = format_suffix(path)
    head = head_of(path, compression=compression) if suffix in SUFFIXES else None
    return head is not None and starts_a_log(head)


def starts_a_log(head: bytes) -> bool:
    """Whether a file's first bytes (its byte-order mark left out) are a PokerStars header's.

    >>> starts_a_log(b"PokerStars Hand #1: Hold'em"), starts_a_log(b"Poker Hand #HD1: Hold'em")
    (True, False)
    """
    return head.startswith(b"PokerStars")


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """Read a PokerStars source in batches of at most ``batch_rows`` hands.

    Each hand is read into a :class:`~pipeline.hands.record.Record`; the
    rest (showdown rows, rejects, counts, the audit and the hand tables) is
    worked out from it as for every hand-history format
    (:func:`pipeline.formats.histories.batch_of`).  A batch's rows are its
    hands' numbers in the file (1-based, every hand counted), its lines the
    line where each hand starts.

    Raises InputError naming the file when it cannot be read (a damaged archive).
    """
    for pending in read_pending(source, batch_rows=batch_rows):
        yield pending.load()


def read_pending(source: Source, *, batch_rows: int) -> Iterator[PendingBatch]:
    """The batches of :func:`read_batches`, each left for the thread that loads it to parse.

    This thread only reads the text and finds its lines and hands; the
    parsing, the replay and the tables, most of the work, run where the
    batch is loaded, so that several cores share one file.
    """
    return pending_batches(_chunks(source), source, batch_rows=batch_rows)


def read_records(source: Source, *, batch_rows: int) -> Iterator[Record]:
    """Read a PokerStars source as :class:`~pipeline.hands.record.Record`\\ s of at most ``batch_rows``
    hands: every hand, rejected ones too, the same hands as the batches of :func:`read_batches`.

    Raises InputError naming the file when it cannot be read (a damaged archive).
    """
    return chunk_records(_chunks(source), batch_rows=batch_rows)


def _chunks(source: Source) -> Iterator[Chunk]:
    """The hands of a source a chunk at a time (:func:`_pieces`), their lines found, not parsed."""
    hands_before = 0
    for piece, first_line, newlines in _pieces(source):
        text, bad_lines = repair_utf8(piece)  # bytes replaced are never a "\n"
        lines = Lines(text, newlines, _HAND)
        chunk = Chunk(partial(parse, lines, bad_lines, first_line, hands_before), hands=lines.hands,
                      hands_before=hands_before)
        yield chunk
        hands_before += chunk.hands


def _pieces(source: Source) -> Iterator[tuple[NDArray[np.uint8], int, NDArray[np.intp]]]:
    """Whole hands of a source, a chunk at a time (:func:`pipeline.formats.scan.chunks`, cut at the
    last line matching :data:`HAND_START`), with line ends ``\\n`` and no byte-order mark
    (:func:`pipeline.formats.scan.tidy`).

    Yields (text, number of its first line, where its ``\\n`` are).
    """
    line = 1
    try:
        with open_input(source) as stream:
            last = partial(scan.last_start, start=_START_BYTES)
            for chunk in scan.chunks(stream, last, size=CHUNK_BYTES, tidy=tidy):
                yield chunk.text, line, chunk.newlines
                line += len(chunk.newlines)
    except (pa.ArrowException, OSError, zipfile.BadZipFile) as error:
        raise InputError(f"{source.name}: cannot read past line {line} ({error})") from None


#: This site, as :mod:`pipeline.formats.sites` finds it.
SITE = Site(name="pokerstars", venue=VENUE, suffixes=SUFFIXES, recognises=starts_a_log,
            read_batches=read_batches, read_pending=read_pending)
