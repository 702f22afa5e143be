"""Short-deck best five, descriptions and exact counts: every key's pattern scored back to its key,
hands described as a player says them, best fives of random hands re-scored, and the counts of
every category against pokerkit (five cards) and an enumeration of all six-card hands built with
itertools (six and seven cards)."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations
from math import comb

import numpy as np
import pyarrow as pa
import pytest
from pokerkit import Card, ShortDeckHoldemLookup
from pokerkit.lookups import Label

from pipeline.poker import cards, describe, exact, larvis, shortdeck

RANKINGS = pytest.mark.parametrize("trips_beat_straight", [False, True], ids=["pokerkit", "trips-first"])
SIX, ACE = cards.RANKS.index("6"), cards.RANKS.index("A")
LOW_STRAIGHT = [SIX, SIX + 1, SIX + 2, SIX + 3, ACE]
SUITED = {"Flush", "Straight Flush"}
KEYS = 1404


def significance_order(ranks: list[int]) -> list[int]:
    """Five ranks as a player lists them: a straight from its top (A 6 7 8 9 as 9 8 7 6 A), anything
    else by group size then rank, both descending."""
    ascending = sorted(ranks)
    if ascending == LOW_STRAIGHT:
        return [SIX + 3, SIX + 2, SIX + 1, SIX, ACE]
    if len(set(ranks)) == 5 and ascending[4] - ascending[0] == 4:
        return ascending[::-1]
    counts = Counter(ranks)
    return sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True)


def names_of(keys: np.ndarray, trips_beat_straight: bool) -> list[str]:
    order = shortdeck.category_order(trips_beat_straight=trips_beat_straight)
    codes = shortdeck.key_categories(keys, trips_beat_straight=trips_beat_straight)
    return [str(order[code]) for code in codes]


def deals(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct short-deck cards."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(shortdeck.DECK_CODES, (n, 1)), axis=1)[:, :k]


# --- patterns -------------------------------------------------------------------------------------


@RANKINGS
def test_every_keys_pattern_scores_back_to_the_key(trips_beat_straight):
    patterns = describe.shortdeck_patterns(trips_beat_straight=trips_beat_straight)
    assert patterns.shape == (KEYS + 1, 5) and patterns.dtype == np.int8 and not patterns.flags.writeable
    assert patterns is describe.shortdeck_patterns(trips_beat_straight=trips_beat_straight)  # built once
    assert (patterns[0] == 0).all() and patterns[1:].min() == SIX and patterns[1:].max() == ACE
    keys = np.arange(1, KEYS + 1)
    hands = []
    for ranks, name in zip(patterns[1:].tolist(), names_of(keys, trips_beat_straight)):
        assert ranks == significance_order(ranks), (ranks, name)
        if name in SUITED:
            codes = [4 * rank + 3 for rank in ranks]  # all spades
        else:
            seen: Counter = Counter()
            codes = []
            for rank in ranks:  # each rank's copies in different suits, clubs first
                codes.append(4 * rank + seen[rank])
                seen[rank] += 1
            if len(set(ranks)) == 5:
                codes[0] += 1  # five clubs would be a flush: one diamond
        hands.append(codes)
    np.testing.assert_array_equal(shortdeck.hand_keys(hands, trips_beat_straight=trips_beat_straight), keys)


def test_the_two_rankings_have_the_same_patterns_straights_moved_below_trips():
    default, trips = (describe.shortdeck_patterns(trips_beat_straight=t) for t in (False, True))
    assert default[1129].tolist() == trips[877].tolist() == [SIX + 3, SIX + 2, SIX + 1, SIX, ACE]
    straights = slice(1129, 1135)
    np.testing.assert_array_equal(default[straights], trips[877:883])
    np.testing.assert_array_equal(default[877:1129], trips[883:1135])
    np.testing.assert_array_equal(default[1135:], trips[1135:])


# --- descriptions and best five of hand-picked hands -------------------------------------------------


def codes_of(hand: str) -> np.ndarray:
    return np.array([[cards.card_code(card) for card in hand.split()]], dtype=np.uint8)


@pytest.mark.parametrize(("hand", "trips_beat_straight", "best", "description"), [
    ("9c Ah 7h 6d Kc 8s Ks", False, "9c 8s 7h 6d Ah", "Straight, Nine high"),
    ("As 6s 7s 8s 9s Ks Qd", False, "9s 8s 7s 6s As", "Straight Flush, Nine high"),
    ("Ts Js Qs Ks As Ah Ad", False, "As Ks Qs Js Ts", "Royal Flush"),
    ("Ah Kh 9h 7h 6h Ad Ac", False, "Ah Kh 9h 7h 6h", "Flush, Ace, King, Nine, Seven, Six"),
    ("Ah Ad Ac Kh Kd 6h 7c", False, "Ah Ad Ac Kh Kd", "Full House, Aces full of Kings"),
    ("6h 6d 6s 7c 8d 9h Ts", False, "Ts 9h 8d 7c 6s", "Straight, Ten high"),
    ("6h 6d 6s 7c 8d 9h Ts", True, "6s 6h 6d Ts 9h", "Three of a Kind, Sixes, kickers Ten, Nine"),
    ("As 6d 7h 8s 9c", True, "9c 8s 7h 6d As", "Straight, Nine high"),
    ("9h 9d 9s 9c Ah 6d 7h", False, "9s 9h 9d 9c Ah", "Four of a Kind, Nines, Ace kicker"),
    ("Ah Kd As Kc Qd 6c 7h", False, "As Ah Kd Kc Qd", "Two Pair, Aces and Kings, Queen kicker"),
    ("Jh Jd 6s Qc Ah 7d 8h", False, "Jh Jd Ah Qc 8h", "Pair, Jacks, kickers Ace, Queen, Eight"),
    ("Ac Kd Qh 9s 7c 6d Jh", False, "Ac Kd Qh Jh 9s", "High Card, Ace, King, Queen, Jack, Nine"),
])
def test_described_as_a_player_says_it(hand, trips_beat_straight, best, description):
    codes = codes_of(hand)
    keys = shortdeck.hand_keys(codes, trips_beat_straight=trips_beat_straight)
    chosen = describe.shortdeck_best_five(codes, keys, trips_beat_straight=trips_beat_straight)
    assert " ".join(cards.CARD_TEXT[chosen[0]]) == best
    texts = describe.shortdeck_descriptions(keys, trips_beat_straight=trips_beat_straight)
    assert texts.to_pylist() == [description]


@RANKINGS
def test_every_description_is_its_own_and_starts_with_its_category(trips_beat_straight):
    keys = np.arange(1, KEYS + 1)
    texts = describe.shortdeck_descriptions(keys, trips_beat_straight=trips_beat_straight)
    assert texts.type == pa.dictionary(pa.int16(), pa.string())
    texts = texts.to_pylist()
    assert len(set(texts)) == KEYS
    for key, text, name in zip(keys.tolist(), texts, names_of(keys, trips_beat_straight)):
        assert text.startswith(name + ",") or (text == "Royal Flush" and key == KEYS), (key, text)
    absent = describe.shortdeck_descriptions(np.array([1, 0]), present=np.array([True, False]),
                                             trips_beat_straight=trips_beat_straight)
    assert absent.to_pylist() == [texts[0], None]


def test_describe_knows_a_category_by_its_name_in_any_order():
    # Short deck's order puts the flush above the full house: the shapes follow the names.
    order = tuple(shortdeck.CATEGORIES)
    assert describe.describe("Flush", [12, 11, 9, 7, 4], names=order) == "Flush, Ace, King, Jack, Nine, Six"
    assert describe.describe("Full House", [12, 12, 12, 4, 4], names=order) == (
        "Full House, Aces full of Sixes")
    trips = tuple(shortdeck.TRIPS_CATEGORIES)
    assert describe.describe("Straight", [7, 6, 5, 4, 12], names=trips) == "Straight, Nine high"
    assert describe.describe("Three of a Kind", [4, 4, 4, 12, 11], names=trips) == (
        "Three of a Kind, Sixes, kickers Ace, King")
    with pytest.raises(ValueError, match="not a category"):
        describe.describe("Flush", [12, 11, 9, 7, 4], names=tuple(larvis.CATEGORIES))


# --- best five of random hands ---------------------------------------------------------------------


def check_best_five(hands: np.ndarray, trips_beat_straight: bool) -> np.ndarray:
    keys = shortdeck.hand_keys(hands, trips_beat_straight=trips_beat_straight)
    best = describe.shortdeck_best_five(hands, keys, trips_beat_straight=trips_beat_straight)
    assert best.shape == (len(hands), 5) and best.dtype == np.uint8
    ordered = np.sort(best, axis=1)
    assert (ordered[:, 1:] != ordered[:, :-1]).all()  # five different cards
    assert (best[:, :, None] == hands[:, None, :]).any(axis=2).all()  # all of them the hand's
    np.testing.assert_array_equal(shortdeck.hand_keys(best, trips_beat_straight=trips_beat_straight), keys)
    # In order of significance, the key's pattern; of equal ranks the higher suit first.
    patterns = describe.shortdeck_patterns(trips_beat_straight=trips_beat_straight)
    np.testing.assert_array_equal(best >> 2, patterns[keys])
    same_rank = (best[:, 1:] >> 2) == (best[:, :-1] >> 2)
    assert ((best[:, :-1] & 3) > (best[:, 1:] & 3))[same_rank].all()
    return best


@RANKINGS
@pytest.mark.parametrize("k", [5, 6, 7])
def test_best_five_of_random_hands(trips_beat_straight, k):
    check_best_five(deals(20_000, k, seed=100 + k), trips_beat_straight)


@RANKINGS
def test_best_five_of_hands_with_five_or_more_of_a_suit(trips_beat_straight):
    # Seven cards of which five to seven are hearts: flushes, straight flushes (A 6 7 8 9 among them),
    # and trips or two pair beside them.
    rng = np.random.default_rng(5)
    hearts = shortdeck.DECK_CODES[(shortdeck.DECK_CODES & 3) == 2]
    others = shortdeck.DECK_CODES[(shortdeck.DECK_CODES & 3) != 2]
    hands = []
    for suited in rng.integers(5, 8, size=5000):
        hands.append(np.concatenate([rng.choice(hearts, suited, replace=False),
                                     rng.choice(others, 7 - suited, replace=False)]))
    hands = np.array(hands, dtype=np.uint8)
    best = check_best_five(hands, trips_beat_straight)
    assert ((best & 3) == 2).all()
    names = Counter(names_of(shortdeck.hand_keys(hands, trips_beat_straight=trips_beat_straight),
                             trips_beat_straight))
    assert set(names) == SUITED


def test_bad_keys_are_refused():
    hand = codes_of("As 6d 7h 8s 9c")
    with pytest.raises(ValueError, match="keys must lie in 0..1404"):
        describe.shortdeck_best_five(hand, np.array([1405]))
    no_hands = np.zeros((0, 7), dtype=np.uint8)
    assert describe.shortdeck_best_five(no_hands, np.zeros(0, np.int16)).shape == (0, 5)


# --- exact counts ----------------------------------------------------------------------------------

NAME_OF_LABEL = {
    Label.HIGH_CARD: "High Card", Label.ONE_PAIR: "Pair", Label.TWO_PAIR: "Two Pair",
    Label.THREE_OF_A_KIND: "Three of a Kind", Label.STRAIGHT: "Straight", Label.FULL_HOUSE: "Full House",
    Label.FLUSH: "Flush", Label.FOUR_OF_A_KIND: "Four of a Kind", Label.STRAIGHT_FLUSH: "Straight Flush",
}


@RANKINGS
@pytest.mark.parametrize("k", [5, 6, 7])
def test_counts_cover_every_hand_in_the_rankings_order(trips_beat_straight, k):
    counts = exact.shortdeck_counts(k, trips_beat_straight=trips_beat_straight)
    assert list(counts) == [str(c) for c in shortdeck.category_order(trips_beat_straight=trips_beat_straight)]
    assert sum(counts.values()) == comb(36, k)
    assert all(isinstance(count, int) and count > 0 for count in counts.values())


def test_only_seven_cards_hold_trips_and_a_straight_at_once():
    # A straight and three of a kind need seven cards: below that the rankings count alike, and at
    # seven the hands holding both move from straight to three of a kind.
    for k in (5, 6):
        assert exact.shortdeck_counts(k) == exact.shortdeck_counts(k, trips_beat_straight=True)
    default, trips = exact.shortdeck_counts(7), exact.shortdeck_counts(7, trips_beat_straight=True)
    moved = default["Straight"] - trips["Straight"]
    assert moved > 0 and trips["Three of a Kind"] - default["Three of a Kind"] == moved
    assert {n: c for n, c in default.items() if n not in ("Straight", "Three of a Kind")} == {
        n: c for n, c in trips.items() if n not in ("Straight", "Three of a Kind")}


@pytest.mark.parametrize("k", [4, 8, 0])
def test_counts_are_for_five_to_seven_cards(k):
    with pytest.raises(ValueError, match="short-deck counts"):
        exact.shortdeck_counts(k)


@pytest.mark.parametrize(("n", "k"), [(9, 1), (9, 4), (12, 12), (36, 3)])
def test_combination_rows_are_itertools_combinations(n, k):
    np.testing.assert_array_equal(exact.combination_rows(n, k), np.array(list(combinations(range(n), k))))


def test_five_card_counts_are_pokerkits():
    lookup = ShortDeckHoldemLookup()
    deck = shortdeck.DECK_CODES.tolist()
    card = {code: next(iter(Card.parse(str(cards.CARD_TEXT[code])))) for code in deck}
    theirs = Counter(NAME_OF_LABEL[lookup.get_entry([card[code] for code in hand]).label]
                     for hand in combinations(deck, 5))
    assert sum(theirs.values()) == comb(36, 5) == 376_992
    assert exact.shortdeck_counts(5) == dict(theirs)
    assert exact.shortdeck_counts(5, trips_beat_straight=True) == dict(theirs)


#: C(n, j) for n in 0..36, j in 0..6, as int32 (C(36, 6) = 1,947,792 fits).
BINOMIALS = np.array([[comb(n, j) for j in range(7)] for n in range(37)], dtype=np.int32)


def colex_rank(rows: np.ndarray) -> np.ndarray:
    """Each ascending row's place in colexicographic order: sum of C(c_i, i + 1)."""
    return sum(BINOMIALS[rows[:, i], i + 1] for i in range(rows.shape[1]))


@pytest.fixture(scope="module")
def every_six() -> np.ndarray:
    """All C(36, 6) six-card sets of deck positions (0..35, code - 16) from itertools, in colex order:
    the sets of positions below x are then the first C(x, 6) rows."""
    count = comb(36, 6)
    rows = np.fromiter(chain.from_iterable(combinations(range(36), 6)), dtype=np.uint8,
                       count=6 * count).reshape(count, 6)
    rank = colex_rank(rows)
    np.testing.assert_array_equal(np.sort(rank), np.arange(count))
    ordered = np.empty_like(rows)
    ordered[rank] = rows
    return ordered


def category_counts(keys_seen: np.ndarray, trips_beat_straight: bool) -> dict[str, int]:
    """Hands of each category from the number of hands of each key."""
    totals: Counter = Counter()
    for name, seen in zip(names_of(np.arange(1, KEYS + 1), trips_beat_straight), keys_seen[1:].tolist()):
        totals[name] += seen
    return dict(totals)


@pytest.mark.exhaustive
@RANKINGS
def test_six_and_seven_card_counts_agree_with_every_six_card_hand(every_six, trips_beat_straight):
    codes = every_six + np.uint8(shortdeck.LOWEST_CODE)
    six = shortdeck.hand_keys(codes, trips_beat_straight=trips_beat_straight)
    assert exact.shortdeck_counts(6, trips_beat_straight=trips_beat_straight) == category_counts(
        np.bincount(six, minlength=KEYS + 1), trips_beat_straight)
    # Seven cards without scoring seven: the best five of seven is the best of its seven six-card
    # subsets.  Every seven-card set is a six-card set S (the first C(x, 6) rows) and a card x above
    # S; its subsets are S and each S - s_i + x, whose colex rank is C(x, 6) + the rank of S - s_i,
    # sum_{j<i} C(s_j, j + 1) + sum_{j>i} C(s_j, j).
    seen = np.zeros(KEYS + 1, dtype=np.int64)
    for x in range(6, 36):
        below = every_six[:comb(x, 6)]
        before = np.cumsum([BINOMIALS[below[:, j], j + 1] for j in range(6)], axis=0)
        after = np.cumsum([BINOMIALS[below[:, j], j] for j in range(5, -1, -1)], axis=0)[::-1]
        best = six[:comb(x, 6)].copy()
        for i in range(6):
            rank = comb(x, 6) + (before[i - 1] if i else 0) + (after[i + 1] if i < 5 else 0)
            np.maximum(best, six[rank], out=best)
        seen += np.bincount(best, minlength=KEYS + 1)
    assert seen.sum() == comb(36, 7)
    assert exact.shortdeck_counts(7, trips_beat_straight=trips_beat_straight) == category_counts(
        seen, trips_beat_straight)
