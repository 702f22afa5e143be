"""Short-deck keys: every five-card hand against pokerkit, seven-card hands against a reference
written here from the rules, and whole deals against pokerkit's ``ShortDeckHoldemHand.from_game``."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from math import comb

import numpy as np
import pytest
from pokerkit import Card, ShortDeckHoldemHand, ShortDeckHoldemLookup
from pokerkit.lookups import Label

from pipeline.poker import cards, holdem, shortdeck
from pipeline.poker.shortdeck import Category

SIX, NINE, TEN, ACE = (cards.RANKS.index(r) for r in "69TA")
#: pokerkit's labels as this package spells them.
NAME_OF_LABEL = {
    Label.HIGH_CARD: Category.HIGH_CARD, Label.ONE_PAIR: Category.PAIR, Label.TWO_PAIR: Category.TWO_PAIR,
    Label.THREE_OF_A_KIND: Category.THREE_OF_A_KIND, Label.STRAIGHT: Category.STRAIGHT,
    Label.FULL_HOUSE: Category.FULL_HOUSE, Label.FLUSH: Category.FLUSH,
    Label.FOUR_OF_A_KIND: Category.FOUR_OF_A_KIND, Label.STRAIGHT_FLUSH: Category.STRAIGHT_FLUSH,
}
#: Five-card hands of each category in the 36-card deck, counted from the rules: nine ranks, four
#: suits, six runs of five ranks (A 6 7 8 9 to T J Q K A), and 4**5 - 4 suitings that are no flush.
STRAIGHTS, SUITINGS = 6, 4 ** 5 - 4
HANDS_OF = {
    Category.HIGH_CARD: (comb(9, 5) - STRAIGHTS) * SUITINGS,
    Category.PAIR: 9 * comb(8, 3) * comb(4, 2) * 4 ** 3,
    Category.TWO_PAIR: comb(9, 2) * 7 * comb(4, 2) ** 2 * 4,
    Category.THREE_OF_A_KIND: 9 * comb(8, 2) * comb(4, 3) * 4 ** 2,
    Category.STRAIGHT: STRAIGHTS * SUITINGS,
    Category.FULL_HOUSE: 9 * 8 * comb(4, 3) * comb(4, 2),
    Category.FLUSH: (comb(9, 5) - STRAIGHTS) * 4,
    Category.FOUR_OF_A_KIND: 9 * 8 * 4,
    Category.STRAIGHT_FLUSH: STRAIGHTS * 4,
}
#: Distinct classes (keys) of each category: hands that differ by suits alone tie.
CLASSES_OF = {
    Category.HIGH_CARD: comb(9, 5) - STRAIGHTS, Category.PAIR: 9 * comb(8, 3),
    Category.TWO_PAIR: comb(9, 2) * 7, Category.THREE_OF_A_KIND: 9 * comb(8, 2),
    Category.STRAIGHT: STRAIGHTS, Category.FULL_HOUSE: 9 * 8, Category.FLUSH: comb(9, 5) - STRAIGHTS,
    Category.FOUR_OF_A_KIND: 9 * 8, Category.STRAIGHT_FLUSH: STRAIGHTS,
}
DOCUMENTED_RANGE = re.compile(r"([A-Z][a-z]+(?: [a-z]+)*(?: [A-Z][a-z]+)?)\s+(\d+) \.\.\s+(\d+)")
RANKINGS = pytest.mark.parametrize("trips_beat_straight", [False, True], ids=["pokerkit", "trips-first"])
POKERKIT_CARD = {code: next(iter(Card.parse(str(cards.CARD_TEXT[code]))))
                 for code in shortdeck.DECK_CODES.tolist()}


def text(codes) -> str:
    return "".join(str(cards.CARD_TEXT[code]) for code in codes)


def dense(values) -> np.ndarray:
    """Each value's place among the distinct values, weakest 0: two orders agree iff their dense ranks do."""
    ordered = sorted(set(values))
    place = {value: index for index, value in enumerate(ordered)}
    return np.array([place[value] for value in values])


def deals(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct short-deck cards."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(shortdeck.DECK_CODES, (n, 1)), axis=1)[:, :k]


def reference_five(codes, trips_beat_straight: bool) -> tuple[int, tuple[int, ...]]:
    """(category strength, tie-break) of five cards, straight from the rules."""
    ranks, suits = [code >> 2 for code in codes], {code & 3 for code in codes}
    count = Counter(ranks)
    shape = sorted(count.values(), reverse=True)
    run = sorted(count)
    top = None
    if len(run) == 5 and run[-1] - run[0] == 4:
        top = run[-1]
    elif run == [SIX, SIX + 1, SIX + 2, NINE, ACE]:  # A 6 7 8 9: the ace plays low, the nine is the top
        top = NINE
    flush = len(suits) == 1
    if top is not None:
        name, tie = (Category.STRAIGHT_FLUSH if flush else Category.STRAIGHT), (top,)
    else:
        of_shape = {(4, 1): Category.FOUR_OF_A_KIND, (3, 2): Category.FULL_HOUSE,
                    (3, 1, 1): Category.THREE_OF_A_KIND, (2, 2, 1): Category.TWO_PAIR,
                    (2, 1, 1, 1): Category.PAIR, (1, 1, 1, 1, 1): Category.HIGH_CARD}
        # Five distinct suited ranks that make no run are a flush; suits cannot matter otherwise.
        name = Category.FLUSH if flush else of_shape[tuple(shape)]
        # The larger group first, then the higher rank: trips before the pair, kickers high to low.
        tie = tuple(sorted(ranks, key=lambda rank: (count[rank], rank), reverse=True))
    order = [Category.HIGH_CARD, Category.PAIR, Category.TWO_PAIR, Category.THREE_OF_A_KIND,
             Category.STRAIGHT, Category.FULL_HOUSE, Category.FLUSH, Category.FOUR_OF_A_KIND,
             Category.STRAIGHT_FLUSH]
    if trips_beat_straight:
        order[3], order[4] = order[4], order[3]
    return order.index(name), tie


def reference_best(codes, trips_beat_straight: bool) -> tuple[int, tuple[int, ...]]:
    return max(reference_five(five, trips_beat_straight) for five in itertools.combinations(codes, 5))


@pytest.fixture(scope="module")
def every_five() -> np.ndarray:
    """All C(36, 5) five-card hands."""
    return np.array(list(itertools.combinations(shortdeck.DECK_CODES.tolist(), 5)), dtype=np.uint8)


@pytest.fixture(scope="module")
def pokerkit_entries(every_five):
    lookup = ShortDeckHoldemLookup()
    return [lookup.get_entry([POKERKIT_CARD[code] for code in row]) for row in every_five.tolist()]


def test_the_counts_from_the_rules_add_up():
    assert sum(HANDS_OF.values()) == comb(36, 5) == 376_992
    assert sum(CLASSES_OF.values()) == 1404


def test_every_five_card_hand_orders_and_ties_as_pokerkit(every_five, pokerkit_entries):
    keys = shortdeck.hand_keys(every_five)
    assert len(every_five) == comb(36, 5)
    np.testing.assert_array_equal(dense(keys.tolist()), dense([entry.index for entry in pokerkit_entries]))
    assert keys.min() == 1 and keys.max() == 1404 and len(np.unique(keys)) == 1404


def test_every_five_card_hand_has_pokerkits_category_and_the_counts_from_the_rules(every_five,
                                                                                   pokerkit_entries):
    codes = shortdeck.key_categories(shortdeck.hand_keys(every_five))
    ours = [str(shortdeck.CATEGORIES[code]) for code in codes]
    theirs = [str(NAME_OF_LABEL[entry.label]) for entry in pokerkit_entries]
    assert ours == theirs
    assert Counter(theirs) == {str(name): count for name, count in HANDS_OF.items()}


def test_the_trips_first_ranking_is_pokerkits_with_straights_below_trips(every_five, pokerkit_entries):
    keys = shortdeck.hand_keys(every_five, trips_beat_straight=True)
    # Straights move as a block to between two pair and trips; inside a block pokerkit's order stands.
    block = {label: (place, 0) for place, label in enumerate(NAME_OF_LABEL)}
    block[Label.STRAIGHT] = (block[Label.TWO_PAIR][0], 1)
    block[Label.THREE_OF_A_KIND] = (block[Label.TWO_PAIR][0], 2)
    expected = [(*block[entry.label], entry.index) for entry in pokerkit_entries]
    np.testing.assert_array_equal(dense(keys.tolist()), dense(expected))
    categories = shortdeck.key_categories(keys, trips_beat_straight=True)
    assert Counter(str(shortdeck.TRIPS_CATEGORIES[c]) for c in categories) == {
        str(name): count for name, count in HANDS_OF.items()}


@RANKINGS
def test_categories_take_consecutive_key_ranges_as_documented(trips_beat_straight):
    order = shortdeck.category_order(trips_beat_straight=trips_beat_straight)
    codes = shortdeck.key_categories(np.arange(1, 1405), trips_beat_straight=trips_beat_straight)
    lengths = [CLASSES_OF[Category(str(c))] for c in order]
    np.testing.assert_array_equal(codes, np.repeat(np.arange(9), lengths))
    assert shortdeck.key_categories(np.array([0]), trips_beat_straight=trips_beat_straight).tolist() == [-1]
    # The module docstring's table, and the sentence that gives the other ranking's two ranges.
    table, sentence = (shortdeck.__doc__ or "").split("(:class:`Category`)::")[1].split("and with", 1)
    documented = {name: (int(low), int(high)) for name, low, high in DOCUMENTED_RANGE.findall(table)}
    if trips_beat_straight:
        documented |= {name: (int(low), int(high)) for name, low, high in
                       DOCUMENTED_RANGE.findall(sentence.split("How a row is scored")[0])}
    starts = np.flatnonzero(np.diff(codes, prepend=-1)) + 1
    ends = np.append(starts[1:] - 1, 1404)
    assert documented == {str(c): (int(s), int(e)) for c, s, e in zip(order, starts, ends, strict=True)}


def test_the_category_enums_spell_holdems_names_in_the_two_orders():
    assert set(shortdeck.CATEGORIES) == set(holdem.CATEGORIES) == set(shortdeck.TRIPS_CATEGORIES)
    assert shortdeck.CATEGORIES.index(Category.FLUSH) > shortdeck.CATEGORIES.index(Category.FULL_HOUSE)
    names = [str(c) for c in shortdeck.TRIPS_CATEGORIES]
    assert names.index("Three of a Kind") == names.index("Straight") + 1


@RANKINGS
@pytest.mark.parametrize(("k", "n"), [(5, 500), (6, 1000), (7, 2500)])
def test_random_hands_order_as_the_reference_from_the_rules(trips_beat_straight, k, n):
    hands = deals(n, k, seed=k)
    keys = shortdeck.hand_keys(hands, trips_beat_straight=trips_beat_straight)
    reference = [reference_best(row, trips_beat_straight) for row in hands.tolist()]
    np.testing.assert_array_equal(dense(keys.tolist()), dense(reference))


def test_the_reference_knows_the_edge_cases():
    def strength(hand: str, trips: bool = False):
        return reference_five([cards.card_code(hand[i:i + 2]) for i in range(0, 10, 2)], trips)

    assert strength("As6d7h8s9c") < strength("6s7d8h9sTc") < strength("TsJdQhKsAc")
    assert strength("AsAdAhKsQc") < strength("As6d7h8s9c")
    assert strength("AsAdAhKsQc", True) > strength("As6d7h8s9c", True)
    assert strength("6s7s8s9sJs") > strength("AsAdAhKsKc")
    assert strength("AsKdQhJs9c") < strength("6s6d7h8s9c")


def test_random_deals_match_pokerkits_from_game():
    board_and_holes = deals(700, 5 + 3 * 2, seed=7)
    board, holes = board_and_holes[:, :5], board_and_holes[:, 5:].reshape(-1, 3, 2)
    keys = shortdeck.deal_keys(board, holes)
    assert keys.shape == (3, len(board))
    theirs = [[ShortDeckHoldemHand.from_game(text(holes[deal, seat]), text(board[deal])).entry.index
               for deal in range(len(board))] for seat in range(3)]
    np.testing.assert_array_equal(dense(keys.ravel().tolist()), dense(np.ravel(theirs).tolist()))


@RANKINGS
def test_deal_keys_are_hand_keys_of_each_seats_seven(trips_beat_straight):
    board_and_holes = deals(20_000, 5 + 4 * 2, seed=11)
    board, holes = board_and_holes[:, :5], board_and_holes[:, 5:].reshape(-1, 4, 2)
    keys = shortdeck.deal_keys(board, holes, trips_beat_straight=trips_beat_straight)
    for seat in range(4):
        seven = np.concatenate([holes[:, seat], board], axis=1)
        alone = shortdeck.hand_keys(seven, trips_beat_straight=trips_beat_straight)
        np.testing.assert_array_equal(keys[seat], alone)


def test_of_several_runs_in_a_suit_the_strongest_straight_flush_wins():
    # Seven hearts hold A 6 7 8 9 and 6 7 8 9 T suited and an ace-high plain flush: 6..T wins, the
    # fifth straight flush from the top.
    hand = [cards.card_code(c) for c in ("6h", "7h", "8h", "9h", "Th", "Ah", "Kh")]
    expected = sum(CLASSES_OF.values()) - 4
    assert shortdeck.hand_keys([hand]).tolist() == shortdeck.hand_keys([hand[:5]]).tolist() == [expected]
    assert shortdeck.deal_keys([hand[:5]], [[hand[5:]]]).tolist() == [[expected]]


def test_the_deck_is_the_36_cards_six_to_ace():
    deck = shortdeck.DECK_CODES
    assert deck.tolist() == sorted(set(deck.tolist())) and len(deck) == 36
    assert text(deck[:2]) == "6c6d" and text(deck[-1:]) == "As"
    assert not deck.flags.writeable


@pytest.mark.parametrize(("hands", "message"), [
    ([[cards.card_code(c) for c in ("5s", "6d", "7h", "8s", "9c")]], "short-deck cards.*found 5s"),
    ([[16, 17, 18, 19, 52]], "must lie in 0..51"),
    ([[16, 17, 18, 19]], r"shape \(n, 5\) or \(n, 6\) or \(n, 7\)"),
    ([[16, 17, 18, 19, 16]], "a rank appears five times"),
    ([[16.0, 17, 18, 19, 20]], "must be integers"),
])
def test_bad_hands_are_refused(hands, message):
    with pytest.raises(ValueError, match=message):
        shortdeck.hand_keys(hands)


def test_bad_deals_are_refused():
    board = [[cards.card_code(c) for c in ("As", "Ks", "Qs", "6d", "7c")]]
    with pytest.raises(ValueError, match="hole card codes must be short-deck cards"):
        shortdeck.deal_keys(board, [[[cards.card_code("2c"), cards.card_code("Ah")]]])
    with pytest.raises(ValueError, match="board card codes must be short-deck cards"):
        shortdeck.deal_keys([[0, 17, 18, 19, 20]], [[[30, 31]]])
    with pytest.raises(ValueError, match="must have shape"):
        shortdeck.deal_keys(board, [[30, 31]])
    with pytest.raises(ValueError, match=r"board card codes must have shape \(n, 5\)"):  # no flop-only boards
        shortdeck.deal_keys([board[0][:3]], [[[30, 31]]])
    with pytest.raises(ValueError, match="keys must lie in 0..1404"):
        shortdeck.key_categories(np.array([1405]))


def test_no_rows_need_no_cards():
    assert shortdeck.hand_keys(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)
    no_deal = shortdeck.deal_keys(np.zeros((0, 5), dtype=np.uint8), np.zeros((0, 3, 2), dtype=np.uint8))
    assert no_deal.shape == (3, 0)
