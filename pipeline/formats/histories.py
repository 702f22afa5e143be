"""Hand histories: what every hand-history format hands the run, whatever its text.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the hold'em
game's columns, nothing above.

A hand-history format (:mod:`~pipeline.formats.phh`,
:mod:`~pipeline.formats.pokerstars`) turns each recorded hand into one
hold'em deal row, plus the winners the recorded chips name and columns
that trace the row back to its hand.  This module owns what those formats
share, so that the run treats them alike without knowing any one of them:
the columns of a row (:data:`COLUMNS`, :data:`CARRIED`), the counts of
hands that are neither scored nor rejected (:data:`SET_APART`), of players
who forfeit (:data:`FORFEITS`), of showdowns scored but not checked against
the record (:data:`NOT_CHECKED`), which source formats are hand histories
(:data:`FORMATS`), the venue a format's records name (:data:`VENUES`), and
how reasons and venues are counted beside the counts (:func:`reason_key`,
:func:`venue_key`, :func:`venue_counts`) and read back for summary.json.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.games import holdem

#: Source formats (``Source.format``) that are hand histories.
FORMATS = ("phh", "pokerstars")
#: The game a hand history's showdown is scored as: its winners tables carry :data:`CARRIED`.
GAME = holdem.Holdem.name
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
#: Players counted at showdowns but not scored: those who mucked forfeit the pot.
FORFEITS = ("mucked",)
#: Showdowns scored but not checked against the record (``not_checked_*`` in summary.json): a
#: record that is not a result, stacks unknown, side pots (where the chips do not name the main
#: pot's winners), no recorded result.
NOT_CHECKED = ("inconsistent_record", "unknown_stacks", "side_pots", "no_recorded_result")
#: What a venue's hands count: the records checked, and those not checked by kind.
VENUE_COUNTS = ("checked", *(f"not_checked_{name}" for name in NOT_CHECKED))
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


_VENUE = "venue\x1f"  # a separator no venue's name holds


def venue_key(venue: str, name: str) -> str:
    """The ``Batch.counts`` key counting hands of ``name`` (of :data:`VENUE_COUNTS`) played at ``venue``."""
    return f"{_VENUE}{name}\x1f{venue}"


def venue_counts(venues: Sequence[str | None] | pa.Array, kinds: Mapping[str, NDArray[np.bool_]]
                 ) -> dict[str, int]:
    """The ``Batch.counts`` of a group of hands by the venue each names (:func:`venue_key`), for each kind.

    One count per venue and kind over the venues' codes (a dictionary of the
    group's venues), not a look at each hand; the keys come in the order a look
    at each hand, kind after kind, would add them.

    Parameters
    ----------
    venues : sequence of str or None, or pyarrow string array, of length hands
        Where each hand was played; None where its record does not say.
    kinds : mapping of str to ndarray of shape (hands,), dtype bool
        For each name of :data:`VENUE_COUNTS`, the hands it counts.

    Returns
    -------
    dict of str to int
        The hands of each venue for each name, by the key :func:`venue_key` gives them: names in
        the order of ``kinds``, venues in the order of their first hand of the name; none for a
        venue no hand of the name was played at, nor for hands without a venue.

    Examples
    --------
    >>> kinds = {"checked": np.array([True, True, True, False]),
    ...          "not_checked_side_pots": np.array([False, False, False, True])}
    >>> by_venue(venue_counts(["iPoker", None, "Ongame", "iPoker"], kinds))
    {'Ongame': {'checked': 1}, 'iPoker': {'checked': 1, 'not_checked_side_pots': 1}}
    """
    encoded = (venues if isinstance(venues, pa.Array) else pa.array(venues, pa.string())).dictionary_encode()
    names = encoded.dictionary.to_pylist()
    code = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    named = code >= 0
    counts: dict[str, int] = {}
    for name, hands in kinds.items():
        venue, first, tally = np.unique(code[hands & named], return_index=True, return_counts=True)
        for at in np.argsort(first).tolist():
            counts[venue_key(str(names[venue[at]]), name)] = int(tally[at])
    return counts


def by_venue(counts: Mapping[str, int],
             inputs: Iterable[Mapping[str, Any]] = ()) -> dict[str, dict[str, int]]:
    """The audit counts added up by the venue the records name.

    From the per-hand counts of :func:`venue_key` (a PHH hand names its
    ``venue``), and from the summary.json entries of inputs whose format
    names one venue for every hand (a site's own logs: ``venue``,
    ``checked``, ``mismatched``, ``not_checked_*``).

    >>> by_venue({venue_key("iPoker", "not_checked_inconsistent_record"): 2},
    ...          [{"venue": "PokerStars", "checked": 3, "mismatched": 0}, {"path": "a.phhs"}])
    {'PokerStars': {'checked': 3, 'mismatched': 0}, 'iPoker': {'not_checked_inconsistent_record': 2}}
    """
    venues: dict[str, dict[str, int]] = {}
    for record in inputs:
        venue = record.get("venue")
        if venue is None:
            continue
        into = venues.setdefault(str(venue), {})
        for key in ("checked", "mismatched", *VENUE_COUNTS[1:]):
            if key in record:
                into[key] = into.get(key, 0) + int(record[key])
    for key, count in counts.items():
        if key.startswith(_VENUE):
            name, venue = key[len(_VENUE):].split("\x1f", 1)
            into = venues.setdefault(venue, {})
            into[name] = into.get(name, 0) + count
    return dict(sorted(venues.items()))


def row_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """The summary's counts of hands neither scored nor rejected, and of forfeits, from a run's counts.

    >>> row_counts({"without_showdown": 3, "mucked": 1})
    {'rows_without_showdown': 3, 'rows_unknown_cards': 0, 'rows_set_apart': 0, 'mucked': 1}
    """
    return {**{f"rows_{name}": counts.get(name, 0) for name in SET_APART},
            **{name: counts.get(name, 0) for name in FORFEITS}}


def expected_counts(counts: Mapping[str, int], inputs: Iterable[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The summary's ``expected`` entries of hand histories: showdowns not checked, why records
    were inconsistent, and the audit by venue (site) where the records name one.

    >>> expected = expected_counts({"inconsistent_record": 2, reason_key("inconsistent_record", "zero"): 2})
    >>> expected["not_checked_inconsistent_record"], expected["inconsistent_reasons"], expected["by_venue"]
    (2, {'zero': 2}, {})
    """
    return {**{f"not_checked_{name}": counts.get(name, 0) for name in NOT_CHECKED},
            "inconsistent_reasons": reasons(counts, "inconsistent_record"),
            "by_venue": by_venue(counts, inputs)}


def complete(table: pa.Table) -> pa.Table:
    """A hand-history table with every column of :data:`COLUMNS`: those a format lacks, empty."""
    missing = [name for name in COLUMNS if name not in table.column_names]
    for name in missing:
        table = table.append_column(name, pa.nulls(table.num_rows, pa.string()))
    return table
