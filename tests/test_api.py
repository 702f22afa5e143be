"""The library face: pipeline.score on DataFrames and Arrow tables, aligned with the input.

Winners are checked against the rules reference (tests/rules.py) and the
spec's table (games.csv's Winner column), and every column against the
winners and rejects of ``pokerpipe run`` on the same rows.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import pipeline
from pipeline import InputError, UsageError, score
from pipeline.runs.runner import Run

from .conftest import RAW
from .rules import best_value

#: Seconds a probe interpreter may take to start and import pipeline.
PROBE_TIMEOUT = 120
GAMES_COLUMNS = ["hand1", "hand2", "hand1_category", "hand1_key", "hand2_category", "hand2_key", "winner"]


def read_text(path) -> pa.Table:
    """A CSV file with every column as text, as a notebook would load it."""
    names = pacsv.read_csv(path).column_names
    return pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types={name: pa.string() for name in names}, strings_can_be_null=True))


def reference_winners(board: str, seats: list[str | None]) -> str:
    """The winning seats of a deal by the plain rules, ascending, as text."""
    values = {seat: best_value(board.split() + hole.split())
              for seat, hole in enumerate(seats, start=1) if hole}
    best = max(values.values())
    return " ".join(str(seat) for seat, value in values.items() if value == best)


def run_outputs(tmp_path, path) -> tuple[pa.Table, pa.Table]:
    """The winners (Parquet, so types compare) and rejects of `pokerpipe run` on one file."""
    out = tmp_path / "out"
    Run([path], out, output_format="parquet", threads=1).execute()
    return pq.read_table(out / "winners.parquet"), pacsv.read_csv(out / "rejects.csv")


# --- pipeline's public names -------------------------------------------------------------------

def test_all_names_resolve():
    for name in pipeline.__all__:
        assert getattr(pipeline, name) is not None, name
    assert pipeline.compare("AAAQQ", "QQAAA") == "Tie"
    assert pipeline.compare("88822", "QQ777") == "Hand 1"
    assert pipeline.larvis_hand_keys([[4, 3, 2, 1, 0]]).tolist() == [1]
    assert {"score", "compare", "larvis_hand_keys", "holdem_hand_keys", "deal_keys"} <= set(pipeline.__all__)
    # One list: every lazily imported name is public.
    assert set(pipeline._LAZY) <= set(pipeline.__all__)


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        pipeline.nothing  # noqa: B018


def test_import_pipeline_is_cheap():
    probe = ("import sys, pipeline; "
             "print(*(m for m in ('pandas', 'pyarrow', 'numpy', 'polars') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          timeout=PROBE_TIMEOUT)
    assert done.stdout.strip() == ""


# --- Larvis ------------------------------------------------------------------------------------

def test_larvis_frame_keeps_index_and_rows(spec_games):
    frame = pd.DataFrame(spec_games)
    frame.index = pd.Index([f"game{i}" for i in range(len(frame))][::-1], name="id")
    got = score(frame)
    assert isinstance(got, pd.DataFrame)
    assert got.index.equals(frame.index)
    assert list(got.columns) == [*GAMES_COLUMNS, "expected", "reason"]
    # The spec's table is the reference: every game scored and decided as the spec says.
    assert got["reason"].isna().all()
    assert got["winner"].astype(str).tolist() == frame["Winner"].str.strip().tolist()
    assert got["expected"].tolist() == frame["Winner"].tolist()
    assert str(got["hand1_key"].dtype) == "Int16" and isinstance(got["winner"].dtype, pd.CategoricalDtype)


def test_larvis_rejected_rows_stay_in_place():
    frame = pd.DataFrame({"Hand1": ["AAAQQ", "AAAAA", None, "KKQQ2", "23456"],
                          "Hand2": ["QQAAA", "KKKQQ", "KKKQQ", "KKQQ3", np.nan]},
                         index=[50, 40, 30, 20, 10])
    got = score(frame)
    assert got.index.tolist() == [50, 40, 30, 20, 10]
    assert got["reason"].isna().tolist() == [True, False, False, True, False]
    reasons = got["reason"].tolist()
    assert pd.isna(reasons[0]) and pd.isna(reasons[3])
    assert reasons[1] == "Hand1 'AAAAA': 'A' appears 5 times, at most 4"
    assert reasons[2] == "Hand1 is empty"
    assert reasons[4] == "Hand2 is empty"
    assert got["winner"].astype(object).where(got["winner"].notna(), None).tolist() == \
        ["Tie", None, None, "Hand 2", None]
    assert got.loc[[40, 30, 10], GAMES_COLUMNS].isna().all().all()
    assert "expected" not in got


def test_larvis_arrow_in_arrow_out(tmp_path):
    table = read_text(RAW / "games.csv")
    got = score(table)
    assert isinstance(got, pa.Table) and got.num_rows == table.num_rows
    winners, rejects = run_outputs(tmp_path, RAW / "games.csv")
    assert rejects.num_rows == 0
    assert got.select(GAMES_COLUMNS).equals(winners.select(GAMES_COLUMNS))
    assert got.column("expected").to_pylist() == winners.column("expected").to_pylist()
    assert got.column("reason").null_count == got.num_rows


# --- hold'em -----------------------------------------------------------------------------------

def test_deals_agree_with_rules_and_run(tmp_path):
    table = read_text(RAW / "deals.csv")
    got = score(table)
    winners, rejects = run_outputs(tmp_path, RAW / "deals.csv")
    assert rejects.num_rows == 0 and got.num_rows == table.num_rows == winners.num_rows
    scored = got.drop_columns(["reason"])
    assert scored.equals(winners.select(scored.column_names))
    # The run's other columns are those an archive without expected winners or hand histories
    # leaves empty.
    others = set(winners.column_names) - set(scored.column_names) - {"row"}
    assert others and all(winners.column(name).null_count == winners.num_rows for name in others)
    seats = [name for name in table.column_names if name.startswith("p")]
    boards, holes = table.column("board").to_pylist(), [table.column(s).to_pylist() for s in seats]
    sample = range(0, table.num_rows, 7)  # every 7th deal: the plain rules are slow
    assert [str(got.column("winners")[i]) for i in sample] == \
        [reference_winners(boards[i], [h[i] for h in holes]) for i in sample]


def test_run_and_score_agree_on_rejected_rows(tmp_path):
    rows = ["board,p1,p2,p3,winners",
            "Ah Kh Qh Jh Th,2c 3c,,4d 5d,1 3",   # seat 2 empty
            "Ah Kh Qh Jh Th,Ah 3c,2d 2s,,1",     # Ah dealt twice
            "Ah Kh Qh Jh,2c 3c,2d 2s,,",         # a short board
            "2s 3s 4s 5s 9d,As Ad,Kc Kd,Qh Qd,1"]
    path = tmp_path / "deals.csv"
    path.write_text("\n".join(rows) + "\n")
    got = score(read_text(path))
    winners, rejects = run_outputs(tmp_path, path)
    ok = got.column("reason").is_null().to_numpy(zero_copy_only=False)
    assert ok.tolist() == [True, False, False, True]
    kept = got.filter(pa.array(ok)).drop_columns(["reason"])
    assert kept.equals(winners.select(kept.column_names))
    assert got.column("reason").filter(pa.array(~ok)).to_pylist() == rejects.column("reason").to_pylist()
    assert got.column("expected").to_pylist() == ["1 3", "1", None, "1"]
    # Row 1: the board is a royal flush, so both seats split; row 4: the straight flush of p1.
    assert got.column("winners").to_pylist() == [
        reference_winners("Ah Kh Qh Jh Th", ["2c 3c", None, "4d 5d"]), None, None,
        reference_winners("2s 3s 4s 5s 9d", ["As Ad", "Kc Kd", "Qh Qd"])]


def test_frame_dtypes_and_missing_seats():
    boards = ["Ah Kh Qh Jh Th", "2c 3d 4h 5s 9c", "2c 3d 4h 5s 9c", "2c 3d 4h 5s 9c"]
    p1 = ["2c 3c", "Ac Ad", "Ac Ad", "Ac Ad"]
    p2 = [None, "Kc Kd", np.nan, "Kc Kd"]
    p3 = ["4d 5d", pd.NA, "Qc Qd", "  "]
    expect = [["1", "3"], ["1", "2"], ["1", "3"], ["1", "2"]]
    variants = {
        "object": pd.DataFrame({"board": boards, "p1": p1, "p2": p2, "p3": p3}, dtype=object),
        "string": pd.DataFrame({"board": boards, "p1": p1, "p2": p2, "p3": p3}, dtype="string"),
        "category": pd.DataFrame({"board": boards, "p1": p1, "p2": p2, "p3": p3}).astype("category"),
        "arrow": pd.DataFrame({"board": boards, "p1": p1, "p2": p2, "p3": p3},
                              dtype=pd.ArrowDtype(pa.string())),
    }
    results = {}
    for kind, frame in variants.items():
        frame.index = pd.RangeIndex(100, 104)
        got = score(frame)
        assert got.index.tolist() == [100, 101, 102, 103], kind
        assert got["reason"].isna().all(), kind
        seated = [[s for s in ("1", "2", "3") if pd.notna(got.loc[i, f"p{s}_key"])] for i in got.index]
        assert seated == expect, kind
        assert str(got["p2_key"].dtype) == "Int16", kind
        results[kind] = got
    for kind, got in results.items():
        pd.testing.assert_frame_equal(got, results["object"], obj=kind)
    # A royal flush on the board: both seated players split the pot.
    assert results["object"]["winners"].astype(str).tolist()[0] == "1 3"


def test_arrow_types_are_read_as_text():
    boards = pa.array(["Ah Kh Qh Jh Th", "2c 3d 4h 5s 9c"])
    p1 = pa.array(["2c 3c", "Ac Ad"])
    p2 = pa.array([None, "Kc Kd"])
    plain = score(pa.table({"board": boards, "p1": p1, "p2": p2}))
    for kind, change in {"large_string": lambda a: a.cast(pa.large_string()),
                         "dictionary": lambda a: a.dictionary_encode(),
                         "chunked": lambda a: pa.chunked_array([a.slice(0, 1), a.slice(1)])}.items():
        got = score(pa.table({"board": change(boards), "p1": change(p1), "p2": change(p2)}))
        assert got.equals(plain), kind
    nulls = score(pa.table({"board": boards, "p1": p1, "p2": pa.nulls(2)}))  # an all-null column
    assert nulls.column("p2_key").null_count == 2 and nulls.column("reason").null_count == 2


def test_numbers_in_a_text_column_are_rejected_not_fatal():
    frame = pd.DataFrame({"Hand1": ["AAAQQ", 12345], "Hand2": ["QQAAA", "KKKQQ"]}, dtype=object)
    got = score(frame)
    assert pd.isna(got["reason"].iloc[0])
    assert got["reason"].iloc[1] == "Hand1 '12345': unknown symbol '1', expected one of 23456789TJQKA " \
                                    "(or X for ten)"


def test_best_five_adds_the_runs_columns(tmp_path):
    table = read_text(RAW / "deals.csv").slice(0, 50)
    path = tmp_path / "deals.parquet"
    pq.write_table(table, path)
    out = tmp_path / "out"
    Run([path], out, output_format="parquet", best_five=True, threads=1).execute()
    winners = pq.read_table(out / "winners.parquet")
    scored = score(table, best_five=True).drop_columns(["reason"])
    assert scored.equals(winners.select(scored.column_names))


def test_empty_tables_keep_their_columns():
    got = score(pd.DataFrame({"Hand1": pd.Series([], dtype=object), "Hand2": pd.Series([], dtype=object)}))
    assert len(got) == 0 and list(got.columns) == [*GAMES_COLUMNS, "reason"]
    arrow = score(pa.table({"board": pa.array([], pa.string()), "p2": pa.array([], pa.string())}))
    assert arrow.num_rows == 0 and arrow.column_names[-3:] == ["p10_category", "p10_key", "reason"]


def test_game_forced():
    table = pa.table({"board": ["Ah Kh Qh Jh Th"], "p1": ["2c 3c"], "Hand1": ["AAAQQ"], "Hand2": ["KKKQQ"]})
    assert score(table).column_names[0] == "hand1"  # Hand1 and Hand2 name a games table first
    assert score(table, game="holdem").column_names[0] == "winners"


# --- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("table", "game", "error", "message"), [
    (pa.table({"Hand1": ["AAAQQ"]}), None, InputError, "cannot tell the game from the columns Hand1"),
    (pa.table({"Hand1": ["AAAQQ"]}), "larvis", InputError, "table: missing column Hand2"),
    (pa.table({"board": ["Ah Kh Qh Jh Th"]}), None, InputError, "needs a board column and player columns"),
    (pa.table({"board": ["Ah Kh Qh Jh Th"], "P1": ["2c 3c"]}), None, InputError, "looks like 'p1'"),
    (pa.table({"board": ["Ah Kh Qh Jh Th"], "p11": ["2c 3c"]}), None, InputError, "seats are p1 to p10"),
    (pa.table([["AAAQQ"], ["KKKQQ"], ["AAKKQ"]], names=["Hand1", "Hand2", "Hand2"]), None, InputError,
     "column 'Hand2' appears twice"),
    (pa.table({"Hand1": ["AAAQQ"], "Hand2": ["KKKQQ"]}), "poker", UsageError, "unknown game 'poker'"),
    ([["AAAQQ", "KKKQQ"]], None, UsageError,
     "takes a pandas DataFrame, a polars DataFrame or a pyarrow Table, not list$"),
    (pa.table({"Hand1": ["AAAQQ"], "Hand2": ["KKKQQ"]}).to_batches()[0], None, UsageError,
     "not pyarrow RecordBatch: give a Table: pyarrow.Table.from_batches"),
    (pd.Series(["AAAQQ"]), None, UsageError, "not pandas Series: give a DataFrame: series.to_frame()"),
    # Each of these stopped with an exception of numpy, pyarrow or Python itself.
    (pa.table({"Hand1": ["AAAQQ"], "Hand2": ["KKKQQ"]}), ["larvis"], UsageError,
     r"unknown game \['larvis'\]"),
    (pd.DataFrame({"Hand1": pd.Series(["AAKK\udcff"], dtype=object), "Hand2": ["KKKQQ"]}), None, InputError,
     "column 'Hand1' cannot be read as text"),
    (pd.DataFrame({"Hand1": np.array([1 + 2j]), "Hand2": ["KKKQQ"]}), None, InputError,
     "column 'Hand1' cannot be read as text"),
])
def test_errors(table, game, error, message):
    with pytest.raises(error, match=message):
        score(table, game=game)


def test_an_int_beyond_int64_in_a_text_column_is_a_bad_row():
    frame = pd.DataFrame({"Hand1": pd.Series([10**30, "AAAQQ"], dtype=object), "Hand2": ["KKKQQ"] * 2})
    scored = score(frame)
    assert scored["winner"].tolist()[1] == "Hand 1" and f"Hand1 '{10**30}'" in scored["reason"].tolist()[0]


@pytest.mark.parametrize("call, message", [
    (lambda: pipeline.compare(12345, "KKKQQ"), "hand1 is int, not text"),
    (lambda: pipeline.compare("AAAQQ", b"KKKQQ"), "hand2 is bytes, not text"),
])
def test_compare_refuses_what_is_not_text(call, message):
    with pytest.raises(InputError, match=message):
        call()


@pytest.mark.parametrize("function, keys, message", [
    ("holdem_key_categories", [7463], r"keys must lie in 0\.\.7462, found 7463"),
    ("holdem_key_categories", [-1], "found -1"),
    ("holdem_key_categories", [1.0], "keys must be integers, got dtype float64"),
    ("larvis_key_categories", [6176], r"keys must lie in 0\.\.6175, found 6176"),
    ("larvis_key_categories", [-1], "found -1"),
])
def test_key_categories_refuse_what_is_no_key(function, keys, message):
    # -1 read the table from its end (a straight flush) and 7463 ran past it.
    with pytest.raises(ValueError, match=message):
        getattr(pipeline, function)(np.array(keys))
    assert getattr(pipeline, function)(np.array([0, 1])).tolist() == [-1, 0]  # 0: no hand


BOARD = [[0, 5, 10, 15, 20]]
HOLES = [[[30, 35], [40, 45]]]


@pytest.mark.parametrize("board, holes, message", [
    ([[300, 5, 10, 15, 20]], HOLES, "board card codes must lie in 0..51, found 300"),  # was cast to 44
    (BOARD, [[[30, 35], [40, 52]]], "hole card codes must lie in 0..51, found 52"),
    (BOARD, [[[30.0, 35.0], [40.0, 45.0]]], "hole card codes must be integers"),
    (BOARD * 2, HOLES, r"hole card codes must have shape \(2, seats, 2\)"),  # was broadcast
    ([0, 5, 10, 15, 20], HOLES, r"board card codes must have shape \(n, 5\)"),  # five deals of a card
    ([[0, 5, 10, 15, 20, 25]], HOLES, r"shape \(n, 5\)"),
    (BOARD, [[[30, 35, 36]]], r"shape \(1, seats, 2\)"),
])
def test_deal_keys_refuses_what_is_no_deal(board, holes, message):
    with pytest.raises(ValueError, match=message):
        pipeline.deal_keys(np.array(board), np.array(holes))


def test_duplicate_frame_columns():
    frame = pd.DataFrame([["AAAQQ", "KKKQQ", "AAKKQ"]], columns=["Hand1", "Hand2", "Hand2"])
    with pytest.raises(InputError, match="column 'Hand2' appears twice"):
        score(frame)


def test_unreadable_column_type():
    table = pa.table({"Hand1": pa.array([[1, 2]]), "Hand2": ["KKKQQ"]})
    with pytest.raises(InputError, match=r"column 'Hand1' is a list \(list<item: int64>\): expected text"):
        score(table)


# --- polars ------------------------------------------------------------------------------------

def test_polars_in_polars_out_row_for_row(spec_games):
    pl = pytest.importorskip("polars")
    rows = spec_games + [{"Hand1": "AAAAA", "Hand2": "KKKQQ", "Winner": "Hand 1"},
                         {"Hand1": None, "Hand2": "KKKQQ", "Winner": ""}]
    frame = pl.DataFrame(rows)
    scored = score(frame)
    assert isinstance(scored, pl.DataFrame) and scored.height == frame.height
    # The same rows as a pandas DataFrame and as an Arrow table score the same, cell for cell.
    from_arrow = score(pa.Table.from_pylist(rows))
    assert scored.to_arrow().to_pylist() == from_arrow.to_pylist()
    from_pandas = score(pd.DataFrame(rows))
    assert scored["winner"].to_list() == [None if pd.isna(w) else w for w in from_pandas["winner"]]
    assert scored["winner"].to_list()[:len(spec_games)] == [game["Winner"] for game in spec_games]
    assert scored["reason"].to_list()[-2:] == ["Hand1 'AAAAA': 'A' appears 5 times, at most 4",
                                               "Hand1 is empty"]
    assert scored.schema["hand1_key"] == pl.Int16


def test_polars_deals_with_categorical_and_null_seats():
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"board": ["Ah Kh Qh Jh Th", "2c 3d 4h 5s 9c"], "p1": ["2c 3c", "Ac Ad"],
                          "p2": [None, "Kc Kd"], "p3": ["4d 5d", "6d 7d"]}
                         ).with_columns(pl.col("board").cast(pl.Categorical))
    scored = score(frame, best_five=True)
    assert scored["winners"].to_list() == ["1 3", "3"]
    assert scored["p2_key"].to_list()[0] is None and scored["p2_key"].to_list()[1] is not None
    assert "p3_hand" in scored.columns


def test_a_polars_lazy_frame_is_told_to_collect():
    pl = pytest.importorskip("polars")
    lazy = pl.DataFrame({"Hand1": ["AAAQQ"], "Hand2": ["KKKQQ"]}).lazy()
    with pytest.raises(UsageError, match=r"polars DataFrame or a pyarrow Table, not polars LazyFrame: "
                                         r"call \.collect\(\) first"):
        score(lazy)


def test_polars_is_imported_only_when_given():
    probe = ("import sys, pyarrow as pa, pandas as pd; from pipeline import score; "
             "score(pa.table({'Hand1': ['AAAQQ'], 'Hand2': ['KKKQQ']})); "
             "score(pd.DataFrame({'Hand1': ['AAAQQ'], 'Hand2': ['KKKQQ']})); "
             "print('polars' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "False"
