"""``pokerpipe players``: each player's statistics over hand histories or the tables of earlier runs.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.runner`,
the hands layer, the formats and the foundation modules, never the command line.

This module owns the command's inputs, filters and outputs; the statistics
are :mod:`pipeline.hands.players`'.  Its inputs are of two kinds:

* hand histories of any format ``run`` reads: each batch's hand tables, as
  ``run`` would write them;
* the output folders of earlier runs over hand histories (a folder whose
  ``summary.json`` names ``hands``, ``seats`` and ``actions`` tables, one file
  each or folders of parts): their tables, a file or part at a time.

Each batch's seats are counted (:func:`pipeline.hands.players.seat_counts`)
and summed by player and group at once; sums of sums are the sums of the
whole, so memory holds the sums, never the seats of the archive.  A hand
met twice (the same site and hand id, in two inputs or twice in one) counts
once: as ``run`` does, the hand histories are read a second time, the hands
read twice known, when there are any; the tables of runs set them apart
already, and a hand found in two runs' tables counts in the first.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from pipeline.errors import InputError, UsageError
from pipeline.formats import histories, readers, writers
from pipeline.formats.publish import OutputSet
from pipeline.formats.sources import DEFAULT_BATCH_ROWS, Batch, PendingBatch, Source
from pipeline.formats.writers import FORMATS, TableWriter, write_json
from pipeline.hands import allin, model, players
from pipeline.hands.duplicates import HandIds
from pipeline.runs import report
from pipeline.runs.runner import numbered
from pipeline.runs.threads import available_cores, run_ordered

#: What ``--by`` may name, and the columns each groups by.
BY = {"position": ("position",), "site": ("site",), "stakes": ("small_blind", "big_blind"),
      "game": ("game", "betting")}
RESULTS_STEM = "players"
#: Sums kept before they are summed again: bounds memory by the players, not by the batches.
_MERGE_EVERY = 16
#: The place of a run's folder among the inputs, above a hand key's own bits (:func:`model.hand_key`).
_FOLDER_BITS = 48


@dataclasses.dataclass(frozen=True)
class Filters:
    """Which seats count: by player name, and by the hand's date (UTC, inclusive)."""

    players: tuple[str, ...] = ()
    since: dt.date | None = None
    until: dt.date | None = None

    def hands(self, hands: pa.Table) -> tuple[pa.Table, int]:
        """The hands within the dates, and how many were left out for having no time."""
        if self.since is None and self.until is None:
            return hands, 0
        time = hands.column("time")
        untimed = time.null_count
        keep = pc.is_valid(time)
        day = pc.cast(pc.cast(time, pa.timestamp("us")), pa.date32())
        if self.since is not None:
            keep = pc.and_(keep, pc.greater_equal(day, pa.scalar(self.since, pa.date32())))
        if self.until is not None:
            keep = pc.and_(keep, pc.less_equal(day, pa.scalar(self.until, pa.date32())))
        return hands.filter(pc.fill_null(keep, False)), untimed

    def seats(self, counted: pa.Table) -> pa.Table:
        if not self.players:
            return counted
        return counted.filter(pc.is_in(pc.cast(counted.column("player"), pa.string()),
                                       value_set=pa.array(list(self.players))))


@dataclasses.dataclass
class Tally:
    """What the command read: hands by outcome and reason, the sums by player."""

    by: tuple[str, ...]
    filters: Filters
    outcomes: dict[str, int] = dataclasses.field(default_factory=dict)
    set_apart: dict[str, int] = dataclasses.field(default_factory=dict)
    untimed: int = 0
    sums: list[pa.Table] = dataclasses.field(default_factory=list)
    rejects: list[pa.Table] = dataclasses.field(default_factory=list)
    ids: HandIds = dataclasses.field(default_factory=HandIds)  # of the hands read, to find those read twice
    #: The keys of the hands read before (:meth:`HandIds.duplicates`): set apart as ``duplicate``.
    duplicates: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, np.int64))
    samples: int = allin.DEFAULT_SAMPLES  # how a preflop all-in is run out (pipeline.hands.allin)
    seed: int = 0
    exact: bool = False
    allin: dict[str, int] = dataclasses.field(default_factory=dict)  # hands adjusted, and unknown
    plotted: str | None = None  # the player whose hands are kept for --plot, one row each
    hands_of: list[pa.Table] = dataclasses.field(default_factory=list)

    def count(self, tables: dict[str, pa.Table]) -> Tally:
        """The counts of one batch's hand tables, apart (on a thread of its own)."""
        part = dataclasses.replace(self, outcomes={}, set_apart={}, untimed=0, sums=[], rejects=[],
                                   ids=HandIds(), allin={}, hands_of=[])
        part._add(tables)
        return part

    def merge(self, part: Tally) -> None:
        """Add a batch's counts (:meth:`count`), in input order."""
        for mine, theirs in ((self.outcomes, part.outcomes), (self.set_apart, part.set_apart),
                             (self.allin, part.allin)):
            for name, value in theirs.items():
                mine[name] = mine.get(name, 0) + value
        self.untimed += part.untimed
        self.rejects += part.rejects
        self.hands_of += part.hands_of
        self.ids += part.ids
        self.sums += part.sums
        if len(self.sums) >= _MERGE_EVERY:
            self.sums = [players.player_counts(pa.concat_tables(self.sums), by=self.by)]

    def _add(self, tables: dict[str, pa.Table]) -> None:
        hands = tables["hands"]
        self.ids += HandIds.of_hands(hands)
        if len(self.duplicates):
            again = pc.is_in(hands.column("hand_key"), value_set=pa.array(self.duplicates, pa.int64()))
            outcome = pc.if_else(again, pa.scalar(str(model.Outcome.SET_APART)),
                                 pc.cast(hands.column("outcome"), pa.string()))
            reason = pc.if_else(again, pa.scalar(str(model.Apart.DUPLICATE)), hands.column("reason"))
            hands = hands.set_column(hands.schema.get_field_index("outcome"), "outcome",
                                     outcome.cast(model.HANDS.field("outcome").type))
            hands = hands.set_column(hands.schema.get_field_index("reason"), "reason", reason)
        outcome = pc.cast(hands.column("outcome"), pa.string())
        for found in pc.value_counts(outcome).to_pylist():
            self.outcomes[str(found["values"])] = self.outcomes.get(str(found["values"]), 0) + found["counts"]
        apart = hands.filter(pc.equal(outcome, str(model.Outcome.SET_APART)))
        for reason in apart.column("reason").to_pylist():
            self.set_apart[str(reason)] = self.set_apart.get(str(reason), 0) + 1
        rejected = hands.filter(pc.equal(outcome, str(model.Outcome.REJECTED)))
        if rejected.num_rows:
            self.rejects.append(pa.table({name: pc.cast(rejected.column(name), pa.string())
                                          for name in ("source", "hand_id", "reason")}))
        hands, untimed = self.filters.hands(hands)
        self.untimed += untimed
        every = players.seat_counts(hands, tables["seats"], tables["actions"], samples=self.samples,
                                    seed=self.seed, exact=self.exact)
        for name in ("allin_hands", "allin_unknown"):
            flagged = every.filter(pc.equal(every.column(name), 1)).column("hand_key")
            self.allin[name] = self.allin.get(name, 0) + len(pc.unique(flagged))
        self.sums.append(players.player_counts(self.filters.seats(every), by=self.by))
        if self.plotted is not None:
            mine = every.filter(pc.equal(pc.cast(every.column("player"), pa.string()), self.plotted))
            time = hands.column("time").take(pa.array(players.rows_of(hands.column("hand_key").to_numpy(),
                                                                     mine.column("hand_key").to_numpy())))
            self.hands_of.append(mine.select(["hand_key", "net", "big_blind", "bb_hands", "allin_ev_net",
                                              "showdowns"]).append_column("time", time))

    def summary(self) -> dict[str, Any]:
        """The hands read, used, set apart and rejected, and the all-in EV's, for summary.json."""
        return {
            "hands_read": sum(self.outcomes.values()),
            "hands_used": sum(self.outcomes.get(str(outcome), 0) for outcome in players.COUNTED),
            "hands_set_apart": sum(self.set_apart.values()), "set_apart": self.set_apart,
            "hands_rejected": self.outcomes.get(str(model.Outcome.REJECTED), 0),
            "hands_without_time": self.untimed,
            "allin_ev": {"hands_adjusted": self.allin.get("allin_hands", 0),
                         "hands_unknown": self.allin.get("allin_unknown", 0),
                         "preflop": "enumerated" if self.exact else
                         f"{self.samples:,} run-outs sampled, seed {self.seed}"},
        }

    def total(self) -> pa.Table:
        """Every player's sums and rates."""
        if not self.sums:
            empty = players.seat_counts(*(schema.empty_table() for schema in model.TABLES.values()))
            self.sums = [players.player_counts(empty, by=self.by)]
        return players.with_rates(players.player_counts(pa.concat_tables(self.sums), by=self.by))


def _run_folder(path: Path) -> dict[str, str] | None:
    """The hand tables of an earlier run's output folder, by name -> file or folder; None if not one."""
    summary = path / "summary.json"
    if not path.is_dir() or not summary.is_file():
        return None
    try:
        outputs = json.loads(summary.read_text()).get("outputs", {})
    except (OSError, ValueError) as error:
        raise InputError(f"{summary}: not a run's summary ({error})") from None
    if not all(name in outputs for name in model.TABLES):
        raise InputError(f"{path}: a run's output folder without the hand tables: run it over hand histories")
    return {name: outputs[name] for name in model.TABLES}


def _parts(folder: Path, entry: str) -> list[Path]:
    path = folder / entry
    if entry.endswith("/"):
        return sorted(path.glob("part-*.parquet")) + sorted(path.glob("part-*.csv"))
    return [path]


def _pieces(path: Path, name: str) -> Iterator[pa.Table]:
    """A hand table a run wrote, in its schema: a Parquet file a row group at a time (a run writes
    each batch's rows of the three tables as one row group each), a CSV file whole."""
    schema = model.TABLES[name]
    try:
        if path.suffix == ".parquet":
            parquet = pq.ParquetFile(path)
            _check_columns(path, name, parquet.schema_arrow.names)
            for group in range(parquet.num_row_groups):
                yield parquet.read_row_group(group).cast(schema)
            return
        # A run writes a null as an empty field: read one back as null (a hand without an id, a
        # site), not as text of its own.
        options = pacsv.ConvertOptions(strings_can_be_null=True, column_types={
            field.name: field.type.value_type if pa.types.is_dictionary(field.type) else field.type
            for field in schema})
        header = pacsv.open_csv(path).schema.names
        _check_columns(path, name, header)
        yield pacsv.read_csv(path, convert_options=options).cast(schema)
    except (OSError, pa.ArrowException) as error:
        raise InputError(f"{path}: cannot be read as a {name} table ({error})") from None


def _check_columns(path: Path, name: str, found: Sequence[str]) -> None:
    """InputError naming the columns of a hand table that a file lacks."""
    missing = [column for column in model.TABLES[name].names if column not in found]
    if missing:
        raise InputError(f"{path}: a {name} table without the columns {', '.join(missing)}: "
                         f"write it with pokerpipe run")


class _Upto:
    """The rows of a table's pieces up to a hand key, the pieces read as they are needed: a run
    writes hands in key order, so the rows of the hands up to a key are a prefix."""

    def __init__(self, pieces: Iterator[pa.Table]) -> None:
        self.pieces = pieces
        self.waiting: list[pa.Table] = []

    def take(self, last: int) -> pa.Table:
        taken = []
        while True:
            if not self.waiting:
                piece = next(self.pieces, None)
                if piece is None:
                    break
                self.waiting.append(piece)
            piece = self.waiting.pop(0)
            keys = piece.column("hand_key").to_numpy()
            cut = int(np.searchsorted(keys, last, side="right"))
            taken.append(piece.slice(0, cut))
            if cut < piece.num_rows:
                self.waiting.insert(0, piece.slice(cut))
                break
        return pa.concat_tables(taken) if taken else pa.table({})


def _folder_tables(folder: Path, entries: dict[str, str], place: int) -> Iterator[dict[str, pa.Table]]:
    """A run's tables a row group of hands (or a CSV file) at a time, with the seats and actions of
    those hands, their hand keys above those of the inputs before."""
    parts = {name: _parts(folder, entry) for name, entry in entries.items()}
    if len({len(found) for found in parts.values()}) != 1:
        raise InputError(f"{folder}: its hands, seats and actions tables have different numbers of parts")
    shift = pa.scalar(place << _FOLDER_BITS, pa.int64())
    for files in zip(*parts.values()):
        paths = dict(zip(parts, files))
        rest = {name: _Upto(_pieces(paths[name], name)) for name in ("seats", "actions")}
        for hands in _pieces(paths["hands"], "hands"):
            if not hands.num_rows:
                continue
            keys = hands.column("hand_key").to_numpy()
            if (np.diff(keys) < 0).any():
                raise InputError(f"{paths['hands']}: its hands are not in hand_key order, as a run "
                                 f"writes them")
            tables = {"hands": hands, **{name: cursor.take(int(keys[-1])) for name, cursor in rest.items()}}
            for name, table in tables.items():
                if not table.num_columns:
                    table = model.TABLES[name].empty_table()
                tables[name] = table.set_column(table.schema.get_field_index("hand_key"), "hand_key",
                                                pc.add(table.column("hand_key"), shift))
            yield tables


def _history_batches(sources: Sequence[Source], batch_rows: int) -> Iterator[Batch | PendingBatch]:
    """The batches of hand histories, those a thread parses left pending."""
    for source in sources:
        yield from readers.read_pending(source, histories.COLUMNS, batch_rows=batch_rows)


def _tables_of(item: Batch | PendingBatch | dict[str, pa.Table]) -> dict[str, pa.Table]:
    """The hand tables of a batch (parsed here when pending) or of a run's row group."""
    if isinstance(item, dict):
        return item
    batch = item.load() if isinstance(item, PendingBatch) else item
    return batch.hand_tables or {name: schema.empty_table() for name, schema in model.TABLES.items()}


@dataclasses.dataclass(frozen=True)
class Series:
    """One player's results hand after hand, as ``--plot`` draws them: running sums, shape (hands,)."""

    player: str
    unit: str  # "big blinds", or "chips" where a hand names no big blind
    net: np.ndarray
    allin_ev: np.ndarray
    showdown: np.ndarray  # the net of the hands that went to a showdown
    no_showdown: np.ndarray


def series(player: str, hands: Sequence[pa.Table]) -> Series:
    """A player's running results, in time order (input order where a hand has no time)."""
    table = pa.concat_tables(hands) if hands else pa.table({name: pa.array([], pa.float64()) for name in (
        "hand_key", "net", "big_blind", "bb_hands", "allin_ev_net", "showdowns", "time")})
    keys = np.asarray(table.column("hand_key").to_numpy(), np.int64)
    if table.num_rows and table.column("time").null_count == 0:
        times = pc.cast(table.column("time"), pa.int64()).to_numpy()
        order = np.lexsort((keys, times))
    else:
        order = np.argsort(keys, kind="stable")
    net = np.asarray(table.column("net").to_numpy(), np.float64)[order]
    ev = np.asarray(table.column("allin_ev_net").to_numpy(), np.float64)[order]
    in_bb = table.num_rows > 0 and bool(np.all(table.column("bb_hands").to_numpy() == 1))
    if in_bb:  # each hand's chips in its own big blinds
        blinds = np.asarray(table.column("big_blind").to_numpy(zero_copy_only=False), np.float64)[order]
        net, ev = net / blinds, ev / blinds
    shown = np.asarray(table.column("showdowns").to_numpy(), np.int64)[order] == 1
    return Series(player, "big blinds" if in_bb else "chips", np.cumsum(net), np.cumsum(ev),
                  np.cumsum(np.where(shown, net, 0.0)), np.cumsum(np.where(shown, 0.0, net)))


def plot_series(drawn: Series, path: str | os.PathLike[str], *, replace: bool = False) -> None:
    """Draw a player's running net, all-in EV and winnings with and without showdown to ``path``."""
    image_format = report.plot_format(path, replace=replace)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as error:
        raise ImportError(f"--plot needs matplotlib ({error}): {report.PLOT_INSTALL_HINT}") from None
    figure = Figure(figsize=(9, 5), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    hands = np.arange(1, len(drawn.net) + 1)
    for values, label in ((drawn.net, "net won"), (drawn.allin_ev, "all-in EV"),
                          (drawn.showdown, "won at showdown"), (drawn.no_showdown, "won without showdown")):
        ax.plot(hands, values, label=label, linewidth=1.2)
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("hands")
    ax.set_ylabel(drawn.unit)
    ax.set_title(f"{drawn.player}: {len(hands):,} hands")
    ax.legend()
    with writers.atomic_path(path, make_parents=False, replace=replace) as temporary:
        figure.savefig(temporary, format=image_format, dpi=100)


#: An earlier run's output folder and its hand tables, by name -> file or folder of parts.
RunFolder = tuple[Path, dict[str, str]]


def _inputs(inputs: Sequence[str | os.PathLike[str]]) -> tuple[list[Source], list[RunFolder]]:
    """The hand-history sources among ``inputs``, and the output folders of runs with their tables."""
    folders, patterns = [], []
    for given in inputs:
        entries = _run_folder(Path(given))
        if entries is None:
            patterns.append(given)
        else:
            folders.append((Path(given), entries))
    sources = numbered(readers.find_sources(patterns).sources) if patterns else []
    others = [str(source.path) for source in sources if source.format not in readers.HISTORY_FORMATS]
    if others:
        raise UsageError(f"{others[0]}: not a hand history; players reads hand histories and the output "
                         f"folders of runs over them")
    return sources, folders


def player_statistics(inputs: Sequence[str | os.PathLike[str]], outdir: str | os.PathLike[str], *,
                      output_format: str = "csv", by: Sequence[str] = (), filters: Filters = Filters(),
                      min_hands: int = 0, batch_rows: int = DEFAULT_BATCH_ROWS,
                      samples: int = allin.DEFAULT_SAMPLES, seed: int = 0, exact: bool = False,
                      threads: int | None = None, plot: str | os.PathLike[str] | None = None,
                      replace_plot: bool = False) -> dict[str, Any]:
    """``pokerpipe players``: every player's statistics into ``outdir``; return the summary written.

    Raises
    ------
    UsageError
        An unknown ``--by`` or format; an input that is no hand history.
    InputError
        An input that cannot be read.
    """
    if output_format not in FORMATS:
        raise UsageError(f"unknown output format {output_format!r}: expected csv or parquet")
    unknown = [name for name in by if name not in BY]
    if unknown:
        raise UsageError(f"--by {unknown[0]!r}: expected one of {', '.join(BY)}")
    if filters.since and filters.until and filters.since > filters.until:
        raise UsageError(f"--since {filters.since} is after --until {filters.until}")
    if plot is not None:
        if len(filters.players) != 1:
            raise UsageError("--plot draws one player: give exactly one --player NAME")
        report.plot_format(plot, replace=replace_plot)  # before any input is read
    OutputSet(outdir).check()
    sources, folders = _inputs(inputs)
    groups = tuple(column for name in by for column in BY[name])

    def items() -> Iterator[Batch | PendingBatch | dict[str, pa.Table]]:
        yield from _history_batches(sources, batch_rows)
        for place, (folder, entries) in enumerate(folders, start=1):
            yield from _folder_tables(folder, entries, place)

    def tally(duplicates: np.ndarray) -> Tally:
        counted = Tally(groups, filters, duplicates=duplicates, samples=samples, seed=seed, exact=exact,
                        plotted=filters.players[0] if plot is not None else None)
        # Parsed and counted on the threads, added up in input order (pipeline.runs.threads).
        run_ordered(items(), lambda item: counted.count(_tables_of(item)), counted.merge,
                    threads=threads or available_cores())
        return counted

    counted = tally(np.zeros(0, np.int64))
    duplicates = counted.ids.duplicates()
    if len(duplicates):  # again, each hand read twice known, as run does
        counted = tally(duplicates)
    table = counted.total()
    if min_hands:
        table = table.filter(pc.greater_equal(table.column("hands"), min_hands))
    name = f"{RESULTS_STEM}.{output_format}"
    with OutputSet(outdir) as staged:
        # Names and reasons are the sites' text: quoted where they hold a comma or a quote.
        with TableWriter(staged.path / name, schema=table.schema, quote_strings=True) as writer:
            writer.write(table)
        rejects = pa.concat_tables(counted.rejects) if counted.rejects else pa.table(
            {"source": pa.array([], pa.string()), "hand_id": pa.array([], pa.string()),
             "reason": pa.array([], pa.string())})
        with TableWriter(staged.path / "rejects.csv", schema=rejects.schema, quote_strings=True) as writer:
            writer.write(rejects)
        summary = {
            "inputs": [source.location for source in sources] + [str(folder) for folder, _ in folders],
            **counted.summary(),
            "by": list(by), "players": table.num_rows,
            "outputs": {RESULTS_STEM: name, "rejects": "rejects.csv"},
        }
        write_json(staged.path / "summary.json", summary)
        if plot is not None:  # drawn before the set is published: a plot that fails publishes nothing
            plot_series(series(filters.players[0], counted.hands_of), plot, replace=replace_plot)
    return summary
