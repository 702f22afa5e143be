"""Sources: one input file, a batch read from it, and the suffixes that name formats.

Layer: formats and I/O (:mod:`pipeline.formats`), its lowest module; imports
the games' columns (:mod:`pipeline.games.deals`) and the foundation
modules, nothing above.

This module owns what every reader shares: a :class:`Source` (a file, its
format and columns), a :class:`Batch` (rows read from it as text, with
their numbers, lines, raw text and the rows that could not be read), the
compressions a file may carry (:data:`COMPRESSIONS`) and the one place a
compression suffix is taken off a name (:func:`format_suffix`), the error
of a file of no known format (:class:`UnknownFormatError`), a table's
columns as text (:func:`as_strings`) and the one line a read error is told
in (:func:`explain`), and what a poker site's reader tells the rest
(:class:`Site`).  Each format is a module that reads a Source into
Batches (:mod:`~pipeline.formats.csv_files`,
:mod:`~pipeline.formats.parquet_files`,
:mod:`~pipeline.formats.contest_files`, :mod:`~pipeline.formats.phh`, and
each site's logs in :mod:`~pipeline.formats.sites`), behind
:mod:`~pipeline.formats.readers`, which finds the inputs and tells their
formats apart.
"""

from __future__ import annotations

import bisect
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import InputError
from pipeline.games import deals
from pipeline.text import shown

COMPRESSIONS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd"}
#: The suffix of an archive whose files are read in place, never unpacked to disk.
ARCHIVE = ".zip"
#: Bytes of a file's start read to tell its format.
HEAD_BYTES = 512
_BOM = b"\xef\xbb\xbf"
DEFAULT_BATCH_ROWS = 1 << 18


def format_suffix(path: str | Path) -> tuple[str, str | None]:
    """The suffix that names a file's format, lower case, and its compression (or None).

    >>> format_suffix("a/deals.CSV.gz"), format_suffix("b.phhs"), format_suffix("README")
    (('.csv', 'gzip'), ('.phhs', None), ('', None))
    """
    # PurePath.suffixes of the name, without parsing a path again: a folder of thousands of
    # files asks this of each file several times.
    name = path.name if isinstance(path, PurePath) else PurePath(path).name
    suffixes = [] if name.endswith(".") else ["." + s.lower() for s in name.lstrip(".").split(".")[1:]]
    compression = COMPRESSIONS.get(suffixes[-1]) if suffixes else None
    if compression:
        suffixes = suffixes[:-1]
    return (suffixes[-1] if suffixes else ""), compression


def open_input(source: Source) -> pa.NativeFile:
    """A stream of a source's bytes, uncompressed: the file, or its member of a ``.zip`` archive,
    read from the archive as it is (nothing unpacked to disk).

    Raises OSError or pyarrow's errors where the file cannot be read, zipfile.BadZipFile where the
    archive is damaged.
    """
    if source.member is None:
        return pa.input_stream(str(source.path), compression=source.compression)
    archive = zipfile.ZipFile(source.path)
    member = archive.open(source.member)
    archive.close()  # the member keeps the archive's file open until it is closed itself
    return pa.PythonFile(member, mode="r")


def head_of(path: Path, *, compression: str | None = None, member: str | None = None) -> bytes | None:
    """The first bytes of a file (:data:`HEAD_BYTES` at most, a byte-order mark left out), uncompressed,
    or of its member of a ``.zip`` archive; None where it cannot be read."""
    try:
        with open_input(Source(path, "", (), compression, member=member)) as stream:
            head: bytes = stream.read(HEAD_BYTES)
    except (pa.ArrowException, OSError, zipfile.BadZipFile, KeyError):
        return None
    return head.removeprefix(_BOM)


class UnknownFormatError(InputError):
    """A file whose content is no format pokerpipe reads: a note, a picture, an empty file.

    Named on the command line it stops the run, like any file that cannot
    be read; found in a folder or by a pattern it is skipped with a notice
    (:func:`~pipeline.formats.readers.find_sources`).  ``reason`` is the
    message without the path.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{shown(str(path), None, quote=False)}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class PendingBatch:
    """A batch read but not parsed yet: ``load()`` parses it, on whichever thread processes it.

    ``last_row`` is the highest row it will hold, known before any parsing,
    so that the rows of the sources after it can be numbered at once.
    """

    load: Callable[[], Batch]
    last_row: int


@dataclass(frozen=True)
class Source:
    """One input file: where it is, its format and the columns it offers.

    A run of many small files of one format that are read together (one-hand
    ``.phh`` files) is one source whose ``members`` are those files; its
    ``path`` is the first of them.
    """

    path: Path
    format: str  # "csv", "parquet", "contest", "phh" or a site's (pipeline.formats.sites): "pokerstars"
    columns: tuple[str, ...]
    compression: str | None = None
    given_as: str | None = None  # the path as the user wrote it, where ``path`` was made absolute
    members: tuple[Source, ...] = ()
    size_found: int | None = None  # bytes, as the file's status said when it was found; None: not looked
    types: tuple[pa.DataType, ...] | None = None  # the Arrow type of each column, where the file has them
    place: int = 0  # its place among a run's inputs, from 0: with a hand's number, the hand's key
    member: str | None = None  # the file inside the ``.zip`` archive ``path`` that this source is
    #: The keys of its hands (members' included) that a hand read before repeats: set apart as
    #: duplicates (:mod:`pipeline.hands.duplicates`); None, or empty, for none.
    duplicates: NDArray[np.int64] | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """The file as the user named it: what outputs and messages call it."""
        return self.given_as or self.location

    @property
    def location(self) -> str:
        """Where the file is: its path, or, for a member of a ``.zip`` archive, the archive's path and
        the member's inside it (``exports/2024.zip/HH20240101.txt``).

        >>> Source(Path("a/b.zip"), "ggpoker", (), member="HH1.txt").location
        'a/b.zip/HH1.txt'
        """
        return str(self.path) if self.member is None else f"{self.path}/{self.member}"

    @property
    def size(self) -> int:
        """Bytes in the file (in its members), as found: a folder of thousands of one-hand files
        is not looked at again for the summary."""
        if self.members:
            return sum(member.size for member in self.members)
        return self.path.stat().st_size if self.size_found is None else self.size_found

    def column_type(self, name: str) -> pa.DataType:
        """The Arrow type of one of :attr:`columns`: the file's own (Parquet), else text.

        >>> Source(Path("a.csv"), "csv", ("board", "id")).column_type("id")
        DataType(string)
        """
        if self.types is None:
            return pa.string()
        return self.types[self.columns.index(name)]

    def seats(self) -> tuple[str, ...]:
        """Hold'em seat columns present, p1 ... pK in seat order (contest and PHH files have them all)."""
        return deals.seats_of(self.columns)


@dataclass
class Batch:
    """Rows read from one source, as text.

    Attributes
    ----------
    table : pyarrow.Table
        The data rows, string columns only.
    rows : ndarray of shape (table.num_rows,), dtype int64
        1-based data-row number of each row in its source (the instance
        number in a contest file).
    lines : ndarray of shape (table.num_rows,), dtype int64
        1-based line of each row in its source, -1 where lines do not apply
        (Parquet).
    unreadable : list of (row, line, text, reason)
        Rows that could not be split into the source's columns.
    blank_lines : int
        Empty lines skipped; they are not rows.
    raw : CsvLines, list of str or None
        The text of each row exactly as read (see :meth:`raw_text`); None
        where rows have no text of their own (Parquet).
    field_lines : bool
        True when each field of a row is a line of its own (contest
        instances): a problem in field f is on line ``lines + 1 + f``.
    counts : dict of str to int
        Rows read but neither scored nor rejected, by kind (PHH hands
        without a showdown, see :data:`pipeline.formats.histories.SET_APART`), and other
        counts for the summary.
    last_row : int
        The highest row read, when rows not in the table may come last.
    member_of_row : dict of int to Source, optional
        For a source of several files (``Source.members``), the file each
        row comes from; each such file holds one row.
    hand_tables : dict of str to pyarrow.Table, optional
        A hand history's ``hands``, ``seats`` and ``actions`` rows of the
        hands of the batch (:mod:`pipeline.hands.model`), every hand read.
    """

    table: pa.Table
    rows: np.ndarray
    lines: np.ndarray
    unreadable: list[tuple[int, int, str, str]] = field(default_factory=list)
    blank_lines: int = 0
    raw: CsvLines | list[str] | None = None
    field_lines: bool = False
    counts: dict[str, int] = field(default_factory=dict)
    last_row: int = 0
    member_of_row: dict[int, Source] | None = None
    hand_tables: dict[str, pa.Table] | None = None

    def raw_text(self, indices: np.ndarray) -> list[str] | None:
        """The input text of the rows at ``indices``, or None when rows have none (Parquet)."""
        if isinstance(self.raw, CsvLines):
            return [self.raw.text(int(self.lines[i])) for i in indices]
        if isinstance(self.raw, list):
            return [self.raw[i] for i in indices]
        return None


class CsvLines:
    """The raw text of a CSV batch's lines, looked up only for the rows that need it."""

    def __init__(self, pieces: list[tuple[int, bytes]]) -> None:
        self._firsts = [first for first, _ in pieces]
        self._pieces = [piece for _, piece in pieces]
        self._starts: dict[int, np.ndarray] = {}

    def text(self, line: int) -> str:
        """The line ``line`` of the file exactly as read, without its line end."""
        index = bisect.bisect_right(self._firsts, line) - 1
        piece = self._pieces[index]
        if index not in self._starts:
            data = np.frombuffer(piece, dtype=np.uint8)
            newline, ret = data == ord("\n"), data == ord("\r")
            ret_end = ret & ~np.append(newline[1:], False)
            ends = np.flatnonzero(newline | ret_end)
            self._starts[index] = np.concatenate([[0], ends + 1, [len(piece) + 1]])
        starts = self._starts[index]
        k = line - self._firsts[index]
        start, stop = int(starts[k]), int(starts[k + 1]) - 1
        return piece[start:stop].rstrip(b"\r\n").decode("utf-8", errors="replace")


def as_strings(table: pa.Table, columns: tuple[str, ...], typed: frozenset[str] = frozenset()) -> pa.Table:
    """``columns`` of ``table`` as text, but those in ``typed``; nulls for those it lacks."""
    arrays = []
    for name in columns:
        if name in table.column_names:
            column = table.column(name)
            arrays.append(column if name in typed or pa.types.is_string(column.type)
                          else column.cast(pa.string()))
        else:
            arrays.append(pa.nulls(table.num_rows, pa.string()))
    return pa.table(arrays, names=list(columns))


def explain(error: Exception) -> str:
    """The first line of a read error's message, at most 200 characters: what a message quotes."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return shown(text, 200, quote=False)


@dataclass(frozen=True)
class Site:
    """What a site's reader tells the rest of the package.

    Attributes
    ----------
    name : str
        The source format (:attr:`Source.format <pipeline.formats.sources.Source.format>`),
        lower case: ``"pokerstars"``.
    venue : str
        The site's name, as its hands' ``site`` and the summary's ``by_venue`` give it.
    suffixes : tuple of str
        The file names it reads (before any compression suffix): ``(".txt",)``.
    recognises : callable
        ``recognises(head) -> bool``: a file whose first bytes (:data:`HEAD_BYTES` at most, a
        byte-order mark left out) are ``head`` is this site's log.
    read_batches, read_pending : callable
        ``(source, *, batch_rows) -> iterator``: the batches of a source, parsed where they are
        read or left for the thread that loads them (:class:`~pipeline.formats.sources.PendingBatch`).
    """

    name: str
    venue: str
    suffixes: tuple[str, ...]
    recognises: Callable[[bytes], bool]
    read_batches: Callable[..., Iterator[Batch]]
    read_pending: Callable[..., Iterator[PendingBatch]]

