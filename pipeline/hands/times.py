"""The time of a recorded hand: a local date and time and the zone the record names, as a UTC timestamp.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model` and pyarrow.

This module owns the zones a hand history's abbreviations stand for
(:data:`ZONES`) and the one conversion every format uses (:func:`utc`):
per distinct zone, never per hand.  A zone the table does not know gives
no time: a local time without its zone is not a moment.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.hands.model import TIME

#: The zones the sites' abbreviations name, as the time zone database names them.  A site may
#: write one name all year round (PokerStars: ET for EST and EDT, CET for CEST): such a name is a
#: region with its summer time.  A name that says which of the two it is (EDT, CEST) is the
#: region too: the date then gives the same offset.
ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "CST": "America/Chicago", "CDT": "America/Chicago",
    "MT": "America/Denver", "MST": "America/Denver", "MDT": "America/Denver",
    "PT": "America/Los_Angeles", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
    "AT": "America/Halifax", "NT": "America/St_Johns", "AKT": "America/Anchorage", "HT": "Pacific/Honolulu",
    "BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires", "WET": "Europe/Lisbon",
    "WEST": "Europe/Lisbon", "BST": "Europe/London", "CET": "Europe/Paris", "CEST": "Europe/Paris",
    "EET": "Europe/Bucharest", "EEST": "Europe/Bucharest", "MSK": "Europe/Moscow", "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai", "HKT": "Asia/Hong_Kong", "SGT": "Asia/Singapore", "JST": "Asia/Tokyo",
    "KST": "Asia/Seoul", "AWST": "Australia/Perth", "ACST": "Australia/Adelaide", "AEST": "Australia/Sydney",
    "AEDT": "Australia/Sydney", "NZT": "Pacific/Auckland", "NZST": "Pacific/Auckland",
    "NZDT": "Pacific/Auckland", "GMT": "UTC", "UTC": "UTC", "Z": "UTC",
}


@cache
def zone_known(zone: str) -> bool:
    """Whether the time zone database Arrow reads knows ``zone`` (a system may have none)."""
    try:
        pc.assume_timezone(pa.array([0], pa.timestamp("us")), timezone=zone)
    except pa.ArrowInvalid:
        return False
    return True


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
    ['2012-09-10 23:43:58+00:00', '2012-01-11 00:43:58+00:00', '2020-04-16 11:15:42+00:00']
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
        if zone is None or not zone_known(zone):
            continue
        rows = np.flatnonzero((codes == code) & local.is_valid().to_numpy(zero_copy_only=False))
        placed = pc.assume_timezone(local.take(pa.array(rows, pa.int64())), timezone=zone,
                                    ambiguous="earliest", nonexistent="earliest")
        micros[rows] = placed.cast(pa.int64()).to_numpy(zero_copy_only=False)
        known[rows] = True
    return pa.array(micros, TIME, mask=~known)
