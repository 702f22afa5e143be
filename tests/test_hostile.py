"""Hostile and near-valid input: nothing crashes, no row is lost, outputs stay atomic.

The contract: a bad row is rejected with one clear line (file, row, reason)
and lands in rejects.csv; rows read = scored + rejected; a file that cannot
be read at all gives one line naming it, a non-zero exit and no published
output; memory stays bounded whatever the input.

The property tests feed every reader (Larvis and hold'em CSV, plain and
gzipped, Parquet, contest files through ``Run`` and through
``contest_batches`` and the ``pokerpipe contest`` command) near-valid rows:
valid hands and deals with random mutations.  For CSV they check more than
the counts: every non-blank data line comes out exactly once, in winners or
in rejects, under its own row and line number.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.cli import cli
from pipeline.formats import contest_files, csv_files
from pipeline.games import deals
from pipeline.runs.runner import Run

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [rank + suit for rank in RANKS for suit in SUITS]
OUTPUTS = ("winners.csv", "winners.parquet", "rejects.csv", "summary.json", "categories.csv", "ties.csv")
# Characters a hostile or careless writer slips in: non-ASCII letters and
# digits, invisible and odd whitespace, other delimiters, line breaks.
ODD_CHARACTERS = ["é", "ß", "Ａ", "²", "🂡", "\u00a0", "\u200b", "\u2028", "\ufeff", "\t", ";", "'",
                  '"', "\\", "\x7f", "\r", "\n", ",", " "]
LINE_END = re.compile(r"\r\n|\r|\n")

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- strategies --------------------------------------------------------------

@st.composite
def mutated(draw, text: str, *, rate: float = 0.3) -> str:
    """``text`` unchanged most of the time, else with one or two random mutations."""
    if draw(st.floats(0, 1)) >= rate:
        return text
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["drop", "duplicate", "lowercase", "ten", "spaces", "quotes",
                                     "stray quote", "odd character", "empty", "garbage"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "drop":
            text = text[:at] + text[at + 1:]
        elif kind == "duplicate":
            text = text[:at] + text[at:at + 1] + text[at:]
        elif kind == "lowercase":
            text = text.lower()
        elif kind == "ten":
            text = text.translate(str.maketrans("TX", "XT"))
        elif kind == "spaces":
            text = draw(st.sampled_from(["  " + text, text + " ", text.replace(" ", "  "),
                                         text[:at] + " " + text[at:]]))
        elif kind == "quotes":
            text = f'"{text}"'
        elif kind == "stray quote":
            text = text[:at] + '"' + text[at:]
        elif kind == "odd character":
            text = text[:at] + draw(st.sampled_from(ODD_CHARACTERS)) + text[at:]
        elif kind == "empty":
            text = ""
        else:
            text = draw(st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\0"),
                                max_size=12))
    return text


@st.composite
def mutated_line(draw, fields: list[str]) -> list[str]:
    """The text lines of one row of fields, the row itself sometimes broken."""
    fields = [draw(mutated(field)) for field in fields]
    kind = draw(st.sampled_from(["row"] * 12 + ["extra field", "missing field", "blank line", "spaces",
                                                "only commas", "semicolons"]))
    if kind == "extra field":
        fields.append(draw(mutated("9", rate=0.5)))
    elif kind == "missing field":
        fields = fields[:-1]
    elif kind == "blank line":
        return ["", ",".join(fields)]
    elif kind == "spaces":
        return ["   ", ",".join(fields)]
    elif kind == "only commas":
        return ["," * (len(fields) - 1)]
    elif kind == "semicolons":
        return [";".join(fields)]
    return [",".join(fields)]


def larvis_hands():
    return st.text(st.sampled_from(RANKS + "X"), min_size=5, max_size=5)


@st.composite
def larvis_csv(draw) -> tuple[str, tuple[str, ...]]:
    """A Larvis games file, near-valid: its text and its columns."""
    columns = ("Hand1", "Hand2") + (("Winner",) if draw(st.booleans()) else ())
    lines = [draw(header(columns))]
    for _ in range(draw(st.integers(0, 25))):
        fields = [draw(larvis_hands()), draw(larvis_hands())]
        if "Winner" in columns:
            fields.append(draw(st.sampled_from(["Hand 1", "Hand 2", "Tie", ""])))
        lines += draw(mutated_line(fields))
    return draw(joined(lines)), columns


@st.composite
def holdem_deal(draw, seats: int, *, empty_seats: bool = True) -> list[str]:
    cards = draw(st.permutations(DECK))
    board = " ".join(cards[:5])
    holes = [" ".join(cards[5 + 2 * s:7 + 2 * s]) for s in range(seats)]
    # Some seats are empty, as in a table with fewer players.
    return [board] + [hole if not empty_seats or draw(st.integers(0, 4)) else "" for hole in holes]


@st.composite
def holdem_csv(draw) -> tuple[str, tuple[str, ...]]:
    """A hold'em deal archive, near-valid; its seats may skip numbers (p1,p3)."""
    chosen = draw(st.sets(st.integers(1, 10), min_size=1, max_size=4))
    seats = tuple(f"p{s}" for s in sorted(chosen))
    expected = ("winners",) if draw(st.booleans()) else ()
    columns = ("board",) + seats + expected
    lines = [draw(header(columns))]
    for _ in range(draw(st.integers(0, 20))):
        fields = draw(holdem_deal(len(seats)))
        if expected:
            fields.append(draw(st.sampled_from(["1", "2 3", ""])))
        lines += draw(mutated_line(fields))
    return draw(joined(lines)), columns


def header(columns: tuple[str, ...]):
    """The header line, written the ways tools write it: plain, quoted, padded, with a BOM."""
    return st.sampled_from([
        ",".join(columns),
        ",".join(f'"{name}"' for name in columns),
        ", ".join(columns),
        "\ufeff" + ",".join(columns),
    ])


@st.composite
def joined(draw, lines: list[str]) -> str:
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return end.join(lines) + (end if draw(st.booleans()) else "")


@st.composite
def contest_text(draw) -> str:
    """A contest file, near-valid: instances of N, a board and N hole cards."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        players = draw(st.integers(1, 10))
        deal = draw(holdem_deal(players, empty_seats=False))
        count = draw(st.sampled_from([str(players)] * 8 + ["0", "11", " 3 ", "x", "²", "1" * 5000, ""]))
        block = [count] + deal
        block = [draw(mutated(line, rate=0.1)) for line in block]
        if draw(st.integers(0, 9)) == 0:
            block = block[:-1]
        if draw(st.integers(0, 4)) == 0:
            block.append("")
        lines += block
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


# --- helpers -----------------------------------------------------------------

@contextmanager
def scratch():
    with tempfile.TemporaryDirectory(prefix="hostile-") as folder:
        yield Path(folder)


def unquote(field: str) -> str:
    """A field's value: within its quotes where quoted, spaces outside the quotes not part of it
    (``  ""`` is an empty value), as the reader's documentation says."""
    inner = field.strip()
    return inner[1:-1] if len(inner) >= 2 and inner[0] == inner[-1] == '"' else field


def csv_data_lines(text: str, columns: int) -> dict[int, str]:
    """The data lines of a CSV text that are rows, by line number (the header is line 1).

    Lines end at \\n, \\r\\n or \\r.  A line is blank (not a row) when all of
    its fields are empty, or when it does not split into the columns and is
    only whitespace.
    """
    text = text.removeprefix("\ufeff")
    parts = LINE_END.split(text)
    if parts[-1] == "":
        parts.pop()
    rows = {}
    for number, line in enumerate(parts[1:], start=2):
        fields = line.split(",")
        blank = (all(unquote(f) == "" for f in fields) if len(fields) == columns else line.strip() == "")
        if not blank:
            rows[number] = line
    return rows


def read_output(path: Path) -> pa.Table:
    if path.suffix == ".parquet":
        return pq.read_table(path)
    with open(path, encoding="utf-8") as handle:
        names = handle.readline().strip().split(",")
    return pacsv.read_csv(
        path, read_options=pacsv.ReadOptions(block_size=64 << 20),
        parse_options=pacsv.ParseOptions(newlines_in_values=True),
        convert_options=pacsv.ConvertOptions(
            column_types={name: (pa.int64() if name in ("row", "source_row", "line") else pa.string())
                          for name in names},
            strings_can_be_null=False))


def assert_no_outputs(outdir: Path) -> None:
    """A failed run publishes nothing and leaves no temporary file behind."""
    if outdir.exists():
        left = sorted(p.name for p in outdir.iterdir())
        assert not [name for name in left if name in OUTPUTS or name.endswith(".part")], left


def assert_clear_line(message: str, *names: str) -> None:
    assert message.strip(), "empty message"
    assert "\n" not in message.strip(), message
    assert len(message) < 1000, f"{len(message)} characters: {message[:200]}..."
    assert "Traceback" not in message
    for name in names:
        assert name in message, f"{name} not named in {message!r}"


def run_or_refuse(inputs: list, outdir: Path, **options) -> tuple[dict | None, str | None]:
    """Run; return (summary, None) or (None, the one-line ValueError message)."""
    try:
        summary = Run(inputs, outdir, **options).execute()
    except ValueError as error:
        assert_clear_line(str(error))
        assert_no_outputs(outdir)
        return None, str(error)
    return summary, None


def check_accounting(outdir: Path, summary: dict, output_format: str = "csv") -> tuple[pa.Table, pa.Table]:
    """Every row read is scored or rejected exactly once, and the files agree with the summary."""
    read, scored, rejected = summary["rows_read"], summary["rows_scored"], summary["rows_rejected"]
    assert read == scored + rejected
    for record in summary["inputs"]:
        assert record["rows"] == record["scored"] + record["rejected"]
    assert sum(r["rows"] for r in summary["inputs"]) == read
    assert sum(r["rejected"] for r in summary["inputs"]) == rejected
    assert json.loads((outdir / "summary.json").read_text()) == summary
    assert not list(outdir.glob("*.part")) and not list(outdir.glob(".*.part"))
    winners = read_output(outdir / f"winners.{output_format}")
    rejects = read_output(outdir / "rejects.csv")
    assert rejects.column_names == ["row", "source", "source_row", "line", "reason", "raw"]
    assert winners.num_rows == scored and rejects.num_rows == rejected
    assert winners.num_rows + rejects.num_rows == read
    rows = winners.column("row").to_pylist() + rejects.column("row").to_pylist()
    assert len(set(rows)) == len(rows), "a row is both scored and rejected, or twice in one"
    sources = {r["path"] for r in summary["inputs"]}
    for reject in rejects.to_pylist():
        assert reject["reason"] and reject["reason"].strip(), reject
        assert "\n" not in reject["reason"] and len(reject["reason"]) < 1000, reject["reason"][:200]
        assert reject["source_row"] is not None and reject["source_row"] >= 1, reject
        assert reject["source"] in sources, reject
    return winners, rejects


def check_csv_rows(text: str, columns: tuple[str, ...], winners: pa.Table, rejects: pa.Table) -> None:
    """No line lost: every non-blank data line is one row, under its own row and line number."""
    lines = csv_data_lines(text, len(columns))
    rows = sorted(winners.column("row").to_pylist() + rejects.column("row").to_pylist())
    assert rows == [number - 1 for number in lines], "rows lost, merged or invented"
    for reject in rejects.to_pylist():
        assert reject["line"] == reject["source_row"] + 1, reject
        if "fields, expected" in reject["reason"]:
            assert reject["raw"] == lines[reject["line"]], reject


def write_text(path: Path, text: str) -> Path:
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return path


# --- properties: near-valid rows through every reader ------------------------

@PROPERTY
@given(case=larvis_csv(), name=st.sampled_from(["games.csv", "games.csv.gz"]),
       batch_rows=st.integers(1, 8), output_format=st.sampled_from(["csv", "parquet"]))
def test_larvis_csv_near_valid_rows_are_all_accounted_for(case, name, batch_rows, output_format):
    text, columns = case
    with scratch() as folder:
        path = write_text(folder / name, text)
        summary = Run([path], folder / "out", batch_rows=batch_rows, output_format=output_format).execute()
        winners, rejects = check_accounting(folder / "out", summary, output_format)
        check_csv_rows(text, columns, winners, rejects)


@PROPERTY
@given(case=holdem_csv(), name=st.sampled_from(["deals.csv", "deals.csv.gz"]), batch_rows=st.integers(1, 8))
def test_holdem_csv_near_valid_rows_are_all_accounted_for(case, name, batch_rows):
    text, columns = case
    with scratch() as folder:
        path = write_text(folder / name, text)
        summary = Run([path], folder / "out", batch_rows=batch_rows).execute()
        winners, rejects = check_accounting(folder / "out", summary)
        check_csv_rows(text, columns, winners, rejects)
        # Every seat column of the input is scored, whatever seats it skips.
        for seat in (c for c in columns if re.fullmatch(r"p\d+", c)):
            assert f"{seat}_key" in winners.column_names


@PROPERTY
@given(cases=st.lists(larvis_csv(), min_size=2, max_size=3), batch_rows=st.integers(1, 8))
def test_several_inputs_number_their_rows_one_after_the_other(cases, batch_rows):
    with scratch() as folder:
        paths = [write_text(folder / f"games{i}.csv", text) for i, (text, _) in enumerate(cases)]
        summary = Run(paths, folder / "out", batch_rows=batch_rows).execute()
        winners, rejects = check_accounting(folder / "out", summary)
        records = summary["inputs"]
        assert [r["path"] for r in records] == [str(p) for p in paths]
        for record, (text, columns), following in zip(records, cases, records[1:] + [None]):
            lines = csv_data_lines(text, len(columns))
            # The file's rows, numbered from its first_row, are all there and only there.
            expected = sorted(record["first_row"] + number - 2 for number in lines)
            end = following["first_row"] if following else float("inf")
            got = sorted(r for r in winners.column("row").to_pylist() + rejects.column("row").to_pylist()
                         if record["first_row"] <= r < end)
            assert got == expected
        for reject in rejects.to_pylist():
            record = next(r for r in records if r["path"] == reject["source"])
            assert reject["row"] == record["first_row"] + reject["source_row"] - 1


@st.composite
def parquet_table(draw) -> pa.Table:
    """Rows of either game with mutated text, nulls and columns of other types."""
    game = draw(st.sampled_from(["larvis", "holdem"]))
    n = draw(st.integers(0, 20))
    if game == "larvis":
        columns = {name: [draw(st.none() | mutated(draw(larvis_hands()))) for _ in range(n)]
                   for name in ("Hand1", "Hand2")}
    else:
        deals = [draw(holdem_deal(3)) for _ in range(n)]
        columns = {name: [draw(st.none() | mutated(deal[i])) for deal in deals]
                   for i, name in enumerate(("board", "p1", "p2", "p3"))}
    table = pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()})
    if draw(st.booleans()):
        table = table.append_column("id", pa.array(range(n), pa.int64()))
    if draw(st.booleans()):
        table = table.set_column(0, table.column_names[0], table.column(0).cast(pa.large_string()))
    return table


@PROPERTY
@given(table=parquet_table(), batch_rows=st.integers(1, 8))
def test_parquet_rows_are_all_accounted_for(table, batch_rows):
    with scratch() as folder:
        pq.write_table(table, folder / "in.parquet")
        summary = Run([folder / "in.parquet"], folder / "out", batch_rows=batch_rows).execute()
        winners, rejects = check_accounting(folder / "out", summary)
        assert summary["rows_read"] == table.num_rows
        assert sorted(winners.column("row").to_pylist() + rejects.column("row").to_pylist()) == \
            list(range(1, table.num_rows + 1))
        assert set(rejects.column("line").to_pylist()) <= {None}


@PROPERTY
@given(text=contest_text(), batch_rows=st.integers(1, 4))
def test_contest_files_through_run_and_the_contest_command(text, batch_rows):
    with scratch() as folder:
        path = write_text(folder / "contest.in", text)
        summary, refused = run_or_refuse([path], folder / "out", batch_rows=batch_rows)
        if refused is not None:
            assert_clear_line(refused, str(path))
            assert re.search(r": line \d+: ", refused) or "empty" in refused, refused
        else:
            check_accounting(folder / "out", summary)
        result = CliRunner().invoke(cli, ["contest", str(path), "--batch-rows", str(batch_rows)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
        assert "Traceback" not in result.output
        printed = result.stdout.splitlines()
        if text == "":
            assert result.exit_code == 0 and printed == []  # no instance: nothing to print
        elif summary is not None and summary["rows_rejected"] == 0:
            # Every instance valid: the command agrees with the run, line for line.
            assert result.exit_code == 0, result.output
            winners = read_output(folder / "out" / "winners.csv")
            assert printed == winners.column("winners").to_pylist()
        else:
            assert result.exit_code == 1, result.output
            assert_clear_line(result.stderr.strip(), str(path))
            if summary is not None:
                # It stops at the first bad instance, after the winners of those before it.
                first = min(read_output(folder / "out" / "rejects.csv").column("row").to_pylist())
                assert len(printed) == first - 1


@PROPERTY
@given(lines=st.lists(st.one_of(st.sampled_from(["1", "2", "10", "", "  ", "Ah Kd 2c 3s Xh", "As Ad",
                                                 "Qc Qd", "Ah Ah", "0", "١", "²"]),
                                st.text(max_size=20)), max_size=30),
       batch_rows=st.integers(1, 5))
def test_contest_batches_keep_every_instance_before_a_broken_one(lines, batch_rows):
    seen = []
    try:
        for batch in contest_files.contest_batches(iter(lines), batch_rows=batch_rows, name="in.txt"):
            assert batch.table.num_rows <= batch_rows
            assert batch.table.num_rows >= 1 or batch.blank_lines >= 1  # trailing blank lines, counted
            assert batch.table.column_names == ["board", *deals.SEATS]
            seen += batch.rows.tolist()
            assert (batch.lines >= 1).all() and (batch.lines <= len(lines)).all()
    except ValueError as error:
        assert_clear_line(str(error), "in.txt")
        assert re.match(r"in\.txt: line \d+: ", str(error)), str(error)
    assert seen == list(range(1, len(seen) + 1))


@PROPERTY
@given(head=st.sampled_from([b"", b"Hand1,Hand2\n", b"board,p1,p2\n", b"3\n"]),
       body=st.binary(max_size=300) | st.lists(st.sampled_from(
           [b"AAAQQ,QQAAA\n", b"\xff\xfe", b"\0", b"\r", b'"', b",", b"\n", b"Ah Kd 2c 3s 4h,As Ad\n",
            "é".encode(), b"\x1f\x8b"]), max_size=20).map(b"".join),
       suffix=st.sampled_from([".csv", ".in", ".tsv", ".txt"]))
def test_random_bytes_never_crash_and_never_publish_half_a_run(head, body, suffix):
    with scratch() as folder:
        path = folder / f"input{suffix}"
        path.write_bytes(head + body)
        summary, refused = run_or_refuse([path], folder / "out", batch_rows=3)
        if refused is None:
            check_accounting(folder / "out", summary)
        else:
            assert str(path) in refused, refused


# --- explicit hostile files through the command line -------------------------

def invoke(runner, args: list[str]):
    """Run the CLI catching nothing unexpected: no exception but SystemExit, no traceback."""
    result = runner.invoke(cli, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def assert_refused(result, *names: str, outdir: Path | None = None) -> None:
    """A clean failure: non-zero exit, one line on stderr naming the file, nothing published."""
    assert result.exit_code != 0, result.output
    assert result.stderr.startswith("Error: "), result.stderr[:300]
    assert_clear_line(result.stderr, *names)
    assert result.stdout == ""
    if outdir is not None:
        assert_no_outputs(outdir)


def test_a_100_mb_line_in_a_contest_file(runner, tmp_path):
    path = tmp_path / "contest.in"
    with open(path, "wb") as handle:
        handle.write(b"1\nAh Kd 2c 3s 4h\nAs Ad\n1\nAh Kd 2c 3s 4h\n")
        for _ in range(100):
            handle.write(b"Q" * (1 << 20))
        handle.write(b"\n")
    result = invoke(runner, ["run", str(path), "-o", str(tmp_path / "out")])
    assert_refused(result, str(path), outdir=tmp_path / "out")
    assert "line 6: longer than" in result.stderr
    # The contest command prints the winners before the broken instance, then stops.
    result = invoke(runner, ["contest", str(path)])
    assert result.exit_code == 1 and result.stdout == "1\n"
    assert_clear_line(result.stderr, str(path), "line 6: longer than")
    path.unlink()


def test_a_long_line_within_the_block_is_one_reject_with_a_short_message(runner, tmp_path):
    path = tmp_path / "games.csv"
    path.write_bytes(b"Hand1,Hand2\nAAAQQ,QQAAA\n" + b"K" * (600 << 10) + b",22345\n22345,33456\n")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output[:300]
    assert all(len(line) < 1000 for line in result.stderr.splitlines())
    assert f"{path}: row 2 (line 3): Hand1 " in result.stderr
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("row").to_pylist() == [1, 3]
    assert rejects.column("raw").to_pylist() == ["K" * (600 << 10) + ",22345"], "the raw line is kept whole"


# 32,768 different games: compressed, still about 70 KB, so a cut at 40 KB
# leaves the header readable and breaks off in the rows.
MANY_GAMES = b"Hand1,Hand2\n" + "".join(
    "".join(hand) + ",QQAAA\n" for hand in itertools.product(RANKS[:8], repeat=5)).encode()
HOSTILE_FILES = {
    "binary.csv": bytes(range(256)) * 40,
    "semicolons.csv": b"Hand1;Hand2\nAAAQQ;QQAAA\n",
    "semicolon-deals.csv": b"board;p1;p2\nAh Kd 2c 3s 4h;As Ad;Qc Qd\n",
    "empty.csv": b"",
    "empty.csv.gz": gzip.compress(b""),
    "missing-column.csv": b"Hand1,Hand3\nAAAQQ,QQAAA\n",
    "no-seat.csv": b"board,winners\nAh Kd 2c 3s 4h,1\n",
    "truncated.csv.gz": gzip.compress(b"Hand1,Hand2\n" + b"AAAQQ,QQAAA\n" * 200)[:40],
    "truncated-late.csv.gz": gzip.compress(MANY_GAMES)[:40_000],
    "not-gzip.csv.gz": b"Hand1,Hand2\nAAAQQ,QQAAA\n",
    "header-64k.csv": b"Hand1,Hand2" + b"x" * 70_000 + b"\nAAAQQ,QQAAA\n",
    "garbage.parquet": b"PAR1" + bytes(range(256)) * 4,
    "binary.in": bytes(range(256)) * 40,
    "empty.in": b"\n\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_unreadable_files_give_one_line_and_no_output(runner, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(HOSTILE_FILES[name])
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    if name == "empty.in":  # a contest file of blank lines: no instance, nothing wrong
        assert result.exit_code == 0 and json.loads((out / "summary.json").read_text())["rows_read"] == 0
        return
    assert_refused(result, str(path), outdir=out)


def test_binary_data_after_the_header_is_rows_rejected_one_by_one(runner, tmp_path):
    path = tmp_path / "games.csv"
    path.write_bytes(b"Hand1,Hand2\nAAAQQ,QQAAA\n" + bytes(range(256)) * 40 + b"\n22345,33456\n")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("row").to_pylist()[0] == 1 and winners.num_rows == 2
    assert rejects.num_rows > 0


def test_a_missing_path_is_named(runner, tmp_path):
    missing = tmp_path / "nope" / "games.csv"
    result = invoke(runner, ["run", str(missing), "-o", str(tmp_path / "out")])
    assert_refused(result, str(missing), outdir=tmp_path / "out")
    result = invoke(runner, ["contest", str(missing)])
    assert result.exit_code == 2 and f"'{missing}' does not exist" in result.output


def test_a_header_only_file_is_an_empty_run(runner, tmp_path):
    path = tmp_path / "games.csv"
    path.write_bytes(b"Hand1,Hand2\n")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_read"] == summary["rows_scored"] == summary["rows_rejected"] == 0
    check_accounting(out, summary)


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("line", [b"\xff\xfe\xfd,KKKQQ", b"\xba\xff,x,y", b"\xba", b"AAAQQ,\xc3"])
def test_bytes_that_are_not_utf8_are_a_rejected_row(runner, tmp_path, line):
    # pyarrow cannot hand such a line to the invalid-row handler: it used to
    # print a traceback (an "exception ignored" report) and fail on a parse error.
    path = tmp_path / "games.csv"
    path.write_bytes(b"Hand1,Hand2\nAAAQQ,QQAAA\n" + line + b"\n22345,33456\n")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{path}: row 2 (line 3): bytes that are not UTF-8 text" in result.stderr
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("row").to_pylist() == [1, 3]
    assert rejects.column("raw").to_pylist() == [line.decode("utf-8", errors="replace")]


def test_many_lines_that_are_not_utf8_are_each_rejected_and_every_other_line_scored(runner, tmp_path):
    # Several read blocks' worth, bad bytes of every kind anywhere in a line, every line end:
    # each bad line is found on its own, even when its neighbours are bad too.
    rng = random.Random(19)
    bad_bytes = [b"\xe9", b"\xc3", b"\x80", b"\xbf\xbf", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                 b"\xf8", b"\xe2\x82", b"\xf0\x9f\x83"]
    valid = [b"AAAQQ,QQAAA,", b"88822,QQ777,Jos\xc3\xa9", b"23456,KKKQQ,\xf0\x9f\x82\xa1",
             b"22345,33456,\xe2\x82\xac"]
    text, bad = [b"Hand1,Hand2,note\n"], {}
    for number in range(2, 80_002):
        line = rng.choice(valid)
        if rng.random() < 0.4:
            at = rng.randint(0, len(line))
            line = line[:at] + rng.choice(bad_bytes) + line[at:]
            bad[number] = line.decode("utf-8", errors="replace")
        text.append(line + rng.choice([b"\n", b"\r\n", b"\r"]))
    text[-1] = text[-1].rstrip(b"\r\n")  # the last line without an end
    path = tmp_path / "games.csv"
    path.write_bytes(b"".join(text))
    assert path.stat().st_size > csv_files.BLOCK_BYTES  # two pieces at least
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert rejects.column("line").to_pylist() == list(bad)
    assert rejects.column("raw").to_pylist() == list(bad.values())
    assert set(rejects.column("reason").to_pylist()) == {"bytes that are not UTF-8 text"}
    assert winners.column("row").to_pylist() == [n - 1 for n in range(2, 80_002) if n not in bad]
    assert set(winners.column("winner").to_pylist()) <= {"Hand 1", "Hand 2", "Tie"}


def test_a_failed_run_keeps_the_outputs_of_the_last_good_one(runner, tmp_path):
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv.gz"
    good.write_bytes(b"Hand1,Hand2\nAAAQQ,QQAAA\n")
    bad.write_bytes(gzip.compress(MANY_GAMES)[:40_000])
    out = tmp_path / "out"
    assert invoke(runner, ["run", str(good), "-o", str(out)]).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    result = invoke(runner, ["run", str(bad), "-o", str(out), "--batch-rows", "1000"])
    assert_refused(result, str(bad))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("text, kept", [
    # A stray quote is one bad field: the rows after it are still rows.
    ('Hand1,Hand2\n"AAAQQ,QQAAA\n23456,KKKQQ\n23457,KKKQQ\n', [2, 3]),
    ('Hand1,Hand2\nAAAQQ,QQ"AAA\n23456,KKKQQ\n', [2]),
    # Quoted fields are read without their quotes.
    ('"Hand1","Hand2"\n"AAAQQ","QQAAA"\n"23456",KKKQQ\n', [1, 2]),
    # A byte-order mark and padded header names are still the header.
    ('\ufeffHand1,Hand2\nAAAQQ,QQAAA\n', [1]),
    ('Hand1 , Hand2\r\nAAAQQ,QQAAA\r\n', [1]),
])
def test_quotes_and_headers_written_by_other_tools(runner, tmp_path, text, kept):
    path = tmp_path / "games.csv"
    path.write_text(text, encoding="utf-8", newline="")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("row").to_pylist() == kept
    check_csv_rows(text, ("Hand1", "Hand2"), winners, rejects)


def test_an_odd_expected_value_is_a_mismatch_not_a_failed_run(runner, tmp_path):
    path = tmp_path / "games.csv"
    path.write_bytes(b'Hand1,Hand2,Winner\nAAAQQ,QQAAA,Ti"e\n22345,33456,Hand 2\n')
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 1 and "1 of 2 rows disagree with the Winner column" in result.output
    winners, _ = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("expected").to_pylist() == ['Ti"e', "Hand 2"]


def test_cards_separated_by_any_whitespace_are_read(runner, tmp_path):
    # Tabs and Unicode spaces between cards: the row once passed the reason
    # check and then crashed the whole run in the scoring.
    path = tmp_path / "deals.csv"
    path.write_text("board,p1,p2\n2c\u00a0 2d 2h 2s 3c,,3s 4c\n2c\t2d 2h 2s 3c,5s\u30006s,3s\x1c4c\n"
                    "Ah Kd 2c 3s\u200b4h,As Ad,Qc Qd\n", encoding="utf-8")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("row").to_pylist() == [1, 2]
    # A zero-width space is not whitespace: the board has four cards, one of them two run together.
    assert rejects.column("reason").to_pylist() == [
        "board 'Ah Kd 2c 3s\\u200b4h': 4 cards, expected 5: cards are separated by spaces, like 'Ah Kd'"]


def test_holdem_seat_columns_with_gaps_are_all_scored(runner, tmp_path):
    path = tmp_path / "deals.csv"
    path.write_bytes(b"board,p1,p3\nAh Kd 2c 3s 4h,2s 7d,Qc Qd\n")
    out = tmp_path / "out"
    assert invoke(runner, ["run", str(path), "-o", str(out)]).exit_code == 0
    winners = read_output(out / "winners.csv")
    assert winners.column("winners").to_pylist() == ["3"]
    assert winners.column("p2_key").to_pylist() == [""]  # seat 2 is empty


@pytest.mark.parametrize("text, message", [
    ("²\nAh Kd 2c 3s 4h\nAs Ad\n", "line 1: expected the number of players"),
    ("1" * 5000 + "\nAh Kd 2c 3s 4h\nAs Ad\n", "line 1: "),
    ("1\nAh Kd 2c 3s 4h\n" + "Q" * 3_000_000 + "\n", "line 3: "),
])
def test_contest_command_on_hostile_instances(runner, tmp_path, text, message):
    path = tmp_path / "contest.in"
    path.write_text(text)
    for args in (["contest", str(path)], ["run", str(path), "-o", str(tmp_path / "out")]):
        result = invoke(runner, args)
        assert result.exit_code == 1
        assert message in result.stderr
        assert_clear_line(result.stderr, str(path))
    assert_no_outputs(tmp_path / "out")


@pytest.mark.parametrize("header, named", [
    ("board,p1,p11", "'p11'"),
    ("board,p1,p0", "'p0'"),
    ("board,p1,p1", "'p1' appears twice (columns 2 and 3)"),
    ("board,p1,P3", "'P3' looks like 'p3'"),
    ("board,p1,player4", "'player4' looks like 'p4'"),
    ("board,p1,p 2", "'p 2' looks like 'p2'"),
    ("Board,p1", "'Board' looks like 'board'"),
    ("hand1,Hand2", "'hand1' looks like 'Hand1'"),
])
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_column_that_would_lose_a_player_stops_the_file(runner, tmp_path, header, named, suffix):
    names = header.split(",")
    row = ["Ah Kd 2c 3s 4h" if n.lower() == "board" else "AAAQQ" if "and" in n else "" for n in names]
    row[1] = row[1] or "As Ad"
    path = tmp_path / f"deals{suffix}"
    if suffix == ".csv":
        path.write_text(header + "\n" + ",".join(row) + "\n")
    else:
        import pyarrow.parquet as pq
        pq.write_table(pa.Table.from_arrays([pa.array([v]) for v in row], names=names), path)
    result = invoke(runner, ["run", str(path), "-o", str(tmp_path / "out")])
    assert_refused(result, str(path), named, outdir=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_nul_byte_in_a_data_row_is_a_rejected_row(runner, tmp_path):
    path = tmp_path / "deals.csv"
    path.write_bytes(b"board,p1,p2\nAh Kd 2c 3s 4h,As Ad,Qc Qd\nAh Kd 2c 3s 4h,As\0Ad,Qc Qd\n"
                     b"Ah Kd 2c 3s 4h,As Ad,Qc Qd\n")
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    winners, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("row").to_pylist() == [1, 3]
    [reject] = rejects.to_pylist()
    assert reject["line"] == 3 and reject["raw"] == "Ah Kd 2c 3s 4h,As\0Ad,Qc Qd"


@pytest.mark.parametrize("line, reason", [
    ('"AAAQQ",QQAAA,extra', "3 fields, expected 2"),
    ('AAAQQ,"QQAA"', "Hand2 'QQAA'"),
    ('  AAAQQ , ZZ ', "Hand2 'ZZ'"),
])
def test_raw_is_the_line_as_read(runner, tmp_path, line, reason):
    path = tmp_path / "games.csv"
    path.write_text("Hand1,Hand2\nAAAQQ,QQAAA\n" + line + "\n")
    out = tmp_path / "out"
    assert invoke(runner, ["run", str(path), "-o", str(out)]).exit_code == 0
    _, rejects = check_accounting(out, json.loads((out / "summary.json").read_text()))
    [reject] = rejects.to_pylist()
    assert reject["raw"] == line and reason in reject["reason"] and reject["line"] == 3


def test_a_valid_hand_with_a_newline_around_it_is_scored_and_written_trimmed(runner, tmp_path):
    # Parquet strings may hold anything; the hand is scored without its
    # surrounding whitespace, and written so, so the unquoted CSV stays valid.
    import pyarrow.parquet as pq

    path = tmp_path / "games.parquet"
    pq.write_table(pa.table({"Hand1": ["\n22223", "AAAQQ"], "Hand2": ["KKKQQ\r", "QQAAA"]}), path)
    out = tmp_path / "out"
    result = invoke(runner, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    winners, _ = check_accounting(out, json.loads((out / "summary.json").read_text()))
    assert winners.column("hand1").to_pylist() == ["22223", "AAAQQ"]
    assert winners.column("hand2").to_pylist() == ["KKKQQ", "QQAAA"]
