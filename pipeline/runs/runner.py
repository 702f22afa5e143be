"""The run: readers, then the vectorized scoring, then writers, batch by batch.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.scoring`,
:mod:`~pipeline.runs.threads`, the formats, the games and the foundation
modules, never the command line.

This module owns ``pokerpipe run``: it resolves the inputs, asks the game
registry which game they hold (:func:`pipeline.runs.scoring.scoring_for`), streams every source
through the game's scoring in batches of bounded size, appends winners and
rejects as it goes and, at the end, writes the statistics and
``summary.json``.  Memory is bounded by the batch size, not by the archive.
Where a run runs is an :class:`Engine`: :class:`LocalEngine` here (every
core of this process) or :class:`pipeline.runs.cluster.DaskEngine`; both call
the same per-batch work (:meth:`pipeline.runs.scoring.Scoring.process_batch`: scoring, rejects,
statistics) and close with the same outputs (:meth:`Run.finish`), published
as one set (:mod:`pipeline.formats.publish`).

What every run over a list of inputs shares is :class:`BaseRun`: the
checks of its arguments, its sources, the local engine's loop over them
(:class:`LocalEngine`), the accounting of each batch (:class:`~pipeline.runs.scoring.Totals`)
and the summary's common fields (:meth:`BaseRun.finish`).  ``pokerpipe
run`` is :class:`Run`; ``pokerpipe equity``
(:class:`pipeline.runs.equity.EquityRun`) is the other.

Row numbers
-----------
``row`` numbers every data row of the run in input order, starting at 1;
a file's rows follow the rows of the files before it (``first_row`` in
``summary.json``).  For a single input it is the data row of that file.
Every row read is either scored (in ``winners``) or rejected (in
``rejects.csv``, with the file, its row and line there and the reason).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import operator
import os
import shutil
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np
import pyarrow as pa

from pipeline.errors import UsageError
from pipeline.formats import histories, readers, sites
from pipeline.formats.publish import OutputSet
from pipeline.formats.sources import DEFAULT_BATCH_ROWS, Batch, PendingBatch, Source
from pipeline.formats.writers import FORMATS, TableWriter, write_json, write_table
from pipeline.games import registry
from pipeline.games.base import Game
from pipeline.games.tally import Tallies, Tally
from pipeline.hands import model
from pipeline.hands.duplicates import HandIds
from pipeline.runs import processes
from pipeline.runs.columns import kept_columns
from pipeline.runs.parts import Partition, PartResult, part_name, read_spill, score_partition
from pipeline.runs.scoring import (
    MIXED,
    REJECT_SCHEMA,
    REJECTS_FILE,
    BatchOutcome,
    Scoring,
    Totals,
    batch_span,
    reject_lines,
    scoring_for,
)
from pipeline.runs.threads import available_cores, run_ordered

#: summary.json as a run returns it.
Summary = dict[str, Any]
Processed = TypeVar("Processed")


def numbered(sources: Sequence[Source]) -> list[Source]:
    """The sources with their places in the run (:attr:`Source.place`), a file at a time: the
    members of a source of many one-hand files each take a place of their own, so that a hand's
    key is the same whether its file is read with others or alone."""
    found, place = [], 0
    for source in sources:
        members = tuple(dataclasses.replace(member, place=place + index)
                        for index, member in enumerate(source.members))
        found.append(dataclasses.replace(source, place=place, members=members))
        place += max(len(members), 1)
    return found


def marked(sources: Sequence[Source], duplicates: np.ndarray) -> list[Source]:
    """The sources, each with the keys of its hands among ``duplicates`` (:attr:`Source.duplicates`):
    a hand's key holds its input's place (:func:`pipeline.hands.model.hand_key`)."""
    places = model.hand_place(duplicates)
    return [dataclasses.replace(source, duplicates=duplicates[
        (places >= source.place) & (places < source.place + max(len(source.members), 1))])
        for source in sources]


def first_pass_duplicates(per_source: Sequence[Totals]) -> np.ndarray:
    """The keys of the hands a run read twice (:meth:`HandIds.duplicates`), from its sources' totals."""
    ids = HandIds()
    for done in per_source:
        ids += done.ids
    return ids.duplicates()


def source_record(source: Source, first_row: int, totals: Totals) -> dict[str, Any]:
    """The summary's entry of one input; an input whose records name a venue gives its audit
    counts too, added up by venue in ``expected.by_venue``."""
    record = {"path": source.location, "format": source.format, "size_bytes": source.size,
              **({"files": [str(member.path) for member in source.members]} if source.members else {}),
              "first_row": first_row, "rows": totals.read, "scored": totals.scored,
              "rejected": totals.rejected, "blank_lines": totals.blank_lines,
              **{name: totals.counts[name] for name in histories.SET_APART if name in totals.counts}}
    venue = sites.VENUES.get(source.format)
    if venue is not None:
        record |= {"venue": venue, "checked": totals.mismatches.checked,
                   "mismatched": totals.mismatches.mismatched,
                   **{f"not_checked_{name}": totals.counts.get(name, 0) for name in histories.NOT_CHECKED}}
    return record


@dataclass
class SummaryParts:
    """A run's own fields of summary.json, around those every run writes.

    summary.json holds, in order: ``head``; the ``inputs``, ``rows_read``
    and ``rows_scored``; ``rows``; ``rows_rejected``; ``fields``; the
    ``outputs`` (the results table and rejects.csv, then ``outputs``);
    ``tail``; then ``elapsed_seconds`` and ``rows_per_second``.
    """

    head: Summary
    rows: dict[str, int] = field(default_factory=dict)
    fields: Summary = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    tail: Summary = field(default_factory=dict)


class BaseRun(ABC):
    """What every run over a list of inputs shares; a run of its own adds its per-batch work.

    The arguments are checked and the output folder looked at before any
    input is read; the sources are opened.  :class:`LocalEngine` reads them
    in batches, hands each to :meth:`process_batch`, writes the results
    table and ``rejects.csv`` and closes with :meth:`finish`, published as
    one set (:class:`pipeline.formats.publish.OutputSet`).

    A run of its own sets ``scoring`` (the game, the columns read, and how
    a batch's rejects are written) and ``results_stem``, and gives
    :meth:`results_schema`, :meth:`process_batch` and :meth:`summary_parts`.

    Parameters
    ----------
    inputs : list of paths, folders or glob patterns
    outdir : path of the output folder (created if missing)
    output_format : "csv" or "parquet", for the results table
    batch_rows : rows per batch; bounds memory
    threads : threads of the local engine; None for the cores the process
        may run on, 1 for one thread doing everything in turn
    on_progress : called with (rows read so far, rows per second)
    on_reject : called with one line per rejected row and its reason
    on_notice : called with one line per input passed over (see
        :func:`pipeline.formats.readers.find_sources`)
    """

    #: The results table's file name, less the format: ``winners``, ``equity``.
    results_stem: ClassVar[str]
    #: Whether the run writes the hand tables of its hand-history inputs (:attr:`hand_table_files`).
    writes_hand_tables: bool = False
    scoring: Scoring

    def __init__(self, inputs: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str], *,
                 output_format: str = "csv", batch_rows: int = DEFAULT_BATCH_ROWS, threads: int | None = None,
                 on_progress: Callable[[int, float], None] | None = None,
                 on_reject: Callable[[str, str], None] | None = None,
                 on_notice: Callable[[str], None] | None = None) -> None:
        if output_format not in FORMATS:
            raise UsageError(f"unknown output format {output_format!r}: expected csv or parquet")
        if batch_rows < 1:
            raise UsageError(f"batch_rows must be at least 1, got {batch_rows}")
        if threads is not None and threads < 1:
            raise UsageError(f"threads must be at least 1, got {threads}")
        OutputSet(outdir).check()  # before any input is read: a folder in the way says so at once
        found = readers.find_sources(inputs, on_notice=on_notice)
        self.sources = numbered(found.sources)
        self.skipped = found.skipped
        self.outdir = Path(outdir)
        self.output_format = output_format
        self.batch_rows = batch_rows
        self.threads = threads or available_cores()
        self.on_progress = on_progress
        self.on_reject = on_reject

    @property
    def game(self) -> str:
        """The game of the inputs."""
        return self.scoring.game

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns read from each input."""
        return self.scoring.columns

    @property
    def hand_table_files(self) -> dict[str, str]:
        """The hand tables this run writes (:data:`pipeline.hands.model.TABLES`) by name -> file name."""
        if not self.writes_hand_tables:
            return {}
        return {name: f"{name}.{self.output_format}" for name in model.TABLES}

    @property
    def results_name(self) -> str:
        """The results table's file name in the output folder."""
        return f"{self.results_stem}.{self.output_format}"

    @abstractmethod
    def results_schema(self) -> pa.Schema:
        """Schema of the results table."""

    @abstractmethod
    def process_batch(self, source: Source, batch: Batch, offset: int) -> BatchOutcome:
        """The results, rejects and counts of one batch of ``source`` whose rows follow ``offset``
        rows of the run; called on the engine's threads."""

    @abstractmethod
    def summary_parts(self, folder: Path, totals: Totals, inputs: list[dict[str, Any]], *, engine: str,
                      extra: Summary) -> SummaryParts:
        """Write this run's own outputs into ``folder``; return its fields of summary.json
        (``inputs``: the summary's entries of the inputs)."""

    def execute(self) -> Summary:
        """Run every input on the local engine with this run's threads; return the summary written."""
        return LocalEngine(threads=self.threads).execute(self)

    def report_rejects(self, rejects: pa.Table) -> None:
        """Hand each rejected row's line to ``on_reject``."""
        if self.on_reject:
            for line, reason in reject_lines(rejects):
                self.on_reject(line, reason)

    def report_progress(self, read: int, started: float) -> None:
        """Hand the rows read so far and their rate since ``started`` to ``on_progress``."""
        if self.on_progress:
            elapsed = time.perf_counter() - started
            self.on_progress(read, read / elapsed if elapsed else 0.0)

    def finish(self, folder: Path, totals: Totals, inputs: list[dict[str, Any]], *, started: float,
               engine: str, results: str, extra: Summary | None = None,
               tables: dict[str, str] | None = None) -> Summary:
        """Write this run's own outputs and summary.json into ``folder`` (the staging folder of
        the run's output set) from a run's totals; return the summary.

        ``results`` names the results table (a file, or a folder of parts), ``tables`` the
        hand tables (default: :attr:`hand_table_files`); ``engine`` and ``extra`` say where
        the run ran.
        """
        elapsed = time.perf_counter() - started
        own = self.summary_parts(folder, totals, inputs, engine=engine, extra=extra or {})
        summary = {
            **own.head,
            "inputs": inputs,
            "skipped_inputs": self.skipped,
            "rows_read": totals.read,
            "rows_scored": totals.scored,
            **own.rows,
            "rows_rejected": totals.rejected,
            **own.fields,
            "outputs": {self.results_stem: results, "rejects": REJECTS_FILE,
                        **(self.hand_table_files if tables is None else tables), **own.outputs},
            **own.tail,
            "elapsed_seconds": round(elapsed, 3),
            "rows_per_second": round(totals.read / elapsed) if elapsed else None,
        }
        write_json(folder / "summary.json", summary)
        return summary


class Run(BaseRun):
    """A configured ``pokerpipe run`` over a list of inputs; call :meth:`execute`.

    Parameters
    ----------
    inputs, outdir, output_format, batch_rows, threads, on_progress, on_reject, on_notice :
        As in :class:`BaseRun`; ``output_format`` is the winners table's.
    game : a registered game's name (:func:`pipeline.games.registry.names`), or None to
        detect it from the inputs' columns
    best_five : add each hand's best five cards and description to the winners
    keep, keep_all : columns of the user's carried into the winners (:func:`kept_columns`)
    """

    results_stem = "winners"

    def __init__(self, inputs: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str], *,
                 output_format: str = "csv", game: str | None = None, best_five: bool = False,
                 keep: Sequence[str] = (), keep_all: bool = False,
                 batch_rows: int = DEFAULT_BATCH_ROWS, threads: int | None = None,
                 on_progress: Callable[[int, float], None] | None = None,
                 on_reject: Callable[[str, str], None] | None = None,
                 on_notice: Callable[[str], None] | None = None) -> None:
        if game is not None:
            registry.get(game)  # an unknown game is a usage error before any input is read
        super().__init__(inputs, outdir, output_format=output_format, batch_rows=batch_rows, threads=threads,
                         on_progress=on_progress, on_reject=on_reject, on_notice=on_notice)
        self.histories = any(source.format in readers.HISTORY_FORMATS for source in self.sources)
        self.writes_hand_tables = self.histories
        labels = {source.location: source for source in self.sources}
        scoring = scoring_for({label: source.columns for label, source in labels.items()},
                              game=game, best_five=best_five,
                              carried=histories.CARRIED if self.histories else (),
                              hole_cards=None if game else {label: readers.first_hole_cards(source)
                                                           for label, source in labels.items()})
        kept = kept_columns(self.sources, keep=keep, keep_all=keep_all, taken=scoring.results_schema().names,
                            output_format=output_format, results=self.results_name)
        #: The per-batch work of this run, as shipped to cluster workers.
        self.scoring = dataclasses.replace(scoring, columns=scoring.columns + tuple(kept.names), kept=kept)

    def execute(self, engine: Engine | None = None) -> Summary:
        """Run every input through the pipeline on ``engine`` (default: :class:`LocalEngine` with
        this run's threads); return the summary written."""
        return (engine or LocalEngine(threads=self.threads)).execute(self)

    def results_schema(self) -> pa.Schema:
        return self.scoring.results_schema()

    def process_batch(self, source: Source, batch: Batch, offset: int) -> BatchOutcome:
        return self.scoring.process_batch(source, batch, offset)

    def summary_parts(self, folder: Path, totals: Totals, inputs: list[dict[str, Any]], *, engine: str,
                      extra: Summary) -> SummaryParts:
        """Write categories.csv and ties.csv; the game, the engine, outcomes, checks and statistics."""
        # The tables are per game, a run of one game's as a run of several's: a game column first.
        tallies = totals.tally if isinstance(totals.tally, Tallies) else Tallies(((self.game, totals.tally),))
        if not tallies.by_game:  # nothing scored: the run's game, every category counted 0
            tallies = Tallies(((self.game, Tally.zeros(registry.get(self.game).categories)),))
        category_table, tie_table = tallies.category_table(), tallies.tie_table()
        write_table(folder / "categories.csv", category_table)
        write_table(folder / "ties.csv", tie_table)
        game: dict[str, Any] = {"game": self.game}
        if isinstance(totals.tally, Tallies):  # rows of several games: each game's deals scored
            scored = {name: int(tally.deals.sum()) for name, tally in totals.tally.by_game}
            game = {"game": next(iter(scored)) if len(scored) == 1 else MIXED if scored else self.game,
                    "games": scored}
        return SummaryParts(
            head={**game, "engine": engine, **extra},
            rows=histories.row_counts(totals.counts) if self.histories else {},
            fields={
                **({"set_apart": histories.reasons(totals.counts, "set_apart")} if self.histories else {}),
                "outcomes": totals.outcomes,
                "expected": None if not self.scoring.expected else {
                    "column": self.scoring.expected, **totals.mismatches.summary(),
                    **(histories.expected_counts(totals.counts, inputs) if self.histories else {})}},
            outputs={"categories": "categories.csv", "ties": "ties.csv"},
            tail={"statistics": {"categories": category_table.to_pylist(), "ties": tie_table.to_pylist()}})


#: Bytes of hand histories from which a run on several cores reads its files in worker processes
#: (:func:`worker_processes`).  Measured on two cores: two .phhs files of 0.1 MiB in all take
#: 0.063 s on threads, 0.080 s on two workers; of 0.3 MiB 0.073 and 0.067 s; of 1 MiB 0.096 and
#: 0.085 s.
WORKER_MIN_BYTES = 1 << 20
#: The share of the bytes above which one file keeps a run on threads: a worker reads a file on
#: one core, where threads share it, and two threads run a file 1.26 times as fast as one.
WORKER_MAX_SHARE = 0.75
SPILLS_FOLDER = "spills"  # in the staging folder only: each file's winners and rejects, then removed


def worker_processes(run: BaseRun, threads: int, *, asked: int | None = None) -> int:
    """How many worker processes the local engine reads ``run``'s files in: 0 for threads alone.

    Worker processes read whole files, each the task of a ``pokerpipe run``
    (:class:`Run`), on a machine that forks them
    (:func:`pipeline.runs.processes.can_fork`).  ``asked`` is that many, 0
    or 1 for none; by default they pay on two or more hand-history files
    holding :data:`WORKER_MIN_BYTES` or more in all, none of them more than
    :data:`WORKER_MAX_SHARE` of it, on two threads or more.  Anything else
    keeps to threads: a deal archive scores at numpy's pace on threads
    already, one file is shared by threads batch by batch (as is a file much
    larger than the others), and a few small files end before workers would
    have started.
    """
    if not isinstance(run, Run) or not processes.can_fork():
        return 0
    if asked is not None:
        return asked if asked > 1 else 0
    if threads < 2 or len(run.sources) < 2 or not run.writes_hand_tables:
        return 0
    if any(source.format not in readers.HISTORY_FORMATS for source in run.sources):
        return 0
    sizes = [source.size for source in run.sources]
    if sum(sizes) < WORKER_MIN_BYTES or max(sizes) > WORKER_MAX_SHARE * sum(sizes):
        return 0
    return min(threads, len(run.sources))


@dataclass(frozen=True)
class FileTask:
    """The task of one input file in a worker process: read it whole, write its parts, return its counts.

    Its winners and rejects are spills (:class:`pipeline.runs.parts.SpillWriter`) whose rows count
    from the file's first, since the rows of the files before it are not known yet; its hand tables
    are parts of the outputs, as they are, since a hand's key does not depend on the files before it.
    """

    scoring: Scoring
    source: Source
    place: int
    batch_rows: int
    winners: str
    rejects: str
    tables: dict[str, str]

    def __call__(self) -> PartResult:
        return score_partition(self.scoring, self.source, Partition(self.place, self.place), 0,
                               self.batch_rows, self.winners, self.rejects, table_paths=self.tables)


class Engine(Protocol):
    """Where a configured :class:`Run` runs: every engine reads the run's sources, calls
    :meth:`Scoring.process_batch` on every batch, and publishes the outputs as one set
    with :meth:`Run.finish`."""

    def execute(self, run: Run) -> Summary:
        """Score every input of ``run`` and write its outputs; return the summary."""
        ...


@dataclass(frozen=True)
class LocalEngine:
    """This machine: batches read in this thread, processed on ``threads`` threads and written
    by one more, in input order (:func:`pipeline.runs.threads.run_ordered`), so the outputs do
    not depend on the number of threads.  Runs a :class:`Run` or any other :class:`BaseRun`.

    On many hand-history files, the files are read in worker processes instead, one whole file
    each (:func:`worker_processes`, :mod:`pipeline.runs.processes`): the same rows in the same
    order, with each hand table a folder of parts, one per input, named in input order.
    """

    threads: int = 1
    #: Worker processes reading the run's files, 0 for none; None: as many as pay
    #: (:func:`worker_processes`).
    workers: int | None = None

    def execute(self, run: BaseRun) -> Summary:
        started = time.perf_counter()
        workers = worker_processes(run, self.threads, asked=self.workers)
        if workers:
            return self._in_processes(run, workers, started)
        # On several threads, the game's tables are built while the first batches are read and
        # parsed, not by the first scoring threads one after another.
        preparing = threading.Thread(target=_prepare, args=(registry.get(run.game),),
                                     name="pokerpipe-prepare")
        if self.threads > 1:
            preparing.start()
        with OutputSet(run.outdir) as staged:
            sources = run.sources
            first_rows, per_source = self._write(run, sources, staged.path, started, report=True)
            duplicates = first_pass_duplicates(per_source)
            if len(duplicates):  # read again, each hand read twice known: see pipeline.hands.duplicates
                sources = marked(sources, duplicates)
                first_rows, per_source = self._write(run, sources, staged.path, started, report=False)
            if preparing.is_alive():
                preparing.join()
            totals, inputs = summarize(run.scoring, sources, first_rows, per_source)
            return run.finish(staged.path, totals, inputs, started=started, engine="local",
                              results=run.results_name)

    def _write(self, run: BaseRun, sources: Sequence[Source], staged: Path, started: float, *,
               report: bool) -> tuple[list[int], list[Totals]]:
        """Read, process and write every source into the ``staged`` folder's files (made anew);
        return each source's first row and totals.  ``report``: hand the rejects to the run's
        ``on_reject`` (a second pass rejects the same rows)."""
        per_source = [run.scoring.empty_totals() for _ in sources]
        with TableWriter(staged / run.results_name, schema=run.results_schema(),
                         quote_strings=run.scoring.quote_winners, row_group_rows=run.batch_rows) as results, \
                TableWriter(staged / REJECTS_FILE, schema=REJECT_SCHEMA, quote_strings=True) as rejects, \
                contextlib.ExitStack() as stack:
            tables = {name: stack.enter_context(TableWriter(
                staged / file, schema=model.TABLES[name], quote_strings=True, whole_writes=True))
                for name, file in run.hand_table_files.items()}
            read_so_far = 0

            def write(index: int, outcome: BatchOutcome) -> None:
                nonlocal read_so_far
                results.write(outcome.results)
                rejects.write(outcome.rejects)
                for name, rows in (outcome.hand_tables or {}).items():
                    tables[name].write(rows)
                if report:
                    run.report_rejects(outcome.rejects)
                per_source[index] += outcome.totals
                read_so_far += outcome.totals.read
                run.report_progress(read_so_far, started)

            first_rows = stream_sources(sources, run.columns, batch_rows=run.batch_rows, threads=self.threads,
                                        process=run.process_batch, consume=write, typed=run.scoring.typed)
        return first_rows, per_source

    def _in_processes(self, run: BaseRun, workers: int, started: float) -> Summary:
        """Every source read whole by one of ``workers`` processes, which write its hand tables as
        parts; this process writes the winners and rejects, in input order, from their spills."""
        registry.get(run.game).prepare()  # before the fork: every worker inherits the tables
        with OutputSet(run.outdir) as staged:
            for name in run.hand_table_files:
                (staged.path / name).mkdir()
            for kind in ("winners", "rejects"):
                (staged.path / SPILLS_FOLDER / kind).mkdir(parents=True)
            sources = run.sources
            per_source = _score_files(run, sources, range(len(sources)), workers, staged.path, started,
                                      report=True)
            duplicates = first_pass_duplicates(per_source)
            if len(duplicates):  # again, each hand read twice known, for the files that hold one
                sources = marked(sources, duplicates)
                again = [place for place, source in enumerate(sources)
                         if source.duplicates is not None and len(source.duplicates)]
                per_source = _score_files(run, sources, again, workers, staged.path, started, report=False,
                                          before=per_source)
            shutil.rmtree(staged.path / SPILLS_FOLDER)  # working files, not outputs
            first_rows = list(itertools.accumulate((done.span for done in per_source[:-1]), initial=1))
            totals, inputs = summarize(run.scoring, sources, first_rows, per_source)
            return run.finish(staged.path, totals, inputs, started=started, engine="local",
                              results=run.results_name, extra={"processes": workers},
                              tables={name: f"{name}/" for name in run.hand_table_files})


def _score_files(run: BaseRun, sources: Sequence[Source], places: Sequence[int], workers: int, staged: Path,
                 started: float, *, report: bool, before: Sequence[Totals] | None = None) -> list[Totals]:
    """Score the sources at ``places`` in worker processes (the others keep their ``before`` totals);
    write the winners and rejects of every source into ``staged``, in input order, as each file ends.

    ``report``: hand the rejects to the run's ``on_reject`` (a second pass rejects the same rows).
    Returns each source's totals.
    """
    per_source: list[Totals | None] = list(before) if before is not None else [None] * len(sources)
    spills = staged / SPILLS_FOLDER

    def task(place: int) -> FileTask:
        per_source[place] = None
        return FileTask(run.scoring, sources[place], place, run.batch_rows,
                        str(spills / "winners" / part_name(place, "arrow")),
                        str(spills / "rejects" / part_name(place, "arrow")),
                        {name: str(staged / name / part_name(place, run.output_format))
                         for name in run.hand_table_files})

    # The largest files first: the last to end is a small one, which no worker waits long for.
    tasks = [task(place) for place in sorted(places, key=lambda place: -sources[place].size)]
    written, next_row, read_so_far = 0, 1, 0
    with TableWriter(staged / run.results_name, schema=run.results_schema(),
                     quote_strings=run.scoring.quote_winners, row_group_rows=run.batch_rows) as results, \
            TableWriter(staged / REJECTS_FILE, schema=REJECT_SCHEMA, quote_strings=True) as rejects:

        def done(_: int, result: PartResult) -> None:
            nonlocal written, next_row, read_so_far
            per_source[result.index] = result.totals
            read_so_far += result.totals.read
            run.report_progress(read_so_far, started)
            while written < len(sources) and (ended := per_source[written]) is not None:
                name = part_name(written, "arrow")
                for table in read_spill(spills / "winners" / name, row_offset=next_row - 1):
                    results.write(table)
                for table in read_spill(spills / "rejects" / name, row_offset=next_row - 1):
                    rejects.write(table)
                    if report:
                        run.report_rejects(table)
                next_row += ended.span
                written += 1

        processes.run_in_processes(tasks, operator.call, done, processes=workers,
                                   label=lambda task: task.source.name)
    return [done for done in per_source if done is not None]


def _prepare(game: Game) -> None:
    """Build a game's tables ahead of the first batch (:meth:`Game.prepare`), on a thread of its own.

    Short of memory, the thread ends: the first batch that needs the tables
    builds them, and reports a shortage as every other allocation of the run
    does (one line naming the limit), rather than this thread printing a
    traceback beside it, or after a run that went on to succeed.
    """
    try:
        game.prepare()
    except MemoryError:
        return


def stream_sources(sources: Sequence[Source], columns: tuple[str, ...], *, batch_rows: int,
                   threads: int, process: Callable[[Source, Batch, int], Processed],
                   consume: Callable[[int, Processed], None],
                   typed: frozenset[str] = frozenset()) -> list[int]:
    """Read every source in batches, ``process`` each, ``consume`` the results in input order.

    ``process(source, batch, offset)`` gets the rows the run read before the
    source (``offset``), and runs on up to ``threads`` threads
    (:func:`pipeline.runs.threads.run_ordered`); ``consume(place, result)`` gets
    the source's place among ``sources``.  The ``typed`` columns are read in
    their own type (:func:`pipeline.formats.readers.read_batches`).  Returns each source's first row
    number in the run: a source's rows follow the highest row of the one
    before it.
    """
    first_rows: list[int] = []

    def read() -> Iterator[tuple[int, Source, Batch | PendingBatch, int]]:
        next_row = 1
        for place, source in enumerate(sources):
            first_rows.append(next_row)
            span = 0
            for batch in readers.read_pending(source, columns, batch_rows=batch_rows, typed=typed):
                span = max(span, batch_span(batch))
                yield place, source, batch, next_row - 1
            next_row += span

    def work(item: tuple[int, Source, Batch | PendingBatch, int]) -> tuple[int, Processed]:
        place, source, batch, offset = item
        if isinstance(batch, PendingBatch):  # parsed here, on a scoring thread
            batch = batch.load()
        return place, process(source, batch, offset)

    run_ordered(read(), work, lambda done: consume(*done), threads=threads)
    return first_rows


def summarize(scoring: Scoring, sources: Sequence[Source], first_rows: list[int],
              per_source: list[Totals]) -> tuple[Totals, list[dict[str, Any]]]:
    """A run's totals and its ``inputs`` entries from each source's totals, in input order."""
    totals = scoring.empty_totals()
    inputs = []
    for source, first_row, done in zip(sources, first_rows, per_source):
        inputs.append(source_record(source, first_row, done))
        totals += done
    return totals, inputs
