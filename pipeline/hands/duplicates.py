"""The same hand read twice: which hands of a run repeat one read before them.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model`,
numpy and pyarrow only.

This module owns the rule: a hand is the same as another when both name
the same ``site`` and ``hand_id``; the second and every later one in the
run's order (``hand_key`` order) is a duplicate, set apart
(:attr:`~pipeline.hands.model.Apart.DUPLICATE`).  A hand without a site
(a PHH hand without a ``venue``: its ``hand`` need not be unique, the
Pluribus hands count from 0 in each session) or without an id is never
taken for one, nor is a hand rejected as it was read.

:class:`HandIds` gathers the ids of part of a run from its ``hands`` table
and adds up in run order, as a run's totals do, so that the duplicates are
known once every hand is read, whatever the engine and however the run
was split.  Ids made of digits are kept as integers (16 bytes a hand), the
others as text.

>>> hands = pa.table({"hand_key": pa.array([1, 2, 3, 4], pa.int64()),
...                   "hand_id": ["7", "7", "7", "8"],
...                   "site": ["PokerStars", None, "PokerStars", "PokerStars"],
...                   "outcome": ["scored", "scored", "no showdown", "scored"]})
>>> ids = HandIds.of_hands(hands)
>>> ids += HandIds.of_hands(hands.slice(3))  # hand 4 read again, later
>>> ids.duplicates().tolist()
[3, 4]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.hands.model import Outcome

# Digits, no leading zero, at most 18 of them: read as an int64, the same id as its text.
_NUMBER = r"^(?:0|[1-9][0-9]{0,17})$"


@dataclass
class HandIds:
    """The ids and keys of the hands that may be read twice, by site, in run order.

    Attributes
    ----------
    numbers : dict of str to list of (ndarray, ndarray)
        Per site, pieces of (ids as int64, their hands' ``hand_key`` as
        int64), each pair of shape (hands,), in run order.
    texts : dict of str to list of (pyarrow.Array, ndarray)
        The same for ids that are not plain numbers (strings, int64 keys).
    """

    numbers: dict[str, list[tuple[NDArray[np.int64], NDArray[np.int64]]]] = field(default_factory=dict)
    texts: dict[str, list[tuple[pa.Array, NDArray[np.int64]]]] = field(default_factory=dict)

    @classmethod
    def of_hands(cls, hands: pa.Table) -> HandIds:
        """The ids of a ``hands`` table's rows (:data:`~pipeline.hands.model.HANDS`; the columns
        ``hand_key``, ``hand_id``, ``site`` and ``outcome`` are read)."""
        ids = cls()
        if not hands.num_rows:
            return ids
        site = pc.cast(hands.column("site"), pa.string()).combine_chunks()
        hand_id = pc.cast(hands.column("hand_id"), pa.string()).combine_chunks()
        kept = (site.is_valid().to_numpy(zero_copy_only=False)
                & hand_id.is_valid().to_numpy(zero_copy_only=False)
                & (pc.cast(hands.column("outcome"), pa.string()).to_numpy(zero_copy_only=False)
                   != str(Outcome.REJECTED)))
        if not kept.any():
            return ids
        keys = hands.column("hand_key").to_numpy().astype(np.int64)
        numeric = pc.fill_null(pc.match_substring_regex(hand_id, _NUMBER), False).to_numpy(
            zero_copy_only=False)
        sites = site.dictionary_encode()
        code = sites.indices.fill_null(-1).to_numpy(zero_copy_only=False)
        for index, name in enumerate(sites.dictionary.to_pylist()):  # one pass per site, not per hand
            mine = kept & (code == index)
            rows = np.flatnonzero(mine & numeric)
            if len(rows):
                number = pc.cast(hand_id.take(pa.array(rows)), pa.int64()).to_numpy().astype(np.int64)
                ids.numbers.setdefault(name, []).append((number, keys[rows]))
            rows = np.flatnonzero(mine & ~numeric)
            if len(rows):
                ids.texts.setdefault(name, []).append((hand_id.take(pa.array(rows)), keys[rows]))
        return ids

    def __iadd__(self, other: HandIds) -> HandIds:
        """Add the ids of the hands after these (in run order)."""
        for name, pieces in other.numbers.items():
            self.numbers.setdefault(name, []).extend(pieces)
        for name, texts in other.texts.items():
            self.texts.setdefault(name, []).extend(texts)
        return self

    def duplicates(self) -> NDArray[np.int64]:
        """(duplicates,) int64: the ``hand_key`` of every hand whose site and id a hand of a smaller
        key has, ascending."""
        found = [np.zeros(0, np.int64)]
        for pieces in self.numbers.values():
            found.append(_repeats(np.concatenate([ids for ids, _ in pieces]),
                                  np.concatenate([keys for _, keys in pieces])))
        for texts in self.texts.values():
            encoded = pa.chunked_array([ids for ids, _ in texts]).combine_chunks().dictionary_encode()
            found.append(_repeats(encoded.indices.to_numpy().astype(np.int64),
                                  np.concatenate([keys for _, keys in texts])))
        return np.sort(np.concatenate(found))


def _repeats(ids: NDArray[np.int64], keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """The keys of the hands whose id a hand of a smaller key has (shapes (hands,) each)."""
    order = np.lexsort((keys, ids))
    again = ids[order][1:] == ids[order][:-1]
    found: NDArray[np.int64] = keys[order][1:][again]
    return found
