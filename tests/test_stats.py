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
