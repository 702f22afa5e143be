"""The local engine on several threads: the same outputs, byte for byte, whatever the thread count."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from pipeline.cli import cli
from pipeline.runs.generate import generate
from pipeline.runs.threads import available_cores, run_ordered

TIMING = ("elapsed_seconds", "rows_per_second")
#: Seconds a probe interpreter may take to start, import pipeline and answer.
PROBE_TIMEOUT = 120


@pytest.fixture
def archive_with_rejects(tmp_path):
    path = tmp_path / "deals.csv"
    generate(path, game="holdem", rows=30_000, players=5, seed=11)
    lines = path.read_text().splitlines()
    rng = random.Random(3)
    for index in rng.sample(range(1, len(lines)), 200):
        lines[index] = rng.choice(["Ah Ah 2c 3d 4s,5c 6c,,,,", "junk", lines[index].replace(" ", "", 1),
                                   "", "x,y,z,w,v,u,t,s"])
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("output_format", ["csv", "parquet"])
def test_outputs_do_not_depend_on_the_thread_count(runner, tmp_path, archive_with_rejects, output_format):
    outputs = {}
    for threads in (1, 2, 4):
        out = tmp_path / f"out{threads}"
        result = runner.invoke(cli, ["run", str(archive_with_rejects), "-o", str(out), "-q", "--format",
                                     output_format, "--batch-rows", "1000", "--threads", str(threads)])
        assert result.exit_code == 0, result.output
        files = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "summary.json"}
        summary = json.loads((out / "summary.json").read_text())
        for name in TIMING:
            summary.pop(name)
        outputs[threads] = files, summary
    assert outputs[1][1]["rows_rejected"] > 0 and outputs[1][1]["rows_read"] > 29_000
    assert outputs[2] == outputs[1] and outputs[4] == outputs[1]


def test_run_ordered_keeps_the_order_and_uses_several_threads():
    seen_threads = set()
    written = []

    def score(item: int) -> int:
        seen_threads.add(threading.current_thread().name)
        time.sleep(random.random() / 500)
        return item * item

    run_ordered(range(200), score, written.append, threads=4)
    assert written == [i * i for i in range(200)]
    assert len(seen_threads) > 1


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("stage", ["read", "score", "write"])
def test_a_failure_in_any_stage_is_raised_and_nothing_hangs(threads, stage):
    def items():
        for i in range(100):
            if stage == "read" and i == 50:
                raise KeyError("read")
            yield i

    def score(item):
        if stage == "score" and item == 50:
            raise KeyError("score")
        return item

    written = []

    def write(item):
        if stage == "write" and item == 50:
            raise KeyError("write")
        written.append(item)

    with pytest.raises(KeyError, match=stage):
        run_ordered(items(), score, write, threads=threads)
    assert written == list(range(len(written))) and len(written) <= 50


def test_the_default_is_the_cores_this_process_may_use():
    assert available_cores() == len(os.sched_getaffinity(0))


def test_a_process_allowed_one_core_sees_one():
    # A separate interpreter: the affinity of this test process stays as it is.
    probe = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
             "from pipeline.runs.threads import available_cores; print(available_cores())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=PROBE_TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


@pytest.fixture
def score_pools(monkeypatch):
    """The sizes of the scoring thread pools started, in order."""
    sizes: list[int] = []
    start = ThreadPoolExecutor.__init__

    def spy(self, max_workers=None, thread_name_prefix="", *args, **kwargs):
        if thread_name_prefix.startswith("pokerpipe-score"):
            sizes.append(max_workers)
        start(self, max_workers, thread_name_prefix, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "__init__", spy)
    return sizes


@pytest.mark.parametrize(("cores", "option", "pools"), [
    (3, [], [3]),  # no --threads: as many scoring threads as cores
    (1, [], []),  # one core: everything in one thread, no pool
    (3, ["--threads", "2"], [2]),  # --threads wins
    (1, ["--threads", "2"], [2]),
])
def test_the_cli_threads_default_follows_the_cores(runner, tmp_path, monkeypatch, score_pools, cores, option,
                                                   pools):
    source, rows = tmp_path / "deals.csv", 300
    generate(source, game="holdem", rows=rows, players=4, seed=1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    assert available_cores() == cores
    result = runner.invoke(cli, ["run", str(source), "-o", str(tmp_path / "out"), "-q", "--batch-rows", "100",
                                 *option])
    assert result.exit_code == 0, result.output
    assert score_pools == pools
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["rows_scored"] == rows
