"""PokerStars values as the site writes them: amounts, stakes, times, levels, buy-ins, cards.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sites.pokerstars.lines`, the hands' zones (:mod:`pipeline.hands.times`) and card
codes (:mod:`pipeline.hands.record`), the card notation and the foundation modules, numpy and
pyarrow.

The values every site writes alike (the currency signs, levels, repeated texts, chips as a column,
cards) are :mod:`pipeline.formats.logs.values`', named here for this package's modules.

This module owns the reading of a field's text once it is found: amounts (:func:`amounts` over
strings, :func:`amounts_at` in the bytes), the blinds (or a button blind) and currency of the
stakes (:func:`stakes`, :data:`SIGNS`), times with their zones (:func:`utc_times`), tournament
levels (:func:`level_number`) and buy-ins (:func:`buy_in`), texts that recur read once
(:func:`distinct`), chips as a column (:func:`floats`), hole cards (one to six a player) and
boards as card codes (:func:`put_cards`, :func:`board_codes`).  Where each field is in its line is
:mod:`~pipeline.formats.sites.pokerstars.fields`'.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask
from pipeline.formats.logs.values import SIGNS, board_codes, distinct, floats, level_number, put_cards
from pipeline.formats.sites.pokerstars.lines import ZERO, Bytes, digits
from pipeline.hands import times

# The bytes of the currency signs an amount may open with.
_SIGNS = [sign.encode() for sign in "$€£¥"]

__all__ = ["SIGNS", "amounts", "amounts_at", "board_codes", "buy_in", "distinct", "floats", "level_number",
           "put_cards", "stakes", "utc_times"]


def stakes(texts: pa.Array,
           pattern: str) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
    """The small and big blinds of each stakes text (``$0.01/$0.02 USD``, ``Level V (40/80)``) as
    ``pattern``'s captures ``small`` and ``big`` read them, or a button-blind game's one blind
    (``Button Blind $0.25 - Ante $0.25  USD``, capture ``button``), read as its big blind with no
    small blind (NaN where it does not say); and the code of its currency (``iso``, or the sign's:
    :data:`SIGNS`; None for none), read once per different text."""
    written, at = distinct(texts)
    found = pc.extract_regex(pa.array(written, pa.string()), pattern)
    small, big = (amounts(found.field(name)) for name in ("small", "big"))
    signed = found.field("small").fill_null("").to_pylist()  # the amount whose sign names the currency
    if found.type.get_field_index("button") >= 0:
        button = found.field("button").fill_null("")
        if pc.any(pc.not_equal(button, "")).as_py():  # a button-blind game's stakes (6+ Hold'em)
            big = np.where(np.isnan(big), amounts(button), big)
            signed = [text or blind for text, blind in zip(signed, button.to_pylist())]
    signs = [SIGNS.get(text[:1]) for text in signed]
    codes = [code or sign for code, sign in zip(found.field("iso").fill_null("").to_pylist(), signs)]
    return (np.append(small, np.nan)[at], np.append(big, np.nan)[at],
            np.array([*codes, None], dtype=object)[at])


def amounts(texts: pa.Array) -> NDArray[np.float64]:
    """Amounts as the format's patterns capture them (``$1,500.25``, ``€0.05``, ``1500``), or empty, or
    null, as float64; NaN where empty or null.

    A sign opens an amount, never is inside it: trimmed, without a regular expression that would
    rewrite every string; all cast at once as they stand (nearly always), else without their
    thousands separators, else each that is an amount.
    """
    plain = pc.utf8_ltrim(texts, characters="$€£¥")
    found = _floats_of(plain)
    if found is None:
        plain = pc.replace_substring(plain, ",", "")
        found = _floats_of(plain)
    if found is not None:
        return found
    fine = as_mask(pc.match_substring_regex(plain, r"^[0-9]+(?:\.[0-9]+)?$"))
    values = np.full(len(texts), np.nan)
    if fine.any():
        values[fine] = pc.cast(plain.filter(pa.array(fine)), pa.float64()).to_numpy(zero_copy_only=False)
    return values


def _floats_of(texts: pa.Array) -> NDArray[np.float64] | None:
    """``texts`` cast to float64 (NaN for a null), None when one of them is not a number."""
    try:
        found: NDArray[np.float64] = pc.cast(texts, pa.float64()).to_numpy(zero_copy_only=False)
    except pa.ArrowInvalid:
        return None
    return found


def amounts_at(text: Bytes, at: NDArray[np.int64]) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """The amount written at each offset ``at`` as ``[$€£¥]?[0-9][0-9,]*(?:\\.[0-9]+)?`` reads it, and
    where it ends: NaN, and ``at``, where none is.  Read in the bytes, a column of them at a time,
    without a string made.

    The digits make one integer, divided by the power of ten of its decimals: the float nearest the
    amount, as a string's cast reads it (to 15 digits).
    """
    begin = at.copy()
    for sign in _SIGNS:  # at most one, of one to three bytes
        signed = text.has(at, sign)
        begin[signed] = at[signed] + len(sign)
    mantissa, decimals = np.zeros(len(at), dtype=np.int64), np.zeros(len(at), dtype=np.int64)
    dotted, length = np.zeros(len(at), dtype=bool), np.zeros(len(at), dtype=np.int64)
    alive = digits(text.bytes[begin])
    found = alive.copy()
    while alive.any():
        byte, after = text.bytes[begin + length], text.bytes[begin + length + 1]
        digit = alive & digits(byte)
        # A separator before the decimal point; a point once, and a digit after it.
        more = digit | (alive & ~dotted & ((byte == ord(",")) | ((byte == ord(".")) & digits(after))))
        mantissa = np.where(digit, 10 * mantissa + byte.astype(np.int64) - ZERO, mantissa)
        decimals += digit & dotted
        dotted |= more & (byte == ord("."))
        length += more
        alive &= more
    values = np.where(found, mantissa / 10.0 ** decimals, np.nan)
    return values, np.where(found, begin + length, at)


_WHEN = r"^(?P<when>[0-9]{4}/[0-9]{1,2}/[0-9]{1,2} [0-9]{1,2}:[0-9]{2}:[0-9]{2}) (?P<zone>[A-Za-z]+)(?: .*)?$"


def utc_times(texts: pa.Array) -> tuple[pa.Array, pa.Array]:
    """Times as a header writes them, ``2012/09/10 19:43:58 ET`` or ``2020/04/16 13:15:42 CET
    [2020/04/16 7:15:42 ET]``, in UTC by the zone written first (:data:`pipeline.hands.times.ZONES`),
    one conversion per zone; and that zone as written.

    Returns
    -------
    times : pyarrow TimestampArray (us, UTC) of len(texts)
        Null where the text is no such time or its zone is not known.  An hour the
        clocks go back over is read as its first passing (the text does not say which).
    zones : pyarrow StringArray of len(texts)
        The zone's name, null where the text is no such time.
    """
    # ET, the site's own and nearly always the zone, read as it stands; the others by the pattern.
    local = pc.strptime(texts, format="%Y/%m/%d %H:%M:%S ET", unit="us", error_is_null=True)
    if local.null_count == 0:
        zones = pa.DictionaryArray.from_arrays(pa.array(np.zeros(len(texts), np.int32)), pa.array(["ET"]))
        return times.utc(local, zones.cast(pa.string())), zones.cast(pa.string())
    found = pc.extract_regex(texts, _WHEN)
    zones = found.field("zone")
    local = pc.strptime(found.field("when"), format="%Y/%m/%d %H:%M:%S", unit="us", error_is_null=True)
    return times.utc(local, zones), zones






def buy_in(text: str) -> float:
    """A tournament's buy-in as written, its parts added (``$0.91+$0.09 USD`` is 1.0; a freeroll's 0)."""
    if text == "Freeroll":
        return 0.0
    return float(amounts(pa.array(text.split(" ")[0].split("+"), pa.string())).sum())







