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
             then the old set, now under the staging name, is emptied of
             pokerpipe's own files and removed.

Each staging folder is held under an ``flock`` for the life of its run.  The
kernel drops the lock when the process dies, even by SIGKILL, so the next
run into the same OUTDIR can tell a dead run's staging folder from a live
one and removes it before it starts.  Where the file system cannot exchange
two names (``renameat2`` missing), OUTDIR is first renamed aside to a
``.old`` name and the staging folder renamed into place; a run that finds
OUTDIR missing and such a ``.old`` folder puts it back first.

Nothing of the user's is ever deleted.  OUTDIR may only hold what pokerpipe
writes (:data:`OUTPUT_NAMES`): a folder holding anything else is refused
before the run, with the names in the way.  A file that appears in OUTDIR
while the run is under way stops the publish: OUTDIR keeps the previous
set, and the new set is kept beside it under a name the error gives
(``out.unpublished-...``), which no later run removes.  A file that appears
after that last look, just before the swap, goes out with the old set and
is moved back into OUTDIR; only pokerpipe's own names are deleted from the
old set, never the folder as a whole.  OUTDIR given as a symbolic link is
published into the folder it leads to, and the link stays as it was.  An
OUTDIR that is the working folder, or holds it, is refused: swapping it
would leave the shell in a deleted folder.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from pipeline.errors import OutputError, PokerpipeError, UsageError, exhausted, os_reason
from pipeline.hands.model import TABLES
from pipeline.text import listed, shown

#: Every name a run may leave in OUTDIR, whatever its command, format and engine.
OUTPUT_NAMES = frozenset({
    "winners.csv", "winners.parquet", "winners", "rejects.csv", "summary.json", "categories.csv",
    "ties.csv", "equity.csv", "equity.parquet", "players.csv", "players.parquet",
    # The hand tables of a run over hand histories: a file each, or a folder of parts (dask).
    *(f"{table}{suffix}" for table in TABLES for suffix in (".csv", ".parquet", "")),
})
_STAGING_INFIX = ".pokerpipe-"
#: Infix of a new set kept beside OUTDIR when it could not be published: no run removes it.
KEPT_INFIX = ".unpublished-"
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
# How often the swapped-out set is emptied again while something keeps appearing in it.
_CLEAR_TRIES = 20


def _staging_prefix(outdir: Path) -> str:
    return f".{outdir.name}{_STAGING_INFIX}"


def is_temporary_name(name: str) -> bool:
    """Whether a file name is a temporary file of pokerpipe's atomic writes.

    >>> is_temporary_name(".winners.csv.k2j3h4.part"), is_temporary_name("winners.csv")
    (True, False)
    """
    return name.startswith(".") and name.endswith(".part")


def _ours(name: str) -> bool:
    return name in OUTPUT_NAMES or is_temporary_name(name)


def foreign_entries(outdir: Path) -> list[str]:
    """Names in an existing OUTDIR that no pokerpipe run writes, sorted."""
    return sorted(entry.name for entry in outdir.iterdir() if not _ours(entry.name))


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


def _renameat2(first: Path, second: Path, flags: int) -> bool:
    """``renameat2(first, second, flags)``; False when the system cannot (no call, or no support).

    Raises OSError with the system's reason otherwise (``FileExistsError``
    for ``RENAME_NOREPLACE`` onto an existing name).
    """
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), flags)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths atomically; False when the system cannot (no renameat2 or no support)."""
    return _renameat2(first, second, _RENAME_EXCHANGE)


def rename_new(source: Path, destination: Path) -> bool:
    """Rename ``source`` to ``destination`` only if nothing has that name; False if something has.

    Atomic where the system has ``renameat2`` (``RENAME_NOREPLACE``), so
    a file or folder that appears at ``destination`` at the last moment is
    never replaced.  Elsewhere the name is looked at just before a plain
    rename.
    """
    try:
        if _renameat2(source, destination, _RENAME_NOREPLACE):
            return True
    except FileExistsError:
        return False
    if os.path.lexists(destination):
        return False
    os.rename(source, destination)
    return True


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

    OUTDIR as a symbolic link publishes into the folder it leads to
    (:attr:`target`); the link itself is never replaced.

    Raises
    ------
    UsageError
        When OUTDIR is a file, a mount point, a loop of links, the working
        folder or a folder holding it, or a folder holding names a
        pokerpipe run does not write.
    OutputError
        When the staging folder cannot be made or published (permission,
        read-only or full file system), with the path and the reason; or
        when files appeared in OUTDIR during the run: the previous set is
        left whole and the new one kept beside it (:attr:`kept`).
    """

    def __init__(self, outdir: str | os.PathLike[str]) -> None:
        self.outdir = Path(outdir)
        self.path = self.outdir  # set to the staging folder on entry
        self.target = self.outdir  # OUTDIR with its links resolved, set by check()
        self.kept: Path | None = None  # where a set that could not be published was kept
        self.returned: list[str] = []  # names moved back into OUTDIR after the swap
        self._lock: int | None = None
        self._made_parents: list[Path] = []

    def check(self) -> None:
        """Refuse an OUTDIR that cannot be replaced, before any work is done."""
        outdir = self.outdir
        named = shown(str(outdir), None, quote=False)
        for parent in [outdir, *outdir.parents]:
            if parent.exists() and not parent.is_dir():
                raise UsageError(f"{named}: {shown(str(parent), None, quote=False)} is a file, "
                                 f"not a folder")
        target = Path(os.path.realpath(outdir))
        if target.is_symlink():  # realpath stops where links go round in a loop
            raise UsageError(f"{named}: a link that leads to no folder (links in a loop)")
        self.target = target
        try:
            working = Path.cwd().resolve()
        except OSError:  # the working folder was deleted: nothing to protect
            working = None
        if working is not None and (working == target or target in working.parents):
            what = "is the working folder" if working == target else "holds the working folder"
            raise UsageError(f"{named}: {what}; a run replaces its output folder as a whole, "
                             f"which would leave this shell in a deleted folder: give a folder "
                             f"of its own, like {shown(str(outdir / 'out'), None, quote=False)}")
        if target.is_dir():
            if os.path.ismount(target):
                raise UsageError(f"{named}: a mount point cannot be replaced as a whole; "
                                 f"give a folder inside it")
            foreign = foreign_entries(target)
            if foreign:
                raise UsageError(f"{named}: holds {listed(foreign, 5)}, which pokerpipe did not write; "
                                 f"a run replaces its output folder as a whole: choose a new or "
                                 f"empty folder")

    def __enter__(self) -> OutputSet:
        self.check()
        target = self.target
        parent = target.parent
        try:
            missing = [p for p in [parent, *parent.parents] if not p.exists()]
            for folder in reversed(missing):
                folder.mkdir()
                self._made_parents.append(folder)
            self._recover(target)
            remove_stale(parent, _staging_prefix(target), suffixes=(".new", ".old"))
            staging = parent / f"{_staging_prefix(target)}{uuid.uuid4().hex[:12]}.new"
            staging.mkdir()
            self.path = staging
            self._lock = _try_lock(staging)
        except OSError as error:
            self._discard()
            raise os_reason(error) from None
        return self

    def _recover(self, target: Path) -> None:
        """Put back a previous set that a killed run had renamed aside (no-exchange systems)."""
        if target.exists():
            return
        aside = sorted(target.parent.glob(f"{_staging_prefix(target)}*.old"))
        for candidate in aside:
            fd = _try_lock(candidate)
            if fd is None:
                continue
            try:
                rename_new(candidate, target)
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
        except PokerpipeError:
            self._discard()
            raise
        except OSError as error:
            self._discard()
            raise os_reason(error, self.outdir) from None
        except BaseException:
            self._discard()
            raise
        self._unlock()

    def _publish(self) -> None:
        staging, target = self.path, self.target
        self._refuse_if_changed()
        if not os.path.lexists(target) and rename_new(staging, target):
            return
        # OUTDIR exists (or appeared since the look above): look again, then swap.
        self._refuse_if_changed()
        if _exchange(staging, target):
            old = staging  # the previous set, now under the staging name
        else:
            old = staging.with_suffix(".old")
            os.rename(target, old)
            if not rename_new(staging, target):
                rename_new(old, target)
                raise OutputError(f"{shown(str(self.outdir), None, quote=False)}: something "
                                  f"took its place during the publish; nothing was replaced")
        self.path = self.outdir  # the staging folder is published: nothing left to discard
        self._clear_old(old, target)

    def _refuse_if_changed(self) -> None:
        """Keep the new set aside, OUTDIR untouched, when something not ours appeared in OUTDIR."""
        target = self.target
        if not os.path.lexists(target):
            return
        if not target.is_dir() or target.is_symlink():
            what = "something that is not a folder took its place"
        else:
            foreign = foreign_entries(target)
            if not foreign:
                return
            what = (f"{listed(foreign)} appeared in it during the run, and pokerpipe did not "
                    f"write {'it' if len(foreign) == 1 else 'them'}")
        kept = target.parent / f"{target.name}{KEPT_INFIX}{time.strftime('%Y%m%d-%H%M%S')}-" \
                               f"{uuid.uuid4().hex[:6]}"
        os.rename(self.path, kept)
        self.path, self.kept = self.outdir, kept
        raise OutputError(f"{shown(str(self.outdir), None, quote=False)}: {what}; its previous "
                          f"set is left as it was, and this run's outputs are kept in "
                          f"{shown(str(kept), None, quote=False)}")

    def _clear_old(self, old: Path, target: Path) -> None:
        """Delete pokerpipe's own files of the swapped-out set; move anything else back to OUTDIR.

        A file written into OUTDIR just before the swap went out with the old
        set: it goes back.  The folder itself is removed only once empty, so a
        file that appears in it meanwhile is found on the next pass; one that
        cannot go back (its name was taken) keeps the old set where it is.
        """
        for _ in range(_CLEAR_TRIES):
            taken = False
            for entry in sorted(os.scandir(old), key=lambda e: e.name):
                place = Path(entry.path)
                if _ours(entry.name):
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(place, ignore_errors=True)
                    else:
                        place.unlink(missing_ok=True)
                elif rename_new(place, target / entry.name):
                    self.returned.append(entry.name)
                else:
                    taken = True
            if taken:
                break
            try:
                old.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError as error:
                if error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
        # What could not go back stays, beside OUTDIR, under a name no run removes.
        kept = target.parent / f"{target.name}{KEPT_INFIX}previous-{uuid.uuid4().hex[:6]}"
        os.rename(old, kept)
        self.kept = kept

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


__all__ = ["KEPT_INFIX", "OUTPUT_NAMES", "OutputError", "OutputSet", "foreign_entries",
           "is_temporary_name", "output_set", "remove_stale", "rename_new"]
