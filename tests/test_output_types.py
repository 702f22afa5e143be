"""The Outputs page's tables are the outputs as the libraries read them.

docs/outputs.md gives, under a heading per output, one table row per column (a run of ``pN_`` rows
standing for those columns of seats 1 to 10, seat by seat) with the column's Arrow type and the
types pandas, polars and DuckDB read it as, and a ``pd.read_csv`` call with the dtypes to read the
CSV outputs with. Here the bundled inputs are run into Parquet and CSV, each file is read with
each library, and every column must be the page's, in its order, with its four types; the CSV
files, read with the page's dtypes (and the code after the call, which sets the category order),
must give what pandas reads from Parquet, but for what the page says CSV cannot carry: the
categories that do not occur and the order of an unordered category column's, and an empty text
apart from a null.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from pipeline.formats.writers import write_table
from pipeline.runs.equity import EquityRun
from pipeline.runs.runner import Run

from .conftest import RAW, ROOT

PAGE = ROOT / "docs" / "outputs.md"
SEATS = range(1, 11)
HEADER = ["column", "Arrow", "pandas", "polars", "DuckDB", "meaning"]
#: How a table marks a column that only --best-five runs have: its meaning starts so.
BEST_FIVE = "with `--best-five`"
#: How a meaning starts for a column that only a run over hand histories has (after BEST_FIVE).
HISTORIES = "runs over hand histories:"
HEADING = re.compile(r"^(#{1,6}) (.+?)\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")
LIBRARIES = ("Arrow", "pandas", "polars", "DuckDB")


# --- the page ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Column:
    """One column as a table of the page gives it."""

    name: str
    types: dict[str, str]  # by library, as the page writes it (backticks dropped)
    best_five: bool  # a column of --best-five runs only
    histories: bool = False  # a column of runs over hand histories only


@cache
def sections() -> dict[str, list[str]]:
    """The page's lines by heading: those after it, up to the next heading of any level."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    fenced = False
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else HEADING.match(line)
        if heading:
            title = heading.group(2).replace("`", "")
            assert title not in found, f"{PAGE.name}: two headings {title!r}"
            current = found[title] = []
        elif current is not None:
            current.append(line)
    assert not fenced, f"{PAGE.name}: a code block that is never closed"
    return found


def section(heading: str) -> list[str]:
    assert heading in sections(), f"{PAGE.name} has no heading {heading!r}: {sorted(sections())}"
    return sections()[heading]


def cells(line: str) -> list[str]:
    assert line.startswith("|") and line.endswith("|"), line
    return [cell.strip() for cell in line[1:-1].split("|")]


def plain(cell: str) -> str:
    """A table cell without its Markdown: `category` (ordered) -> category (ordered)."""
    return cell.replace("`", "").strip()


@cache
def columns(heading: str) -> tuple[Column, ...]:
    """The columns of the table under ``heading``, in order, its ``pN_`` rows spread over the ten
    seats seat by seat (``p1_category, p1_key, p2_category, ...``)."""
    lines = [line.strip() for line in section(heading)]
    starts = [at for at, line in enumerate(lines) if line.startswith("|") and cells(line) == HEADER]
    assert len(starts) == 1, f"{heading}: one table with the header {' | '.join(HEADER)}, not {len(starts)}"
    rows = []
    for line in lines[starts[0] + 2:]:
        if not line.startswith("|"):
            break
        found = cells(line)
        assert len(found) == len(HEADER), f"{heading}: a row of {len(found)} cells: {line}"
        name, *types, meaning = found
        types = dict(zip(LIBRARIES, map(plain, types)))
        own = meaning.removeprefix(BEST_FIVE).removeprefix(",").strip()
        rows.append(Column(plain(name), types, meaning.startswith(BEST_FIVE), own.startswith(HISTORIES)))
    assert rows, f"{heading}: a table without rows"
    spread: list[Column] = []
    at = 0
    while at < len(rows):
        if not rows[at].name.startswith("pN_"):
            spread.append(rows[at])
            at += 1
            continue
        group = []
        while at < len(rows) and rows[at].name.startswith("pN_"):
            group.append(rows[at])
            at += 1
        spread += [Column(f"p{seat}_{row.name[3:]}", row.types, row.best_five, row.histories)
                   for seat in SEATS for row in group]
    names = [column.name for column in spread]
    assert len(set(names)) == len(names), f"{heading}: a column listed twice"
    return tuple(spread)


def documented(heading: str, *, best_five: bool = False, histories: bool = True) -> list[Column]:
    """The columns of a file under ``heading``: those of --best-five runs only if it is one, those
    of runs over hand histories only if it is one."""
    return [column for column in columns(heading)
            if (best_five or not column.best_five) and (histories or not column.histories)]


@dataclass(frozen=True)
class Reading:
    """A section's ``pd.read_csv`` call: its dtypes, and the code after it run on what it read."""

    dtypes: dict[str, str]
    frame: str  # the name the call's result is given
    after: ast.Module

    def read(self, path: Path) -> pd.DataFrame:
        frame = pd.read_csv(path, dtype=self.dtypes)
        scope = {"pd": pd, self.frame: frame}
        exec(compile(self.after, f"{PAGE.name}: after read_csv", "exec"), scope)
        return scope[self.frame]


@cache
def reading(heading: str) -> Reading:
    """The python block of the section: ``NAME = pd.read_csv(PATH, dtype={...})``, then any code
    that works on ``NAME``."""
    lines, blocks, body = section(heading), [], None
    for line in lines:
        fence = FENCE.match(line)
        if fence and body is None:
            body, language = [], fence.group(1)
        elif fence:
            if language == "python":
                blocks.append("\n".join(body))
            body = None
        elif body is not None:
            body.append(line)
    assert len(blocks) == 1, f"{heading}: one python block with the pd.read_csv call, not {len(blocks)}"
    tree = ast.parse(blocks[0])
    calls = [(at, statement) for at, statement in enumerate(tree.body)
             if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call)
             and ast.unparse(statement.value.func) == "pd.read_csv"]
    assert len(calls) == 1, f"{heading}: one `NAME = pd.read_csv(...)` in its python block"
    at, statement = calls[0]
    [target] = statement.targets
    [dtype] = [keyword.value for keyword in statement.value.keywords if keyword.arg == "dtype"]
    after = ast.Module(body=tree.body[at + 1:], type_ignores=[])
    return Reading(ast.literal_eval(dtype), ast.unparse(target), after)


# --- the outputs -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Output:
    """One results file of a run, written in both formats."""

    heading: str  # of its table on the page
    parquet: Path
    csv: Path
    best_five: bool = False


BAD_DEALS = "board,p1,p2\nAh Kd 2c 3s 4h,Qs Qd,Jc Jd\nAh Kd 2c 3s 4h,Ah Qd,Jc Jd\n"
BAD_SPOTS = "board,p1,p2\nAh Kd 2c,Qs Qd,Jc Jd\nAh Kd 2c,Qs Qd,Jc Zz\n"


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """Output folders by name, each run into Parquet (``NAME-parquet``) and CSV (``NAME-csv``).

    The hold'em runs read every kind of hold'em input; beside the bundled ones (as the equity run
    beside spots.csv), a CSV and a Parquet archive with a bad row each, so that rejects.csv has
    rows with a line and without.
    """
    tmp = tmp_path_factory.mktemp("outputs")
    bare = tmp / "games-without-winner.csv"
    bare.write_text("".join(line.rsplit(",", 1)[0] + "\n"
                            for line in (RAW / "games.csv").read_text().splitlines()))
    (tmp / "bad.csv").write_text(BAD_DEALS)
    pq.write_table(pacsv.read_csv(tmp / "bad.csv"), tmp / "bad.parquet")
    (tmp / "bad-spots.csv").write_text(BAD_SPOTS)
    pq.write_table(pacsv.read_csv(tmp / "bad-spots.csv"), tmp / "bad-spots.parquet")
    holdem = [RAW / "deals.csv", RAW / "contest.in", RAW / "phh", RAW / "pokerstars",
              tmp / "bad.csv", tmp / "bad.parquet"]
    spots = [RAW / "spots.csv", tmp / "bad-spots.csv", tmp / "bad-spots.parquet"]
    runs: dict[str, Callable[[Path, str], object]] = {
        "larvis": lambda out, fmt: Run([RAW / "games.csv"], out, output_format=fmt, threads=1).execute(),
        "larvis-bare": lambda out, fmt: Run([bare], out, output_format=fmt, threads=1).execute(),
        "larvis-best-five": lambda out, fmt: Run([RAW / "games.csv"], out, output_format=fmt, threads=1,
                                                 best_five=True).execute(),
        "holdem": lambda out, fmt: Run(holdem, out, output_format=fmt, threads=1).execute(),
        "holdem-best-five": lambda out, fmt: Run(holdem, out, output_format=fmt, threads=1,
                                                 best_five=True).execute(),
        "equity": lambda out, fmt: EquityRun(spots, out, output_format=fmt).execute(),
    }
    folders = {}
    for name, run in runs.items():
        for fmt in ("parquet", "csv"):
            folders[f"{name}-{fmt}"] = out = tmp / f"{name}-{fmt}"
            run(out, fmt)
    return folders


OUTPUTS = {  # name: (heading, run, file stem, --best-five)
    "larvis": ("Larvis winners", "larvis", "winners", False),
    "larvis without Winner": ("Larvis winners", "larvis-bare", "winners", False),
    "larvis --best-five": ("Larvis winners", "larvis-best-five", "winners", True),
    "holdem": ("Hold'em winners", "holdem", "winners", False),
    "holdem --best-five": ("Hold'em winners", "holdem-best-five", "winners", True),
    "equity": ("equity.csv or equity.parquet", "equity", "equity", False),
    "hands": ("hands", "holdem", "hands", False),
    "seats": ("seats", "holdem", "seats", False),
    "actions": ("actions", "holdem", "actions", False),
}
#: The files that are always CSV, by their heading, and the runs that wrote them.
ALWAYS_CSV = {
    "rejects.csv": ("holdem", "equity"),
    "categories.csv": ("larvis", "holdem"),
    "ties.csv": ("larvis", "holdem"),
}


@pytest.fixture(params=list(OUTPUTS))
def output(request, made) -> Output:
    heading, run, stem, best_five = OUTPUTS[request.param]
    return Output(heading, made[f"{run}-parquet"] / f"{stem}.parquet", made[f"{run}-csv"] / f"{stem}.csv",
                  best_five)


# --- how each library reads a file, as it prints the types --------------------------------------

def pandas_type(dtype) -> str:
    """A dtype as ``DataFrame.dtypes`` prints it, ``(ordered)`` added for an ordered categorical."""
    if isinstance(dtype, pd.CategoricalDtype):
        return "category (ordered)" if dtype.ordered else "category"
    return str(dtype)


def parquet_types(path: Path) -> dict[str, list[tuple[str, str]]]:
    """(column, type) of each column of a Parquet file, in order, by library."""
    described = duckdb.sql(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
    return {
        "Arrow": [(field.name, str(field.type)) for field in pq.read_schema(path)],
        "pandas": [(name, pandas_type(dtype)) for name, dtype in pd.read_parquet(path).dtypes.items()],
        "polars": [(name, str(dtype)) for name, dtype in pl.read_parquet(path).schema.items()],
        "DuckDB": [(row[0], row[1]) for row in described],
    }


def csv_types(path: Path, dtypes: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """(column, type) of each column of a CSV file, in order, by library: what pyarrow, polars
    and DuckDB infer, and what pandas gives with ``dtypes``."""
    described = duckdb.sql(f"DESCRIBE SELECT * FROM read_csv('{path}')").fetchall()
    frame = pd.read_csv(path, dtype=dtypes)
    return {
        "Arrow": [(field.name, str(field.type)) for field in pacsv.read_csv(path).schema],
        "pandas": [(name, pandas_type(dtype)) for name, dtype in frame.dtypes.items()],
        "polars": [(name, str(dtype)) for name, dtype in pl.read_csv(path).schema.items()],
        "DuckDB": [(row[0], row[1]) for row in described],
    }


def versions() -> str:
    return (f"pyarrow {pa.__version__}, pandas {pd.__version__}, polars {pl.__version__}, "
            f"duckdb {duckdb.__version__}")


def assert_types(got: dict[str, list[tuple[str, str]]], want: list[Column], what: str) -> None:
    for library in LIBRARIES:
        page = [(column.name, column.types[library]) for column in want]
        names = [name for name, _ in got[library]]
        listed = [name for name, _ in page]
        assert names == listed, f"{what}, {library}: not the page's columns:\n file: {names}\n page: {listed}"
        differ = [(name, kind, said) for (name, kind), (_, said) in zip(got[library], page) if kind != said]
        assert not differ, (f"{what}, {library} ({versions()}): (column, type read, type on the page): "
                            f"{differ}")


def text_columns(frame: pd.DataFrame) -> list[str]:
    return [name for name, dtype in frame.dtypes.items() if isinstance(dtype, pd.StringDtype)]


def assert_same_values(csv: pd.DataFrame, parquet: pd.DataFrame, what: str) -> None:
    """Row for row the same values, an empty text of the Parquet reading taken as the null that CSV
    reads it as."""
    assert len(csv) == len(parquet) > 0, what
    blanked = parquet.copy()
    for name in text_columns(blanked):
        blanked[name] = blanked[name].mask(blanked[name] == "")
    for name in parquet.columns:
        pd.testing.assert_series_equal(csv[name].astype(object), blanked[name].astype(object),
                                       obj=f"{what}: {name}")


# --- the tests -----------------------------------------------------------------------------------

def test_the_page_has_a_table_and_a_read_csv_call_per_output():
    for heading in {heading for heading, *_ in OUTPUTS.values()} | set(ALWAYS_CSV):
        assert columns(heading) and reading(heading).dtypes, heading
    assert [column.name for column in columns("Hold'em winners")][8:13] == \
        ["p1_category", "p1_key", "p1_low_key", "p1_best", "p1_hand"]


def test_parquet_outputs_read_as_the_page_says(output):
    want = documented(output.heading, best_five=output.best_five)
    assert pq.read_metadata(output.parquet).num_rows > 0
    assert_types(parquet_types(output.parquet), want, f"{output.parquet.parent.name}/{output.parquet.name}")


def test_csv_outputs_read_with_the_pages_dtypes_as_parquet_reads(output):
    """The page's pd.read_csv call and the code after it give, column for column, the dtypes and
    values pandas reads from the Parquet file; an unordered category column keeps the categories
    found in the file, which the Parquet file's are a superset of."""
    page = reading(output.heading)
    assert set(page.dtypes) == {column.name for column in columns(output.heading)}, \
        f"{output.heading}: the read_csv dtypes name other columns than the table"
    csv, parquet = page.read(output.csv), pd.read_parquet(output.parquet)
    what = f"{output.csv.parent.name}/{output.csv.name}"
    assert list(csv.columns) == list(parquet.columns), what
    for name, dtype in parquet.dtypes.items():
        got = csv[name].dtype
        if isinstance(dtype, pd.CategoricalDtype) and not dtype.ordered:
            assert isinstance(got, pd.CategoricalDtype) and not got.ordered, (what, name, got)
            assert set(got.categories) <= set(dtype.categories), (what, name)
        else:
            assert got == dtype, f"{what}: {name} reads from CSV as {got!r}, from Parquet as {dtype!r}"
    assert_same_values(csv, parquet, what)


@pytest.mark.parametrize("heading, run", [(heading, run) for heading, runs in ALWAYS_CSV.items()
                                          for run in runs])
def test_csv_files_read_as_the_page_says(made, tmp_path, heading, run):
    """The files that are always CSV: pyarrow, polars and DuckDB infer the page's types, and the
    page's dtypes give pandas those it reads from Parquet: what pokerpipe's writer makes of the
    table pyarrow reads."""
    path = made[f"{run}-csv"] / heading
    inferred = pacsv.read_csv(path)
    assert inferred.num_rows > 0 and all(column.null_count < len(column) for column in inferred.columns), \
        f"{run}/{heading}: the test needs a value in every column, or its type is inferred as null"
    if heading == "rejects.csv":  # rows of a CSV file and of a Parquet file, which has no lines
        assert 0 < inferred["line"].null_count < inferred.num_rows, run
    page = reading(heading)
    assert list(page.dtypes) == [column.name for column in columns(heading)], heading
    assert_types(csv_types(path, page.dtypes), documented(heading), f"{run}/{heading}")

    write_table(tmp_path / "as.parquet", inferred)
    parquet, csv = pd.read_parquet(tmp_path / "as.parquet"), page.read(path)
    assert dict(csv.dtypes) == dict(parquet.dtypes), f"{run}/{heading}"
    assert_same_values(csv, parquet, f"{run}/{heading}")


def test_kept_columns_come_last_in_their_own_type(tmp_path):
    """--keep: after the page's columns, a CSV input's column as text, a Parquet input's in its
    own type; an input without it leaves it empty."""
    text = tmp_path / "text.csv"
    text.write_text("board,p1,p2,site\nAh Kd 2c 3s 4h,Qs Qd,Jc Jd,north\n")
    typed = pa.table({"board": ["Ah Kd 2c 3s 4h"], "p1": ["Qs Qd"], "p2": ["Jc Jd"],
                      "hand_id": pa.array([7], pa.int32())})
    pq.write_table(typed, tmp_path / "typed.parquet")
    out = tmp_path / "out"
    Run([text, tmp_path / "typed.parquet", RAW / "contest.in"], out, output_format="parquet", threads=1,
        keep=["hand_id", "site"]).execute()
    page = documented("Hold'em winners", histories=False)  # deal archives and a contest file
    schema = pq.read_schema(out / "winners.parquet")
    assert schema.names == [column.name for column in page] + ["hand_id", "site"]
    assert [str(schema.field(name).type) for name in ("hand_id", "site")] == ["int32", "string"]
    frame = pd.read_parquet(out / "winners.parquet")
    assert [pandas_type(frame[name].dtype) for name in ("hand_id", "site")] == ["Int32", "str"]
    assert frame["hand_id"].isna().tolist() == [True, False] + [True] * (len(frame) - 2)
    assert frame["site"].isna().tolist() == [False] + [True] * (len(frame) - 1)
    assert frame["hand_id"].iloc[1] == 7 and frame["site"].iloc[0] == "north"
