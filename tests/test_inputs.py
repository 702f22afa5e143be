"""`pokerpipe run` inputs: every file read once and all of it, with real links and real folders.

A link to a folder inside a folder input is read as the folder would be; a
loop of links is named and walked once; one file named twice, by any
spelling, is read once; a file of no known format found in a folder or by a
pattern is skipped with a notice and listed in summary.json, while the same
file named on the command line stops the run.  Every notice is one line on
stderr.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pyarrow.csv as pacsv
import pytest

from pipeline.cli import cli
from pipeline.formats import readers
from pipeline.runs.generate import generate
from pipeline.runs.runner import Run

from .conftest import RAW

PHH_HANDS = sorted((RAW / "phh").glob("*.phh"))


def run(runner, *args: str):
    """`pokerpipe run ARGS -q`: -q silences the reject lines, never the notices."""
    result = runner.invoke(cli, ["run", *args, "-q"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    return result


def summary_of(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def read_paths(out: Path) -> list[str]:
    """Every file a run read, in order: an entry of several one-hand files lists its files."""
    return [path for entry in summary_of(out)["inputs"] for path in entry.get("files", [entry["path"]])]


def notices(result) -> list[str]:
    """The lines on stderr (with -q: only the notices, and the error that stopped a run)."""
    return result.stderr.splitlines()


@pytest.fixture
def games(tmp_path) -> Path:
    path = tmp_path / "games.csv"
    generate(path, game="larvis", rows=50, seed=4)
    return path


# --- the order of a folder ------------------------------------------------------------------------
def test_hand_histories_below_a_folder_are_read_in_the_order_of_their_paths(runner, tmp_path):
    """Part by part, as pathlib sorts paths: ``a/x`` before ``a-b/x`` although '-' sorts before '/'."""
    top = tmp_path / "top"
    for folder in ("a-b", "a", "a.b", "B", "a/c"):
        (top / folder).mkdir(parents=True)
        shutil.copyfile(PHH_HANDS[0], top / folder / "hand.phh")
    (top / "a" / "dangling.phh").symlink_to(tmp_path / "nowhere.phh")  # no file there: passed over
    (top / "a" / "self.phh").symlink_to(top / "a" / "self.phh")  # a link to itself: no file either
    result = run(runner, str(top), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    expected = sorted(top.rglob("hand.phh"))
    assert read_paths(tmp_path / "out") == [str(path) for path in expected]
    assert [str(path.relative_to(top).parent) for path in expected] == ["B", "a/c", "a", "a-b", "a.b"]


def test_the_size_of_an_input_is_the_bytes_found(runner, tmp_path):
    """summary.json's ``size_bytes``: a file's bytes, and a group of one-hand files the sum of theirs,
    as they were when the run found them."""
    folder, deals = tmp_path / "hands", tmp_path / "deals.csv"
    folder.mkdir()
    shutil.copy(RAW / "deals.csv", deals)
    for path in PHH_HANDS[:3]:
        shutil.copy(path, folder)
    found = readers.find_sources([str(folder), str(deals)]).sources
    assert [source.size for source in found] == [sum(path.stat().st_size for path in PHH_HANDS[:3]),
                                                 deals.stat().st_size]
    with open(folder / PHH_HANDS[0].name, "a") as grown:  # after the run found it
        grown.write("\n" * 10)
    assert found[0].size == sum(path.stat().st_size for path in PHH_HANDS[:3])
    result = run(runner, str(folder), str(deals), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert [entry["size_bytes"] for entry in summary_of(tmp_path / "out")["inputs"]] == \
        [sum((folder / path.name).stat().st_size for path in PHH_HANDS[:3]), deals.stat().st_size]


@pytest.mark.parametrize("history", [RAW / "phh" / "alice-carol-wikipedia.phh",
                                     sorted((RAW / "pokerstars").glob("*.txt"))[0]])
def test_a_contest_file_beside_hand_histories_is_scored_as_alone(runner, tmp_path, history):
    """Hand histories bring the expected and origin columns; a contest file has none: its rows get
    them empty, and score as they do in a run of their own."""
    alone, mixed = tmp_path / "alone", tmp_path / "mixed"
    assert run(runner, str(RAW / "contest.in"), "-o", str(alone)).exit_code == 0
    result = run(runner, str(RAW / "contest.in"), str(history), "-o", str(mixed))
    assert result.exit_code == 0, result.output
    contest_rows = summary_of(alone)["rows_read"]
    columns = ["row", "winners", "winning_key"]
    by_itself = pacsv.read_csv(alone / "winners.csv").select(columns).to_pylist()
    beside = pacsv.read_csv(mixed / "winners.csv").select([*columns, "expected", "file"]).to_pylist()
    assert [{name: row[name] for name in columns} for row in beside[:contest_rows]] == by_itself
    assert all(row["expected"] in (None, "") and row["file"] in (None, "") for row in beside[:contest_rows])
    assert all(row["file"] == str(history) for row in beside[contest_rows:])
    summary = summary_of(mixed)
    assert summary["rows_read"] == contest_rows + summary["inputs"][1]["rows"]


# --- links to folders ---------------------------------------------------------------------------

@pytest.fixture
def hand_tree(tmp_path) -> tuple[Path, Path]:
    """A folder of hand histories whose subfolder ``linked`` is a symbolic link to a folder elsewhere."""
    top, elsewhere = tmp_path / "top", tmp_path / "elsewhere"
    (top / "real").mkdir(parents=True)
    elsewhere.mkdir()
    shutil.copy(PHH_HANDS[0], top / "real")
    shutil.copy(PHH_HANDS[1], elsewhere)
    (top / "linked").symlink_to(elsewhere, target_is_directory=True)
    return top, elsewhere


def test_a_link_to_a_folder_is_read_as_a_real_subfolder(runner, hand_tree, tmp_path):
    top, _ = hand_tree
    result = run(runner, str(top), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert read_paths(tmp_path / "out") == [str(top / "linked" / PHH_HANDS[1].name),
                                            str(top / "real" / PHH_HANDS[0].name)]
    # A glob of the same tree finds the same files.
    result = run(runner, str(top / "**" / "*.phh"), "-o", str(tmp_path / "globbed"))
    assert result.exit_code == 0, result.output
    assert read_paths(tmp_path / "globbed") == read_paths(tmp_path / "out")
    assert notices(result) == []


def test_a_loop_of_links_is_named_and_walked_once(runner, hand_tree, tmp_path):
    top, elsewhere = hand_tree
    (elsewhere / "back").symlink_to(top, target_is_directory=True)  # top/linked/back is top again
    result = run(runner, str(top), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert len(read_paths(tmp_path / "out")) == 2
    [line] = notices(result)
    assert str(top / "linked" / "back") in line and "loop" in line


def test_two_links_to_one_folder_read_it_once(runner, hand_tree, tmp_path):
    top, elsewhere = hand_tree
    (top / "again").symlink_to(elsewhere, target_is_directory=True)
    result = run(runner, str(top), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert read_paths(tmp_path / "out") == [str(top / "again" / PHH_HANDS[1].name),
                                            str(top / "real" / PHH_HANDS[0].name)]
    [line] = notices(result)
    assert str(top / "linked") in line and "read once" in line


# --- one file, two names ------------------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["absolute", "dot", "symlink", "hardlink", "folder"])
def test_one_file_named_twice_is_read_once(runner, games, tmp_path, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    if spelling == "absolute":
        second = str(games)
    elif spelling == "dot":
        second = "./games.csv"
    elif spelling == "symlink":
        (tmp_path / "alias.csv").symlink_to(games)
        second = "alias.csv"
    elif spelling == "hardlink":
        os.link(games, tmp_path / "same.csv")
        second = "same.csv"
    else:
        second = "."  # the folder holding it
    result = run(runner, "games.csv", second, "-o", "out")
    assert result.exit_code == 0, result.output
    summary = summary_of(tmp_path / "out")
    assert read_paths(tmp_path / "out") == ["games.csv"]
    assert summary["rows_read"] == 50 == summary["rows_scored"] + summary["rows_rejected"]
    [line] = notices(result)
    assert "the same file as games.csv" in line and "read once" in line
    [skipped] = summary["skipped_inputs"]
    assert skipped["reason"].startswith("the same file as games.csv")


# --- files of no known format -------------------------------------------------------------------

def test_a_note_in_a_folder_is_skipped_and_listed(runner, tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    generate(folder / "a.csv", game="larvis", rows=20, seed=1)
    generate(folder / "b.csv", game="larvis", rows=30, seed=2)
    (folder / "notes.txt").write_text("Meeting notes\nre-run the March archive\n")
    (folder / "empty.csv").write_text("")
    (folder / "roster.csv").write_text("name,seat\nalice,1\n")
    result = run(runner, str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    summary = summary_of(tmp_path / "out")
    assert read_paths(tmp_path / "out") == [str(folder / "a.csv"), str(folder / "b.csv")]
    assert summary["rows_read"] == 50
    skipped = {entry["file"]: entry["reason"] for entry in summary["skipped_inputs"]}
    assert set(skipped) == {str(folder / name) for name in ("notes.txt", "empty.csv", "roster.csv")}
    assert "not a contest file" in skipped[str(folder / "notes.txt")]
    assert "no column of a known game" in skipped[str(folder / "roster.csv")]
    lines = notices(result)
    assert len(lines) == 3 and all(line.endswith(": skipped") for line in lines)
    assert any(str(folder / "notes.txt") in line for line in lines)


def test_a_table_with_part_of_a_games_columns_in_a_folder_stops_the_run(runner, tmp_path):
    folder = tmp_path / "archive"
    folder.mkdir()
    generate(folder / "a.csv", game="larvis", rows=20, seed=1)
    (folder / "b.csv").write_text("Hand1,Hand3\nAAAQQ,QQAAA\n")  # a games file with a fault, not a note
    result = run(runner, str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and str(folder / "b.csv") in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_pattern_skips_what_it_matches_of_no_known_format(runner, games, tmp_path):
    (tmp_path / "README").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0binary")
    result = run(runner, str(tmp_path / "*"), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert read_paths(tmp_path / "out") == [str(games)]
    assert [entry["file"] for entry in summary_of(tmp_path / "out")["skipped_inputs"]] == \
        [str(tmp_path / "README")]


def test_a_note_named_on_the_command_line_stops_the_run(runner, games, tmp_path):
    note = tmp_path / "notes.txt"
    note.write_text("Meeting notes\n")
    result = run(runner, str(games), str(note), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert str(note) in result.stderr and "not a contest file" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_folder_of_notes_only_is_one_line(runner, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("hello\n")
    result = run(runner, str(folder), "-o", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].startswith("Error: no input to read")
    assert not (tmp_path / "out").exists()


def test_notices_reach_the_library_caller_not_the_terminal(tmp_path, capsys):
    generate(tmp_path / "a.csv", game="larvis", rows=5, seed=1)
    (tmp_path / "notes.txt").write_text("notes\n")
    heard: list[str] = []
    summary = Run([tmp_path], tmp_path / "out", on_notice=heard.append).execute()
    assert len(heard) == 1 and "notes.txt" in heard[0]
    assert summary["skipped_inputs"] == [{"file": str(tmp_path / "notes.txt"),
                                          "reason": heard[0].split(": ", 1)[1].removesuffix(": skipped")}]
    assert capsys.readouterr() == ("", "")


def test_equity_lists_what_it_skipped(runner, tmp_path):
    folder = tmp_path / "spots"
    folder.mkdir()
    (folder / "spots.csv").write_text("board,p1,p2\nAh Kd 2c,As Ad,Qc Qd\n")
    (folder / "notes.txt").write_text("notes\n")
    result = runner.invoke(cli, ["equity", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert [e["file"] for e in summary_of(tmp_path / "out")["skipped_inputs"]] == [str(folder / "notes.txt")]


# --- quoted values ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, columns", [
    ('Hand1,Hand2\nAAAQQ, "QQAAA"\n  "88822"  ,QQ777\n', ("AAAQQ", "88822")),
    ('board,p1,p2\n "Ah Kd 2c 3s 4h" , "As Ad",Qc Qd\n', ("Ah Kd 2c 3s 4h",)),
], ids=["larvis", "holdem"])
def test_a_quoted_value_with_spaces_around_it_is_read_as_its_text(runner, tmp_path, text, columns):
    path = tmp_path / "in.csv"
    path.write_text(text)
    result = run(runner, str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    summary = summary_of(tmp_path / "out")
    assert summary["rows_read"] == summary["rows_scored"] == len(columns)
    winners = pacsv.read_csv(tmp_path / "out" / "winners.csv")
    first = winners.column(winners.column_names[1]).to_pylist()
    if "hand1" in winners.column_names:
        assert first == list(columns)
        assert winners.column("hand2").to_pylist() == ["QQAAA", "QQ777"]


def test_expand_inputs_still_lists_files(hand_tree):
    top, _ = hand_tree
    assert [p.name for p in readers.expand_inputs([top, top])] == [PHH_HANDS[1].name, PHH_HANDS[0].name]


# --- messages stay one short line ---------------------------------------------------------------

def one_line(result) -> str:
    """The error line of a stopped run: the only line on stderr."""
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: ")
    return line


def test_thousands_of_mixed_inputs_are_cut_to_a_few_and_a_count(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # paths as a user types them: many/g00000.csv
    folder = Path("many")
    folder.mkdir()
    for index in range(3_000):
        (folder / f"g{index:05}.csv").write_text("Hand1,Hand2\nAAAQQ,QQAAA\n")
    for index in range(3_100):
        (folder / f"h{index:05}.csv").write_text("board,p1\nAh Kd 2c 3s 4h,As Ad\n")
    line = one_line(run(runner, str(folder), "-o", "out"))
    assert len(line) < 300, line
    assert "inputs mix games" in line and "2,997 more" in line and "3,097 more" in line


def test_control_characters_in_a_path_are_escaped_and_raw_stays_as_read(runner, tmp_path):
    folder = tmp_path / "odd\nname\x1b[31m"
    folder.mkdir()
    games = folder / "games.csv"
    games.write_bytes(b"Hand1,Hand2\nAAAQQ,QQAAA\nAA\tQQ,KKKQQ\n")
    result = runner.invoke(cli, ["run", str(games), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    reject_line, closing = result.stderr.splitlines()
    assert "odd\\nname\\x1b[31m" in reject_line and "\x1b" not in result.stderr
    assert "'AA\\tQQ'" in reject_line and "rows read" in closing
    [raw] = pacsv.read_csv(tmp_path / "out" / "rejects.csv").column("raw").to_pylist()
    assert raw == "AA\tQQ,KKKQQ"  # exactly as read
    missing = folder / "missing\r.csv"
    line = one_line(run(runner, str(missing), "-o", str(tmp_path / "out2")))
    assert "missing\\r.csv" in line and "\r" not in line


@pytest.mark.parametrize("args, message", [
    (["equity", "--hand", "10h10s", "--hand", "KdKc"], "p1 '10h10s': ten is written T or X, not 10, "
                                                       "and cards are separated by spaces: 'Th Ts'"),
    (["compare", "AA10KK", "QQ777"], "hand1 'AA10KK': ten is written T or X, not 10: 'AATKK'"),
    # With T for 10 these are no hands either (four symbols; five tens): no correction offered.
    (["compare", "10234", "QQ777"], "hand1 '10234': ten is written T or X, not 10"),
    (["compare", "TTTT10", "QQ777"], "hand1 'TTTT10': ten is written T or X, not 10"),
])
def test_a_ten_written_10_says_how_to_write_it(runner, args, message):
    result = runner.invoke(cli, args)
    assert result.exit_code == 2 and result.stderr.splitlines() == [f"Error: {message}"]


def test_a_ten_written_10_in_a_deal_table_is_rejected_with_the_fix(runner, tmp_path):
    path = tmp_path / "deals.csv"
    path.write_text("board,p1,p2\nAh Kd 2c 3s 4h,10h10s,Qc Qd\n")
    assert run(runner, str(path), "-o", str(tmp_path / "out")).exit_code == 0
    [reason] = pacsv.read_csv(tmp_path / "out" / "rejects.csv").column("reason").to_pylist()
    assert "ten is written T or X" in reason and "'Th Ts'" in reason


def test_a_parquet_list_column_says_it_is_a_list(runner, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "deals.parquet"
    pq.write_table(pa.table({"board": ["Ah Kd 2c 3s 4h"], "p1": [["As", "Ad"]]}), path)
    line = one_line(run(runner, str(path), "-o", str(tmp_path / "out")))
    assert f"{path}: column 'p1' is a list" in line and "expected text (string)" in line
    assert "Unsupported cast" not in line
