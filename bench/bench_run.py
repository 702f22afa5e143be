"""Benchmark ``pokerpipe run`` end to end: speed, peak memory, and ``generate``.

Run from the project root::

    .venv/bin/python bench/bench_run.py            # full run, about two minutes
    .venv/bin/python bench/bench_run.py --quick    # smoke test, well under a minute

What it prints, one line per figure:

1. End to end on one six-player hold'em CSV archive (1,000,000 deals, fixed
   seed): ``pokerpipe run FILE -o OUT -q`` as a subprocess, with CSV and
   with Parquet output (best of 3 each), in deals per second of wall-clock
   time, process start-up included; the CPU time (user + system) of the
   same best run is shown beside it.  Then the same job "written plainly"
   with pandas and eval7 (read_csv, a Python loop parsing each card with
   ``eval7.Card`` and evaluating each seat with ``eval7.evaluate``, a CSV of
   row,winners written by pandas) on a prefix of the archive, and the ratio
   pokerpipe / plain.  The plain winners must equal pokerpipe's ``winners``
   column on that prefix, in both output formats.
2. Peak resident memory of ``pokerpipe run`` on archives of 500,000 and
   5,000,000 deals, and their ratio: streaming should keep the peak flat.
3. ``pokerpipe generate`` writing 10,000,000 six-player deals to CSV.

Every subprocess is measured by its own fresh ``python -c`` wrapper that
runs it and reports ``resource.getrusage(RUSAGE_CHILDREN)``: wall time, CPU
time and ``ru_maxrss`` of that one child only.

All files live in a temporary folder under /tmp, removed at the end.  The
exit status is non-zero when the plain job and pokerpipe disagree or a
subprocess fails; the aims are reported ("met" / "MISSED"), never enforced.
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import NamedTuple

import numpy as np

SEED = 20240501
PLAYERS = 6
SEATS = tuple(f"p{seat}" for seat in range(1, PLAYERS + 1))
MIB = 1 << 20

#: Aims, reported only.
E2E_AIM = 1_000_000          # six-player deals per second, end to end, one core
MEMORY_CEILING = 1 << 30     # peak RSS at the larger archive
MEMORY_GROWTH = 1.5          # peak(larger) / peak(smaller) must stay below this

#: Measures one command in a fresh interpreter, so RUSAGE_CHILDREN holds that
#: command alone.  The command's own stdout goes to stderr; the wrapper's
#: stdout carries one JSON line.
WRAPPER = """\
import json, resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.run(sys.argv[1:], stdout=sys.stderr).returncode
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": status, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                  "maxrss_kib": usage.ru_maxrss}))
"""


class Measured(NamedTuple):
    wall: float        # seconds, wall clock, from start to exit of the command
    cpu: float         # seconds, user + system, of the command and its threads
    peak_rss: int      # bytes, the command's peak resident set


class Failure(Exception):
    """A check or a subprocess failed; the message says which."""


def measure(command: list[str], *, statuses: tuple[int, ...] = (0,)) -> Measured:
    """Run ``command`` under a fresh wrapper interpreter; raise Failure if it fails.

    A child forked from a large process counts that process's pages in its peak
    RSS until it starts a program afresh: the wrapper is small.  ``statuses``
    are the exit statuses that are not a failure (1: a mismatch a bench reports).
    """
    done = subprocess.run([sys.executable, "-c", WRAPPER, *command],
                          capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.strip():
        raise Failure(f"wrapper failed on {' '.join(command)}:\n{done.stderr.strip()}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["status"] not in statuses:
        raise Failure(f"exit status {report['status']} from {' '.join(command)}:\n"
                      f"{done.stderr.strip()}")
    return Measured(report["wall"], report["cpu"], report["maxrss_kib"] * 1024)


def best_measure(command: list[str], repeats: int, before=None) -> Measured:
    """Fastest (by wall time) of ``repeats`` runs; ``before()`` runs ahead of each."""
    best = None
    for _ in range(repeats):
        if before is not None:
            before()
        result = measure(command)
        if best is None or result.wall < best.wall:
            best = result
    return best


def pokerpipe_command() -> str:
    script = Path(sys.executable).parent / "pokerpipe"
    if not script.exists():
        project = Path(__file__).resolve().parent.parent
        raise Failure(f"{script} not found: install pokerpipe beside this Python: "
                      f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(str(project))}")
    return str(script)


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def rate_text(per_second: float) -> str:
    return f"{per_second / 1e6:6.3f} M deals/s"


def make_archive(path: Path, rows: int) -> float:
    """Write a six-player hold'em CSV of ``rows`` deals; return the seconds taken."""
    from pipeline.runs.generate import generate
    start = time.perf_counter()
    generate(path, game="holdem", rows=rows, players=PLAYERS, seed=SEED)
    return time.perf_counter() - start


# --------------------------------------------------------------------------
# 1. End to end
# --------------------------------------------------------------------------

def plain_job(archive: Path, rows: int, out: Path) -> list[str]:
    """The job written plainly with pandas and eval7: read, loop, write."""
    import eval7
    import pandas as pd

    frame = pd.read_csv(archive, nrows=rows, dtype=str, keep_default_na=False)
    winners = []
    for board_text, *seat_texts in frame[["board", *SEATS]].itertuples(index=False, name=None):
        board = [eval7.Card(text) for text in board_text.split()]
        values = []
        for seat_text in seat_texts:
            hole = [eval7.Card(text) for text in seat_text.split()]
            values.append(eval7.evaluate(board + hole))
        best = max(values)
        winners.append(" ".join(str(seat + 1) for seat, value in enumerate(values)
                                if value == best))
    pd.DataFrame({"row": np.arange(1, len(winners) + 1), "winners": winners}).to_csv(
        out, index=False)
    return winners


def pokerpipe_winners(outdir: Path, output_format: str, rows: int) -> tuple[np.ndarray, list[str]]:
    """The ``row`` and ``winners`` columns of the first ``rows`` rows of a run's output."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    path = outdir / f"winners.{output_format}"
    if output_format == "parquet":
        table = pq.read_table(path, columns=["row", "winners"])
    else:
        table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
            include_columns=["row", "winners"],
            column_types={"row": pa.int64(), "winners": pa.string()},
            strings_can_be_null=False))
    table = table.slice(0, rows)
    return table.column("row").to_numpy(), table.column("winners").to_pylist()


def check_winners(label: str, plain: list[str], rows: np.ndarray, ours: list[str]) -> None:
    if len(ours) != len(plain) or not np.array_equal(rows, np.arange(1, len(plain) + 1)):
        raise Failure(f"{label}: expected rows 1..{len(plain):,}, got {len(ours):,} rows "
                      f"numbered {rows[:3].tolist()}...")
    bad = [i for i, (a, b) in enumerate(zip(plain, ours, strict=True)) if a != b]
    if bad:
        first = bad[0]
        raise Failure(f"{label}: {len(bad):,} of {len(plain):,} rows disagree with the plain "
                      f"pandas + eval7 job; first is row {first + 1}: plain {plain[first]!r}, "
                      f"pokerpipe {ours[first]!r}")


def bench_end_to_end(folder: Path, deals: int, plain_rows: int, repeats: int) -> None:
    archive = folder / f"holdem_{deals}.csv"
    seconds = make_archive(archive, deals)
    print(f"archive: {deals:,} six-player deals, {archive.stat().st_size / MIB:,.1f} MiB CSV, "
          f"seed {SEED} (written in {seconds:.1f} s)")
    tool = pokerpipe_command()
    rates = {}
    for output_format in ("csv", "parquet"):
        outdir = folder / f"out_{output_format}"
        command = [tool, "run", str(archive), "-o", str(outdir), "--format", output_format, "-q"]
        best = best_measure(command, repeats,
                            before=lambda outdir=outdir: shutil.rmtree(outdir, ignore_errors=True))
        rate = rates[output_format] = deals / best.wall
        print(f"{f'pokerpipe run, {output_format} out':<30}{rate_text(rate)}   "
              f"(wall {best.wall:.2f} s, best of {repeats}; cpu {best.cpu:.2f} s = "
              f"{rate_text(deals / best.cpu).strip()}; aim >= {E2E_AIM / 1e6:g} M/s on one core: "
              f"{verdict(rate >= E2E_AIM)})")

    plain_rows = min(plain_rows, deals)
    start = time.perf_counter()
    plain = plain_job(archive, plain_rows, folder / "plain_winners.csv")
    seconds = time.perf_counter() - start
    plain_rate = plain_rows / seconds
    print(f"{'plain pandas + eval7':<30}{rate_text(plain_rate)}   "
          f"(first {plain_rows:,} deals in {seconds:.2f} s, in process, imports excluded; "
          f"pokerpipe csv is {rates['csv'] / plain_rate:.1f}x, parquet "
          f"{rates['parquet'] / plain_rate:.1f}x)")
    for output_format in ("csv", "parquet"):
        rows, ours = pokerpipe_winners(folder / f"out_{output_format}", output_format, plain_rows)
        check_winners(f"winners.{output_format}", plain, rows, ours)
    print(f"{'  check':<30}plain winners == pokerpipe winners (csv and parquet) "
          f"on all {plain_rows:,} rows")
    for output_format in ("csv", "parquet"):
        shutil.rmtree(folder / f"out_{output_format}", ignore_errors=True)
    archive.unlink()
    (folder / "plain_winners.csv").unlink()


# --------------------------------------------------------------------------
# 2. Peak memory
# --------------------------------------------------------------------------

def bench_memory(folder: Path, sizes: tuple[int, int]) -> None:
    tool = pokerpipe_command()
    baseline = measure([tool, "--version"])
    peaks = []
    for deals in sizes:
        archive = folder / f"memory_{deals}.csv"
        make_archive(archive, deals)
        outdir = folder / "out_memory"
        result = measure([tool, "run", str(archive), "-o", str(outdir), "-q"])
        peaks.append(result.peak_rss)
        print(f"{f'peak RSS, {deals:,} deals':<30}{result.peak_rss / MIB:8.1f} MiB   "
              f"(csv {archive.stat().st_size / MIB:,.0f} MiB in, csv out; wall {result.wall:.1f} s, "
              f"{rate_text(deals / result.wall).strip()})")
        shutil.rmtree(outdir)
        archive.unlink()
    small, large = peaks
    ratio = large / small
    print(f"{'peak RSS ratio':<30}{ratio:8.2f} x    ({sizes[1]:,} / {sizes[0]:,} deals; "
          f"aim < {MEMORY_GROWTH:g}x: {verdict(ratio < MEMORY_GROWTH)}; aim < 1 GiB at "
          f"{sizes[1]:,}: {verdict(large < MEMORY_CEILING)}; `pokerpipe --version` alone "
          f"peaks at {baseline.peak_rss / MIB:.0f} MiB)")


# --------------------------------------------------------------------------
# 3. Generate
# --------------------------------------------------------------------------

def bench_generate(folder: Path, deals: int) -> None:
    path = folder / "generated.csv"
    result = measure([pokerpipe_command(), "generate", "--game", "holdem", "--rows", str(deals),
                      "--players", str(PLAYERS), "--seed", str(SEED), "-o", str(path)])
    size = path.stat().st_size
    path.unlink()
    print(f"{'pokerpipe generate, csv':<30}{rate_text(deals / result.wall)}   "
          f"({deals:,} six-player deals, {size / MIB:,.0f} MiB, wall {result.wall:.1f} s, "
          f"cpu {result.cpu:.1f} s, peak RSS {result.peak_rss / MIB:.0f} MiB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    args = parser.parse_args(argv)
    if args.quick:
        e2e, plain_rows, repeats, memory, generated = 100_000, 5_000, 1, (50_000, 500_000), 1_000_000
    else:
        e2e, plain_rows, repeats, memory, generated = (1_000_000, 50_000, 3, (500_000, 5_000_000),
                                                       10_000_000)

    import pyarrow
    print(f"numpy {np.__version__}, pyarrow {pyarrow.__version__}, "
          f"pandas {package_version('pandas')}, eval7 {package_version('eval7')}, "
          f"Python {platform.python_version()}, {platform.machine()}")
    if args.quick:
        print("--quick: small sizes, smoke test only")
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="bench_run.", dir="/tmp"))
    try:
        bench_end_to_end(folder, e2e, plain_rows, repeats)
        bench_memory(folder, memory)
        bench_generate(folder, generated)
    except Failure as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
