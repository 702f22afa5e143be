"""Threads: a stream of batches read, scored and written at once, in input order.

Layer: runs (:mod:`pipeline.runs`), its lowest module; imports nothing of the
package.

This module owns the local engine's use of several cores.  numpy and
pyarrow release the GIL in their loops, so reading the next batch, scoring
the ones after it and writing the one before can run side by side::

    main thread      read 1   read 2   read 3   read 4   ...
    score threads             score 1  score 2  score 3  ...   (up to ``threads`` at a time)
    write thread                       write 1  write 2  ...   (one, in input order)

Results are written strictly in the order the batches were read, so the
outputs are byte for byte those of a single thread.  At most
``threads + 4`` batches are in flight (read, scoring, queued
and being written), so memory stays bounded by the
batch size.  An exception in any stage stops the others and is raised in
the caller's thread; queued work is cancelled, so nothing hangs.
"""

from __future__ import annotations

import ctypes
import os
import resource
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def fit_address_space() -> bool:
    """Under an address-space limit (``ulimit -v``), spend it on data rather than on reservations.

    glibc gives each thread that allocates a malloc arena of its own, up to
    eight per core, and each reserves 64 MiB of address space before it
    holds a byte; under ``ulimit -v`` those reservations, not the data, use
    up the limit, and a thread that then cannot get memory of its own aborts
    the process inside a native library, with no message and no cleanup.
    With a limit set, every thread shares one arena (``mallopt(M_ARENA_MAX,
    1)``: a little more contention in malloc, which the pipeline's large
    numpy and Arrow buffers barely use).  Without a limit, or without glibc,
    nothing changes.

    Returns
    -------
    bool
        Whether the arenas were limited.
    """
    if resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):  # not glibc
        return False
    return bool(mallopt(_M_ARENA_MAX, 1))


_M_ARENA_MAX = -8  # glibc's mallopt parameter for the number of malloc arenas


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1


def run_ordered(items: Iterable[Item], score: Callable[[Item], Result], write: Callable[[Result], None], *,
                threads: int) -> None:
    """Call ``write(score(item))`` for every item, in order, on up to ``threads`` scoring threads.

    Parameters
    ----------
    items : iterable
        Read lazily, in the calling thread.
    score : callable
        Run on the scoring threads; must not touch state shared with other
        calls.
    write : callable
        Run on one writing thread, in the order of ``items``.
    threads : int
        1 runs everything in the calling thread, one item at a time.
    """
    if threads <= 1:
        for item in items:
            write(score(item))
        return
    scoring: deque[Future[Result]] = deque()
    writing: deque[Future[None]] = deque()
    failed = False  # set by the writer thread alone: once a write fails, the later ones do not run

    def write_in_order(result: Result) -> None:
        nonlocal failed
        if failed:
            return
        try:
            write(result)
        except BaseException:
            failed = True
            raise

    with ThreadPoolExecutor(threads, thread_name_prefix="pokerpipe-score") as scorers, \
            ThreadPoolExecutor(1, thread_name_prefix="pokerpipe-write") as writer:
        try:
            for item in items:
                scoring.append(scorers.submit(score, item))
                while len(scoring) > threads:
                    _hand_on(scoring, writing, writer, write_in_order)
            while scoring:
                _hand_on(scoring, writing, writer, write_in_order)
            while writing:
                writing.popleft().result()
        except BaseException:
            pending: list[Future[Any]] = [*scoring, *writing]
            for future in pending:
                future.cancel()
            raise


def _hand_on(scoring: deque[Future[Result]], writing: deque[Future[None]], writer: ThreadPoolExecutor,
             write: Callable[[Result], None]) -> None:
    """Pass the oldest scored batch to the writer, keeping at most two writes queued."""
    result = scoring.popleft().result()
    writing.append(writer.submit(write, result))
    while len(writing) > 2:
        writing.popleft().result()
