"""Benchmark reading PHH hand histories: ``pokerpipe run`` against pokerkit, in the layouts users have.

Run from the project root::

    .venv/bin/python bench/bench_phh.py            # 100,000 hands, 10,000 files
    .venv/bin/python bench/bench_phh.py --hands 20000 --files 1000 --memory-hands 5000 50000

It builds one ``.phhs`` file of ``--hands`` hands by repeating the bundled
Pluribus hands (``data/raw/phh/pluribus``, every hole card known, finishing
stacks recorded) as the tables ``[1]``, ``[2]``, ..., then measures:

1. ``pokerpipe run FILE -o OUT -q`` as a subprocess, wall-clock time with the
   process start included (best of 5, the two alternated), on one core
   (pinned with ``taskset -c 0``, ``--threads 1``) and on all cores, in hands
   per second; the run must read every hand and find no mismatch against the
   recorded chips;
2. pokerkit's ``HandHistory.load_all`` reading the same file in this
   process (one run: it is slow), in hands per second, and the ratio;
3. the peak RSS of a run over archives of the two ``--memory-hands`` sizes;
4. a folder of ``--files`` one-hand ``.phh`` files (the layout of the public
   collections): ``pokerpipe run`` on the folder, process start included,
   beside pokerkit's ``HandHistory.load`` on each file in a running process.

The aims (50,000 hands/s on all cores and 1.4x one core; peak RSS under 512 MiB growing
less than 1.5x) are reported ("met" / "MISSED"), never enforced.  pokerkit
is in the ``bench`` extra; without it its figures are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_run import measure  # noqa: E402  (the sibling script's helper)

ROOT = Path(__file__).resolve().parent.parent
PLURIBUS = ROOT / "data" / "raw" / "phh" / "pluribus"
#: Hands per second, end to end with the three hand tables in Parquet, process start included, all cores.
AIM = 50_000


def build_archive(path: Path, hands: int) -> None:
    """Write ``hands`` hands, the Pluribus sample repeated, as the tables [1] .. [hands]."""
    texts = [p.read_text().strip() for p in sorted(PLURIBUS.rglob("*.phh"))]
    with open(path, "w") as out:
        for number in range(1, hands + 1):
            out.write(f"[{number}]\n{texts[(number - 1) % len(texts)]}\n\n")


def run_pokerpipe(inputs: Path, outdir: Path, *extra: str,
                  prefix: tuple[str, ...] = ()) -> tuple[float, int, dict]:
    """One ``pokerpipe run`` as a subprocess: wall seconds, peak RSS in bytes, the summary."""
    measured = measure([*prefix, sys.executable, "-m", "pipeline", "run", str(inputs), "-o", str(outdir),
                        "-q", *extra])
    return measured.wall, measured.peak_rss, json.loads((outdir / "summary.json").read_text())


#: One core: the process pinned to CPU 0 (its threads default to one), as bench_cores pins it.
ONE_CORE = ("taskset", "-c", "0") if shutil.which("taskset") else ()


#: Runs on one core and on all cores, alternated: a run on this kind of machine can take 10-30 %
#: longer than the one before it, and the best of five moves less from one bench to the next.
REPEATS = 5


def time_one_and_all_cores(inputs: Path, outdir: Path, repeats: int = REPEATS
                           ) -> tuple[list[float], list[float], dict]:
    """The wall seconds of ``repeats`` runs on one core and on all cores, process start included,
    the runs alternated so that both see the same machine; and the summary of the last run."""
    one: list[float] = []
    every: list[float] = []
    summary: dict = {}
    for _ in range(repeats):
        seconds, _, _ = run_pokerpipe(inputs, outdir, *TABLES, "--threads", "1", prefix=ONE_CORE)
        one.append(seconds)
        seconds, _, summary = run_pokerpipe(inputs, outdir, *TABLES)
        every.append(seconds)
    return one, every, summary


#: The runs timed as a user runs an archive into tables: Parquet, the hands, seats and actions
#: tables written beside the winners.
TABLES = ("--format", "parquet")


def time_pokerpipe(inputs: Path, outdir: Path, *extra: str, repeats: int = 3) -> tuple[float, dict]:
    """Best of ``repeats`` wall seconds, process start included, and the summary."""
    best = float("inf")
    summary: dict = {}
    for _ in range(repeats):
        seconds, _, summary = run_pokerpipe(inputs, outdir, *extra)
        best = min(best, seconds)
    return best, summary


def time_pokerkit(archive: Path) -> tuple[float, int] | None:
    try:
        from pokerkit import HandHistory
    except ImportError:
        return None
    started = time.perf_counter()
    with open(archive, "rb") as stream:
        count = sum(1 for _ in HandHistory.load_all(stream))
    return time.perf_counter() - started, count


def time_pokerkit_files(files: list[Path]) -> float | None:
    """pokerkit loading one-hand files one at a time in this (running) process: seconds."""
    try:
        from pokerkit import HandHistory
    except ImportError:
        return None
    started = time.perf_counter()
    for path in files:
        with open(path, "rb") as stream:
            HandHistory.load(stream)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--files", type=int, default=10_000, help="one-hand files in the folder layout")
    parser.add_argument("--memory-hands", type=int, nargs=2, default=(50_000, 500_000),
                        help="the two archive sizes whose peak RSS is compared")
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench_phh_") as folder:
        peaks = []
        for hands in args.memory_hands:
            sized = Path(folder) / f"memory-{hands}.phhs"
            build_archive(sized, hands)
            seconds, peak, summary = run_pokerpipe(sized, Path(folder) / f"memory-{hands}")
            peaks.append(peak)
            print(f"peak RSS, {hands:,} hands ({sized.stat().st_size / (1 << 20):,.0f} MiB): "
                  f"{peak / (1 << 20):,.0f} MiB ({hands / seconds:,.0f} hands/s)")
            failed |= summary["rows_read"] != hands
            sized.unlink()
        growth = peaks[1] / peaks[0]
        print(f"peak RSS growth {args.memory_hands[0]:,} -> {args.memory_hands[1]:,} hands: {growth:.2f}x "
              f"(aim < 1.5x and < 512 MiB: {'met' if growth < 1.5 and peaks[1] < 512 << 20 else 'MISSED'})")

        archive = Path(folder) / "pluribus.phhs"
        build_archive(archive, args.hands)
        size = archive.stat().st_size
        sample = len(list(PLURIBUS.rglob("*.phh")))
        print(f"archive: {args.hands:,} hands, {size / (1 << 20):.1f} MiB, "
              f"the {sample} Pluribus sample hands repeated")
        ones, everys, summary = time_one_and_all_cores(archive, Path(folder) / "out")
        one, seconds = min(ones), min(everys)
        rate = args.hands / seconds
        expected = summary["expected"]
        pinned = "pinned with taskset -c 0, " if ONE_CORE else "taskset not found: not pinned, "
        tables = [name for name in ("hands", "seats", "actions") if name in summary["outputs"]]
        print(f"pokerpipe run --format parquet, writing winners and the {', '.join(tables)} tables:")
        print(f"pokerpipe run, one core ({pinned}--threads 1; end to end, process start included, "
              f"best of {len(ones)}, the runs {one:.2f}-{max(ones):.2f} s): "
              f"{one:.2f} s, {args.hands / one:,.0f} hands/s")
        print(f"pokerpipe run, all cores ({os.cpu_count()}; the runs {seconds:.2f}-{max(everys):.2f} s): "
              f"{seconds:.2f} s, {rate:,.0f} hands/s, "
              f"{one / seconds:.2f}x one core; scored {summary['rows_scored']:,}, without showdown "
              f"{summary['rows_without_showdown']:,}, checked {expected['checked']:,}, "
              f"mismatched {expected['mismatched']:,}")
        print(f"aim {AIM:,} hands/s and 1.4x one core: "
              f"{'met' if rate >= AIM and one / seconds >= 1.4 else 'MISSED'}")
        failed |= summary["rows_read"] != args.hands or expected["mismatched"] != 0 or len(tables) != 3
        pokerkit = time_pokerkit(archive)
        if pokerkit is None:
            print("pokerkit HandHistory.load_all: skipped (pip install pokerkit)")
        else:
            kit_seconds, count = pokerkit
            kit_rate = count / kit_seconds
            print(f"pokerkit HandHistory.load_all (in process): {kit_seconds:.2f} s, {kit_rate:,.0f} hands/s "
                  f"({count:,} hands)")
            print(f"ratio pokerpipe / pokerkit: {rate / kit_rate:.1f}x")
            failed |= count != args.hands
        archive.unlink()

        many = Path(folder) / "many"
        many.mkdir()
        texts = sorted(PLURIBUS.rglob("*.phh"))
        files = []
        for number in range(args.files):
            path = many / f"{number:05d}.phh"
            shutil.copyfile(texts[number % len(texts)], path)
            files.append(path)
        seconds, summary = time_pokerpipe(many, Path(folder) / "many-out", repeats=1)
        print(f"pokerpipe run, a folder of {args.files:,} one-hand files: {seconds:.2f} s, "
              f"{args.files / seconds:,.0f} files/s (process start included)")
        failed |= summary["rows_read"] != args.files
        kit = time_pokerkit_files(files)
        if kit is not None:
            print(f"pokerkit HandHistory.load on the same files (in a running process): {kit:.2f} s, "
                  f"{args.files / kit:,.0f} files/s; pokerpipe / pokerkit {kit / seconds:.2f}x")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
