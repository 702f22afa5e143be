"""Hold'em keys against the statement's rules: every five-card hand, a
brute-force best-of-seven reference, and every tie-break example."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pipeline.games.deals import BOARD_SIZES, HOLDEM, Shape, parse_deals
from pipeline.poker import cards, holdem

from .rules import best_value as reference_best
from .rules import five_card_value as reference_five

RANKS = "23456789TJQKA"


def dense(values: list) -> list[int]:
    ranking = {value: rank for rank, value in enumerate(sorted(set(values)))}
    return [ranking[value] for value in values]


def codes(text: str) -> list[int]:
    return [cards.card_code(card) for card in text.split()]


ALL_FIVE = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)


def test_every_five_card_hand_category_and_class_count():
    keys = holdem.hand_keys(ALL_FIVE)
    counts = np.bincount(holdem.key_categories(keys), minlength=9)
    assert counts.tolist() == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]
    assert len(np.unique(keys)) == 7462 and keys.min() == 1 and keys.max() == 7462


def test_five_card_keys_follow_the_reference_order():
    # One hand of each of the 7,462 classes, and a random sample besides.
    keys = holdem.hand_keys(ALL_FIVE)
    _, first = np.unique(keys, return_index=True)
    rng = np.random.default_rng(5)
    sample = np.concatenate([first, rng.choice(len(ALL_FIVE), 20000, replace=False)])
    strengths = [reference_five(hand.tolist()) for hand in ALL_FIVE[sample]]
    assert dense(strengths) == dense(keys[sample].tolist())


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.mark.parametrize("k, seed", [(6, 1), (7, 2), (7, 3)])
def test_best_of_six_and_seven_agrees_with_brute_force(k, seed):
    hands = random_hands(4000, k, seed)
    keys = holdem.hand_keys(hands)
    strengths = [reference_best(hand.tolist()) for hand in hands]
    assert dense(strengths) == dense(keys.tolist())


def test_rare_categories_agree_with_brute_force():
    # Random deals rarely hold straight flushes or quads: build them on purpose.
    rng = np.random.default_rng(9)
    hands = []
    for _ in range(1500):
        suit, low = rng.integers(4), rng.integers(-1, 9)
        run = [((r % 13) * 4 + suit) for r in range(low, low + 5)]  # -1 is the ace
        rest = [c for c in rng.permutation(52).tolist() if c not in run][:2]
        hands.append(run + rest)
        rank = rng.integers(13)
        quads = [rank * 4 + s for s in range(4)]
        rest = [c for c in rng.permutation(52).tolist() if c not in quads][:3]
        hands.append(quads + rest)
    hands = np.array(hands, dtype=np.uint8)
    keys = holdem.hand_keys(hands)
    assert dense([reference_best(h.tolist()) for h in hands]) == dense(keys.tolist())


def test_keys_do_not_depend_on_card_order():
    hands = random_hands(20000, 7, 4)
    expected = holdem.hand_keys(hands)
    rng = np.random.default_rng(0)
    assert np.array_equal(holdem.hand_keys(rng.permuted(hands, axis=1)), expected)


# The statement's tie-break examples: (stronger, weaker), five cards each.
STATEMENT_EXAMPLES = [
    ("3c 3d Qh Qs Qc", "9c 9d 9h Kc Kd"),  # 1. the three of a full house first
    ("5c 6d 7h 8s 9c", "Ac 2d 3h 4s 5c"),  # 2. an ace-low straight is the weakest
    ("2c 2d 4h Kc Kd", "Xc Xd Qh Qs Ac"),  # 3. the highest card of the figure
    ("4c 4d 5h Kc Kd", "3c 3d Kh Ks Ac"),  # 3. then the other cards of the figure
    ("2c 2d 6h Xs Ac", "2h 2s Xc Qd Kh"),  # 4. then the highest card not in the figure
    ("2c 2d 6h Xs Ac", "2h 2s 3c 4d Ah"),
    ("3c 4d 7h 8s Ac", "8c Xd Jh Qs Kc"),
]


@pytest.mark.parametrize("stronger, weaker", STATEMENT_EXAMPLES)
def test_statement_tie_break_examples(stronger, weaker):
    keys = holdem.hand_keys([codes(stronger), codes(weaker)])
    assert keys[0] > keys[1]
    assert reference_five(codes(stronger)) > reference_five(codes(weaker))


def test_suits_have_the_same_strength():
    keys = holdem.hand_keys([codes("Ac Kd Qh Js 9c"), codes("As Kh Qd Jc 9s")])
    assert keys[0] == keys[1]


def test_only_five_cards_count():
    # A board straight that both players play: the hole cards do not matter.
    board = codes("5c 6d 7h 8s 9c")
    keys = holdem.hand_keys([board + codes("2c 2d"), board + codes("Ah Kh")])
    assert keys[0] == keys[1]


@pytest.mark.parametrize("hands, message", [
    (np.zeros((2, 4), dtype=np.uint8), "shape"),
    (np.full((1, 7), 52), "0..51"),
    (np.array([[0, 1, 2, 3, 0, 8, 12]]), "five times"),
])
def test_hand_keys_refuses_impossible_input(hands, message):
    with pytest.raises(ValueError, match=message):
        holdem.hand_keys(hands)


def test_parse_deals_reasons():
    import pyarrow as pa

    board = pa.array(["Ah Kd 2c 3s Xh", "Ah Kd 2c 3s", "Ah Kd 2c 3s Xh", "Ah Kd 2c 3s Zh",
                      "Ah  Kd 2c 3s Xh ", "Ah Kd 2c 3s Xh"])
    p1 = pa.array(["As Ad", "As Ad", "Ah 2d", "As Ad", "As Ad", None])
    p2 = pa.array([None, "", "", None, "Qs  Qd", ""])
    deals = parse_deals(board, [p1, p2])
    reasons = deals.reasons.tolist()
    assert reasons[0] is None and reasons[4] is None
    assert "4 cards, expected 5" in reasons[1]
    assert "card Ah is dealt twice" in reasons[2]
    assert "unknown card 'Zh'" in reasons[3]
    assert "no player" in reasons[5]
    assert deals.seated[4].tolist() == [True, True]
    assert deals.fields.tolist()[:4] == [-1, 0, 1, 0]


def test_parse_deals_with_unfinished_boards():
    import pyarrow as pa

    board = pa.chunked_array([["Ah Kd 2c 3s Xh", "Ah Kd 2c 3s", " Ah\tKd  2c", None], ["Ah Kd", "Ah Kd 2c"]])
    p1 = pa.array(["As Ad", "As Ad", "As Ad", "As Ad", "As Ad", "Ah 2d"])
    deals = parse_deals(board, [p1], shape=HOLDEM.with_boards(BOARD_SIZES))
    assert deals.reasons.tolist()[:4] == [None] * 4
    assert "board 'Ah Kd': 2 cards, expected 0, 3, 4 or 5" in deals.reasons[4]
    assert "card Ah is dealt twice" in deals.reasons[5] and deals.fields[5] == 1
    assert deals.board_size.tolist()[:4] == [5, 4, 3, 0]
    # Undealt board cards are DECK_SIZE; a finished board reads as the five-card parse reads it.
    assert deals.board[2].tolist() == [50, 45, 0, 52, 52] and deals.board[3].tolist() == [52] * 5
    full = parse_deals(board, [p1])
    assert deals.board[0].tolist() == full.board[0].tolist() and full.reasons[0] is None
    assert [reason is None for reason in full.reasons.tolist()] == [True] + [False] * 5
    with pytest.raises(ValueError, match="board sizes"):
        parse_deals(board, [p1], shape=Shape(board_sizes=(2,)))


def test_deal_keys_equal_hand_keys_seat_by_seat():
    deals = random_hands(30000, 25, 12)  # a board and ten seats from one deck per deal
    # Half the deals get a one-suit board, so the flush path is walked often.
    ranks = np.random.default_rng(1).permuted(np.tile(np.arange(13), (15000, 1)), axis=1)[:, :5]
    monotone = 4 * ranks + 2  # five hearts
    board = deals[:, :5].copy()
    holes = deals[:, 5:].reshape(-1, 10, 2).copy()
    board[:15000] = monotone
    holes[:15000] = np.array([[c for c in row if c not in set(b)][:20] for row, b in
                              zip(np.argsort(np.random.default_rng(2).random((15000, 52)), axis=1),
                                  monotone.tolist())]).reshape(-1, 10, 2)
    keys = holdem.deal_keys(board, holes)
    for seat in range(10):
        expected = holdem.hand_keys(np.concatenate([board, holes[:, seat]], axis=1))
        assert np.array_equal(keys[seat], expected), seat
    assert (holdem.key_categories(keys[:, :15000]) >= 5).mean() > 0.3
