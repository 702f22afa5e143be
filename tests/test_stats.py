"""`pokerpipe stats` and `pokerpipe generate` from the command line."""

from __future__ import annotations

import json

from pipeline.cli import cli


def test_generate_run_stats(runner, tmp_path):
    archive = tmp_path / "deals.csv"
    result = runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "20000", "--players", "3",
                                 "--seed", "4", "-o", str(archive)])
    assert result.exit_code == 0, result.output
    assert archive.read_text().count("\n") == 20001
    out = tmp_path / "out"
    assert runner.invoke(cli, ["run", str(archive), "-o", str(out), "-q"]).exit_code == 0
    result = runner.invoke(cli, ["stats", str(out), "--json", "--plot", str(tmp_path / "fit.png")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    tested = report["holdem: first seat's hand (7 cards) against exact shares"]
    assert sum(row["observed"] for row in tested["table"]) == 20000
    assert tested["p_value"] > 0.001
    every = report["holdem: every hand, players = all"]
    assert sum(row["count"] for row in every["table"]) == 60000
    assert (tmp_path / "fit.png").stat().st_size > 1000
    text = runner.invoke(cli, ["stats", str(out)]).output
    assert "chi-square" in text and "winning hands" in text


def test_stats_needs_a_run_folder(runner, tmp_path):
    result = runner.invoke(cli, ["stats", str(tmp_path)])
    assert result.exit_code == 1 and "summary.json" in result.output


def test_generate_refuses_a_contest_file_for_larvis(runner, tmp_path):
    result = runner.invoke(cli, ["generate", "--game", "larvis", "--rows", "5", "-o", str(tmp_path / "x.in")])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_a_million_seven_card_hands_fit_the_exact_shares(runner, tmp_path):
    # One player per deal: a million independent seven-card hands.
    archive = tmp_path / "hands.parquet"
    assert runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "1000000", "--players", "1",
                               "--seed", "2012", "-o", str(archive)]).exit_code == 0
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(archive), "-o", str(out), "-q", "--format", "parquet"])
    assert result.exit_code == 0, result.output
    report = json.loads(runner.invoke(cli, ["stats", str(out), "--json"]).output)
    tested = report["holdem: first seat's hand (7 cards) against exact shares"]
    assert sum(row["observed"] for row in tested["table"]) == 1_000_000
    assert tested["p_value"] > 0.001
    # Each category on its own: within 4 standard deviations of its exact count
    # (two-sided 6e-5 per category, 6e-4 for the nine together).
    assert all(abs(row["residual"]) < 4 for row in tested["table"]), tested["table"]


def test_progress_line_shows_rows_and_rate_only_when_enabled(capsys):
    from pipeline.cli import _Progress

    shown, quiet = _Progress(enabled=True), _Progress(enabled=False)
    shown(1_234_567, 987_654.3)
    quiet(1_234_567, 987_654.3)
    shown.close()
    quiet.close()
    assert capsys.readouterr().err == "\r1,234,567 rows  987,654 rows/s\n"


def test_no_progress_line_when_stderr_is_not_a_terminal(runner, tmp_path):
    from .conftest import RAW

    result = runner.invoke(cli, ["run", str(RAW / "deals.csv"), "-o", str(tmp_path)])
    assert result.exit_code == 0 and "rows/s" not in result.stderr
