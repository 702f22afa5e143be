"""Benchmark an archive of many hand-history files: one run on every core against what the hardware gives.

Run from the project root::

    .venv/bin/python bench/bench_files.py                  # twelve 10,000-hand .phhs files
    .venv/bin/python bench/bench_files.py --files 6 --hands 5000 --rounds 5

It builds a folder of ``--files`` ``.phhs`` files of ``--hands`` hands each
(the bundled Pluribus hands repeated, as ``bench_phh.py`` builds its file),
then times, in ``--rounds`` alternated rounds (the machine's speed drifts
from one minute to the next: each round sees the same machine), every run
with the three hand tables written (``--format parquet``), process start
included:

1. ``pokerpipe run FOLDER`` pinned to one core (``taskset -c 0``,
   ``--threads 1``);
2. ``pokerpipe run FOLDER`` on every core (the default);
3. what the hardware gives: the folder's two halves run by two independent
   processes side by side, each pinned to a core of its own, timed until
   the last ends.

It reports the median of each, in hands per second, and run 2 as a share of
run 3 (the aim: at least 90 %), "met" / "MISSED", never enforced.  Then:

4. memory: one run on every core over ``--memory-files`` such files
   (500,000 hands by default), its total memory sampled every 20 ms as the
   sum of the proportional set size (PSS: a page shared by n processes
   counts 1/n in each) of the run and its worker processes (aim: under
   512 MiB);
5. the dask engine, where dask is installed: ``pokerpipe run FOLDER
   --engine dask`` (a local cluster of a worker per core), and the start and
   stop of such a cluster alone, in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_phh import ONE_CORE, TABLES, build_archive, run_pokerpipe  # noqa: E402  (the sibling script's)

AIM = 0.90  # of two independent processes on the two halves
MEMORY_AIM = 512 << 20  # bytes, all processes of the run together
#: A local dask cluster of a worker per core started and stopped, in a fresh interpreter (seconds).
CLUSTER_START = """\
import time
started = time.perf_counter()
from distributed import Client, LocalCluster
with LocalCluster(threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, Client(cluster):
    up = time.perf_counter() - started
print(up, time.perf_counter() - started)
"""


def build_folder(folder: Path, files: int, hands: int) -> list[Path]:
    """``files`` .phhs files of ``hands`` hands each, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"session-{index:03d}.phhs" for index in range(files)]
    build_archive(paths[0], hands)
    for path in paths[1:]:
        shutil.copyfile(paths[0], path)
    return paths


def side_by_side(halves: list[list[Path]], work: Path) -> float:
    """Wall seconds until two pinned ``pokerpipe run`` processes, one per half, both end."""
    started = time.perf_counter()
    running = []
    for core, half in enumerate(halves):
        outdir = work / f"half-{core}"
        shutil.rmtree(outdir, ignore_errors=True)
        pin = ("taskset", "-c", str(core % (os.cpu_count() or 1))) if ONE_CORE else ()
        running.append(subprocess.Popen([*pin, sys.executable, "-m", "pipeline", "run", *map(str, half),
                                         "-o", str(outdir), "-q", *TABLES, "--threads", "1"]))
    statuses = [process.wait() for process in running]
    if any(statuses):
        raise SystemExit(f"a half's run failed: exit statuses {statuses}")
    return time.perf_counter() - started


def tree(root: int) -> list[int]:
    """``root`` and every process below it."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # ended meanwhile
            continue
        parents.setdefault(parent, []).append(int(stat.parent.name))
    found, waiting = [], [root]
    while waiting:
        pid = waiting.pop()
        found.append(pid)
        waiting += parents.get(pid, [])
    return found


def pss(pid: int) -> int:
    """A process's proportional set size in bytes, 0 once it has ended."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:  # ended between the listing and the read: it holds no memory now
        return 0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def peak_memory(folder: Path, outdir: Path) -> tuple[float, int, int]:
    """Wall seconds, peak total PSS in bytes and most processes at once of a run on every core."""
    shutil.rmtree(outdir, ignore_errors=True)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(folder), "-o", str(outdir), "-q",
                                *TABLES])
    peak, most = 0, 0
    while process.poll() is None:
        pids = tree(process.pid)
        peak, most = max(peak, sum(pss(pid) for pid in pids)), max(most, len(pids))
        time.sleep(0.02)
    if process.returncode:
        raise SystemExit(f"the memory run failed: exit status {process.returncode}")
    return time.perf_counter() - started, peak, most


def dask_figures(folder: Path, work: Path, total: int) -> None:
    """The dask engine on the folder, and a local cluster's start-up alone (when dask is installed)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("  dask engine: skipped (pip install 'dask[distributed]')")
        return
    seconds, _, summary = run_pokerpipe(folder, work / "dask", *TABLES, "--engine", "dask")
    if summary["rows_read"] != total:
        raise SystemExit(f"the dask run read {summary['rows_read']} hands of {total}")
    done = subprocess.run([sys.executable, "-c", CLUSTER_START], capture_output=True, text=True, check=True)
    up, whole = (float(value) for value in done.stdout.split())
    print(f"  --engine dask (local cluster, {summary['cluster']['workers']} workers): {seconds:.2f} s, "
          f"{total / seconds:,.0f} hands/s; a local cluster alone starts in {up:.2f} s "
          f"(start and stop {whole:.2f} s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--hands", type=int, default=10_000, help="hands per file")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--memory-files", type=int, default=50,
                        help="files of --hands hands in the memory run (0: no memory run)")
    args = parser.parse_args()
    total = args.files * args.hands
    with tempfile.TemporaryDirectory(prefix="pokerpipe-bench-files-") as tmp:
        work = Path(tmp)
        paths = build_folder(work / "archive", args.files, args.hands)
        halves = [paths[: len(paths) // 2], paths[len(paths) // 2:]]
        one, every, apart = [], [], []
        summary: dict = {}
        run_pokerpipe(work / "archive", work / "warm", *TABLES)  # files in the page cache, code compiled
        for _ in range(args.rounds):
            seconds, _, _ = run_pokerpipe(work / "archive", work / "one", *TABLES, "--threads", "1",
                                          prefix=ONE_CORE)
            one.append(seconds)
            seconds, _, summary = run_pokerpipe(work / "archive", work / "every", *TABLES)
            every.append(seconds)
            apart.append(side_by_side(halves, work))
        if summary["rows_read"] != total:
            raise SystemExit(f"read {summary['rows_read']} hands of {total}")
        cores = os.cpu_count() or 1
        print(f"{args.files} files of {args.hands:,} hands ({total:,} hands), --format parquet, "
              f"median of {args.rounds} alternated rounds, process start included ({cores} cores):")
        for label, times in (("one core (taskset -c 0, --threads 1)", one),
                             ("all cores (--threads default)", every),
                             ("two pinned processes, half the files each", apart)):
            median = statistics.median(times)
            print(f"  {label}: {median:.2f} s ({min(times):.2f}-{max(times):.2f}), "
                  f"{total / median:,.0f} hands/s")
        share = statistics.median(apart) / statistics.median(every)
        print(f"  all cores / two processes: {share:.0%} (aim {AIM:.0%}: "
              f"{'met' if share >= AIM else 'MISSED'}); all cores / one core: "
              f"{statistics.median(one) / statistics.median(every):.2f}x")
        print(json.dumps({"hands": total, "one": one, "every": every, "apart": apart}))
        dask_figures(work / "archive", work, total)
        if args.memory_files:
            many = args.memory_files * args.hands
            build_folder(work / "memory", args.memory_files, args.hands)
            seconds, peak, most = peak_memory(work / "memory", work / "memory-out")
            print(f"  memory: {args.memory_files} files, {many:,} hands on every core: {seconds:.2f} s "
                  f"({many / seconds:,.0f} hands/s), peak total PSS {peak / (1 << 20):,.0f} MiB over "
                  f"{most} processes (aim under {MEMORY_AIM >> 20} MiB: "
                  f"{'met' if peak < MEMORY_AIM else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
