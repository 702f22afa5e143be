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

from typing import Any

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


def across(ufunc: np.ufunc, values: NDArray[Any]) -> NDArray[Any]:
    """``ufunc.reduce(values, axis=1)`` a column at a time, for an ufunc blind to order (max, or).

    numpy reduces a short last axis (the seats, the board) row by row, a
    call for each row; a column at a time takes a call for each column.

    >>> across(np.maximum, np.array([[1., 5., 2.], [7., 3., np.nan]])).tolist()
    [5.0, nan]
    """
    out = values[:, 0].copy()
    for column in range(1, values.shape[1]):
        ufunc(out, values[:, column], out=out)
    return out


def running_max(values: NDArray[np.float64], segment: NDArray[np.integer]) -> NDArray[np.float64]:
    """The maximum of each value's segment so far, itself included; NaN is the largest.

    Each pass doubles the span taken in, so that a segment of k values takes
    log2(k) passes over the whole array, whatever the number of segments.

    Parameters
    ----------
    values : ndarray of shape (n,), dtype float64
    segment : ndarray of shape (n,), integer
        Non-decreasing: the members of a segment are contiguous.

    Returns
    -------
    ndarray of shape (n,), dtype float64

    Examples
    --------
    >>> running_max(np.array([1., 5., 2., 7., 3., np.nan, 4.]), np.array([0, 0, 0, 1, 1, 2, 2])).tolist()
    [1.0, 5.0, 5.0, 7.0, 7.0, nan, nan]
    """
    running = values.copy()
    step = 1
    while step < len(values):
        same = segment[step:] == segment[:-step]
        if not same.any():
            break
        running[step:] = np.where(same, np.maximum(running[step:], running[:-step]), running[step:])
        step *= 2
    return running


def masked(values: NDArray[Any], kind: pa.DataType, mask: NDArray[np.bool_] | None = None) -> pa.Array:
    """``pa.array(values, kind, mask=mask)`` for numbers or booleans, built from their buffers.

    pa.array reads a mask item by item (95,000 values: 0.23 ms, holding the interpreter's lock
    that the other scoring threads wait for); a validity bitmap packed by numpy takes 0.05 ms.
    Values of another numpy type than ``kind``'s, or of a kind that is not a number nor a
    boolean, are left to pa.array.

    Parameters
    ----------
    values : ndarray of shape (n,)
        Of ``kind``'s numpy type (int8 for ``pa.int8()``, bool for ``pa.bool_()``, ...).
    kind : pyarrow.DataType
    mask : ndarray of shape (n,), dtype bool, optional
        Where the result is null.

    >>> masked(np.array([1, 2, 3], np.int8), pa.int8(), np.array([False, True, False])).to_pylist()
    [1, None, 3]
    >>> masked(np.array([True, False]), pa.bool_(), np.array([True, False])).to_pylist()
    [None, False]
    """
    numeric = pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)
    if not numeric or values.ndim != 1 or values.dtype != np.dtype(kind.to_pandas_dtype()):
        return pa.array(values, kind, mask=mask)
    count = len(values)
    validity, nulls = None, 0
    if mask is not None:
        valid = ~np.asarray(mask, dtype=bool)
        nulls = count - int(np.count_nonzero(valid))
        if nulls:
            validity = pa.py_buffer(np.packbits(valid, bitorder="little"))
    # Arrow's booleans are bits, as its validity is.
    data = np.packbits(values, bitorder="little") if pa.types.is_boolean(kind) else \
        np.ascontiguousarray(values)
    return pa.Array.from_buffers(kind, count, [validity, pa.py_buffer(data)], nulls)


def segment_starts(segment: NDArray[np.integer]) -> NDArray[np.intp]:
    """For each member of a non-decreasing ``segment``, the index of its segment's first member.

    >>> segment_starts(np.array([0, 0, 3, 3, 3, 4])).tolist()
    [0, 0, 2, 2, 2, 5]
    """
    n = len(segment)
    first = np.ones(n, dtype=bool)
    first[1:] = segment[1:] != segment[:-1]
    starts: NDArray[np.intp] = np.maximum.accumulate(np.where(first, np.arange(n), 0)) if n else \
        np.zeros(0, np.intp)
    return starts


#: The sums of :func:`segment_cumsum` are exact, in any order, when every value is a whole number
#: of 2**-16 (chips of 1, 0.5, 0.25, ...) and the total of their sizes is below 2**53 of those units.
_EXACT_UNIT = 2.0 ** 16
_EXACT_TOTAL = 2.0 ** (53 - 16)


def _sums_exact(values: NDArray[np.float64]) -> bool:
    """Whether every sum of ``values`` is exact in float64, whatever the order (see :data:`_EXACT_UNIT`).

    A negative zero is refused too: a loop that starts from it keeps its sign, a difference of
    running sums does not.
    """
    units = values * _EXACT_UNIT
    return bool(np.abs(values).sum() < _EXACT_TOTAL and (units == np.floor(units)).all()
                and not (np.signbit(values) & (values == 0)).any())


def segment_cumsum(values: NDArray[np.float64], segment: NDArray[np.integer], *,
                   inclusive: bool = True) -> NDArray[np.float64]:
    """The running sum of each value's segment (``segment`` non-decreasing), itself included or not.

    >>> segment_cumsum(np.array([1., 2., 3., 4.]), np.array([0, 0, 1, 1])).tolist()
    [1.0, 3.0, 3.0, 7.0]
    >>> segment_cumsum(np.array([1., 2., 3., 4.]), np.array([0, 0, 1, 1]), inclusive=False).tolist()
    [0.0, 1.0, 0.0, 3.0]
    >>> segment_cumsum(np.array([.1, .2, .3, .4]), np.array([0, 0, 1, 1])).tolist()
    [0.1, 0.30000000000000004, 0.3, 0.7]
    """
    if not len(values):
        return values.astype(np.float64)
    values = np.asarray(values, dtype=np.float64)
    starts = segment_starts(segment)
    if _sums_exact(values):
        # Exact sums (whole chips, halves, ...): one running sum over the whole array, less its
        # value before each segment, is bit for bit the sum a loop over the segment makes.
        whole = np.cumsum(values)
        through: NDArray[np.float64] = whole - (whole[starts] - values[starts])
        if inclusive:
            return through
        return through - values
    # Summed within each segment, as a loop over it would: a running sum over the whole array
    # less its value before the segment would carry the rounding of every segment before.
    row = np.cumsum(starts == np.arange(len(values))) - 1
    column = np.arange(len(values)) - starts
    table = np.zeros((int(row[-1]) + 1, int(column.max()) + 1))
    table[row, column] = values
    running: NDArray[np.float64] = np.cumsum(table, axis=1)[row, column]
    if inclusive:
        return running
    before = np.zeros(len(values))
    before[1:] = np.where(column[1:] > 0, running[:-1], 0.0)  # the sum through the member before
    return before
