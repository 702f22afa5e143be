"""Larvis: suitless five-card poker, two hands head to head.

This module owns the Larvis rules: the key of every hand, its category, the
parsing of hands written as five rank symbols ("AAAQQ") and the outcome of a
game between two hands.

Keys
----
``hand_keys`` gives each hand a dense integer key: 1 is the weakest hand
(6 5 4 3 2), 6175 the strongest (A A A A K).  A higher key wins and equal
keys tie.  The keys run through the categories from weakest to strongest::

    High card       1 .. 1287    Triple          5006 .. 5863
    A pair       1288 .. 4147    Full house      5864 .. 6019
    Two pairs    4148 .. 5005    Four of a kind  6020 .. 6175

There are no straights and no flushes: 6 5 4 3 2 is a high card.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline import cards, games
from pipeline.errors import InputError
from pipeline.statistics import Tally
from pipeline.text import shown, text_matrix

HAND_SIZE = 5
COLUMNS = ("Hand1", "Hand2")
EXPECTED_COLUMN = "Winner"
OUTCOMES = ("Hand 1", "Hand 2", "Tie")


class Category(StrEnum):
    """Larvis categories, weakest first; ``list(Category).index`` is the code."""

    HIGH_CARD = "High card"
    PAIR = "A pair"
    TWO_PAIRS = "Two pairs"
    TRIPLE = "Triple"
    FULL_HOUSE = "Full house"
    FOUR_OF_A_KIND = "Four of a kind"


CATEGORIES = tuple(Category)
#: The shape (``cards.SHAPES``) each category is; no straights in Larvis.
_SHAPE_OF_CATEGORY = (cards.NO_PAIR, cards.PAIR, cards.TWO_PAIRS, cards.THREE, cards.FULL_HOUSE, cards.FOUR)
_SHAPE_NAMES = cards.SHAPES  # by another name: exact_counts has a parameter called cards
_CATEGORY_OF_SHAPE = np.full(len(cards.SHAPES), -1, dtype=np.int8)
_CATEGORY_OF_SHAPE[list(_SHAPE_OF_CATEGORY)] = np.arange(len(CATEGORIES))


@cache
def _tables() -> tuple[NDArray[np.int16], NDArray[np.int8]]:
    hands = cards.all_multisets(HAND_SIZE)
    _, _, ordered = cards.five_card_groups(hands)
    shapes = cards.rank_shapes(cards.rank_counts(hands), straights=False)
    # Five alike (shape -1) is no hand.
    category = np.where(shapes >= 0, _CATEGORY_OF_SHAPE[shapes], -1).astype(np.int8)
    value = category.astype(np.int64) * len(cards.RANKS) ** HAND_SIZE + cards.digits_value(ordered)
    possible = category >= 0
    keys = np.zeros(len(hands), dtype=np.int16)
    keys[possible] = np.unique(value[possible], return_inverse=True)[1] + 1
    category_of_key = np.full(keys.max() + 1, -1, dtype=np.int8)
    category_of_key[keys[possible]] = category[possible]
    keys.setflags(write=False)
    category_of_key.setflags(write=False)
    return keys, category_of_key


def key_table() -> NDArray[np.int16]:
    """Key of every five-rank multiset, indexed by ``cards.multiset_index``.

    Returns
    -------
    keys : ndarray of shape (6188,), dtype int16
        1..6175 for a possible hand, 0 for a rank five times.
    """
    return _tables()[0]


def hand_keys(ranks: np.ndarray) -> np.ndarray:
    """Key of each five-card Larvis hand.

    Parameters
    ----------
    ranks : array-like of shape (n, 5)
        Rank indices, 0 = '2' ... 12 = 'A', in any order within a row.

    Returns
    -------
    keys : ndarray of shape (n,), dtype int16
        1 (6 5 4 3 2) ... 6175 (A A A A K); higher wins, equal ties.

    Raises
    ------
    ValueError
        If the shape is wrong, a rank is outside 0..12, or a row holds one
        rank five times.

    Examples
    --------
    >>> hand_keys([[4, 3, 2, 1, 0], [12, 12, 12, 12, 11]]).tolist()
    [1, 6175]
    """
    ranks = cards.code_matrix(ranks, widths=(HAND_SIZE,), top=len(cards.RANKS) - 1, what="ranks")
    if ranks.size == 0:
        return np.zeros(len(ranks), dtype=np.int16)
    columns = cards.sorted_columns(ranks)
    keys = key_table()[cards.multiset_index(columns)]
    if not keys.all():
        row = int(np.argmin(keys))
        raise ValueError(f"row {row}: rank {cards.RANKS[ranks[row, 0]]} appears five times")
    return keys


def key_categories(keys: NDArray[np.integer]) -> NDArray[np.int8]:
    """Category code (index into ``CATEGORIES``) of each key.

    >>> [CATEGORIES[c] for c in key_categories(np.array([1, 6175]))]
    [<Category.HIGH_CARD: 'High card'>, <Category.FOUR_OF_A_KIND: 'Four of a kind'>]
    """
    categories: NDArray[np.int8] = _tables()[1][keys]
    return categories


def parse_hands(strings: pa.Array | pa.ChunkedArray, *, label: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse Larvis hands written as five rank symbols.

    Parameters
    ----------
    strings : pyarrow string array of length n
    label : str
        Names the column in rejection reasons, e.g. ``"Hand1"``.

    Returns
    -------
    ranks : ndarray of shape (n, 5), dtype uint8
        Rank indices; meaningless where ``reasons`` is not None.
    reasons : ndarray of shape (n,), dtype object
        None for a valid hand, else why it is rejected.
    """
    matrix, fits = text_matrix(strings, HAND_SIZE)
    if not fits.all():
        # Rare slow path: surrounding whitespace is not part of a hand, as
        # around hold'em cards.
        strings = pc.utf8_trim_whitespace(strings)
        matrix, fits = text_matrix(strings, HAND_SIZE)
    ranks = cards.RANK_OF_BYTE[matrix]
    ok = fits.copy()
    # A five-card hand can only break the four-of-a-rank limit by five alike.
    alike = np.ones(len(ranks), dtype=bool)
    for card in range(HAND_SIZE):  # column by column: numpy reduces a short axis slowly
        ok &= ranks[:, card] != cards.INVALID
        alike &= ranks[:, card] == ranks[:, 0]
    ok &= ~alike
    reasons = np.full(len(ranks), None, dtype=object)
    if not ok.all():
        values = strings.to_pylist() if not isinstance(strings, list) else strings
        for row in np.flatnonzero(~ok):
            reasons[row] = hand_problem(values[row], label=label)
    ranks[~ok] = 0
    return ranks, reasons


def hand_problem(text: str | None, *, label: str = "hand") -> str | None:
    """Why a written Larvis hand is not valid, or None if it is.

    >>> hand_problem("AAAQQ") is None
    True
    >>> hand_problem("AAAAA")
    "hand 'AAAAA': 'A' appears 5 times, at most 4"
    >>> hand_problem("AAQ", label="Hand1")
    "Hand1 'AAQ': 3 symbols, expected 5"
    """
    text = text.strip() if text is not None else None
    if text is None or text == "":
        return f"{label} is empty"
    if len(text) != HAND_SIZE:
        return f"{label} {shown(text)}: {len(text):,} symbols, expected {HAND_SIZE}"
    for symbol in text:
        if symbol not in cards.RANKS and symbol != "X":
            return (f"{label} {text!r}: unknown symbol {symbol!r}, "
                    f"expected one of {cards.RANKS} (or X for ten)")
    normalized = text.replace("X", "T")
    for symbol in cards.RANKS:
        if normalized.count(symbol) > 4:
            return f"{label} {text!r}: {symbol!r} appears {normalized.count(symbol)} times, at most 4"
    return None


def winners(keys1: np.ndarray, keys2: np.ndarray) -> np.ndarray:
    """Outcome code of each game: 0 = "Hand 1", 1 = "Hand 2", 2 = "Tie".

    >>> winners(np.array([5, 1, 3]), np.array([1, 5, 3])).tolist()
    [0, 1, 2]
    """
    return np.where(keys1 > keys2, 0, np.where(keys1 < keys2, 1, 2)).astype(np.int8)


def compare(hand1: str, hand2: str) -> str:
    """Decide one game between two written hands.

    >>> compare("AAAQQ", "QQAAA"), compare("88822", "QQ777"), compare("99652", "99752")
    ('Tie', 'Hand 1', 'Hand 2')
    """
    for label, hand in (("hand1", hand1), ("hand2", hand2)):
        problem = hand_problem(hand, label=label)
        if problem:
            raise InputError(problem)
    ranks, _ = parse_hands(pa.array([hand1, hand2]), label="hand")
    keys = hand_keys(ranks)
    return OUTCOMES[winners(keys[:1], keys[1:])[0]]


class Larvis(games.Game):
    """Larvis behind the game interface: ``Hand1,Hand2[,Winner]`` in, ``winner`` out."""

    name = "larvis"
    title = "Larvis"
    categories = tuple(str(category) for category in CATEGORIES)
    expected_column = EXPECTED_COLUMN
    row_noun = "games"
    hand_cards = HAND_SIZE
    exact_hand_sizes = (HAND_SIZE,)
    required_columns = COLUMNS
    columns_hint = ",".join(COLUMNS)

    def known_columns(self) -> tuple[str, ...]:
        return (*COLUMNS, EXPECTED_COLUMN)

    def input_columns(self, columns: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
        for label, names in columns.items():
            missing = [c for c in COLUMNS if c not in names]
            if missing:
                raise InputError(f"{label}: missing column {', '.join(missing)} "
                                 f"(a Larvis games file has {','.join(COLUMNS)})")
        return COLUMNS

    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> games.Scored:
        """Score a batch of games given as Hand1 and Hand2 text columns.

        ``best_five`` adds each hand's ranks in order of significance and its description.
        """
        from pipeline import describe

        ranks1, why1 = parse_hands(table.column("Hand1"), label="Hand1")
        ranks2, why2 = parse_hands(table.column("Hand2"), label="Hand2")
        reasons = np.where(why1 != None, why1, why2)  # noqa: E711 (elementwise)
        ok = reasons == None  # noqa: E711
        keys1, keys2 = hand_keys(ranks1[ok]), hand_keys(ranks2[ok])
        categories1, categories2 = key_categories(keys1), key_categories(keys2)
        outcome = winners(keys1, keys2)
        kept = pa.array(ok)
        results = pa.table({
            # The hands as scored: without the surrounding whitespace parse_hands
            # allows, so no newline or quote of the input reaches an unquoted CSV.
            "hand1": pc.utf8_trim_whitespace(table.column("Hand1").filter(kept)),
            "hand2": pc.utf8_trim_whitespace(table.column("Hand2").filter(kept)),
            "hand1_category": games.category_column(categories1, self.categories),
            "hand1_key": keys1,
            "hand2_category": games.category_column(categories2, self.categories),
            "hand2_key": keys2,
            "winner": games.category_column(outcome, OUTCOMES),
        })
        if best_five:
            for name, keys in (("hand1", keys1), ("hand2", keys2)):
                for column, values in describe.larvis_columns(name, keys).items():
                    results = results.append_column(column, values)
        winning = np.stack([outcome != 1, outcome != 0])
        tally = Tally.of_deals(self.categories, np.stack([categories1, categories2]), winning)
        counts = np.bincount(outcome, minlength=len(OUTCOMES))
        return games.Scored(results, ok, reasons, tally, outcome, _OUTCOME_TEXTS,
                            dict(zip(OUTCOMES, counts.tolist())))

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        from pipeline.probabilities import shape_counts

        shapes = shape_counts(cards or HAND_SIZE, straights=False)
        return {str(category): shapes[_SHAPE_NAMES[shape]]
                for category, shape in zip(CATEGORIES, _SHAPE_OF_CATEGORY, strict=True)}

    def deal_columns(self, players: int) -> tuple[str, ...]:
        return COLUMNS

    def cards_per_row(self, players: int) -> int:
        return len(COLUMNS) * HAND_SIZE

    def text_width(self, players: int) -> int:
        return HAND_SIZE

    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        from pipeline.generate import string_column

        # Both hands come from one deck; Larvis keeps the ranks only.
        symbols = _RANK_BYTES[dealt >> 2]
        columns = [string_column(symbols[h * HAND_SIZE:(h + 1) * HAND_SIZE].T) for h in range(len(COLUMNS))]
        return pa.RecordBatch.from_arrays(columns, schema=schema)


_OUTCOME_TEXTS = np.asarray(OUTCOMES, dtype=object)
#: Rank index -> its symbol byte, ten written T.
_RANK_BYTES = np.frombuffer(cards.RANKS.encode("ascii"), np.uint8)
GAME = games.register(Larvis())
