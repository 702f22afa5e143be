"""Readers: input files as batches of raw text columns, every row accounted for.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.phh`, the games
and the foundation modules, never the runs or the command line.

This module owns input: finding the files a run names (paths, folders,
glob patterns), telling their format and game, and reading them in batches
of bounded size:

* CSV, plain or compressed (``.gz``, ``.bz2``, ``.zst``): cut into pieces
  of whole lines (:class:`LineSplitter`) that pyarrow parses one by one; a
  line is a row (quotes around a value are taken off but never join
  lines); a line longer than ``LINE_LIMIT`` or whose bytes are not UTF-8 is
  a rejected row, and every other row is still read; a plain file can be
  read by byte range (:func:`csv_byte_ranges`) for the dask engine;
* Parquet, one record batch at a time, or by row group;
* contest files (the "Rhinoceros Beetle" format), instance by instance,
  never holding more than one line of at most ``MAX_LINE`` characters;
* PHH hand histories, through :mod:`pipeline.formats.phh`;
* PokerStars hand histories (``.txt`` starting with a PokerStars header),
  through :mod:`pipeline.formats.pokerstars`.

Every batch carries the data rows as a table of string columns, their row
and line numbers, the raw text of each row, and the lines that could not
even be split into fields (wrong number of fields, too long, not UTF-8),
so that nothing read is ever dropped unseen.  Header names are checked so
that no player is lost to a misspelt column (:func:`checked_columns`).
"""

from __future__ import annotations

import dataclasses
import errno
import glob
import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO, Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from pipeline.errors import InputError
from pipeline.formats import histories, phh, pokerstars
from pipeline.formats.sources import (
    DEFAULT_BATCH_ROWS,
    Batch,
    CsvLines,
    PendingBatch,
    Source,
    format_suffix,
)
from pipeline.games import holdem, registry
from pipeline.text import is_utf8, listed, shown, text_lengths, utf8_faults

CSV_SUFFIXES = (".csv", ".tsv")
PARQUET_SUFFIXES = (".parquet", ".pq")
CONTEST_SUFFIXES = (".in", ".txt")
#: Formats whose columns the file names (deal archives and games files): a column of the user's
#: that no game reads may be carried into the results (``--keep``).
TABLE_FORMATS = ("csv", "parquet")
# pyarrow's streaming CSV reader parses blocks of this size and reads a few
# dozen of them ahead; small blocks keep that read-ahead, and so memory, small
# whatever the batch size.  Blocks are joined into batches of batch_rows.  A
# line must fit in one block.
CSV_BLOCK_BYTES = 1 << 20
LINE_LIMIT = CSV_BLOCK_BYTES  # bytes; a longer line is a rejected row
RAW_HEAD_BYTES = 1 << 10  # the part of an over-long line kept in rejects.csv
_HEADER_BYTES = 1 << 16  # the longest header line read
MAX_LINE = 1 << 20  # characters; a contest file line holds at most a few dozen


class UnknownFormatError(InputError):
    """A file whose content is no format pokerpipe reads: a note, a picture, an empty file.

    Named on the command line it stops the run, like any file that cannot
    be read; found in a folder or by a pattern it is skipped with a notice
    (:func:`find_sources`).  ``reason`` is the message without the path.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{shown(str(path), None, quote=False)}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Inputs:
    """The files a run reads, and the files it passed over with the reason.

    ``skipped`` holds one ``{"file": path, "reason": why}`` per file found
    in a folder or by a pattern but not read: content of no known format,
    or a file already read under another name.  ``summary.json`` lists them
    as ``skipped_inputs``.
    """

    sources: list[Source]
    skipped: list[dict[str, str]]


def find_sources(patterns: Sequence[str | os.PathLike[str]], *,
                 on_notice: Callable[[str], None] | None = None) -> Inputs:
    """Every input a run reads, each once, in input order, opened (:func:`open_source`).

    Paths, folders and glob patterns are expanded as :func:`expand_inputs`
    says.  A file met twice, by any spelling (``x.csv`` and ``./x.csv``, a
    link, a hard link), is read once, at its first place.  A file found in
    a folder or by a pattern whose content is no known format
    (:class:`UnknownFormatError`, or no column any game reads) is skipped;
    named on the command line, it stops the run.  Each file passed over,
    and each loop of links not followed, is told to ``on_notice`` as one
    line.

    Raises
    ------
    InputError
        A pattern that matches nothing, a folder that holds no input, or a
        named file that cannot be read (see :func:`open_source`).
    """
    def notice(line: str) -> None:
        if on_notice is not None:
            on_notice(line)

    sources: list[Source] = []
    skipped: list[dict[str, str]] = []
    first_place: dict[tuple[int, int], Path] = {}
    for path, named in _expanded(patterns, notice):
        status = _status(path)  # one look at each file: thousands of one-hand files are common
        identity = (status.st_dev, status.st_ino) if status is not None else None
        if identity in first_place:
            reason = f"the same file as {shown(str(first_place[identity]), None, quote=False)}, " \
                     f"read once, at its first place"
            skipped.append({"file": str(path), "reason": reason})
            notice(f"{shown(str(path), None, quote=False)}: {reason}")
            continue
        if identity is not None:
            first_place[identity] = path
        try:
            source = _opened(path, status)
            if not named:
                _claimed_by_a_game(source)
        except UnknownFormatError as error:
            if named:
                raise
            skipped.append({"file": str(path), "reason": error.reason})
            notice(f"{error}: skipped")
            continue
        sources.append(source)
    if not sources and skipped:
        raise InputError(f"no input to read: {listed(entry['file'] for entry in skipped)} "
                         f"{'was' if len(skipped) == 1 else 'were'} skipped (see the lines above)")
    return Inputs(_grouped(sources), skipped)


#: One-hand files read together as one source, at most: a group of them is one pass of the
#: pipeline (and one dask partition), where a pass per file would cost more than its hand.
GROUP_FILES = 4096


def _grouped(sources: list[Source]) -> list[Source]:
    """The sources, with each run of consecutive one-hand PHH files made one source of several files.

    The public collections keep one hand per ``.phh`` file; read one at a
    time, each file would pay a whole pass of the pipeline for one hand.
    Row numbers are those the files would have one by one: one row each.
    """
    grouped: list[Source] = []
    run: list[Source] = []

    def close_run() -> None:
        for start in range(0, len(run), GROUP_FILES):
            members = run[start:start + GROUP_FILES]
            grouped.append(members[0] if len(members) == 1 else
                           dataclasses.replace(members[0], members=tuple(members)))
        run.clear()

    for source in sources:
        if source.format == "phh" and phh.holds_one_hand(source.path):
            run.append(source)
            continue
        close_run()
        grouped.append(source)
    close_run()
    return grouped


def _identity(path: Path) -> tuple[int, int] | None:
    """What a file is, whatever it is called: its device and inode (None if it cannot be seen)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _claimed_by_a_game(source: Source) -> None:
    """Refuse, as a file of no known format, a table with no column any game reads.

    A table with some of a game's columns (``Hand1`` without ``Hand2``) is a
    data file with a fault, not another kind of file: it is kept, and stops
    the run with the game's own message.
    """
    if source.format not in TABLE_FORMATS or set(source.columns) & registry.known_columns():
        return
    raise UnknownFormatError(source.path, f"no column of a known game "
                                          f"({shown(','.join(source.columns), 60, quote=False)})")


def expand_inputs(patterns: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """Resolve paths, folders and glob patterns to a list of input files.

    A folder stands for the data files directly inside it, in name order,
    and for the hand histories anywhere below it (PHH files, and ``.txt``
    files: PokerStars logs; hand-history collections nest folders by site,
    stake and day); links to folders are followed as the
    folders they lead to, a loop of links once.  ``**`` in a pattern spans
    folders.  A file found twice by the same path is listed once.  Raises
    InputError naming any pattern that matches nothing.
    """
    return list(dict.fromkeys(path for path, _ in _expanded(patterns, lambda line: None)))


def _expanded(patterns: Sequence[str | os.PathLike[str]],
              notice: Callable[[str], None]) -> Iterator[tuple[Path, bool]]:
    """Each file of the inputs and whether it was named itself (not found in a folder or by a pattern)."""
    for pattern in patterns:
        text = os.fspath(pattern)
        if Path(text).exists():
            matches, named = [Path(text)], True
        else:
            matches, named = [Path(m) for m in sorted(glob.glob(text, recursive=True))], False
        if not matches:
            raise InputError(f"{shown(text, None, quote=False)}: no such file, folder or matching pattern")
        for match in matches:
            if match.is_dir():
                inside = _folder_files(match, notice)
                if not inside:
                    raise InputError(f"{shown(str(match), None, quote=False)}: folder holds no CSV, "
                                     f"Parquet, contest, PHH or PokerStars file")
                yield from ((path, False) for path in inside)
            else:
                yield match, named


def _folder_files(folder: Path, notice: Callable[[str], None]) -> list[Path]:
    """The data files directly inside ``folder``, in name order, then its hand histories anywhere below.

    A link to a folder is walked as the folder would be; a link that leads
    back to a folder on the way down (a loop), or to a folder walked
    already, is told to ``notice`` and not walked again.
    """
    top = _entries(folder)
    direct = [entry.path for entry in top if entry.is_file and _known_format(entry.path)]
    below: list[Path] = []
    walked: dict[tuple[int, int] | None, Path] = {_identity(folder): folder}

    def walk(entries: list[_Entry], ancestors: tuple[tuple[int, int] | None, ...], *, inside: bool) -> None:
        for entry in entries:
            if entry.is_dir:
                identity = _identity(entry.path)
                named = shown(str(entry.path), None, quote=False)
                if identity in ancestors:
                    notice(f"{named}: a link back to {shown(str(walked[identity]), None, quote=False)} "
                           f"(a loop): not followed again")
                elif identity in walked:
                    notice(f"{named}: the same folder as {shown(str(walked[identity]), None, quote=False)}, "
                           f"read once")
                else:
                    walked[identity] = entry.path
                    walk(_entries(entry.path), (*ancestors, identity), inside=True)
            elif inside and entry.is_file and _history_suffix(entry.path):
                below.append(entry.path)

    walk(top, (_identity(folder),), inside=False)
    # The order of the paths themselves (part by part, as pathlib sorts them), not of their text.
    return direct + sorted(below, key=lambda path: path.parts)


@dataclass(frozen=True)
class _Entry:
    """An entry of a folder: its path, and whether it is (or links to) a folder or a file."""

    path: Path
    is_dir: bool
    is_file: bool


def _entries(folder: Path) -> list[_Entry]:
    """The entries of a folder in name order; InputError when it cannot be read (nothing is passed over).

    What an entry is comes with the listing, without a look at each file (a folder of the public
    collections holds thousands); where an entry is a link, pathlib follows it, as before.
    """
    try:
        with os.scandir(folder) as listing:
            found = sorted(listing, key=lambda entry: entry.name)
    except OSError as error:
        raise InputError(f"{shown(str(folder), None, quote=False)}: cannot read the folder "
                         f"({error.strerror or error})") from None
    entries = []
    for entry in found:
        path = folder / entry.name
        if entry.is_symlink():
            entries.append(_Entry(path, path.is_dir(), path.is_file()))
        else:
            entries.append(_Entry(path, entry.is_dir(follow_symlinks=False),
                                  entry.is_file(follow_symlinks=False)))
    return entries


def _history_suffix(path: Path) -> bool:
    """A name a hand history may have: ``.phh``, ``.phhs``, or ``.txt`` (a site's logs; its first
    line tells, see :func:`open_source`)."""
    return phh.is_phh(path) or format_suffix(path)[0] in pokerstars.SUFFIXES


def _known_format(path: Path) -> bool:
    return format_suffix(path)[0] in CSV_SUFFIXES + PARQUET_SUFFIXES + CONTEST_SUFFIXES + phh.SUFFIXES


#: The errors of a file's status that mean no file is there, as ``Path.is_file`` reads them.
_NOT_THERE = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def open_source(path: str | os.PathLike[str]) -> Source:
    """Inspect one input file: its format, compression and column names.

    Raises
    ------
    UnknownFormatError
        The file is empty, holds binary data or text that is not UTF-8
        where a CSV header should be, or is named as a contest file
        (``.in``, ``.txt``) but does not start with a number of players.
    InputError
        The file is missing, or of a known format but unreadable (a
        damaged Parquet file, a header split by ``;``, a column that would
        lose a player).
    """
    path = Path(path)
    return _opened(path, _status(path))


def _status(path: Path) -> os.stat_result | None:
    """A file's status; None where no file is there (the errors ``Path.is_file`` reads so)."""
    try:
        return path.stat()
    except OSError as error:
        if error.errno not in _NOT_THERE:
            raise
        return None


def _opened(path: Path, status: os.stat_result | None) -> Source:
    """:func:`open_source` of a file whose status (:func:`_status`) was looked up already."""
    if status is None:
        raise InputError(f"{shown(str(path), None, quote=False)}: no such file")
    if not stat.S_ISREG(status.st_mode):
        mode = status.st_mode
        kind = "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        raise InputError(f"{shown(str(path), None, quote=False)}: {kind}, not a regular file: an input is "
                         f"read more than once (its format, then its rows); save it to a file first")
    if status.st_size == 0:
        raise UnknownFormatError(path, "file is empty")
    suffix, compression = format_suffix(path)
    found = partial(Source, path, size_found=status.st_size)  # the size kept for the summary
    if suffix in phh.SUFFIXES:
        return found("phh", histories.COLUMNS, compression)
    if suffix in pokerstars.SUFFIXES and pokerstars.is_pokerstars(path):
        return found("pokerstars", histories.COLUMNS, compression)
    with open(path, "rb") as handle:
        magic = handle.read(4)
    if suffix in PARQUET_SUFFIXES or (magic == b"PAR1" and not compression):
        import pyarrow.parquet as pq  # ~15 ms of imports that only a Parquet input needs

        try:
            schema = pq.read_schema(path)
        except (pa.ArrowException, OSError) as error:
            raise InputError(f"{shown(str(path), None, quote=False)}: not a readable Parquet file "
                             f"({_explain(error)})") from None
        names = checked_columns(path, tuple(schema.names))
        _check_text_types(path, schema)
        return found("parquet", names, types=tuple(schema.types))
    if suffix in CONTEST_SUFFIXES:
        line, first = _first_text_line(path, compression)
        if first is None:
            raise UnknownFormatError(path, f"line {line}: binary data where a contest file has the "
                                           f"number of players")
        if not first and suffix in pokerstars.SUFFIXES:  # a .txt of nothing is no contest file either
            raise UnknownFormatError(path, "holds no text (blank lines or a byte-order mark only)")
        if first and not (first.isascii() and first.isdigit()):
            also = " or a PokerStars hand history" if suffix in pokerstars.SUFFIXES else ""
            raise UnknownFormatError(path, f"line {line}: expected the number of players, got "
                                           f"{shown(first)}: not a contest file{also}")
        return found("contest", (holdem.BOARD_COLUMN, *holdem.SEATS), compression)
    if suffix not in CSV_SUFFIXES and _looks_like_contest(path, compression):
        return found("contest", (holdem.BOARD_COLUMN, *holdem.SEATS), compression)
    return found("csv", checked_columns(path, _csv_header(path, compression)), compression)


def _first_text_line(path: Path, compression: str | None) -> tuple[int, str | None]:
    """The first line of a file's head that is not blank, stripped, and its number.

    "" when the head is blank, None when it is not text (NUL bytes).
    """
    try:
        with pa.input_stream(str(path), compression=compression) as stream:
            head = stream.read(1 << 12)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{shown(str(path), None, quote=False)}: cannot read ({_explain(error)})") from None
    text = head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    # Lines end at \n only, as the contest reader ends them.
    for number, line in enumerate(text.split("\n"), start=1):
        if "\0" in line:
            return number, None
        if line.strip():
            return number, line.strip()
    return 1, ""


def _check_text_types(path: Path, schema: pa.Schema) -> None:
    """Refuse a Parquet column a game reads whose values are not text: a list, a struct, a map."""
    known = registry.known_columns()
    for field in schema:
        if field.name in known:
            problem = text_type_problem(field.type)
            if problem:
                raise InputError(f"{shown(str(path), None, quote=False)}: column {shown(field.name)} "
                                 f"{problem}")


def text_type_problem(kind: pa.DataType) -> str | None:
    """Why a column of this type cannot be read as card text, or None when it can.

    >>> text_type_problem(pa.list_(pa.string()))
    'is a list (list<item: string>): expected text (string), one value per row, like "Ah Kd"'
    >>> text_type_problem(pa.large_string()) is None
    True
    """
    if not pa.types.is_nested(kind):
        return None
    # Lists of every kind (large, fixed-size, views) are "list"; a struct, a map, a union by its name.
    what = "list" if "list" in str(kind).partition("<")[0] else str(kind).partition("<")[0]
    return f'is a {what} ({kind}): expected text (string), one value per row, like "Ah Kd"'


def _column_key(name: str) -> str:
    """A column name without case, spacing or a spelled-out seat: what it looks like.

    >>> _column_key(" Player_4"), _column_key("HAND 1"), _column_key("Seat3")
    ('p4', 'hand1', 'p3')
    """
    key = "".join(name.lower().split()).replace("_", "").replace("-", "")
    for prefix in ("player", "seat"):
        if key.startswith(prefix) and key[len(prefix):].isdigit():
            return "p" + key[len(prefix):]
    return key




def checked_columns(path: Path, names: tuple[str, ...]) -> tuple[str, ...]:
    """The header's column names, refused when a player could be lost.

    Raises InputError naming the column when a name appears twice (one of
    them would be dropped), names a seat beyond p10, or looks like a known
    column but for case, spacing or spelling (``P3``, ``player4``,
    ``hand1``): names are exact, so such a column would be ignored.
    """
    known_by_key = {_column_key(name): name for name in registry.known_columns()}
    first_place: dict[str, int] = {}
    for place, name in enumerate(names, start=1):
        if name in first_place:
            raise InputError(f"{path}: column {shown(name)} appears twice (columns {first_place[name]} "
                             f"and {place}): rename or remove one")
        first_place[name] = place
        key = _column_key(name)
        if key[:1] == "p" and key[1:].isdigit() and key not in known_by_key:
            raise InputError(f"{path}: column {shown(name)}: seats are p1 to p{holdem.MAX_PLAYERS}, "
                             f"at most {holdem.MAX_PLAYERS} players")
        known = known_by_key.get(key)
        if known is not None and known != name:
            raise InputError(f"{path}: column {shown(name)} looks like {known!r}: column names are "
                             f"exact (case and spacing count): rename it {known!r}")
    return names


def _looks_like_contest(path: Path, compression: str | None) -> bool:
    with pa.input_stream(str(path), compression=compression) as stream:
        head = stream.read(256)
    first = head.split(b"\n", 1)[0].strip()
    return bool(first.isdigit())


def _delimiter(path: Path) -> str:
    return "\t" if ".tsv" in [s.lower() for s in path.suffixes] else ","


def _csv_header(path: Path, compression: str | None) -> tuple[str, ...]:
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


def read_batches(source: Source, columns: tuple[str, ...], *,
                 batch_rows: int = DEFAULT_BATCH_ROWS,
                 row_groups: range | None = None,
                 byte_range: ByteRange | None = None,
                 typed: frozenset[str] = frozenset()) -> Iterator[Batch]:
    """Read the given columns of a source in batches of about ``batch_rows`` rows.

    Columns the source lacks come back as nulls (an empty hold'em seat).
    Every column comes as text but those named in ``typed`` (columns of the
    user's carried into the results as they are), which a Parquet file
    gives in its own Arrow type.
    ``row_groups``, for Parquet only, reads just that range of row groups;
    their rows keep the numbers they have in the whole file.  ``byte_range``,
    for plain CSV only, reads the lines of that range (see
    :func:`csv_byte_ranges`), numbered as in the whole file.
    Raises ValueError naming the file, the place and the reason when the
    file cannot be read on (a truncated archive, a line longer than the
    read block, bytes that are not text).
    """
    if row_groups is not None and source.format != "parquet":
        raise InputError(f"{source.path}: only Parquet files are read by row group")
    if byte_range is not None and not splittable(source):
        raise InputError(f"{source.path}: only plain CSV files are read by byte range")
    if source.format == "parquet":
        yield from _parquet_batches(source, columns, batch_rows, row_groups, typed)
    elif source.format == "contest":
        yield from _holding(_contest_batches(source, batch_rows), columns)
    elif source.format == "phh":
        yield from _holding(phh.read_batches(source, batch_rows=batch_rows), columns)
    elif source.format == "pokerstars":
        yield from _holding(pokerstars.read_batches(source, batch_rows=batch_rows), columns)
    else:
        yield from _csv_batches(source, columns, batch_rows, byte_range)


def _holding(batches: Iterable[Batch], columns: tuple[str, ...]) -> Iterator[Batch]:
    """The batches of a format that makes its own columns, each with every one of ``columns``:
    those the format does not make (a contest file's expected winners, beside hand histories
    that have them), nulls."""
    for batch in batches:
        if not set(columns) <= set(batch.table.column_names):
            batch.table = _as_strings(batch.table, columns)
        yield batch


def read_pending(source: Source, columns: tuple[str, ...], *, batch_rows: int = DEFAULT_BATCH_ROWS,
                 typed: frozenset[str] = frozenset()) -> Iterator[Batch | PendingBatch]:
    """The batches of :func:`read_batches`, those of a PHH file left unparsed (:class:`PendingBatch`).

    Parsing a hand history is most of the work of its run: left to the
    thread that loads the batch, it runs on every core.
    """
    if source.format == "phh":
        yield from phh.read_pending(source, batch_rows=batch_rows)
    else:
        yield from read_batches(source, columns, batch_rows=batch_rows, typed=typed)


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
            block = handle.read(min(CSV_BLOCK_BYTES, remaining))
            if not block:
                break
            remaining -= len(block)
            ends += _line_ends(block)
            if after_return and block.startswith(b"\n"):
                ends -= 1  # one "\r\n" split between two blocks, counted once in each
            after_return = block.endswith(b"\r")
    return ends


def _as_strings(table: pa.Table, columns: tuple[str, ...], typed: frozenset[str] = frozenset()) -> pa.Table:
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


def parquet_row_groups(source: Source) -> list[int]:
    """Rows of each row group of a Parquet source, in file order."""
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_metadata(source.path)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: not a readable Parquet file ({error})") from None
    return [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]


def _parquet_batches(source: Source, columns: tuple[str, ...], batch_rows: int,
                     row_groups: range | None = None, typed: frozenset[str] = frozenset()) -> Iterator[Batch]:
    import pyarrow.parquet as pq

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
            table = _as_strings(pa.Table.from_batches([record_batch]), columns, typed)
            rows = np.arange(done + 1, done + 1 + table.num_rows, dtype=np.int64)
            done += table.num_rows
            yield Batch(table, rows, np.full(table.num_rows, -1, dtype=np.int64))
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read past row {done}: {error}") from None


def _csv_batches(source: Source, columns: tuple[str, ...], batch_rows: int,
                 byte_range: ByteRange | None = None) -> Iterator[Batch]:
    present = [name for name in columns if name in source.columns]
    # The header was read by _csv_header: its names are used as they are there.
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

    Reads ``CSV_BLOCK_BYTES`` at a time from the (decompressed) file, after
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
                    block = stream.read(CSV_BLOCK_BYTES)
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
                             f"{_explain(error)}") from None

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
            block = stream.read(CSV_BLOCK_BYTES)
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


def _explain(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return shown(text, 200, quote=False)


def _csv_batch(source: Source, tables: list[pa.Table], columns: tuple[str, ...],
               line_arrays: list[np.ndarray], skipped: list[tuple[int, str, int]],
               bad_lines: dict[int, tuple[str, str]], pieces: list[tuple[int, bytes]]) -> Batch:
    table = pa.concat_tables(tables)
    lines = np.concatenate(line_arrays)
    table = _as_strings(table, columns)
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


def _contest_batches(source: Source, batch_rows: int) -> Iterator[Batch]:
    name = str(source.path)
    with pa.input_stream(name, compression=source.compression) as raw:
        # Lines end at \n only, as they always have here; bad bytes are replaced.
        stream = io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8", errors="replace", newline="\n")
        yield from contest_batches(text_lines(stream, name=name), batch_rows=batch_rows, name=name)


def text_lines(stream: IO[str], *, name: str, limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of a text stream without their line end, never holding more than one line.

    A byte-order mark before the first line and the ``\\r`` of a ``\\r\\n``
    line end are not part of a line.  Raises InputError naming the line
    when one is longer than ``limit`` characters: whatever the input, memory
    stays bounded.
    """
    number = 0
    while line := stream.readline(limit + 1):
        number += 1
        text = line[:-1] if line.endswith("\n") else line
        if len(text) > limit:
            raise InputError(f"{name}: line {number}: longer than {limit:,} characters: "
                             f"not a contest file line")
        text = text.removesuffix("\r")
        yield text.removeprefix("\ufeff") if number == 1 else text


@dataclass
class _Instance:
    """One contest instance as read: its number, the line of its N, its fields and lines."""

    number: int
    line: int
    fields: list[str]
    text: str  # its lines exactly as read, joined by a newline


def contest_batches(lines: Iterable[str], *, batch_rows: int = DEFAULT_BATCH_ROWS,
                    name: str = "<stdin>") -> Iterator[Batch]:
    """Read contest instances from an iterable of text lines, in batches.

    Each instance becomes one row with ``board`` and ``p1`` ... ``p10``
    (None for seats beyond N); ``rows`` holds the instance number,
    ``lines`` the line of its N and ``raw`` its lines as read.  Card text
    is not checked here: the scoring stage rejects bad cards with their
    reason, on the line of the field (``field_lines``).

    Raises
    ------
    InputError
        At the first instance whose structure is broken (N not a number or
        outside 1..10, a missing line), naming the line, or when ``lines``
        raises it (a line too long, see :func:`text_lines`).  The batch of
        the instances before it is yielded first, so they are not lost.
    """
    pending: list[_Instance] = []
    blank = [0]  # blank lines seen so far, counted by _contest_instances
    reported = 0
    try:
        for instance in _contest_instances(lines, name, blank):
            pending.append(instance)
            if len(pending) >= batch_rows:
                yield _contest_batch(pending, blank[0] - reported)
                pending, reported = [], blank[0]
    except ValueError:
        if pending:
            yield _contest_batch(pending, blank[0] - reported)
        raise
    if pending or blank[0] > reported:
        yield _contest_batch(pending, blank[0] - reported)


def _contest_instances(lines: Iterable[str], name: str, blank: list[int]) -> Iterator[_Instance]:
    """Each instance in order; blank lines between instances are added to ``blank[0]``."""
    numbered = enumerate(lines, start=1)
    instance = 0
    while (entry := _next_nonblank(numbered, blank)) is not None:
        line_number, raw = entry
        text = raw.strip()
        if not (text.isascii() and text.isdigit()):
            raise InputError(f"{name}: line {line_number}: expected the number of players, "
                             f"got {shown(text)}")
        digits = text.lstrip("0") or "0"
        players = int(digits) if len(digits) <= 3 else None
        if players is None or not 1 <= players <= holdem.MAX_PLAYERS:
            raise InputError(f"{name}: line {line_number}: {shown(text, 12, quote=False)} players, "
                             f"expected 1 to {holdem.MAX_PLAYERS}")
        fields, texts = [], [raw]
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
            texts.append(got[1])
        instance += 1
        yield _Instance(instance, line_number, fields, "\n".join(texts))


def _next_nonblank(numbered: Iterator[tuple[int, str]], blank: list[int]) -> tuple[int, str] | None:
    for line_number, text in numbered:
        if text.strip():
            return line_number, text
        blank[0] += 1
    return None


def _contest_batch(pending: list[_Instance], blank_lines: int) -> Batch:
    columns: dict[str, list[str | None]] = {holdem.BOARD_COLUMN: [instance.fields[0] for instance in pending]}
    for seat, name in enumerate(holdem.SEATS, start=1):
        columns[name] = [i.fields[seat] if seat < len(i.fields) else None for i in pending]
    table = pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()})
    rows = np.array([instance.number for instance in pending], dtype=np.int64)
    lines = np.array([instance.line for instance in pending], dtype=np.int64)
    return Batch(table, rows, lines, blank_lines=blank_lines, raw=[i.text for i in pending],
                 field_lines=True)
