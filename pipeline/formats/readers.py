"""Readers: the inputs a run names, found, told apart and read as batches of raw text columns.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.headers`, the
format modules (:mod:`~pipeline.formats.csv_files`,
:mod:`~pipeline.formats.parquet_files`,
:mod:`~pipeline.formats.contest_files`, :mod:`~pipeline.formats.phh`,
:mod:`~pipeline.formats.sites`), :mod:`~pipeline.formats.histories`,
the games' registry and the foundation modules, never the runs or the
command line.

This module is the facade of input: it finds the files a run names
(paths, folders, glob patterns: :func:`find_sources`), tells their format
and game (:func:`open_source`), and reads each through its format's module,
all behind one interface (:func:`read_batches`, :func:`read_pending`),
in batches of bounded size:

* CSV, plain or compressed (``.gz``, ``.bz2``, ``.zst``):
  :mod:`~pipeline.formats.csv_files`;
* Parquet: :mod:`~pipeline.formats.parquet_files`;
* contest files (the "Rhinoceros Beetle" format):
  :mod:`~pipeline.formats.contest_files`;
* PHH hand histories: :mod:`pipeline.formats.phh`;
* the sites' hand-history logs (``.txt``, told apart by their first line:
  PokerStars, GGPoker, ...), each site a module of :mod:`pipeline.formats.sites`,
  also inside ``.zip`` archives, read in place (:func:`_archived`).

Every batch carries the data rows as a table of string columns, their row
and line numbers, the raw text of each row, and the lines that could not
even be split into fields (wrong number of fields, too long, not UTF-8),
so that nothing read is ever dropped unseen.  Header names are checked so
that no player is lost to a misspelt column
(:func:`~pipeline.formats.headers.checked_columns`).
"""

from __future__ import annotations

import dataclasses
import errno
import glob
import os
import stat
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats import contest_files, csv_files, headers, histories, parquet_files, phh, sites
from pipeline.formats.sources import (
    ARCHIVE,
    DEFAULT_BATCH_ROWS,
    Batch,
    PendingBatch,
    Source,
    UnknownFormatError,
    as_strings,
    format_suffix,
)
from pipeline.games import deals, registry
from pipeline.text import listed, shown

#: Formats whose columns the file names (deal archives and games files): a column of the user's
#: that no game reads may be carried into the results (``--keep``).
#: Source formats that are hand histories: PHH and every site's logs (:mod:`pipeline.formats.sites`).
HISTORY_FORMATS = ("phh", *(site.name for site in sites.SITES))
TABLE_FORMATS = ("csv", "parquet")


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
            if format_suffix(path)[0] == ARCHIVE and status is not None:
                sources += _archived(path, skipped, notice)
                continue
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


def _archived(path: Path, skipped: list[dict[str, str]], notice: Callable[[str], None]) -> list[Source]:
    """The sites' logs inside a ``.zip`` archive (GGPoker's PokerCraft and other sites export them
    so), each a source read from the archive in place, in the archive's order; every other member
    is skipped with a notice.

    Raises
    ------
    UnknownFormatError
        The archive holds no site's log.
    InputError
        The archive cannot be read (damaged, or no zip archive).
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, OSError) as error:
        raise InputError(f"{shown(str(path), None, quote=False)}: cannot read the archive "
                         f"({error})") from None
    found: list[Source] = []
    for info in members:
        site = sites.detect(path, member=info.filename)
        where = f"{path}/{info.filename}"
        if site is None:
            names = sites.venues(format_suffix(info.filename)[0])
            reason = f"not a hand history of {names}" if names else "not a site's hand-history log"
            skipped.append({"file": where, "reason": reason})
            notice(f"{shown(where, None, quote=False)}: {reason}: skipped")
            continue
        found.append(Source(path, site.name, histories.COLUMNS, member=info.filename, given_as=where,
                            size_found=info.file_size))
    if not found:
        raise UnknownFormatError(path, "an archive that holds no site's hand-history log")
    return found


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
                                     f"Parquet, contest, PHH or site log")
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
    return phh.is_phh(path) or format_suffix(path)[0] in (*sites.SUFFIXES, ARCHIVE)


def _known_format(path: Path) -> bool:
    return format_suffix(path)[0] in \
        csv_files.SUFFIXES + parquet_files.SUFFIXES + contest_files.SUFFIXES + phh.SUFFIXES + (ARCHIVE,)


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
    site = sites.detect(path) if suffix in sites.SUFFIXES else None
    if site is not None:
        return found(site.name, histories.COLUMNS, compression)
    with open(path, "rb") as handle:
        magic = handle.read(4)
    if suffix in parquet_files.SUFFIXES or (magic == parquet_files.MAGIC and not compression):
        schema = parquet_files.read_schema(path)
        names = headers.checked_columns(path, tuple(schema.names))
        headers.check_text_types(path, schema)
        return found("parquet", names, types=tuple(schema.types))
    if suffix in contest_files.SUFFIXES:
        line, first = contest_files.first_text_line(path, compression)
        if first is None:
            raise UnknownFormatError(path, f"line {line}: binary data where a contest file has the "
                                           f"number of players")
        if not first and suffix in sites.SUFFIXES:  # a .txt of nothing is no contest file either
            raise UnknownFormatError(path, "holds no text (blank lines or a byte-order mark only)")
        if first and not (first.isascii() and first.isdigit()):
            raise UnknownFormatError(path, f"line {line}: expected the number of players, got "
                                           f"{shown(first)}: not a contest file{sites.described(suffix)}")
        return found("contest", contest_files.COLUMNS, compression)
    if suffix not in csv_files.SUFFIXES and contest_files.looks_like_contest(path, compression):
        return found("contest", contest_files.COLUMNS, compression)
    return found("csv", headers.checked_columns(path, csv_files.read_header(path, compression)), compression)


def read_batches(source: Source, columns: tuple[str, ...], *,
                 batch_rows: int = DEFAULT_BATCH_ROWS,
                 row_groups: range | None = None,
                 byte_range: csv_files.ByteRange | None = None,
                 typed: frozenset[str] = frozenset()) -> Iterator[Batch]:
    """Read the given columns of a source in batches of about ``batch_rows`` rows.

    Columns the source lacks come back as nulls (an empty hold'em seat).
    Every column comes as text but those named in ``typed`` (columns of the
    user's carried into the results as they are), which a Parquet file
    gives in its own Arrow type.
    ``row_groups``, for Parquet only, reads just that range of row groups;
    their rows keep the numbers they have in the whole file.  ``byte_range``,
    for plain CSV only, reads the lines of that range (see
    :func:`~pipeline.formats.csv_files.csv_byte_ranges`), numbered as in
    the whole file.
    Raises ValueError naming the file, the place and the reason when the
    file cannot be read on (a truncated archive, a line longer than the
    read block, bytes that are not text).
    """
    if row_groups is not None and source.format != "parquet":
        raise InputError(f"{source.path}: only Parquet files are read by row group")
    if byte_range is not None and not csv_files.splittable(source):
        raise InputError(f"{source.path}: only plain CSV files are read by byte range")
    if source.format == "parquet":
        yield from parquet_files.read_batches(source, columns, batch_rows=batch_rows, row_groups=row_groups,
                                              typed=typed)
    elif source.format == "contest":
        yield from _holding(contest_files.read_batches(source, batch_rows=batch_rows), columns)
    elif source.format == "phh":
        yield from _holding(phh.read_batches(source, batch_rows=batch_rows), columns)
    elif source.format in sites.BY_NAME:
        yield from _holding(sites.read_batches(source, batch_rows=batch_rows), columns)
    else:
        yield from csv_files.read_batches(source, columns, batch_rows=batch_rows, byte_range=byte_range)


def first_hole_cards(source: Source, *, rows: int = 256) -> int | None:
    """The cards of the first seated hand among a deal archive's first ``rows`` rows, if any.

    What tells an Omaha archive (four to six cards a seat) from a hold'em
    one (two) when no game is named.  None for a source that is no CSV or
    Parquet table of seats, or whose first rows seat nobody; an unreadable
    file is left to the run, which names its fault.
    """
    seats = deals.seats_of(source.columns)
    if source.format not in TABLE_FORMATS or deals.BOARD_COLUMN not in source.columns or not seats:
        return None
    try:
        batch = next(iter(read_batches(source, seats, batch_rows=rows)), None)
    except (ValueError, OSError):
        return None
    if batch is None:
        return None
    return deals.first_hole_count([batch.table.column(name) for name in seats], rows=rows)


def _holding(batches: Iterable[Batch], columns: tuple[str, ...]) -> Iterator[Batch]:
    """The batches of a format that makes its own columns, each with every one of ``columns``:
    those the format does not make (a contest file's expected winners, beside hand histories
    that have them), nulls."""
    for batch in batches:
        if not set(columns) <= set(batch.table.column_names):
            batch.table = as_strings(batch.table, columns)
        yield batch


def read_pending(source: Source, columns: tuple[str, ...], *, batch_rows: int = DEFAULT_BATCH_ROWS,
                 typed: frozenset[str] = frozenset()) -> Iterator[Batch | PendingBatch]:
    """The batches of :func:`read_batches`, those of hand histories left unparsed (:class:`PendingBatch`).

    Parsing a hand history is most of the work of its run: left to the
    thread that loads the batch, it runs on every core.
    """
    if source.format == "phh":
        yield from phh.read_pending(source, batch_rows=batch_rows)
    elif source.format in sites.BY_NAME:
        yield from sites.read_pending(source, batch_rows=batch_rows)
    else:
        yield from read_batches(source, columns, batch_rows=batch_rows, typed=typed)
