"""`pokerpipe run`: both games end to end, outputs, statistics and bad input."""

from __future__ import annotations

import gzip
import json
import os
import re

import pandas as pd
import pytest

from pipeline.cli import cli
from pipeline.runs.generate import generate

from .conftest import DATA, RAW


def read_winners(outdir, fmt="csv") -> pd.DataFrame:
    path = outdir / f"winners.{fmt}"
    return pd.read_csv(path, dtype=str, keep_default_na=False) if fmt == "csv" else pd.read_parquet(path)


def summary_of(outdir) -> dict:
    return json.loads((outdir / "summary.json").read_text())


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_spec_table_through_run(runner, tmp_path, spec_games, fmt):
    result = runner.invoke(cli, ["run", str(RAW / "games.csv"), "-o", str(tmp_path), "--format", fmt])
    assert result.exit_code == 0, result.output
    winners = read_winners(tmp_path, fmt)
    assert winners["winner"].astype(str).tolist() == [game["Winner"] for game in spec_games]
    assert winners["row"].astype(int).tolist() == list(range(1, len(spec_games) + 1))
    summary = summary_of(tmp_path)
    assert summary["rows_read"] == summary["rows_scored"] == len(spec_games) and summary["rows_rejected"] == 0
    assert summary["expected"]["checked"] == len(spec_games) and summary["expected"]["mismatched"] == 0
    assert summary["outcomes"] == {
        name: sum(g["Winner"] == name for g in spec_games) for name in ("Hand 1", "Hand 2", "Tie")}


def test_larvis_sample_and_category_table(runner, tmp_path):
    result = runner.invoke(cli, ["run", str(DATA / "larvis_games_sample.csv"), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    winners = read_winners(tmp_path)
    categories = pd.read_csv(tmp_path / "categories.csv", dtype={"players": str})
    hands = categories[(categories.players == "all") & (categories.scope == "hand")]
    observed = pd.concat([winners.hand1_category, winners.hand2_category]).value_counts()
    assert dict(zip(hands.category, hands["count"])) == {
        c: int(observed.get(c, 0)) for c in hands.category}
    assert hands["share"].sum() == pytest.approx(1.0)
    ties = (winners.winner == "Tie").sum()
    assert hands["ties"].sum() == 2 * ties
    assert hands["wins"].sum() == len(winners) - ties


def test_a_mismatch_with_the_winner_column_fails(runner, write_csv, tmp_path):
    path = write_csv("games.csv", "Hand1,Hand2,Winner\nAAAQQ,QQAAA,Hand 1\n22345,33456,Hand 2\n")
    result = runner.invoke(cli, ["run", str(path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "1 of 2 rows disagree with the Winner column" in result.output
    summary = summary_of(tmp_path / "out")
    assert summary["expected"]["first"] == [{"row": 1, "expected": "Hand 1", "got": "Tie"}]


def test_bad_rows_are_rejected_and_nothing_is_lost(runner, write_csv, tmp_path):
    path = write_csv("games.csv", "Hand1,Hand2\nAAAQQ,QQAAA\nAAQ,KKKQQ\n\nZZZZZ,22345,9\n"
                                  "22222,33333\nK,\n99752,99742\nAAAQ1,22345\n")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{path}: row 2 (line 3): Hand1 'AAQ': 3 symbols, expected 5" in result.output
    rejects = pd.read_csv(out / "rejects.csv", keep_default_na=False)
    assert rejects.line.tolist() == [3, 5, 6, 7, 9]
    assert "3 fields, expected 2" in rejects.reason[1]
    assert "appears 5 times" in rejects.reason[2]
    assert "unknown symbol '1'" in rejects.reason[4]
    assert rejects.raw[0] == "AAQ,KKKQQ"
    winners = read_winners(out)
    assert winners.winner.tolist() == ["Tie", "Hand 1"]
    summary = summary_of(out)
    assert summary["rows_read"] == summary["rows_scored"] + summary["rows_rejected"] == 7
    assert summary["inputs"][0]["blank_lines"] == 1
    assert sorted(winners.row.astype(int).tolist() + rejects.row.tolist()) == [1, 2, 4, 5, 6, 7, 8]


@pytest.mark.parametrize("text, message", [
    ("", "file is empty"),
    ("Hand1,Hand3\nAAAQQ,QQAAA\n", "cannot tell the game"),
    ("Hand1;Hand2\nAAAQQ;QQAAA\n", "split by ';'"),
])
def test_broken_files_give_one_clear_line(runner, write_csv, tmp_path, text, message):
    path = write_csv("games.csv", text)
    result = runner.invoke(cli, ["run", str(path), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert result.output.count("\n") == 1
    assert not (tmp_path / "out" / "summary.json").exists()


def test_a_missing_file_is_named(runner, tmp_path):
    result = runner.invoke(cli, ["run", str(tmp_path / "nope.csv"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "nope.csv: no such file" in result.output


def test_a_pipe_is_named_as_one_and_not_opened(runner, tmp_path):
    """Reading a pipe's head to learn its format would use up its rows (or wait for a writer)."""
    os.mkfifo(tmp_path / "deals.csv")
    result = runner.invoke(cli, ["run", str(tmp_path / "deals.csv"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "deals.csv: a pipe, not a regular file" in result.output
    assert "save it to a file first" in result.output and not (tmp_path / "out").exists()


def test_a_forced_game_needs_its_columns(runner, tmp_path):
    result = runner.invoke(cli, ["run", str(RAW / "games.csv"), "-o", str(tmp_path), "--game", "holdem"])
    assert result.exit_code == 1 and "needs a board column" in result.output


def test_contest_file_through_run_matches_the_judges(runner, tmp_path):
    result = runner.invoke(cli, ["run", str(DATA / "holdem_contest_sample.in"), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    winners = read_winners(tmp_path)
    expected = (DATA / "holdem_contest_sample.out").read_text().splitlines()
    assert winners.winners.tolist() == expected
    counts = winners.winners.str.split().str.len()
    assert winners.winner_count.astype(int).tolist() == counts.tolist()


def test_holdem_archive_outputs_and_statistics(runner, tmp_path):
    archive = tmp_path / "deals.parquet"
    generate(archive, game="holdem", rows=3000, players=4, seed=5)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(archive), "-o", str(out), "--format", "parquet",
                                 "--batch-rows", "700"])
    assert result.exit_code == 0, result.output
    winners = read_winners(out, "parquet")
    assert winners.row.tolist() == list(range(1, 3001))
    # Every seat of the game is a column, whatever the archive holds: seats 5 to 10 are empty.
    assert [c for c in winners.columns if re.fullmatch(r"p\d+_(?:category|key)", c)] == [
        f"p{s}_{kind}" for s in range(1, 11) for kind in ("category", "key")]
    # The hand-history columns of a hold'em table are there too, empty for a deal archive.
    assert winners[[f"p{s}_player" for s in range(1, 11)]].isna().all().all()
    assert winners[[f"p{s}_{kind}" for s in range(5, 11) for kind in ("category", "key")]].isna().all().all()
    keys = winners[[f"p{s}_key" for s in range(1, 5)]].to_numpy()
    assert (winners.winning_key.to_numpy() == keys.max(axis=1)).all()
    for row in winners.head(200).itertuples():
        best = max(getattr(row, f"p{s}_key") for s in range(1, 5))
        assert row.winners == " ".join(str(s) for s in range(1, 5) if getattr(row, f"p{s}_key") == best)
    ties = pd.read_csv(out / "ties.csv", dtype={"players": str})
    assert ties.set_index("players").loc["all", "tied_deals"] == (winners.winner_count > 1).sum()
    categories = pd.read_csv(out / "categories.csv", dtype={"players": str})
    seat_hands = categories[(categories.players == "all") & (categories.scope == "hand")]
    assert seat_hands["count"].sum() == 4 * 3000
    first = categories[(categories.players == "all") & (categories.scope == "first_seat")]
    assert dict(zip(first.category, first["count"])) == {
        c: int((winners.p1_category == c).sum()) for c in first.category}
    won = categories[(categories.players == "all") & (categories.scope == "winning")]
    assert won["count"].sum() == 3000
    assert dict(zip(won.category, won["count"])) == {
        c: int((winners.winning_category == c).sum()) for c in won.category}


def test_holdem_rejects_and_empty_seats(runner, write_csv, tmp_path):
    path = write_csv("deals.csv", "board,p1,p2,p3\n"
                                  "Ah Kd 2c 3s Xh,As Ad,,Qc Qd\n"
                                  "Ah Kd 2c 3s Xh,Ah Ad,,\n"
                                  "Ah Kd 2c 3s,As Ad,Qc Qd,\n"
                                  "Ah Kd 2c 3s Xh,,,\n"
                                  "Ah Kd 2c 3s 9h,4c 5c,4d 5d,6h 7h\n")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    winners = read_winners(out)
    assert winners.row.tolist() == ["1", "5"]
    assert winners.winners.tolist() == ["1", "1 2"]
    assert winners.p2_key[0] == "" and winners.p2_category[0] == ""
    assert winners.p1_category[1] == winners.p2_category[1] == "Straight"
    rejects = pd.read_csv(out / "rejects.csv")
    assert [r.split(":")[-1].strip() for r in rejects.reason] == [
        "card Ah is dealt twice", "4 cards, expected 5", "every seat is empty"]


def test_several_inputs_folders_globs_and_gzip(runner, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    generate(folder / "a.csv", game="larvis", rows=500, seed=1)
    generate(folder / "b.csv.gz", game="larvis", rows=300, seed=2)
    generate(tmp_path / "c.parquet", game="larvis", rows=200, seed=3)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(folder), str(tmp_path / "*.parquet"), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    summary = summary_of(out)
    assert [i["rows"] for i in summary["inputs"]] == [500, 300, 200]
    assert [i["first_row"] for i in summary["inputs"]] == [1, 501, 801]
    assert all(i["size_bytes"] > 0 for i in summary["inputs"])
    winners = read_winners(out)
    assert winners.row.astype(int).tolist() == list(range(1, 1001))
    with gzip.open(folder / "b.csv.gz", "rt") as handle:
        second = pd.read_csv(handle, dtype=str)
    assert winners.hand1[500:800].tolist() == second.Hand1.tolist()


def test_mixed_games_are_refused(runner, tmp_path):
    generate(tmp_path / "l.csv", game="larvis", rows=5, seed=1)
    generate(tmp_path / "h.csv", game="holdem", rows=5, seed=1)
    result = runner.invoke(cli, ["run", str(tmp_path / "l.csv"), str(tmp_path / "h.csv"),
                                 "-o", str(tmp_path / "out")])
    assert result.exit_code == 1 and "inputs mix games" in result.output


def test_results_do_not_depend_on_batch_size(runner, tmp_path):
    archive = tmp_path / "deals.csv"
    generate(archive, game="holdem", rows=2000, players=7, seed=9)
    outputs = []
    for batch in ("100", "5000"):
        out = tmp_path / f"out{batch}"
        assert runner.invoke(cli, ["run", str(archive), "-o", str(out), "--batch-rows", batch]).exit_code == 0
        outputs.append(((out / "winners.csv").read_bytes(), (out / "categories.csv").read_bytes()))
    assert outputs[0] == outputs[1]


def test_outputs_leave_no_temporary_files(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(RAW / "games.csv"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "categories.csv", "rejects.csv", "summary.json", "ties.csv", "winners.csv"]
