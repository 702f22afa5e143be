"""The columns of a run's results beyond the game's own: the empty ones of a fixed schema, and the
user's own carried along.

Layer: runs (:mod:`pipeline.runs`); imports the formats, the games and the
foundation modules.

This module owns two rules of a results table's columns, shared by
``pokerpipe run`` (:mod:`~pipeline.runs.runner`), ``pokerpipe equity``
(:mod:`~pipeline.runs.equity`) and ``score()`` (:mod:`~pipeline.runs.api`):
a batch is :func:`conformed` to the one schema of its game and options,
whatever columns it lacks, and the columns of the user's that a run keeps
(``--keep``, ``--keep-all``) are chosen and typed by :func:`kept_columns`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from pipeline.errors import InputError, UsageError
from pipeline.formats import readers
from pipeline.formats.sources import Source
from pipeline.games import registry
from pipeline.text import shown


def conformed(table: pa.Table, template: pa.Table) -> pa.Table:
    """``table`` with the columns of ``template`` in its order and types: those it lacks empty.

    An empty category column keeps the template's dictionary, so that every
    table of one schema reads back with the same categories.

    >>> template = pa.table({"a": pa.array([], pa.int16()), "b": pa.array([], pa.int64())})
    >>> conformed(pa.table({"b": [1]}), template).to_pylist()
    [{'a': None, 'b': 1}]
    """
    have = set(table.column_names)
    columns = []
    # One empty column per type, shared by every column of that type the table lacks: the seven
    # hand-history columns of a deal archive's winners would otherwise take 1 MiB each per batch.
    made: list[tuple[pa.DataType, pa.Array | None, pa.Array]] = []
    for wanted, like in zip(template.schema, template.columns):
        kind = wanted.type
        if wanted.name in have:
            columns.append(table.column(wanted.name).cast(kind))
            continue
        dictionary = None
        if pa.types.is_dictionary(kind):
            dictionary = like.chunk(0).dictionary if like.num_chunks else pa.array([], kind.value_type)
        columns.append(_empty(made, kind, dictionary, table.num_rows))
    return pa.table(columns, schema=template.schema)


def _empty(made: list[tuple[pa.DataType, pa.Array | None, pa.Array]], kind: pa.DataType,
           dictionary: pa.Array | None, rows: int) -> pa.Array:
    """An empty column of ``kind`` (of ``dictionary``), the one in ``made`` if there is one, else a
    new one added to it: a dictionary column is shared only with those of an equal dictionary (the
    categories of every seat, the descriptions of every best five)."""
    for made_kind, made_dictionary, column in made:
        if made_kind == kind and (dictionary is None or dictionary.equals(made_dictionary)):
            return column
    column = pa.nulls(rows, kind) if dictionary is None else pa.DictionaryArray.from_arrays(
        pa.nulls(rows, kind.index_type), dictionary, ordered=kind.ordered)
    made.append((kind, dictionary, column))
    return column


def kept_columns(sources: Sequence[Source], *, keep: Sequence[str] = (), keep_all: bool = False,
                 taken: Sequence[str] = (), output_format: str = "csv",
                 results: str = "winners") -> pa.Schema:
    """The columns of the user's that a run carries into its results, with their Arrow types.

    Parameters
    ----------
    sources : sequence of Source
        The run's inputs; only the deal archives and games files (CSV,
        Parquet) have columns of their own to keep.
    keep : sequence of str
        Column names asked for (``--keep``), in order.
    keep_all : bool
        Keep every column of those inputs that no game reads (``--keep-all``),
        after the ``keep`` ones, in the order the inputs first name them.
    taken : sequence of str
        The results table's own columns: a kept column may not have one's name.
    output_format : str
        ``"csv"`` refuses a column CSV cannot hold (a list, a struct).
    results : str
        The results table, as messages name it.

    Returns
    -------
    pyarrow.Schema
        One field per kept column: text for a CSV input's column, a Parquet
        input's own type; inputs giving one column in types that widen to
        one (int32 and int64, categorical text and text) give the wider.

    Raises
    ------
    UsageError
        A name no such input has, one a game reads, one the results have.
    InputError
        Inputs that give one column in types that do not widen to one.
    """
    tables = [source for source in sources if source.format in readers.TABLE_FORMATS]
    known = registry.known_columns()
    names = list(dict.fromkeys(keep))
    if keep_all:
        names += [name for source in tables for name in source.columns if name not in known]
        names = list(dict.fromkeys(names))
    fields = []
    for name in names:
        what = f"--keep {shown(name)}" if name in keep else f"--keep-all: column {shown(name)}"
        if name in known:
            raise UsageError(f"{what} is a column the game reads, not one of yours to keep")
        if name in taken:
            raise UsageError(f"{what}: {results} has a column of that name already; rename it in the "
                             f"input" + ("" if name in keep else ", or --keep the columns you want"))
        having = [source for source in tables if name in source.columns]
        if not having:
            raise UsageError(f"{what}: no CSV or Parquet input has such a column")
        found = {source.column_type(name): source for source in having}
        # Types that differ widen to one: int32 and int64 to int64, categorical text and text to text.
        kinds = [kind.value_type if len(found) > 1 and pa.types.is_dictionary(kind) else kind
                 for kind in found]
        try:
            kind = pa.unify_schemas([pa.schema([(name, kind)]) for kind in kinds],
                                    promote_options="permissive").field(name).type
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
            (one, first), (other, second) = list(found.items())[:2]
            raise InputError(f"column {shown(name)} is {one} in {first.name} but {other} in {second.name}: "
                             f"give it one type in every input to keep it") from None
        if output_format == "csv" and not _csv_writable(kind):
            raise UsageError(f"{what} is of type {kind}, which a CSV file cannot hold: pass --format parquet")
        fields.append(pa.field(name, kind))
    return pa.schema(fields)


def _csv_writable(kind: pa.DataType) -> bool:
    """Whether pyarrow's CSV writer can write a column of this type: it writes each value's text."""
    try:
        pa.nulls(1, kind).cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return False
    return True
