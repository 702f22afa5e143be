"""Benchmark reading a PHH archive: ``pokerpipe run`` against pokerkit's ``HandHistory.load_all``.

Run from the project root::

    .venv/bin/python bench/bench_phh.py            # 100,000 hands
    .venv/bin/python bench/bench_phh.py --hands 20000

It builds one ``.phhs`` file of ``--hands`` hands by repeating the bundled
Pluribus hands (``data/raw/phh/pluribus``, every hole card known, finishing
stacks recorded) as the tables ``[1]``, ``[2]``, ..., then times on that
same file:

1. ``pokerpipe run FILE -o OUT -q`` as a subprocess, wall-clock time with the
   process start included (best of 3), in hands per second; the run must
   read every hand and find no mismatch against the recorded chips;
2. pokerkit's ``HandHistory.load_all`` reading the same file in this
   process (one run: it is slow), in hands per second;

and prints the ratio.  The aim (50,000 hands per second end to end) is
reported ("met" / "MISSED"), never enforced.  pokerkit is in the ``bench``
extra; without it the second figure is skipped.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLURIBUS = ROOT / "data" / "raw" / "phh" / "pluribus"
AIM = 50_000  # hands per second, end to end, process start included


def build_archive(path: Path, hands: int) -> None:
    """Write ``hands`` hands, the Pluribus sample repeated, as the tables [1] .. [hands]."""
    texts = [p.read_text().strip() for p in sorted(PLURIBUS.rglob("*.phh"))]
    with open(path, "w") as out:
        for number in range(1, hands + 1):
            out.write(f"[{number}]\n{texts[(number - 1) % len(texts)]}\n\n")


def time_pokerpipe(archive: Path, outdir: Path, repeats: int = 3) -> tuple[float, dict]:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "run", str(archive), "-o", str(outdir), "-q"],
                       check=True, cwd=ROOT)
        best = min(best, time.perf_counter() - started)
    return best, json.loads((outdir / "summary.json").read_text())


def time_pokerkit(archive: Path) -> tuple[float, int] | None:
    try:
        from pokerkit import HandHistory
    except ImportError:
        return None
    started = time.perf_counter()
    with open(archive, "rb") as stream:
        count = sum(1 for _ in HandHistory.load_all(stream))
    return time.perf_counter() - started, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_phh_") as folder:
        archive = Path(folder) / "pluribus.phhs"
        build_archive(archive, args.hands)
        size = archive.stat().st_size
        sample = len(list(PLURIBUS.rglob("*.phh")))
        print(f"archive: {args.hands:,} hands, {size / (1 << 20):.1f} MiB, "
              f"the {sample} Pluribus sample hands repeated")
        seconds, summary = time_pokerpipe(archive, Path(folder) / "out")
        rate = args.hands / seconds
        expected = summary["expected"]
        print(f"pokerpipe run (end to end, process start included, best of 3): {seconds:.2f} s, "
              f"{rate:,.0f} hands/s; scored {summary['rows_scored']:,}, without showdown "
              f"{summary['rows_without_showdown']:,}, checked {expected['checked']:,}, "
              f"mismatched {expected['mismatched']:,}")
        print(f"aim {AIM:,} hands/s: {'met' if rate >= AIM else 'MISSED'}")
        failed = summary["rows_read"] != args.hands or expected["mismatched"] != 0
        pokerkit = time_pokerkit(archive)
        if pokerkit is None:
            print("pokerkit HandHistory.load_all: skipped (pip install 'pokerpipe[bench]')")
        else:
            kit_seconds, count = pokerkit
            kit_rate = count / kit_seconds
            print(f"pokerkit HandHistory.load_all (in process): {kit_seconds:.2f} s, {kit_rate:,.0f} hands/s "
                  f"({count:,} hands)")
            print(f"ratio pokerpipe / pokerkit: {rate / kit_rate:.1f}x")
            failed |= count != args.hands
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
