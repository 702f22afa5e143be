"""CSV files: deal archives and games files, plain or compressed, read in pieces of whole lines.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources` and the foundation modules, never the
runs or the command line.

This module owns the CSV reader (``.csv``, ``.tsv``; plain or compressed:
``.gz``, ``.bz2``, ``.zst``): the header line (:func:`read_header`), and
the data lines, cut into pieces of whole lines (:class:`LineSplitter`) that
pyarrow parses one by one (:func:`read_batches`).  A line is a row (quotes
around a value are taken off but never join lines); a line longer than
:data:`LINE_LIMIT` or whose bytes are not UTF-8 is a rejected row, and
every other row is still read.  A plain file can be read by byte range
(:func:`csv_byte_ranges`, :class:`ByteRange`) for the dask engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from pipeline.errors import InputError
from pipeline.formats.sources import Batch, CsvLines, Source, UnknownFormatError, as_strings, explain
from pipeline.text import is_utf8, shown, text_lengths, utf8_faults

SUFFIXES = (".csv", ".tsv")
# pyarrow's streaming CSV reader parses blocks of this size and reads a few
# dozen of them ahead; small blocks keep that read-ahead, and so memory, small
# whatever the batch size.  Blocks are joined into batches of batch_rows.  A
# line must fit in one block.
BLOCK_BYTES = 1 << 20
LINE_LIMIT = BLOCK_BYTES  # bytes; a longer line is a rejected row
RAW_HEAD_BYTES = 1 << 10  # the part of an over-long line kept in rejects.csv
_HEADER_BYTES = 1 << 16  # the longest header line read


def _delimiter(path: Path) -> str:
    return "\t" if ".tsv" in [s.lower() for s in path.suffixes] else ","


def read_header(path: Path, compression: str | None) -> tuple[str, ...]:
    """The column names of a CSV file's header line, spaces and quotes around each taken off.

    Raises UnknownFormatError where the line holds binary data or is not
    UTF-8 text (no CSV file), InputError where it cannot be a header (the
    file cannot be read; the line is empty, too long, or split by ``;``).
    """
    delimiter = _delimiter(path)
    try:
        with pa.input_stream(str(path), compression=compression) as stream:
            head = stream.read(_HEADER_BYTES)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{path}: cannot read ({error})") from None
    first = head.splitlines(keepends=True)[0] if head else b""
    if b"\0" in first:
        raise UnknownFormatError(path, "line 1: binary data where a CSV header was expected")
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
        raise UnknownFormatError(path, "the header line is not UTF-8 text") from None
    if delimiter not in text and ";" in text:
        raise InputError(f"{path}: header {shown(text)} is split by ';': columns must be separated by commas")
    return tuple(name.strip().strip('"') for name in text.split(delimiter))


@dataclass(frozen=True)
class ByteRange:
    """Whole lines of a plain CSV file: bytes ``start`` to ``stop`` and the number of the first line.

    ``first_line`` is 1 for the range at the start of the file (its first
    line is the header, which the reader skips).
    """

    start: int
    stop: int
    first_line: int = 1


def splittable(source: Source) -> bool:
    """Whether a source can be read by byte range: plain (uncompressed) CSV."""
    return source.format == "csv" and source.compression is None


def csv_byte_ranges(source: Source, *, target_bytes: int) -> list[tuple[int, int]]:
    """Cut a plain CSV file into (start, stop) byte ranges of about ``target_bytes``, at line ends.

    Each cut is placed just after the first line end at or beyond a multiple
    of ``target_bytes``; a ``\\r\\n`` is never split.  Reads a few bytes per
    cut, not the file.
    """
    size = source.size
    cuts = [0]
    with open(source.path, "rb") as handle:
        position = target_bytes
        while position < size:
            cut = _next_line_start(handle, position)
            if cut is None or cut >= size:
                break
            cuts.append(cut)
            position = cut + target_bytes
    cuts.append(size)
    return list(zip(cuts[:-1], cuts[1:]))


def _next_line_start(handle: BinaryIO, position: int) -> int | None:
    """Where the first line starting after byte ``position`` begins; None past the last line end."""
    handle.seek(position)
    scanned = position
    while chunk := handle.read(1 << 16):
        found = _first_end(chunk)
        if found < 0:
            scanned += len(chunk)
            continue
        cut = scanned + found + 1
        if chunk[found:found + 1] == b"\r":  # a \r\n is one line end: never cut between them
            handle.seek(cut)
            if handle.read(1) == b"\n":
                cut += 1
        return cut
    return None


def count_line_ends(source: Source, start: int, stop: int) -> int:
    """Line ends in bytes ``start`` to ``stop`` of a plain file: the cheap first pass of a range."""
    ends = 0
    after_return = False  # the block before ended with "\r"
    with open(source.path, "rb") as handle:
        handle.seek(start)
        remaining = stop - start
        while remaining > 0:
            block = handle.read(min(BLOCK_BYTES, remaining))
            if not block:
                break
            remaining -= len(block)
            ends += _line_ends(block)
            if after_return and block.startswith(b"\n"):
                ends -= 1  # one "\r\n" split between two blocks, counted once in each
            after_return = block.endswith(b"\r")
    return ends


def read_batches(source: Source, columns: tuple[str, ...], *, batch_rows: int,
                 byte_range: ByteRange | None = None) -> Iterator[Batch]:
    """Read the given columns of a CSV source, as text, in batches of about ``batch_rows`` rows.

    Columns the source lacks come back as nulls.  ``byte_range``, for a
    plain file only, reads the lines of that range, numbered as in the whole
    file.  Raises InputError naming the file and the last complete line
    when the file cannot be read on (a truncated archive).
    """
    present = [name for name in columns if name in source.columns]
    # The header was read by read_header: its names are used as they are there.
    read_options = pacsv.ReadOptions(use_threads=False, column_names=list(source.columns),
                                     block_size=2 * LINE_LIMIT + 2)
    convert_options = pacsv.ConvertOptions(
        include_columns=present, column_types={name: pa.string() for name in source.columns},
        strings_can_be_null=False, quoted_strings_can_be_null=False)
    delimiter = _delimiter(source.path)
    tables: list[pa.Table] = []
    line_arrays: list[np.ndarray] = []
    pieces: list[tuple[int, bytes]] = []
    skipped: list[tuple[int, str, int]] = []
    bad_lines: dict[int, tuple[str, str]] = {}
    pending = 0
    for first_line, piece, count, bad in LineSplitter(source, byte_range).pieces():
        bad_lines.update(bad)
        table, piece_lines, piece_skipped = _parse_piece(piece, first_line, count, read_options,
                                                         convert_options, delimiter)
        tables.append(table)
        line_arrays.append(piece_lines)
        pieces.append((first_line, piece))
        skipped.extend(piece_skipped)
        pending += table.num_rows + len(piece_skipped)
        if pending >= batch_rows:
            yield _csv_batch(source, tables, columns, line_arrays, skipped, bad_lines, pieces)
            tables, line_arrays, pieces, skipped, bad_lines, pending = [], [], [], [], {}, 0
    if tables:
        yield _csv_batch(source, tables, columns, line_arrays, skipped, bad_lines, pieces)


def _parse_piece(piece: bytes, first_line: int, count: int, read_options: pacsv.ReadOptions,
                 convert_options: pacsv.ConvertOptions,
                 delimiter: str) -> tuple[pa.Table, np.ndarray, list[tuple[int, str, int]]]:
    """Parse whole lines of CSV: the table, the line of each of its rows, and the lines skipped."""
    skipped: list[tuple[int, str, int]] = []

    def skip(row: pacsv.InvalidRow) -> str:
        skipped.append((first_line + row.number - 1, row.text, row.actual_columns))
        return "skip"

    # A line is a row: quotes are not syntax, so one stray quote cannot swallow
    # the lines after it.  _csv_batch takes enclosing quotes off the values.
    parse_options = pacsv.ParseOptions(delimiter=delimiter, invalid_row_handler=skip, quote_char=False,
                                       ignore_empty_lines=False, newlines_in_values=False)
    table = pacsv.read_csv(pa.py_buffer(piece), read_options=read_options, parse_options=parse_options,
                           convert_options=convert_options)
    numbers = np.arange(first_line, first_line + count, dtype=np.int64)
    if skipped:
        numbers = np.delete(numbers, [line - first_line for line, _, _ in skipped])
    if len(numbers) != table.num_rows:  # a bug, not bad input: every line is a row or skipped
        raise AssertionError(f"{count} lines gave {table.num_rows} rows and {len(skipped)} skipped lines")
    return table, numbers, skipped


def line_count(data: bytes) -> int:
    r"""Lines in ``data``, ended by ``\n``, ``\r\n`` or ``\r`` as pyarrow ends them; a last
    line without an end counts too.

    >>> line_count(b"a\r\nb\rc\n"), line_count(b"a\nb"), line_count(b"")
    (3, 2, 0)
    """
    return _line_ends(data) + (1 if data and data[-1:] not in (b"\n", b"\r") else 0)


def _line_ends(data: bytes) -> int:
    ends = data.count(b"\n")
    if b"\r" in data:  # rare: two more passes only for files that have carriage returns
        ends += data.count(b"\r") - data.count(b"\r\n")
    return ends


def _after_end(data: bytes, end: int) -> int:
    """Index just after the line end found at ``end`` (two bytes for ``\\r\\n``)."""
    return end + (2 if data[end:end + 2] == b"\r\n" else 1)


def _first_end(data: bytes, start: int = 0) -> int:
    """Index of the first line end at or after ``start``, or -1."""
    newline, ret = data.find(b"\n", start), data.find(b"\r", start)
    if newline < 0 or ret < 0:
        return max(newline, ret)
    return min(newline, ret)


class LineSplitter:
    """The data lines of a CSV file as pieces of whole lines, every line accounted for.

    Reads ``BLOCK_BYTES`` at a time from the (decompressed) file, after
    the header line, and cuts at the last line end, so pyarrow only ever
    parses whole lines and never runs out of block.  Two kinds of line
    never reach pyarrow; each is replaced by a stand-in line (a space: not
    empty, so a ``\\r`` before it and a ``\\n`` after it cannot merge into
    one line end), so every later line keeps its number, and reported with
    its reason:

    * a line longer than ``LINE_LIMIT`` bytes, skipped as it streams by
      (memory stays bounded whatever its length); its first
      ``RAW_HEAD_BYTES`` are kept as its text;
    * a line whose bytes are not UTF-8 text (its text is decoded with
      replacement characters).
    """

    def __init__(self, source: Source, byte_range: ByteRange | None = None) -> None:
        self.source = source
        self.byte_range = byte_range

    def pieces(self) -> Iterator[tuple[int, bytes, int, dict[int, tuple[str, str]]]]:
        """Yield (first line number, whole lines as bytes, their count,
        {line: (text, reason)} of the lines replaced)."""
        path = self.source.path
        part = self.byte_range
        line = 2 if part is None or part.start == 0 else part.first_line  # the header is line 1
        try:
            with pa.input_stream(str(path), compression=self.source.compression) as whole:
                stream = whole if part is None else _Window(whole, part.start, part.stop)
                carry = self._after_header(stream) if part is None or part.start == 0 else b""
                skipping: list[Any] | None = None  # [line, length, head] of an over-long line
                replaced: dict[int, tuple[str, str]] = {}
                at_end = False
                while not at_end:
                    block = stream.read(BLOCK_BYTES)
                    at_end = not block
                    if skipping is not None:
                        end = _first_end(block)
                        if end < 0 and not at_end:
                            skipping[1] += len(block)
                            continue
                        skipping[1] += len(block) if end < 0 else end
                        replaced[skipping[0]] = _over_long(*skipping)
                        block = _STAND_IN + (block[_after_end(block, end):] if end >= 0 else b"")
                        skipping = None
                    buffer = carry + block
                    cut = len(buffer) if at_end else \
                        max(buffer.rfind(b"\n"), buffer.rfind(b"\r", 0, len(buffer) - 1)) + 1
                    if cut == 0:
                        if len(buffer) > LINE_LIMIT:
                            skipping = [line, len(buffer), buffer[:RAW_HEAD_BYTES]]
                            carry = b""
                        else:
                            carry = buffer
                        continue
                    piece, carry = buffer[:cut], buffer[cut:]
                    first = _first_end(piece)
                    length = first if first >= 0 else len(piece)
                    if length > LINE_LIMIT:
                        replaced[line] = _over_long(line, length, piece[:RAW_HEAD_BYTES])
                        piece = _STAND_IN + (piece[_after_end(piece, first):] if first >= 0 else b"")
                    if not piece:
                        continue
                    piece = self._utf8_lines(piece, line, replaced)
                    count = line_count(piece)
                    yield line, piece, count, replaced
                    replaced = {}
                    line += count
        except (pa.ArrowException, OSError) as error:
            complete = self._complete_lines() if self.source.compression else line - 1
            raise InputError(f"{path}: cannot read past line {complete} (the last complete line): "
                             f"{explain(error)}") from None

    def _complete_lines(self) -> int:
        """Lines of a damaged compressed file that can be read to their end.

        Only on failure: a large read loses what it had decompressed when the
        stream breaks, so the file is read again in small steps.
        """
        ends = 0
        try:
            with pa.input_stream(str(self.source.path), compression=self.source.compression) as stream:
                while block := stream.read(1 << 12):
                    ends += _line_ends(block)
        except (pa.ArrowException, OSError):
            return ends  # the damage, reported by the caller: the lines before it are the answer
        return ends

    @staticmethod
    def _after_header(stream: pa.NativeFile | _Window) -> bytes:
        """Consume the header line; return the bytes read after it."""
        head = b""
        while True:
            block = stream.read(BLOCK_BYTES)
            head += block
            end = _first_end(head)
            if end >= 0 and (head[end:end + 1] == b"\n" or end + 1 < len(head) or not block):
                return head[_after_end(head, end):]
            if not block:
                return b""

    def _utf8_lines(self, piece: bytes, first_line: int, replaced: dict[int, tuple[str, str]]) -> bytes:
        """``piece`` with every line that is not UTF-8 replaced by a stand-in and recorded in ``replaced``.

        One pass over the whole piece finds every bad line
        (:func:`pipeline.text.utf8_faults`), so a piece costs the same
        whether one line or all of them are bad; only the text of each bad
        line is decoded on its own, for its reject.
        """
        if is_utf8(piece):
            return piece  # the common case: one validation in C++, nothing else
        data = np.frombuffer(piece, dtype=np.uint8)
        faults = np.flatnonzero(utf8_faults(data))
        if not faults.size:
            return piece
        newline = data == ord("\n")
        ret = data == ord("\r")
        ends = np.flatnonzero(newline | (ret & ~np.append(newline[1:], False)))  # the byte ending each line
        bad = np.unique(np.searchsorted(ends, faults))  # a line holds the bytes up to its end
        starts = np.concatenate([[0], ends + 1])[bad]
        stops = np.append(ends, len(piece))[bad]
        # The text of a line stops before its end: one byte, or two for \r\n.
        stops -= (stops < len(piece)) & newline[np.minimum(stops, len(piece) - 1)] \
            & ret[np.maximum(stops - 1, 0)] & (stops > starts)
        for number, start, stop in zip((first_line + bad).tolist(), starts.tolist(), stops.tolist()):
            replaced[number] = (piece[start:stop].decode("utf-8", errors="replace"),
                                "bytes that are not UTF-8 text")
        # Each bad line becomes its stand-in, one space, so every later line keeps its number:
        # its first byte turns into the space, the others are dropped.
        size = len(piece) + 1
        inside = np.bincount(starts + 1, minlength=size) - np.bincount(stops, minlength=size)
        kept = np.cumsum(inside[:-1]) <= 0
        stand_in = data.copy()
        stand_in[starts] = ord(" ")
        return stand_in[kept].tobytes()


class _Window:
    """Bytes ``start`` to ``stop`` of a seekable stream, read like a stream of their own."""

    def __init__(self, stream: pa.NativeFile, start: int, stop: int) -> None:
        stream.seek(start)
        self._stream = stream
        self._remaining = stop - start

    def read(self, size: int) -> bytes:
        data = self._stream.read(min(size, self._remaining)) if self._remaining > 0 else b""
        self._remaining -= len(data)
        return data


_STAND_IN = b" \n"  # replaces a line that never reaches pyarrow


def _over_long(line: int, length: int, head: bytes) -> tuple[str, str]:
    return (head.decode("utf-8", errors="replace"),
            f"line of {length:,} bytes, longer than the {LINE_LIMIT:,} bytes a line may have "
            f"(raw holds its first {RAW_HEAD_BYTES:,} bytes)")


def _unquoted(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """Values without their enclosing double quotes: ``"Ah Kd"`` reads as ``Ah Kd``.

    Spaces around a value are not part of it, so they may stand outside its
    quotes too: ``AAAQQ, "QQAAA"`` reads as ``QQAAA``.

    >>> _unquoted(pa.chunked_array([['"Ah Kd"', ' "QQAAA" ', 'say ""hi""', '"a""b"']])).to_pylist()
    ['Ah Kd', 'QQAAA', 'say ""hi""', 'a"b']
    """
    if not pc.any(pc.match_substring(column, '"')).as_py():
        return column
    trimmed = pc.utf8_trim_whitespace(column)
    quoted = pc.match_substring_regex(trimmed, r'^"(?:[^"]|"")*"$')
    inner = pc.replace_substring(pc.utf8_slice_codeunits(trimmed, 1, -1), '""', '"')
    return pc.if_else(quoted, inner, column)


def _csv_batch(source: Source, tables: list[pa.Table], columns: tuple[str, ...],
               line_arrays: list[np.ndarray], skipped: list[tuple[int, str, int]],
               bad_lines: dict[int, tuple[str, str]], pieces: list[tuple[int, bytes]]) -> Batch:
    table = pa.concat_tables(tables)
    lines = np.concatenate(line_arrays)
    table = as_strings(table, columns)
    if any(b'"' in piece for _, piece in pieces):
        table = pa.table([_unquoted(column) for column in table.columns], names=table.column_names)
    # A line with nothing on it is not a row: drop it, but keep the count.
    blank = np.ones(table.num_rows, dtype=bool)
    for column in table.columns:
        blank &= text_lengths(column) <= 0
    # Stand-in lines of the splitter are rejected rows, not blank lines.
    replaced = np.isin(lines, np.fromiter(bad_lines, dtype=np.int64, count=len(bad_lines)))
    unreadable = [(int(line) - 1, int(line), *bad_lines[int(line)]) for line in lines[replaced]]
    blank &= ~replaced
    keep = ~blank & ~replaced
    if not keep.all():
        table = table.filter(pa.array(keep))
        lines = lines[keep]
    blank_lines = int(blank.sum())
    raw = CsvLines(pieces)
    for line, _, found in skipped:
        if line in bad_lines:
            unreadable.append((line - 1, line, *bad_lines[line]))
            continue
        # The line exactly as read: pyarrow's copy loses a byte-order mark that opens its piece.
        text = raw.text(line)
        if text.strip() == "":
            blank_lines += 1
            continue
        reason = (f"{found} fields, expected {len(source.columns)} "
                  f"({','.join(source.columns)})")
        unreadable.append((line - 1, line, text, reason))
    unreadable.sort()
    return Batch(table, lines - 1, lines, unreadable, blank_lines, raw)
