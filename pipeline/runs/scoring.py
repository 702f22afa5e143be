"""The per-batch work of a run: scoring a batch, its rejects and its counts.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.columns`,
the formats, the games and the foundation modules, never the command line.

This module owns what every engine does to one batch, wherever it runs
(:class:`Scoring`: small and picklable, so it travels to worker processes
and cluster workers), and what a batch adds up to (:class:`Totals`): every
row read is scored, rejected (:data:`REJECT_SCHEMA`) or set apart, and
totals merge in row order, so a run's summary does not depend on how its
rows were split.  How a run's inputs become batches and where they are
processed is :mod:`pipeline.runs.runner`'s.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.errors import InputError
from pipeline.formats import histories
from pipeline.formats.sources import Batch, PendingBatch, Source
from pipeline.games import registry
from pipeline.games.base import Scored
from pipeline.games.tally import Tallies, Tally
from pipeline.hands.duplicates import HandIds
from pipeline.runs.columns import conformed
from pipeline.text import listed

REJECT_SCHEMA = pa.schema([("row", pa.int64()), ("source", pa.string()),
                           ("source_row", pa.int64()), ("line", pa.int64()),
                           ("reason", pa.string()), ("raw", pa.string())])
REJECTS_FILE = "rejects.csv"
MISMATCHES_KEPT = 20


@dataclass(frozen=True)
class Mismatch:
    """A scored row whose outcome differs from its expected column."""

    row: int
    expected: str
    got: str


@dataclass(frozen=True)
class Mismatches:
    """Rows checked against an expected column, those that differ, and the first of them.

    Adding keeps the first ``MISMATCHES_KEPT`` in row order, so the result
    does not depend on how the rows were split into batches.
    """

    checked: int = 0
    mismatched: int = 0
    first: tuple[Mismatch, ...] = ()

    def __add__(self, other: Mismatches) -> Mismatches:
        return Mismatches(self.checked + other.checked, self.mismatched + other.mismatched,
                          (self.first + other.first)[:MISMATCHES_KEPT])

    def summary(self) -> dict[str, Any]:
        """As summary.json's ``expected`` entry gives them."""
        return {"checked": self.checked, "mismatched": self.mismatched,
                "first": [dataclasses.asdict(mismatch) for mismatch in self.first]}


@dataclass
class Totals:
    """Counts and statistics of part of a run: a batch, a partition, a source or all of it.

    Totals merge by ``+=`` in row order (the kept mismatches stay the first
    ones), so a run's summary does not depend on how its rows were split
    into batches or cluster partitions.
    """

    tally: Tally | Tallies
    read: int = 0
    scored: int = 0
    blank_lines: int = 0
    span: int = 0  # the highest source row seen, 0 if none
    outcomes: dict[str, int] = field(default_factory=dict)
    mismatches: Mismatches = field(default_factory=lambda: Mismatches())
    counts: dict[str, int] = field(default_factory=dict)  # PHH hands set apart or not checked
    ids: HandIds = field(default_factory=HandIds)  # of the hands read, to find those read twice

    @classmethod
    def empty(cls, game: str, *, by_game: bool = False) -> Totals:
        """No rows yet: the tally of ``game``, or of each game met where rows are of several."""
        return cls(Tallies() if by_game else Tally.zeros(registry.get(game).categories))

    @classmethod
    def of_batch(cls, batch: Batch, scored: Scored) -> Totals:
        """The counts of one scored batch: every row read is scored, rejected or set apart.

        Parameters
        ----------
        batch : Batch
            The rows read, with the unreadable ones and the PHH hands set apart.
        scored : Scored
            The batch after scoring: ``ok`` (shape (n,), bool) the rows scored,
            ``tally`` and ``outcome_counts`` what they add up to.
        """
        read = batch.table.num_rows + len(batch.unreadable) + sum(
            batch.counts.get(name, 0) for name in histories.SET_APART)
        return cls(scored.tally, read=read, scored=int(scored.ok.sum()), blank_lines=batch.blank_lines,
                   span=batch_span(batch), outcomes=dict(scored.outcome_counts), counts=dict(batch.counts),
                   ids=HandIds.of_hands(batch.hand_tables["hands"]) if batch.hand_tables else HandIds())

    @property
    def rejected(self) -> int:
        return self.read - self.scored - sum(self.counts.get(name, 0) for name in histories.SET_APART)

    def __iadd__(self, other: Totals) -> Totals:
        self.tally += other.tally  # type: ignore[operator]  # of one kind in one run: Tally or Tallies
        self.read += other.read
        self.scored += other.scored
        self.blank_lines += other.blank_lines
        self.span = max(self.span, other.span)
        for name, count in other.outcomes.items():
            self.outcomes[name] = self.outcomes.get(name, 0) + count
        for name, count in other.counts.items():
            self.counts[name] = self.counts.get(name, 0) + count
        self.mismatches = self.mismatches + other.mismatches
        self.ids += other.ids
        return self


@dataclass
class BatchOutcome:
    """One batch after :meth:`Scoring.process_batch`: what it adds to the outputs.

    ``results`` holds the winners rows with their run-wide ``row`` (and the
    ``expected`` column when the inputs have one), ``rejects`` the rejected
    rows (:data:`REJECT_SCHEMA`) and ``totals`` the counts and statistics.
    """

    results: pa.Table
    rejects: pa.Table
    totals: Totals
    hand_tables: dict[str, pa.Table] | None = None  # a hand history's (Batch.hand_tables)


@dataclass(frozen=True)
class Scoring:
    """How a run scores a batch: the game, its columns and the expected column.

    The one place of the per-batch work, shared by the local engine
    (:meth:`Run.execute`) and the cluster engine (:mod:`pipeline.runs.cluster`);
    small and picklable, so it travels to cluster workers.
    """

    game: str
    columns: tuple[str, ...]  # read from each input: the game's, then expected, carried and kept ones
    expected: str | None
    carried: tuple[str, ...] = ()  # input columns copied into winners (a PHH hand's origin)
    best_five: bool = False
    #: Columns of the user's copied into the results row for row, in their own Arrow type
    #: (``--keep``); see :func:`kept_columns`.
    kept: pa.Schema = field(default_factory=lambda: pa.schema([]))
    #: Rows name their own game (hand histories: :data:`GAME_COLUMN`), each scored by it; a row
    #: without one (a deal archive's, in the same run) by :attr:`game`.
    by_game: bool = False

    def empty_totals(self) -> Totals:
        """The totals of no rows of this run."""
        return Totals.empty(self.game, by_game=self.by_game)

    @property
    def game_columns(self) -> tuple[str, ...]:
        """The columns the game scores: those read, less the expected, carried and kept ones."""
        return tuple(name for name in self.columns if name != self.expected and name not in self.carried
                     and name not in self.kept.names)

    @property
    def typed(self) -> frozenset[str]:
        """The columns a reader gives in their own type, not as text: the kept ones."""
        return frozenset(self.kept.names)

    def score(self, table: pa.Table) -> Scored:
        if not self.by_game:
            return registry.get(self.game).score(table, self.game_columns, best_five=self.best_five)
        return score_by_game(table, self.game_columns, default=self.game, best_five=self.best_five,
                             template=self.game_template)

    @property
    def quote_winners(self) -> bool:
        """Whether a CSV winners table quotes its strings: the expected column and kept columns
        echo input text, which may hold quotes, and descriptions hold commas."""
        return self.expected is not None or self.best_five or len(self.kept) > 0

    @functools.cached_property
    def game_template(self) -> pa.Table:
        """The game's own result columns, no rows: every seat it has (a hold'em deal has ten),
        whatever seats an input holds, with the dictionaries of its category columns."""
        if self.by_game:
            return union_template(histories.GAMES, best_five=self.best_five)
        return _game_template(self.game, self.best_five)

    @functools.cached_property
    def template(self) -> pa.Table:
        """The winners table with no rows: the same columns for every input of the game and these
        options, each an input does not give left empty (see :func:`conformed`).

        Every column the game's results can have is there, whatever the
        inputs hold: each seat the game has, the ``expected`` column, and,
        for the game hand histories are scored as, the columns that trace a
        row to its hand.  The kept columns come last.
        """
        table = self.game_template.add_column(0, "row", pa.array([], pa.int64()))
        if self.by_game:  # what each row is scored as, beside its number
            table = table.add_column(1, GAME_COLUMN, pa.array([], pa.string()))
        table = table.append_column("expected", pa.array([], pa.string()))
        for name in histories.CARRIED if self.game == histories.GAME else ():
            if name not in table.column_names and (self.by_game or name != GAME_COLUMN):
                kind = histories.CARRIED_TYPES.get(name, pa.string())
                table = table.append_column(name, pa.array([], kind))
        for kept in self.kept:
            table = table.append_column(kept, pa.nulls(0, kept.type))
        return table

    def results_schema(self) -> pa.Schema:
        """Schema of the winners table (:attr:`template`)."""
        return self.template.schema

    def process_batch(self, source: Source, batch: Batch, offset: int) -> BatchOutcome:
        """Score one batch of ``source`` whose rows follow ``offset`` rows of the run."""
        scored = self.score(batch.table)
        rows = batch.rows + offset
        totals = Totals.of_batch(batch, scored)
        results = scored.results.add_column(0, "row", pa.array(rows[scored.ok]))
        chosen = pa.array(scored.ok)
        if self.expected:
            expected = batch.table.column(self.expected).filter(chosen)
            totals.mismatches = self._check(expected, scored.outcomes(), rows[scored.ok])
            results = results.append_column("expected", expected)
        for name in self.carried:
            results = results.append_column(name, batch.table.column(name).filter(chosen))
        results = conformed(self.carry(results, batch.table, chosen), self.template)
        return BatchOutcome(results, self.rejects(source, batch, scored, offset), totals,
                            hand_tables=batch.hand_tables)

    def carry(self, results: pa.Table, table: pa.Table, chosen: pa.Array) -> pa.Table:
        """``results`` with the kept columns of the rows of ``table`` that ``chosen`` selects.

        A column an input does not have (or that a reader filled with null
        text) is left out: :func:`~pipeline.runs.columns.conformed` gives it
        empty, in its kept type.
        """
        for kept in self.kept:
            column = table.column(kept.name) if kept.name in table.column_names else None
            if column is not None and column.null_count < len(column):
                results = results.append_column(kept, column.filter(chosen).cast(kept.type))
        return results

    @staticmethod
    def _check(expected: pa.ChunkedArray, got: np.ndarray, rows: np.ndarray) -> Mismatches:
        """Compare each scored row's outcome with the expected column, where it has a value."""
        trimmed = pc.utf8_trim_whitespace(expected)
        given = pc.fill_null(pc.not_equal(trimmed, ""), False).to_numpy(zero_copy_only=False)
        wanted = trimmed.to_numpy(zero_copy_only=False)
        differ = given & (wanted != got)
        first = tuple(Mismatch(int(rows[index]), str(wanted[index]), str(got[index]))
                      for index in np.flatnonzero(differ)[:MISMATCHES_KEPT])
        return Mismatches(int(given.sum()), int(differ.sum()), first)

    def rejects(self, source: Source, batch: Batch, scored: Scored, offset: int) -> pa.Table:
        """The rejects table of a scored batch: its unreadable lines and the rows the game refused."""
        bad = np.flatnonzero(~scored.ok)
        if not bad.size and not batch.unreadable:  # the common case: skip joining every row's text
            return REJECT_SCHEMA.empty_table()
        raw = batch.raw_text(bad)
        if raw is None:  # no text of their own (Parquet): the columns read, joined by commas
            joined = pc.binary_join_element_wise(
                *[pc.fill_null(batch.table.column(name).take(pa.array(bad)), "")
                  for name in self.game_columns], ",")
            raw = joined.to_pylist()
        lines = batch.lines[bad]
        if batch.field_lines and scored.fields is not None:
            lines = lines + 1 + np.maximum(scored.fields[bad], 0)
        records = [(int(batch.rows[i]), int(line), scored.reasons[i] or "unreadable row", text)
                   for i, line, text in zip(bad, lines, raw)]
        records += [(row, line, reason, text) for row, line, text, reason in batch.unreadable]
        records.sort()
        members = batch.member_of_row or {}  # a source of one-row files names each row's own file
        return pa.table({
            "row": pa.array([row + offset for row, *_ in records], pa.int64()),
            "source": pa.array([members[row].name if row in members else source.location
                                for row, *_ in records], pa.string()),
            "source_row": pa.array([1 if row in members else row for row, *_ in records], pa.int64()),
            "line": pa.array([line if line > 0 else None for _, line, _, _ in records], pa.int64()),
            "reason": pa.array([reason for _, _, reason, _ in records], pa.string()),
            "raw": pa.array([text for *_, text in records], pa.string()),
        }, schema=REJECT_SCHEMA)


#: The column of a hand history's rows that names the game each is scored as.
GAME_COLUMN = "game"
#: summary.json's ``game`` for a run whose rows are of several games (its ``games`` names them).
MIXED = "mixed"


@functools.cache
def _game_template(game: str, best_five: bool) -> pa.Table:
    """A game's own result columns, no rows, every seat it has (see :attr:`Scoring.game_template`)."""
    played = registry.get(game)
    every = tuple(name for name in played.known_columns() if name != played.expected_column)
    empty = pa.table({name: pa.array([], pa.string()) for name in every})
    return played.score(empty, every, best_five=best_five).results


@functools.cache
def union_template(games: tuple[str, ...], *, best_five: bool) -> pa.Table:
    """The result columns of rows of any of ``games``: every column of each, no rows.

    A column one game adds (hi-lo's ``winners_low``, ``pN_low_key``) comes
    after the column it follows in that game; the category columns have the
    first game's dictionary (hold'em's order: compare categories of one
    game only, as a key of one game is comparable only with keys of its own).
    """
    names: list[str] = []
    columns: dict[str, pa.ChunkedArray] = {}
    for game in games:
        template = _game_template(game, best_five)
        before = -1
        for name in template.column_names:
            if name not in columns:
                names.insert(before + 1, name)
                columns[name] = template.column(name)
            before = names.index(name)
    return pa.table({name: columns[name] for name in names})


def score_by_game(table: pa.Table, columns: tuple[str, ...], *, default: str, best_five: bool,
                  template: pa.Table) -> Scored:
    """Score rows that name their game (:data:`GAME_COLUMN`), each by its game, in row order.

    Each game scores its own rows in one call; their results, conformed to
    ``template`` (:func:`union_template`), are put back in row order.  The
    tally is each game's (:class:`~pipeline.games.tally.Tallies`).  A row
    naming no game is scored as ``default``.
    """
    named = pc.fill_null(table.column(GAME_COLUMN), default)
    games = sorted(str(game) for game in pc.unique(named).to_pylist())
    if len(games) <= 1:  # the usual batch: one game, no gathering
        game = games[0] if games else default
        scored = registry.get(game).score(table, columns, best_five=best_five)
        return dataclasses.replace(scored, results=_recoded(scored.results, template),
                                   tally=Tallies(((game, _one(scored.tally)),)) if games else Tallies())
    n = table.num_rows
    ok, reasons, fields = np.zeros(n, bool), np.full(n, None, dtype=object), np.full(n, -1, np.int8)
    game_of = named.to_numpy(zero_copy_only=False)
    parts, codes, chosen, tallies = [], [], [], Tallies()
    counts: dict[str, int] = {}
    texts = None
    for game in games:
        rows = np.flatnonzero(game_of == game)
        scored = registry.get(game).score(table.take(pa.array(rows)), columns, best_five=best_five)
        ok[rows], reasons[rows] = scored.ok, scored.reasons
        if scored.fields is not None:
            fields[rows] = scored.fields
        parts.append(_recoded(scored.results, template))
        codes.append(scored.outcome_codes)
        chosen.append(rows[scored.ok])
        tallies += Tallies(((game, _one(scored.tally)),))
        for name, count in scored.outcome_counts.items():
            counts[name] = counts.get(name, 0) + count
        texts = scored.outcome_texts  # the winners texts of every board game
    order = np.argsort(np.concatenate(chosen), kind="stable")
    results = pa.concat_tables(parts).unify_dictionaries().combine_chunks().take(pa.array(order))
    assert texts is not None  # two games or more were scored
    return Scored(results, ok, reasons, tallies, np.concatenate(codes)[order], texts, counts, fields)


def _one(tally: Tally | Tallies) -> Tally:
    """The tally a game gives (one game's, never another split by game)."""
    assert isinstance(tally, Tally)
    return tally


def _recoded(results: pa.Table, template: pa.Table) -> pa.Table:
    """``results`` conformed to ``template``, each category column in the template's dictionary.

    A game's categories are the template's names in another order
    (short-deck's); re-indexed by name, every game's rows share one
    dictionary and read back alike.
    """
    table = conformed(results, template)
    for at, (wanted, like) in enumerate(zip(template.schema, template.columns)):
        kind = wanted.type
        if not (pa.types.is_dictionary(kind) and kind.ordered and like.num_chunks and table.num_rows):
            continue
        dictionary = like.chunk(0).dictionary
        column = table.column(at).combine_chunks()
        if column.dictionary.equals(dictionary):
            continue
        found = pc.index_in(column.dictionary, value_set=dictionary)
        if found.null_count:  # a name the template lacks: left to the dictionaries' unification
            continue
        mapping = found.to_numpy(zero_copy_only=False)
        indices = column.indices.fill_null(0).to_numpy(zero_copy_only=False)
        valid = column.is_valid().to_numpy(zero_copy_only=False)
        recoded = pa.DictionaryArray.from_arrays(
            pa.array(mapping[indices].astype(np.int8), mask=~valid), dictionary, ordered=True)
        table = table.set_column(at, wanted, recoded)
    return table


def batch_span(batch: Batch | PendingBatch) -> int:
    """The highest source row of a batch (rows read or unreadable), 0 if it has none; a pending
    batch's is known before it is parsed."""
    if isinstance(batch, PendingBatch) or (not len(batch.rows) and not batch.unreadable):
        return batch.last_row
    return int(max(batch.rows.max(initial=0), max((r for r, *_ in batch.unreadable), default=0),
                   batch.last_row))


def reject_lines(rejects: pa.Table) -> list[tuple[str, str]]:
    """One line per rejected row, as shown on stderr (file, row (line) and reason), and its reason."""
    lines = []
    for source, row, line, reason in zip(*(rejects.column(name).to_pylist()
                                           for name in ("source", "source_row", "line", "reason"))):
        where = f"row {row}" + (f" (line {line})" if line else "")
        lines.append((f"{source}: {where}: {reason}", reason))
    return lines


def scoring_for(columns: dict[str, tuple[str, ...]], *, game: str | None = None, best_five: bool = False,
                carried: tuple[str, ...] = (), hole_cards: Mapping[str, int | None] | None = None) -> Scoring:
    """How to score tables with these columns: the game, the columns to read, the expected column.

    Parameters
    ----------
    columns : dict of str to tuple of str
        The column names of each input, by a label that names it in errors
        (a file's path).
    game : str, optional
        The game; detected from the columns when None.
    best_five : bool
        Add each hand's best five cards and description.
    carried : tuple of str
        Input columns copied into the results as they are.
    hole_cards : mapping of str to int or None, optional
        The cards of each input's first seated hand, by label, where it was
        looked at: Omaha's four to six cards are not hold'em's two.

    Raises
    ------
    UsageError
        An unknown game.
    InputError
        Inputs of different games, or an input without a column its game needs.
    """
    if game is None:
        cards = hole_cards or {}
        detected = {label: registry.detect(label, names, hole_cards=cards.get(label))
                    for label, names in columns.items()}
        by_game: dict[str, list[str]] = {}
        for label, played in detected.items():
            by_game.setdefault(played.name, []).append(label)
        if len(by_game) > 1:
            # Thousands of files may be named: the first few of each game and a count keep it one line.
            listing = "; ".join(f"{name}: {listed(labels)}" for name, labels in by_game.items())
            raise InputError(f"inputs mix games ({listing}): run each game separately or pass --game")
        played = next(iter(detected.values()))
    else:
        played = registry.get(game)
    read = played.input_columns(columns)
    expected: str | None = played.expected_column
    if any(expected in names for names in columns.values()):
        read += (played.expected_column,)
    else:
        expected = None
    return Scoring(played.name, read + carried, expected, carried, best_five,
                   by_game=GAME_COLUMN in carried)


