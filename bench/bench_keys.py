"""Benchmark and cross-check the hand keys of pokerpipe.

Run from the project root::

    .venv/bin/python bench/bench_keys.py              # full run
    .venv/bin/python bench/bench_keys.py --quick      # smoke test, a few seconds
    .venv/bin/python bench/bench_keys.py --skip-exhaustive

What it prints, one line per figure:

1. ``larvis.hand_keys`` on random five-rank hands (best of 3).
2. ``holdem.hand_keys`` on random seven-card deals from a real deck (best of 3).
3. The peers eval7, treys and phevaluator on a prefix of the same deals, with
   the ratio pokerpipe / peer, and a check that every peer orders the hands
   exactly as pokerpipe does.
4. ``shortdeck.hand_keys`` and ``deal_keys`` on random seven-card hands of
   the 36-card deck, their rate beside hold'em's timed in turn with it (the
   aim: at least as fast),
   and pokerkit's ``ShortDeckHoldemHand`` on a prefix, checked to order the
   hands as pokerpipe does.
5. An exhaustive run over every seven-card hand (C(52, 7) = 133,784,560),
   whose category counts and number of distinct keys are checked against the
   known table.

Everything runs on one core: the script starts no threads, and the numpy
operations it uses (element-wise arithmetic, take, bincount) are
single-threaded.  The peers are only ever imported here, never by the
package (they are the project's ``bench`` extra).

The exit status is non-zero when a peer disagrees with pokerpipe or the
exhaustive table differs from the known one; the speed aims are reported,
not enforced.

The reusable parts, :func:`deal_hands` and :func:`all_hands_chunks`, can be
loaded by tests with ``importlib`` from this file.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable, Iterator
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from itertools import combinations
from math import comb

import numpy as np

DECK_SIZE = 52
BEST_OF = 5
SEED = 20240501

#: Rows dealt per chunk by :func:`deal_hands` (fixed, so a seed always gives
#: the same deals whatever n is split into).
DEAL_CHUNK = 1 << 18

#: Known counts of every k-card hand by category (High Card ... Straight
#: Flush) and the number of distinct best-five-card keys among them (None
#: where no published figure is checked).
KNOWN_TABLES: dict[int, tuple[tuple[int, ...], int | None]] = {
    5: ((1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40), 7_462),
    6: ((6_612_900, 9_730_740, 2_532_816, 732_160, 361_620, 205_792, 165_984, 14_664, 1_844),
        None),
    7: ((23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
         224_848, 41_584), 4_824),
}


# --------------------------------------------------------------------------
# Reusable parts
# --------------------------------------------------------------------------

def deal_hands(n: int, k: int = 7, seed: int = SEED, *, deck_size: int = DECK_SIZE) -> np.ndarray:
    """Deal n random k-card hands, each from its own shuffled deck of ``deck_size`` cards.

    Every row is a uniformly random set of k distinct cards, dealt by a
    partial Fisher-Yates shuffle run on all the rows of a chunk at once
    (a Python loop over the k dealt positions and the chunks, never over
    rows).

    Parameters
    ----------
    n : int
        Number of hands.
    k : int, default 7
        Cards per hand, 1..``deck_size``.
    seed : int
        Seed of the ``numpy.random.Generator`` (PCG64); the same
        ``(n, k, seed)`` always gives the same deals, and the first rows of a
        larger deal equal a smaller deal with the same seed whenever the
        smaller n is a multiple of ``DEAL_CHUNK``.

    Returns
    -------
    hands : ndarray of shape (n, k), dtype uint8
        Card codes ``4 * rank + suit`` (for a smaller deck, its positions
        0..deck_size - 1); the cards of a row are distinct, in dealing order
        (not sorted).

    Examples
    --------
    >>> hands = deal_hands(1000, 7, seed=1)
    >>> hands.shape, hands.dtype.name, int(hands.max()) <= 51
    ((1000, 7), 'uint8', True)
    >>> bool((np.sort(hands, axis=1)[:, 1:] != np.sort(hands, axis=1)[:, :-1]).all())
    True
    """
    if not 1 <= k <= deck_size:
        raise ValueError(f"k must lie in 1..{deck_size}, got {k}")
    rng = np.random.default_rng(seed)
    hands = np.empty((n, k), dtype=np.uint8)
    fresh_deck = np.arange(deck_size, dtype=np.uint8)
    for start in range(0, n, DEAL_CHUNK):
        rows = min(DEAL_CHUNK, n - start)
        deck = np.tile(fresh_deck, (rows, 1))
        flat = deck.reshape(-1)
        base = np.arange(rows, dtype=np.intp) * deck_size
        for i in range(k):
            # Swap position i with a uniform position in i..deck_size - 1, every row at once.
            j = base + rng.integers(i, deck_size, size=rows)
            picked = flat[j]
            flat[j] = deck[:, i]
            deck[:, i] = picked
        hands[start:start + rows] = deck[:, :k]
    return hands


def random_larvis_hands(n: int, seed: int = SEED) -> np.ndarray:
    """Random Larvis hands: five rank indices per row, no rank five times.

    Rows that hold one rank five times are drawn again (vectorized) until
    none is left.

    Parameters
    ----------
    n : int
    seed : int

    Returns
    -------
    ranks : ndarray of shape (n, 5), dtype uint8
        Rank indices 0..12.

    Examples
    --------
    >>> ranks = random_larvis_hands(10_000, seed=3)
    >>> ranks.shape, bool((ranks == ranks[:, :1]).all(axis=1).any())
    ((10000, 5), False)
    """
    rng = np.random.default_rng(seed)
    ranks = rng.integers(0, 13, size=(n, BEST_OF), dtype=np.uint8)
    while True:
        bad = np.flatnonzero((ranks == ranks[:, :1]).all(axis=1))
        if bad.size == 0:
            return ranks
        ranks[bad] = rng.integers(0, 13, size=(bad.size, BEST_OF), dtype=np.uint8)


@cache
def _combination_table(n: int, r: int) -> tuple[np.ndarray, np.ndarray]:
    """All r-subsets of range(n) in lexicographic order, column-major.

    Returns ``(table, first)``: ``table`` of shape (r, C(n, r)), dtype uint8,
    column c the c-th subset ascending; ``first[s]`` the index of the first
    subset whose smallest element is >= s, so ``table[:, first[s]:]`` is
    exactly the r-subsets of ``range(s, n)`` (a suffix, by lexicographic
    order).  Built by growing the subsets one element at a time, vectorized.
    """
    columns = [np.arange(n - r + 1, dtype=np.uint8)]
    for position in range(1, r):
        last = columns[-1]
        # Next element: last + 1 .. n - r + position, one child per value.
        counts = (n - r + position) - last.astype(np.intp)
        parent = np.repeat(np.arange(len(last), dtype=np.int32), counts)
        ends = np.cumsum(counts)
        step = np.arange(ends[-1], dtype=np.int32) - np.repeat(ends - counts, counts)
        columns = [column[parent] for column in columns]
        columns.append((columns[-1] + 1 + step).astype(np.uint8))
    first = np.searchsorted(columns[0], np.arange(n + 1), side="left")
    table = np.stack(columns)
    table.setflags(write=False)
    return table, first


def all_hands_chunks(k: int = 7) -> Iterator[np.ndarray]:
    """Every k-card hand of a 52-card deck exactly once, in chunks.

    The k - 5 lowest cards of a hand are looped over in Python (1,081 pairs
    for k = 7, a loop over chunks, never over hands); the five other cards
    are a slice of one precomputed table of the C(52, 5) five-card subsets in
    lexicographic order, whose subsets above any card form a suffix.  A
    chunk therefore costs one copy, and holds at most C(50, 5) = 2,118,760
    hands (15 MB for k = 7).

    Parameters
    ----------
    k : int, default 7
        Cards per hand, 5..7.

    Yields
    ------
    hands : ndarray of shape (m, k), dtype uint8
        Card codes, each row strictly increasing; over all chunks every one
        of the C(52, k) hands appears once, in lexicographic order.  The
        array is column-major (a transposed C array), which is the layout
        ``holdem.hand_keys`` works in, so it needs no transposing copy; it
        is a fresh array for k > 5 and a read-only view for k = 5.

    Examples
    --------
    >>> from math import comb
    >>> sum(len(chunk) for chunk in all_hands_chunks(6)) == comb(52, 6)
    True
    """
    if k not in (5, 6, 7):
        raise ValueError(f"k must be 5, 6 or 7, got {k}")
    table, first = _combination_table(DECK_SIZE, BEST_OF)
    if k == BEST_OF:
        yield table.T
        return
    for prefix in combinations(range(DECK_SIZE), k - BEST_OF):
        start = first[prefix[-1] + 1]
        if start == table.shape[1]:       # fewer than five cards above the prefix
            continue
        tail = table[:, start:]
        chunk = np.empty((k, tail.shape[1]), dtype=np.uint8)
        chunk[:len(prefix)] = np.array(prefix, dtype=np.uint8)[:, None]
        chunk[len(prefix):] = tail
        yield chunk.T


# --------------------------------------------------------------------------
# Benchmark helpers
# --------------------------------------------------------------------------

def best_of(function: Callable[[], object], repeats: int = 3) -> tuple[float, object]:
    """Run ``function`` ``repeats`` times; return the fastest time and a result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def rate_line(label: str, per_second: float, note: str) -> str:
    return f"{label:<22}{per_second / 1e6:6.2f} M hands/s   {note}"


def aim_note(per_second: float, aim: float) -> str:
    return f"aim >= {aim / 1e6:g} M/s: {'met' if per_second >= aim else 'MISSED'}"


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def show_hand(row: np.ndarray) -> str:
    from pipeline.poker.cards import CARD_TEXT
    return " ".join(str(CARD_TEXT[c]) for c in row)


def first_disagreement(label: str, hands: np.ndarray, ours: np.ndarray, theirs: np.ndarray,
                       expected: np.ndarray) -> str:
    bad = np.flatnonzero(ours != expected)
    row = int(bad[0])
    return (f"{label}: {bad.size:,} of {len(ours):,} hands disagree; first is row {row} "
            f"({show_hand(hands[row])}): pokerpipe key {int(ours[row])}, "
            f"{label} says {int(theirs[row])} (expected key {int(expected[row])})")


# --------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------

def bench_larvis(n: int, seed: int) -> float:
    from pipeline.poker import larvis
    ranks = random_larvis_hands(n, seed)
    larvis.hand_keys(ranks[:1000])                      # build the tables outside the timing
    seconds, _ = best_of(lambda: larvis.hand_keys(ranks))
    rate = n / seconds
    print(rate_line("larvis.hand_keys", rate, f"(5 ranks, {n:,} hands; {aim_note(rate, 20e6)})"))
    return rate


def bench_holdem(n: int, seed: int) -> tuple[float, np.ndarray, np.ndarray]:
    from pipeline.poker import holdem
    start = time.perf_counter()
    hands = deal_hands(n, 7, seed)
    dealt = time.perf_counter() - start
    holdem.hand_keys(hands[:1000])                      # build the tables outside the timing
    seconds, keys = best_of(lambda: holdem.hand_keys(hands))
    rate = n / seconds
    print(rate_line("holdem.hand_keys", rate,
                    f"(7 cards, {n:,} deals; {aim_note(rate, 10e6)})"))
    print(f"{'  dealing':<22}{n / dealt / 1e6:6.2f} M hands/s   "
          f"(deal_hands, partial Fisher-Yates, seed {seed})")
    return rate, hands, keys


def bench_deals(n: int, seats: int, seed: int, failures: list[str]) -> None:
    """Time holdem.deal_keys, the whole-deal path of `pokerpipe run`, against hand_keys per seat."""
    from pipeline.poker import holdem
    dealt = deal_hands(n, 5 + 2 * seats, seed)
    board, holes = dealt[:, :5], dealt[:, 5:].reshape(n, seats, 2)
    seconds, keys = best_of(lambda: holdem.deal_keys(board, holes))
    rate = n * seats / seconds
    print(rate_line("holdem.deal_keys", rate, f"({seats} seats x {n:,} deals, one board per deal)"))
    expected = np.stack([holdem.hand_keys(np.concatenate([board, holes[:, s]], axis=1))
                         for s in range(seats)])
    if not np.array_equal(keys, expected):
        failures.append("holdem.deal_keys differs from holdem.hand_keys seat by seat")


def bench_shortdeck(n: int, seed: int, prefix: int, failures: list[str]) -> None:
    """Time short-deck hand_keys and deal_keys against hold'em's in the same conditions (the two
    timed in turn, best of 5 each), and check pokerkit orders a prefix of the hands as they do
    (pokerkit's ranking, straight above trips)."""
    from pipeline.poker import holdem, shortdeck
    from pipeline.poker.cards import CARD_TEXT
    short = shortdeck.DECK_CODES
    hands = short[deal_hands(n, 7, seed, deck_size=len(short))]
    long_hands = deal_hands(n, 7, seed)
    shortdeck.hand_keys(hands[:1000])  # build the tables outside the timing
    # In turn, not one after the other: a rate measured after other work (the peers' big arrays)
    # pays for memory the other did not, which is no property of either.
    short_times, long_times = [], []
    for _ in range(5):
        start = time.perf_counter()
        keys = shortdeck.hand_keys(hands)
        short_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        holdem.hand_keys(long_hands)
        long_times.append(time.perf_counter() - start)
    del long_hands
    rate, holdem_rate = n / min(short_times), n / min(long_times)
    print(rate_line("shortdeck.hand_keys", rate, f"(7 of 36 cards, {n:,} deals; "
                    f"{rate / holdem_rate:.2f}x holdem.hand_keys timed in turn with it, "
                    f"{holdem_rate / 1e6:.2f} M/s; aim >= 1x: {'met' if rate >= holdem_rate else 'MISSED'})"))
    seats = 6
    dealt = short[deal_hands(n // seats, 5 + 2 * seats, seed, deck_size=len(short))]
    board, holes = dealt[:, :5], dealt[:, 5:].reshape(n // seats, seats, 2)
    seconds, deal_keys = best_of(lambda: shortdeck.deal_keys(board, holes))
    print(rate_line("shortdeck.deal_keys", n // seats * seats / seconds,
                    f"({seats} seats x {n // seats:,} deals, one board per deal)"))
    expected = np.stack([shortdeck.hand_keys(np.concatenate([board, holes[:, s]], axis=1))
                         for s in range(seats)])
    if not np.array_equal(deal_keys, expected):
        failures.append("shortdeck.deal_keys differs from shortdeck.hand_keys seat by seat")
    try:
        from pokerkit import ShortDeckHoldemHand
    except ImportError:
        print(f"{'pokerkit':<22}not installed (pip install pokerkit)")
        return
    text = [str(card) for card in CARD_TEXT]
    rows = hands[:prefix].tolist()
    start = time.perf_counter()
    theirs = [ShortDeckHoldemHand.from_game("".join(text[c] for c in row[5:]),
                                            "".join(text[c] for c in row[:5])) for row in rows]
    peer = len(rows) / (time.perf_counter() - start)
    ranked = sorted(range(len(rows)), key=lambda i: theirs[i])
    ours = keys[:prefix].astype(np.int64)
    same = all(ours[a] < ours[b] if theirs[a] < theirs[b] else ours[a] == ours[b]
               for a, b in zip(ranked, ranked[1:]))
    print(f"{'pokerkit short-deck':<22}{peer:6,.0f} hands/s     pokerpipe is {rate / peer:7,.0f}x   "
          f"(ShortDeckHoldemHand, {len(rows):,} hands; {'same order' if same else 'ORDER DIFFERS'})")
    if not same:
        failures.append("pokerkit orders short-deck hands otherwise")


def bench_peers(hands: np.ndarray, keys: np.ndarray, ours: float, prefix: int,
                failures: list[str]) -> None:
    from pipeline.poker.cards import CARD_TEXT
    hands, keys = hands[:prefix], keys[:prefix].astype(np.int64)
    rows = hands.tolist()
    text = [str(card) for card in CARD_TEXT]
    print(f"peers on the first {prefix:,} of the same deals, evaluation only, best of 3; "
          f"ratio = holdem.hand_keys rate above / peer rate")

    def report(label: str, seconds: float, note: str) -> None:
        rate = prefix / seconds
        print(rate_line(label, rate, f"pokerpipe is {ours / rate:5.1f}x   {note}"))

    # eval7: bigger is better, on its own scale; compare the orderings.
    try:
        import eval7
    except ImportError:
        print(f"{'eval7':<22}not installed (pip install eval7)")
    else:
        deck = [eval7.Card(card) for card in text]
        converted = [[deck[c] for c in row] for row in rows]
        evaluate = eval7.evaluate
        seconds, values = best_of(lambda: [evaluate(h) for h in converted])
        values = np.array(values, dtype=np.int64)
        their_dense = np.unique(values, return_inverse=True)[1].ravel()
        our_dense = np.unique(keys, return_inverse=True)[1].ravel()
        agree = np.array_equal(their_dense, our_dense)
        report("eval7", seconds, "same order" if agree else "ORDER DIFFERS")
        if not agree:
            bad = np.flatnonzero(their_dense != our_dense)
            row = int(bad[0])
            failures.append(f"eval7: dense ranks differ on {bad.size:,} of {prefix:,} hands; "
                            f"first is row {row} ({show_hand(hands[row])}): pokerpipe key "
                            f"{int(keys[row])} (dense {our_dense[row]}), eval7 value "
                            f"{int(values[row])} (dense {their_dense[row]})")

    # treys: 1 = royal flush ... 7462 = worst, so key = 7463 - rank.
    try:
        import treys
    except ImportError:
        print(f"{'treys':<22}not installed (pip install treys)")
    else:
        deck = [treys.Card.new(card) for card in text]
        evaluator = treys.Evaluator()
        converted = [([deck[c] for c in row[:2]], [deck[c] for c in row[2:]]) for row in rows]
        evaluate = evaluator.evaluate
        seconds, ranks = best_of(lambda: [evaluate(hole, board) for hole, board in converted])
        ranks = np.array(ranks, dtype=np.int64)
        agree = np.array_equal(keys, 7463 - ranks)
        report("treys", seconds, "key == 7463 - rank" if agree else "KEYS DIFFER")
        if not agree:
            failures.append(first_disagreement("treys", hands, keys, ranks, 7463 - ranks))

    # phevaluator: same card codes as ours, 1 = best; public API and raw C entry.
    try:
        import phevaluator
        from phevaluator import _pheval
    except ImportError:
        print(f"{'phevaluator':<22}not installed (pip install phevaluator)")
    else:
        for label, name, evaluate in (
                ("phevaluator", "phevaluator.evaluate_7cards", phevaluator.evaluate_7cards),
                ("  its C entry", "phevaluator._pheval.evaluate_7cards",
                 _pheval.evaluate_7cards)):
            seconds, ranks = best_of(lambda evaluate=evaluate: [evaluate(*row) for row in rows])
            ranks = np.array(ranks, dtype=np.int64)
            agree = np.array_equal(keys, 7463 - ranks)
            report(label, seconds, "key == 7463 - rank" if agree else "KEYS DIFFER")
            if not agree:
                failures.append(first_disagreement(name, hands, keys, ranks, 7463 - ranks))


def exhaustive(k: int, failures: list[str]) -> None:
    from pipeline.poker import holdem
    holdem.hand_keys(deal_hands(1000, k, 0))            # build the tables outside the timing
    counts = np.zeros(7463, dtype=np.int64)
    chunks = all_hands_chunks(k)
    enumerating = 0.0
    start = time.perf_counter()
    while True:
        tick = time.perf_counter()
        chunk = next(chunks, None)
        enumerating += time.perf_counter() - tick
        if chunk is None:
            break
        counts += np.bincount(holdem.hand_keys(chunk), minlength=len(counts))
    elapsed = time.perf_counter() - start
    total = int(counts.sum())
    print(f"exhaustive {k} cards: {total:,} hands in {elapsed:.1f} s, enumeration + scoring "
          f"(enumeration {enumerating:.2f} s), {total / elapsed / 1e6:.2f} M hands/s")
    if total != comb(DECK_SIZE, k):
        failures.append(f"exhaustive {k} cards: enumerated {total:,} hands, "
                        f"expected C(52, {k}) = {comb(DECK_SIZE, k):,}")
    if counts[0]:
        failures.append(f"exhaustive {k} cards: {counts[0]:,} hands got key 0")
    categories = holdem.key_categories(np.arange(1, len(counts)))
    known, known_distinct = KNOWN_TABLES[k]
    for code, name in enumerate(holdem.CATEGORIES):
        got = int(counts[1:][categories == code].sum())
        ok = got == known[code]
        print(f"  {str(name):<18}{got:>13,}   {'ok' if ok else f'EXPECTED {known[code]:,}'}")
        if not ok:
            failures.append(f"exhaustive {k} cards: {name} counted {got:,}, "
                            f"expected {known[code]:,}")
    distinct = int((counts[1:] > 0).sum())
    if known_distinct is None:
        print(f"  {'distinct keys':<18}{distinct:>13,}   (no published figure checked)")
    else:
        ok = distinct == known_distinct
        print(f"  {'distinct keys':<18}{distinct:>13,}   "
              f"{'ok' if ok else f'EXPECTED {known_distinct:,}'}")
        if not ok:
            failures.append(f"exhaustive {k} cards: {distinct:,} distinct keys, "
                            f"expected {known_distinct:,}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and a five-card exhaustive run: a smoke test")
    parser.add_argument("--skip-exhaustive", action="store_true",
                        help="leave out the exhaustive enumeration")
    parser.add_argument("--exhaustive-cards", type=int, choices=(5, 6, 7), default=None,
                        help="cards per hand of the exhaustive run (default 7, 5 with --quick)")
    parser.add_argument("--peer-hands", type=int, default=None,
                        help="deals timed with each peer (default 200,000, 5,000 with --quick)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)

    larvis_n = 100_000 if args.quick else 1_000_000
    holdem_n = 200_000 if args.quick else 2_000_000
    prefix = args.peer_hands or (5_000 if args.quick else 200_000)
    prefix = min(prefix, holdem_n)
    k = args.exhaustive_cards or (5 if args.quick else 7)

    print(f"numpy {np.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}; one core: no threads are started and the numpy "
          f"operations used are single-threaded")
    print("peers: " + ", ".join(f"{name} {package_version(name)}"
                                for name in ("eval7", "treys", "phevaluator")))
    if args.quick:
        print("--quick: small sizes, smoke test only")
    failures: list[str] = []
    started = time.perf_counter()
    bench_larvis(larvis_n, args.seed)
    ours, hands, keys = bench_holdem(holdem_n, args.seed)
    bench_deals(holdem_n // 6, 6, args.seed, failures)
    bench_peers(hands, keys, ours, prefix, failures)
    del hands, keys
    bench_shortdeck(holdem_n, args.seed, min(prefix, 3_000), failures)
    if not args.skip_exhaustive:
        exhaustive(k, failures)
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
