"""Parquet files: deal archives and games files read one record batch at a time, or by row group.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources` and the foundation modules, never the
runs or the command line; ``pyarrow.parquet`` only inside the functions
that read a file (~15 ms of imports that only a Parquet input needs).

This module owns the Parquet reader: the names and the first bytes that
tell a Parquet file (:data:`SUFFIXES`, :data:`MAGIC`), its schema
(:func:`read_schema`), the rows of each of its row groups
(:func:`parquet_row_groups`: the dask engine's partitions), and its
batches (:func:`read_batches`), whose rows keep the numbers they have in
the whole file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.errors import InputError
from pipeline.formats.sources import Batch, Source, as_strings, explain
from pipeline.text import shown

SUFFIXES = (".parquet", ".pq")
MAGIC = b"PAR1"  # the first bytes of a Parquet file, whatever its name


def read_schema(path: Path) -> pa.Schema:
    """The schema of a Parquet file; InputError when it is no readable Parquet file."""
    import pyarrow.parquet as pq  # ~15 ms of imports that only a Parquet input needs

    try:
        return pq.read_schema(path)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{shown(str(path), None, quote=False)}: not a readable Parquet file "
                         f"({explain(error)})") from None


def parquet_row_groups(source: Source) -> list[int]:
    """Rows of each row group of a Parquet source, in file order."""
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_metadata(source.path)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: not a readable Parquet file ({error})") from None
    return [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]


def read_batches(source: Source, columns: tuple[str, ...], *, batch_rows: int,
                 row_groups: range | None = None, typed: frozenset[str] = frozenset()) -> Iterator[Batch]:
    """Read the given columns of a Parquet source, one record batch of at most ``batch_rows`` at a time.

    Every column comes as text but those named in ``typed``, which keep
    the file's own Arrow type; columns the source lacks come back as nulls.
    ``row_groups`` reads just that range of row groups, whose rows keep the
    numbers they have in the whole file.  Raises InputError naming the file
    and the last row read when the file cannot be read on.
    """
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
            table = as_strings(pa.Table.from_batches([record_batch]), columns, typed)
            rows = np.arange(done + 1, done + 1 + table.num_rows, dtype=np.int64)
            done += table.num_rows
            yield Batch(table, rows, np.full(table.num_rows, -1, dtype=np.int64))
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read past row {done}: {error}") from None
