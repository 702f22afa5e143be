"""The replay of a group of PHH hands through the shared model, and the batch of its showdowns.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.histories`, :mod:`~pipeline.formats.phh.record`,
:mod:`~pipeline.formats.phh.toml` and :mod:`pipeline.hands`.

This module owns the two steps after the reading: :func:`replay` checks a
group's hands and hands them to the rules every format shares (the replay
of the chips, how a hand ends, the audit of its record:
:func:`pipeline.hands.audit.settle`); :func:`to_batch` makes the batch of
a replayed group (a row per scored showdown, the rejected hands, the
counts, the three hand tables: :func:`pipeline.formats.histories.batch_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.formats.histories import batch_of, ending_counts
from pipeline.formats.phh.checks import Rejections
from pipeline.formats.phh.record import record_of
from pipeline.formats.phh.toml import Hands
from pipeline.formats.sources import Batch
from pipeline.games import deals
from pipeline.hands.audit import Settled, settle
from pipeline.hands.model import hand_key
from pipeline.hands.showdown import NO_RECORDED_WINNER, seat_masks


@dataclass
class Replay:
    """What the replay of a group of hands found; hand i is row i of every array.

    ``settled`` holds it all (:class:`pipeline.hands.audit.Settled`); the
    properties read the parts a showdown needs.
    """

    settled: Settled

    @property
    def rejections(self) -> Rejections:
        """Why hands are rejected (the first reason of each, None for a hand kept)."""
        return Rejections(self.settled.record.problem, self.settled.record.excerpt)

    @property
    def board(self) -> NDArray[np.uint8]:
        """(hands, 5) uint8: the board's card codes."""
        return self.settled.record.board

    @property
    def holes(self) -> NDArray[np.uint8]:
        """(hands, seats, K) uint8: the hole cards' codes, those shown replacing those dealt (K: the
        group's most, 2 for hold'em and short-deck, 4 to 6 for Omaha)."""
        return self.settled.record.holes

    @property
    def recorded(self) -> NDArray[np.bool_]:
        """(hands,) bool: the hand records finishing stacks or winnings."""
        return self.settled.audit.recorded

    @property
    def contributed(self) -> NDArray[np.float64]:
        """(hands, seats) float64: the chips each player put in, the uncalled bet returned."""
        return self.settled.chips.contributed

    @property
    def received(self) -> NDArray[np.float64]:
        """(hands, seats) float64: what each player received as the record says, 0 where it does not."""
        got: NDArray[np.float64] = np.nan_to_num(self.settled.audit.received)
        return got

    @property
    def live(self) -> NDArray[np.bool_]:
        """(hands, seats) bool: the players still in at the end who did not muck."""
        live: NDArray[np.bool_] = self.settled.chips.live & ~self.settled.chips.mucked
        return live

    @property
    def side_pot(self) -> NDArray[np.bool_]:
        """(hands,) bool: the live players put in different amounts."""
        return self.settled.audit.side_pot

    @property
    def scored(self) -> NDArray[np.bool_]:
        """(hands,) bool: a showdown with every card known, not rejected: a row of the table."""
        return self.settled.ending.scored

    @property
    def expected(self) -> NDArray[np.object_]:
        """(hands,) object: the recorded winners of the scored showdowns the record checks, "" elsewhere."""
        settled = self.settled
        masks = seat_masks(settled.record.seat, settled.audit.winners)
        named = np.where(masks > 0, deals.winners_text(masks), NO_RECORDED_WINNER)
        found: NDArray[np.object_] = np.where(settled.audit.checked(settled.ending), named, "")
        return found

    @property
    def counts(self) -> dict[str, int]:
        """The counts of the group's batch (:func:`pipeline.formats.histories.ending_counts`)."""
        settled = self.settled
        return ending_counts(settled.record, settled.chips, settled.ending, settled.audit, venues=True)


def replay(hands: Hands) -> Replay:
    """Check every hand of a group and replay it (:func:`~pipeline.formats.phh.record.record_of`,
    then :func:`pipeline.hands.audit.settle`)."""
    return Replay(settle(record_of(hands)))


def to_batch(hands: Hands, replayed: Replay, path: str | Mapping[int, str], *,
             place: int | Mapping[int, int] = 0, duplicates: NDArray[np.int64] | None = None) -> Batch:
    """The batch of a replayed group: a row per scored showdown, the rejected hands, the counts, the tables.

    Parameters
    ----------
    hands : Hands
        The group as read.
    replayed : Replay
        Its :func:`replay`.
    path : str or mapping of int to str
        The file as the user named it, for the ``file`` column; for a group
        of one-hand files, the file of each hand by its ordinal.
    place : int or mapping of int to int
        The input's place in the run, for the hands' keys; for a group of
        one-hand files, the place of each hand's file by its ordinal (each
        file's hand is then its first).
    duplicates : ndarray of int64, optional
        The keys of the hands to set apart as read before.
    """
    record = replayed.settled.record
    files = path if isinstance(path, str) else [path[int(ordinal)] for ordinal in record.number]
    if isinstance(place, int):
        keys = hand_key(place, record.number)
    else:
        keys = hand_key(np.array([place[int(ordinal)] for ordinal in record.number], dtype=np.int64), 1)
    # A .phhs hand is named by its table key, a .phh hand by its ``hand`` field (the key of the Hands).
    named = hands.key
    order = np.argsort(hands.ordinal, kind="stable")
    if (order != np.arange(len(order))).any():  # the hands the parser read slowly come last
        named = named.take(pa.array(order, pa.int64()))
    return batch_of(replayed.settled, keys=keys, files=files, carried={"hand": named}, name_hands=True,
                    venues=True, duplicates=duplicates)
