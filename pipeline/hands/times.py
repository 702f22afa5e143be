"""The time of a recorded hand: a local date and time and the zone the record names, as a UTC timestamp.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model` and pyarrow.

This module owns the zones a hand history's abbreviations stand for
(:data:`ZONES`) and the one conversion every format uses (:func:`utc`):
per distinct zone, never per hand.  A zone the table does not know gives
no time: a local time without its zone is not a moment.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.hands.model import TIME

#: The zones the sites' abbreviations name: a region where its rule for summer time applies (ET
#: is Eastern time, standard or daylight as the date says), a fixed offset where the abbreviation
#: says which of the two it is.
ZONES = {
    "UTC": "UTC", "GMT": "UTC", "Z": "UTC",
    "ET": "America/New_York", "EST": "-05:00", "EDT": "-04:00",
    "CT": "America/Chicago", "CST": "-06:00", "CDT": "-05:00",
    "MT": "America/Denver", "MST": "-07:00", "MDT": "-06:00",
    "PT": "America/Los_Angeles", "PST": "-08:00", "PDT": "-07:00",
    "AT": "America/Halifax", "NT": "America/St_Johns", "BRT": "-03:00", "ART": "-03:00",
    "WET": "+00:00", "WEST": "+01:00", "BST": "+01:00", "CET": "+01:00", "CEST": "+02:00",
    "EET": "+02:00", "EEST": "+03:00", "MSK": "+03:00", "IST": "+05:30", "CCT": "+08:00",
    "HKT": "+08:00", "SGT": "+08:00", "JST": "+09:00", "KST": "+09:00",
    "AWST": "+08:00", "ACST": "+09:30", "AEST": "+10:00", "AEDT": "+11:00", "NZST": "+12:00",
    "NZDT": "+13:00",
}


def utc(local: pa.Array, zones: pa.Array) -> pa.Array:
    """Local times in the zones named, as UTC timestamps; null where the zone is unknown or absent.

    Parameters
    ----------
    local : pyarrow.Array of n timestamps without a zone
        The time as the record writes it.
    zones : pyarrow.Array of n strings
        The zone of each, as written (``ET``); looked up in :data:`ZONES`.

    Returns
    -------
    pyarrow.Array of n ``timestamp[us, tz=UTC]``

    Examples
    --------
    >>> import datetime as dt
    >>> local = pa.array([dt.datetime(2012, 9, 10, 19, 43, 58), dt.datetime(2012, 1, 10, 19, 43, 58),
    ...                   dt.datetime(2020, 4, 16, 13, 15, 42)])
    >>> [str(t) for t in utc(local, pa.array(["ET", "ET", "CET"])).to_pylist()]
    ['2012-09-10 23:43:58+00:00', '2012-01-11 00:43:58+00:00', '2020-04-16 12:15:42+00:00']
    >>> utc(local, pa.array(["XYZ", None, "UTC"])).to_pylist()[:2]
    [None, None]
    """
    local = pc.cast(local, pa.timestamp("us"))
    micros = np.zeros(len(local), dtype=np.int64)
    known = np.zeros(len(local), dtype=bool)
    encoded = pc.cast(zones, pa.string()).dictionary_encode()
    codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
    for code, name in enumerate(encoded.dictionary.to_pylist()):
        zone = ZONES.get(str(name).strip())
        if zone is None:
            continue
        rows = np.flatnonzero((codes == code) & local.is_valid().to_numpy(zero_copy_only=False))
        placed = pc.assume_timezone(local.take(pa.array(rows, pa.int64())), timezone=zone,
                                    ambiguous="earliest", nonexistent="earliest")
        micros[rows] = placed.cast(pa.int64()).to_numpy(zero_copy_only=False)
        known[rows] = True
    return pa.array(micros, TIME, mask=~known)
