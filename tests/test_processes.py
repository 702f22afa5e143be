"""The local engine's worker processes: the rows of one thread, and no process left behind.

Worker processes are real forks and every fault is real: a worker killed
with SIGKILL, Ctrl-C sent to the whole process group as a terminal sends
it, SIGTERM to the run alone, an address-space limit set in the child.
Every process runs under a timeout, so a hang fails the test.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.runs import runner
from pipeline.runs.runner import LocalEngine, Run

from .conftest import DATA, RAW

TIMEOUT = 120  # seconds for any one process; each takes a few
MIB = 1 << 20
#: Fields of summary.json that differ by design between a run on threads and one on workers.
BY_DESIGN = {"processes", "outputs", "elapsed_seconds", "rows_per_second"}
HAND_TABLES = ("hands", "seats", "actions")

@pytest.fixture(scope="module")
def histories(tmp_path_factory) -> Path:
    """Hand histories of every kind: PHH files and archives, one-hand files, PokerStars files with
    rejected and set-apart hands, and a PokerStars file twice (its hands are duplicates)."""
    folder = tmp_path_factory.mktemp("histories")
    shutil.copytree(RAW / "phh", folder / "phh")
    shutil.copytree(RAW / "pokerstars", folder / "pokerstars")
    shutil.copytree(DATA / "pokerstars", folder / "stars-cases")
    for path in (DATA / "phh").glob("*.phhs"):
        shutil.copy(path, folder / path.name)
    again = sorted((RAW / "pokerstars").glob("*.txt"))[0]
    shutil.copy(again, folder / "zz-again.txt")
    return folder


def run(inputs: list[Path], out: Path, *, fmt: str, threads: int, workers: int | None,
        rejected: list[str] | None = None) -> dict:
    done = Run(inputs, out, output_format=fmt, threads=threads,
               on_reject=None if rejected is None else lambda line, reason: rejected.append(line))
    return done.execute(LocalEngine(threads=threads, workers=workers))


def table_text(outdir: Path, entry: str) -> bytes:
    """A CSV table as one file's bytes: a folder of parts is its parts in name order, one header."""
    path = outdir / entry
    if not entry.endswith("/"):
        return path.read_bytes()
    parts = sorted(path.glob("part-*.csv"))
    assert parts, f"no parts in {path}"
    first, *rest = (part.read_bytes() for part in parts)
    return first + b"".join(text.split(b"\n", 1)[1] for text in rest)


def parquet_table(outdir: Path, entry: str):
    path = outdir / entry
    if not entry.endswith("/"):
        return pq.read_table(path)
    return pa.concat_tables([pq.read_table(part) for part in sorted(path.glob("part-*.parquet"))])


def assert_same_outputs(one: Path, many: Path, fmt: str) -> None:
    expected, got = (json.loads((folder / "summary.json").read_text()) for folder in (one, many))
    for name in ("winners", *HAND_TABLES):
        if fmt == "csv":
            assert table_text(many, got["outputs"][name]) == table_text(one, expected["outputs"][name]), name
        else:
            table = parquet_table(many, got["outputs"][name])
            assert table.equals(parquet_table(one, expected["outputs"][name])), name
    for name in ("rejects.csv", "categories.csv", "ties.csv"):
        assert (many / name).read_bytes() == (one / name).read_bytes(), name
    assert {k: v for k, v in got.items() if k not in BY_DESIGN} == \
        {k: v for k, v in expected.items() if k not in BY_DESIGN}


@pytest.fixture(scope="module", params=["csv", "parquet"])
def one_thread(request, histories, tmp_path_factory) -> tuple[str, Path, dict, list[str]]:
    """The run of ``histories`` on one thread, in each format: what the workers must give."""
    fmt, rejected = request.param, []
    out = tmp_path_factory.mktemp(f"one-{fmt}") / "out"
    return fmt, out, run([histories], out, fmt=fmt, threads=1, workers=0, rejected=rejected), rejected


@pytest.mark.parametrize("workers", [2, 4])
def test_workers_give_the_rows_of_one_thread(histories, one_thread, tmp_path, workers):
    fmt, one, expected, one_rejects = one_thread
    many_rejects: list[str] = []
    got = run([histories], tmp_path / "many", fmt=fmt, threads=workers, workers=workers,
              rejected=many_rejects)
    assert "processes" not in expected and got["processes"] == workers
    # What makes the comparison worth making: rejected, set-apart and duplicate hands, many inputs.
    assert expected["rows_rejected"] > 0 and expected["set_apart"]["duplicate"] > 0
    assert len(expected["inputs"]) > 20
    assert expected["rows_read"] == sum(entry["rows"] for entry in expected["inputs"])
    assert_same_outputs(one, tmp_path / "many", fmt)
    assert many_rejects == one_rejects and len(one_rejects) == expected["rows_rejected"]  # once, in row order
    for name in HAND_TABLES:
        parts = sorted(p.name for p in (tmp_path / "many" / name).iterdir())
        assert parts == [f"part-{place:05d}.{fmt}" for place in range(len(got["inputs"]))]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many"]  # no staging folder left
    assert not (tmp_path / "many" / runner.SPILLS_FOLDER).exists()  # nor the workers' spills


def test_rows_continue_from_file_to_file_on_workers(histories, tmp_path):
    got = run([histories], tmp_path / "many", fmt="parquet", threads=2, workers=2)
    first_rows = [entry["first_row"] for entry in got["inputs"]]
    assert first_rows[0] == 1 and first_rows == sorted(first_rows) and len(set(first_rows)) == len(first_rows)
    rows = pq.read_table(tmp_path / "many" / "winners.parquet").column("row").to_pylist()
    assert rows == sorted(rows) and rows[-1] <= got["rows_read"]


def test_workers_start_only_where_they_pay(histories, tmp_path, monkeypatch):
    def workers(inputs, threads=2, **kwargs):
        return runner.worker_processes(Run(inputs, tmp_path / "out"), threads, **kwargs)

    assert runner.WORKER_MIN_BYTES > sum(p.stat().st_size for p in histories.rglob("*") if p.is_file())
    assert workers([histories]) == 0  # a few small files
    assert workers([histories], asked=3) == 3 and workers([histories], asked=1) == 0
    monkeypatch.setattr(runner, "WORKER_MIN_BYTES", 0)
    assert workers([histories]) == 2 and workers([histories], threads=4) == 4
    assert workers([histories], threads=1) == 0  # one core
    assert workers([RAW / "phh" / "pluribus-31.phhs"]) == 0  # one file: threads share it
    one_dominates = [RAW / "phh" / "pluribus-31.phhs", RAW / "phh" / "dwan-ivey-2009.phh"]
    assert workers(one_dominates) == 0
    shutil.copy(RAW / "deals.csv", tmp_path / "more-deals.csv")
    assert workers([RAW / "deals.csv", tmp_path / "more-deals.csv"]) == 0  # threads score at numpy's pace
    assert workers([RAW / "deals.csv", RAW / "phh"]) == 0


# --- faults: real processes, real signals -------------------------------------------


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory) -> Path:
    """Four .phhs files of 10,000 hands each (the Pluribus hands repeated): a few seconds' run."""
    folder = tmp_path_factory.mktemp("big")
    texts = [p.read_text().strip() for p in sorted((RAW / "phh" / "pluribus").rglob("*.phh"))]
    with open(folder / "a.phhs", "w") as out:
        for number in range(1, 10_001):
            out.write(f"[{number}]\n{texts[(number - 1) % len(texts)]}\n\n")
    for name in ("b", "c", "d"):
        shutil.copy(folder / "a.phhs", folder / f"{name}.phhs")
    return folder


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def start_run(folder: Path, out: Path, *extra: str, **options) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(folder), "-o", str(out), "-q",
                             "--threads", "2", "--format", "parquet", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options)


def wait_for_workers(process: subprocess.Popen, count: int = 2) -> list[int]:
    deadline = time.monotonic() + TIMEOUT
    while len(found := children(process.pid)) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.01)
    return found


def gone(pids: list[int]) -> bool:
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_a_killed_worker_fails_the_run_with_one_line_and_publishes_nothing(big_folder, tmp_path):
    out = tmp_path / "out"
    process = start_run(big_folder, out)
    workers = wait_for_workers(process)
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 1
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "worker process reading" in lines[0] and "killed by SIGKILL" in lines[0], stderr
    assert lines[0].endswith("the run published nothing")
    assert gone(workers)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no output, no staging folder


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_ends_every_worker_and_publishes_nothing(big_folder, tmp_path, stop):
    out = tmp_path / "out"
    # Ctrl-C reaches the whole process group, as a terminal sends it; SIGTERM the run alone.
    process = start_run(big_folder, out, start_new_session=True)
    workers = wait_for_workers(process)
    if stop == signal.SIGINT:
        os.killpg(process.pid, stop)
    else:
        os.kill(process.pid, stop)
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 128 + stop
    assert stderr.strip() == f"pokerpipe: stopped by {stop.name}; nothing half-written was published"
    assert gone(workers)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_workers_run_in_bounded_memory_under_an_address_space_limit(big_folder, tmp_path):
    # Each process is held to the limit (ulimit -v): room for the program and a batch, not for
    # a whole file's tables.
    imported = subprocess.run([sys.executable, "-c", "import pipeline.cli, pipeline.runs.runner; "
                               "print(open('/proc/self/statm').read().split()[0])"],
                              capture_output=True, text=True, timeout=TIMEOUT, check=True)
    limit = int(imported.stdout) * os.sysconf("SC_PAGE_SIZE") // MIB + 400

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit * MIB, limit * MIB))

    out = tmp_path / "out"
    process = start_run(big_folder, out, preexec_fn=limited, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["processes"] == 2 and summary["rows_read"] == 40_000


def test_workers_die_with_a_run_killed_outright(big_folder, tmp_path):
    # SIGKILL cannot be caught: the kernel ends the workers (PR_SET_PDEATHSIG), and the next
    # run into the same OUTDIR removes the dead run's staging folder.
    out = tmp_path / "out"
    process = start_run(big_folder, out)
    workers = wait_for_workers(process)
    process.kill()
    process.communicate(timeout=TIMEOUT)
    assert gone(workers)
    again = subprocess.run([sys.executable, "-m", "pipeline", "run", str(RAW / "phh" / "pluribus-31.phhs"),
                            "-o", str(out), "-q"], capture_output=True, text=True, timeout=TIMEOUT)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
