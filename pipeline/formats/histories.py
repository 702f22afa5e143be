"""Hand histories: what every hand-history format hands the run, whatever its text.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the hold'em
game's columns, nothing above.

A hand-history format (:mod:`~pipeline.formats.phh`, and any site's text
logs) turns each recorded hand into one hold'em deal row, plus the winners
the recorded chips name and columns that trace the row back to its hand.
This module owns what those formats share, so that the run treats them
alike without knowing any one of them: the columns of a row
(:data:`COLUMNS`, :data:`CARRIED`), the counts of hands that are neither
scored nor rejected (:data:`SET_APART`), the showdowns scored but not
checked against the record (:data:`NOT_CHECKED`), and which source formats
are hand histories (:data:`FORMATS`), the venue a format's records name
(:data:`VENUES`), and how reasons are counted beside the counts
(:func:`reason_key`, :func:`reasons`, :func:`by_venue`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pyarrow as pa

from pipeline.games import holdem

#: Source formats (``Source.format``) that are hand histories.
FORMATS = ("phh", "pokerstars")
#: The venue whose records a format holds, where the format names one (a site's own logs).
VENUES = {"pokerstars": "PokerStars"}
EXPECTED = holdem.EXPECTED_COLUMN
#: Columns that trace a row back to its hand, carried into the winners; a format
#: without one of them leaves it empty.
CARRIED = ("file", "hand", "players", "variant", "table", "stakes", "time")
COLUMNS = (holdem.BOARD_COLUMN, *holdem.SEATS, EXPECTED, *CARRIED)
#: Hands counted apart from scored and rejected ones: read = scored + these + rejected.
#: ``set_apart``: valid hands that are not one board to score (run twice, cancelled).
SET_APART = ("without_showdown", "unknown_cards", "set_apart")
#: Showdowns scored but not checked against the record: side pots (PHH: the chips do not name
#: the main pot's winners), no recorded result, a record that does not add up.
NOT_CHECKED = ("side_pots", "no_recorded_result", "inconsistent_record")
NO_RECORDED_WINNER = "none"  # expected text when no showdown player received chips


def reason_key(name: str, reason: str) -> str:
    """The ``Batch.counts`` key that counts hands of count ``name`` for one ``reason``.

    >>> reason_key("set_apart", "run twice")
    'set_apart: run twice'
    """
    return f"{name}: {reason}"


def reasons(counts: Mapping[str, int], name: str) -> dict[str, int]:
    """The reasons counted for ``name`` (see :func:`reason_key`), by reason, in name order.

    >>> reasons({"set_apart": 3, "set_apart: run twice": 2, "set_apart: cancelled": 1}, "set_apart")
    {'cancelled': 1, 'run twice': 2}
    """
    prefix = reason_key(name, "")
    return {key[len(prefix):]: counts[key] for key in sorted(counts) if key.startswith(prefix)}


def by_venue(inputs: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """The audit counts of a run's inputs added up by the venue their records name.

    ``inputs`` are summary.json's entries of the inputs; those without a
    ``venue`` are left out.

    >>> by_venue([{"venue": "PokerStars", "checked": 3, "mismatched": 0},
    ...           {"path": "a.phhs"}, {"venue": "PokerStars", "checked": 1, "mismatched": 1}])
    {'PokerStars': {'checked': 4, 'mismatched': 1}}
    """
    venues: dict[str, dict[str, int]] = {}
    for record in inputs:
        venue = record.get("venue")
        if venue is None:
            continue
        into = venues.setdefault(str(venue), {})
        for key in ("checked", "mismatched", *(f"not_checked_{name}" for name in NOT_CHECKED)):
            if key in record:
                into[key] = into.get(key, 0) + int(record[key])
    return venues


def complete(table: pa.Table) -> pa.Table:
    """A hand-history table with every column of :data:`COLUMNS`: those a format lacks, empty."""
    missing = [name for name in COLUMNS if name not in table.column_names]
    for name in missing:
        table = table.append_column(name, pa.nulls(table.num_rows, pa.string()))
    return table
