"""Ranges: runs of consecutive integers laid end to end, the index of many variable-length lists at once.

Layer: foundation; imports nothing of the package, and every layer may import it.

This module owns the one numpy idiom the vectorized readers and the equity
enumeration share: turning a list of runs (where each starts, how long each
is) into the flat positions of all their items, without a Python loop.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def ranges(first: NDArray[np.int64], counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """``first[0], first[0] + 1, ...`` (``counts[0]`` of them), then the same from ``first[1]``, ..., flat.

    Parameters
    ----------
    first : ndarray of shape (runs,), dtype int64
        Where each run starts.
    counts : ndarray of shape (runs,), dtype int64
        How many integers each run holds, 0 or more.

    Returns
    -------
    ndarray of shape (counts.sum(),), dtype int64

    >>> ranges(np.array([10, 3, 7]), np.array([2, 0, 3])).tolist()
    [10, 11, 7, 8, 9]
    """
    ends = np.cumsum(counts)
    # Each item's position in the flat output, shifted by its run's start minus the run's offset.
    index: NDArray[np.int64] = np.arange(ends[-1] if len(ends) else 0, dtype=np.int64) \
        + np.repeat(first - (ends - counts), counts)
    return index
