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

from pipeline.games import holdem

#: Source formats (``Source.format``) that are hand histories.
FORMATS = ("phh",)
EXPECTED = holdem.EXPECTED_COLUMN
#: Columns that trace a row back to its hand, carried into the winners.
CARRIED = ("file", "hand", "players", "variant")
COLUMNS = (holdem.BOARD_COLUMN, *holdem.SEATS, EXPECTED, *CARRIED)
#: Hands counted apart from scored and rejected ones: read = scored + these + rejected.
SET_APART = ("without_showdown", "unknown_cards")
#: Showdowns scored but not checked against the chips: side pots, no recorded result.
NOT_CHECKED = ("side_pots", "no_recorded_result")
NO_RECORDED_WINNER = "none"  # expected text when no showdown player received chips
