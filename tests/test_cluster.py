"""The dask engine on a real LocalCluster: same outputs as the local engine, workers may die.

The engine waits on the cluster without a timeout of its own, so the cluster's start and stop
and each test run under a deadline: a cluster that hangs fails the test instead of the suite.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from distributed import Client, LocalCluster

from pipeline.cli import cli
from pipeline.formats import csv_files, histories, readers
from pipeline.runs import cluster
from pipeline.runs.generate import generate
from pipeline.runs.runner import LocalEngine, Run

from .conftest import RAW, deadline

# Fields of summary.json that differ between engines by design.
ENGINE_FIELDS = {"engine", "cluster", "outputs", "elapsed_seconds", "rows_per_second"}
#: Seconds the two-worker LocalCluster may take to start, or to stop.
CLUSTER_TIMEOUT = 120
#: Seconds one test may take on the cluster (each takes a few) before it counts as hung.
TEST_TIMEOUT = 300


@pytest.fixture(scope="module")
def client():
    cluster = contextlib.ExitStack()
    try:
        with deadline(CLUSTER_TIMEOUT, "starting the LocalCluster"):
            local = cluster.enter_context(LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                       host="127.0.0.1", dashboard_address=None))
            connected = cluster.enter_context(Client(local))
        yield connected
    finally:
        with deadline(CLUSTER_TIMEOUT, "stopping the LocalCluster"):
            cluster.close()


@pytest.fixture(autouse=True)
def no_hang(request):
    """Each test fails after TEST_TIMEOUT seconds (the cluster fixture has its own deadline).

    The tasks of a test that ran out of time may still occupy the workers: they are restarted,
    so that the next tests get the whole cluster."""
    with deadline(TEST_TIMEOUT, request.node.nodeid) as test:
        yield
    if test.expired and "client" in request.fixturenames:
        with deadline(CLUSTER_TIMEOUT, "restarting the LocalCluster's workers"):
            request.getfixturevalue("client").restart()


@pytest.fixture(scope="module")
def holdem_archive(tmp_path_factory) -> Path:
    """Hold'em in every reader: multi-row-group Parquet, CSV with bad rows, gzip CSV, a contest file."""
    folder = tmp_path_factory.mktemp("holdem")
    generate(folder / "a.csv", game="holdem", rows=1500, players=6, seed=1)
    with open(folder / "a.csv", "a") as handle:
        handle.write("\nAh Kd,xx\nAs Ks Qs Js Ts,2c 3c,4d 4h,5s 5d,6c 6d,7h 8h\n\n")
    generate(folder / "b.parquet", game="holdem", rows=4000, players=4, seed=2, batch_rows=500)
    generate(folder / "c.csv.gz", game="holdem", rows=1200, players=9, seed=3)
    generate(folder / "d.in", game="holdem", rows=300, players=3, seed=4)
    return folder


@pytest.fixture(scope="module")
def larvis_archive(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("larvis")
    generate(folder / "a.parquet", game="larvis", rows=3000, seed=5, batch_rows=400)
    generate(folder / "b.csv", game="larvis", rows=1000, seed=6)
    with open(folder / "b.csv", "a") as handle:
        handle.write("AAAQ,22345\n1,2,3,4\n")
    shutil.copy(RAW / "games.csv", folder / "c.csv")  # the spec table, with its Winner column
    return folder


def dask_winners(outdir: Path, fmt: str) -> pd.DataFrame:
    parts = sorted((outdir / "winners").glob(f"part-*.{fmt}"))
    read = (lambda p: pd.read_csv(p, dtype=str, keep_default_na=False)) if fmt == "csv" else pd.read_parquet
    return pd.concat([read(part) for part in parts], ignore_index=True)


def local_winners(outdir: Path, fmt: str) -> pd.DataFrame:
    path = outdir / f"winners.{fmt}"
    return pd.read_csv(path, dtype=str, keep_default_na=False) if fmt == "csv" else pd.read_parquet(path)


def assert_same_run(local: Path, dask: Path, fmt: str) -> dict:
    pd.testing.assert_frame_equal(dask_winners(dask, fmt), local_winners(local, fmt))
    for name in ("rejects.csv", "categories.csv", "ties.csv"):
        assert (dask / name).read_text() == (local / name).read_text(), name
    expected, got = (json.loads((folder / "summary.json").read_text()) for folder in (local, dask))
    assert {k: v for k, v in got.items() if k not in ENGINE_FIELDS} == \
        {k: v for k, v in expected.items() if k not in ENGINE_FIELDS}
    assert got["engine"] == "dask" and got["outputs"]["winners"] == "winners/"
    apart = sum(got.get(f"rows_{name}", 0) for name in histories.SET_APART)  # PHH hands without a showdown
    assert got["rows_read"] == got["rows_scored"] + apart + got["rows_rejected"]
    assert not list((dask / "winners").glob(".*")), "temporary files left behind"
    assert not (dask / "rejects").exists(), "the partitions' reject parts are working files"
    for name in ("hands", "seats", "actions"):  # the hand tables: a folder of parts, the same rows
        if name not in expected["outputs"]:
            assert not (dask / name).exists()
            continue
        assert got["outputs"][name] == f"{name}/"
        parts = sorted((dask / name).glob(f"part-*.{fmt}"))
        read = pd.read_parquet if fmt == "parquet" else (lambda path: pd.read_csv(path, dtype=str))
        whole = read(local / f"{name}.{fmt}")
        pieces = pd.concat([read(part) for part in parts], ignore_index=True)
        assert len(pieces) == len(whole) > 0, name
        pd.testing.assert_frame_equal(pieces.astype(str), whole.astype(str), check_dtype=False)
    return got


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_holdem_archive_matches_the_local_engine(client, holdem_archive, tmp_path, fmt):
    Run([str(holdem_archive)], tmp_path / "local", output_format=fmt).execute()
    summary = cluster.execute(Run([str(holdem_archive)], tmp_path / "dask", output_format=fmt),
                              scheduler=client, partition_rows=1000)
    got = assert_same_run(tmp_path / "local", tmp_path / "dask", fmt)
    assert summary["cluster"]["partitions"] == 3 + 4  # b.parquet's 8 row groups by 2, three text files
    assert got["rows_rejected"] >= 2 and [i["first_row"] for i in got["inputs"]][0] == 1


def test_larvis_archive_with_expected_column_matches(client, larvis_archive, tmp_path):
    Run([str(larvis_archive)], tmp_path / "local").execute()
    cluster.execute(Run([str(larvis_archive)], tmp_path / "dask"), scheduler=client, partition_rows=400)
    got = assert_same_run(tmp_path / "local", tmp_path / "dask", "csv")
    assert got["expected"]["column"] == "Winner" and got["expected"]["checked"] == 40
    assert got["expected"]["mismatched"] == 0
    assert got["rows_rejected"] == 2


def test_cli_engine_dask_with_a_scheduler_address(client, larvis_archive, runner, tmp_path):
    address = client.scheduler.address
    result = runner.invoke(cli, ["run", str(larvis_archive / "b.csv"), "-o", str(tmp_path / "out"),
                                 "--engine", "dask", "--scheduler", address, "--format", "parquet"])
    assert result.exit_code == 0, result.output
    assert "1,002 rows read: 1,000 scored, 2 rejected" in result.output
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["engine"] == "dask" and summary["cluster"]["scheduler"] == address
    assert len(dask_winners(tmp_path / "out", "parquet")) == 1000
    # A second run into the same folder replaces the parts, it does not add to them.
    again = runner.invoke(cli, ["run", str(larvis_archive / "b.csv"), "-o", str(tmp_path / "out"),
                                "--engine", "dask", "--scheduler", address, "--format", "parquet", "-q"])
    assert again.exit_code == 0, again.output
    assert len(dask_winners(tmp_path / "out", "parquet")) == 1000


def test_cli_engine_options_are_checked(runner, larvis_archive, tmp_path, monkeypatch):
    result = runner.invoke(cli, ["run", str(larvis_archive), "-o", str(tmp_path), "--scheduler", "tcp://x:1"])
    assert result.exit_code == 2 and "--scheduler needs --engine dask" in result.output
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = runner.invoke(cli, ["run", str(larvis_archive), "-o", str(tmp_path), "--engine", "dask"])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert result.output.startswith("Error: the dask engine needs dask.distributed (")
    assert result.output.endswith("): pip install 'dask[distributed]'\n"), result.output


def test_bad_input_fails_as_on_the_local_engine(client, tmp_path):
    truncated = tmp_path / "broken.in"
    truncated.write_text("2\nAh Kd 2c 3s 4h\nAs Ad\n")
    with pytest.raises(ValueError, match="file ends where player 2's cards should be"):
        cluster.execute(Run([str(truncated)], tmp_path / "out"), scheduler=client)


def test_a_worker_killed_mid_run_loses_and_duplicates_no_row(client, holdem_archive, tmp_path):
    pids = client.run(os.getpid)
    killed = {}

    def kill_a_busy_worker():
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not killed:
            busy = [worker for worker, keys in client.processing().items()
                    if any(str(key).startswith("pokerpipe-score") for key in keys)]
            if busy:
                time.sleep(0.3)  # inside the task's delay: its part is not published yet
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed["worker"] = busy[0]
            time.sleep(0.05)

    source = holdem_archive / "b.parquet"
    Run([str(source)], tmp_path / "local", output_format="parquet").execute()
    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    try:
        summary = cluster.execute(Run([str(source)], tmp_path / "dask", output_format="parquet"),
                                  scheduler=client, partition_rows=500, task_delay=0.8)
    finally:
        killer.join()
    assert killed, "no worker was killed during the run"
    winners = dask_winners(tmp_path / "dask", "parquet")
    assert winners["row"].tolist() == list(range(1, 4001))
    assert summary["rows_read"] == summary["rows_scored"] == 4000
    assert_same_run(tmp_path / "local", tmp_path / "dask", "parquet")


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory) -> Path:
    """One plain CSV with bad rows, blank lines and every kind of line end, to be cut by byte range."""
    path = tmp_path_factory.mktemp("big") / "deals.csv"
    generate(path, game="holdem", rows=6000, players=6, seed=9)
    lines = path.read_bytes().split(b"\n")
    for index in range(500, len(lines) - 1, 997):
        lines[index] = b"As Ks Qs Js Ts,2c 3c,,,,xx,"
    for index in range(700, len(lines) - 1, 1499):
        lines[index] = b""
    text = b"\n".join(lines[:3000]) + b"\r\n" + b"\r\n".join(lines[3000:4000]) + b"\r" + \
        b"\n".join(lines[4000:])
    path.write_bytes(text)
    return path


@pytest.mark.parametrize("partition_bytes", [40_000, 10**9])
def test_one_csv_cut_into_byte_ranges_gives_the_local_run(client, tmp_path, big_csv, partition_bytes):
    local, dask = tmp_path / "local", tmp_path / "dask"
    Run([big_csv], local, threads=1, batch_rows=700).execute()
    run = Run([big_csv], dask, batch_rows=700)
    partitions = cluster.plan(run, partition_bytes=partition_bytes)
    assert (len(partitions) == 1) == (partition_bytes > big_csv.stat().st_size)
    summary = cluster.execute(run, scheduler=client, partition_bytes=partition_bytes)
    assert summary["cluster"]["partitions"] == len(partitions)
    assert summary["rows_rejected"] > 0
    assert_same_run(local, dask, "csv")


def test_a_stop_signal_during_a_local_cluster_run_prints_one_line(tmp_path):
    """The workers' warning that a task was cancelled printed beside the run's one line."""
    deals, out = tmp_path / "deals.csv", tmp_path / "out"
    generate(deals, game="holdem", rows=200_000, players=6, seed=5)
    process = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(deals), "-o", str(out), "-q",
                                "--engine", "dask"], stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    while not list(tmp_path.glob(".out.pokerpipe-*.new/winners/part-*")) and time.monotonic() < started + 60:
        time.sleep(0.02)  # stopped while partitions run: the first part is written
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM
    assert stderr.splitlines() == ["pokerpipe: stopped by SIGTERM; nothing half-written was published"]
    assert not out.exists()


def test_line_ends_are_counted_alike_however_the_blocks_fall(tmp_path, monkeypatch):
    """The first pass of a byte range numbers its rows by its line ends: a \\r\\n that one block ends
    inside counted as two, and every row after it was numbered one too high."""
    path = tmp_path / "ends.csv"
    path.write_bytes(b"h\r\na\r\nbb\rc\nd\r\n\r\ne\r")
    source = readers.open_source(path)
    size = path.stat().st_size
    for block in range(1, size + 1):
        monkeypatch.setattr(csv_files, "BLOCK_BYTES", block)
        for start in range(size):
            expected = len(re.findall(rb"\r\n|\r|\n", path.read_bytes()[start:]))
            assert csv_files.count_line_ends(source, start, size) == expected, (block, start)


def test_byte_ranges_then_more_files_keep_numbering_rows(client, tmp_path, big_csv, holdem_archive):
    inputs = [big_csv, holdem_archive / "b.parquet", holdem_archive / "a.csv"]
    local, dask = tmp_path / "local", tmp_path / "dask"
    Run(inputs, local).execute()
    cluster.execute(Run(inputs, dask), scheduler=client, partition_bytes=50_000)
    assert_same_run(local, dask, "csv")


def test_phh_hands_on_the_cluster_name_their_file_as_given(client, tmp_path, monkeypatch):
    monkeypatch.chdir(RAW.parent.parent)
    inputs = ["data/raw/phh/pluribus-31.phhs", "data/raw/phh/dwan-ivey-2009.phh"]
    local, dask = tmp_path / "local", tmp_path / "dask"
    Run(inputs, local).execute()
    cluster.execute(Run(inputs, dask), scheduler=client)
    assert_same_run(local, dask, "csv")
    assert set(local_winners(local, "csv")["file"]) == set(inputs)


def test_pokerstars_logs_mixed_with_phh_on_the_cluster_give_the_local_run(client, tmp_path, monkeypatch):
    monkeypatch.chdir(RAW.parent.parent)
    inputs = ["data/raw/pokerstars", "data/raw/phh/pluribus-31.phhs"]
    local, dask = tmp_path / "local", tmp_path / "dask"
    summary = Run(inputs, local).execute()
    cluster.execute(Run(inputs, dask), scheduler=client)
    assert_same_run(local, dask, "csv")
    formats = {entry["format"] for entry in summary["inputs"]}
    assert formats == {"pokerstars", "phh"} and summary["expected"]["checked"] > 0


def test_hands_read_twice_are_set_apart_on_the_cluster_as_on_the_local_engine(client, tmp_path):
    import shutil

    session = sorted((RAW / "pokerstars").glob("*.txt"))[0]
    shutil.copy(session, tmp_path / "a.txt")
    shutil.copy(session, tmp_path / "b.txt")
    inputs = [str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]
    local, dask = tmp_path / "local", tmp_path / "dask"
    summary = Run(inputs, local).execute()
    cluster.execute(Run(inputs, dask), scheduler=client)
    assert_same_run(local, dask, "csv")
    assert summary["set_apart"] == {"duplicate": summary["rows_read"] // 2} != {}


def test_a_folder_of_one_hand_files_is_a_few_partitions_giving_the_local_run(client, tmp_path, monkeypatch):
    from pipeline.formats import readers

    monkeypatch.chdir(RAW.parent.parent)
    monkeypatch.setattr(readers, "GROUP_FILES", 50)  # 151 Pluribus files: four groups of similar work
    local, dask = tmp_path / "local", tmp_path / "dask"
    summary = Run(["data/raw/phh/pluribus"], local).execute()
    cluster.execute(Run(["data/raw/phh/pluribus"], dask), scheduler=client)
    assert_same_run(local, dask, "csv")
    assert [len(entry.get("files", [entry["path"]])) for entry in summary["inputs"]] == [50, 50, 50, 1]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_the_local_worker_processes_and_dask_write_the_same_parts(client, tmp_path, monkeypatch, fmt):
    monkeypatch.chdir(RAW.parent.parent)
    inputs = ["data/raw/pokerstars", "data/raw/phh"]
    local, dask = tmp_path / "local", tmp_path / "dask"
    expected = Run(inputs, local, output_format=fmt).execute(LocalEngine(threads=2, workers=2))
    got = cluster.execute(Run(inputs, dask, output_format=fmt), scheduler=client)
    assert expected["processes"] == 2 and len(expected["inputs"]) > 2
    # A part without a showdown has no categories: pandas reads the parts together as text.
    pd.testing.assert_frame_equal(dask_winners(dask, fmt).astype(str), local_winners(local, fmt).astype(str))
    for name in ("rejects.csv", "categories.csv", "ties.csv"):
        assert (dask / name).read_text() == (local / name).read_text(), name
    assert {k: v for k, v in got.items() if k not in ENGINE_FIELDS} == \
        {k: v for k, v in expected.items() if k not in ENGINE_FIELDS | {"processes"}}
    read = pd.read_parquet if fmt == "parquet" else (lambda path: pd.read_csv(path, dtype=str))
    for name in ("hands", "seats", "actions"):  # one part per input on both engines
        assert got["outputs"][name] == expected["outputs"][name] == f"{name}/"
        parts = sorted(path.name for path in (local / name).iterdir())
        assert parts == sorted(path.name for path in (dask / name).iterdir())
        assert len(parts) == len(expected["inputs"])
        for part in parts:
            pd.testing.assert_frame_equal(read(dask / name / part), read(local / name / part))


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_kept_columns_come_row_for_row_as_on_the_local_engine(client, tmp_path, fmt):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "in"
    folder.mkdir()
    generate(folder / "a.parquet", game="holdem", rows=900, players=3, seed=8, batch_rows=200)
    deals = pq.read_table(folder / "a.parquet")
    ids = pa.array([f"P{i}" for i in range(deals.num_rows)]).dictionary_encode()  # text, as the CSV's
    pq.write_table(deals.append_column("hand_id", ids), folder / "a.parquet", row_group_size=200)
    generate(folder / "b.csv", game="holdem", rows=300, players=2, seed=9)
    lines = (folder / "b.csv").read_text().splitlines()
    (folder / "b.csv").write_text("\n".join([lines[0] + ",hand_id"] + [f"{line},{20_000 + i}" for i, line
                                                                       in enumerate(lines[1:])]) + "\n")
    generate(folder / "c.in", game="holdem", rows=50, players=3, seed=10)  # no hand_id: empty
    options = {"output_format": fmt, "keep": ["hand_id"]}
    Run([str(folder)], tmp_path / "local", **options).execute()
    cluster.execute(Run([str(folder)], tmp_path / "dask", **options), scheduler=client, partition_rows=200)
    assert_same_run(tmp_path / "local", tmp_path / "dask", fmt)
    kept = local_winners(tmp_path / "local", fmt)["hand_id"]
    assert list(kept[:900]) == [f"P{i}" for i in range(900)]
    assert list(kept[900:1200]) == [str(20_000 + i) for i in range(300)]
    assert (kept[1200:].isna() | (kept[1200:] == "")).all() and len(kept) == 1250


def test_players_from_the_dask_parts_equal_one_pass(client, tmp_path):
    from pipeline.runs.players import player_statistics

    inputs = [str(RAW / "pokerstars"), str(RAW / "phh")]
    cluster.execute(Run(inputs, tmp_path / "dask", output_format="parquet"), scheduler=client)
    one = player_statistics(inputs, tmp_path / "one", output_format="parquet", threads=1)
    parts = player_statistics([tmp_path / "dask"], tmp_path / "parts", output_format="parquet")
    assert {k: parts[k] for k in ("hands_read", "hands_used", "players", "allin_ev")} == \
        {k: one[k] for k in ("hands_read", "hands_used", "players", "allin_ev")}
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "parts" / "players.parquet"),
                                  pd.read_parquet(tmp_path / "one" / "players.parquet"))
