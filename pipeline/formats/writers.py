"""Writers: every file the pipeline produces, written atomically.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.publish` and the foundation modules.

This module owns output: the winners table (CSV or Parquet, written batch by
batch), the rejects file, summary.json and the statistics tables.  Each file
is written under a temporary name in its own folder and renamed into place
only when complete, so an interrupted run never leaves a file that looks
finished.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.csv as pacsv

from pipeline.errors import OutputError, OutputExists, UsageError, os_reason
from pipeline.formats.publish import remove_stale, rename_new
from pipeline.text import shown

if TYPE_CHECKING:
    import pyarrow.parquet as pq

FORMATS = ("csv", "parquet")
#: pandas' nullable dtype of each Arrow integer and boolean type: a Parquet output's integer
#: columns may be empty (a seat no one sits in), and NumPy's int64 cannot hold a missing value.
PANDAS_NULLABLE = {pa.int8(): "Int8", pa.int16(): "Int16", pa.int32(): "Int32", pa.int64(): "Int64",
                   pa.uint8(): "UInt8", pa.uint16(): "UInt16", pa.uint32(): "UInt32",
                   pa.uint64(): "UInt64", pa.bool_(): "boolean"}


def check_writable(path: str | os.PathLike[str], *, replace: bool, make_parents: bool = True) -> None:
    """Refuse at once a file that cannot be written as asked, before any work goes into it.

    Raises
    ------
    OutputExists
        ``replace=False`` and the file (or a link of that name) is there.
    OutputError
        ``make_parents=False`` and the file's folder does not exist.
    """
    path = Path(path)
    if not make_parents and not path.parent.is_dir():
        what = "is a file, not a folder" if path.parent.exists() else "does not exist"
        raise OutputError(f"{shown(str(path), None, quote=False)}: the folder "
                          f"{shown(str(path.parent), None, quote=False)} {what}")
    if not replace and os.path.lexists(path):
        raise OutputExists(f"{shown(str(path), None, quote=False)}: already exists")


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str], *, replace: bool = True,
                make_parents: bool = True) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    The temporary file is held under an ``flock`` while it is written, so
    that the next write of the same path can remove what a killed process
    left (:func:`pipeline.formats.publish.remove_stale`).  An OS error (no space,
    read-only, permission) becomes an :class:`~pipeline.errors.OutputError`
    naming the path.

    ``replace=False`` never replaces a file: when one of that name appears
    while the temporary file is written, it is left as it is and
    OutputError says so (the last step is a rename that refuses an existing
    name, :func:`pipeline.formats.publish.rename_new`).  ``make_parents=False``
    creates no folder: a missing parent folder is an OutputError.
    """
    path = Path(path)
    check_writable(path, replace=True, make_parents=make_parents)
    try:
        if make_parents:
            path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale(path.parent, f".{path.name}.", suffixes=(".part",))
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as error:
        raise os_reason(error, path) from None
    temporary = Path(name)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield temporary
        # mkstemp makes the file private; give it the mode a new file gets.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        if replace:
            os.replace(temporary, path)
        elif not rename_new(temporary, path):
            raise OutputError(f"{shown(str(path), None, quote=False)}: a file of that name appeared "
                              f"while it was written; it is left as it is")
    except OutputError:
        raise
    except OSError as error:
        raise os_reason(error, path) from None
    finally:
        temporary.unlink(missing_ok=True)
        os.close(handle)


def write_json(path: str | os.PathLike[str], document: dict[str, Any]) -> None:
    """Write a JSON document atomically, indented for people to read."""
    with atomic_path(path) as temporary:
        temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def write_table(path: str | os.PathLike[str], table: pa.Table) -> None:
    """Write a whole table atomically, as CSV or Parquet by the file's extension."""
    with TableWriter(path, schema=table.schema) as writer:
        writer.write(table)


def csv_write_options(*, quote_strings: bool = False) -> pacsv.WriteOptions:
    """CSV options of every file written: a plain header, strings quoted only on request.

    Unquoted CSV is smaller and looks like the inputs; a file whose strings
    may hold commas or quotes (raw rejected text) must quote them.
    """
    return pacsv.WriteOptions(quoting_style="needed" if quote_strings else "none", quoting_header="none")


def parquet_options(schema: pa.Schema) -> dict[str, Any]:
    """ParquetWriter options for a table of ours: measured on 1M six-player winners rows.

    zstd at level 1 compresses about as well as its default level for these
    low-entropy columns; ``row`` counts up by one, so delta encoding stores
    it in almost nothing where a dictionary would fail and fall back; only
    ``row`` gets min/max statistics (the one column a reader filters on).
    Together: 0.23 s -> 0.15 s and 16.1 MB -> 14.1 MB per 1M rows.
    """
    options: dict[str, Any] = {"compression": "zstd", "compression_level": 1}
    if "row" in schema.names:
        options.update(use_dictionary=[name for name in schema.names if name != "row"],
                       column_encoding={"row": "DELTA_BINARY_PACKED"}, write_statistics=["row"])
    elif "hand_key" in schema.names:
        # The hand tables: ``hand_key`` grows with the hands (delta encoding), and a dictionary
        # only for the columns that are one already; on 15,000 hands (90,000 seats, 178,000
        # actions): 68 ms -> 49 ms and 647 KB -> 245 KB for the three tables.
        options.update(use_dictionary=[field.name for field in schema if pa.types.is_dictionary(field.type)],
                       column_encoding={"hand_key": "DELTA_BINARY_PACKED"}, write_statistics=["hand_key"])
    return options


def pandas_metadata(schema: pa.Schema) -> dict[str, Any]:
    """The ``pandas`` metadata of a Parquet file of ours: how ``pd.read_parquet`` types each column.

    Without it pandas reads an integer column with a missing value as
    float64 (a key of 3738 as 3738.0).  With it, integers and booleans come
    back as pandas' nullable dtypes (:data:`PANDAS_NULLABLE`) and dictionary
    columns as categoricals, ordered where the Arrow type is (the hand
    categories, in rank order).  Columns of other types (text, floats,
    timestamps of a kept column) are read as pandas reads them anyway.

    >>> described = pandas_metadata(pa.schema([("p1_key", pa.int16()), ("winners", pa.string())]))
    >>> [(column["name"], column["numpy_type"]) for column in described["columns"]]
    [('p1_key', 'Int16'), ('winners', 'object')]
    """
    columns = []
    for field in schema:
        kind = field.type
        if pa.types.is_dictionary(kind):
            pandas_type, numpy_type = "categorical", str(kind.index_type)
            extra: dict[str, Any] | None = {"num_categories": None, "ordered": kind.ordered}
        elif kind in PANDAS_NULLABLE:
            pandas_type = "bool" if pa.types.is_boolean(kind) else str(kind)
            numpy_type, extra = PANDAS_NULLABLE[kind], None
        elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
            pandas_type, numpy_type, extra = "unicode", "object", None
        elif pa.types.is_floating(kind):
            pandas_type = numpy_type = kind.to_pandas_dtype().__name__
            extra = None
        else:  # a kept column of another type: pyarrow's own conversion
            continue
        columns.append({"name": field.name, "field_name": field.name, "pandas_type": pandas_type,
                        "numpy_type": numpy_type, "metadata": extra})
    return {"index_columns": [], "column_indexes": [], "columns": columns,
            "creator": {"library": "pyarrow", "version": pa.__version__}}


class TableWriter:
    """Append record batches to one CSV or Parquet file, published on close.

    The format follows the extension (``.csv`` or ``.parquet``).  The schema
    is taken from the first batch; a writer closed without any batch writes
    the ``schema`` given, or nothing if none was.  Use as a context manager:
    the file appears only if the block ends without an exception.
    ``replace=False`` leaves a file that appeared meanwhile as it is (see
    :func:`atomic_path`).

    A Parquet file carries :func:`pandas_metadata`.  With ``row_group_rows``
    its row groups hold that many rows each, the last one fewer, however
    the rows were handed in: a run hands in what each input or part of one
    gave (a hand-history file of a few hands), which would otherwise be a
    row group each.  Rows wait in memory until they fill a row group, at
    most one row group's worth.  With ``whole_writes`` each write is one
    row group of its own, whatever its size: the rows of a hand, handed in
    together, never span two.
    """

    def __init__(self, path: str | os.PathLike[str], *, schema: pa.Schema | None = None,
                 quote_strings: bool = False, replace: bool = True,
                 row_group_rows: int | None = None, whole_writes: bool = False) -> None:
        self.path = Path(path)
        self.format = self.path.suffix.lstrip(".").lower()  # as a reader takes it: deals.CSV is CSV
        if self.format not in FORMATS:
            raise UsageError(f"{self.path}: unknown output format, expected .csv or .parquet")
        self.schema = schema
        self.quoting = "needed" if quote_strings else "none"
        self.rows = 0
        self.row_group_rows = row_group_rows if self.format == "parquet" else None
        self.whole_writes = whole_writes
        self._waiting: list[pa.Table] = []  # rows short of a whole row group
        self._waiting_rows = 0
        self._context = atomic_path(self.path, replace=replace)
        self._temporary: Path | None = None
        self._writer: pq.ParquetWriter | pacsv.CSVWriter | None = None

    def __enter__(self) -> TableWriter:
        self._temporary = self._context.__enter__()
        return self

    def write(self, table: pa.Table | pa.RecordBatch) -> None:
        """Append rows; their schema must match the first batch written."""
        if self._writer is None:
            self.schema = table.schema
            self._writer = self._open()
        if isinstance(table, pa.RecordBatch):
            table = pa.Table.from_batches([table])
        table = table.cast(self.schema)
        self.rows += table.num_rows
        if self.whole_writes and self.format == "parquet":
            if table.num_rows:
                self._writer.write_table(table, row_group_size=table.num_rows)
            return
        if self.row_group_rows is None:
            self._writer.write_table(table)
            return
        self._waiting.append(table)
        self._waiting_rows += table.num_rows
        if self._waiting_rows >= self.row_group_rows:
            self._flush(whole_groups_only=True)

    def _flush(self, *, whole_groups_only: bool) -> None:
        """Write the rows waiting as row groups of ``row_group_rows``; keep back a last part
        short of one when ``whole_groups_only``."""
        assert self.row_group_rows is not None and self._writer is not None
        waiting = pa.concat_tables(self._waiting)
        size = self.row_group_rows
        whole = waiting.num_rows // size * size if whole_groups_only else waiting.num_rows
        if whole:
            self._writer.write_table(waiting.slice(0, whole), row_group_size=size)
        rest = waiting.slice(whole)
        self._waiting, self._waiting_rows = ([rest], rest.num_rows) if rest.num_rows else ([], 0)

    def _open(self) -> pq.ParquetWriter | pacsv.CSVWriter:
        if self.format == "parquet":
            import pyarrow.parquet as pq  # ~15 ms of imports that only a Parquet output needs

            assert self.schema is not None
            pandas = json.dumps(pandas_metadata(self.schema)).encode()
            described = self.schema.with_metadata({**(self.schema.metadata or {}), b"pandas": pandas})
            return pq.ParquetWriter(self._temporary, described, **parquet_options(self.schema))
        options = csv_write_options(quote_strings=self.quoting == "needed")
        return pacsv.CSVWriter(self._temporary, self.schema, write_options=options)

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        try:
            if kind is None and self._writer is None and self.schema is not None:
                self._writer = self._open()
            if kind is None and self._waiting:
                self._flush(whole_groups_only=False)
            if self._writer is not None:
                self._writer.close()
        except BaseException as error:
            self._context.__exit__(type(error), error, error.__traceback__)
            raise
        self._context.__exit__(kind, value, traceback)
