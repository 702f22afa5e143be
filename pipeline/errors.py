"""Errors: the exceptions pokerpipe raises for what a user can fix.

Layer: foundation; imports only :mod:`pipeline.text` (the same layer), and every layer may import it.

This module owns the line between an expected failure and a bug.  The
library raises :class:`PokerpipeError` subclasses with a message that names
the file, row or line and the reason; the command line prints exactly those
as one line and exits non-zero.  Any other exception is a bug and keeps its
traceback.

``InputError`` and ``UsageError`` are also ``ValueError`` so that code that
caught the library's ``ValueError`` keeps working.

The machine running out is an expected failure too: memory (a
``MemoryError``, pyarrow's ``ArrowMemoryError``, numpy's failed allocation)
or a thread that cannot start.  :func:`exhausted` tells those apart from
bugs and words them as a :class:`ResourceError` naming the limit in force
(``ulimit -v``, ``ulimit -d``, a cgroup's memory, the machine's memory).

A stop signal is an expected end too: Ctrl-C, SIGTERM and SIGHUP raise
:class:`Stopped` where the program is (:func:`stop_on_signals`), so that
every ``finally`` on the way out cleans up, and :func:`exit_stopped` ends the
command with one line and the status 128 + the signal.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn


class PokerpipeError(Exception):
    """Base of every error the command line reports as one line.

    Its text is one line whatever the message carries: a path or a value
    holding a line break or a control character is escaped
    (:func:`pipeline.text.escaped`), here once for every message.

    >>> str(InputError("new\\nline.csv: file is empty"))
    'new\\\\nline.csv: file is empty'
    """

    def __str__(self) -> str:
        # Imported here: pipeline.text loads pyarrow, and ``import pipeline`` (which imports
        # this module) stays cheap; by the time an error is shown, pyarrow is loaded anyway.
        from pipeline.text import escaped

        return escaped(super().__str__())


class InputError(PokerpipeError, ValueError):
    """An input cannot be read or scored: the message names the file, row or line and why."""


class UsageError(PokerpipeError, ValueError):
    """An argument or option that cannot work: an unknown game, a bad number, a folder in the way."""


class OutputError(PokerpipeError, OSError):
    """An output could not be written: the message names the path and the system's reason."""


class OutputExists(UsageError):
    """A file to write is already there and was not to be replaced: the message names it.

    The caller says how to replace it (the command line: ``--force``).
    """


def os_reason(error: OSError, path: str | os.PathLike[str] | None = None) -> OutputError:
    """One line for an OS error: the path and the system's reason.

    >>> str(os_reason(OSError(28, "No space left on device"), "out/winners.csv"))
    'out/winners.csv: No space left on device'
    """
    where = error.filename if error.filename is not None else path
    reason = error.strerror or str(error) or type(error).__name__
    return OutputError(f"{where}: {reason}" if where is not None else reason)


class ResourceError(PokerpipeError):
    """The machine refused memory or a thread: the message names the limit in force."""


#: Signals that stop a command, cleaning up on the way out: exit status 128 + the signal.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(BaseException):
    """A stop signal (SIGINT, SIGTERM, SIGHUP) raised where the program is, so
    every ``finally`` and context manager on the way out cleans up.

    A BaseException, like KeyboardInterrupt, so no ``except Exception`` can
    swallow it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, frame: object) -> None:
    raise Stopped(signum)


def stop_on_signals() -> None:
    """Make each of :data:`STOP_SIGNALS` raise :class:`Stopped`; call it from the main thread, as
    :func:`signal.signal` requires.

    Ctrl-C too: as a KeyboardInterrupt, click would turn it into "Aborted!"
    and status 1.  A signal ignored when the program starts (nohup, a
    background job) stays ignored.
    """
    for stop_signal in STOP_SIGNALS:
        if signal.getsignal(stop_signal) is not signal.SIG_IGN:
            signal.signal(stop_signal, _raise_stopped)


def exit_stopped(stopped: Stopped) -> NoReturn:
    """End the command stopped by a signal: one line on stderr, exit status 128 + the signal."""
    name = signal.Signals(stopped.signum).name
    if sys.stderr is not None:  # None when the process started with its stderr closed
        print(f"pokerpipe: stopped by {name}; nothing half-written was published", file=sys.stderr,
              flush=True)
    sys.exit(128 + stopped.signum)


# What the libraries say when a thread cannot start: Python's threading, and
# pyarrow's thread pools (an ArrowException "Unknown error").
_THREAD_FAILURES = ("can't start new thread", "Failed to launch worker thread")
_MIB = 1 << 20


def exhausted(error: BaseException) -> ResourceError | None:
    """A ResourceError for an error that means memory or threads ran out; None for any other.

    >>> print(exhausted(KeyError("x")))
    None
    >>> str(exhausted(RuntimeError("can't start new thread"))).startswith("cannot start a thread")
    True
    """
    text = one_line(error, 160)
    if isinstance(error, MemoryError) or (isinstance(error, OSError) and error.errno == errno.ENOMEM):
        return ResourceError(f"out of memory under {memory_limit()}: raise the limit, or lower "
                             f"--batch-rows ({text})")
    if isinstance(error, (RuntimeError, OSError)) or type(error).__module__.startswith("pyarrow"):
        if any(failure in str(error) for failure in _THREAD_FAILURES):
            return ResourceError(f"cannot start a thread under {thread_limit()}: raise the limit, or "
                                 f"lower --threads ({text})")
    return None


def one_line(error: BaseException, limit: int = 200) -> str:
    """An error's message on one line and cut to ``limit`` characters; its type's name if it has none.

    Messages of the libraries below (dask's connect, pyarrow's allocators) may span several lines.

    >>> one_line(OSError("no route\\n  to host")), one_line(TimeoutError())
    ('no route to host', 'TimeoutError')
    """
    return (" ".join(str(error).split()) or type(error).__name__)[:limit]


@contextlib.contextmanager
def resource_limits() -> Iterator[None]:
    """Raise a :class:`ResourceError` instead of an error that means memory or threads ran out."""
    try:
        yield
    except BaseException as error:
        resource_error = exhausted(error)
        if resource_error is None:
            raise
        raise resource_error from error


def memory_limit() -> str:
    """The limit on this process's memory, in words: the lowest of those set.

    ``ulimit -v`` (address space) and ``ulimit -d`` (data), then a cgroup's
    ``memory.max``, then the machine's memory.
    """
    for limit, name, flag in ((resource.RLIMIT_AS, "address-space", "ulimit -v"),
                              (resource.RLIMIT_DATA, "data", "ulimit -d")):
        soft, _ = resource.getrlimit(limit)
        if soft != resource.RLIM_INFINITY:
            return f"the {name} limit of {soft / _MIB:,.0f} MiB ({flag})"
    cgroup = _cgroup_memory()
    if cgroup is not None:
        return f"the cgroup memory limit of {cgroup / _MIB:,.0f} MiB"
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (OSError, ValueError):
        return "the machine's memory"
    return f"the machine's memory of {total / _MIB:,.0f} MiB"


def thread_limit() -> str:
    """What bounds the threads this process may start, in words."""
    address_space, _ = resource.getrlimit(resource.RLIMIT_AS)
    if address_space != resource.RLIM_INFINITY:
        # Every thread reserves its stack in the address space.
        stack, _ = resource.getrlimit(resource.RLIMIT_STACK)
        each = "" if stack == resource.RLIM_INFINITY else \
            f" with stacks of {stack / _MIB:,.0f} MiB (ulimit -s)"
        return f"the address-space limit of {address_space / _MIB:,.0f} MiB (ulimit -v){each}"
    processes, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    if processes != resource.RLIM_INFINITY:
        return f"the limit of {processes:,} processes and threads (ulimit -u)"
    return "the system's limit on threads"


def _cgroup_memory() -> int | None:
    """The memory limit of this process's cgroup (v2 ``memory.max``, v1 ``memory.limit_in_bytes``),
    in bytes; None when unset or unknown."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        number, controllers, where = line.split(":", 2)
        if number == "0" and not controllers:
            found = Path("/sys/fs/cgroup") / where.lstrip("/") / "memory.max"
        elif "memory" in controllers.split(","):
            found = Path("/sys/fs/cgroup/memory") / where.lstrip("/") / "memory.limit_in_bytes"
        else:
            continue
        try:
            value = found.read_text().strip()
        except OSError:
            continue
        # v1 writes "no limit" as the largest page-aligned 64-bit number.
        if value.isdigit() and int(value) < 1 << 62:
            return int(value)
    return None
