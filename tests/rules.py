"""The rules of hold'em written plainly, from the statement: the reference the tests check against.

Deliberately slow and obvious: no table, no encoding trick shared with the
package.  Cards are given as codes (``4 * rank + suit``) or as text (``"Ah"``,
``"Xd"``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def _code(card: int | str) -> int:
    if isinstance(card, str):
        return 4 * RANKS.index(card[0].replace("X", "T")) + SUITS.index(card[1])
    return int(card)


def five_card_value(hand: Sequence[int | str]) -> tuple:
    """Strength of five cards, comparable with < (higher wins), equal for equal hands.

    Categories, weakest first: one card, pair, two pairs, three, straight,
    flush, full house, poker (four of a kind), royal flush (any straight
    flush).  Ties: the three before the pair in a full house; an ace-low
    straight is the weakest straight; then the figure's cards, then the
    other cards, high to low.
    """
    codes = [_code(card) for card in hand]
    ranks = sorted((c // 4 for c in codes), reverse=True)
    flush = len({c % 4 for c in codes}) == 1
    distinct = sorted(set(ranks), reverse=True)
    top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        top = distinct[0]
    elif distinct == [12, 3, 2, 1, 0]:
        top = 3  # the ace plays low: a five-high straight
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    if top is not None and flush:
        return (8, (top,))
    if shape[0] == 4:
        return (7, tuple(order))
    if shape == [3, 2]:
        return (6, tuple(order))
    if flush:
        return (5, tuple(ranks))
    if top is not None:
        return (4, (top,))
    if shape[0] == 3:
        return (3, tuple(order))
    if shape == [2, 2, 1]:
        return (2, tuple(order))
    if shape[0] == 2:
        return (1, tuple(order))
    return (0, tuple(ranks))


def best_value(hand: Sequence[int | str]) -> tuple:
    """Best five of the cards: the strongest of every five-card subset."""
    return max(five_card_value(list(five)) for five in combinations(hand, 5))


def short_deck_value(five: Sequence[int], *, trips_beat_straight: bool) -> tuple:
    """Strength of five short-deck cards from the rules: A-6-7-8-9 the lowest straight, a flush
    above a full house, and three of a kind above or below a straight."""
    ranks = sorted((c // 4 for c in five), reverse=True)
    flush = len({c % 4 for c in five}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight = distinct[0]
    elif distinct == [12, 7, 6, 5, 4]:  # A 9 8 7 6: the ace plays below the six
        straight = 7
    counts = sorted(((ranks.count(r), r) for r in distinct), reverse=True)
    shape = [count for count, _ in counts]
    order = [r for _, r in counts]
    trips, straight_rank = (4, 3) if trips_beat_straight else (3, 4)
    if straight is not None and flush:
        return (9, straight)
    if shape[0] == 4:
        return (8, order)
    if flush:
        return (7, ranks)
    if shape[:2] == [3, 2]:
        return (6, order)
    if straight is not None:
        return (straight_rank, straight)
    if shape[0] == 3:
        return (trips, order)
    return ({(2, 2): 2, (2, 1): 1}.get(tuple(shape[:2]), 0), order)
