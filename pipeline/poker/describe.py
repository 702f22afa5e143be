"""Best five cards and descriptions: what a hand is, as a player says it.

Layer: pure evaluation (:mod:`pipeline.poker`); imports the cards, their
notation and the keys of the games (hold'em, short deck, Larvis), nothing above.

This module owns ``pokerpipe run --best-five``: for every hand, the five
cards of its best hand ordered by significance (``Kh Kd Kc 7s 7h``) and a
description ("Full House, Kings full of Sevens"), for hold'em, short-deck
(6+) hold'em in either of its rankings, and Larvis.

Everything about a hand's class follows from its key: the ranks of its
best five in order of significance (its *pattern*: the triple, then the
pair; a straight from its top card, the wheel as 5 4 3 2 A, short deck's
A 6 7 8 9 as 9 8 7 6 A) and its description are tables indexed by key,
built once per ranking.  Choosing the cards is then a few whole-array
steps: for each of the five ranks of the pattern, take the highest-suited
card of that rank still unused among the hand's cards (of the flush suit,
for a flush), found in a 52-bit mask of the hand.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.poker import cards, holdem, larvis, notation, shortdeck

RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
              "King", "Ace")
RANK_PLURALS = tuple(name + ("es" if name == "Six" else "s") for name in RANK_NAMES)
ROYAL_FLUSH = "Royal Flush"
# Four suit bits -> the highest suit present (spades first), 0 when none.
_HIGHEST_SUIT = np.array([max((s for s in range(4) if bits >> s & 1), default=0) for bits in range(16)],
                         dtype=np.int64)


#: The shape of each category by its name (hold'em's and short deck's, which share names, and Larvis').
_SHAPE_OF_NAME = {str(name): shape for names, shapes in (
    (holdem.CATEGORIES, ("high", "pair", "two pair", "three", "straight", "flush", "full house", "four",
                         "straight flush")),
    (larvis.CATEGORIES, ("high", "pair", "two pair", "three", "full house", "four")),
) for name, shape in zip(names, shapes, strict=True)}


def describe(category: str, pattern: list[int], *, names: tuple[str, ...] = tuple(holdem.CATEGORIES)) -> str:
    """A hand as a player says it, from its category and the ranks of its best five in order.

    ``names`` spells the game's categories (hold'em's by default,
    ``larvis.CATEGORIES`` for Larvis, ``shortdeck.category_order(...)`` for
    short deck); ``category`` must be one of them.  Its shape follows from
    its name, not its place, so any order of the categories will do.  The
    description starts with the name.

    >>> describe("Full House", [11, 11, 11, 5, 5])
    'Full House, Kings full of Sevens'
    >>> describe("Two Pair", [12, 12, 11, 11, 10])
    'Two Pair, Aces and Kings, Queen kicker'
    >>> describe("Straight", [7, 6, 5, 4, 3]), describe("Straight Flush", [12, 11, 10, 9, 8])
    ('Straight, Nine high', 'Royal Flush')
    >>> describe("High Card", [12, 11, 7, 5, 2])
    'High Card, Ace, King, Nine, Seven, Four'
    >>> describe("Flush", [12, 11, 9, 7, 5], names=tuple(shortdeck.CATEGORIES))
    'Flush, Ace, King, Jack, Nine, Seven'
    """
    if category not in names or str(category) not in _SHAPE_OF_NAME:
        raise ValueError(f"{category!r} is not a category of {[str(name) for name in names]}")
    one, many = RANK_NAMES, RANK_PLURALS
    shape = _SHAPE_OF_NAME[str(category)]
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


#: The sorted ranks of A 6 7 8 9, short deck's straight with the ace low.
_SHORT_LOW_STRAIGHT = (*range(shortdeck.LOWEST_RANK, shortdeck.LOWEST_RANK + 4), len(cards.RANKS) - 1)


@cache
def _ranking(trips_beat_straight: bool | None) -> tuple[NDArray[np.int8], NDArray[np.int8], tuple[str, ...]]:
    """Patterns, category code of each key and category names of hold'em (None) or a short-deck ranking."""
    order: tuple[str, ...]
    if trips_beat_straight is None:
        ranks, low, order = cards.all_multisets(holdem.BEST_OF), cards.WHEEL, holdem.CATEGORIES
        plain, suited, category_of_key = holdem.five_card_tables()
    else:
        ranks = shortdeck.short_multisets(holdem.BEST_OF) + np.int8(shortdeck.LOWEST_RANK)
        low, order = _SHORT_LOW_STRAIGHT, shortdeck.category_order(trips_beat_straight=trips_beat_straight)
        plain, suited, category_of_key = shortdeck.five_card_tables(trips_beat_straight)
    _, _, ordered = cards.five_card_groups(ranks)
    ordered = ordered.copy()
    ordered[(ranks == np.array(low)).all(axis=1)] = [*low[-2::-1], low[-1]]  # the ace plays low
    patterns = np.zeros((len(category_of_key), holdem.BEST_OF), dtype=np.int8)
    for keys in (plain, suited):
        patterns[keys[keys > 0]] = ordered[keys > 0]
    patterns.setflags(write=False)
    return patterns, category_of_key, tuple(map(str, order))


def holdem_patterns() -> np.ndarray:
    """Ranks of the best five of every hold'em key, in order of significance.

    Returns
    -------
    patterns : ndarray of shape (7463, 5), dtype int8
        Row k for key k (row 0 unused): the ranks as a player lists them,
        e.g. ``K K K 7 7``; a straight from its top card, the wheel
        ``5 4 3 2 A``.  Read-only, built once.

    >>> holdem_patterns()[[1, 7462]].tolist()
    [[5, 3, 2, 1, 0], [12, 11, 10, 9, 8]]
    """
    return _ranking(None)[0]


def shortdeck_patterns(*, trips_beat_straight: bool = False) -> NDArray[np.int8]:
    """Ranks of the best five of every short-deck key, in order of significance.

    Returns
    -------
    patterns : ndarray of shape (1405, 5), dtype int8
        Row k for key k (row 0 unused) of the ranking chosen, ranks 4 (six)
        .. 12 (ace) as a player lists them: the triple, then the pair; a
        straight from its top card, A 6 7 8 9 as ``9 8 7 6 A``.  Read-only,
        built once per ranking.

    >>> shortdeck_patterns()[[1, 1129, 1404]].tolist()
    [[9, 7, 6, 5, 4], [7, 6, 5, 4, 12], [12, 11, 10, 9, 8]]
    >>> shortdeck_patterns(trips_beat_straight=True)[877].tolist()
    [7, 6, 5, 4, 12]
    """
    return _ranking(bool(trips_beat_straight))[0]


def holdem_descriptions() -> pa.Array:
    """Description of every hold'em key; index 0 (no hand) is empty.

    Returns
    -------
    descriptions : pyarrow string array of length 7463
    """
    return _descriptions(None)


@cache
def _descriptions(trips_beat_straight: bool | None) -> pa.Array:
    """Description of every key of hold'em (None) or a short-deck ranking; index 0 empty."""
    patterns, category_of_key, names = _ranking(trips_beat_straight)
    return _texts(patterns, category_of_key[1:], names)


def _texts(patterns: NDArray[np.int8], codes: NDArray[np.int8], names: tuple[str, ...]) -> pa.Array:
    """The description of every key (row 0 of ``patterns``, no hand, empty) by its category code."""
    texts = [""] + [describe(names[c], row, names=names) for c, row in zip(codes.tolist(),
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
    best = [""] + ["".join(cards.RANKS[rank] for rank in row) for row in patterns[1:].tolist()]
    return pa.array(best, pa.string()), _texts(patterns, larvis.key_categories(np.arange(1, len(patterns))),
                                               tuple(larvis.CATEGORIES))


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


def shortdeck_descriptions(keys: np.ndarray, *, present: np.ndarray | None = None,
                           trips_beat_straight: bool = False) -> pa.Array:
    """Description of each short-deck key (1,404 texts at most), as :func:`descriptions` for hold'em.

    Parameters
    ----------
    keys : ndarray of shape (n,), integer
        Keys of the ranking chosen, from :func:`pipeline.poker.shortdeck.hand_keys`.
    present : ndarray of shape (n,), dtype bool, optional
        False where there is no hand (the value is null).
    trips_beat_straight : bool, keyword-only
        The keys are of the ranking where three of a kind beats a straight.

    Returns
    -------
    descriptions : pyarrow DictionaryArray of length n (int16 indices, string values)

    >>> shortdeck_descriptions(np.array([1404, 1129, 1207])).to_pylist()
    ['Royal Flush', 'Straight, Nine high', 'Flush, Jack, Nine, Eight, Seven, Six']
    >>> shortdeck_descriptions(np.array([877, 0]), present=np.array([True, False]),
    ...                        trips_beat_straight=True).to_pylist()
    ['Straight, Nine high', None]
    """
    return _lookup(keys, _descriptions(bool(trips_beat_straight)), present)


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
    return _best_five(hands, keys, _choice(None))


def shortdeck_best_five(hands: np.ndarray, keys: np.ndarray, *, trips_beat_straight: bool = False
                        ) -> NDArray[np.uint8]:
    """The five cards of each short-deck hand's best hand, in order of significance.

    Parameters
    ----------
    hands : ndarray of shape (n, k), k in {5, 6, 7}, integer
        Short-deck card codes (16..51), all distinct in a row.
    keys : ndarray of shape (n,), integer
        Each row's key, from :func:`pipeline.poker.shortdeck.hand_keys` (key 0: arbitrary cards).
    trips_beat_straight : bool, keyword-only
        The keys are of the ranking where three of a kind beats a straight.

    Returns
    -------
    best : ndarray of shape (n, 5), dtype uint8
        As :func:`best_five`: the ranks of the key's pattern (:func:`shortdeck_patterns`), of
        equal ranks the higher suit first; ``shortdeck.hand_keys(best)`` gives ``keys`` back.

    >>> codes = [cards.card_code(c) for c in "9c Ah 7h 6d Kc 8s Ks".split()]
    >>> " ".join(cards.CARD_TEXT[shortdeck_best_five(np.array([codes]), shortdeck.hand_keys([codes]))[0]])
    '9c 8s 7h 6d Ah'
    >>> trips = [cards.card_code(c) for c in "6h 6d 6s 7c 8d 9h Ts".split()]
    >>> keys = shortdeck.hand_keys([trips], trips_beat_straight=True)
    >>> " ".join(cards.CARD_TEXT[shortdeck_best_five(np.array([trips]), keys, trips_beat_straight=True)[0]])
    '6s 6h 6d Ts 9h'
    """
    return _best_five(hands, keys, _choice(bool(trips_beat_straight)))


def _best_five(hands: np.ndarray, keys: np.ndarray, choice: _Choice) -> NDArray[np.uint8]:
    hands = np.asarray(hands)
    columns = [np.ascontiguousarray(hands[:, i]) for i in range(hands.shape[1])]
    return _best_of(_card_mask(columns), np.asarray(keys), columns, *choice)


def _card_mask(columns: list[np.ndarray]) -> NDArray[np.uint64]:
    """Cards as bits of one uint64 per row: bit ``code`` (four suit bits per rank)."""
    mask: NDArray[np.uint64] = cards.CARD_BIT[columns[0]]
    for column in columns[1:]:
        mask |= cards.CARD_BIT[column]
    return mask


#: What :func:`_best_of` needs of a ranking: its patterns as bit offsets, (5, keys) int64 (per place,
#: 4 * each key's rank there), and the (low, high) key ranges of flush and straight flush.
_Choice = tuple[NDArray[np.int64], tuple[tuple[int, int], ...]]


@cache
def _choice(trips_beat_straight: bool | None) -> _Choice:
    """:data:`_Choice` of hold'em (None) or of a short-deck ranking."""
    patterns, category_of_key, names = _ranking(trips_beat_straight)
    shifts = np.ascontiguousarray(patterns.T.astype(np.int64) << 2)
    keys = [np.flatnonzero(category_of_key == names.index(name))  # categories take consecutive keys
            for name in (holdem.Category.FLUSH, holdem.Category.STRAIGHT_FLUSH)]
    return shifts, tuple((int(k[0]), int(k[-1])) for k in keys)


_CLEAR = ~cards.CARD_BIT
_CACHE_ROWS = 1 << 15


def _best_of(mask: np.ndarray, keys: np.ndarray, columns: list[np.ndarray], shifts: NDArray[np.int64],
             suited: tuple[tuple[int, int], ...]) -> NDArray[np.uint8]:
    """:func:`best_five` from each row's card mask; ``columns`` are its cards, one array per card.

    ``shifts`` and ``suited`` are the ranking's (:data:`_Choice`): its pattern table as bit offsets
    and the key ranges whose cards share the flush suit.  ValueError for keys outside the table.
    """
    keys = cards.checked_integers(keys, top=shifts.shape[1] - 1, what="keys")
    best = np.empty((holdem.BEST_OF, len(keys)), dtype=np.uint8)
    in_suit = np.zeros(len(keys), dtype=bool)
    for low, high in suited:
        in_suit |= (keys >= low) & (keys <= high)
    flush = np.flatnonzero(in_suit)
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
        best = _best_of(board_mask | _card_mask(hole), seat_keys, board_columns + hole, *_choice(None))
        result.append({f"{name}_best": notation.cards_text(best, present=present),
                       f"{name}_hand": descriptions(seat_keys, present=present)})
    return result


def larvis_columns(name: str, keys: np.ndarray) -> dict[str, pa.Array]:
    """The ``<name>_best`` and ``<name>_hand`` columns of Larvis hands."""
    return {f"{name}_best": larvis_best(keys), f"{name}_hand": larvis_descriptions(keys)}
