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
run 3 (the aim: at least 90 %), "met" / "MISSED", never enforced.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--hands", type=int, default=10_000, help="hands per file")
    parser.add_argument("--rounds", type=int, default=5)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
