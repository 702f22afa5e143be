"""Best five cards and descriptions (`pokerpipe run --best-five`), checked against the rules."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import numpy as np
import pandas as pd
import pytest

from pipeline.cli import cli
from pipeline.poker import cards, describe, holdem, larvis

from .conftest import RAW

WHEEL_ORDER = [3, 2, 1, 0, 12]


def significance_order(ranks: list[int]) -> list[int]:
    """The ranks of five cards as a player lists them: a straight from its top
    (the wheel 5 4 3 2 A), anything else by group size then rank, both descending."""
    ascending = sorted(ranks)
    if len(set(ranks)) == 5 and ascending == [0, 1, 2, 3, 12]:
        return WHEEL_ORDER
    if len(set(ranks)) == 5 and ascending[4] - ascending[0] == 4:
        return ascending[::-1]
    counts = Counter(ranks)
    return sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True)


def every_five_card_class() -> np.ndarray:
    """One hand of each of the 7,462 classes: every rank multiset, and every set of five ranks suited."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        seen: Counter = Counter()
        codes = []
        for rank in ranks:
            codes.append(4 * rank + seen[rank])
            seen[rank] += 1
        if len(set(ranks)) == 5:
            codes[0] = 4 * ranks[0] + 1  # not all clubs: no flush
            hands.append([4 * rank + 3 for rank in ranks])  # the same ranks, all spades
        hands.append(codes)
    return np.array(hands, dtype=np.uint8)


def check_best_five(hands: np.ndarray) -> None:
    keys = holdem.hand_keys(hands)
    best = describe.best_five(hands, keys)
    assert best.shape == (len(hands), 5)
    # Five different cards, all from the hand, with the hand's own key.
    assert (np.sort(best, axis=1)[:, 1:] != np.sort(best, axis=1)[:, :-1]).all()
    assert (best[:, :, None] == hands[:, None, :]).any(axis=2).all()
    assert (holdem.hand_keys(best) == keys).all()
    # Ordered by significance; equal ranks by suit, spades first.
    for row in range(len(hands)):
        ranks = (best[row] >> 2).tolist()
        assert ranks == significance_order(ranks), cards.CARD_TEXT[best[row]]
        for left, right in zip(best[row][:-1], best[row][1:]):
            if left >> 2 == right >> 2:
                assert left & 3 > right & 3


def test_every_five_card_class():
    hands = every_five_card_class()
    assert len(np.unique(holdem.hand_keys(hands))) == 7462
    check_best_five(hands)


@pytest.mark.parametrize("size", [6, 7])
def test_random_hands(size):
    rng = np.random.default_rng(size)
    hands = np.argsort(rng.random((20_000, 52)), axis=1)[:, :size].astype(np.uint8)
    check_best_five(hands)


def test_flush_and_straight_flush_hands():
    # Seven cards with five or more of a suit, many of them also holding straights and pairs.
    rng = np.random.default_rng(1)
    hands = []
    while len(hands) < 5000:
        suited = rng.choice(13, size=rng.integers(5, 8), replace=False) * 4 + 2
        others = rng.choice([c for c in range(52) if c % 4 != 2], size=7 - len(suited), replace=False)
        hands.append(np.concatenate([suited, others]))
    hands = np.array(hands, dtype=np.uint8)
    check_best_five(hands)
    best = describe.best_five(hands, holdem.hand_keys(hands))
    assert ((best & 3) == 2).all()  # every one of them is the flush suit


def text_of(hand: str) -> np.ndarray:
    return np.array([[cards.card_code(card) for card in hand.split()]])


@pytest.mark.parametrize("hand, best, description", [
    ("7s Kd 2c Kh 7h Kc 4d", "Kh Kd Kc 7s 7h", "Full House, Kings full of Sevens"),
    ("Ah Kd As Kc Qd 2c 3h", "As Ah Kd Kc Qd", "Two Pair, Aces and Kings, Queen kicker"),
    ("5c 6d 7h 8s 9c Ad Kh", "9c 8s 7h 6d 5c", "Straight, Nine high"),
    ("Ac Kd 9h 7s 4c 3d 2h", "Ac Kd 9h 7s 4c", "High Card, Ace, King, Nine, Seven, Four"),
    ("Ts Js Qs Ks As Ah Ad", "As Ks Qs Js Ts", "Royal Flush"),
    ("Ac 2d 3h 4s 5c Kd Kh", "5c 4s 3h 2d Ac", "Straight, Five high"),
    ("9h 9d 9s 9c Ah 2d 3h", "9s 9h 9d 9c Ah", "Four of a Kind, Nines, Ace kicker"),
    ("6h 6d 6s Qc Ah 2d 3h", "6s 6h 6d Ah Qc", "Three of a Kind, Sixes, kickers Ace, Queen"),
    ("Jh Jd 4s Qc Ah 2d 3h", "Jh Jd Ah Qc 4s", "Pair, Jacks, kickers Ace, Queen, Four"),
    ("2h 4h 6h 8h Th Qh 3c", "Qh Th 8h 6h 4h", "Flush, Queen, Ten, Eight, Six, Four"),
    ("5d 6d 7d 8d 9d 9c 9h", "9d 8d 7d 6d 5d", "Straight Flush, Nine high"),
])
def test_described_as_a_player_says_it(hand, best, description):
    codes = text_of(hand)
    keys = holdem.hand_keys(codes)
    assert " ".join(cards.CARD_TEXT[describe.best_five(codes, keys)[0]]) == best
    assert describe.descriptions(keys).to_pylist() == [description]


def test_every_description_starts_with_its_category():
    keys = np.arange(1, 7463)
    texts = describe.descriptions(keys).to_pylist()
    categories = [str(holdem.CATEGORIES[c]) for c in holdem.key_categories(keys)]
    assert len(set(texts)) == 7462  # a description tells its class apart
    assert all(text.startswith(category + ",") or (text == "Royal Flush" and key == 7462)
               for key, text, category in zip(keys, texts, categories))
    assert sum(text == "Royal Flush" for text in texts) == 1


def test_larvis_best_and_descriptions():
    hands = np.array([ranks for ranks in combinations_with_replacement(range(13), 5)
                      if max(Counter(ranks).values()) <= 4], dtype=np.int8)
    keys = larvis.hand_keys(hands)
    best = describe.larvis_best(keys).to_pylist()
    texts = describe.larvis_descriptions(keys).to_pylist()
    for ranks, text, description, category in zip(hands.tolist(), best, texts, larvis.key_categories(keys)):
        counts = Counter(ranks)
        assert [cards.RANKS.index(symbol) for symbol in text] == sorted(
            ranks, key=lambda rank: (counts[rank], rank), reverse=True)
        assert description.startswith(str(larvis.CATEGORIES[category]) + ",")
    assert len(set(texts)) == len(hands)
    assert describe.larvis_descriptions(larvis.hand_keys([[5, 11, 5, 11, 11]])).to_pylist() == [
        "Full house, Kings full of Sevens"]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_run_best_five_holdem(runner, tmp_path, write_csv, fmt):
    path = write_csv("deals.csv", "board,p1,p2,p3\n"
                                  "Kd 2c Kh 7h Kc,7s 4d,,As Ah\n"
                                  "Ts Js Qs 2d 3c,Ks As,9s 8s,\n")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out), "--best-five", "--format", fmt])
    assert result.exit_code == 0, result.output
    winners = pd.read_csv(tmp_path / "out" / "winners.csv") if fmt == "csv" else \
        pd.read_parquet(tmp_path / "out" / "winners.parquet")
    assert winners["p1_best"].tolist() == ["Kh Kd Kc 7s 7h", "As Ks Qs Js Ts"]
    assert winners["p1_hand"].astype(str).tolist() == ["Full House, Kings full of Sevens", "Royal Flush"]
    assert winners["p3_hand"].astype(str).tolist()[0] == "Full House, Kings full of Aces"
    assert winners["p2_best"].isna().tolist() == [True, False]
    assert winners["p2_hand"].astype(str).tolist()[1] == "Straight Flush, Queen high"
    assert winners["winners"].astype(str).tolist() == ["3", "1"]


def test_run_best_five_larvis_and_off_by_default(runner, tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(RAW / "games.csv"), "-o", str(out), "--best-five"])
    assert result.exit_code == 0, result.output
    winners = pd.read_csv(out / "winners.csv", dtype=str)
    assert winners.loc[0, "hand1_best"] == "AAAQQ"
    assert winners.loc[0, "hand1_hand"] == "Full house, Aces full of Queens"
    plain = tmp_path / "plain"
    assert runner.invoke(cli, ["run", str(RAW / "games.csv"), "-o", str(plain)]).exit_code == 0
    columns = pd.read_csv(plain / "winners.csv", dtype=str).columns
    assert not any(name.endswith(("_best", "_hand")) for name in columns)
    assert list(columns) == [name for name in winners.columns if not name.endswith(("_best", "_hand"))]
