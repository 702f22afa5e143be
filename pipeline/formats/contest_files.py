"""Contest files: the "Rhinoceros Beetle" format, read instance by instance.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, the board games' columns and the
foundation modules, never the runs or the command line.

This module owns the contest format (``.in``, ``.txt``, plain or
compressed): a line with the number of players N, the board, then N lines
of hole cards, instance after instance.  It is read one line at a time,
never holding more than one line of at most :data:`MAX_LINE` characters
(:func:`text_lines`), each instance one row of :data:`COLUMNS`
(:func:`contest_batches`), from a file (:func:`read_batches`) or from a
stream (``pokerpipe contest`` reads standard input); and it reads the first
line that tells a contest file apart (:func:`first_text_line`,
:func:`looks_like_contest`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np
import pyarrow as pa

from pipeline.errors import InputError
from pipeline.formats.sources import DEFAULT_BATCH_ROWS, Batch, Source, explain
from pipeline.games import deals
from pipeline.text import shown

SUFFIXES = (".in", ".txt")
MAX_LINE = 1 << 20  # characters; a contest file line holds at most a few dozen
COLUMNS = (deals.BOARD_COLUMN, *deals.SEATS)  # the row of an instance


def first_text_line(path: Path, compression: str | None) -> tuple[int, str | None]:
    """The first line of a file's head that is not blank, stripped, and its number.

    "" when the head is blank, None when it is not text (NUL bytes).
    """
    try:
        with pa.input_stream(str(path), compression=compression) as stream:
            head = stream.read(1 << 12)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{shown(str(path), None, quote=False)}: cannot read ({explain(error)})") from None
    text = head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    # Lines end at \n only, as the contest reader ends them.
    for number, line in enumerate(text.split("\n"), start=1):
        if "\0" in line:
            return number, None
        if line.strip():
            return number, line.strip()
    return 1, ""


def looks_like_contest(path: Path, compression: str | None) -> bool:
    """Whether a file's first line is a number, as a contest file's first line is."""
    with pa.input_stream(str(path), compression=compression) as stream:
        head = stream.read(256)
    first = head.split(b"\n", 1)[0].strip()
    return bool(first.isdigit())


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """Read a contest source in batches of at most ``batch_rows`` instances (:func:`contest_batches`)."""
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
        if players is None or not 1 <= players <= deals.MAX_PLAYERS:
            raise InputError(f"{name}: line {line_number}: {shown(text, 12, quote=False)} players, "
                             f"expected 1 to {deals.MAX_PLAYERS}")
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
    columns: dict[str, list[str | None]] = {deals.BOARD_COLUMN: [instance.fields[0] for instance in pending]}
    for seat, name in enumerate(deals.SEATS, start=1):
        columns[name] = [i.fields[seat] if seat < len(i.fields) else None for i in pending]
    table = pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()})
    rows = np.array([instance.number for instance in pending], dtype=np.int64)
    lines = np.array([instance.line for instance in pending], dtype=np.int64)
    return Batch(table, rows, lines, blank_lines=blank_lines, raw=[i.text for i in pending],
                 field_lines=True)
