"""``pokerpipe players``: each player's statistics from hand histories or from the tables of runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from pipeline.cli import cli
from pipeline.hands import players as stats
from pipeline.runs.players import Filters, player_statistics
from pipeline.runs.runner import LocalEngine, Run

from .conftest import DATA, RAW

STARS = RAW / "pokerstars"


def table(outdir: Path) -> pa.Table:
    summary = json.loads((outdir / "summary.json").read_text())
    path = outdir / summary["outputs"]["players"]
    return pq.read_table(path) if path.suffix == ".parquet" else pacsv.read_csv(path)


def test_players_from_hand_histories_account_for_every_hand(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(cli, ["players", str(RAW / "phh"), str(STARS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["hands_read"] == \
        summary["hands_used"] + summary["hands_set_apart"] + summary["hands_rejected"]
    assert summary["hands_used"] > 300
    rows = table(out)
    run_out = tmp_path / "run"
    Run([RAW / "phh", STARS], run_out, output_format="parquet").execute(LocalEngine(threads=1))
    hands = pq.read_table(run_out / "hands.parquet")
    counted = pa.compute.is_in(pa.compute.cast(hands.column("outcome"), pa.string()),
                               value_set=pa.array([str(o) for o in stats.COUNTED]))
    used_keys = set(hands.filter(counted).column("hand_key").to_pylist())
    seat_keys = pq.read_table(run_out / "seats.parquet").column("hand_key").to_pylist()
    seats = sum(key in used_keys for key in seat_keys)
    assert sum(rows.column("hands").to_pylist()) == seats  # every seat of a used hand, once
    assert summary["hands_used"] == len(used_keys) and summary["hands_read"] == hands.num_rows
    assert result.output.strip().endswith(f"-> {out}/players.csv")


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_runs_tables_give_what_its_hand_histories_give(tmp_path, fmt):
    inputs = [RAW / "phh", STARS]
    Run(inputs, tmp_path / "run", output_format=fmt).execute(LocalEngine(threads=1))
    Run(inputs, tmp_path / "parts", output_format=fmt).execute(LocalEngine(threads=2, workers=2))
    direct = player_statistics(inputs, tmp_path / "direct", output_format="parquet")
    for name in ("run", "parts"):
        again = player_statistics([tmp_path / name], tmp_path / f"from-{name}", output_format="parquet")
        assert {k: again[k] for k in ("hands_read", "hands_used", "players")} == \
            {k: direct[k] for k in ("hands_read", "hands_used", "players")}
        assert table(tmp_path / f"from-{name}").equals(table(tmp_path / "direct")), name


def test_groups_add_up_to_the_players_totals(tmp_path):
    player_statistics([RAW / "phh" / "pluribus"], tmp_path / "whole", output_format="parquet")
    player_statistics([RAW / "phh" / "pluribus"], tmp_path / "by", output_format="parquet",
                      by=("position", "stakes"))
    whole, grouped = table(tmp_path / "whole"), table(tmp_path / "by")
    assert grouped.num_rows > whole.num_rows
    summed = stats.player_counts(grouped.select(["player", "currency", "tournament", *stats.COUNTS,
                                                 *stats.CHIPS]))
    assert summed.equals(whole.select(summed.column_names))


def test_filters_by_player_date_and_hands(tmp_path):
    everyone = table_of(tmp_path / "all", [STARS])
    player = everyone.column("player").to_pylist()[0]
    one = table_of(tmp_path / "one", [STARS], filters=Filters(players=(player,)))
    assert one.column("player").to_pylist() == [player]
    assert one.column("hands").to_pylist() == [everyone.column("hands").to_pylist()[0]]
    # The sessions of the 16th of April 2020 and those of the 19th.
    import datetime as dt

    early = table_of(tmp_path / "early", [STARS], filters=Filters(until=dt.date(2020, 4, 16)))
    late = table_of(tmp_path / "late", [STARS], filters=Filters(since=dt.date(2020, 4, 17)))
    assert sum(early.column("hands").to_pylist()) + sum(late.column("hands").to_pylist()) == \
        sum(everyone.column("hands").to_pylist())
    assert sum(early.column("hands").to_pylist()) > 0 and sum(late.column("hands").to_pylist()) > 0
    many = table_of(tmp_path / "many", [STARS], min_hands=20)
    assert 0 < many.num_rows < everyone.num_rows and min(many.column("hands").to_pylist()) >= 20


def table_of(out: Path, inputs: list[Path], **options) -> pa.Table:
    player_statistics(inputs, out, output_format="parquet", **options)
    return table(out)


def test_a_hand_met_twice_counts_once(tmp_path):
    session = sorted(STARS.glob("*.txt"))[0]
    folder = tmp_path / "twice"
    folder.mkdir()
    shutil.copy(session, folder / "a.txt")
    shutil.copy(session, folder / "b.txt")
    once = player_statistics([session], tmp_path / "once", output_format="parquet")
    twice = player_statistics([folder], tmp_path / "both", output_format="parquet")
    assert twice["hands_read"] == 2 * once["hands_read"]
    assert twice["set_apart"] == {"duplicate": once["hands_read"]}
    assert table(tmp_path / "both").equals(table(tmp_path / "once"))
    # A run's tables and the same file read again: the hands counted in the first input only.
    Run([session], tmp_path / "run", output_format="parquet").execute(LocalEngine(threads=1))
    mixed = player_statistics([session, tmp_path / "run"], tmp_path / "mixed", output_format="parquet")
    assert mixed["hands_used"] == once["hands_used"]


@pytest.mark.parametrize(("args", "message"), [
    (["data/raw/games.csv"], "not a hand history"),
    (["data/raw/phh", "--since", "2020-05-01", "--until", "2020-04-01"], "is after --until"),
])
def test_inputs_and_options_that_cannot_work_are_one_line(runner, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(RAW.parent.parent)
    result = runner.invoke(cli, ["players", *args, "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_a_deal_runs_folder_is_refused_with_what_to_do(runner, tmp_path):
    Run([RAW / "games.csv"], tmp_path / "games").execute()
    result = runner.invoke(cli, ["players", str(tmp_path / "games"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "without the hand tables: run it over hand histories" in result.output


def test_all_in_ev_keeps_the_chips_and_says_what_it_adjusted(tmp_path):
    summary = player_statistics([STARS], tmp_path / "out", output_format="parquet")
    rows = table(tmp_path / "out").to_pylist()
    assert summary["allin_ev"]["hands_adjusted"] > 0  # the sessions hold all-ins before the river
    assert sum(row["allin_hands"] for row in rows) >= 2 * summary["allin_ev"]["hands_adjusted"]
    # An adjusted hand's EVs sum to its nets: every player's EV together is every player's net.
    total_net = sum(row["net"] for row in rows)
    assert sum(row["allin_ev_net"] for row in rows) == pytest.approx(total_net, abs=1e-6)
    assert all(row["luck"] == pytest.approx(row["net"] - row["allin_ev_net"]) for row in rows)
    assert any(row["luck"] != 0 for row in rows)


def test_the_rows_do_not_depend_on_the_threads_or_the_batches(tmp_path):
    inputs = [RAW / "phh", STARS, DATA / "pokerstars"]
    one = player_statistics(inputs, tmp_path / "one", output_format="parquet", threads=1)
    many = player_statistics(inputs, tmp_path / "many", output_format="parquet", threads=3, batch_rows=7)
    assert one == many
    assert table(tmp_path / "many").equals(table(tmp_path / "one"))
    assert (tmp_path / "many" / "rejects.csv").read_bytes() == (tmp_path / "one" / "rejects.csv").read_bytes()
    rejected = pacsv.read_csv(tmp_path / "one" / "rejects.csv")
    assert one["hands_rejected"] == rejected.num_rows > 0  # a reason holding a comma, quoted


def test_a_players_plot_draws_the_running_results_in_time_order(runner, tmp_path):
    from pipeline.formats import histories, readers
    from pipeline.runs import players as command
    from pipeline.runs.runner import numbered

    out, picture = tmp_path / "out", tmp_path / "pluribus.png"
    result = runner.invoke(cli, ["players", str(RAW / "phh" / "pluribus"), "-o", str(out), "--player",
                                 "Pluribus", "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    [row] = table(out).to_pylist()
    # The same hands read again, kept for the series: the last running net is the player's net.
    counted = command.Tally((), Filters(players=("Pluribus",)), plotted="Pluribus")
    for source in numbered(readers.find_sources([RAW / "phh" / "pluribus"]).sources):
        for batch in readers.read_batches(source, histories.COLUMNS):
            counted.merge(counted.count(batch.hand_tables))
    drawn = command.series("Pluribus", counted.hands_of)
    assert drawn.unit == "big blinds" and len(drawn.net) == row["hands"] == 151
    assert drawn.net[-1] == pytest.approx(row["net_bb"])
    assert drawn.showdown[-1] + drawn.no_showdown[-1] == pytest.approx(drawn.net[-1])
    assert drawn.showdown[-1] != 0 and drawn.no_showdown[-1] != 0


@pytest.mark.parametrize("extra", [[], ["--player", "Pluribus", "--player", "MrWhite"]])
def test_a_plot_draws_exactly_one_player(runner, tmp_path, extra):
    result = runner.invoke(cli, ["players", str(RAW / "phh" / "pluribus"), "-o", str(tmp_path / "out"),
                                 "--plot", str(tmp_path / "p.png"), *extra])
    assert result.exit_code == 2 and "give exactly one --player NAME" in result.output
    assert not (tmp_path / "out").exists() and not (tmp_path / "p.png").exists()


def test_a_plot_file_of_the_users_is_kept_without_force(runner, tmp_path):
    picture = tmp_path / "mine.png"
    picture.write_bytes(b"mine")
    args = ["players", str(RAW / "phh" / "pluribus"), "-o", str(tmp_path / "out"), "--player", "Pluribus",
            "--plot", str(picture)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 2 and "--force" in result.output
    assert picture.read_bytes() == b"mine" and not (tmp_path / "out").exists()
    assert runner.invoke(cli, [*args, "--force"]).exit_code == 0
    assert picture.read_bytes()[:4] == b"\x89PNG"


def test_a_table_without_a_column_it_needs_is_one_line_naming_it(runner, tmp_path):
    Run([STARS], tmp_path / "run", output_format="parquet").execute(LocalEngine(threads=1))
    seats = pq.read_table(tmp_path / "run" / "seats.parquet")
    pq.write_table(seats.drop_columns(["contributed", "hole_cards"]), tmp_path / "run" / "seats.parquet")
    result = runner.invoke(cli, ["players", str(tmp_path / "run"), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "a seats table without the columns contributed, hole_cards" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
