"""Benchmark rejecting lines that are not UTF-8 against rejecting lines for another reason.

Run from the project root::

    .venv/bin/python bench/bench_bad_bytes.py                 # 160,000 bad lines of each kind
    .venv/bin/python bench/bench_bad_bytes.py --lines 40000

It writes two hold'em deal files of ``--lines`` data lines each, every one
of them bad:

1. ``cp1252.csv``: each line ends in the name ``José`` written in cp1252
   (the byte 0xE9, not UTF-8), so the reader rejects it for its bytes;
2. ``fields.csv``: the same line with ``José`` in UTF-8 as a field of its
   own, one field too many, so the reader rejects it for its field count;

then times ``pokerpipe run FILE -o OUT -q`` on each as a subprocess
(wall-clock, process start included, best of ``--repeats``), checks that
every line was rejected, and prints both times and their ratio.  The aim (a
line that is not UTF-8 costs at most twice a line rejected for another
reason) is reported ("met" / "MISSED"), never enforced.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_run import measure  # noqa: E402  (the sibling script's helper)

ROOT = Path(__file__).resolve().parent.parent
AIM = 2.0  # at most this ratio of not-UTF-8 time to other-reason time
HEADER = b"board,p1,p2,p3\n"
LINE = b"Ad Td 2s 4s 2c,6s Ac,4c 4h,Jc Jh"


def write_files(folder: Path, lines: int) -> tuple[Path, Path]:
    """The two files of ``lines`` bad lines each: not UTF-8, and one field too many."""
    cp1252 = folder / "cp1252.csv"
    fields = folder / "fields.csv"
    cp1252.write_bytes(HEADER + (LINE + " José\n".encode("cp1252")) * lines)  # four fields
    fields.write_bytes(HEADER + (LINE + ",José\n".encode()) * lines)  # five fields
    return cp1252, fields


def time_run(path: Path, outdir: Path, repeats: int) -> tuple[float, dict]:
    """Best wall-clock time of ``pokerpipe run`` on ``path``, and its summary."""
    command = [sys.executable, "-m", "pipeline", "run", str(path), "-o", str(outdir), "-q"]
    best = min(measure(command).wall for _ in range(repeats))
    return best, json.loads((outdir / "summary.json").read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=160_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_bad_bytes_") as folder:
        cp1252, fields = write_files(Path(folder), args.lines)
        failed = False
        times = {}
        for name, path in (("not UTF-8 (cp1252)", cp1252), ("one field too many", fields)):
            seconds, summary = time_run(path, Path(folder) / "out", args.repeats)
            times[name] = seconds
            print(f"{args.lines:,} lines {name}: {seconds:.2f} s (best of {args.repeats}), "
                  f"{summary['rows_rejected']:,} rejected, {summary['rows_scored']:,} scored")
            failed |= summary["rows_rejected"] != args.lines or summary["rows_scored"] != 0
        ratio = times["not UTF-8 (cp1252)"] / times["one field too many"]
        print(f"ratio not UTF-8 / other reason: {ratio:.2f} "
              f"(aim at most {AIM:g}: {'met' if ratio <= AIM else 'MISSED'})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
