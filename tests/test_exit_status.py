"""Exit statuses a script can trust: `--max-rejects N` and `--strict` make a run with too many rejected
rows (or, strict, a skipped input) exit with 3 after publishing every output; the closing line
keeps every count, the audit, and the reasons of the reject lines not shown."""

from __future__ import annotations

import csv
import json
import re

import pytest

from pipeline import cli as command_line
from pipeline.cli import cli

from .conftest import RAW

TOO_MANY = 3


def invoke(runner, *args):
    return runner.invoke(cli, [str(arg) for arg in args])


@pytest.fixture
def deals(tmp_path):
    """Four deals, two of them rejected (a short board, a card dealt twice)."""
    path = tmp_path / "deals.csv"
    path.write_text("board,p1,p2\n"
                    "Ah Kd 2c 3s 9h,As Ad,Kc Ks\n"
                    "Ah Kd 2c,As Ad,Kc Ks\n"
                    "Ah Kd 2c 3s 9h,Ah Ad,Kc Ks\n"
                    "2c 3c 4c 5c 7d,Ac Ad,Kh Kd\n")
    return path


@pytest.mark.parametrize("limit, status", [(None, 0), (2, 0), (5, 0), (1, TOO_MANY), (0, TOO_MANY)])
def test_max_rejects_exits_with_3_after_publishing_everything(runner, tmp_path, deals, limit, status):
    out = tmp_path / "out"
    args = ["run", deals, "-o", out] + ([] if limit is None else ["--max-rejects", limit])
    result = invoke(runner, *args)
    assert result.exit_code == status, result.output
    summary = json.loads((out / "summary.json").read_text())  # published whatever the status
    assert summary["rows_rejected"] == 2 and summary["rows_scored"] == 2
    assert len((out / "winners.csv").read_text().splitlines()) == 1 + 2
    assert len((out / "rejects.csv").read_text().splitlines()) == 1 + 2
    if status:
        [error] = [line for line in result.output.splitlines() if line.startswith("Error:")]
        assert f"2 rows rejected, more than the {limit} allowed" in error


def test_strict_counts_a_skipped_input_too(runner, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "deals.csv").write_text("board,p1,p2\nAh Kd 2c 3s 9h,As Ad,Kc Ks\n")
    out = tmp_path / "out"
    assert invoke(runner, "run", folder, "-o", out, "--strict").exit_code == 0
    (folder / "notes.txt").write_text("not a contest file\n")
    result = invoke(runner, "run", folder, "-o", out, "--strict")
    assert result.exit_code == TOO_MANY, result.output
    assert "1 input skipped" in result.output
    assert json.loads((out / "summary.json").read_text())["skipped_inputs"]
    assert invoke(runner, "run", folder, "-o", out, "--max-rejects", "0").exit_code == 0  # rows only


def test_too_many_rejects_wins_over_a_mismatch(runner, tmp_path):
    games = tmp_path / "games.csv"
    games.write_text("Hand1,Hand2,Winner\nAAAQQ,QQAAA,Hand 1\nAAAAA,22345,Tie\n")  # wrong Winner, bad hand
    out = tmp_path / "out"
    mismatch = invoke(runner, "run", games, "-o", out)
    assert mismatch.exit_code == 1 and "disagree" in mismatch.output
    both = invoke(runner, "run", games, "-o", out, "--max-rejects", "0")
    assert both.exit_code == TOO_MANY, both.output


def test_strict_and_max_rejects_together_are_a_usage_error(runner, tmp_path, deals):
    result = invoke(runner, "run", deals, "-o", tmp_path / "out", "--strict", "--max-rejects", "3")
    assert result.exit_code == 2 and "not both" in result.output
    assert not (tmp_path / "out").exists()


def test_equity_has_the_same_limit(runner, tmp_path, deals):
    out = tmp_path / "out"
    result = invoke(runner, "equity", deals, "-o", out, "--max-rejects", "0")
    assert result.exit_code == TOO_MANY, result.output
    assert json.loads((out / "summary.json").read_text())["rows_rejected"] == 1  # a 3-card board is fine
    assert invoke(runner, "equity", deals, "-o", out, "--strict", "-q").exit_code == TOO_MANY
    assert invoke(runner, "equity", deals, "-o", out, "--max-rejects", "1", "-q").exit_code == 0


def test_the_closing_line_gives_the_audit_and_the_reasons_of_the_unshown_rejects(runner, tmp_path):
    out = tmp_path / "out"
    result = invoke(runner, "run", RAW / "phh", "-o", out)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    lines = result.output.splitlines()
    expected = summary["expected"]
    assert lines[-1].endswith(f"-> {out}; {expected['checked']} checked, {expected['mismatched']} mismatched")
    assert lines[-1].startswith(f"{summary['rows_read']} rows read: {summary['rows_scored']} scored, "
                                f"{summary['rows_without_showdown']} without showdown, ")
    [more] = [line for line in lines if line.startswith("... and ")]
    hidden = summary["rows_rejected"] - command_line.MAX_REJECT_LINES
    assert more.startswith(f"... and {hidden} more rejected rows in {out}/rejects.csv: ")
    counted = re.findall(r"(\d+) (?:for other reasons|[^;]+)", more.split(": ", 1)[1])
    assert sum(map(int, counted)) == hidden
    # The commonest reason first, counted over the rejects.csv rows not shown on stderr.
    with open(out / "rejects.csv", newline="") as handle:
        reasons = [row["reason"] for row in csv.DictReader(handle)][command_line.MAX_REJECT_LINES:]
    kinds = [command_line.reason_kind(reason) for reason in reasons]
    top = max(set(kinds), key=kinds.count)
    assert f"{kinds.count(top)} {top}" in more


def test_the_closing_line_of_a_deal_archive_has_no_audit(runner, tmp_path, deals):
    result = invoke(runner, "run", deals, "-o", tmp_path / "out")
    assert result.output.splitlines()[-1] == f"4 rows read: 2 scored, 2 rejected -> {tmp_path / 'out'}"


def test_the_progress_line_is_cleared_not_left_beside_what_comes_next(capsys):
    progress = command_line._Progress(enabled=True)
    progress.started -= 10
    progress.show("12,345 rows  99,999 rows/s")
    progress.close()
    written = capsys.readouterr().err
    assert written == "\r12,345 rows  99,999 rows/s" + "\r" + " " * 26 + "\r"
    progress.close()  # nothing shown since: nothing to clear
    assert capsys.readouterr().err == ""


def test_a_shorter_progress_line_leaves_nothing_of_a_longer_one(capsys):
    progress = command_line._Progress(enabled=True)
    progress.show("1,000,000 rows  2,000,000 rows/s")
    progress.shown = 0.0  # as if a quarter of a second had passed
    progress.show("9 rows  1 rows/s")
    progress.close()
    written = capsys.readouterr().err
    frames = written.split("\r")[1:]
    assert frames[1].startswith("9 rows  1 rows/s") and len(frames[1]) == len(frames[0])
    assert frames[2] == " " * len(frames[0]) and frames[3] == ""


def test_no_progress_line_after_the_last_clear(capsys):
    # The writer thread may report progress after the main thread cleared the line for a stop or
    # an error: once closed for good, nothing more is shown.
    progress = command_line._Progress(enabled=True)
    progress.show("5 rows  5 rows/s")
    progress.close(final=True)
    progress.show("6 rows  6 rows/s")
    progress.close()
    assert capsys.readouterr().err == "\r5 rows  5 rows/s\r" + " " * 16 + "\r"
