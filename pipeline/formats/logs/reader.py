"""A site's files: told apart by their first line, read in chunks of whole hands, as a Site.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.logs.lines`,
:mod:`~pipeline.formats.logs.grammar`, :mod:`~pipeline.formats.scan`,
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.histories` and the hands layer.

This module owns what a site module exports, the same for every site read by a grammar
(:func:`site_of`): whether a file is the site's log (:func:`is_log`: its first line, a byte-order
mark left out), and its readers.  A file is read in chunks of whole hands (:data:`CHUNK_BYTES`,
cut where the last hand starts: memory is bounded by the chunk), each parsed by the first batch of
it loaded, on whichever thread loads it, so that several cores share one file.
"""

from __future__ import annotations

import re
import threading
import zipfile
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path

import pyarrow as pa

from pipeline.errors import InputError
from pipeline.formats import scan
from pipeline.formats.histories import batch_of
from pipeline.formats.logs.grammar import Grammar, read
from pipeline.formats.logs.lines import LogLines
from pipeline.formats.sources import Batch, PendingBatch, Site, Source, format_suffix, head_of, open_input
from pipeline.hands.audit import settle
from pipeline.hands.model import hand_key
from pipeline.hands.record import Record
from pipeline.text import repair_utf8

#: Bytes read at a time, cut at the last hand start: what one parse holds at once.
CHUNK_BYTES = 1 << 23
#: The file names a site's logs have (before a compression suffix).
SUFFIXES = (".txt",)


def starts_a_log(grammar: type[Grammar], head: bytes) -> bool:
    """Whether a file whose first bytes (its byte-order mark left out) are ``head`` starts with a
    hand of ``grammar``'s site: its first line, as the site's hand start."""
    for raw in head.replace(b"\r", b"\n").split(b"\n"):
        line = raw.decode("utf-8", errors="replace").rstrip()
        if line and not (grammar.head_lines and re.fullmatch(grammar.head_lines, line)):
            return re.match(grammar.hand_start, line) is not None
    return False


def is_log(grammar: type[Grammar], path: Path) -> bool:
    """Whether a ``.txt`` file (plain or compressed) starts with a hand of ``grammar``'s site."""
    suffix, compression = format_suffix(path)
    head = head_of(path, compression=compression) if suffix in SUFFIXES else None
    return head is not None and starts_a_log(grammar, head)


class Chunk:
    """Whole hands of a source, parsed once, by the first batch of them loaded (on whichever thread
    loads it), so that several cores share one file: what every site's reader cuts a file into.

    ``parse`` gives the chunk's Record and the winners' columns as the text writes them
    (:data:`pipeline.formats.histories.CARRIED`: hand, variant, stakes, time); it is let go once
    called, and what it holds (the chunk's lines) with it.
    """

    def __init__(self, parse: Callable[[], tuple[Record, dict[str, pa.Array]]], *, hands: int,
                 hands_before: int) -> None:
        self.hands, self.hands_before = hands, hands_before
        self._parse: Callable[[], tuple[Record, dict[str, pa.Array]]] | None = parse
        self._parsed: tuple[Record, dict[str, pa.Array]] | None = None
        self._lock = threading.Lock()

    def records(self, begin: int, count: int) -> tuple[Record, dict[str, pa.Array]]:
        """Hands ``begin`` to ``begin + count`` of the chunk, and their carried columns."""
        with self._lock:
            if self._parsed is None and self._parse is not None:
                self._parsed, self._parse = self._parse(), None
        assert self._parsed is not None
        record, carried = self._parsed
        return (record.slice(begin, begin + count),
                {name: column.slice(begin, count) for name, column in carried.items()})

    def batch(self, source: Source, begin: int, count: int) -> Batch:
        """The batch of hands ``begin`` to ``begin + count`` of the chunk."""
        record, carried = self.records(begin, count)
        return batch_of(settle(record), keys=hand_key(source.place, record.number), files=source.name,
                        carried=carried, duplicates=source.duplicates)


def pending_batches(chunks: Iterable[Chunk], source: Source, *, batch_rows: int) -> Iterator[PendingBatch]:
    """The batches of at most ``batch_rows`` hands of a source's chunks, each left for the thread
    that loads it to parse."""
    for chunk in chunks:
        for begin in range(0, chunk.hands, batch_rows):
            count = min(batch_rows, chunk.hands - begin)
            yield PendingBatch(partial(chunk.batch, source, begin, count),
                               last_row=chunk.hands_before + begin + count)


def chunk_records(chunks: Iterable[Chunk], *, batch_rows: int) -> Iterator[Record]:
    """The Records of a source's chunks, at most ``batch_rows`` hands each: every hand, rejected
    ones too, the hands of :func:`pending_batches`."""
    for chunk in chunks:
        for begin in range(0, chunk.hands, batch_rows):
            yield chunk.records(begin, min(batch_rows, chunk.hands - begin))[0]


def _chunks(grammar: type[Grammar], source: Source) -> Iterator[Chunk]:
    """The hands of a source a chunk at a time, their lines found, not parsed."""
    hands_before, line = 0, 1
    start = re.compile(f"^(?:{grammar.hand_start})".encode())
    try:
        with open_input(source) as stream:
            last = partial(scan.last_start, start=start)
            for piece in scan.chunks(stream, last, size=CHUNK_BYTES, tidy=scan.tidy):
                converted = grammar.text(piece.text)
                newlines = piece.newlines if converted is piece.text else scan.line_ends(converted)
                text, bad_lines = repair_utf8(converted)  # bytes replaced are never a "\n"
                lines = LogLines(text, newlines, grammar.hand_start)
                chunk = Chunk(partial(read, grammar, lines, bad_lines, line, hands_before), hands=lines.hands,
                              hands_before=hands_before)
                yield chunk
                hands_before += chunk.hands
                line += len(piece.newlines)
    except (pa.ArrowException, OSError, zipfile.BadZipFile) as error:
        raise InputError(f"{source.name}: cannot read past line {line} ({error})") from None


def read_pending(grammar: type[Grammar], source: Source, *, batch_rows: int) -> Iterator[PendingBatch]:
    """The batches of a source, each left for the thread that loads it to parse."""
    return pending_batches(_chunks(grammar, source), source, batch_rows=batch_rows)


def read_batches(grammar: type[Grammar], source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """The batches of a source of at most ``batch_rows`` hands, parsed as they are read.

    Raises InputError naming the file when it cannot be read (a damaged archive)."""
    for pending in read_pending(grammar, source, batch_rows=batch_rows):
        yield pending.load()


def read_records(grammar: type[Grammar], source: Source, *, batch_rows: int) -> Iterator[Record]:
    """The Records of a source, at most ``batch_rows`` hands each: every hand, rejected ones too."""
    return chunk_records(_chunks(grammar, source), batch_rows=batch_rows)


#: The grammar of every site read by one, by its source format's name (each registered by :func:`site_of`).
GRAMMARS: dict[str, type[Grammar]] = {}


def site_of(grammar: type[Grammar]) -> Site:
    """The :class:`~pipeline.formats.sources.Site` of a site read by ``grammar`` (registered in
    :data:`GRAMMARS`)."""
    GRAMMARS[grammar.name] = grammar
    return Site(name=grammar.name, venue=grammar.venue, suffixes=SUFFIXES,
                recognises=partial(starts_a_log, grammar),
                read_batches=partial(read_batches, grammar), read_pending=partial(read_pending, grammar))
