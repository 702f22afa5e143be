"""Arrays: pyarrow results as numpy arrays, and numpy over rows grouped by a key.

Layer: foundation; imports nothing of the package, and every layer may import it.

This module owns the small conversions between pyarrow's compute results and
numpy that the vectorized readers share, and that know neither text nor
poker: a boolean result (a match, a comparison) as a numpy mask, its nulls
read as False (:func:`as_mask`), and the first of the rows of each group
(the lines of a hand, say) when the rows come group by group
(:func:`first_per`).  Helpers that know text (offsets, bytes, UTF-8) are in
:mod:`pipeline.text`.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray


def as_mask(flags: pa.Array | pa.ChunkedArray) -> NDArray[np.bool_]:
    """A boolean pyarrow array as a numpy mask, a null read as False.

    A kernel's answer for a null input (a match on a missing value) is null:
    as a mask, it selects nothing.

    Parameters
    ----------
    flags : pyarrow boolean Array or ChunkedArray of length n
        Nulls allowed.

    Returns
    -------
    mask : ndarray of shape (n,), dtype bool

    Examples
    --------
    >>> as_mask(pa.array([True, None, False])).tolist()
    [True, False, False]
    >>> as_mask(pa.chunked_array([[True], [], [None, True]], pa.bool_())).tolist()
    [True, False, True]
    """
    if isinstance(flags, pa.ChunkedArray):
        flags = flags.combine_chunks()
    if flags.null_count:  # filling costs as much as the test itself: only when needed
        flags = pc.fill_null(flags, False)
    mask: NDArray[np.bool_] = flags.to_numpy(zero_copy_only=False).astype(bool, copy=False)
    return mask


def first_per(groups: NDArray[np.integer], count: int, values: NDArray[np.integer], fill: int = -1
              ) -> NDArray[np.int64]:
    """For each group ``0 .. count - 1``, the value of its first member; ``fill`` for a group without one.

    One pass, no sort: the members come group by group (``groups`` ascending), so a
    group's first member is where the group changes.

    Parameters
    ----------
    groups : ndarray of shape (n,), integer dtype
        The group of each member, ascending, each in ``0 .. count - 1``.
    count : int
        The number of groups.
    values : ndarray of shape (n,), integer dtype
        The value of each member (its row, say).
    fill : int, default -1
        The value of a group that has no member.

    Returns
    -------
    first : ndarray of shape (count,), dtype int64

    Examples
    --------
    The first line of each of four hands, from the lines that start with a word (hand 2 has none):

    >>> first_per(np.array([0, 0, 1, 3, 3]), 4, np.array([2, 5, 9, 20, 21])).tolist()
    [2, 9, -1, 20]
    """
    out = np.full(count, fill, dtype=np.int64)
    if len(groups):
        first = np.flatnonzero(np.concatenate([[True], groups[1:] != groups[:-1]]))
        out[groups[first]] = values[first]
    return out
