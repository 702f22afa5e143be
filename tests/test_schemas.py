"""One schema per output: the columns and types of a run's tables follow the game and the options,
never the inputs, and the libraries users read them with get the types they are.

A hold'em winners table has its ten seats, the expected column and the hand-history columns
whatever the input (a 3-seat Parquet archive, a 6-seat CSV, a contest file, PHH, PokerStars);
a Parquet file's row groups are the run's batches; pandas, polars and DuckDB read keys as
(nullable) integers and the categories in rank order.
"""

from __future__ import annotations

import duckdb
import pandas as pd
import polars
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from pipeline.games import deals, holdem, larvis
from pipeline.runs.equity import EquityRun
from pipeline.runs.generate import generate
from pipeline.runs.runner import Run

from .conftest import RAW

HOLDEM_INPUTS = {
    "csv, 6 seats": lambda tmp: RAW / "deals.csv",
    "parquet, 3 seats": lambda tmp: generated(tmp / "three.parquet", players=3),
    "contest": lambda tmp: RAW / "contest.in",
    "phh": lambda tmp: RAW / "phh" / "pluribus-31.phhs",
    "pokerstars": lambda tmp: RAW / "pokerstars",
}


def generated(path, *, players: int, rows: int = 300):
    generate(path, game="holdem", rows=rows, players=players, seed=players)
    return path


def winners_of(tmp_path, name: str, inputs, fmt: str, **options) -> pa.Table:
    out = tmp_path / name
    Run(inputs if isinstance(inputs, list) else [inputs], out, output_format=fmt, threads=1,
        **options).execute()
    path = out / f"winners.{fmt}"
    return pq.read_table(path) if fmt == "parquet" else pacsv.read_csv(path)


#: The columns a hand history's winners add to hold'em's: the game of each row, and those of the
#: other games it may hold (hi-lo's halves and lows), empty where a game has none.
HISTORY_ONLY = ("game", "winners_high", "winners_low", *(f"{seat}_low_key" for seat in deals.SEATS))


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_holdem_winners_have_one_schema_whatever_the_input(tmp_path, fmt):
    tables = {label: winners_of(tmp_path, label.replace(" ", "").replace(",", ""), make(tmp_path), fmt)
              for label, make in HOLDEM_INPUTS.items()}
    names = {label: table.column_names for label, table in tables.items()}
    first = names["csv, 6 seats"]
    histories = [label for label in names if label in ("phh", "pokerstars")]
    assert all(listed == first for label, listed in names.items() if label not in histories), names
    # Hand histories: hold'em's columns in hold'em's order, and theirs beside them.
    assert all([name for name in names[label] if name not in HISTORY_ONLY] == first for label in histories)
    assert all(set(names[label]) - set(first) == set(HISTORY_ONLY) for label in histories)
    assert all(table.column("game").to_pylist() == ["holdem"] * table.num_rows
               for label, table in tables.items() if label in histories)
    for seat in deals.SEATS:
        assert f"{seat}_category" in first and f"{seat}_key" in first
    players = {f"{seat}_player" for seat in deals.SEATS}
    assert {"expected", "hand_key", "file", "hand", *players} <= set(first)
    if fmt == "parquet":  # CSV has no types: the docs give the dtypes to read it with
        schemas = {label: table.schema.remove_metadata() for label, table in tables.items()}
        kept = [field for field in schemas["phh"] if field.name not in HISTORY_ONLY]
        assert all(schema == schemas["csv, 6 seats"]
                   for label, schema in schemas.items() if label not in histories)
        assert pa.schema(kept) == schemas["csv, 6 seats"] and schemas["pokerstars"] == schemas["phh"]
    three = tables["parquet, 3 seats"]
    assert three.column("p4_key").null_count == three.num_rows > 0


def test_larvis_winners_have_one_schema_with_or_without_expected_winners(tmp_path):
    given = winners_of(tmp_path, "with", RAW / "games.csv", "parquet")
    bare = tmp_path / "bare.csv"
    bare.write_text("\n".join(line.rsplit(",", 1)[0] for line in
                              (RAW / "games.csv").read_text().splitlines()) + "\n")
    without = winners_of(tmp_path, "without", bare, "parquet")
    assert given.schema.remove_metadata() == without.schema.remove_metadata()
    assert without.column("expected").null_count == without.num_rows
    assert given.column("expected").null_count == 0


def test_best_five_adds_its_columns_for_every_seat(tmp_path):
    table = winners_of(tmp_path, "best", generated(tmp_path / "two.parquet", players=2), "parquet",
                       best_five=True)
    assert [f"{seat}_best" in table.column_names for seat in deals.SEATS] == [True] * 10


def test_equity_tables_have_one_schema_whatever_the_seats(tmp_path):
    two = tmp_path / "two.csv"
    two.write_text("board,p1,p2\nAh Kd 2c,As Ad,Kc Ks\n")
    four = tmp_path / "four.csv"
    four.write_text("board,p1,p2,p3,p4\nAh Kd 2c 3c,As Ad,Kc Ks,Qh Qd,Jh Jd\n")
    schemas = []
    for path in (two, four):
        out = tmp_path / path.stem
        EquityRun([path], out, output_format="parquet").execute()
        schemas.append(pq.read_schema(out / "equity.parquet").remove_metadata())
    assert schemas[0] == schemas[1]
    assert [f"{seat}_equity" in schemas[0].names for seat in deals.SEATS] == [True] * 10


@pytest.mark.parametrize("batch_rows", [7, 40])
def test_parquet_row_groups_are_the_batches(tmp_path, batch_rows):
    # A folder of PHH files hands the writer a few rows per file; CSV rows come a batch at a time.
    for label, inputs in {"phh": RAW / "phh", "csv": RAW / "deals.csv"}.items():
        out = tmp_path / f"{label}{batch_rows}"
        Run([inputs], out, output_format="parquet", batch_rows=batch_rows).execute()
        metadata = pq.read_metadata(out / "winners.parquet")
        sizes = [metadata.row_group(index).num_rows for index in range(metadata.num_row_groups)]
        assert sum(sizes) == metadata.num_rows > batch_rows
        assert sizes[:-1] == [batch_rows] * (len(sizes) - 1) and 0 < sizes[-1] <= batch_rows, (label, sizes)


def test_pandas_reads_nullable_integers_and_ordered_categories(tmp_path):
    out = tmp_path / "out"
    Run([generated(tmp_path / "three.parquet", players=3)], out, output_format="parquet").execute()
    frame = pd.read_parquet(out / "winners.parquet")
    assert frame["p1_key"].dtype == pd.Int16Dtype() and frame["p4_key"].dtype == pd.Int16Dtype()
    assert frame["p4_key"].isna().all() and frame["row"].dtype == pd.Int64Dtype()
    assert frame["winner_count"].dtype == pd.Int8Dtype()
    for name in ("winning_category", "p1_category", "p9_category"):
        dtype = frame[name].dtype
        assert isinstance(dtype, pd.CategoricalDtype) and dtype.ordered, name
        assert list(dtype.categories) == list(holdem.GAME.categories), name
    # Ordered: a higher key never has a lower category, so sorting by category follows the ranking.
    by_key = frame.sort_values("winning_key")
    assert by_key["winning_category"].cat.codes.is_monotonic_increasing
    assert (frame["winning_category"].max() == frame.loc[frame["winning_key"].idxmax(), "winning_category"])


def test_larvis_categories_are_ordered_but_its_outcome_is_not(tmp_path):
    out = tmp_path / "out"
    Run([RAW / "games.csv"], out, output_format="parquet").execute()
    frame = pd.read_parquet(out / "winners.parquet")
    assert frame["hand1_category"].dtype.ordered
    assert list(frame["hand1_category"].dtype.categories) == list(larvis.GAME.categories)
    assert not frame["winner"].dtype.ordered


def test_polars_and_duckdb_read_the_types(tmp_path):
    out = tmp_path / "out"
    Run([generated(tmp_path / "three.parquet", players=3)], out, output_format="parquet").execute()
    path = out / "winners.parquet"
    frame = polars.read_parquet(path)
    assert frame.schema["p1_key"] == polars.Int16 and frame.schema["row"] == polars.Int64
    assert frame["p4_key"].null_count() == frame.height
    described = duckdb.sql(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
    found = {row[0]: row[1] for row in described}
    assert found["p1_key"] == "SMALLINT" and found["row"] == "BIGINT" and found["winner_count"] == "TINYINT"
    missing = duckdb.sql(f"SELECT count(*) FROM read_parquet('{path}') WHERE p4_key IS NULL").fetchall()[0]
    assert missing == (frame.height,)


def test_empty_columns_keep_their_own_dictionaries():
    from pipeline.runs.columns import conformed

    kind = pa.dictionary(pa.int8(), pa.string())
    template = pa.table({
        "a": pa.DictionaryArray.from_arrays(pa.array([], pa.int8()), pa.array(["x", "y"])),
        "b": pa.DictionaryArray.from_arrays(pa.array([], pa.int8()), pa.array(["p", "q", "r"])),
        "c": pa.DictionaryArray.from_arrays(pa.array([], pa.int8()), pa.array(["x", "y"])),
        "n": pa.array([], pa.int64())})
    got = conformed(pa.table({"n": [1, 2]}), template)
    assert [got.column(name).type for name in "abc"] == [kind] * 3
    dictionaries = [got.column(name).chunk(0).dictionary.to_pylist() for name in "abc"]
    assert dictionaries == [["x", "y"], ["p", "q", "r"], ["x", "y"]]
    assert got.column("a").null_count == got.column("b").null_count == 2
