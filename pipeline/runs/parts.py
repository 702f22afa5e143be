"""Parts of a run: what a process reads on its own, and the part files it writes.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.scoring`,
the formats and the foundation modules, never the command line.

This module owns the task both multi-process engines give a process: the
local engine's worker processes (:mod:`pipeline.runs.runner`) and the dask
engine's cluster workers (:mod:`pipeline.runs.cluster`).  A
:class:`Partition` is a whole file, a range of a Parquet file's row groups
or a byte range of a plain CSV file; :func:`score_partition` reads it,
scores every batch with :meth:`pipeline.runs.scoring.Scoring.process_batch`
and writes its winners, rejects and hand tables as files of its own,
named by the partition's place in input order (:func:`part_name`), and
returns only its counts (:class:`PartResult`), so that nothing large
travels between processes.

A part file is a CSV or Parquet file (an output's part) or, where the
rows' numbers in the run are not known yet when the partition is read, an
Arrow IPC stream (a spill: ``.arrow``) whose ``row`` is the row in its own
file, read back at memory speed by the process that adds the offset
(:func:`read_spill`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import pyarrow as pa
import pyarrow.compute as pc

from pipeline.formats import csv_files, readers
from pipeline.formats.sources import Source
from pipeline.formats.writers import TableWriter
from pipeline.hands import model
from pipeline.runs.scoring import REJECT_SCHEMA, Scoring, Totals

SPILL_SUFFIX = ".arrow"


@dataclass(frozen=True)
class Partition:
    """Rows a worker reads on its own: a whole file, or a range of Parquet row groups."""

    index: int
    source: int  # place of the file among the run's sources
    row_groups: range | None = None
    byte_range: tuple[int, int] | None = None  # (start, stop) of a plain CSV file


@dataclass(frozen=True)
class PartResult:
    """What a partition task returns: its counts.  Its winners and its rejected rows are in
    its part files, so no side holds a partition's rows."""

    index: int
    totals: Totals


def part_name(index: int, suffix: str) -> str:
    """File name of a partition's part of a table, ordered like the rows.

    >>> part_name(7, "parquet"), part_name(12, "arrow")
    ('part-00007.parquet', 'part-00012.arrow')
    """
    return f"part-{index:05d}.{suffix}"


def readable(source: Source) -> Source:
    """``source`` as another process reads it: by its absolute path (a cluster's workers may run
    elsewhere), keeping the name the user gave for what the outputs write."""
    return dataclasses.replace(source, path=source.path.resolve(), given_as=source.name,
                               members=tuple(readable(member) for member in source.members))


class SpillWriter:
    """Append record batches to an Arrow IPC stream file: a part read back by another process.

    The rows are written as they are, with no encoding, so that reading
    them back costs a memory map (:func:`read_spill`).  Use as a context
    manager; a writer closed without any batch writes ``schema`` alone.
    """

    def __init__(self, path: str | Path, *, schema: pa.Schema) -> None:
        self.path = Path(path)
        self.schema = schema
        self._writer: pa.ipc.RecordBatchStreamWriter | None = None

    def __enter__(self) -> SpillWriter:
        self._writer = pa.ipc.new_stream(str(self.path), self.schema)
        return self

    def write(self, table: pa.Table) -> None:
        assert self._writer is not None, "SpillWriter used outside its with block"
        if table.num_rows:
            self._writer.write_table(table.cast(self.schema))

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._writer is not None:
            self._writer.close()


def read_spill(path: str | Path, *, row_offset: int = 0) -> Iterator[pa.Table]:
    """The tables of a spill file, each with ``row_offset`` added to its ``row`` column.

    Parameters
    ----------
    path : path of a file :class:`SpillWriter` wrote
    row_offset : rows of the run before the partition's file
    """
    with pa.memory_map(str(path)) as mapped, pa.ipc.open_stream(mapped) as reader:
        for batch in reader:
            table = pa.Table.from_batches([batch])
            if row_offset:
                column = table.schema.get_field_index("row")
                table = table.set_column(column, "row", pc.add(table.column("row"), row_offset))
            yield table


def _writer(path: str, schema: pa.Schema, *, quote_strings: bool = False,
            row_group_rows: int | None = None) -> TableWriter | SpillWriter:
    if path.endswith(SPILL_SUFFIX):
        return SpillWriter(path, schema=schema)
    return TableWriter(path, schema=schema, quote_strings=quote_strings, row_group_rows=row_group_rows)


def score_partition(scoring: Scoring, source: Source, partition: Partition, offset: int,
                    batch_rows: int, part_path: str, rejects_path: str, delay: float = 0.0,
                    first_line: int = 1, table_paths: dict[str, str] | None = None) -> PartResult:
    """The task of one partition: read, score, write its winners and rejects parts, return totals.

    Pure and idempotent: run again, it writes the same parts under the same names.

    Parameters
    ----------
    scoring : the run's per-batch work
    source : the partition's file
    partition : which of its rows
    offset : rows of the run before the file (0 for a spill's rows, numbered in the file)
    batch_rows : rows per batch
    part_path, rejects_path : the winners and rejects parts: ``.csv``, ``.parquet`` or a spill
        (``.arrow``, see :class:`SpillWriter`)
    delay : seconds to wait before anything is published; only slows the task, for tests
    first_line : the number of the first line of a byte range
    table_paths : the part of each hand table the partition writes (a run over hand histories)
    """
    byte_range = None if partition.byte_range is None else csv_files.ByteRange(*partition.byte_range,
                                                                              first_line=first_line)
    totals = scoring.empty_totals()
    with _writer(part_path, scoring.results_schema(), quote_strings=scoring.quote_winners,
                 row_group_rows=batch_rows) as winners, \
            _writer(rejects_path, REJECT_SCHEMA) as rejects, contextlib.ExitStack() as stack:
        tables = {name: stack.enter_context(TableWriter(path, schema=model.TABLES[name], quote_strings=True,
                                                        whole_writes=True))
                  for name, path in (table_paths or {}).items()}
        for batch in readers.read_batches(readable(source), scoring.columns, batch_rows=batch_rows,
                                          row_groups=partition.row_groups, byte_range=byte_range,
                                          typed=scoring.typed):
            outcome = scoring.process_batch(source, batch, offset)
            winners.write(outcome.results)
            rejects.write(outcome.rejects)
            for name, rows in (outcome.hand_tables or {}).items():
                tables[name].write(rows)
            totals += outcome.totals
        if delay:
            time.sleep(delay)
    return PartResult(partition.index, totals)
