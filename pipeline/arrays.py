"""Arrays: pyarrow results as numpy arrays, and numpy over rows grouped by a key.

Layer: foundation; imports nothing of the package, and every layer may import it.

This module owns the small conversions between pyarrow's compute results and
numpy that the vectorized readers share, and that know neither text nor
poker: a boolean result (a match, a comparison) as a numpy mask, its nulls
read as False (:func:`as_mask`).  Helpers that know text (offsets, bytes,
UTF-8) are in :mod:`pipeline.text`.
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
