"""Publishing: a run's outputs appear as one complete set, or not at all.

Layer: formats and I/O (:mod:`pipeline.formats`); imports only the foundation
modules.

This module owns the output folder of a run.  Every file of a run is
written into a staging folder beside OUTDIR; when all of them are complete,
the staging folder takes OUTDIR's place in one atomic step.  So whatever
stops a run (a bad row found late, a full disk, a permission, SIGTERM or
SIGKILL), OUTDIR holds either the previous complete set or the new one,
never a mix, and outputs of an earlier run that the new one does not write
(``winners.csv`` after a Parquet run, ``winners/`` parts after a local run)
go away with the old set::

    parent/
    ├── out/                         the published set (previous run)
    └── .out.pokerpipe-1a2b3c.new/   this run's staging folder, locked while it runs

    publish: rename(.out...new <-> out) exchanged atomically (renameat2),
             then the old set, now under the staging name, is deleted.

Each staging folder is held under an ``flock`` for the life of its run.  The
kernel drops the lock when the process dies, even by SIGKILL, so the next
run into the same OUTDIR can tell a dead run's staging folder from a live
one and removes it before it starts.  Where the file system cannot exchange
two names (``renameat2`` missing), OUTDIR is first renamed aside to a
``.old`` name and the staging folder renamed into place; a run that finds
OUTDIR missing and such a ``.old`` folder puts it back first.

Because OUTDIR is replaced as a whole, it may only hold what pokerpipe
writes (:data:`OUTPUT_NAMES`); a folder holding anything else is refused
with the names in the way, so a user's own files are never deleted.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from pipeline.errors import OutputError, UsageError, exhausted, os_reason

#: Every name a run may leave in OUTDIR, whatever its command, format and engine.
OUTPUT_NAMES = frozenset({
    "winners.csv", "winners.parquet", "winners", "rejects.csv", "summary.json", "categories.csv",
    "ties.csv", "equity.csv", "equity.parquet",
})
_STAGING_INFIX = ".pokerpipe-"
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _staging_prefix(outdir: Path) -> str:
    return f".{outdir.name}{_STAGING_INFIX}"


def is_temporary_name(name: str) -> bool:
    """Whether a file name is a temporary file of pokerpipe's atomic writes.

    >>> is_temporary_name(".winners.csv.k2j3h4.part"), is_temporary_name("winners.csv")
    (True, False)
    """
    return name.startswith(".") and name.endswith(".part")


def foreign_entries(outdir: Path) -> list[str]:
    """Names in an existing OUTDIR that no pokerpipe run writes, sorted."""
    return sorted(entry.name for entry in outdir.iterdir()
                  if entry.name not in OUTPUT_NAMES and not is_temporary_name(entry.name))


def _try_lock(path: Path) -> int | None:
    """An fd holding an exclusive flock on ``path``, or None when a live process holds it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def remove_stale(folder: Path, prefix: str, *, suffixes: tuple[str, ...]) -> None:
    """Delete entries of ``folder`` named ``prefix...suffix`` that no live process holds locked."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(suffixes)):
            continue
        fd = _try_lock(entry)
        if fd is None:
            continue
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        finally:
            os.close(fd)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically; False when the system cannot (no renameat2 or no support)."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second),
                       _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(second))


class OutputSet:
    """The output folder of one run, published as a whole on success.

    Use as a context manager; write every output under :attr:`path` (the
    staging folder).  Leaving the block normally publishes the set as
    OUTDIR; leaving it by an exception (``KeyboardInterrupt`` included)
    deletes the staging folder and leaves OUTDIR as it was.  Nothing at all
    is created when the block fails, not even OUTDIR's parent folders.  An
    exception that means memory or threads ran out
    (:func:`pipeline.errors.exhausted`) comes out as a
    :class:`~pipeline.errors.ResourceError` naming the limit.

    Raises
    ------
    UsageError
        When OUTDIR is a file, a mount point, or a folder holding names a
        pokerpipe run does not write.
    OutputError
        When the staging folder cannot be made or published (permission,
        read-only or full file system), with the path and the reason.
    """

    def __init__(self, outdir: str | os.PathLike[str]) -> None:
        self.outdir = Path(outdir)
        self.path = self.outdir  # set to the staging folder on entry
        self._lock: int | None = None
        self._made_parents: list[Path] = []

    def check(self) -> None:
        """Refuse an OUTDIR that cannot be replaced, before any work is done."""
        outdir = self.outdir
        for parent in [outdir, *outdir.parents]:
            if parent.exists() and not parent.is_dir():
                raise UsageError(f"{outdir}: {parent} is a file, not a folder")
        if outdir.is_dir():
            if os.path.ismount(outdir):
                raise UsageError(f"{outdir}: a mount point cannot be replaced as a whole; "
                                 f"give a folder inside it")
            foreign = foreign_entries(outdir)
            if foreign:
                listing = ", ".join(foreign[:5])
                if len(foreign) > 5:
                    listing += f" and {len(foreign) - 5} more"
                raise UsageError(f"{outdir}: holds {listing}, which pokerpipe did not write; a run "
                                 f"replaces its output folder as a whole: choose a new or empty folder")

    def __enter__(self) -> OutputSet:
        self.check()
        outdir = self.outdir.absolute()
        parent = outdir.parent
        try:
            missing = [p for p in [parent, *parent.parents] if not p.exists()]
            for folder in reversed(missing):
                folder.mkdir()
                self._made_parents.append(folder)
            self._recover(outdir)
            remove_stale(parent, _staging_prefix(outdir), suffixes=(".new", ".old"))
            staging = parent / f"{_staging_prefix(outdir)}{uuid.uuid4().hex[:12]}.new"
            staging.mkdir()
            self.path = staging
            self._lock = _try_lock(staging)
        except OSError as error:
            self._discard()
            raise os_reason(error) from None
        return self

    def _recover(self, outdir: Path) -> None:
        """Put back a previous set that a killed run had renamed aside (no-exchange systems)."""
        if outdir.exists():
            return
        aside = sorted(outdir.parent.glob(f"{_staging_prefix(outdir)}*.old"))
        for candidate in aside:
            fd = _try_lock(candidate)
            if fd is None:
                continue
            try:
                os.rename(candidate, outdir)
            finally:
                os.close(fd)
            return

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if kind is not None:
            self._discard()
            # The machine running out of memory or threads is no bug: say so in one line.
            resource_error = exhausted(value) if value is not None else None
            if resource_error is not None:
                raise resource_error from value
            return
        try:
            self._publish()
        except OSError as error:
            self._discard()
            raise os_reason(error, self.outdir) from None
        except BaseException:
            self._discard()
            raise
        self._unlock()

    def _publish(self) -> None:
        staging, outdir = self.path, self.outdir.absolute()
        if not outdir.exists():
            os.rename(staging, outdir)
            return
        if _exchange(staging, outdir):
            shutil.rmtree(staging, ignore_errors=True)  # the old set, now under the staging name
            return
        aside = staging.with_suffix(".old")
        os.rename(outdir, aside)
        os.rename(staging, outdir)
        shutil.rmtree(aside, ignore_errors=True)

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def _discard(self) -> None:
        if self.path != self.outdir:
            shutil.rmtree(self.path, ignore_errors=True)
            self.path = self.outdir
        self._unlock()
        for folder in reversed(self._made_parents):
            with contextlib.suppress(OSError):
                folder.rmdir()
        self._made_parents = []


@contextlib.contextmanager
def output_set(outdir: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a staging folder published as ``outdir`` when the block succeeds.

    See :class:`OutputSet`.
    """
    with OutputSet(outdir) as staged:
        yield staged.path


__all__ = ["OUTPUT_NAMES", "OutputError", "OutputSet", "foreign_entries", "is_temporary_name",
           "output_set", "remove_stale"]
