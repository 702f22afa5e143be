"""The dask engine: the same run, as partitions on a dask.distributed cluster.

Layer: runs (:mod:`pipeline.runs`); imports :mod:`~pipeline.runs.runner`,
the formats and the foundation modules, never the command line.

This module owns ``pokerpipe run --engine dask``: cutting a run's inputs into
partitions that a worker reads on its own, sending them to a cluster (a
local one when no scheduler address is given), and gathering what they
return.  The per-batch work is not here: every partition runs
:meth:`pipeline.runs.scoring.Scoring.process_batch`, the function the local engine
calls, and the client writes rejects, statistics and ``summary.json`` with
:meth:`pipeline.runs.runner.Run.finish`, so both engines give the same rows,
row numbers, rejects and counts.

Partitions
----------
* A Parquet file is cut into runs of consecutive row groups of about
  ``partition_rows`` rows (one partition if it has a single row group).
* A plain (uncompressed) CSV file is cut into byte ranges of about
  ``partition_bytes`` at line ends (:func:`pipeline.formats.csv_files.csv_byte_ranges`,
  a few bytes read per cut).  A first cheap pass on the cluster counts the
  line ends of every range, so each range knows the number of its first
  line and numbers its rows exactly as the local engine does.
* A compressed CSV or a contest file is one partition: where a line starts
  is only known by reading the file before it.

Row numbers continue from one file to the next.  A Parquet file's span is
in its metadata; the span of a CSV or contest file that other files follow
is counted by a reading task on the cluster (the same reader, no scoring),
and the partitions after it wait for that count.

Outputs and failures
--------------------
Each partition writes its winners to ``OUTDIR/winners/part-NNNNN.csv`` or
``.parquet`` and its rejected rows to ``rejects/part-NNNNN.parquet`` in the
run's staging folder, named by its place in input order and published
atomically, and returns only its counts; the client merges the reject parts
into ``rejects.csv`` one at a time, so neither side holds a partition's
rows.  Tasks are pure: a
task that dask retries after its worker died writes the same part again
under the same name, so no row is lost or written twice.  Reading the parts
in name order gives the local engine's winners table, row for row.

dask is an optional dependency (the ``dask`` extra; on its own, ``pip install
'dask[distributed]'``), imported only when this engine runs.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import os
import re
import shutil
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.errors import PokerpipeError, UsageError, one_line
from pipeline.formats import csv_files, parquet_files, readers
from pipeline.formats.publish import OutputSet
from pipeline.formats.sources import Source
from pipeline.formats.writers import TableWriter
from pipeline.runs.parts import Partition, PartResult, part_name, readable, score_partition
from pipeline.runs.runner import Run, Summary, first_pass_duplicates, marked, summarize
from pipeline.runs.scoring import REJECT_SCHEMA, REJECTS_FILE, batch_span

DEFAULT_PARTITION_ROWS = 1 << 20
DEFAULT_PARTITION_BYTES = 8 << 20  # about 170,000 six-player deals of CSV: many per worker, for balance
WINNERS_FOLDER = "winners"
REJECTS_FOLDER = "rejects"  # in the staging folder only: merged into rejects.csv, then removed
#: What installs the engine's dependency, wherever it is run: pokerpipe is on no package index, so
#: the command names dask itself, not an extra of pokerpipe.
INSTALL_HINT = "pip install 'dask[distributed]'"
DEFAULT_CONNECT_TIMEOUT = 10.0  # seconds for a scheduler to answer, and to have a worker
_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})")
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def require_dask() -> ModuleType:
    """Import and return ``distributed``; ImportError ending in the command that installs it when missing."""
    try:
        import distributed
    except ImportError as error:
        raise ImportError(f"the dask engine needs dask.distributed ({error}): {INSTALL_HINT}") from None
    return distributed


def check_address(address: str) -> str:
    """A scheduler address as dask reads it, ``[tcp://]HOST:PORT``; UsageError for anything else.

    Checked before anything is read or connected, so that a typo fails at once.

    >>> check_address("tcp://10.0.0.5:8786"), check_address("localhost:8786")
    ('tcp://10.0.0.5:8786', 'localhost:8786')
    >>> check_address("not a url")
    Traceback (most recent call last):
    ...
    pipeline.errors.UsageError: scheduler address 'not a url': expected one like tcp://HOST:8786
    """
    found = _ADDRESS.fullmatch(address.strip())
    if found is None or (found["scheme"] or "tcp") not in _SCHEMES or not 1 <= int(found["port"]) <= 65535:
        raise UsageError(f"scheduler address {address!r}: expected one like tcp://HOST:8786")
    return address.strip()


def connect(distributed: Any, address: str, timeout: float = DEFAULT_CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address`` with a worker, or a one-line error.

    dask's own connect waits without end for the first reply of a server
    that accepts the connection but never answers (any server that is not
    a scheduler), and reads a reply that is not dask's as a frame of any
    length.  So the scheduler is first asked who it is, in a thread of its
    own under a deadline; only an answer from a dask scheduler leads to a
    client, and a scheduler without workers is refused rather than waited
    on forever.

    Parameters
    ----------
    distributed : the ``distributed`` module
    address : ``[tcp://]HOST:PORT``
    timeout : seconds for each step: the answer, then the first worker

    Raises
    ------
    UsageError
        A malformed address.
    PokerpipeError
        Nothing answers, something answers that is not a dask scheduler, or
        the scheduler has no worker, each within ``timeout`` seconds.
    """
    address = check_address(address)
    kind = _identity(distributed, address, timeout)
    if kind != "Scheduler":
        raise PokerpipeError(f"{address} is a dask {kind}, not a scheduler: give the scheduler's address")
    client = distributed.Client(address, timeout=f"{timeout}s")
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as error:
        client.close()
        raise PokerpipeError(f"the dask scheduler at {address} has no worker after {timeout:g} s "
                             f"(--connect-timeout): start one with dask worker {address}") from error
    except BaseException:
        client.close()
        raise
    return client


def _identity(distributed: Any, address: str, timeout: float) -> str:
    """What the server at ``address`` says it is (``Scheduler``, ``Worker``), within ``timeout`` seconds."""
    found = _ADDRESS.fullmatch(address)
    assert found is not None  # checked by check_address
    if found["scheme"] != "ucx":  # the others run over TCP: is anything listening at all?
        try:
            socket.create_connection((found["host"].strip("[]"), int(found["port"])), timeout=timeout).close()
        except OSError as error:
            raise PokerpipeError(f"cannot reach the dask scheduler at {address}: "
                                 f"{error.strerror or one_line(error)}") from None
    outcome: dict[str, Any] = {}
    security = distributed.Security().get_connection_args("client")  # TLS as dask's config sets it

    async def ask() -> Any:
        comm = await distributed.comm.connect(address, timeout=timeout, **security)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def in_thread() -> None:
        try:
            outcome["reply"] = asyncio.run(asyncio.wait_for(ask(), timeout))
        except BaseException as error:  # handed to the caller's thread, which judges it
            outcome["error"] = error

    # A daemon thread with its own event loop: whatever the server does, the
    # caller waits no longer than the deadline, and never inside a running loop.
    thread = threading.Thread(target=in_thread, name="pokerpipe-scheduler-probe", daemon=True)
    thread.start()
    thread.join(timeout + 1.0)
    failure, reply = outcome.get("error"), outcome.get("reply")
    if thread.is_alive() or isinstance(failure, (TimeoutError, asyncio.TimeoutError)):
        raise PokerpipeError(f"{address} accepts connections but did not answer as a dask scheduler "
                             f"within {timeout:g} s (--connect-timeout): is it a dask scheduler's address?")
    if failure is not None or not isinstance(reply, dict) or not isinstance(reply.get("type"), str):
        # Bytes that are not dask's are read as a frame length: a MemoryError says "not dask".
        detail = ("its reply is not in dask's protocol" if isinstance(failure, MemoryError)
                  else one_line(failure) if failure is not None else f"it replied {str(reply)[:80]!r}")
        raise PokerpipeError(f"{address} does not answer as a dask scheduler ({detail}): "
                             f"is it a dask scheduler's address?")
    return str(reply["type"])


def plan(run: Run, partition_rows: int = DEFAULT_PARTITION_ROWS,
         partition_bytes: int = DEFAULT_PARTITION_BYTES) -> list[Partition]:
    """Cut a run's sources into partitions, in input order."""
    if partition_rows < 1:
        raise UsageError(f"partition_rows must be at least 1, got {partition_rows}")
    if partition_bytes < 1:
        raise UsageError(f"partition_bytes must be at least 1, got {partition_bytes}")
    partitions: list[Partition] = []
    for place, source in enumerate(run.sources):
        if csv_files.splittable(source):
            for byte_range in csv_files.csv_byte_ranges(source, target_bytes=partition_bytes):
                partitions.append(Partition(len(partitions), place, byte_range=byte_range))
            continue
        if source.format != "parquet":
            partitions.append(Partition(len(partitions), place))
            continue
        groups = parquet_files.parquet_row_groups(source)
        if len(groups) <= 1:
            partitions.append(Partition(len(partitions), place))
            continue
        start, rows = 0, 0
        for index, count in enumerate(groups):
            rows += count
            if rows >= partition_rows or index == len(groups) - 1:
                partitions.append(Partition(len(partitions), place, range(start, index + 1)))
                start, rows = index + 1, 0
    return partitions


def source_span(source: Source, columns: tuple[str, ...], batch_rows: int) -> int:
    """The highest row number of a file other than Parquet, read as the run reads it: a hand
    history's hands are found, not parsed (:func:`pipeline.formats.readers.read_pending`)."""
    span = 0
    for batch in readers.read_pending(readable(source), columns, batch_rows=batch_rows):
        span = max(span, batch_span(batch))
    return span


def _add(base: int, *spans: int) -> int:
    return base + sum(spans)


def range_line_ends(source: Source, byte_range: tuple[int, int]) -> int:
    """The first pass of a byte range: how many lines end in it."""
    return csv_files.count_line_ends(readable(source), *byte_range)


def _clear_parts(folder: Path) -> None:
    """Remove the temporary files of tasks killed with their worker."""
    for path in folder.iterdir():
        if path.name.startswith(".part-") and path.name.endswith(".part"):
            path.unlink(missing_ok=True)


def execute(run: Run, *, scheduler: object = None, partition_rows: int = DEFAULT_PARTITION_ROWS,
            partition_bytes: int = DEFAULT_PARTITION_BYTES,
            n_workers: int | None = None, task_delay: float = 0.0,
            connect_timeout: float = DEFAULT_CONNECT_TIMEOUT) -> Summary:
    """Run ``run`` on a dask cluster; write the outputs and return the summary.

    Parameters
    ----------
    run : the configured :class:`pipeline.runs.runner.Run`
    scheduler : address of a running scheduler (``tcp://host:8786``), a
        ``distributed.Client``, or None for a local cluster of ``n_workers``
        processes (one thread each; default: one per core)
    partition_rows : rows of Parquet row groups grouped into one partition
    partition_bytes : bytes of plain CSV in one partition, about
    task_delay : seconds each partition task waits; for tests only
    connect_timeout : seconds a scheduler address has to answer as a dask
        scheduler, and then to have a worker (see :func:`connect`)

    Raises ValueError on bad input (as the local engine does), a malformed
    or unanswering scheduler address, or a partition that killed every
    worker it was given; ImportError when dask is not installed.
    """
    if isinstance(scheduler, str):
        check_address(scheduler)
    if connect_timeout <= 0:
        raise UsageError(f"connect_timeout must be positive, got {connect_timeout}")
    distributed = require_dask()
    started = time.perf_counter()
    partitions = plan(run, partition_rows, partition_bytes)
    with OutputSet(run.outdir) as staged:
        folder = staged.path / WINNERS_FOLDER
        folder.mkdir()
        (staged.path / REJECTS_FOLDER).mkdir()
        for name in run.hand_table_files:
            (staged.path / name).mkdir()
        results, address, workers, run = _on_cluster(distributed, run, partitions, staged.path, scheduler,
                                                     n_workers, started, task_delay, connect_timeout)
        for part_folder in (folder, *(staged.path / name for name in run.hand_table_files)):
            _clear_parts(part_folder)
        return _finish(run, staged.path, partitions, results, started, address, workers)


@dataclass(frozen=True)
class DaskEngine:
    """A dask.distributed cluster: the run's partitions as tasks (see :func:`execute`)."""

    scheduler: object = None  # an address, a distributed.Client, or None for a local cluster
    partition_rows: int = DEFAULT_PARTITION_ROWS
    partition_bytes: int = DEFAULT_PARTITION_BYTES
    n_workers: int | None = None
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT

    def execute(self, run: Run) -> Summary:
        return execute(run, scheduler=self.scheduler, partition_rows=self.partition_rows,
                       partition_bytes=self.partition_bytes, n_workers=self.n_workers,
                       connect_timeout=self.connect_timeout)


def _on_cluster(distributed: Any, run: Run, partitions: list[Partition], staging: Path, scheduler: object,
                n_workers: int | None, started: float, task_delay: float,
                connect_timeout: float) -> tuple[dict[int, PartResult], str, int, Run]:
    """Score every partition on a cluster, writing winners and rejects parts into ``staging``; a
    second time, each hand read twice known, where the run read any (returned: the run as last
    scored, its sources marked)."""
    cluster, client, owned = None, None, True
    distributed_log, quiet_level = logging.getLogger("distributed"), None
    try:
        if isinstance(scheduler, distributed.Client):
            client, owned = scheduler, False
        elif scheduler:
            client = connect(distributed, str(scheduler), connect_timeout)
        else:
            # The workers' logs (a task cancelled by a stop signal, memory use, a heartbeat lost
            # as a stop closes the scheduler) would print beside the run's own lines; what goes
            # wrong in a task reaches the run as its exception.  No dashboard, and the
            # scheduler's HTTP server on a free port: the default 8787, taken by a notebook's
            # cluster, printed four lines of warning.
            cluster = distributed.LocalCluster(n_workers=n_workers or os.cpu_count() or 1,
                                               threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address=":0",
                                               scheduler_kwargs={"dashboard": False},
                                               silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster)
        results = _submit_and_gather(distributed, client, run, partitions, staging, started, task_delay)
        duplicates = first_pass_duplicates([results[partition.index].totals for partition in partitions])
        if len(duplicates):  # again, each hand read twice known (the parts are written anew)
            run = copy.copy(run)
            run.sources = marked(run.sources, duplicates)
            results = _submit_and_gather(distributed, client, run, partitions, staging, started, task_delay)
        address = client.scheduler.address
        workers = len(client.nthreads())
    except distributed.KilledWorker as error:
        raise PokerpipeError(f"a partition was lost with every worker that ran it ({error}): "
                         f"the workers may be running out of memory") from None
    except BaseException as error:
        if not isinstance(error, Exception):
            # A stop (a signal, Ctrl-C) abandons the tasks under way, and distributed logs each
            # gather it cancels as an error of its own; the stop's one line says what happened.
            # The level is put back once the cluster is closed: a notebook goes on logging.
            quiet_level = distributed_log.level
            distributed_log.setLevel(logging.CRITICAL)
        raise
    finally:
        if owned and client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        if quiet_level is not None:
            distributed_log.setLevel(quiet_level)
    return results, address, workers, run


def _submit_and_gather(distributed: Any, client: Any, run: Run, partitions: list[Partition], staging: Path,
                       started: float, task_delay: float) -> dict[int, PartResult]:
    token = uuid.uuid4().hex[:12]
    scoring = run.scoring
    last = len(run.sources) - 1
    offsets = []  # per source: an int, or a future adding the spans before it
    known, pending = 0, list[Any]()
    for place, source in enumerate(run.sources):
        offsets.append(known if not pending else
                       client.submit(_add, known, *pending, key=f"pokerpipe-offset-{token}-{place}"))
        if source.format == "parquet":
            known += sum(parquet_files.parquet_row_groups(source))
        elif place < last:
            pending.append(client.submit(source_span, source, run.columns, run.batch_rows,
                                         key=f"pokerpipe-span-{token}-{place}"))
    first_lines: dict[int, object] = {}  # partition index -> its first line (an int or a future)
    ends: list[Any] = []  # line-end counts (futures) of the byte ranges of the current source, in order
    for p in partitions:
        if p.byte_range is None:
            continue
        if p.byte_range[0] == 0:
            ends = []
        first_lines[p.index] = 1 if not ends else client.submit(
            _add, 1, *ends, key=f"pokerpipe-first-line-{token}-{p.index}")
        ends.append(client.submit(range_line_ends, run.sources[p.source], p.byte_range,
                                  key=f"pokerpipe-lines-{token}-{p.index}"))
    futures = [
        client.submit(score_partition, scoring, run.sources[p.source], p, offsets[p.source],
                      run.batch_rows, str(staging / WINNERS_FOLDER / part_name(p.index, run.output_format)),
                      str(staging / REJECTS_FOLDER / part_name(p.index, "parquet")), task_delay,
                      first_lines.get(p.index, 1),
                      {name: str(staging / name / part_name(p.index, run.output_format))
                       for name in run.hand_table_files},
                      key=f"pokerpipe-score-{token}-{p.index}")
        for p in partitions]
    results: dict[int, PartResult] = {}
    read = 0
    try:
        for future in distributed.as_completed(futures):
            result = future.result()
            results[result.index] = result
            read += result.totals.read
            run.report_progress(read, started)
    except BaseException:
        client.cancel(futures + pending + [o for o in offsets if not isinstance(o, int)]
                      + [f for f in first_lines.values() if not isinstance(f, int)])
        raise
    return results


def _finish(run: Run, staging: Path, partitions: list[Partition], results: dict[int, PartResult],
            started: float, address: str, workers: int) -> Summary:
    per_source = [run.scoring.empty_totals() for _ in run.sources]
    rejects_folder = staging / REJECTS_FOLDER
    with TableWriter(staging / REJECTS_FILE, schema=REJECT_SCHEMA, quote_strings=True) as rejects:
        # One partition's rejects at a time, in input order: the client never holds them all.
        for partition in partitions:
            part = rejects_folder / part_name(partition.index, "parquet")
            for batch in pq.ParquetFile(part).iter_batches():
                rejects.write(batch)
                run.report_rejects(pa.Table.from_batches([batch]))
            per_source[partition.source] += results[partition.index].totals
    shutil.rmtree(rejects_folder)  # working files, not outputs
    first_rows, next_row = [], 1
    for done in per_source:
        first_rows.append(next_row)
        next_row += done.span
    totals, inputs = summarize(run.scoring, run.sources, first_rows, per_source)
    cluster = {"scheduler": address, "workers": workers, "partitions": len(partitions)}
    return run.finish(staging, totals, inputs, started=started, engine="dask", results=f"{WINNERS_FOLDER}/",
                      extra={"cluster": cluster}, tables={name: f"{name}/" for name in run.hand_table_files})
