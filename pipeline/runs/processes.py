"""Worker processes: whole tasks run in forked processes, their small results back in the parent.

Layer: runs (:mod:`pipeline.runs`), beside :mod:`~pipeline.runs.threads`;
imports only the foundation modules.

This module owns the local engine's use of several cores where threads
cannot give them: parsing hand histories is Python code that holds the GIL
most of its time.  Each worker is forked from the parent once, so it
starts in milliseconds with every module already imported and the game's
tables already built, and takes tasks over a pipe one at a time::

    parent     start A, B   give 1 to A, 2 to B   wait   1 done: give 3 to A   ...
    worker A                task 1 .................... task 3 ..........
    worker B                task 2 ............................ task 4 ...

A task and its result travel pickled, so both are meant to be small: what
to read and where to write, and counts.  The rows stay in the files each
task writes.

Failures
--------
* An exception in a task is raised in the parent: the same exception when
  it pickles, else a :class:`~pipeline.errors.PokerpipeError` with its line.
* A worker that dies (killed, short of memory) raises a
  :class:`~pipeline.errors.PokerpipeError` naming the task it was doing and
  how it ended.
* On any of those, and on any exception in the parent (Ctrl-C and SIGTERM
  raise :class:`~pipeline.errors.Stopped` there), every worker is killed and
  waited for before the exception goes on: no process outlives the call.

Workers ignore Ctrl-C, which the terminal sends to the whole process group:
the parent alone decides what a stop ends.  On Linux a worker also dies
with the parent, even one killed with SIGKILL (``PR_SET_PDEATHSIG``).
Workers are forked, which is safe and cheap on Linux; elsewhere
(:func:`can_fork` is False) the engine uses threads alone.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from pipeline.errors import STOP_SIGNALS, PokerpipeError, one_line

Task = TypeVar("Task")
Result = TypeVar("Result")

_PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent ends
_SEND_FAILED = 70  # a worker's exit status when even its failure could not be sent back
_JOIN_SECONDS = 5.0  # for a worker told to end to do so, before it is killed


def can_fork() -> bool:
    """Whether worker processes are forked here: on Linux.

    macOS has ``fork`` too, but its system libraries are not safe to use in
    a forked child of a process with threads, and starting a fresh
    interpreter per worker costs more than most runs gain.
    """
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


@dataclass
class _Worker(Generic[Task]):
    process: Any  # multiprocessing's forked Process
    pipe: Connection
    task: tuple[int, Task] | None = None  # the task under way: its index, and itself


def run_in_processes(tasks: Sequence[Task], work: Callable[[Task], Result],
                     done: Callable[[int, Result], None], *, processes: int,
                     label: Callable[[Task], str]) -> None:
    """Call ``work(task)`` for every task, in up to ``processes`` forked worker processes.

    Parameters
    ----------
    tasks : sequence
        Handed out in this order, one at a time to whichever worker is free;
        each is pickled to its worker.
    work : callable
        Run in a worker; inherited by the fork, so it need not pickle.  Its
        result is pickled back.
    done : callable
        ``done(index, result)`` in the parent as each task ends, in the order
        they end, not that of ``tasks``.
    processes : int
        Workers to start, at most one per task.
    label : callable
        What a task reads, for the line of a worker that dies on it.

    Raises
    ------
    PokerpipeError
        A worker died; the message names its task and how it ended.
    BaseException
        What a task raised, or what ``done`` raised, or a stop signal.
    """
    waiting = deque(enumerate(tasks))
    workers: list[_Worker[Task]] = []
    finished = False
    try:
        for _ in range(min(processes, len(waiting))):
            workers.append(_start(work))
        for worker in workers:
            _give(worker, waiting)
        while any(worker.task is not None for worker in workers):
            busy = [worker for worker in workers if worker.task is not None]
            ready = wait([worker.pipe for worker in busy] + [worker.process.sentinel for worker in busy])
            for worker in busy:
                if worker.pipe in ready:  # a result first: a worker may end right after sending it
                    index, result = _received(worker, label)
                    done(index, result)
                    _give(worker, waiting)
                elif worker.process.sentinel in ready:
                    raise _lost(worker, label)
        finished = True
    finally:
        _end(workers, kill=not finished)


def _start(work: Callable[[Task], Result]) -> _Worker[Task]:
    context = multiprocessing.get_context("fork")
    parent_end, child_end = context.Pipe()
    process = context.Process(
        target=_serve, args=(child_end, work, os.getpid()), name="pokerpipe-worker", daemon=True)
    # Stop signals wait until the child has set its own handlers: a Ctrl-C in between would
    # otherwise raise the parent's Stopped in the child, with a traceback.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        process.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    child_end.close()
    return _Worker(process, parent_end)


def _give(worker: _Worker[Task], waiting: deque[tuple[int, Task]]) -> None:
    worker.task = waiting.popleft() if waiting else None
    if worker.task is not None:
        worker.pipe.send(worker.task)


def _received(worker: _Worker[Task], label: Callable[[Task], str]) -> tuple[int, Any]:
    """The index and result of the worker's task; what the task raised is raised here."""
    assert worker.task is not None
    try:
        failed, index, value = worker.pipe.recv()
    except (EOFError, OSError):  # it died while sending
        raise _lost(worker, label) from None
    if failed:
        raise value
    return index, value


def _lost(worker: _Worker[Task], label: Callable[[Task], str]) -> PokerpipeError:
    worker.process.join(_JOIN_SECONDS)
    status = worker.process.exitcode
    if status is not None and status < 0:
        name = signal.Signals(-status).name
        how = f"was killed by {name}" + (" (as the kernel ends a process when memory runs out)"
                                         if -status == signal.SIGKILL else "")
    elif status == _SEND_FAILED:
        how = "failed and could not say why (short of memory?)"
    else:
        how = f"ended with exit status {status}"
    where = label(worker.task[1]) if worker.task is not None else "a file"
    return PokerpipeError(f"the worker process reading {where} {how}: the run published nothing")


def _end(workers: list[_Worker[Task]], *, kill: bool) -> None:
    """Every worker ended and waited for: told to stop when all went well, else killed.

    Told, not left to find its pipe closed: a worker forked after another
    holds a copy of the other's end of its pipe, so closing it ends nothing.
    """
    for worker in workers:
        if kill:
            worker.process.kill()
        else:
            with contextlib.suppress(OSError):  # it died after its last result: nothing of it is lost
                worker.pipe.send(None)
        worker.pipe.close()
    for worker in workers:
        worker.process.join(None if kill else _JOIN_SECONDS)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()


def _serve(pipe: Connection, work: Callable[[Any], Any], parent: int) -> None:
    """A worker's life: take a task, do it, send back its result or its exception, until the pipe ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stop in STOP_SIGNALS:
        if stop != signal.SIGINT:
            signal.signal(stop, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    _die_with(parent)
    while True:
        try:
            message = pipe.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:  # told to end
            return
        index, task = message
        try:
            reply: tuple[bool, int, Any] = (False, index, work(task))
        except BaseException as error:
            reply = (True, index, _portable(error))
        try:
            pipe.send(reply)
        except BaseException:
            os._exit(_SEND_FAILED)


def _portable(error: BaseException) -> BaseException:
    """``error``, or a PokerpipeError with its one line when it does not pickle."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return PokerpipeError(one_line(error))
    return error


def _die_with(parent: int) -> None:
    """Have the kernel kill this process when its parent ends (Linux), or end now if it has."""
    with contextlib.suppress(AttributeError, OSError):  # no prctl: the pipe's end still ends the worker
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)
