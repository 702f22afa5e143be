"""Poker sites' hand-history logs: one module (or package) per site, found here, named nowhere else.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources` and its own modules, never the runs or the
command line.

A site's logs are read by a module of this package that makes a
:class:`~pipeline.formats.sources.Site` named ``SITE``: how the site's files are named and told from
other text (the first bytes only), and its readers, which read the text into
the shared model (:class:`~pipeline.hands.record.Record`) and hand it to
:func:`pipeline.formats.histories.batch_of`, as every hand-history format
does.  This package finds the sites by walking itself (:data:`SITES`), so
that a further site is one new module that touches nothing else: the input
finder, the readers' facade (:mod:`~pipeline.formats.readers`) and the
summary ask this package.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

from pipeline.formats.sources import Batch, PendingBatch, Site, Source, format_suffix, head_of


def _found() -> tuple[Site, ...]:
    """The ``SITE`` of every module of this package, by name."""
    sites = [importlib.import_module(f"{__name__}.{module.name}").SITE
             for module in pkgutil.iter_modules(__path__)]
    return tuple(sorted(sites, key=lambda site: site.name))


#: Every site whose logs are read, by name.
SITES: tuple[Site, ...] = _found()
#: The site of each source format, by its name.
BY_NAME = {site.name: site for site in SITES}
#: The venue each site format's hands name.
VENUES = {site.name: site.venue for site in SITES}
#: Every file suffix a site's log may have.
SUFFIXES = tuple(sorted({suffix for site in SITES for suffix in site.suffixes}))


def detect(path: Path, *, member: str | None = None) -> Site | None:
    """The site whose log ``path`` (or its ``member``, of a ``.zip`` archive) is, None for none: its
    first bytes only are read, once for every site."""
    suffix, compression = format_suffix(member if member is not None else path)
    if not any(suffix in site.suffixes for site in SITES):
        return None
    head = head_of(path, compression=compression, member=member)
    return None if head is None else recognised(head, suffix)


def recognised(head: bytes, suffix: str = ".txt") -> Site | None:
    """The site whose log starts with ``head`` (a file's first bytes, its byte-order mark left out),
    None for none."""
    return next((site for site in SITES if suffix in site.suffixes and site.recognises(head)), None)


def described(suffix: str) -> str:
    """How an error names the site logs a file of ``suffix`` could be, "" for none.

    >>> described(".csv")
    ''
    >>> described(".txt").startswith(" or a hand history of ") and "PokerStars" in described(".txt")
    True
    """
    names = venues(suffix)
    return f" or a hand history of {names}" if names else ""


def venues(suffix: str) -> str:
    """The sites whose logs a file of ``suffix`` could be, as a message lists them ("" for none).

    >>> venues(".csv")
    ''
    """
    found = sorted({site.venue for site in SITES if suffix in site.suffixes}, key=str.lower)
    return found[0] if len(found) == 1 else ", ".join(found[:-1]) + " or " + found[-1] if found else ""


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """The batches of a site's log (its site's ``read_batches``)."""
    return BY_NAME[source.format].read_batches(source, batch_rows=batch_rows)


def read_pending(source: Source, *, batch_rows: int) -> Iterator[PendingBatch]:
    """The batches of a site's log, left unparsed (its site's ``read_pending``)."""
    return BY_NAME[source.format].read_pending(source, batch_rows=batch_rows)
