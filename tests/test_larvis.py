"""Larvis keys against the rules: every hand, the spec's table, the samples."""

from __future__ import annotations

import csv
import itertools
from collections import Counter

import numpy as np
import pyarrow as pa
import pytest

from pipeline.games import larvis as larvis_game
from pipeline.poker import larvis

from .conftest import DATA

SYMBOLS = "23456789TJQKA"


def reference_strength(hand: str) -> tuple:
    """Strength of a Larvis hand written straight from the rules text.

    Categories: Four of a kind > Full house > Triple > Two pairs > A pair >
    High card (no straights, no flushes); within a category the figure's
    cards decide (triple before pair, higher pair first), then the other
    cards high to low.
    """
    counts = Counter(SYMBOLS.index(s) for s in hand.replace("X", "T"))
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    category = {(4, 1): 5, (3, 2): 4, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1,
                (1, 1, 1, 1, 1): 0}[tuple(shape)]
    return (category, [rank for rank, _ in groups])


ALL_HANDS = ["".join(c) for c in itertools.combinations_with_replacement(SYMBOLS, 5)
             if max(Counter(c).values()) <= 4]


def as_ranks(hands: list[str]) -> np.ndarray:
    return np.array([[SYMBOLS.index(s) for s in hand] for hand in hands], dtype=np.int8)


def test_every_suitless_hand_has_its_own_key_in_rule_order():
    keys = larvis.hand_keys(as_ranks(ALL_HANDS))
    assert len(ALL_HANDS) == 6175
    assert sorted(keys.tolist()) == list(range(1, 6176))
    by_rules = sorted(ALL_HANDS, key=reference_strength)
    assert [h for _, h in sorted(zip(keys.tolist(), ALL_HANDS))] == by_rules


def test_category_counts_and_extremes():
    keys = larvis.hand_keys(as_ranks(ALL_HANDS))
    counts = np.bincount(larvis.key_categories(keys), minlength=6)
    # High card, pair, two pairs, triple, full house, four of a kind.
    assert counts.tolist() == [1287, 2860, 858, 858, 156, 156]
    assert larvis.hand_keys(as_ranks(["65432", "AAAAK"])).tolist() == [1, 6175]


def test_category_follows_the_reference():
    keys = larvis.hand_keys(as_ranks(ALL_HANDS))
    categories = larvis.key_categories(keys)
    assert categories.tolist() == [reference_strength(h)[0] for h in ALL_HANDS]


def test_the_order_of_the_cards_never_matters():
    rng = np.random.default_rng(11)
    ranks = as_ranks(ALL_HANDS)
    expected = larvis.hand_keys(ranks)
    for _ in range(5):
        assert np.array_equal(larvis.hand_keys(rng.permuted(ranks, axis=1)), expected)
    for permutation in itertools.permutations(range(5)):
        assert np.array_equal(larvis.hand_keys(ranks[:, permutation]), expected)


def test_spec_table_through_compare(spec_games):
    assert len(spec_games) == 40
    for game in spec_games:
        assert larvis_game.compare(game["Hand1"], game["Hand2"]) == game["Winner"], game


def test_independent_sample_through_compare():
    with open(DATA / "larvis_games_sample.csv", newline="") as handle:
        games = list(csv.DictReader(handle))
    assert len(games) == 400
    for game in games:
        assert larvis_game.compare(game["Hand1"], game["Hand2"]) == game["Winner"], game


@pytest.mark.parametrize("hand, reason", [
    ("AAAQ", "4 symbols, expected 5"),
    ("AAAQQQ", "6 symbols, expected 5"),
    ("AAAQ1", "unknown symbol '1'"),
    ("aaaqq", "unknown symbol 'a'"),
    ("AAAAA", "'A' appears 5 times"),
    ("", "is empty"),
])
def test_bad_hands_are_refused_with_their_reason(hand, reason):
    with pytest.raises(ValueError, match=reason):
        larvis_game.compare(hand, "22345")


def test_ten_may_be_written_x():
    assert larvis_game.compare("XXJJ2", "TTJJ2") == "Tie"


@pytest.mark.parametrize("ranks, message", [
    (np.zeros((3, 4), dtype=np.int8), "shape"),
    (np.full((1, 5), 13), "0..12"),
    (np.full((1, 5), -1), "0..12"),
    (np.zeros((2, 5), dtype=np.int8), "five times"),
    (np.zeros((1, 5), dtype=float), "integers"),
])
def test_hand_keys_refuses_impossible_input(ranks, message):
    with pytest.raises(ValueError, match=message):
        larvis.hand_keys(ranks)


@pytest.mark.parametrize("padded", [" AAAQQ ", "AAAQQ\t", "\u00a0AAAQQ"])
def test_surrounding_spaces_are_trimmed_as_in_holdem(padded):
    assert larvis_game.hand_problem(padded) is None
    ranks, reasons = larvis_game.parse_hands(pa.array([padded, "AAAQQ"]), label="Hand1")
    assert reasons.tolist() == [None, None]
    assert (ranks[0] == ranks[1]).all()
    assert larvis_game.compare(padded, "QQAAA") == "Tie"
