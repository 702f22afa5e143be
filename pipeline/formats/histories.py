"""Hand histories: what every hand-history format hands the run, whatever its text.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, the board games' columns and the hands
layer (:mod:`pipeline.hands`), nothing above.

A hand-history format (:mod:`~pipeline.formats.phh`, each site of
:mod:`~pipeline.formats.sites`) reads its text into a
:class:`~pipeline.hands.record.Record`; :func:`batch_of` makes the batch of
any format from it: one hold'em deal row per showdown scored, with the
winners the recorded chips name and columns that trace the row back to its
hand, the rejects, the counts and the three hand tables.  This module owns
what the formats share, so that the run treats them alike without knowing
any one of them: the columns of a row (:data:`COLUMNS`, :data:`CARRIED`),
the counts of hands that are neither scored nor rejected
(:data:`SET_APART`), of players who forfeit (:data:`FORFEITS`), of showdowns
scored but not checked against the record (:data:`NOT_CHECKED`), of hands
the site settled in part (:data:`SETTLED_BY_SITE`), and how reasons and
venues are counted beside the counts (:func:`reason_key`,
:func:`venue_key`, :func:`venue_counts`) and read back for summary.json.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.formats.sources import Batch
from pipeline.games import deals, holdem
from pipeline.hands import model
from pipeline.hands.audit import Audit, Settled, set_apart
from pipeline.hands.model import Apart, Outcome
from pipeline.hands.record import Record
from pipeline.hands.replay import Chips
from pipeline.hands.showdown import NO_RECORDED_WINNER as NO_RECORDED_WINNER
from pipeline.hands.showdown import PLAYERS, deal_rows
from pipeline.hands.tables import OUTCOME_CODE, Ending, tables

#: The game a hand history's showdown is scored as: its winners tables carry :data:`CARRIED`.
GAME = holdem.Holdem.name
#: The games a hand history may hold, as the hands table's ``game`` column and the registry name them.
GAMES = model.VOCABULARIES["game"]
#: The games a hand history is scored in, as a reason names them.
GAMES_TEXT = "hold'em, Omaha, Omaha hi-lo or short-deck"
EXPECTED = deals.EXPECTED_COLUMN
#: Columns that trace a row back to its hand, carried into the winners; a format
#: without one of them leaves it empty.  ``game`` is also what the row is scored as.
CARRIED = ("game", "hand_key", "file", "hand", "variant", "table", "stakes", "time", *PLAYERS)
#: The type of a carried column in the winners: text but for the key that joins the hand tables.
CARRIED_TYPES = {"hand_key": pa.int64()}
COLUMNS = (deals.BOARD_COLUMN, *deals.SEATS, EXPECTED, *CARRIED)
#: Hands counted apart from scored and rejected ones: read = scored + these + rejected.
#: ``set_apart``: valid hands that are not one board to score (run twice, cancelled).
SET_APART = ("without_showdown", "unknown_cards", "set_apart")
#: Players counted at showdowns but not scored: those who mucked forfeit the pot.
FORFEITS = ("mucked",)
#: Showdowns scored but not checked against the record (``not_checked_*`` in summary.json): a
#: record that is not a result, stacks unknown, side pots (where the chips do not name the main
#: pot's winners), a player paid by the site instead of the pot (an all-in cash-out), no
#: recorded result.
NOT_CHECKED = ("inconsistent_record", "unknown_stacks", "side_pots", "cashed_out", "no_recorded_result")
#: Hands whose chips balance only with what the site paid or took (an all-in cash-out, insurance,
#: an EV cashout's risk): their players' net does not add up to minus the rake, and the audit of
#: the chips leaves them out (``expected.settled_by_site`` in summary.json).
SETTLED_BY_SITE = "settled_by_site"
#: What a venue's hands count: the records checked, and those not checked by kind.
VENUE_COUNTS = ("checked", *(f"not_checked_{name}" for name in NOT_CHECKED))


def unknown_game(name: str) -> str:
    """The reason a hand of a game pokerpipe does not score (stud, razz, draw) is rejected.

    >>> unknown_game("'Razz Limit'")
    "game 'Razz Limit' is not one pokerpipe scores (hold'em, Omaha, Omaha hi-lo or short-deck)"
    """
    return f"game {name} is not one pokerpipe scores ({GAMES_TEXT})"


def reason_key(name: str, reason: str) -> str:
    """The ``Batch.counts`` key that counts hands of count ``name`` for one ``reason``.

    >>> reason_key("set_apart", "run twice")
    'set_apart: run twice'
    """
    return f"{name}: {reason}"


def reason_counts(name: str, reasons: NDArray[np.object_]) -> dict[str, int]:
    """The ``Batch.counts`` of hands of count ``name`` by their ``reasons`` (one str per hand):
    one count per different reason, not a look at each hand.

    >>> reason_counts("set_apart", np.array(["run twice", "cancelled", "run twice"], dtype=object))
    {'set_apart: cancelled': 1, 'set_apart: run twice': 2}
    """
    found, tally = np.unique(reasons.astype(str), return_counts=True)
    return {reason_key(name, str(reason)): int(count) for reason, count in zip(found, tally)}


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
            SETTLED_BY_SITE: counts.get(SETTLED_BY_SITE, 0),
            "by_venue": by_venue(counts, inputs)}


def complete(table: pa.Table) -> pa.Table:
    """A hand-history table with every column of :data:`COLUMNS`: those a format lacks, empty."""
    present = set(table.column_names)
    missing = [name for name in COLUMNS if name not in present]
    for name in missing:
        table = table.append_column(name, pa.nulls(table.num_rows, CARRIED_TYPES.get(name, pa.string())))
    return table


def batch_of(settled: Settled, *, keys: NDArray[np.int64], files: str | Sequence[str],
             carried: Mapping[str, pa.Array] | None = None, name_hands: bool = False,
             venues: bool = False, duplicates: NDArray[np.int64] | None = None) -> Batch:
    """The batch of a group of hands read by any format: its showdown rows, rejects, counts and tables.

    Everything after the reading is worked out here, for every format alike:
    the replay of the chips, how each hand ends, the audit of its record
    (:mod:`pipeline.hands`), the deal rows the hold'em game scores, and the
    three hand tables.

    Parameters
    ----------
    settled : Settled
        The group as the format read it, hands in the order of the input,
        worked out (:func:`pipeline.hands.audit.settle`).
    keys : ndarray of shape (hands,), dtype int64
        The ``hand_key`` of each hand (:func:`pipeline.hands.model.hand_key` of
        its input's :attr:`Source.place` and its number there).
    files : str or sequence of str
        The file as the user named it, or the file of each hand (a group of
        one-hand files).
    carried : mapping of str to pyarrow.Array
        Columns of :data:`CARRIED` the format has beyond the Record's (the
        stakes and time as written), a value per hand.
    name_hands : bool
        Reject lines begin ``hand ID: ``, for a format whose lines do not
        say which hand they are in.
    venues : bool
        Count the audit by the site each hand names (``by_venue``): for a
        format whose records name their venue one by one.
    duplicates : ndarray of int64, optional
        The keys of the hands to set apart as read before
        (:attr:`Source.duplicates <pipeline.formats.sources.Source.duplicates>`).
    """
    if duplicates is not None and len(duplicates):
        again = np.isin(keys, duplicates)
        if again.any():
            settled = set_apart(settled, again, str(Apart.DUPLICATE))
    record, chips, ending, checked_record = settled.record, settled.chips, settled.ending, settled.audit
    carried = carried or {}
    # One file for every hand (a .phhs, a log) is repeated by Arrow, not converted hand by hand.
    source = (pa.repeat(pa.scalar(files, pa.string()), record.hands) if isinstance(files, str)
              else pa.array(list(files), pa.string()))
    rows, columns = deal_rows(record, chips, ending, checked_record, keys)
    # The hand as the winners and the reject lines name it: the format's name for it, else its id.
    hand_id = pc.cast(carried.get("hand", record.hand.get("hand_id", pa.nulls(record.hands, pa.string()))),
                      pa.string())
    columns["file"] = source.take(pa.array(rows, pa.int64()))
    columns["hand"] = hand_id.take(pa.array(rows, pa.int64()))
    for name in CARRIED:
        if name in columns:
            continue
        if name in carried:
            columns[name] = pc.cast(carried[name], pa.string()).take(pa.array(rows, pa.int64()))
        elif name in record.hand and name not in columns:
            columns[name] = pc.cast(record.hand[name], pa.string()).take(pa.array(rows, pa.int64()))
    table = complete(pa.table(columns))
    unreadable = []
    rejected = np.flatnonzero(~ending.kept)
    # The names of the rejected hands alone: a Python list of every hand's would cost more than the rest.
    hand_names = hand_id.take(pa.array(rejected, pa.int64())).to_pylist() if name_hands else []
    for at, row in enumerate(rejected.tolist()):
        where = f"hand {hand_names[at]}: " if name_hands and hand_names[at] is not None else ""
        unreadable.append((int(record.number[row]), int(record.line[row]), record.excerpt[row] or "",
                           where + str(ending.reason[row])))
    batch = Batch(table, record.number[rows], record.line[rows], unreadable,
                  counts=ending_counts(record, chips, ending, checked_record, venues=venues),
                  hand_tables=tables(record, chips, ending, keys=keys, source=source,
                                     inconsistent=checked_record.reason != None,  # noqa: E711
                                     got=checked_record.received))
    batch.last_row = int(record.number[-1]) if record.hands else 0
    return batch


def ending_counts(record: Record, chips: Chips, ending: Ending, checked_record: Audit, *,
                  venues: bool) -> dict[str, int]:
    """The ``Batch.counts`` of a group of hands: those neither scored nor rejected, forfeits, the audit."""
    outcome, kept = ending.outcome, ending.kept
    apart = outcome == OUTCOME_CODE[Outcome.SET_APART]
    counts = {"without_showdown": int((outcome == OUTCOME_CODE[Outcome.NO_SHOWDOWN]).sum()),
              "unknown_cards": int((outcome == OUTCOME_CODE[Outcome.UNKNOWN_CARDS]).sum()),
              "set_apart": int(apart.sum()),
              "mucked": int((chips.mucked & (kept & ~apart & chips.showdown)[:, None]).sum()),
              SETTLED_BY_SITE: int((checked_record.cashed_out & kept).sum())}
    counts.update(reason_counts("set_apart", ending.reason[apart]))
    scored = ending.scored & checked_record.recorded
    inconsistent = scored & (checked_record.reason != None)  # noqa: E711 (elementwise)
    unknown = scored & ~inconsistent & checked_record.unknown_stacks
    cashed_out = scored & ~inconsistent & ~unknown & checked_record.unpaid
    apart_pot = scored & ~inconsistent & ~unknown & ~cashed_out & checked_record.side_pot
    counts["inconsistent_record"] = int(inconsistent.sum())
    counts["unknown_stacks"] = int(unknown.sum())
    counts["side_pots"] = int(apart_pot.sum())
    counts["cashed_out"] = int(cashed_out.sum())
    counts["no_recorded_result"] = int((ending.scored & ~checked_record.recorded).sum())
    counts.update(reason_counts("inconsistent_record", checked_record.reason[inconsistent]))
    if venues and "site" in record.hand:
        counts.update(venue_counts(pc.cast(record.hand["site"], pa.string()), {
            "checked": checked_record.checked(ending), "not_checked_inconsistent_record": inconsistent,
            "not_checked_unknown_stacks": unknown, "not_checked_side_pots": apart_pot,
            "not_checked_cashed_out": cashed_out}))
    return counts
