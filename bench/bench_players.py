"""Benchmark ``pokerpipe players``: from a run's tables and from the hand histories, beside pandas.

Run from the project root::

    .venv/bin/python bench/bench_players.py               # 100,000 hands
    .venv/bin/python bench/bench_players.py --hands 20000

It builds the ``.phhs`` file of ``bench_phh.py`` (the bundled Pluribus
hands repeated), runs ``pokerpipe run FILE --format parquet`` once for its
tables, then times, best of 3, process start included:

1. ``pokerpipe players RUN`` on the run's tables (aim: 100,000 hands/s);
2. ``pokerpipe players FILE`` on the hand histories, against ``pokerpipe run
   FILE --format parquet`` (aim: at most 1.2 times as long);
3. the same players' hands, VPIP and PFR written plainly in pandas from the
   run's tables (in this process, reading the tables included), checked equal
   to pokerpipe's;
4. ``pokerpipe players`` on the PokerStars file of ``bench_pokerstars.py``
   (the bundled sessions repeated with fresh hand ids), whose all-ins before
   the river are adjusted: the all-in EV's cost where there is some.

The aims are reported ("met" / "MISSED"), never enforced.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_phh import build_archive  # noqa: E402  (the sibling script's)
from bench_pokerstars import build_archive as build_sessions  # noqa: E402
from bench_run import measure  # noqa: E402

AIM_TABLES = 100_000  # hands per second from a run's tables
AIM_RAW = 1.2  # players on hand histories against run on them


def best(command: list[str], outdir: Path, repeats: int = 3) -> float:
    """The fastest wall time of ``repeats`` runs of ``command`` writing ``outdir``."""
    times = []
    for _ in range(repeats):
        shutil.rmtree(outdir, ignore_errors=True)
        times.append(measure(command).wall)
    return min(times)


def plainly(run: Path) -> pd.DataFrame:
    """Hands, VPIP and PFR counts per player from the tables, with pandas alone."""
    seats = pd.read_parquet(run / "hands.parquet", columns=["hand_key", "outcome"]).merge(
        pd.read_parquet(run / "seats.parquet", columns=["hand_key", "seat", "player"]), on="hand_key")
    seats = seats[seats.outcome.astype(str).isin(["scored", "no showdown", "unknown cards"])]
    actions = pd.read_parquet(run / "actions.parquet", columns=["hand_key", "seat", "street", "action"])
    pre = actions[actions.street.astype(str) == "preflop"]
    action = pre.action.astype(str)
    voluntary = pre[action.isin(["call", "bet", "raise"])][["hand_key", "seat"]].drop_duplicates()
    raised = pre[action.isin(["bet", "raise"])][["hand_key", "seat"]].drop_duplicates()
    seats = seats.merge(voluntary.assign(vpip=1), on=["hand_key", "seat"], how="left")
    seats = seats.merge(raised.assign(pfr=1), on=["hand_key", "seat"], how="left")
    grouped = seats.fillna({"vpip": 0, "pfr": 0}).groupby(seats.player.astype(str))
    return grouped.agg(hands=("seat", "size"), vpip=("vpip", "sum"), pfr=("pfr", "sum")).astype(int)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    args = parser.parse_args()
    pipe = [sys.executable, "-m", "pipeline"]
    with tempfile.TemporaryDirectory(prefix="pokerpipe-bench-players-") as tmp:
        work = Path(tmp)
        archive = work / "hands.phhs"
        build_archive(archive, args.hands)
        run = work / "run"
        measure([*pipe, "run", str(archive), "-o", str(run), "-q", "--format", "parquet"])
        tables = best([*pipe, "players", str(run), "-o", str(work / "p1"), "-q", "--format", "parquet"],
                      work / "p1")
        raw = best([*pipe, "players", str(archive), "-o", str(work / "p2"), "-q", "--format", "parquet"],
                   work / "p2")
        scored = best([*pipe, "run", str(archive), "-o", str(work / "r2"), "-q", "--format", "parquet"],
                      work / "r2")
        started = time.perf_counter()
        plain = plainly(run)
        pandas_seconds = time.perf_counter() - started
        ours = pd.read_parquet(work / "p1" / "players.parquet")
        ours = ours.assign(player=ours.player.astype(str)).set_index("player")
        counted = ours[["hands", "vpip_count", "pfr_count"]].to_numpy()
        same = bool((counted == plain.loc[ours.index].to_numpy()).all())
        rate = args.hands / tables
        size = archive.stat().st_size / 2**20
        print(f"archive: {args.hands:,} hands ({size:.1f} MiB), the Pluribus hands repeated; best of 3, "
              f"process start included")
        print(f"pokerpipe players on the run's tables: {tables:.2f} s, {rate:,.0f} hands/s "
              f"(aim {AIM_TABLES:,}: {'met' if rate >= AIM_TABLES else 'MISSED'})")
        verdict = "met" if raw / scored <= AIM_RAW else "MISSED"
        print(f"pokerpipe players on the hand histories: {raw:.2f} s, against pokerpipe run on them "
              f"{scored:.2f} s: {raw / scored:.2f}x (aim at most {AIM_RAW}x: {verdict})")
        print(f"pandas, hands, VPIP and PFR alone from the tables (in process): {pandas_seconds:.2f} s, "
              f"{args.hands / pandas_seconds:,.0f} hands/s; the counts equal pokerpipe's: {same}")
        if not same:
            raise SystemExit("pandas and pokerpipe count the players' hands, VPIP or PFR differently")
        sessions = work / "sessions.txt"
        build_sessions(sessions, args.hands)
        stars = best([*pipe, "players", str(sessions), "-o", str(work / "p3"), "-q", "--format", "parquet"],
                     work / "p3")
        stars_run = best([*pipe, "run", str(sessions), "-o", str(work / "r3"), "-q", "--format", "parquet"],
                         work / "r3")
        adjusted = json.loads((work / "p3" / "summary.json").read_text())["allin_ev"]["hands_adjusted"]
        print(f"pokerpipe players on {args.hands:,} PokerStars hands: {stars:.2f} s, "
              f"{args.hands / stars:,.0f} hands/s, {adjusted:,} hands adjusted for all-in EV; "
              f"pokerpipe run on them {stars_run:.2f} s ({stars / stars_run:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
