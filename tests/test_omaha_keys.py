"""Omaha keys against the rules: a brute force over every two hole cards with three board cards,
pokerkit's Omaha hands, phevaluator's PLO evaluator, and every eight-or-better low.

The references here are written from the rules alone: the high hand of five cards is
``tests/rules.py``'s, the low hand is spelled out below, and a hand is the best of its
C(k, 2) * C(b, 3) fives.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from itertools import combinations_with_replacement as multisets

import numpy as np
import pytest

from pipeline.poker import cards, holdem, omaha

from .rules import five_card_value

#: Rank index -> its value in a low: the ace plays 1, the deuce to the eight themselves; higher
#: ranks are in no low.
LOW_VALUE = {12: 1, **{rank: rank + 2 for rank in range(7)}}
VARIANTS = [(board, hole) for board in (3, 4, 5) for hole in (4, 5, 6)]


# --- the references ------------------------------------------------------------------------------

def fives(board: list[int], hole: list[int]):
    """Every Omaha five of a hand: exactly two hole cards and exactly three board cards."""
    for pair in combinations(hole, 2):
        for three in combinations(board, 3):
            yield list(pair) + list(three)


def reference_high(board: list[int], hole: list[int]) -> tuple:
    return max(five_card_value(five) for five in fives(board, hole))


def low_of_five(five: list[int]) -> tuple | None:
    """The low of five cards, its values highest first, or None: five different ranks of 8 or lower."""
    values = [LOW_VALUE.get(code // 4) for code in five]
    if None in values or len(set(values)) < 5:
        return None
    return tuple(sorted(values, reverse=True))


def reference_low(board: list[int], hole: list[int]) -> tuple | None:
    """The best low: compared from the highest value down, the lower wins (min of the tuples)."""
    lows = [low for five in fives(board, hole) if (low := low_of_five(five)) is not None]
    return min(lows, default=None)


def low_strength(low: tuple | None) -> tuple:
    """A low as a strength, larger better, no low the weakest."""
    return (0,) if low is None else (1, tuple(-value for value in low))


def dense(values: list) -> list[int]:
    ranking = {value: rank for rank, value in enumerate(sorted(set(values)))}
    return [ranking[value] for value in values]


def text(codes) -> str:
    return "".join(str(cards.CARD_TEXT[code]) for code in codes)


def deal(n: int, board: int, hole: int, seed: int,
         deck: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """n random deals of distinct cards from ``deck`` (default all 52): board (n, b), holes (n, k)."""
    rng = np.random.default_rng(seed)
    deck_codes = np.arange(52) if deck is None else np.array(deck)
    picked = np.argsort(rng.random((n, len(deck_codes))), axis=1)[:, :board + hole]
    dealt = deck_codes[picked].astype(np.uint8)
    return dealt[:, :board], dealt[:, board:]


#: Two suits only: flushes and straight flushes are frequent, and so are flushes beside a pair
#: or trips on the board.
TWO_SUITS = [code for code in range(52) if code % 4 in (0, 3)]
#: Ranks A and 2..8 with two high ranks: most hands have a low, and many tie.
LOW_DECK = [code for code in range(52) if code // 4 in LOW_VALUE or code // 4 in (10, 11)]


# --- high keys -----------------------------------------------------------------------------------

@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_high_keys_order_as_the_brute_force(board_size, hole_size):
    board, holes = deal(1000, board_size, hole_size, seed=10 * board_size + hole_size)
    keys = omaha.hand_keys(board, holes)
    strengths = [reference_high(b, h) for b, h in zip(board.tolist(), holes.tolist())]
    assert dense(strengths) == dense(keys.tolist())


@pytest.mark.parametrize("hole_size", [4, 6])
def test_high_keys_order_as_the_brute_force_on_two_suits(hole_size):
    board, holes = deal(1000, 5, hole_size, seed=hole_size, deck=TWO_SUITS)
    keys = omaha.hand_keys(board, holes)
    strengths = [reference_high(b, h) for b, h in zip(board.tolist(), holes.tolist())]
    assert dense(strengths) == dense(keys.tolist())
    categories = holdem.key_categories(keys)
    # The deck does what it is for: many flushes, some straight flushes.
    assert (categories == holdem.CATEGORIES.index(holdem.Category.FLUSH)).mean() > 0.2
    assert (categories == holdem.CATEGORIES.index(holdem.Category.STRAIGHT_FLUSH)).any()


@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_high_key_is_the_holdem_key_of_the_best_five(board_size, hole_size):
    # The key space is hold'em's: the key of a hand is holdem.hand_keys of its best five cards.
    board, holes = deal(300, board_size, hole_size, seed=100 + 10 * board_size + hole_size)
    five_lists = [list(fives(b, h)) for b, h in zip(board.tolist(), holes.tolist())]
    every = holdem.hand_keys(np.array([five for lists in five_lists for five in lists], dtype=np.uint8))
    expected = every.reshape(len(board), -1).max(axis=1)
    assert omaha.hand_keys(board, holes).tolist() == expected.tolist()


def test_two_hole_cards_and_three_board_cards_exactly():
    code = cards.card_code
    board = [[code(c) for c in ("As", "Ks", "Qs", "Js", "2d")],   # four to a royal flush on the board
             [code(c) for c in ("7s", "7h", "7d", "Ac", "2h")],   # trips on the board
             [code(c) for c in ("9h", "8h", "7h", "2c", "3d")]]
    holes = [[code(c) for c in ("Ts", "9c", "3c", "4c")],         # one spade: T 9 with K Q J, a straight
             [code(c) for c in ("As", "Kd", "Qc", "Jh")],         # 7 7 7 A A would take four board cards
             [code(c) for c in ("6h", "5c", "Th", "4d")]]         # 6h Th with 9h 8h 7h: a straight flush
    expected = [reference_high(b, h) for b, h in zip(board, holes)]
    keys = omaha.hand_keys(board, holes)
    names = [str(holdem.CATEGORIES[c]) for c in holdem.key_categories(keys)]
    assert names == ["Straight", "Three of a Kind", "Straight Flush"]
    assert dense(expected) == dense(keys.tolist())


@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_high_keys_order_as_pokerkit(board_size, hole_size):
    from pokerkit import OmahaHoldemHand

    board, holes = deal(150, board_size, hole_size, seed=200 + 10 * board_size + hole_size)
    theirs = [OmahaHoldemHand.from_game(text(h), text(b)) for b, h in zip(board.tolist(), holes.tolist())]
    assert dense(theirs) == dense(omaha.hand_keys(board, holes).tolist())


@pytest.mark.parametrize("hole_size", [4, 5, 6])
def test_high_keys_are_phevaluators(hole_size):
    # phevaluator's PLO entry takes four hole cards and five board cards, rank 1 the best of the
    # 7,462 classes: a hand of more hole cards is the best of its four-card subsets.
    from phevaluator import evaluate_omaha_cards

    board, holes = deal(20_000 if hole_size == 4 else 4_000, 5, hole_size, seed=300 + hole_size)
    ranks = [min(evaluate_omaha_cards(*b, *four) for four in combinations(h, 4))
             for b, h in zip(board.tolist(), holes.tolist())]
    assert omaha.hand_keys(board, holes).tolist() == [7463 - rank for rank in ranks]


# --- low keys ------------------------------------------------------------------------------------

@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_low_keys_order_as_the_brute_force(board_size, hole_size):
    for seed, deck in ((board_size * 10 + hole_size, None), (board_size * 10 + hole_size + 1, LOW_DECK)):
        board, holes = deal(2000, board_size, hole_size, seed=seed, deck=deck)
        keys = omaha.low_keys(board, holes)
        lows = [reference_low(b, h) for b, h in zip(board.tolist(), holes.tolist())]
        assert dense([low_strength(low) for low in lows]) == dense(keys.tolist())
        assert ((keys == 0) == np.array([low is None for low in lows])).all()


@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_low_keys_order_as_pokerkit(board_size, hole_size):
    from pokerkit import OmahaEightOrBetterLowHand

    board, holes = deal(150, board_size, hole_size, seed=400 + board_size * 10 + hole_size, deck=LOW_DECK)
    theirs = [OmahaEightOrBetterLowHand.from_game_or_none(text(h), text(b))
              for b, h in zip(board.tolist(), holes.tolist())]
    keys = omaha.low_keys(board, holes)
    assert [hand is None for hand in theirs] == (keys == 0).tolist()
    present = keys > 0
    assert dense([hand for hand in theirs if hand is not None]) == dense(keys[present].tolist())


def every_low() -> list[tuple[int, ...]]:
    """Every eight-or-better low as five rank indices (the ace 12): C(8, 5) = 56 of them."""
    return list(combinations([12, 0, 1, 2, 3, 4, 5, 6], 5))


def test_every_low_in_every_split_and_suits_against_pokerkit():
    """Each of the 56 lows, its five ranks split every way into two hole and three board cards,
    suits at random, with two high cards to the hand: one key per low whatever the split and
    suits, 1 .. 56, ordered as pokerkit's eight-or-better hands and the rule."""
    from pokerkit import EightOrBetterLowHand

    rng = np.random.default_rng(56)
    lows = every_low()
    boards, holes, which = [], [], []
    for number, ranks in enumerate(lows):
        for hole_places in combinations(range(5), 2):
            suits = rng.integers(0, 4, size=5)
            codes = [4 * rank + int(suit) for rank, suit in zip(ranks, suits)]
            highs = [4 * 11 + int(rng.integers(4)), 4 * 10 + int(rng.integers(4))]  # a king, a queen
            hole = [codes[i] for i in hole_places] + highs
            boards.append([c for i, c in enumerate(codes) if i not in hole_places])
            holes.append(hole)
            which.append(number)
    keys = omaha.low_keys(boards, holes).reshape(len(lows), -1)
    assert (keys == keys[:, :1]).all()
    per_low = keys[:, 0]
    assert sorted(per_low.tolist()) == list(range(1, omaha.LOW_KEYS + 1))
    theirs = [EightOrBetterLowHand(text([4 * rank + 1 for rank in ranks])) for ranks in lows]
    assert dense(theirs) == dense(per_low.tolist())
    reference = [low_strength(low_of_five([4 * rank for rank in ranks])) for ranks in lows]
    assert dense(reference) == dense(per_low.tolist())
    # The wheel is the best, 8 7 6 5 4 the worst, and 8 6 4 3 2 beats 8 7 3 2 A.
    key_of = {tuple(sorted(ranks)): int(key) for ranks, key in zip(lows, per_low)}
    assert key_of[(0, 1, 2, 3, 12)] == omaha.LOW_KEYS and key_of[(2, 3, 4, 5, 6)] == 1
    assert key_of[(0, 1, 2, 4, 6)] > key_of[(0, 1, 5, 6, 12)]


def test_low_key_ranks_name_each_low():
    keys = np.arange(1, omaha.LOW_KEYS + 1)
    ranks = omaha.low_key_ranks(keys)
    values = [tuple(LOW_VALUE[r] for r in row) for row in ranks.tolist()]
    assert all(list(v) == sorted(set(v), reverse=True) and len(v) == 5 for v in values)
    # A higher key is the better low by the rule.
    assert [low_strength(v) for v in values] == sorted(low_strength(v) for v in values)
    # And a hand of those five ranks scores that key.
    board = [[4 * r for r in row[2:]] for row in ranks.tolist()]
    holes = [[4 * r + 1 for r in row[:2]] + [4 * 11, 4 * 11 + 1] for row in ranks.tolist()]
    assert omaha.low_keys(board, holes).tolist() == keys.tolist()
    with pytest.raises(ValueError):
        omaha.low_key_ranks([0])


def low_rank_deals(board_size: int, hole_size: int, seed: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every assignment of the nine low symbols (A, 2..8, and "high") to a board's and a hand's
    places, as multisets, realised with distinct cards, suits at random; in chunks of boards."""
    boards = np.array(list(multisets(range(9), board_size)), dtype=np.int64)
    hands = np.array(list(multisets(range(9), hole_size)), dtype=np.int64)
    rng = np.random.default_rng(seed)
    for start in range(0, len(boards), 100):
        chunk = boards[start:start + 100]
        symbols = np.concatenate([np.repeat(chunk, len(hands), axis=0), np.tile(hands, (len(chunk), 1))],
                                 axis=1)
        # Symbol 0 is the ace (rank 12), 1 .. 7 the deuce .. the eight (ranks 0 .. 6); "high" (8) takes
        # the ranks 9 .. K (7 .. 11) in turn, place by place, so none is dealt more than four times.
        place = np.arange(symbols.shape[1])
        ranks = np.where(symbols == 8, 7 + place % 5, (symbols + 12) % 13)
        # The j-th card of a rank in a row takes suit (offset + j) mod 4: distinct while at most four.
        before = np.zeros(ranks.shape, dtype=np.int64)
        for j in place:
            for i in range(j):
                before[:, j] += ranks[:, i] == ranks[:, j]
        possible = before.max(axis=1) < 4
        offsets = rng.integers(0, 4, size=(len(ranks), 13))
        suits = (np.take_along_axis(offsets, ranks, axis=1) + before) % 4
        codes = (4 * ranks + suits)[possible].astype(np.uint8)
        assert (np.diff(np.sort(codes, axis=1), axis=1) > 0).all()  # distinct cards: a real deal
        yield codes[:, :board_size], codes[:, board_size:]


def vectorized_reference_low(board: np.ndarray, holes: np.ndarray) -> np.ndarray:
    """The rule on whole arrays: each five's values sorted, valid if distinct and at most 8, read
    highest first as a base-9 number (smaller better); the best five's number, or 9**5 for none."""
    value = np.full(cards.DECK_SIZE, 99, dtype=np.int64)
    for rank, low in LOW_VALUE.items():
        value[4 * rank:4 * rank + 4] = low
    none = 9 ** 5
    best = np.full(len(board), none, dtype=np.int64)
    for pair in combinations(range(holes.shape[1]), 2):
        for three in combinations(range(board.shape[1]), 3):
            five = np.sort(value[np.concatenate([holes[:, pair], board[:, three]], axis=1)], axis=1)
            valid = (np.diff(five, axis=1) > 0).all(axis=1) & (five[:, -1] <= 8)
            number = np.zeros(len(board), dtype=np.int64)
            for column in range(4, -1, -1):
                number = number * 9 + five[:, column]
            best = np.minimum(best, np.where(valid, number, none))
    return best


def check_every_low_rank_deal(board_size: int, hole_size: int) -> None:
    # Each low number, and no low, gets one key, the same in every chunk: collect the pairs seen.
    pairs = set()
    for board, holes in low_rank_deals(board_size, hole_size, seed=board_size * 10 + hole_size):
        keys = omaha.low_keys(board, holes)
        numbers = vectorized_reference_low(board, holes)
        assert np.array_equal(keys == 0, numbers == 9 ** 5)
        pairs |= set(zip(numbers.tolist(), keys.tolist()))
    numbers_seen = sorted(pairs)
    assert len({number for number, _ in pairs}) == len(pairs) == len({key for _, key in pairs})
    # Larger key, smaller number: the two orders are each other's reverse, no low at the bottom.
    assert [key for _, key in numbers_seen] == sorted((key for _, key in pairs), reverse=True)
    assert len(pairs) == omaha.LOW_KEYS + 1  # every low occurs, and no low


@pytest.mark.parametrize("board_size", [3, 4, 5])
def test_every_low_rank_deal_of_four_hole_cards(board_size):
    check_every_low_rank_deal(board_size, 4)


@pytest.mark.exhaustive
@pytest.mark.parametrize("board_size, hole_size", [(b, k) for b in (3, 4, 5) for k in (5, 6)])
def test_every_low_rank_deal_of_five_and_six_hole_cards(board_size, hole_size):
    check_every_low_rank_deal(board_size, hole_size)


# --- deals, best five, inputs --------------------------------------------------------------------

@pytest.mark.parametrize("board_size, hole_size", [(5, 4), (4, 5), (3, 6)])
def test_deal_keys_pick_the_winners_of_each_deal(board_size, hole_size):
    seats = 4
    boards, dealt = deal(400, board_size, seats * hole_size, seed=500 + hole_size, deck=LOW_DECK)
    holes = dealt.reshape(len(dealt), seats, hole_size)
    high, low = omaha.deal_keys(boards, holes), omaha.low_deal_keys(boards, holes)
    assert high.shape == low.shape == (seats, len(dealt))  # seat-major, as holdem.deal_keys
    for seat in range(seats):
        assert high[seat].tolist() == omaha.hand_keys(boards, holes[:, seat]).tolist()
        assert low[seat].tolist() == omaha.low_keys(boards, holes[:, seat]).tolist()
    for row, (board, hands) in enumerate(zip(boards.tolist(), holes.tolist())):
        strengths = [reference_high(board, hand) for hand in hands]
        assert {s for s in range(seats) if strengths[s] == max(strengths)} == \
               set(np.flatnonzero(high[:, row] == high[:, row].max()).tolist())
        lows = [low_strength(reference_low(board, hand)) for hand in hands]
        assert {s for s in range(seats) if lows[s] == max(lows)} == \
               set(np.flatnonzero(low[:, row] == low[:, row].max()).tolist())


def test_deal_keys_orientation_is_holdems():
    board, dealt = deal(10, 5, 6, seed=3)
    holdem_holes = dealt.reshape(10, 3, 2)
    omaha_holes = np.concatenate([holdem_holes, holdem_holes[:, ::-1]], axis=2)  # any four cards
    assert omaha.deal_keys(board, omaha_holes).shape == holdem.deal_keys(board, holdem_holes).shape


@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_best_five_is_two_hole_and_three_board_cards_of_the_key(board_size, hole_size):
    deck = TWO_SUITS if hole_size == 5 else None  # many flushes among the rest
    board, holes = deal(400, board_size, hole_size, seed=600 + board_size * 10 + hole_size, deck=deck)
    best = omaha.best_five(board, holes)
    assert best.shape == (len(board), 5) and best.dtype == np.uint8
    for five, b, h in zip(best.tolist(), board.tolist(), holes.tolist()):
        assert len(set(five[:2]) & set(h)) == 2 and len(set(five[2:]) & set(b)) == 3
        assert five_card_value(five) == reference_high(b, h)
    assert holdem.hand_keys(best).tolist() == omaha.hand_keys(board, holes).tolist()


@pytest.mark.parametrize("board_size, hole_size", VARIANTS)
def test_best_low_five_is_two_hole_and_three_board_cards_of_the_low(board_size, hole_size):
    board, holes = deal(400, board_size, hole_size, seed=700 + board_size * 10 + hole_size, deck=LOW_DECK)
    best = omaha.best_low_five(board, holes)
    keys = omaha.low_keys(board, holes)
    assert best.shape == (len(board), 5) and best.dtype == np.uint8
    assert (keys == 0).any() and (keys > 0).any()
    for five, key, b, h in zip(best.tolist(), keys.tolist(), board.tolist(), holes.tolist()):
        if key == 0:
            assert five == [cards.DECK_SIZE] * 5
            continue
        assert len(set(five[:2]) & set(h)) == 2 and len(set(five[2:]) & set(b)) == 3
        assert low_of_five(five) == reference_low(b, h)


def test_inputs_of_any_integer_type_and_no_deal():
    board, holes = deal(50, 4, 5, seed=9)
    expected = omaha.hand_keys(board, holes)
    assert omaha.hand_keys(board.astype(np.int64), holes.astype(np.int32)).tolist() == expected.tolist()
    assert omaha.hand_keys(board.tolist(), holes.tolist()).tolist() == expected.tolist()
    assert omaha.hand_keys(np.zeros((0, 5), np.uint8), np.zeros((0, 4), np.uint8)).shape == (0,)
    assert omaha.deal_keys(np.zeros((0, 3), np.uint8), np.zeros((0, 2, 6), np.uint8)).shape == (2, 0)
    assert omaha.low_deal_keys(np.zeros((0, 3), np.uint8), np.zeros((0, 2, 6), np.uint8)).shape == (2, 0)
    assert omaha.best_five(np.zeros((0, 5), np.uint8), np.zeros((0, 4), np.uint8)).shape == (0, 5)
    assert omaha.best_low_five(np.zeros((0, 5), np.uint8), np.zeros((0, 4), np.uint8)).shape == (0, 5)


@pytest.mark.parametrize("function", [omaha.hand_keys, omaha.low_keys, omaha.best_five, omaha.best_low_five])
@pytest.mark.parametrize("board, holes, message", [
    (np.zeros((2, 6), int), np.zeros((2, 4), int), "board card codes must have shape"),
    (np.zeros((2, 2), int), np.zeros((2, 4), int), "board card codes must have shape"),
    (np.zeros((2, 5), int), np.zeros((2, 3), int), "hole card codes must have shape"),
    (np.zeros((2, 5), int), np.zeros((2, 7), int), "hole card codes must have shape"),
    (np.zeros((2, 5), int), np.zeros((3, 4), int), "hole card codes must have shape"),
    (np.zeros((2, 5), int), np.zeros((2, 1, 4), int), "hole card codes must have shape"),
    (np.full((2, 5), 52), np.zeros((2, 4), int), "must lie in 0..51"),
    (np.zeros((2, 5), int), np.full((2, 4), -1), "must lie in 0..51"),
    (np.zeros((2, 5), float), np.zeros((2, 4), int), "must be integers"),
])
def test_bad_inputs_are_refused(function, board, holes, message):
    with pytest.raises(ValueError, match=message):
        function(board, holes)


@pytest.mark.parametrize("function", [omaha.deal_keys, omaha.low_deal_keys])
def test_deals_need_a_seat_axis(function):
    with pytest.raises(ValueError, match="seats"):
        function(np.zeros((2, 5), int), np.zeros((2, 4), int))
