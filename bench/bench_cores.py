"""Benchmark every core and every worker on one big CSV: `pokerpipe run` beside pyarrow's read rate.

Run from the project root::

    .venv/bin/python bench/bench_cores.py            # full run, a few minutes
    .venv/bin/python bench/bench_cores.py --quick    # smoke test

What it prints, each figure beside its reference measured in the same run:

1. pyarrow's one-thread ``read_csv`` of a 5,000,000-deal six-player CSV
   (every column as text), in deals per second: the reference rate.
2. ``pokerpipe run FILE -o OUT --format parquet -q`` end to end (process
   start included), pinned to one core with ``taskset -c 0`` and on all the
   cores of the machine, as deals/s and as a share of the pyarrow rate, with
   the peak RSS; the outputs of both runs must be identical.
3. What stands in the way of the floor: writing the same winners table
   alone (pyarrow, one thread) on this file.
4. The same job written plainly with pandas and eval7 (bench_run.plain_job)
   on a prefix, and its ratio.
5. The dask engine on one 3,000,000-deal CSV with 1 and 2 workers of a
   LocalCluster (started, and its workers warmed by a 1,000-deal run,
   before the clock runs), and their ratio.

Aims are reported ("met" / "MISSED"), never enforced; the exit status is
non-zero only when a run fails or two runs disagree.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_run import (  # noqa: E402  (the sibling script's helpers)
    MIB,
    PLAYERS,
    SEATS,
    Failure,
    make_archive,
    measure,
    plain_job,
    pokerpipe_command,
    rate_text,
    verdict,
)

ONE_CORE_RATE, ONE_CORE_SHARE = 1_000_000, 0.15
ALL_CORES_RATE, ALL_CORES_SHARE = 1_600_000, 0.25
MEMORY_AIM = 512 * MIB
DASK_SPEEDUP = 1.5


def pyarrow_read_rate(archive: Path, deals: int, repeats: int) -> float:
    """Deals per second of pyarrow's one-thread read_csv, every column as text (best of ``repeats``)."""
    names = ["board", *SEATS]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        table = pacsv.read_csv(archive, read_options=pacsv.ReadOptions(use_threads=False),
                               convert_options=pacsv.ConvertOptions(
                                   column_types={name: pa.string() for name in names}))
        best = min(best, time.perf_counter() - start)
        if table.num_rows != deals:
            raise Failure(f"pyarrow read {table.num_rows:,} rows, expected {deals:,}")
        del table
    return deals / best


def bench_end_to_end(folder: Path, deals: int, repeats: int, plain_rows: int) -> None:
    archive = folder / "deals.csv"
    seconds = make_archive(archive, deals)
    print(f"archive: {deals:,} six-player deals, {archive.stat().st_size / MIB:,.0f} MiB CSV "
          f"(written in {seconds:.1f} s); {os.cpu_count()} cores")
    reference = pyarrow_read_rate(archive, deals, repeats)
    print(f"{'pyarrow read_csv, 1 thread':<34}{rate_text(reference)}   (every column as text; the reference)")
    tool = pokerpipe_command()
    results, rates = {}, {}
    for label, prefix in (("pinned to one core", ["taskset", "-c", "0"]), ("all cores", [])):
        outdir = folder / f"out_{len(prefix)}"
        best = None
        for _ in range(repeats):
            shutil.rmtree(outdir, ignore_errors=True)
            got = measure([*prefix, tool, "run", str(archive), "-o", str(outdir), "--format", "parquet",
                           "-q"])
            best = got if best is None or got.wall < best.wall else best
        rate = deals / best.wall
        share = rate / reference
        aims = (ONE_CORE_RATE, ONE_CORE_SHARE) if prefix else (ALL_CORES_RATE, ALL_CORES_SHARE)
        memory = "" if prefix else f"; peak RSS aim < 512 MiB: {verdict(best.peak_rss < MEMORY_AIM)}"
        print(f"{f'pokerpipe run, {label}':<34}{rate_text(rate)}   ({share:.1%} of pyarrow's read rate; "
              f"wall {best.wall:.2f} s, cpu {best.cpu:.2f} s, peak RSS {best.peak_rss / MIB:.0f} MiB; "
              f"aim >= {aims[0] / 1e6:g} M/s: {verdict(rate >= aims[0])}, >= {aims[1]:.0%}: "
              f"{verdict(share >= aims[1])}{memory})")
        results[label], rates[label] = outdir, rate
    one, every = (pq.read_table(path / "winners.parquet") for path in results.values())
    if not one.equals(every):
        raise Failure("the one-core and all-core runs wrote different winners")
    print(f"{'  check':<34}one core and all cores wrote identical winners ({one.num_rows:,} rows)")

    start = time.perf_counter()
    pq.write_table(one, folder / "again.parquet", compression="zstd", compression_level=1)
    write_rate = deals / (time.perf_counter() - start)
    print(f"{'floor: writing the winners alone':<34}{rate_text(write_rate)}   (pyarrow, zstd level 1; "
          f"reading and writing alone cap the run at "
          f"{rate_text(1 / (1 / reference + 1 / write_rate)).strip()} on one core)")

    start = time.perf_counter()
    plain = plain_job(archive, plain_rows, folder / "plain.csv")
    plain_rate = plain_rows / (time.perf_counter() - start)
    ours = one.column("winners").to_pylist()[:plain_rows]
    if ours != plain:
        raise Failure("pokerpipe and the plain pandas + eval7 job disagree")
    print(f"{'plain pandas + eval7':<34}{rate_text(plain_rate)}   (first {plain_rows:,} deals, winners "
          f"identical; pokerpipe is {rates['pinned to one core'] / plain_rate:.0f}x faster on one core, "
          f"{rates['all cores'] / plain_rate:.0f}x on all cores)")
    shutil.rmtree(folder / "out_0", ignore_errors=True)
    shutil.rmtree(folder / "out_3", ignore_errors=True)
    archive.unlink()


def bench_dask(folder: Path, deals: int, repeats: int) -> None:
    from distributed import Client, LocalCluster

    from pipeline.runs import cluster
    from pipeline.runs.runner import Run

    archive, warm_up = folder / "dask.csv", folder / "warm.csv"
    make_archive(archive, deals)
    make_archive(warm_up, 1_000)
    seconds = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None) as local, Client(local) as client:
            # A long-lived cluster's workers have imported pokerpipe and built its
            # tables: a first small run does that here, before the clock runs.
            cluster.execute(Run([warm_up], folder / f"warm_{workers}"), scheduler=client)
            best = float("inf")
            for attempt in range(repeats):  # best of repeats, as the runs above
                outdir = folder / f"dask_{workers}_{attempt}"
                start = time.perf_counter()
                summary = cluster.execute(Run([archive], outdir, output_format="parquet"), scheduler=client)
                best = min(best, time.perf_counter() - start)
                shutil.rmtree(outdir)
            seconds[workers] = best
        print(f"{f'dask, {workers} worker(s)':<34}{rate_text(deals / seconds[workers])}   "
              f"({summary['cluster']['partitions']} byte-range partitions of one {deals:,}-deal CSV; "
              f"wall {seconds[workers]:.2f} s, best of {repeats}; cluster start and worker warm-up excluded)")
    speedup = seconds[1] / seconds[2]
    print(f"{'dask, 2 workers / 1 worker':<34}{speedup:6.2f} x        (aim >= {DASK_SPEEDUP:g}x: "
          f"{verdict(speedup >= DASK_SPEEDUP)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    args = parser.parse_args(argv)
    deals, dask_deals, repeats, plain_rows = ((200_000, 200_000, 1, 2_000) if args.quick
                                              else (5_000_000, 3_000_000, 2, 20_000))
    print(f"numpy {np.__version__}, pyarrow {pa.__version__}, {PLAYERS} players per deal")
    if shutil.which("taskset") is None:
        print("taskset not found (util-linux): cannot pin to one core", file=sys.stderr)
        return 1
    folder = Path(tempfile.mkdtemp(prefix="bench_cores.", dir="/tmp"))
    started = time.perf_counter()
    try:
        bench_end_to_end(folder, deals, repeats, plain_rows)
        bench_dask(folder, dask_deals, repeats)
    except (Failure, subprocess.CalledProcessError) as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
