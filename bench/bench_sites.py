"""Benchmark reading every site's logs: ``pokerpipe run`` on each site's sample hands, repeated.

Run from the project root::

    .venv/bin/python bench/bench_sites.py                # 100,000 hands a site
    .venv/bin/python bench/bench_sites.py --hands 20000 --sites ggpoker winamax

For each site read by a grammar (``pipeline/formats/sites``) it builds one log of ``--hands``
hands by repeating the site's sample hands (``tests/data/sites/<site>``, the hands that are not
rejected), each with a fresh hand id, then times ``pokerpipe run FILE -o OUT -q --format parquet``
as a subprocess, process start included (best of 3): on all the cores this process may use and on
one (``--threads 1``); then the same hands as 100 files of a hundredth each, in one folder, on all
cores.  Each run must read every hand, reject none (the sample hands repeated are those read) and
find no mismatch against the recorded pots.  The peer
is PokerStars' own reader on a file of as many PokerStars hands (``data/raw/pokerstars``
repeated), timed in the same run: the ratio says what the shared engine costs against a reader
written for one site.  The aim (30,000 hands per second end to end on all cores) is reported
("met" / "MISSED"), never enforced.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pokerstars import build_archive as build_pokerstars  # noqa: E402  (the sibling script's)
from bench_run import measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "sites"
AIM = 30_000
FILES = 100


def site_hands(grammar: type, folder: Path) -> list[str]:
    """The site's sample hands that are read (not rejected), each as its text, with its hand id."""
    from pipeline.formats.logs.reader import read_records
    from pipeline.formats.sources import Source

    hands: list[str] = []
    start = re.compile(f"^(?:{grammar.hand_start})", re.MULTILINE)
    for path in sorted(folder.rglob("*.txt")):
        # As the site's reader takes the bytes (an older client's encoding made UTF-8).
        raw = np.asarray(grammar.text(np.frombuffer(path.read_bytes(), dtype=np.uint8))).tobytes()
        text = raw.decode("utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n")
        starts = [match.start() for match in start.finditer(text)] + [len(text)]
        pieces = [text[a:b].rstrip("\n") + "\n\n" for a, b in zip(starts[:-1], starts[1:])]
        records = list(read_records(grammar, Source(path, grammar.name, ()), batch_rows=1 << 20))
        if not records or records[0].hands != len(pieces):
            continue
        record = records[0]
        ids = record.hand["hand_id"].to_pylist()
        for piece, problem, hand_id in zip(pieces, record.problem, ids):
            numbered = re.fullmatch(r"(.*?)([0-9]+)", hand_id or "")
            if problem is None and numbered and hand_id in piece:
                # The id's last digits made fresh, the rest kept: the id keeps the site's shape.
                template = piece.replace("{", "{{").replace("}", "}}")
                hands.append(template.replace(hand_id, numbered.group(1) + "{id}", 1))
    return hands


def write_log(path: Path, hands: list[str], count: int, first: int = 0) -> None:
    """``count`` hands, ``hands`` repeated, each with a fresh hand id."""
    with open(path, "w", encoding="utf-8") as out:
        for number in range(first, first + count):
            out.write(hands[number % len(hands)].format(id=str(7_000_000_000 + number)))


def timed(inputs: list[Path], outdir: Path, *, threads: int | None = None) -> tuple[float, int, dict]:
    """Best wall time of 3 runs, the peak RSS of that run, and its summary."""
    command = [sys.executable, "-m", "pipeline", "run", *map(str, inputs), "-o", str(outdir), "-q",
               "--format", "parquet", *(["--threads", str(threads)] if threads else [])]
    best = min((measure(command, statuses=(0, 1)) for _ in range(3)), key=lambda measured: measured.wall)
    return best.wall, best.peak_rss, json.loads((outdir / "summary.json").read_text())


def report(label: str, hands: int, measured: tuple[float, int, dict], peer: float | None) -> bool:
    """Print one figure; whether the run read every hand and found no mismatch."""
    seconds, peak, summary = measured
    rate = hands / seconds
    expected = summary["expected"]
    against = f", {rate / peer:.2f}x the PokerStars reader" if peer else ""
    print(f"  {label}: {seconds:.2f} s, {rate:,.0f} hands/s{against}, peak RSS {peak / (1 << 20):.0f} MiB; "
          f"read {summary['rows_read']:,}, "
          f"scored {summary['rows_scored']:,}, rejected {summary['rows_rejected']:,}, "
          f"checked {expected['checked']:,}, mismatched {expected['mismatched']:,}")
    return summary["rows_read"] == hands and summary["rows_rejected"] == 0 and expected["mismatched"] == 0


def main() -> int:
    from pipeline.formats import sites
    from pipeline.formats.logs.reader import GRAMMARS

    assert sites.SITES  # the site modules, imported, have registered their grammars

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--sites", nargs="*", help="source format names (default: every site's)")
    args = parser.parse_args()
    chosen = args.sites or sorted(GRAMMARS)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench_sites_") as folder:
        base = Path(folder)
        build_pokerstars(base / "pokerstars.txt", args.hands)
        peer_rate = args.hands / timed([base / "pokerstars.txt"], base / "out_pokerstars")[0]
        print(f"peer: PokerStars' reader, {args.hands:,} hands in one file, {cores} cores: "
              f"{peer_rate:,.0f} hands/s")
        for name in chosen:
            grammar = GRAMMARS[name]
            hands = site_hands(grammar, SAMPLES / name) if (SAMPLES / name).is_dir() else []
            if not hands:
                print(f"{name}: no sample hands found under {SAMPLES}")
                failed = True
                continue
            log = base / f"{name}.txt"
            write_log(log, hands, args.hands)
            size = log.stat().st_size / (1 << 20)
            print(f"{grammar.venue} ({name}): {args.hands:,} hands, {size:.1f} MiB, "
                  f"its {len(hands)} sample hands repeated with fresh hand ids")
            whole = timed([log], base / f"out_{name}")
            failed |= not report(f"one file, {cores} cores", args.hands, whole, peer_rate)
            rate = args.hands / whole[0]
            print(f"  aim {AIM:,} hands/s on {cores} cores: {'met' if rate >= AIM else 'MISSED'}")
            one_core = timed([log], base / f"out1_{name}", threads=1)
            failed |= not report("one file, 1 core", args.hands, one_core, None)
            many = base / f"{name}_files"
            many.mkdir()
            each = args.hands // FILES
            for index in range(FILES):
                write_log(many / f"log{index:03d}.txt", hands, each, first=index * each)
            failed |= not report(f"{FILES} files of {each:,} hands, {cores} cores", each * FILES,
                                 timed([many], base / f"outm_{name}"), None)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
