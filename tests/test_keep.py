"""`--keep COLUMN` and `--keep-all`: the user's own columns of deal archives carried into the results
row for row, CSV columns as text, Parquet columns in their Arrow type, on `run` and `equity`."""

from __future__ import annotations

import datetime
import decimal
import json

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from pipeline.cli import cli
from pipeline.runs.generate import generate

from .conftest import RAW

#: A Parquet column of each kind of Arrow type a user's table may hold, three values each.
TYPED = {
    "id64": pa.array([7, None, 2**40], pa.int64()),
    "id32": pa.array([1, 2, None], pa.int32()),
    "stake": pa.array([0.5, None, 2.25], pa.float64()),
    "cash": pa.array([True, False, None], pa.bool_()),
    "played": pa.array([datetime.datetime(2020, 4, 1, 12, tzinfo=datetime.UTC), None,
                        datetime.datetime(2021, 1, 2, tzinfo=datetime.UTC)], pa.timestamp("us", tz="UTC")),
    "day": pa.array([datetime.date(2020, 4, 1), None, datetime.date(1999, 12, 31)], pa.date32()),
    "pot": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("100.00")], pa.decimal128(10, 2)),
    "site": pa.array(["Stars", None, "GG"]).dictionary_encode(),
    "note": pa.array(["a, \"quoted\" note", None, "é"], pa.large_string()),
    "raw": pa.array([b"\x00\x01", None, b"x"], pa.binary()),
    "tags": pa.array([["a", "b"], None, []], pa.list_(pa.string())),
    "meta": pa.array([{"k": 1}, None, {"k": 3}], pa.struct([("k", pa.int64())])),
}
#: The types a CSV file cannot hold.
NESTED = ("tags", "meta")
DEALS = {"board": ["Ah Kd 2c 3s 9h", "Ah Kd 2c 3s 9h", "2c 3c 4c 5c 7d"],
         "p1": ["As Ad", "Ah 5d", "Ac Ad"], "p2": ["Kc Ks", "Kc Ks", "Kh Kd"]}  # row 2 deals Ah twice


@pytest.fixture
def typed_archive(tmp_path):
    path = tmp_path / "typed.parquet"
    pq.write_table(pa.table({**DEALS, **TYPED}), path)
    return path


def invoke(runner, *args):
    return runner.invoke(cli, [str(arg) for arg in args])


def test_parquet_columns_keep_their_arrow_type_row_for_row(runner, tmp_path, typed_archive):
    out = tmp_path / "out"
    result = invoke(runner, "run", typed_archive, "-o", out, "--format", "parquet", "--keep-all", "-q")
    assert result.exit_code == 0, result.output
    winners = pq.read_table(out / "winners.parquet")
    assert winners.column_names[-len(TYPED):] == list(TYPED)
    assert winners.column("row").to_pylist() == [1, 3]  # row 2 is rejected: its values go with it
    for name, values in TYPED.items():
        assert winners.schema.field(name).type == values.type, name
        assert winners.column(name).to_pylist() == values.take([0, 2]).to_pylist(), name


def test_csv_output_writes_the_text_of_each_type_and_refuses_nested_ones(runner, tmp_path, typed_archive):
    out = tmp_path / "out"
    for name in NESTED:
        refused = invoke(runner, "run", typed_archive, "-o", out, "--keep", name)
        assert refused.exit_code == 2 and "--format parquet" in refused.output and name in refused.output
        assert not out.exists()
    flat = [name for name in TYPED if name not in NESTED]
    result = invoke(runner, "run", typed_archive, "-o", out, *(f"--keep={name}" for name in flat), "-q")
    assert result.exit_code == 0, result.output
    read = pacsv.read_csv(out / "winners.csv", convert_options=pacsv.ConvertOptions(
        column_types=dict.fromkeys(flat, pa.string()), strings_can_be_null=True))
    for name in flat:  # each value as pyarrow writes its text, the first row's (the missing one is row 2)
        assert read.column(name)[0].as_py() == TYPED[name].cast(pa.string())[0].as_py(), name


def test_csv_columns_are_text_and_an_input_without_them_leaves_them_empty(runner, tmp_path):
    deals = tmp_path / "deals.csv"
    deals.write_text("hand_id,board,p1,p2,note\n"
                     "007,Ah Kd 2c 3s 9h,As Ad,Kc Ks,first\n"
                     "x1,2c 3c 4c 5c 7d,Ac Ad,Kh Kd,\n")
    out = tmp_path / "out"
    result = invoke(runner, "run", deals, RAW / "contest.in", "-o", out, "--format", "parquet",
                    "--keep", "hand_id", "--keep", "note", "-q")
    assert result.exit_code == 0, result.output
    winners = pq.read_table(out / "winners.parquet")
    assert winners.schema.field("hand_id").type == pa.string()
    contest_rows = winners.num_rows - 2
    assert contest_rows > 0
    assert winners.column("hand_id").to_pylist() == ["007", "x1"] + [None] * contest_rows
    assert winners.column("note").to_pylist() == ["first", ""] + [None] * contest_rows


def test_keep_all_carries_every_column_no_game_reads_in_the_order_first_named(runner, tmp_path):
    one = tmp_path / "one.csv"
    one.write_text("site,board,p1,p2,hand_id\nS,Ah Kd 2c 3s 9h,As Ad,Kc Ks,1\n")
    two = tmp_path / "two.csv"
    two.write_text("board,p1,room,site\n2c 3c 4c 5c 7d,Ac Ad,T9,G\n")
    out = tmp_path / "out"
    result = invoke(runner, "run", one, two, "-o", out, "--keep-all", "-q")
    assert result.exit_code == 0, result.output
    header = (out / "winners.csv").read_text().splitlines()[0].split(",")
    assert header[-3:] == ["site", "hand_id", "room"]
    rows = pacsv.read_csv(out / "winners.csv", convert_options=pacsv.ConvertOptions(
        column_types=dict.fromkeys(["site", "hand_id", "room"], pa.string()))).to_pylist()
    assert [(row["site"], row["hand_id"], row["room"]) for row in rows] == [("S", "1", ""), ("G", "", "T9")]


@pytest.mark.parametrize("column", ["row", "winners", "p1_key", "expected", "file", "p1_player", "hand_key"])
def test_a_name_the_results_have_is_a_usage_error_before_anything_is_written(runner, tmp_path, column):
    deals = tmp_path / "deals.csv"
    deals.write_text(f"board,p1,{column}\nAh Kd 2c 3s 9h,As Ad,v\n")
    out = tmp_path / "out"
    asked = "--keep-all" if column != "winners" else "--keep=winners"
    result = invoke(runner, "run", deals, "-o", out, asked)
    assert result.exit_code == 2, result.output
    assert repr(column) in result.output and result.output.count("\n") == 1
    assert not out.exists()


def test_names_no_input_has_or_that_a_game_reads_are_refused(runner, tmp_path):
    out = tmp_path / "out"
    for name, said in (("nope", "no CSV or Parquet input has"), ("board", "a column the game reads")):
        result = invoke(runner, "run", RAW / "deals.csv", "-o", out, "--keep", name)
        assert result.exit_code == 2 and said in result.output, result.output
    result = invoke(runner, "run", RAW / "phh", "-o", out, "--keep", "venue")  # hand histories have none
    assert result.exit_code == 2 and "no CSV or Parquet input has" in result.output
    assert not out.exists()


def test_one_column_in_two_types_widens_or_is_refused(runner, tmp_path):
    first = {name: values[:1] for name, values in DEALS.items()}
    small = tmp_path / "small.parquet"
    pq.write_table(pa.table({**first, "id": pa.array([1], pa.int32())}), small)
    large = tmp_path / "large.parquet"
    pq.write_table(pa.table({**first, "id": pa.array([2**40], pa.int64())}), large)
    out = tmp_path / "out"
    result = invoke(runner, "run", small, large, "-o", out, "--format", "parquet", "--keep", "id", "-q")
    assert result.exit_code == 0, result.output
    winners = pq.read_table(out / "winners.parquet")
    assert winners.schema.field("id").type == pa.int64() and winners.column("id").to_pylist() == [1, 2**40]
    text = tmp_path / "text.csv"
    text.write_text("board,p1,p2,id\nAh Kd 2c 3s 9h,As Ad,Kc Ks,x\n")
    result = invoke(runner, "run", small, text, "-o", tmp_path / "mixed", "--keep", "id")
    assert result.exit_code == 1 and "int32" in result.output and "string" in result.output
    assert not (tmp_path / "mixed").exists()


def test_equity_keeps_columns_too(runner, tmp_path):
    spots = tmp_path / "spots.csv"
    spots.write_text("spot,board,p1,p2\nA,Ah Kd 2c,As Ad,Kc Ks\n"
                     "B,Ah Kd 2c 3s,As Ah,Kc Ks\nC,Ah Kd 2c 3s,Qs Qd,Kc Ks\n")  # B deals Ah twice
    out = tmp_path / "out"
    result = invoke(runner, "equity", spots, "-o", out, "--keep", "spot", "--format", "parquet", "-q")
    assert result.exit_code == 0, result.output
    table = pq.read_table(out / "equity.parquet")
    assert table.column("row").to_pylist() == [1, 3] and table.column("spot").to_pylist() == ["A", "C"]
    assert json.loads((out / "summary.json").read_text())["rows_rejected"] == 1
    refused = invoke(runner, "equity", spots, "-o", tmp_path / "x", "--keep-all", "--keep", "exact")
    assert refused.exit_code == 2


def test_generated_archives_keep_nothing_unasked(runner, tmp_path):
    archive = tmp_path / "deals.parquet"
    generate(archive, game="holdem", rows=50, players=3, seed=1)
    out = tmp_path / "out"
    assert invoke(runner, "run", archive, "-o", out, "--format", "parquet", "--keep-all", "-q").exit_code == 0
    plain = tmp_path / "plain"
    assert invoke(runner, "run", archive, "-o", plain, "--format", "parquet", "-q").exit_code == 0
    assert pq.read_schema(out / "winners.parquet").names == pq.read_schema(plain / "winners.parquet").names


def test_hand_histories_beside_a_deal_archive_leave_kept_columns_empty(runner, tmp_path):
    deals = tmp_path / "deals.csv"
    deals.write_text("site,board,p1,p2\nS,Ah Kd 2c 3s 9h,As Ad,Kc Ks\n")
    out = tmp_path / "out"
    inputs = [deals, RAW / "phh" / "dwan-ivey-2009.phh", RAW / "pokerstars"]
    for option in (["--keep", "site"], ["--keep-all"]):
        result = invoke(runner, "run", *inputs, "-o", out, "--format", "parquet", *option, "-q")
        assert result.exit_code == 0, result.output
        winners = pq.read_table(out / "winners.parquet")
        assert winners.column("site").to_pylist() == ["S"] + [None] * (winners.num_rows - 1)
        assert winners.num_rows > 2
