"""Best five cards and descriptions: what a hand is, as a player says it.

Layer: pure evaluation (:mod:`pipeline.poker`); imports the cards, their
notation and the keys of both games, nothing above.

This module owns ``pokerpipe run --best-five``: for every hand, the five
cards of its best hand ordered by significance (``Kh Kd Kc 7s 7h``) and a
description ("Full House, Kings full of Sevens").

Everything about a hand's class follows from its key: the ranks of its
best five in order of significance (its *pattern*: the triple, then the
pair; a straight from its top card, the wheel as 5 4 3 2 A) and its
description are tables indexed by key, built once.  Choosing the cards is
then a few whole-array steps: for each of the five ranks of the pattern,
take the highest-suited card of that rank still unused among the hand's
cards (of the flush suit, for a flush), found in a 52-bit mask of the hand.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.poker import cards, holdem, larvis, notation

RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
              "King", "Ace")
RANK_PLURALS = tuple(name + ("es" if name == "Six" else "s") for name in RANK_NAMES)
ROYAL_FLUSH = "Royal Flush"
# Four suit bits -> the highest suit present (spades first), 0 when none.
_HIGHEST_SUIT = np.array([max((s for s in range(4) if bits >> s & 1), default=0) for bits in range(16)],
                         dtype=np.int64)


def describe(category: str, pattern: list[int], *, names: tuple[str, ...] = tuple(holdem.CATEGORIES)) -> str:
    """A hand as a player says it, from its category and the ranks of its best five in order.

    ``names`` spells the categories weakest first (hold'em's by default,
    ``larvis.CATEGORIES`` for Larvis); the description starts with the name.

    >>> describe("Full House", [11, 11, 11, 5, 5])
    'Full House, Kings full of Sevens'
    >>> describe("Two Pair", [12, 12, 11, 11, 10])
    'Two Pair, Aces and Kings, Queen kicker'
    >>> describe("Straight", [7, 6, 5, 4, 3]), describe("Straight Flush", [12, 11, 10, 9, 8])
    ('Straight, Nine high', 'Royal Flush')
    >>> describe("High Card", [12, 11, 7, 5, 2])
    'High Card, Ace, King, Nine, Seven, Four'
    """
    code = list(names).index(category)
    one, many = RANK_NAMES, RANK_PLURALS
    if len(names) == len(larvis.CATEGORIES):  # Larvis: no straights and no flushes
        shape = ("high", "pair", "two pair", "three", "full house", "four")[code]
    else:
        shape = ("high", "pair", "two pair", "three", "straight", "flush", "full house", "four",
                 "straight flush")[code]
    top = pattern[0]
    if shape in ("high", "flush"):
        detail = ", ".join(one[rank] for rank in pattern)
    elif shape == "pair":
        detail = f"{many[top]}, kickers " + ", ".join(one[rank] for rank in pattern[2:])
    elif shape == "two pair":
        detail = f"{many[top]} and {many[pattern[2]]}, {one[pattern[4]]} kicker"
    elif shape == "three":
        detail = f"{many[top]}, kickers {one[pattern[3]]}, {one[pattern[4]]}"
    elif shape == "full house":
        detail = f"{many[top]} full of {many[pattern[3]]}"
    elif shape == "four":
        detail = f"{many[top]}, {one[pattern[4]]} kicker"
    else:
        if shape == "straight flush" and top == len(cards.RANKS) - 1:
            return ROYAL_FLUSH
        detail = f"{one[top]} high"
    return f"{category}, {detail}"


@cache
def holdem_patterns() -> np.ndarray:
    """Ranks of the best five of every hold'em key, in order of significance.

    Returns
    -------
    patterns : ndarray of shape (7463, 5), dtype int8
        Row k for key k (row 0 unused): the ranks as a player lists them,
        e.g. ``K K K 7 7``; a straight from its top card, the wheel
        ``5 4 3 2 A``.
    """
    hands = cards.all_multisets(holdem.BEST_OF)
    _, _, ordered = cards.five_card_groups(hands)
    ordered = ordered.copy()
    wheel = (hands == np.array(cards.WHEEL)).all(axis=1)
    ordered[wheel] = [3, 2, 1, 0, 12]  # the ace plays low
    plain, suited, _ = holdem.five_card_tables()
    patterns = np.zeros((holdem.flush_table().max() + 1, holdem.BEST_OF), dtype=np.int8)
    for keys in (plain, suited):
        patterns[keys[keys > 0]] = ordered[keys > 0]
    patterns.setflags(write=False)
    return patterns


@cache
def holdem_descriptions() -> pa.Array:
    """Description of every hold'em key; index 0 (no hand) is empty.

    Returns
    -------
    descriptions : pyarrow string array of length 7463
    """
    patterns = holdem_patterns()
    categories = holdem.key_categories(np.arange(1, len(patterns)))
    texts = [""] + [describe(holdem.CATEGORIES[c], row) for c, row in zip(categories.tolist(),
                                                                          patterns[1:].tolist())]
    return pa.array(texts, pa.string())


@cache
def _larvis_tables() -> tuple[pa.Array, pa.Array]:
    """Best five (as rank symbols) and description of every Larvis key; index 0 empty."""
    hands = cards.all_multisets(larvis.HAND_SIZE)
    keys = larvis.key_table()
    _, _, ordered = cards.five_card_groups(hands)
    patterns = np.zeros((keys.max() + 1, larvis.HAND_SIZE), dtype=np.int8)
    patterns[keys[keys > 0]] = ordered[keys > 0]
    categories = larvis.key_categories(np.arange(1, len(patterns)))
    best = [""] + ["".join(cards.RANKS[rank] for rank in row) for row in patterns[1:].tolist()]
    texts = [""] + [describe(larvis.CATEGORIES[c], row, names=tuple(larvis.CATEGORIES))
                    for c, row in zip(categories.tolist(), patterns[1:].tolist())]
    return pa.array(best, pa.string()), pa.array(texts, pa.string())


def descriptions(keys: np.ndarray, *, present: np.ndarray | None = None) -> pa.Array:
    """Description of each hold'em key (7,462 texts at most).

    Parameters
    ----------
    keys : ndarray of shape (n,), integer
        Hold'em keys, as from :func:`pipeline.poker.holdem.hand_keys`.
    present : ndarray of shape (n,), dtype bool, optional
        False where there is no hand (the value is null).

    >>> descriptions(np.array([7462, 1])).to_pylist()
    ['Royal Flush', 'High Card, Seven, Five, Four, Three, Two']
    """
    return _lookup(keys, holdem_descriptions(), present)


def larvis_descriptions(keys: np.ndarray) -> pa.Array:
    """Description of each Larvis key, as :func:`descriptions` for hold'em."""
    return _lookup(keys, _larvis_tables()[1], None)


def larvis_best(keys: np.ndarray) -> pa.Array:
    """A Larvis hand's five ranks in order of significance, like ``KKK77``, from its key.

    >>> larvis_best(larvis.hand_keys([[5, 11, 5, 11, 11]])).to_pylist()
    ['KKK77']
    """
    return _lookup(keys, _larvis_tables()[0], None)


def _lookup(keys: np.ndarray, table: pa.Array, present: np.ndarray | None) -> pa.Array:
    mask = None if present is None else ~np.asarray(present)
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(keys, dtype=np.int16), pa.int16(), mask=mask),
                                          table)


def best_five(hands: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The five cards of each hand's best hand, in order of significance.

    Parameters
    ----------
    hands : ndarray of shape (n, k), integer
        Card codes, k >= 5, all distinct in a row.
    keys : ndarray of shape (n,), integer
        Each row's key, as from :func:`pipeline.poker.holdem.hand_keys`; a row of
        key 0 gets arbitrary cards.

    Returns
    -------
    best : ndarray of shape (n, 5), dtype uint8
        Card codes; among cards of equal rank the higher suit (s h d c)
        comes first.

    Examples
    --------
    >>> codes = [cards.card_code(c) for c in "7s Kd 2c Kh 7h Kc 4d".split()]
    >>> best = best_five(np.array([codes]), holdem.hand_keys([codes]))
    >>> " ".join(cards.CARD_TEXT[best[0]])
    'Kh Kd Kc 7s 7h'
    """
    hands = np.asarray(hands)
    columns = [np.ascontiguousarray(hands[:, i]) for i in range(hands.shape[1])]
    return _best_of(_card_mask(columns), np.asarray(keys), columns)


def _card_mask(columns: list[np.ndarray]) -> NDArray[np.uint64]:
    """Cards as bits of one uint64 per row: bit ``code`` (four suit bits per rank)."""
    mask: NDArray[np.uint64] = cards.CARD_BIT[columns[0]]
    for column in columns[1:]:
        mask |= cards.CARD_BIT[column]
    return mask


@cache
def _pattern_shifts() -> np.ndarray:
    # Per place, the bit offset (4 * rank) of each key's rank there: (5, 7463) int64.
    return np.ascontiguousarray(holdem_patterns().T.astype(np.int64) << 2)


_CLEAR = ~cards.CARD_BIT
_CACHE_ROWS = 1 << 15
_FLUSH = list(holdem.CATEGORIES).index(holdem.Category.FLUSH)
_STRAIGHT_FLUSH = list(holdem.CATEGORIES).index(holdem.Category.STRAIGHT_FLUSH)


def _best_of(mask: np.ndarray, keys: np.ndarray, columns: list[np.ndarray]) -> np.ndarray:
    """:func:`best_five` from each row's card mask; ``columns`` are its cards, one array per card."""
    best = np.empty((holdem.BEST_OF, len(keys)), dtype=np.uint8)
    shifts = _pattern_shifts()
    categories = holdem.key_categories(keys)
    flush = np.flatnonzero((categories == _FLUSH) | (categories == _STRAIGHT_FLUSH))
    mask = mask.copy()
    if flush.size:
        # Only a flush or a straight flush needs the suit: keep just its cards.
        counts = sum(holdem.suit_counts(column[flush]) for column in columns)
        suit = holdem.flush_suit_table()[counts].astype(np.uint64)
        mask[flush] &= np.uint64(0x1111111111111) << suit
    # Indices kept as intp throughout: numpy converts any other index array
    # before every look-up, a whole extra pass each time.  Rows go in chunks
    # small enough that the ten passes over each stay in cache.
    keys = keys.astype(np.intp)
    for start in range(0, len(keys), _CACHE_ROWS):
        rows = slice(start, start + _CACHE_ROWS)
        chunk_keys, chunk_mask = keys[rows], mask[rows]
        for place in range(holdem.BEST_OF):
            shift = shifts[place][chunk_keys]
            suits = ((chunk_mask >> shift.view(np.uint64)) & np.uint64(15)).view(np.int64)
            code = shift + _HIGHEST_SUIT[suits]
            best[place, rows] = code
            chunk_mask &= _CLEAR[code]
    return best.T


def deal_columns(board: np.ndarray, holes: np.ndarray, keys: np.ndarray, seated: np.ndarray,
                 names: tuple[str, ...]) -> list[dict[str, pa.Array]]:
    """The ``pN_best`` and ``pN_hand`` columns of every hold'em seat.

    Parameters
    ----------
    board : ndarray of shape (n, 5), dtype uint8
    holes : ndarray of shape (n, seats, 2), dtype uint8
    keys : ndarray of shape (n, seats), integer
        Each seat's key; ignored for an empty seat.
    seated : ndarray of shape (n, seats), dtype bool
    names : the seat column names, ``p1`` ...

    Returns
    -------
    columns : list of dicts, one per seat
        ``{"pN_best": ..., "pN_hand": ...}``, null for an empty seat.
    """
    board_columns = [np.ascontiguousarray(board[:, i]) for i in range(board.shape[1])]
    board_mask = _card_mask(board_columns)  # once per deal, shared by its seats
    result = []
    for seat, name in enumerate(names):
        present = np.ascontiguousarray(seated[:, seat])
        hole = [np.ascontiguousarray(holes[:, seat, i]) for i in range(2)]
        seat_keys = np.where(present, keys[:, seat], 0)
        best = _best_of(board_mask | _card_mask(hole), seat_keys, board_columns + hole)
        result.append({f"{name}_best": notation.cards_text(best, present=present),
                       f"{name}_hand": descriptions(seat_keys, present=present)})
    return result


def larvis_columns(name: str, keys: np.ndarray) -> dict[str, pa.Array]:
    """The ``<name>_best`` and ``<name>_hand`` columns of Larvis hands."""
    return {f"{name}_best": larvis_best(keys), f"{name}_hand": larvis_descriptions(keys)}
