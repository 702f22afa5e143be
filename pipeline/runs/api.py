"""The library face: score a table in memory, for notebooks and scripts.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.runner`,
the formats, the games and the foundation modules.

:func:`score` takes a pandas DataFrame, a polars DataFrame or a pyarrow Table with the columns of
a games file (``Hand1,Hand2[,Winner]``) or of a deal table
(``board,p1..p10[,winners]``) and returns the same kind of object with one
row per input row, in input order: the columns ``pokerpipe run`` writes to
``winners`` (the input's expected column as ``expected``) and a ``reason``
column, null for the rows scored and saying why for the rows rejected.
Nothing is dropped, so a DataFrame keeps its index and the result lines up
with the input.  ``winners`` has a ``row`` column because its rejected rows
are elsewhere; here the index (the position, for a Table) is the row, so
there is none.

The game, the columns read and the expected column come from
:func:`pipeline.runs.scoring.scoring_for`, and each batch is scored by the same
:meth:`pipeline.runs.scoring.Scoring.score` as a run: the results agree with
``pokerpipe run`` row for row.

pandas is imported only when a DataFrame is given: ``pokerpipe run`` never
imports it.  polars, an optional extra, is imported only when a polars
DataFrame is given; it is scored through Arrow (``to_arrow``, then
``polars.from_arrow``), so it gets the Arrow table's columns and types.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import pyarrow as pa

from pipeline.errors import InputError, UsageError
from pipeline.formats import headers
from pipeline.formats.sources import DEFAULT_BATCH_ROWS
from pipeline.games import deals, registry
from pipeline.runs import runner
from pipeline.runs.columns import conformed
from pipeline.runs.scoring import Scoring, scoring_for
from pipeline.text import shown

if TYPE_CHECKING:
    import pandas as pd
    import polars as pl

#: Rows scored at a time: bounds the parsing arrays of one call, like a run's batches.
BATCH_ROWS = DEFAULT_BATCH_ROWS
#: The label errors give a table in memory, where a run names the file.
LABEL = "table"
REASON = "reason"
EXPECTED = "expected"

#: The kinds of table score takes, as its messages name them.
ACCEPTED = "a pandas DataFrame, a polars DataFrame or a pyarrow Table"
#: What to do with a near miss, by (top-level module, type name).
_HINTS = {
    ("polars", "LazyFrame"): "call .collect() first",
    ("polars", "Series"): "give a DataFrame: series.to_frame()",
    ("pandas", "Series"): "give a DataFrame: series.to_frame()",
    ("pyarrow", "RecordBatch"): "give a Table: pyarrow.Table.from_batches([batch])",
    ("builtins", "dict"): "give a table: pyarrow.table(columns) or pandas.DataFrame(columns)",
}


# What score takes and gives back: the same kind.
@overload
def score(table: pd.DataFrame, *, game: str | None = None, best_five: bool = False) -> pd.DataFrame: ...
@overload
def score(table: pl.DataFrame, *, game: str | None = None, best_five: bool = False) -> pl.DataFrame: ...
@overload
def score(table: pa.Table, *, game: str | None = None, best_five: bool = False) -> pa.Table: ...
def score(table: Any, *, game: str | None = None, best_five: bool = False) -> Any:
    """Score every row of a table of Larvis games or hold'em deals, aligned with the input.

    Parameters
    ----------
    table : pandas.DataFrame, polars.DataFrame or pyarrow.Table, n rows
        Larvis: text columns ``Hand1`` and ``Hand2`` (and ``Winner``, the
        expected outcome, if known).  Hold'em: ``board`` and some of
        ``p1`` .. ``p10`` (and ``winners``, the expected seats, if known); a
        seat missing up to the highest one present is empty.  Text may come
        as object, string or categorical dtype (pyarrow: string,
        large_string or dictionary); other types are read as their text.
        A missing value (None, NaN, pd.NA, null) or a blank text is an
        empty seat.  Other columns are ignored.
    game : {"larvis", "holdem"}, optional
        The game; detected from the column names when None.
    best_five : bool
        Add each hand's best five cards (ranks, for Larvis) and their
        description, as ``pokerpipe run --best-five`` does.

    Returns
    -------
    pandas.DataFrame, polars.DataFrame or pyarrow.Table, n rows
        The kind given.  Row i scores input row i (a DataFrame keeps the
        input's index).  Columns, as in a run's ``winners`` without ``row``:

        - Larvis: ``hand1``, ``hand2`` (text, trimmed),
          ``hand1_category``, ``hand2_category`` (dictionary / categorical),
          ``hand1_key``, ``hand2_key`` (int16), ``winner`` ("Hand 1",
          "Hand 2" or "Tie");
        - hold'em: ``winners`` (the winning seats, ascending, e.g. "2 5"),
          ``winner_count`` (int8), ``winning_category``, ``winning_key``
          (int16), then ``pK_category`` and ``pK_key`` for each of the ten
          seats, whatever seats the input has (null for an empty seat);

        then ``expected`` (text, as given) when the input has the expected
        column, and ``reason`` (text): null where the row was scored,
        otherwise why it was rejected, and every other column of that row
        null.  In a DataFrame the integer columns have pandas' nullable
        dtypes (``Int16``, ``Int8``) and the category columns are
        categoricals ordered weakest first.

    Raises
    ------
    UsageError
        ``table`` is none of the kinds taken (the message names its type and
        the kinds taken), or ``game`` is unknown.
    InputError
        The columns name no game, a column the game needs is missing, a
        column name appears twice or is a near miss of a known one
        (``hand1``, ``P3``), or a column cannot be read as text.

    Examples
    --------
    >>> import pyarrow as pa
    >>> games = pa.table({"Hand1": ["AAAQQ", "88822", "AAAAA"], "Hand2": ["QQAAA", "QQ777", "KKKQQ"]})
    >>> scored = score(games)
    >>> scored.column("winner").to_pylist()
    ['Tie', 'Hand 1', None]
    >>> scored.column("reason").to_pylist()
    [None, None, "Hand1 'AAAAA': 'A' appears 5 times, at most 4"]
    """
    if _is_frame(table, "pandas"):
        return _score_frame(table, game=game, best_five=best_five)
    if _is_frame(table, "polars"):
        return _score_polars(table, game=game, best_five=best_five)
    if isinstance(table, pa.Table):
        return _score_arrow(table, game=game, best_five=best_five)
    module, name = type(table).__module__.partition(".")[0], type(table).__qualname__
    hint = _HINTS.get((module, name))
    raise UsageError(f"score takes {ACCEPTED}, not {'' if module == 'builtins' else module + ' '}{name}"
                     + (f": {hint}" if hint else ""))


def run(inputs: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str], *,
        output_format: str = "csv", game: str | None = None, best_five: bool = False,
        keep: Sequence[str] = (), keep_all: bool = False, batch_rows: int = DEFAULT_BATCH_ROWS,
        threads: int | None = None) -> dict[str, Any]:
    """``pokerpipe run`` from Python: score every input into ``outdir``; return the summary written.

    The options are the command's (``--format``, ``--game``, ``--best-five``,
    ``--keep``, ``--keep-all``, ``--batch-rows``, ``--threads``); the outputs
    and ``summary.json`` are those the command writes, published as one set.
    Raises :class:`pipeline.UsageError` and :class:`pipeline.InputError` where
    the command exits 2 and 1.
    """
    return runner.Run(inputs, outdir, output_format=output_format, game=game, best_five=best_five,
                      keep=keep, keep_all=keep_all, batch_rows=batch_rows, threads=threads).execute()


def _is_frame(table: object, library: str) -> bool:
    """Whether ``table`` is a DataFrame of ``library`` (pandas, polars), subclasses included.

    By module name: isinstance would import the library for every caller,
    and neither is needed unless such a table is given.
    """
    return any(cls.__module__.partition(".")[0] == library and cls.__name__ == "DataFrame"
               for cls in type(table).__mro__)


def _score_polars(frame: pl.DataFrame, *, game: str | None, best_five: bool) -> pl.DataFrame:
    """Score a polars DataFrame through Arrow, which both share: a polars DataFrame comes back."""
    import polars as pl

    try:
        arrow = frame.to_arrow()
    except pl.exceptions.PolarsError as error:  # a column Arrow has no type for
        raise InputError(f"{LABEL}: this polars DataFrame cannot be given to Arrow "
                         f"({shown(str(error), 120, quote=False)})") from None
    result = pl.from_arrow(_score_arrow(arrow, game=game, best_five=best_five))
    assert isinstance(result, pl.DataFrame)  # from_arrow gives a Series only for an Array
    return result


def _score_arrow(table: pa.Table, *, game: str | None, best_five: bool) -> pa.Table:
    names = tuple(table.column_names)
    scoring = _scoring(names, game=game, best_five=best_five,
                       hole_cards=None if game else _hole_cards(names, lambda name: _text(table.column(name),
                                                                                          name)))
    columns = {name: _text(table.column(name), name) for name in scoring.columns if name in names}
    return _aligned(scoring, columns, table.num_rows)


def _score_frame(frame: pd.DataFrame, *, game: str | None, best_five: bool) -> pd.DataFrame:
    import pandas as pd

    # A DataFrame may have non-text labels (0, 1, ...): they are no column a game reads.
    names = tuple(label for label in frame.columns if isinstance(label, str))
    scoring = _scoring(names, game=game, best_five=best_five,  # refuses a name given twice
                       hole_cards=None if game else _hole_cards(
                           names, lambda name: _text(_series_array(frame[name].iloc[:256]), name)))
    columns = {name: _text(_series_array(frame[name]), name) for name in scoring.columns if name in names}
    result = _aligned(scoring, columns, len(frame))
    nullable = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype(),
                pa.int64(): pd.Int64Dtype()}
    out: pd.DataFrame = result.to_pandas(types_mapper=nullable.get)
    out.index = frame.index
    return out


def _hole_cards(names: tuple[str, ...], text: Callable[[str], pa.Array | pa.ChunkedArray]) -> int | None:
    """The cards of the table's first seated hand (Omaha's are not hold'em's two), by ``text`` of a column."""
    seats = deals.seats_of(names)
    if deals.BOARD_COLUMN not in names or not seats or len(set(names)) < len(names):
        return None
    return deals.first_hole_count([text(name) for name in seats])


def _scoring(names: tuple[str, ...], *, game: str | None, best_five: bool,
             hole_cards: int | None = None) -> Scoring:
    if game is not None:
        registry.get(game)  # UsageError naming the known games
    headers.checked_columns(Path(LABEL), names)  # twice, or a near miss: the run's rules for a header
    return scoring_for({LABEL: names}, game=game, best_five=best_five,
                       hole_cards=None if game else {LABEL: hole_cards})


def _series_array(series: pd.Series) -> pa.Array | pa.ChunkedArray:
    """A pandas column as Arrow: None, NaN and pd.NA become nulls.

    Raises
    ------
    InputError
        A column that cannot be text: complex numbers, or text holding a
        lone surrogate (bytes that were not UTF-8, decoded with
        ``surrogateescape``), which Arrow cannot hold.
    """
    try:
        try:
            return pa.array(series, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
            # Mixed objects (text beside numbers, ints beyond int64): each value as its text;
            # pandas keeps the missing ones.
            return pa.array(series.astype("string"), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, UnicodeError) as error:
        raise InputError(f"{LABEL}: column {shown(str(series.name))} cannot be read as text "
                         f"({shown(str(error), 120, quote=False)})") from None


def _text(column: pa.Array | pa.ChunkedArray, name: str) -> pa.Array | pa.ChunkedArray:
    """A column as Arrow strings, nulls kept; dictionary, large and other types cast."""
    if pa.types.is_string(column.type):
        return column
    problem = headers.text_type_problem(column.type)
    if problem:  # a list of cards, a struct: a run says the same of a Parquet column
        raise InputError(f"{LABEL}: column {shown(name)} {problem}")
    try:
        return column.cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as error:
        raise InputError(f"{LABEL}: column {shown(name)} of type {column.type} cannot be read as text "
                         f"({shown(str(error), 120, quote=False)})") from None


def _aligned(scoring: Scoring, columns: dict[str, pa.Array | pa.ChunkedArray], n: int) -> pa.Table:
    """Score ``columns`` in batches and place each result row at its input row."""
    def text(name: str) -> pa.ChunkedArray:
        if name in columns:
            return pa.chunked_array(columns[name]) if isinstance(columns[name], pa.Array) else columns[name]
        return pa.chunked_array([pa.nulls(n, pa.string())])

    full = pa.table([text(name) for name in scoring.columns], names=list(scoring.columns))
    parts = []
    for start in range(0, max(n, 1), BATCH_ROWS):  # one batch at least: an empty table has a schema too
        batch = full.slice(start, BATCH_ROWS).combine_chunks()
        scored = scoring.score(batch)
        # The k-th scored row goes to the k-th ok position; a rejected row takes a null index.
        places = pa.array(np.cumsum(scored.ok) - 1, pa.int64(), mask=~scored.ok)
        part = conformed(scored.results, scoring.game_template).take(places)
        if scoring.expected:
            part = part.append_column(EXPECTED, batch.column(scoring.expected))
        part = part.append_column(REASON, pa.array(scored.reasons, pa.string()))
        parts.append(part)
    return pa.concat_tables(parts)
