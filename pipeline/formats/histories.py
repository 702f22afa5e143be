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
are hand histories (:data:`FORMATS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pipeline.games import holdem

#: Source formats (``Source.format``) that are hand histories.
FORMATS = ("phh",)
EXPECTED = holdem.EXPECTED_COLUMN
#: Columns that trace a row back to its hand, carried into the winners.
CARRIED = ("file", "hand", "players", "variant")
COLUMNS = (holdem.BOARD_COLUMN, *holdem.SEATS, EXPECTED, *CARRIED)
#: Hands counted apart from scored and rejected ones: read = scored + these + rejected.
SET_APART = ("without_showdown", "unknown_cards")
#: Showdowns scored but not checked against the record: a record that is not a
#: result, stacks unknown, side pots, no recorded result (``not_checked_*`` in summary.json).
NOT_CHECKED = ("inconsistent_record", "unknown_stacks", "side_pots", "no_recorded_result")
#: Players counted at showdowns but not scored: those who mucked forfeit the pot.
FORFEITS = ("mucked",)
#: Prefixes of the counts that say why records are inconsistent, and where they were played.
INCONSISTENT_REASON = "inconsistent:"
INCONSISTENT_VENUE = "inconsistent_venue:"
NO_RECORDED_WINNER = "none"  # expected text when no showdown player received chips


def row_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """The summary's counts of hands neither scored nor rejected, and of forfeits, from a run's counts.

    >>> row_counts({"without_showdown": 3, "mucked": 1})
    {'rows_without_showdown': 3, 'rows_unknown_cards': 0, 'mucked': 1}
    """
    return {**{f"rows_{name}": counts.get(name, 0) for name in SET_APART},
            **{name: counts.get(name, 0) for name in FORFEITS}}


def expected_counts(counts: Mapping[str, int]) -> dict[str, Any]:
    """The summary's ``expected`` entries of hand histories: showdowns not checked, and why
    records were inconsistent, by reason and by venue (site) where the records name one.

    >>> expected_counts({"inconsistent_record": 2, INCONSISTENT_REASON + "winnings sum to 0": 2,
    ...                  INCONSISTENT_VENUE + "iPoker": 2})["by_venue"]
    {'iPoker': 2}
    """
    return {**{f"not_checked_{name}": counts.get(name, 0) for name in NOT_CHECKED},
            "inconsistent_records": _prefixed(counts, INCONSISTENT_REASON),
            "by_venue": _prefixed(counts, INCONSISTENT_VENUE)}


def _prefixed(counts: Mapping[str, int], prefix: str) -> dict[str, int]:
    return {name[len(prefix):]: count for name, count in sorted(counts.items()) if name.startswith(prefix)}
