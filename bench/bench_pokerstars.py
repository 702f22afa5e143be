"""Benchmark reading PokerStars logs: ``pokerpipe run`` against pokerkit's ``PokerStarsParser``.

Run from the project root::

    .venv/bin/python bench/bench_pokerstars.py            # 100,000 hands
    .venv/bin/python bench/bench_pokerstars.py --hands 20000

It builds one session file of ``--hands`` hands by repeating the bundled
sessions (``data/raw/pokerstars``: real hands, 35 showdowns in 125) with fresh
hand ids, then times on that same file:

1. ``pokerpipe run FILE -o OUT -q`` as a subprocess, wall-clock time with the
   process start included (best of 3), in hands per second, with the peak RSS
   of that run (measured by a fresh wrapper process, so the figure is the
   run's own); the run must read every hand and find no mismatch against the
   recorded pots; then the same on a file of one hand: what the process
   start and the one-time costs take (the imports, the first calls), and
   the rate of the hands without them;
2. pokerkit's ``PokerStarsParser`` on the first ``--kit-hands`` hands of the same
   file, in this process (it is slow), in hands per second; then on the bundled
   hard case of a hold'em hand run twice, where it stops with an exception:
   how far it got is reported.

The aim (30,000 hands per second end to end) is reported ("met" / "MISSED"),
never enforced.  pokerkit is in the ``bench`` extra; without it the second
figure is skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_run import measure  # noqa: E402  (the sibling script's helper)

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = ROOT / "data" / "raw" / "pokerstars"
RUN_TWICE = ROOT / "tests" / "data" / "pokerstars" / "CashGame_RunItTwiceTests_RunItTwice2.txt"
AIM = 30_000  # hands per second, end to end, process start included
MIB = 1 << 20
HEADER = re.compile(r"^PokerStars (?:Zoom )?Hand #[0-9]+:", re.MULTILINE)

def session_hands() -> list[str]:
    """Every hand of the bundled sessions, as text, each with a blank line after it."""
    hands = []
    for path in sorted(SESSIONS.glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig")
        starts = [m.start() for m in HEADER.finditer(text)] + [len(text)]
        hands += [text[a:b].rstrip("\n") + "\n\n\n" for a, b in zip(starts[:-1], starts[1:])]
    return hands


def build_archive(path: Path, hands: int) -> None:
    """Write ``hands`` hands, the sessions repeated, numbered with fresh hand ids."""
    texts = session_hands()
    with open(path, "w", encoding="utf-8") as out:
        for number in range(hands):
            hand_id = 300_000_000_000 + number
            out.write(HEADER.sub(f"PokerStars Hand #{hand_id}:", texts[number % len(texts)], count=1))


def time_pokerpipe(archive: Path, outdir: Path, repeats: int = 3) -> tuple[float, int, dict]:
    """Best wall time of ``repeats`` runs, the peak RSS (bytes) of that run, and its summary."""
    # As a user runs an archive into tables: Parquet, the hand tables beside the winners.
    command = [sys.executable, "-m", "pipeline", "run", str(archive), "-o", str(outdir), "-q", "--format",
               "parquet"]
    best = min((measure(command, statuses=(0, 1)) for _ in range(repeats)),  # 1: a mismatch, reported
               key=lambda measured: measured.wall)
    return best.wall, best.peak_rss, json.loads((outdir / "summary.json").read_text())


def time_pokerkit(archive: Path, hands: int) -> tuple[float, int] | None:
    """pokerkit's PokerStarsParser on the first ``hands`` hands: seconds and hands parsed."""
    try:
        from pokerkit import PokerStarsParser
    except ImportError:
        return None
    text = archive.read_text(encoding="utf-8")
    starts = [m.start() for m in HEADER.finditer(text)]
    text = text[:starts[hands]] if hands < len(starts) else text
    started = time.perf_counter()
    count = sum(1 for _ in PokerStarsParser()(text, error_status=True))
    return time.perf_counter() - started, count


def pokerkit_on_run_twice() -> str:
    """What pokerkit's PokerStarsParser does with a hold'em hand run twice."""
    from pokerkit import PokerStarsParser

    text = RUN_TWICE.read_text(encoding="utf-8-sig")
    got = 0
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # pokerkit prints the traceback itself
            for _ in PokerStarsParser()(text, error_status=True):
                got += 1
    except Exception as error:  # the point of this figure: which failure, after how many hands
        return f"stops with {type(error).__name__} after {got} hands ({str(error).splitlines()[0][:80]})"
    return f"read {got} hands"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--kit-hands", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_pokerstars_") as folder:
        archive = Path(folder) / "sessions.txt"
        build_archive(archive, args.hands)
        size = archive.stat().st_size
        print(f"archive: {args.hands:,} hands, {size / MIB:.1f} MiB, the {len(session_hands())} "
              f"bundled session hands repeated with fresh hand ids")
        seconds, peak, summary = time_pokerpipe(archive, Path(folder) / "out")
        rate = args.hands / seconds
        expected = summary["expected"]
        tables = [name for name in ("hands", "seats", "actions") if name in summary["outputs"]]
        print(f"pokerpipe run --format parquet (end to end, process start included, best of 3; "
              f"writing winners and the {', '.join(tables)} tables): {seconds:.2f} s, "
              f"{rate:,.0f} hands/s, peak RSS {peak / MIB:.0f} MiB; scored {summary['rows_scored']:,}, "
              f"without showdown {summary['rows_without_showdown']:,}, "
              f"rejected {summary['rows_rejected']:,}, checked {expected['checked']:,}, "
              f"mismatched {expected['mismatched']:,}")
        print(f"aim {AIM:,} hands/s: {'met' if rate >= AIM else 'MISSED'}")
        one_hand = Path(folder) / "one_hand.txt"
        build_archive(one_hand, 1)
        fixed, _, _ = time_pokerpipe(one_hand, Path(folder) / "out_one_hand")
        net = args.hands / max(seconds - fixed, 1e-9)
        print(f"pokerpipe run on one hand (process start and one-time costs, best of 3): {fixed:.2f} s; "
              f"the {args.hands:,} hands without them: {net:,.0f} hands/s")
        failed = summary["rows_read"] != args.hands or expected["mismatched"] != 0
        pokerkit = time_pokerkit(archive, args.kit_hands)
        if pokerkit is None:
            print("pokerkit PokerStarsParser: skipped (pip install pokerkit)")
        else:
            kit_seconds, count = pokerkit
            kit_rate = count / kit_seconds
            print(f"pokerkit PokerStarsParser (in process, first {args.kit_hands:,} hands): "
                  f"{kit_seconds:.2f} s, {kit_rate:,.0f} hands/s ({count:,} hands)")
            print(f"ratio pokerpipe / pokerkit: {rate / kit_rate:.0f}x")
            print(f"pokerkit PokerStarsParser on a hold'em hand run twice ({RUN_TWICE.name}): "
                  f"{pokerkit_on_run_twice()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
