"""The game interface: what the rest of the pipeline may know about a game.

Layer: games (:mod:`pipeline.games`); imports :mod:`pipeline.games.tally`,
pure evaluation and the foundation modules, nothing above.

This module owns the :class:`Game` interface and what a game hands back
(:class:`Scored`).  A game is one module (:mod:`pipeline.games.larvis`,
:mod:`pipeline.games.holdem`) holding one :class:`Game` subclass; the
registry (:mod:`pipeline.games.registry`) lists them.  A new game is a new
module with a new subclass: its columns, expected column, categories,
parsing with reasons, scoring of a batch into its result table and
statistics, exact category counts and dealing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.errors import UsageError
from pipeline.games.tally import Tallies, Tally


@dataclass(frozen=True)
class Scored:
    """One batch after a game has scored it.

    Attributes
    ----------
    results : pyarrow.Table
        The result columns of the scored rows, in input order (no ``row``).
    ok : ndarray of shape (n,), dtype bool
        True for the rows of the batch that were scored.
    reasons : ndarray of shape (n,), dtype object
        None where ``ok``, else why the row is rejected.
    tally : Tally or Tallies
        Category, win and tie counts of the scored rows (of each game, where
        the rows are of several).
    outcome_codes : ndarray of shape (ok.sum(),), integer
        Each scored row's outcome, an index into ``outcome_texts``.
    outcome_texts : ndarray, dtype object
        The text of each outcome, as an expected column writes it.
    outcome_counts : dict of str to int
        Counts for the summary's ``outcomes``.
    fields : ndarray of shape (n,), dtype int8, optional
        Which field of a rejected row its reason is about (0 the first, -1
        none), where the game knows it.
    """

    results: pa.Table
    ok: NDArray[np.bool_]
    reasons: NDArray[np.object_]
    tally: Tally | Tallies
    outcome_codes: NDArray[np.integer]
    outcome_texts: NDArray[np.object_]
    outcome_counts: dict[str, int] = field(default_factory=dict)
    fields: NDArray[np.int8] | None = None

    def outcomes(self) -> NDArray[np.object_]:
        """The outcome of each scored row as text, to compare with an expected column."""
        texts: NDArray[np.object_] = self.outcome_texts[self.outcome_codes]
        return texts


def category_column(codes: np.ndarray, names: tuple[str, ...], *, present: np.ndarray | None = None,
                    ordered: bool = True) -> pa.DictionaryArray:
    """A dictionary-encoded column of category names from their codes; null where not ``present``.

    The dictionary is ``names`` in their order, weakest first, and says so
    (``ordered``): pandas and polars read it as categories in rank order, so
    sorting or comparing by category follows the ranking.  An outcome that
    is no ranking (Larvis' ``winner``) passes ``ordered=False``.

    >>> column = category_column(np.array([1, 0]), ("Low", "High"))
    >>> column.to_pylist(), column.type.ordered
    (['High', 'Low'], True)
    """
    mask = None if present is None else ~present
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int8), pa.int8(), mask=mask),
                                          pa.array(list(names), pa.string()), ordered=ordered)


class Game(ABC):
    """What a game tells the pipeline.  Subclass it in the game's module and :func:`register` it.

    Class attributes
    ----------------
    name : str
        What ``--game`` and ``summary.json`` call it.
    title : str
        How messages name it.
    categories : tuple of str
        Category names, weakest first, as ``categories.csv`` spells them.
    expected_column : str
        The input column that may hold expected outcomes.
    row_noun : str
        What a row is, in the plural ("games", "deals").
    hand_cards : int
        Cards in one hand: the exact category shares are those of this many
        cards from the game's deck (:meth:`deck`).
    exact_hand_sizes : tuple of int
        Hand sizes :meth:`exact_counts` knows (``hand_cards`` among them).
    columns_hint : str
        The columns of an input, as a message suggests them.
    required_columns : tuple of str
        The columns that tell a file of this game (:meth:`claims`).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    categories: ClassVar[tuple[str, ...]]
    expected_column: ClassVar[str]
    row_noun: ClassVar[str]
    hand_cards: ClassVar[int]
    exact_hand_sizes: ClassVar[tuple[int, ...]]
    columns_hint: ClassVar[str]
    required_columns: ClassVar[tuple[str, ...]]
    #: Whether ``generate`` can write contest files (``.in``) of this game
    #: (then it also has ``contest_bytes``).
    writes_contest: ClassVar[bool] = False
    #: The most players of a row, or None where a row has a fixed number of hands.
    max_players: ClassVar[int | None] = None
    #: Whether :func:`pipeline.games.registry.detect` may pick the game from a file's columns and
    #: cards; a game whose files look like another's (hi-lo, short-deck) is only ever named.
    detectable: ClassVar[bool] = True

    def holds(self, hole_cards: int) -> bool:
        """Whether a seat of this game holds ``hole_cards`` cards (a game without seats: any)."""
        return True

    def contest_bytes(self, dealt: np.ndarray) -> np.ndarray:
        """The contest-file text of dealt cards (cards, n); only where :attr:`writes_contest`."""
        raise UsageError(f"{self.title} has no contest format")

    def dealing(self, hole_cards: int | None) -> Game:
        """The game as ``generate`` deals it, ``hole_cards`` a seat (Omaha: 4, 5 or 6); itself for None."""
        if hole_cards is None:
            return self
        raise UsageError(f"{self.title} deals no hole cards to choose")

    def deck(self) -> NDArray[np.uint8]:
        """The card codes the game deals from, ascending: the 52 cards unless the game says otherwise."""
        return np.arange(52, dtype=np.uint8)

    def pot_keys(self, board: NDArray[np.uint8], holes: NDArray[np.uint8]) -> NDArray[np.int64]:
        """The keys by which finished boards share a pot among the seats still in.

        Parameters
        ----------
        board : ndarray of shape (n, 5), dtype uint8
            Card codes of finished boards.
        holes : ndarray of shape (n, seats, k), dtype uint8
            Each seat's hole cards, k as the game deals them.

        Returns
        -------
        keys : ndarray of shape (parts, n, seats), dtype int64
            A pot is split into ``parts`` equal parts (1; 2 for a high and a low): in each, the
            eligible seats of the highest key share it.  A key of 0 never wins, and a part no
            seat wins goes to the others (a hi-lo pot without a qualifying low).
        """
        raise UsageError(f"{self.title} has no pots to share")

    @abstractmethod
    def known_columns(self) -> tuple[str, ...]:
        """Every input column name the game reads, its expected column included."""

    def claims(self, columns: tuple[str, ...]) -> bool:
        """Whether a file with these columns holds this game: it has every :attr:`required_columns`."""
        return set(self.required_columns) <= set(columns)

    @abstractmethod
    def input_columns(self, columns: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
        """The columns to read from inputs with these columns (by label, e.g. a path).

        Raises InputError naming the input that lacks a column the game needs.
        """

    def prepare(self) -> None:
        """Build what scoring needs once (its tables) ahead of the first batch; nothing here.

        A run on several threads calls it on a thread of its own while the first batches are
        read, so that they do not wait for it one after another.
        """
        return None  # a game without tables has nothing to build

    @abstractmethod
    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> Scored:
        """Parse and score a batch: ``table`` holds ``columns`` (from :meth:`input_columns`) as text."""

    @abstractmethod
    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        """Hands of each category among all hands of ``cards`` cards (default
        :attr:`hand_cards`) from the game's deck, weakest first."""

    @abstractmethod
    def deal_columns(self, players: int) -> tuple[str, ...]:
        """The columns of a generated archive with ``players`` players."""

    @abstractmethod
    def cards_per_row(self, players: int) -> int:
        """Cards dealt for one generated row."""

    @abstractmethod
    def text_width(self, players: int) -> int:
        """The widest text value of a generated row, in bytes."""

    @abstractmethod
    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        """A generated batch: ``dealt`` (rows, cards_per_row) card codes as text columns."""
