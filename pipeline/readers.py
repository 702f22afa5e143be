"""Readers: input files as batches of raw text columns, every row accounted for.

This module owns input: finding the files a run names (paths, folders,
glob patterns), telling their format and game, and reading them in batches
of bounded size:

* CSV, plain or compressed (``.gz``, ``.bz2``, ``.zst``), with pyarrow's
  streaming reader, one block at a time; a line is a row (quotes around a
  value are taken off but never join lines) and bytes that are not UTF-8
  stop the read at their line;
* Parquet, one record batch at a time;
* contest files (the "Rhinoceros Beetle" format), instance by instance,
  never holding more than one line of at most ``MAX_LINE`` characters.

Every batch carries the data rows as a table of string columns, their row
and line numbers, and the lines that could not even be split into fields
(wrong number of fields), so that nothing read is ever dropped unseen.
"""

from __future__ import annotations

import codecs
import glob
import io
import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pipeline import holdem, larvis
from pipeline.cards import shown, text_lengths
from pipeline.errors import InputError

CSV_SUFFIXES = (".csv", ".tsv")
COMPRESSIONS = {".gz": "gzip", ".bz2": "bz2", ".zst": "zstd"}
PARQUET_SUFFIXES = (".parquet", ".pq")
CONTEST_SUFFIXES = (".in", ".txt")
GAMES = ("larvis", "holdem")
DEFAULT_BATCH_ROWS = 1 << 18
# pyarrow's streaming CSV reader parses blocks of this size and reads a few
# dozen of them ahead; small blocks keep that read-ahead, and so memory, small
# whatever the batch size.  Blocks are joined into batches of batch_rows.  A
# line must fit in one block.
CSV_BLOCK_BYTES = 1 << 20
_HEADER_BYTES = 1 << 16  # the longest header line read
MAX_LINE = 1 << 20  # characters; a contest file line holds at most a few dozen
HOLDEM_SEATS = tuple(f"p{seat}" for seat in range(1, holdem.MAX_PLAYERS + 1))


@dataclass(frozen=True)
class Source:
    """One input file: where it is, its format and the columns it offers."""

    path: Path
    format: str  # "csv", "parquet" or "contest"
    columns: tuple[str, ...]
    compression: str | None = None

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    @property
    def game(self) -> str:
        """The game the columns describe: ``"larvis"`` or ``"holdem"``."""
        if set(larvis.COLUMNS) <= set(self.columns):
            return "larvis"
        if "board" in self.columns:
            return "holdem"
        raise InputError(
            f"{self.path}: cannot tell the game from the columns "
            f"{shown(', '.join(self.columns), quote=False) or '(none)'}: "
            f"expected {','.join(larvis.COLUMNS)} (Larvis) or board,p1,...,p10 (hold'em)")

    def seats(self) -> tuple[str, ...]:
        """Hold'em seat columns present, p1 ... pK in seat order."""
        return tuple(name for name in HOLDEM_SEATS if name in self.columns)


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
    """

    table: pa.Table
    rows: np.ndarray
    lines: np.ndarray
    unreadable: list[tuple[int, int, str, str]] = field(default_factory=list)
    blank_lines: int = 0


def expand_inputs(patterns: list[str | os.PathLike]) -> list[Path]:
    """Resolve paths, folders and glob patterns to a list of input files.

    A folder stands for the data files directly inside it, in name order.
    Raises ValueError naming any pattern that matches nothing.
    """
    files: list[Path] = []
    for pattern in patterns:
        text = str(pattern)
        matches = [Path(text)] if Path(text).exists() else [Path(m) for m in sorted(glob.glob(text))]
        if not matches:
            raise InputError(f"{text}: no such file, folder or matching pattern")
        for match in matches:
            if match.is_dir():
                inside = sorted(p for p in match.iterdir() if p.is_file() and _known_format(p))
                if not inside:
                    raise InputError(f"{match}: folder holds no CSV, Parquet or contest file")
                files.extend(inside)
            else:
                files.append(match)
    return list(dict.fromkeys(files))


def _known_format(path: Path) -> bool:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in COMPRESSIONS:
        suffixes = suffixes[:-1]
    return bool(suffixes) and suffixes[-1] in CSV_SUFFIXES + PARQUET_SUFFIXES + CONTEST_SUFFIXES


def open_source(path: str | os.PathLike) -> Source:
    """Inspect one input file: its format, compression and column names.

    Raises ValueError with the path and what is wrong when the file is
    missing, empty or of no known format.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: file is empty")
    suffixes = [s.lower() for s in path.suffixes]
    compression = COMPRESSIONS.get(suffixes[-1]) if suffixes else None
    if compression:
        suffixes = suffixes[:-1]
    suffix = suffixes[-1] if suffixes else ""
    with open(path, "rb") as handle:
        magic = handle.read(4)
    if suffix in PARQUET_SUFFIXES or (magic == b"PAR1" and not compression):
        try:
            schema = pq.read_schema(path)
        except (pa.ArrowException, OSError) as error:
            raise InputError(f"{path}: not a readable Parquet file ({error})") from None
        return Source(path, "parquet", tuple(schema.names))
    if suffix in CONTEST_SUFFIXES or (suffix not in CSV_SUFFIXES and _looks_like_contest(path, compression)):
        return Source(path, "contest", ("board",) + HOLDEM_SEATS, compression)
    return Source(path, "csv", _csv_header(path, compression), compression)


def _looks_like_contest(path: Path, compression: str | None) -> bool:
    with pa.input_stream(str(path), compression=compression) as stream:
        head = stream.read(256)
    first = head.split(b"\n", 1)[0].strip()
    return first.isdigit()


def _delimiter(path: Path) -> str:
    return "\t" if ".tsv" in [s.lower() for s in path.suffixes] else ","


def _csv_header(path: Path, compression: str | None) -> tuple[str, ...]:
    delimiter = _delimiter(path)
    try:
        with pa.input_stream(str(path), compression=compression) as stream:
            head = stream.read(_HEADER_BYTES)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{path}: cannot read ({error})") from None
    if b"\0" in head:
        raise InputError(f"{path}: binary data where a CSV header was expected")
    first = head.splitlines(keepends=True)[0] if head else b""
    if len(head) == _HEADER_BYTES and not first.endswith((b"\n", b"\r")):
        raise InputError(f"{path}: the first line is longer than {_HEADER_BYTES:,} bytes: "
                         f"expected a header row")
    # pyarrow skips a UTF-8 byte-order mark; so does the header.
    line = first.rstrip(b"\r\n").removeprefix(b"\xef\xbb\xbf")
    if not line.strip():
        raise InputError(f"{path}: the first line is empty: expected a header row")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: the header line is not UTF-8 text") from None
    if delimiter not in text and ";" in text:
        raise InputError(f"{path}: header {shown(text)} is split by ';': columns must be separated by commas")
    return tuple(name.strip().strip('"') for name in text.split(delimiter))


def read_batches(source: Source, columns: tuple[str, ...], *,
                 batch_rows: int = DEFAULT_BATCH_ROWS,
                 row_groups: range | None = None) -> Iterator[Batch]:
    """Read the given columns of a source in batches of about ``batch_rows`` rows.

    Columns the source lacks come back as nulls (an empty hold'em seat).
    ``row_groups``, for Parquet only, reads just that range of row groups;
    their rows keep the numbers they have in the whole file.
    Raises ValueError naming the file, the place and the reason when the
    file cannot be read on (a truncated archive, a line longer than the
    read block, bytes that are not text).
    """
    if row_groups is not None and source.format != "parquet":
        raise InputError(f"{source.path}: only Parquet files are read by row group")
    if source.format == "parquet":
        yield from _parquet_batches(source, columns, batch_rows, row_groups)
    elif source.format == "contest":
        yield from _contest_batches(source, batch_rows)
    else:
        yield from _csv_batches(source, columns, batch_rows)


def _as_strings(table: pa.Table, columns: tuple[str, ...]) -> pa.Table:
    arrays = []
    for name in columns:
        if name in table.column_names:
            column = table.column(name)
            arrays.append(column if pa.types.is_string(column.type) else column.cast(pa.string()))
        else:
            arrays.append(pa.nulls(table.num_rows, pa.string()))
    return pa.table(arrays, names=list(columns))


def parquet_row_groups(source: Source) -> list[int]:
    """Rows of each row group of a Parquet source, in file order."""
    try:
        metadata = pq.read_metadata(source.path)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: not a readable Parquet file ({error})") from None
    return [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]


def _parquet_batches(source: Source, columns: tuple[str, ...], batch_rows: int,
                     row_groups: range | None = None) -> Iterator[Batch]:
    present = [name for name in columns if name in source.columns]
    done = 0
    try:
        parquet = pq.ParquetFile(source.path)
        groups = None
        if row_groups is not None:
            groups = list(row_groups)
            if not groups:
                return
            done = sum(parquet.metadata.row_group(index).num_rows for index in range(row_groups.start))
        for record_batch in parquet.iter_batches(batch_size=batch_rows, columns=present,
                                                 row_groups=groups):
            table = _as_strings(pa.Table.from_batches([record_batch]), columns)
            rows = np.arange(done + 1, done + 1 + table.num_rows, dtype=np.int64)
            done += table.num_rows
            yield Batch(table, rows, np.full(table.num_rows, -1, dtype=np.int64))
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read past row {done}: {error}") from None


def _csv_batches(source: Source, columns: tuple[str, ...], batch_rows: int) -> Iterator[Batch]:
    skipped: list[tuple[int, str, int]] = []

    def skip(row: pacsv.InvalidRow) -> str:
        skipped.append((row.number, row.text, row.actual_columns))
        return "skip"

    delimiter = _delimiter(source.path)
    present = [name for name in columns if name in source.columns]
    if _header_only(source):
        yield _csv_batch(source, pa.table({name: pa.array([], pa.string()) for name in present}), columns,
                         np.zeros(0, dtype=np.int64), [])
        return
    # Single-threaded parsing is what gives the skip handler line numbers.  The
    # header was read by _csv_header: its names are used as they are there.
    read_options = pacsv.ReadOptions(use_threads=False, column_names=list(source.columns), skip_rows=1,
                                     block_size=CSV_BLOCK_BYTES)
    # A line is a row: quotes are not syntax, so one stray quote cannot swallow
    # the lines after it.  _csv_batch takes enclosing quotes off the values.
    parse_options = pacsv.ParseOptions(delimiter=delimiter, invalid_row_handler=skip, quote_char=False,
                                       ignore_empty_lines=False, newlines_in_values=False)
    convert_options = pacsv.ConvertOptions(
        include_columns=present, column_types={name: pa.string() for name in source.columns},
        strings_can_be_null=False, quoted_strings_can_be_null=False)
    yielded = 0  # data rows handed out so far, blank lines included
    reported = 0  # entries of `skipped` already attached to a batch
    try:
        with pa.input_stream(str(source.path), compression=source.compression) as stream:
            checked = pa.PythonFile(_Utf8Stream(stream, source.path), mode="r")
            reader = pacsv.open_csv(checked, read_options=read_options, parse_options=parse_options,
                                    convert_options=convert_options)
            blocks: list[pa.RecordBatch] = []
            block_lines: list[np.ndarray] = []
            pending = 0  # rows in `blocks`
            for record_batch in itertools.chain(reader, [None]):
                if record_batch is not None:
                    n = record_batch.num_rows
                    # Lines of the rows handed out: the header is line 1 and
                    # every skipped line before a row pushes it one line down.
                    skip_lines = np.array([line for line, _, _ in skipped], dtype=np.int64)
                    shifts = skip_lines - np.arange(len(skip_lines)) - 2
                    ordinals = np.arange(yielded, yielded + n, dtype=np.int64)
                    block_lines.append(ordinals + 2 + np.searchsorted(shifts, ordinals, side="right"))
                    blocks.append(record_batch)
                    yielded += n
                    pending += n
                    if pending < batch_rows:
                        continue
                table = pa.Table.from_batches(blocks, schema=reader.schema)
                lines = np.concatenate(block_lines) if block_lines else np.zeros(0, dtype=np.int64)
                fresh = skipped[reported:]
                reported = len(skipped)
                blocks, block_lines, pending = [], [], 0
                yield _csv_batch(source, table, columns, lines, fresh)
    except (pa.ArrowException, OSError, UnicodeDecodeError) as error:
        raise InputError(f"{source.path}: cannot read past line {_last_line(yielded, skipped)}: "
                         f"{_explain(error)}") from None


def _header_only(source: Source) -> bool:
    """True when the file is its header line alone, without a line end: pyarrow cannot skip it."""
    with pa.input_stream(str(source.path), compression=source.compression) as stream:
        head = stream.read(_HEADER_BYTES + 1)
    return b"\n" not in head and b"\r" not in head


def _unquoted(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Values without their enclosing double quotes: ``"Ah Kd"`` reads as ``Ah Kd``."""
    if not pc.any(pc.starts_with(column, '"')).as_py():
        return column
    quoted = pc.match_substring_regex(column, r'^"(?:[^"]|"")*"$')
    inner = pc.replace_substring(pc.utf8_slice_codeunits(column, 1, -1), '""', '"')
    return pc.if_else(quoted, inner, column)


def _last_line(yielded: int, skipped: list) -> int:
    return yielded + len(skipped) + 1


class _Utf8Stream:
    """A binary stream that checks, as pyarrow reads it, that its bytes are UTF-8 text.

    pyarrow cannot hand a skipped line that is not UTF-8 to the invalid-row
    handler (it prints a traceback and fails with a parse error); checking
    here stops the run with one line naming the line of the bad bytes.
    """

    def __init__(self, stream, path: Path) -> None:
        self._stream = stream
        self._path = path
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._line = 1
        self.closed = False

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        try:
            self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            line = self._line + data.count(b"\n", 0, max(error.start, 0))
            raise InputError(f"{self._path}: line {line}: bytes that are not UTF-8 text") from None
        self._line += data.count(b"\n")
        return data

    def close(self) -> None:
        self.closed = True


def _explain(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    text = shown(text, 200, quote=False)  # pyarrow quotes whole rows: a hostile one is megabytes
    if "straddl" in text or "block size" in text.lower():
        return f"a line is longer than the {CSV_BLOCK_BYTES >> 20} MiB read block ({text})"
    if "UTF8" in text or "utf-8" in text.lower():
        return f"the bytes are not UTF-8 text ({text})"
    return text


def _csv_batch(source: Source, table: pa.Table, columns: tuple[str, ...], lines: np.ndarray,
               skipped: list[tuple[int, str, int]]) -> Batch:
    table = _as_strings(table, columns)
    table = pa.table([_unquoted(column) for column in table.columns], names=table.column_names)
    # A line with nothing on it is not a row: drop it, but keep the count.
    blank = np.ones(table.num_rows, dtype=bool)
    for column in table.columns:
        blank &= text_lengths(column) <= 0
    keep = ~blank
    if blank.any():
        table = table.filter(pa.array(keep))
        lines = lines[keep]
    unreadable = []
    for line, text, found in skipped:
        if text.strip() == "":
            continue
        reason = (f"{found} fields, expected {len(source.columns)} "
                  f"({','.join(source.columns)})")
        unreadable.append((line - 1, line, text, reason))
    blank_lines = int(blank.sum()) + sum(1 for _, text, _ in skipped if text.strip() == "")
    return Batch(table, lines - 1, lines, unreadable, blank_lines)


def _contest_batches(source: Source, batch_rows: int) -> Iterator[Batch]:
    name = str(source.path)
    with pa.input_stream(name, compression=source.compression) as raw:
        # Lines end at \n only, as they always have here; bad bytes are replaced.
        stream = io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8", errors="replace", newline="\n")
        yield from contest_batches(text_lines(stream, name=name), batch_rows=batch_rows, name=name)


def text_lines(stream, *, name: str, limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of a text stream without their ``\\n``, never holding more than one line.

    Raises ValueError naming the line when one is longer than ``limit``
    characters: whatever the input, memory stays bounded.
    """
    number = 0
    while line := stream.readline(limit + 1):
        number += 1
        text = line[:-1] if line.endswith("\n") else line
        if len(text) > limit:
            raise InputError(f"{name}: line {number}: longer than {limit:,} characters: "
                             f"not a contest file line")
        yield text


def contest_batches(lines, *, batch_rows: int = DEFAULT_BATCH_ROWS, name: str = "<stdin>") -> Iterator[Batch]:
    """Read contest instances from an iterable of text lines, in batches.

    Each instance becomes one row with ``board`` and ``p1`` ... ``p10``
    (None for seats beyond N); ``rows`` holds the instance number and
    ``lines`` the line of its N.  Card text is not checked here: the
    scoring stage rejects bad cards with their reason.

    Raises
    ------
    ValueError
        At the first instance whose structure is broken (N not a number or
        outside 1..10, a missing line), naming the line, or when ``lines``
        raises it (a line too long, see :func:`text_lines`).  The batch of
        the instances before it is yielded first, so they are not lost.
    """
    pending: list[tuple[int, int, list[str]]] = []
    try:
        for instance in _contest_instances(lines, name):
            pending.append(instance)
            if len(pending) >= batch_rows:
                yield _contest_batch(pending)
                pending = []
    except ValueError:
        if pending:
            yield _contest_batch(pending)
        raise
    if pending:
        yield _contest_batch(pending)


def _contest_instances(lines, name: str) -> Iterator[tuple[int, int, list[str]]]:
    """(instance number, line of its N, [board, hole cards...]) of each instance, in order."""
    numbered = enumerate(lines, start=1)
    instance = 0
    while (entry := _next_nonblank(numbered)) is not None:
        line_number, text = entry
        if not (text.isascii() and text.isdigit()):
            raise InputError(f"{name}: line {line_number}: expected the number of players, "
                             f"got {shown(text)}")
        digits = text.lstrip("0") or "0"
        players = int(digits) if len(digits) <= 3 else None
        if players is None or not 1 <= players <= holdem.MAX_PLAYERS:
            raise InputError(f"{name}: line {line_number}: {shown(text, 12, quote=False)} players, "
                             f"expected 1 to {holdem.MAX_PLAYERS}")
        fields = []
        for offset in range(players + 1):
            got = next(numbered, None)
            if got is None:
                what = "the board" if offset == 0 else f"player {offset}'s cards"
                raise InputError(f"{name}: line {line_number + offset + 1}: file ends where {what} "
                                 f"should be (instance {instance + 1})")
            if offset and not got[1].strip():
                raise InputError(f"{name}: line {got[0]}: empty line where player {offset}'s cards "
                                 f"should be (instance {instance + 1})")
            fields.append(got[1].strip())
        instance += 1
        yield instance, line_number, fields


def _next_nonblank(numbered) -> tuple[int, str] | None:
    for line_number, text in numbered:
        text = text.strip()
        if text:
            return line_number, text
    return None


def _contest_batch(pending: list[tuple[int, int, list[str]]]) -> Batch:
    columns = {"board": [fields[0] for _, _, fields in pending]}
    for seat, name in enumerate(HOLDEM_SEATS, start=1):
        columns[name] = [fields[seat] if seat < len(fields) else None for _, _, fields in pending]
    table = pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()})
    rows = np.array([number for number, _, _ in pending], dtype=np.int64)
    lines = np.array([line for _, line, _ in pending], dtype=np.int64)
    return Batch(table, rows, lines)
