"""Benchmark and cross-check the Omaha keys of pokerpipe: high, and eight-or-better low.

Run from the project root::

    .venv/bin/python bench/bench_omaha.py            # full run, about half a minute
    .venv/bin/python bench/bench_omaha.py --quick    # smoke test, a few seconds

What it prints, one line per figure:

1. The build time of every Omaha table, the first thing the process does.
2. ``omaha.hand_keys`` and ``omaha.low_keys`` on random deals of a five-card board with four,
   five and six hole cards (PLO, PLO5, PLO6; 1,000,000 hands each, best of 3), then PLO on
   the flop and the turn, ``omaha.deal_keys`` on six-seat deals, and ``best_five`` /
   ``best_low_five`` (the ``--best-five`` path).
3. phevaluator's ``evaluate_omaha_cards``, one Python call per hand, on a prefix of the same
   deals (50,000 hands), with the ratio pokerpipe / peer and a check that it orders the hands as
   pokerpipe does.  Its Omaha entry takes four hole cards: a hand of five or six is the best of
   its four-card subsets (5 or 15 calls a hand; the PLO5 and PLO6 entries are compiled only on
   request, and are used when present).
4. pokerkit's ``OmahaEightOrBetterLowHand`` on a short prefix (it is pure Python), the same
   check for the low keys.

Everything runs on one core: the script starts no threads, and the numpy operations it uses
are single-threaded.  The peers are only ever imported here and by the tests, never by the
package (they are the project's ``bench`` extra).

The exit status is non-zero when a peer orders any hand differently from pokerpipe, or a best
five does not score its hand's key; the speed aims are reported, not enforced.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np

SEED = 20240611
BOARD = 5
#: Hole cards of each variant and its aim in hands per second (one core).
VARIANTS = {"PLO": (4, 4.5e6), "PLO5": (5, 2e6), "PLO6": (6, 2e6)}


def _bench_keys():
    """bench_keys.py, for its dealing and printing helpers (loaded by path: bench/ is no package)."""
    spec = importlib.util.spec_from_file_location("bench_keys", Path(__file__).with_name("bench_keys.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_keys = _bench_keys()
best_of, rate_line, aim_note = bench_keys.best_of, bench_keys.rate_line, bench_keys.aim_note


def dense(values: np.ndarray) -> np.ndarray:
    """Each value's place among the distinct values, ascending: equal values, equal places."""
    return np.unique(values, return_inverse=True)[1].ravel()


def build_tables() -> None:
    """Build every Omaha table, timed one by one: the process has built none of them yet."""
    from pipeline.poker import holdem, omaha
    steps: list[tuple[str, Callable[[], object]]] = [
        ("hold'em five-card tables", lambda: (holdem.five_card_tables(), holdem.flush_table())),
        ("pair x board triple", omaha.pair_triple_table),
        ("plain, 4-card boards", lambda: omaha.plain_pair_table(4)),
        ("plain, 5-card boards", lambda: omaha.plain_pair_table(5)),
        ("flush pairs", omaha.flush_pair_table),
        ("board flush suit", omaha.three_suit_table),
        ("low pairs", omaha.low_pair_table),
    ]
    total = 0.0
    parts = []
    for label, build in steps:
        start = time.perf_counter()
        build()
        seconds = time.perf_counter() - start
        total += seconds
        parts.append(f"{label} {seconds * 1e3:.1f}")
    print(f"tables built in {total * 1e3:.0f} ms, once per process ({', '.join(parts)} ms)")


def deal(n: int, holes: int, seed: int, board: int = BOARD) -> tuple[np.ndarray, np.ndarray]:
    dealt = bench_keys.deal_hands(n, board + holes, seed)
    return dealt[:, :board], dealt[:, board:]


def bench_variant(name: str, n: int, seed: int) -> dict[str, object]:
    """Time hand_keys and low_keys on n random deals of the variant; return the deals and keys."""
    from pipeline.poker import omaha
    holes, aim = VARIANTS[name]
    board, hole = deal(n, holes, seed)
    seconds, keys = best_of(lambda: omaha.hand_keys(board, hole))
    high = n / seconds
    print(rate_line(f"{name} hand_keys", high, f"({holes} hole cards, {n:,} hands; {aim_note(high, aim)})"))
    seconds, lows = best_of(lambda: omaha.low_keys(board, hole))
    low = n / seconds
    aimed = "met" if low >= high else "MISSED"
    print(rate_line(f"{name} low_keys", low, f"({holes} hole cards, {n:,} hands; aim >= hand_keys: {aimed})"))
    return {"name": name, "board": board, "holes": hole, "keys": keys, "lows": lows, "rate": high,
            "low_rate": low}


def bench_more(n: int, seed: int, failures: list[str]) -> None:
    """PLO on unfinished boards, six-seat deals, and the best-five path."""
    from pipeline.poker import holdem, omaha
    for size, street in ((3, "flop"), (4, "turn")):
        board, hole = deal(n, 4, seed + size, board=size)
        seconds, _ = best_of(lambda board=board, hole=hole: omaha.hand_keys(board, hole))
        print(rate_line(f"PLO {street} hand_keys", n / seconds, f"({size}-card board, {n:,} hands)"))
    seats = 6
    dealt = bench_keys.deal_hands(n // seats, BOARD + 4 * seats, seed)
    board, holes = dealt[:, :BOARD], dealt[:, BOARD:].reshape(-1, seats, 4)
    seconds, keys = best_of(lambda: omaha.deal_keys(board, holes))
    print(rate_line("PLO deal_keys", len(board) * seats / seconds,
                    f"({seats} seats x {len(board):,} deals, the board's part once per deal)"))
    if not all(np.array_equal(keys[s], omaha.hand_keys(board, holes[:, s])) for s in range(seats)):
        failures.append("omaha.deal_keys differs from omaha.hand_keys seat by seat")
    rows = max(n // 5, 1)
    board, hole = deal(rows, 4, seed + 7)
    seconds, best = best_of(lambda: omaha.best_five(board, hole), repeats=1)
    print(rate_line("PLO best_five", rows / seconds, f"({rows:,} hands, for --best-five)"))
    if not np.array_equal(holdem.hand_keys(best), omaha.hand_keys(board, hole)):
        failures.append("omaha.best_five: some best five does not score its hand's key")
    seconds, best = best_of(lambda: omaha.best_low_five(board, hole), repeats=1)
    print(rate_line("PLO best_low_five", rows / seconds, f"({rows:,} hands)"))
    lows = omaha.low_keys(board, hole)
    numbers = low_numbers(best)
    has = lows > 0
    # Each five's low by the rule orders as the hand's low key (a smaller number is the better low).
    if not (np.array_equal(dense(-numbers[has]), dense(lows[has])) and (numbers[has] < NO_LOW).all()
            and (best[~has] == 52).all()):
        failures.append("omaha.best_low_five: some best low five does not score its hand's low key")


#: A low of five cards read as a base-9 number, highest value first; NO_LOW where there is none.
NO_LOW = 9 ** 5
_LOW_VALUE = np.array([1 if code // 4 == 12 else code // 4 + 2 if code // 4 < 7 else 99
                       for code in range(52)] + [99])


def low_numbers(fives: np.ndarray) -> np.ndarray:
    """The rule, plainly: five different values of 8 or lower (the ace 1), compared highest first."""
    values = np.sort(_LOW_VALUE[fives], axis=1)
    valid = (np.diff(values, axis=1) > 0).all(axis=1) & (values[:, -1] <= 8)
    number = np.zeros(len(fives), dtype=np.int64)
    for column in range(4, -1, -1):
        number = number * 9 + values[:, column]
    return np.where(valid, number, NO_LOW)


def phevaluator_rate(result: dict[str, object], prefix: int, failures: list[str]) -> None:
    """phevaluator on the first ``prefix`` hands of a variant: rate, ratio, and the same order."""
    try:
        import phevaluator
        from phevaluator import _pheval
    except ImportError:
        print(f"{'  phevaluator':<22}not installed (pip install phevaluator)")
        return
    name, keys = str(result["name"]), np.asarray(result["keys"])[:prefix]
    rows = [(b, h) for b, h in zip(np.asarray(result["board"])[:prefix].tolist(),
                                   np.asarray(result["holes"])[:prefix].tolist())]
    holes = len(rows[0][1])
    native = "evaluate_omaha_cards" if holes == 4 else f"evaluate_plo{holes}_cards"
    if hasattr(_pheval, native):
        evaluate, label = getattr(phevaluator, native), native
        seconds, ranks = best_of(lambda: [evaluate(*b, *h) for b, h in rows])
    else:  # not compiled in: the best of the hand's four-card subsets
        evaluate = phevaluator.evaluate_omaha_cards
        label = f"evaluate_omaha_cards x {len(list(combinations(range(holes), 4)))}"
        seconds, ranks = best_of(lambda: [min(evaluate(*b, *four) for four in combinations(h, 4))
                                          for b, h in rows])
    # phevaluator's rank 1 is the best hand: its strength is the reverse.
    theirs = -np.array(ranks, dtype=np.int64)
    agree = np.array_equal(dense(theirs), dense(keys))
    rate = prefix / seconds
    exact = np.array_equal(keys, 7463 + theirs)
    print(rate_line(f"  phevaluator {name}", rate,
                    f"pokerpipe is {float(result['rate']) / rate:6.1f}x   ({label}, {prefix:,} hands; "
                    f"{'same order' if agree else 'ORDER DIFFERS'}"
                    f"{', key == 7463 - rank' if exact else ''})"))
    if not agree:
        bad = int(np.flatnonzero(dense(theirs) != dense(keys))[0])
        failures.append(f"phevaluator {name}: orders hands differently, first at row {bad} "
                        f"(pokerpipe key {int(keys[bad])}, phevaluator rank {-int(theirs[bad])})")


def pokerkit_low_rate(result: dict[str, object], prefix: int, failures: list[str]) -> None:
    """pokerkit's Omaha eight-or-better low on the first ``prefix`` hands: rate, ratio, same order."""
    try:
        from pokerkit import OmahaEightOrBetterLowHand
    except ImportError:
        print(f"{'  pokerkit':<22}not installed (pip install pokerkit)")
        return
    from pipeline.poker.cards import CARD_TEXT
    name, lows = str(result["name"]), np.asarray(result["lows"])[:prefix]
    text = [str(card) for card in CARD_TEXT]
    rows = [("".join(text[c] for c in h), "".join(text[c] for c in b))
            for b, h in zip(np.asarray(result["board"])[:prefix].tolist(),
                            np.asarray(result["holes"])[:prefix].tolist())]
    seconds, hands = best_of(lambda: [OmahaEightOrBetterLowHand.from_game_or_none(h, b) for h, b in rows],
                             repeats=1)
    present = [hand for hand in hands if hand is not None]
    order = {hand: place for place, hand in enumerate(sorted(set(present)), start=1)}
    theirs = np.array([0 if hand is None else order[hand] for hand in hands])
    agree = np.array_equal(dense(theirs), dense(lows))
    rate = prefix / seconds
    # Thousands, not millions, a second: rate_line's figure would read 0.00.
    print(f"{f'  pokerkit {name} low':<22}{rate / 1e3:6.2f} k hands/s   "
          f"pokerpipe is {float(result['low_rate']) / rate:6.0f}x   (OmahaEightOrBetterLowHand, "
          f"{prefix:,} hands, {int((lows > 0).sum()):,} lows; {'same order' if agree else 'ORDER DIFFERS'})")
    if not agree:
        bad = int(np.flatnonzero(dense(theirs) != dense(lows))[0])
        failures.append(f"pokerkit {name} low: orders hands differently, first at row {bad} "
                        f"(pokerpipe low key {int(lows[bad])}, pokerkit {hands[bad]})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    parser.add_argument("--hands", type=int, default=None,
                        help="hands per variant (default 1,000,000, 100,000 with --quick)")
    parser.add_argument("--peer-hands", type=int, default=None,
                        help="hands timed with phevaluator (default 50,000, 5,000 with --quick)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    n = args.hands or (100_000 if args.quick else 1_000_000)
    prefix = min(args.peer_hands or (5_000 if args.quick else 50_000), n)
    low_prefix = min(300 if args.quick else 3_000, n)

    print(f"numpy {np.__version__}, Python {platform.python_version()}, {platform.machine()}; one core: "
          f"no threads are started and the numpy operations used are single-threaded")
    print("peers: " + ", ".join(f"{name} {bench_keys.package_version(name)}"
                                for name in ("phevaluator", "pokerkit")))
    if args.quick:
        print("--quick: small sizes, smoke test only")
    failures: list[str] = []
    started = time.perf_counter()
    build_tables()
    results = [bench_variant(name, n, args.seed + number) for number, name in enumerate(VARIANTS)]
    bench_more(n, args.seed, failures)
    print("peers on the first hands of the same deals, evaluation only; "
          "ratio = pokerpipe rate above / peer rate")
    for result in results:
        phevaluator_rate(result, prefix, failures)
    for result in results:
        pokerkit_low_rate(result, low_prefix, failures)
    print(f"total {time.perf_counter() - started:.1f} s")
    if failures:
        print("FAILED:", file=sys.stderr)
        for failure in failures:
            print(f"  {failure}", file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
