"""Larvis as a game: hands written as rank symbols in, the winner of each game out.

Layer: games (:mod:`pipeline.games`); imports the game interface
(:mod:`pipeline.games.base`), :mod:`pipeline.games.tally` and pure
evaluation (:mod:`pipeline.poker`), nothing above.

This module owns the Larvis game: its columns (``Hand1``, ``Hand2``,
``Winner``), the parsing of hands written as five rank symbols ("AAAQQ")
with a reason for every hand it refuses, :func:`compare` for one game and
the :class:`Larvis` game behind the interface.  The keys of hands are
:mod:`pipeline.poker.larvis`'s.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import InputError
from pipeline.games import base
from pipeline.games.tally import Tally
from pipeline.poker import cards, describe, exact
from pipeline.poker.larvis import CATEGORIES, HAND_SIZE, OUTCOMES, hand_keys, key_categories, winners
from pipeline.text import shown, string_column, text_matrix

COLUMNS = ("Hand1", "Hand2")
EXPECTED_COLUMN = "Winner"


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
    >>> hand_problem("AA10KK")
    "hand 'AA10KK': ten is written T or X, not 10: 'AATKK'"
    >>> hand_problem("10234")  # no hand with T for 10: no correction offered
    "hand '10234': ten is written T or X, not 10"
    """
    text = text.strip() if text is not None else None
    if text is None or text == "":
        return f"{label} is empty"
    if "10" in text:
        meant = text.replace("10", "T")
        if hand_problem(meant) is None:  # a correction only where it is a hand
            return f"{label} {shown(text)}: {cards.TEN_HINT}: {shown(meant)}"
        return f"{label} {shown(text)}: {cards.TEN_HINT}"
    if len(text) != HAND_SIZE:
        return f"{label} {shown(text)}: {len(text):,} symbols, expected {HAND_SIZE}"
    for symbol in text:
        if symbol not in cards.RANKS and symbol != "X":
            return (f"{label} {shown(text)}: unknown symbol {symbol!r}, "
                    f"expected one of {cards.RANKS} (or X for ten)")
    normalized = text.replace("X", "T")
    for symbol in cards.RANKS:
        if normalized.count(symbol) > 4:
            return f"{label} {shown(text)}: {symbol!r} appears {normalized.count(symbol)} times, at most 4"
    return None


def compare(hand1: str, hand2: str) -> str:
    """Decide one game between two written hands.

    >>> compare("AAAQQ", "QQAAA"), compare("88822", "QQ777"), compare("99652", "99752")
    ('Tie', 'Hand 1', 'Hand 2')
    """
    for label, hand in (("hand1", hand1), ("hand2", hand2)):
        if not isinstance(hand, str):
            raise InputError(f"{label} is {type(hand).__name__}, not text: write a hand like AAKQQ")
        problem = hand_problem(hand, label=label)
        if problem:
            raise InputError(problem)
    ranks, _ = parse_hands(pa.array([hand1, hand2]), label="hand")
    keys = hand_keys(ranks)
    return OUTCOMES[winners(keys[:1], keys[1:])[0]]


class Larvis(base.Game):
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

    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> base.Scored:
        """Score a batch of games given as Hand1 and Hand2 text columns.

        ``best_five`` adds each hand's ranks in order of significance and its description.
        """
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
            "hand1_category": base.category_column(categories1, self.categories),
            "hand1_key": keys1,
            "hand2_category": base.category_column(categories2, self.categories),
            "hand2_key": keys2,
            "winner": base.category_column(outcome, OUTCOMES, ordered=False),
        })
        if best_five:
            for name, keys in (("hand1", keys1), ("hand2", keys2)):
                for column, values in describe.larvis_columns(name, keys).items():
                    results = results.append_column(column, values)
        winning = np.stack([outcome != 1, outcome != 0])
        tally = Tally.of_deals(self.categories, np.stack([categories1, categories2]), winning)
        counts = np.bincount(outcome, minlength=len(OUTCOMES))
        return base.Scored(results, ok, reasons, tally, outcome, _OUTCOME_TEXTS,
                            dict(zip(OUTCOMES, counts.tolist())))

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        return exact.larvis_counts(cards or HAND_SIZE)

    def deal_columns(self, players: int) -> tuple[str, ...]:
        return COLUMNS

    def cards_per_row(self, players: int) -> int:
        return len(COLUMNS) * HAND_SIZE

    def text_width(self, players: int) -> int:
        return HAND_SIZE

    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        # Both hands come from one deck; Larvis keeps the ranks only.
        symbols = cards.RANK_BYTES[dealt >> 2]
        columns = [string_column(symbols[h * HAND_SIZE:(h + 1) * HAND_SIZE].T) for h in range(len(COLUMNS))]
        return pa.RecordBatch.from_arrays(columns, schema=schema)


_OUTCOME_TEXTS = np.asarray(OUTCOMES, dtype=object)
GAME = Larvis()
