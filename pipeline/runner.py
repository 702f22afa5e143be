"""The run: readers, then the vectorized scoring, then writers, batch by batch.

This module owns ``pokerpipe run``: it resolves the inputs, picks the game,
streams every source through the game's scoring in batches of bounded size,
appends winners and rejects as it goes and, at the end, writes the
statistics and ``summary.json``.  Memory is bounded by the batch size, not
by the archive.

Row numbers
-----------
``row`` numbers every data row of the run in input order, starting at 1;
a file's rows follow the rows of the files before it (``first_row`` in
``summary.json``).  For a single input it is the data row of that file.
Every row read is either scored (in ``winners``) or rejected (in
``rejects.csv``, with the file, its row and line there and the reason).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline import holdem, larvis, readers
from pipeline.statistics import Tally
from pipeline.writers import FORMATS, TableWriter, write_json, write_table

EXPECTED_COLUMNS = {"larvis": larvis.EXPECTED_COLUMN, "holdem": "winners"}
REJECT_SCHEMA = pa.schema([("row", pa.int64()), ("source", pa.string()),
                           ("source_row", pa.int64()), ("line", pa.int64()),
                           ("reason", pa.string()), ("raw", pa.string())])
MISMATCHES_KEPT = 20


@dataclass
class Scored:
    """One batch after scoring.

    ``results`` holds the scored rows (without ``row``), ``ok`` marks them
    among the batch's rows, ``reasons`` explains the others, ``outcomes``
    is the text compared with an expected column and ``outcome_counts``
    counts the outcomes for the summary.
    """

    results: pa.Table
    ok: np.ndarray
    reasons: np.ndarray
    tally: Tally
    outcomes: np.ndarray
    outcome_counts: dict[str, int]


def _categories(codes: np.ndarray, names: tuple[str, ...], *, present: np.ndarray | None = None) -> pa.Array:
    mask = None if present is None else ~present
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int8), pa.int8(), mask=mask),
                                          pa.array(list(names), pa.string()))


def score_larvis(table: pa.Table) -> Scored:
    """Score a batch of Larvis games given as Hand1 and Hand2 text columns."""
    ranks1, why1 = larvis.parse_hands(table.column("Hand1"), label="Hand1")
    ranks2, why2 = larvis.parse_hands(table.column("Hand2"), label="Hand2")
    reasons = np.where(why1 != None, why1, why2)  # noqa: E711 (elementwise)
    ok = reasons == None  # noqa: E711
    keys1, keys2 = larvis.hand_keys(ranks1[ok]), larvis.hand_keys(ranks2[ok])
    categories1, categories2 = larvis.key_categories(keys1), larvis.key_categories(keys2)
    outcome = larvis.winners(keys1, keys2)
    kept = pa.array(ok)
    results = pa.table({
        "hand1": table.column("Hand1").filter(kept),
        "hand2": table.column("Hand2").filter(kept),
        "hand1_category": _categories(categories1, larvis.CATEGORIES),
        "hand1_key": keys1,
        "hand2_category": _categories(categories2, larvis.CATEGORIES),
        "hand2_key": keys2,
        "winner": _categories(outcome, larvis.OUTCOMES),
    })
    winning = np.column_stack([outcome != 1, outcome != 0])
    tally = Tally.of_deals(larvis.CATEGORIES, np.column_stack([categories1, categories2]), winning)
    counts = np.bincount(outcome, minlength=len(larvis.OUTCOMES))
    return Scored(results, ok, reasons, tally, np.asarray(larvis.OUTCOMES, dtype=object)[outcome],
                  dict(zip(larvis.OUTCOMES, counts.tolist())))


def score_holdem(table: pa.Table, seats: tuple[str, ...]) -> Scored:
    """Score a batch of hold'em deals given as board and p1..pK text columns."""
    deals = holdem.parse_deals(table.column("board"), [table.column(name) for name in seats])
    ok = deals.reasons == None  # noqa: E711
    valid = holdem.Deals(deals.board[ok], deals.holes[ok], deals.seated[ok], deals.reasons[ok],
                         deals.fields[ok])
    keys, masks = holdem.score_deals(valid)
    categories = np.where(valid.seated, holdem.key_categories(keys), -1)
    best = keys.max(axis=1, initial=0)
    winners = holdem.winners_text(masks)
    columns = {
        "winners": pa.array(winners, pa.string()),
        "winner_count": pa.array(np.bitwise_count(masks).astype(np.int8)),
        "winning_category": _categories(holdem.key_categories(best), holdem.CATEGORIES),
        "winning_key": pa.array(best),
    }
    for seat, name in enumerate(seats):
        present = valid.seated[:, seat]
        columns[f"{name}_category"] = _categories(np.maximum(categories[:, seat], 0), holdem.CATEGORIES,
                                                  present=present)
        columns[f"{name}_key"] = pa.array(keys[:, seat], mask=~present)
    winning = (masks[:, None] >> np.arange(len(seats), dtype=np.uint16)) & 1 == 1
    tally = Tally.of_deals(tuple(holdem.CATEGORIES), categories, winning)
    counts = {f"{name}_wins": int(winning[:, seat].sum()) for seat, name in enumerate(seats)}
    counts["split_pots"] = int((np.bitwise_count(masks) > 1).sum())
    return Scored(pa.table(columns), ok, deals.reasons, tally, winners, counts)


class Run:
    """A configured run over a list of inputs; call :meth:`execute`.

    Parameters
    ----------
    inputs : list of paths, folders or glob patterns
    outdir : path of the output folder (created if missing)
    output_format : "csv" or "parquet", for the winners table
    game : "larvis", "holdem" or None to detect it from the inputs
    batch_rows : rows per batch; bounds memory
    on_progress : called with (rows read so far, rows per second)
    on_reject : called with one line per rejected row
    """

    def __init__(self, inputs: list[str | os.PathLike], outdir: str | os.PathLike, *,
                 output_format: str = "csv", game: str | None = None,
                 batch_rows: int = readers.DEFAULT_BATCH_ROWS,
                 on_progress: Callable[[int, float], None] | None = None,
                 on_reject: Callable[[str], None] | None = None) -> None:
        if output_format not in FORMATS:
            raise ValueError(f"unknown output format {output_format!r}: expected csv or parquet")
        if game is not None and game not in readers.GAMES:
            raise ValueError(f"unknown game {game!r}: expected larvis or holdem")
        if batch_rows < 1:
            raise ValueError(f"batch_rows must be at least 1, got {batch_rows}")
        self.sources = [readers.open_source(path) for path in readers.expand_inputs(inputs)]
        self.game = game or self._detect_game()
        self.outdir = Path(outdir)
        self.output_format = output_format
        self.batch_rows = batch_rows
        self.on_progress = on_progress
        self.on_reject = on_reject
        if self.game == "larvis":
            for source in self.sources:
                missing = [c for c in larvis.COLUMNS if c not in source.columns]
                if missing:
                    raise ValueError(f"{source.path}: missing column {', '.join(missing)} "
                                     f"(a Larvis games file has {','.join(larvis.COLUMNS)})")
            self.seats: tuple[str, ...] = ()
            self.columns = larvis.COLUMNS
        else:
            for source in self.sources:
                if "board" not in source.columns or not source.seats():
                    raise ValueError(f"{source.path}: a hold'em archive needs a board column and "
                                     f"player columns p1..p10")
            self.seats = readers.HOLDEM_SEATS[:max(len(s.seats()) for s in self.sources)]
            self.columns = ("board",) + self.seats
        self.expected = EXPECTED_COLUMNS[self.game]
        if any(self.expected in source.columns for source in self.sources):
            self.columns += (self.expected,)
        else:
            self.expected = None

    def _detect_game(self) -> str:
        games = {source.path: source.game for source in self.sources}
        if len(set(games.values())) > 1:
            listing = ", ".join(f"{path} is {game}" for path, game in games.items())
            raise ValueError(f"inputs mix games ({listing}): run each game separately or pass --game")
        return next(iter(games.values()))

    def execute(self) -> dict:
        """Run every input through the pipeline; return the summary written."""
        started = time.perf_counter()
        categories = larvis.CATEGORIES if self.game == "larvis" else tuple(holdem.CATEGORIES)
        tally = Tally(tuple(categories))
        counts = {"read": 0, "scored": 0, "rejected": 0}
        outcomes: dict[str, int] = {}
        mismatches = {"checked": 0, "mismatched": 0, "first": []}
        inputs = []
        winners_path = self.outdir / f"winners.{self.output_format}"
        self.outdir.mkdir(parents=True, exist_ok=True)
        next_row = 1
        with TableWriter(winners_path, schema=self._results_schema()) as winners, \
                TableWriter(self.outdir / "rejects.csv", schema=REJECT_SCHEMA,
                            quote_strings=True) as rejects:
            for source in self.sources:
                record = {"path": str(source.path), "format": source.format, "size_bytes": source.size,
                          "first_row": next_row, "rows": 0, "scored": 0, "rejected": 0, "blank_lines": 0}
                span = 0
                for batch in readers.read_batches(source, self.columns, batch_rows=self.batch_rows):
                    offset = next_row - 1
                    scored = self._score(batch.table)
                    rows = batch.rows + offset
                    results = scored.results
                    results = results.add_column(0, "row", pa.array(rows[scored.ok]))
                    if self.expected:
                        expected = batch.table.column(self.expected).filter(pa.array(scored.ok))
                        self._check(expected, scored.outcomes, rows[scored.ok], mismatches)
                        results = results.append_column("expected", expected)
                    winners.write(results)
                    tally += scored.tally
                    for name, count in scored.outcome_counts.items():
                        outcomes[name] = outcomes.get(name, 0) + count
                    rejected = self._rejects(source, batch, scored, offset)
                    rejects.write(rejected)
                    n_read = batch.table.num_rows + len(batch.unreadable)
                    n_scored = int(scored.ok.sum())
                    record["rows"] += n_read
                    record["scored"] += n_scored
                    record["rejected"] += n_read - n_scored
                    record["blank_lines"] += batch.blank_lines
                    if len(batch.rows) or batch.unreadable:
                        span = max(span, int(max(batch.rows.max(initial=0),
                                                 max((r for r, *_ in batch.unreadable), default=0))))
                    counts["read"] += n_read
                    counts["scored"] += n_scored
                    counts["rejected"] += n_read - n_scored
                    if self.on_progress:
                        elapsed = time.perf_counter() - started
                        self.on_progress(counts["read"], counts["read"] / elapsed if elapsed else 0.0)
                inputs.append(record)
                next_row += span
        elapsed = time.perf_counter() - started
        category_table, tie_table = tally.category_table(), tally.tie_table()
        write_table(self.outdir / "categories.csv", category_table)
        write_table(self.outdir / "ties.csv", tie_table)
        summary = {
            "game": self.game,
            "engine": "local",
            "inputs": inputs,
            "rows_read": counts["read"],
            "rows_scored": counts["scored"],
            "rows_rejected": counts["rejected"],
            "outcomes": outcomes,
            "expected": None if not self.expected else {"column": self.expected, **mismatches},
            "outputs": {"winners": winners_path.name, "rejects": "rejects.csv",
                        "categories": "categories.csv", "ties": "ties.csv"},
            "statistics": {"categories": category_table.to_pylist(), "ties": tie_table.to_pylist()},
            "elapsed_seconds": round(elapsed, 3),
            "rows_per_second": round(counts["read"] / elapsed) if elapsed else None,
        }
        write_json(self.outdir / "summary.json", summary)
        return summary

    def _score(self, table: pa.Table) -> Scored:
        return score_larvis(table) if self.game == "larvis" else score_holdem(table, self.seats)

    def _results_schema(self) -> pa.Schema:
        empty = pa.table({name: pa.array([], pa.string()) for name in self.columns})
        schema = self._score(empty).results.schema.insert(0, pa.field("row", pa.int64()))
        if self.expected:
            schema = schema.append(pa.field("expected", pa.string()))
        return schema

    def _check(self, expected: pa.ChunkedArray, got: np.ndarray, rows: np.ndarray, mismatches: dict) -> None:
        wanted = pc.utf8_trim_whitespace(expected).to_numpy(zero_copy_only=False)
        given = np.array([w is not None and w != "" for w in wanted], dtype=bool) if len(wanted) else \
            np.zeros(0, dtype=bool)
        differ = given & (wanted != got)
        mismatches["checked"] += int(given.sum())
        mismatches["mismatched"] += int(differ.sum())
        room = MISMATCHES_KEPT - len(mismatches["first"])
        for index in np.flatnonzero(differ)[:max(room, 0)]:
            mismatches["first"].append({"row": int(rows[index]), "expected": wanted[index],
                                        "got": got[index]})

    def _rejects(self, source: readers.Source, batch: readers.Batch, scored: Scored,
                 offset: int) -> pa.Table:
        bad = np.flatnonzero(~scored.ok)
        raw = pc.binary_join_element_wise(
            *[pc.fill_null(batch.table.column(name), "") for name in self.columns if name != self.expected],
            "," if source.format != "contest" else " | ").to_numpy(zero_copy_only=False)
        records = [(int(batch.rows[i]), int(batch.lines[i]), scored.reasons[i] or "unreadable row",
                    raw[i]) for i in bad]
        records += [(row, line, reason, text) for row, line, text, reason in batch.unreadable]
        records.sort()
        table = pa.table({
            "row": pa.array([row + offset for row, *_ in records], pa.int64()),
            "source": pa.array([str(source.path)] * len(records), pa.string()),
            "source_row": pa.array([row for row, *_ in records], pa.int64()),
            "line": pa.array([line if line > 0 else None for _, line, _, _ in records], pa.int64()),
            "reason": pa.array([reason for _, _, reason, _ in records], pa.string()),
            "raw": pa.array([text for *_, text in records], pa.string()),
        })
        if self.on_reject:
            for row, line, reason, _ in records:
                where = f"row {row}" + (f" (line {line})" if line > 0 else "")
                self.on_reject(f"{source.path}: {where}: {reason}")
        return table
