"""Tally: category frequencies, wins and ties, merged across batches.

Layer: games (:mod:`pipeline.games`), its lowest module; imports nothing
of the package.

This module owns the summary statistics of a run, for both games.  A
:class:`Tally` is a set of count arrays; scoring a batch makes one, and
tallies of batches (or of cluster partitions) are merged by adding them, so
the statistics of a run do not depend on how it was split.

Tables written by a run (``categories.csv`` and ``ties.csv``):

* ``categories``: per number of players (or ``all``) and scope (``hand``:
  every hand dealt; ``first_seat``: the hand of the first seated player of
  each deal; ``winning``: the winning hand of each deal), the count and share
  of each category, and how many of those hands won outright or tied for
  the win.  Hands of one hold'em deal share the board, so they are not
  independent draws; ``first_seat`` takes one hand per deal, which is what a
  goodness-of-fit test against exact probabilities needs (its wins and ties
  are not tallied and are left empty).
* ``ties``: per number of players (or ``all``), the deals and the deals
  whose pot is split, and their ratio.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

#: The most players a row of any game seats (hold'em's ten): the bound of
#: every table here.
MAX_SEATS = 10

Counts: TypeAlias = NDArray[np.int64]


@dataclass(frozen=True)
class Tally:
    """Counts of one run or part of a run.

    A tally is a value: :meth:`zeros` makes the empty one, :meth:`of_deals`
    counts a batch, and ``+`` merges two into a new tally.

    Attributes
    ----------
    categories : tuple of str
        Category names, weakest first.
    hands, first_seat, wins, ties, winning : ndarray of shape (11, len(categories)), int64
        Indexed by [number of players, category]: hands dealt, hands of the
        first seated player, hands that won alone, hands that tied for the
        win, and deals won by that category.
    deals, tied_deals : ndarray of shape (11,), int64
        Deals, and deals with more than one winner, by number of players.

    Examples
    --------
    >>> empty = Tally.zeros(("Low", "High"))
    >>> empty.hands.shape, empty.deals.shape
    ((11, 2), (11,))
    >>> counted = Tally.of_deals(("Low", "High"), np.array([[1, 0], [0, -1]]),
    ...                          np.array([[True, True], [False, False]]))
    >>> merged = counted + counted
    >>> int(merged.deals[2]), int(merged.deals[1]), int(merged.wins[2, 1])
    (2, 2, 2)
    """

    categories: tuple[str, ...]
    hands: Counts
    first_seat: Counts
    wins: Counts
    ties: Counts
    winning: Counts
    deals: Counts
    tied_deals: Counts

    @classmethod
    def zeros(cls, categories: tuple[str, ...]) -> Tally:
        """The empty tally of a game with these categories: every count 0."""
        by_category, by_players = (MAX_SEATS + 1, len(categories)), MAX_SEATS + 1
        return cls(categories, hands=np.zeros(by_category, np.int64),
                   first_seat=np.zeros(by_category, np.int64), wins=np.zeros(by_category, np.int64),
                   ties=np.zeros(by_category, np.int64), winning=np.zeros(by_category, np.int64),
                   deals=np.zeros(by_players, np.int64), tied_deals=np.zeros(by_players, np.int64))

    def __add__(self, other: Tally) -> Tally:
        """The merged tally: every count summed; ``a += b`` rebinds ``a`` to it."""
        if other.categories != self.categories:
            raise ValueError("cannot merge tallies of different games")
        return Tally(self.categories, hands=self.hands + other.hands,
                     first_seat=self.first_seat + other.first_seat, wins=self.wins + other.wins,
                     ties=self.ties + other.ties, winning=self.winning + other.winning,
                     deals=self.deals + other.deals, tied_deals=self.tied_deals + other.tied_deals)

    @classmethod
    def of_deals(cls, categories: tuple[str, ...], hand_categories: NDArray[np.integer],
                 winning_seats: NDArray[np.bool_], *,
                 winning_category: NDArray[np.integer] | None = None) -> Tally:
        """Count one batch of scored deals.

        Parameters
        ----------
        categories : tuple of str
            The game's category names, weakest first.
        hand_categories : ndarray of shape (seats, n), integer
            Category code of each seat's hand, -1 for an empty seat;
            seat-major, so that every step runs down contiguous rows.
        winning_seats : ndarray of shape (seats, n), bool
            True for each seat that holds the best hand of its deal.
        winning_category : ndarray of shape (n,), integer, optional
            Category of each deal's best hand, when the caller has it.
        """
        size = len(categories)
        cells = (MAX_SEATS + 1) * size
        hand_categories = np.asarray(hand_categories)
        seats, n = hand_categories.shape
        seated = hand_categories >= 0
        # Small integer types throughout: these arrays are seats x batch rows.
        players = np.zeros(n, dtype=np.int8)
        winner_count = np.zeros(n, dtype=np.int8)
        for seat in range(seats):
            players += seated[seat]
            winner_count += winning_seats[seat]
        tied = winner_count > 1
        base = players.astype(np.int16) * size
        # One count for every seated hand: its cell [players, category], moved
        # one block of cells up if it won alone and two if it tied for the win.
        outcome = (winning_seats * (1 + tied)).astype(np.int16) * cells
        codes = np.where(seated, base + hand_categories + outcome, 3 * cells)
        counted = np.bincount(codes.ravel(), minlength=3 * cells + 1)[:3 * cells].reshape(3, cells)
        first = np.full(n, -1, dtype=np.int16)
        for seat in reversed(range(seats)):
            first = np.where(seated[seat], hand_categories[seat], first)
        has_first = first >= 0
        if winning_category is None:
            winning_category = np.full(n, -1, dtype=np.int16)
            for seat in reversed(range(seats)):
                winning_category = np.where(winning_seats[seat], hand_categories[seat], winning_category)
        has_winner = winner_count > 0
        return cls(
            categories,
            hands=counted.sum(axis=0).reshape(MAX_SEATS + 1, size),
            first_seat=np.bincount(base[has_first] + first[has_first],
                                   minlength=cells).reshape(MAX_SEATS + 1, size),
            wins=counted[1].reshape(MAX_SEATS + 1, size),
            ties=counted[2].reshape(MAX_SEATS + 1, size),
            winning=np.bincount(base[has_winner] + np.asarray(winning_category)[has_winner],
                                minlength=cells).reshape(MAX_SEATS + 1, size),
            deals=np.bincount(players, minlength=MAX_SEATS + 1),
            tied_deals=np.bincount(players[tied], minlength=MAX_SEATS + 1),
        )

    def category_table(self) -> pa.Table:
        """The ``categories`` table: one row per players, scope and category."""
        records: list[dict[str, str | int | float | None]] = []
        for label, players in self._player_groups():
            for scope, counts in (("hand", self.hands), ("first_seat", self.first_seat),
                                  ("winning", self.winning)):
                total = int(counts[players].sum())
                for index, name in enumerate(self.categories):
                    count = int(counts[players, index].sum())
                    wins: int | None
                    ties: int | None
                    if scope == "winning":
                        # A hand that won alone is exactly one deal won alone.
                        wins = int(self.wins[players, index].sum())
                        ties = count - wins
                    elif scope == "hand":
                        wins = int(self.wins[players, index].sum())
                        ties = int(self.ties[players, index].sum())
                    else:  # not tallied for the first seat alone: left empty, not 0
                        wins = ties = None
                    records.append({"players": label, "scope": scope, "category": name,
                                    "count": count, "share": count / total if total else 0.0,
                                    "wins": wins, "ties": ties})
        return pa.Table.from_pylist(records, schema=CATEGORY_SCHEMA)

    def tie_table(self) -> pa.Table:
        """The ``ties`` table: deals, split pots and tie rate by number of players."""
        records: list[dict[str, str | int | float]] = []
        for label, players in self._player_groups():
            deals = int(self.deals[players].sum())
            tied = int(self.tied_deals[players].sum())
            records.append({"players": label, "deals": deals, "tied_deals": tied,
                            "tie_rate": tied / deals if deals else 0.0})
        return pa.Table.from_pylist(records, schema=TIE_SCHEMA)

    def _player_groups(self) -> list[tuple[str, list[int]]]:
        present = [int(p) for p in np.flatnonzero(self.deals)]
        groups = [("all", present)]
        if len(present) > 1:
            groups += [(str(p), [p]) for p in present]
        return groups


CATEGORY_SCHEMA = pa.schema([("players", pa.string()), ("scope", pa.string()),
                             ("category", pa.string()), ("count", pa.int64()),
                             ("share", pa.float64()), ("wins", pa.int64()), ("ties", pa.int64())])
TIE_SCHEMA = pa.schema([("players", pa.string()), ("deals", pa.int64()),
                        ("tied_deals", pa.int64()), ("tie_rate", pa.float64())])


@dataclass(frozen=True)
class Tallies:
    """The tallies of a run whose rows are of several games (hand histories), one per game.

    Merged by ``+`` game by game; its tables are each game's, one after the
    other in name order, with a ``game`` column first.

    Examples
    --------
    >>> one = Tallies((("omaha", Tally.zeros(("Low", "High"))),))
    >>> both = one + Tallies((("holdem", Tally.zeros(("Low", "High"))),)) + one
    >>> [game for game, _ in both.by_game]
    ['holdem', 'omaha']
    >>> both.tie_table().column_names
    ['game', 'players', 'deals', 'tied_deals', 'tie_rate']
    """

    by_game: tuple[tuple[str, Tally], ...] = ()

    def __add__(self, other: Tallies) -> Tallies:
        merged = dict(self.by_game)
        for game, tally in other.by_game:
            merged[game] = merged[game] + tally if game in merged else tally
        return Tallies(tuple(sorted(merged.items())))

    def category_table(self) -> pa.Table:
        """Each game's ``categories`` table, a ``game`` column first."""
        return self._joined([(game, tally.category_table()) for game, tally in self.by_game],
                            GAME_CATEGORY_SCHEMA)

    def tie_table(self) -> pa.Table:
        """Each game's ``ties`` table, a ``game`` column first."""
        return self._joined([(game, tally.tie_table()) for game, tally in self.by_game], GAME_TIE_SCHEMA)

    @staticmethod
    def _joined(tables: list[tuple[str, pa.Table]], schema: pa.Schema) -> pa.Table:
        parts = [table.add_column(0, "game", pa.array([game] * table.num_rows, pa.string()))
                 for game, table in tables]
        return pa.concat_tables(parts) if parts else schema.empty_table()


#: The tables of :class:`Tallies`: those of one game, after the game's name.
GAME_CATEGORY_SCHEMA = pa.schema([("game", pa.string()), *CATEGORY_SCHEMA])
GAME_TIE_SCHEMA = pa.schema([("game", pa.string()), *TIE_SCHEMA])
