"""PokerStars values as the site writes them: amounts, stakes, times, levels, buy-ins, cards.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sites.pokerstars.lines`, the hands' zones (:mod:`pipeline.hands.times`) and card
codes (:mod:`pipeline.hands.record`), the card notation and the foundation modules, numpy and
pyarrow.

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
from pipeline.formats.sites.pokerstars.lines import ZERO, Bytes, digits, take
from pipeline.hands import times
from pipeline.hands.record import NO_CARD, UNKNOWN_CARD
from pipeline.poker.notation import card_matrix
from pipeline.text import text_lengths

# The bytes of the currency signs an amount may open with.
_SIGNS = [sign.encode() for sign in "$€£¥"]


#: The currency each sign stands for, where the stakes write no code.
SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY"}


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


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def level_number(text: str) -> int | None:
    """A tournament level as written, in roman numerals or digits, as a number; None if neither.

    >>> level_number("IV"), level_number("XIX"), level_number("12"), level_number("?")
    (4, 19, 12, None)
    """
    if text.isdigit():
        return int(text)
    if not text or any(letter not in _ROMAN for letter in text):
        return None
    values = [_ROMAN[letter] for letter in text]
    # A numeral before a greater one is taken away (IV is 4), else added.
    return sum(-value if value < after else value for value, after in zip(values, [*values[1:], 0]))


def buy_in(text: str) -> float:
    """A tournament's buy-in as written, its parts added (``$0.91+$0.09 USD`` is 1.0; a freeroll's 0)."""
    if text == "Freeroll":
        return 0.0
    return float(amounts(pa.array(text.split(" ")[0].split("+"), pa.string())).sum())


def distinct(strings: pa.Array) -> tuple[list[str], NDArray[np.int64]]:
    """The different texts of ``strings`` (each once: stakes, games, levels recur), and the index of
    each string's among them, ``len(texts)`` for a null: ``values[codes]`` with one more value for
    a null is then a value per string."""
    encoded = strings.dictionary_encode()
    texts: list[str] = encoded.dictionary.to_pylist()
    return texts, encoded.indices.fill_null(len(texts)).to_numpy(zero_copy_only=False).astype(np.int64)


def floats(values: NDArray[np.float64]) -> pa.Array:
    """Chips as a float64 column, null where NaN (the text does not say)."""
    return pa.array(values, pa.float64(), mask=np.isnan(values))


def put_cards(holes: NDArray[np.uint8], hand: NDArray[np.int64], slot: NDArray[np.int64],
              cards: pa.Array, dealt: NDArray[np.int64]) -> None:
    """Write the hole cards ``cards`` (texts of one card or more) at each (hand, slot) of ``holes``, a
    (hands, slots, K) uint8 array of card codes whose hand deals a player ``dealt[hand]`` cards: the
    cards seen first, the rest of those dealt unknown.  A text of more cards than the hand deals, or
    that is not cards, writes nothing.

    Texts of each number of cards as the site writes them (``Ah Kd``: two, ``Ah``: one) are read
    apart, so that none meets another's layout (which would send a whole column to
    :func:`card_matrix`'s slow path); the few of another layout are tried as each number."""
    length = text_lengths(cards)
    width = holes.shape[2]
    count = (length + 1) // 3
    laid_out = (length == 3 * count - 1) & (count >= 1) & (count <= width)
    groups = [(cards_seen, np.flatnonzero(laid_out & (count == cards_seen)))
              for cards_seen in range(1, width + 1)]
    other = np.flatnonzero((length > 0) & ~laid_out)
    if len(other):
        groups += [(cards_seen, other) for cards_seen in range(1, width + 1)]
    for cards_seen, rows in groups:
        if not len(rows):
            continue
        codes, _, known = card_matrix(take(cards, rows), cards_seen)
        fits = known & (cards_seen <= dealt[hand[rows]])
        at_hand, at_slot = hand[rows[fits]], slot[rows[fits]]
        holes[at_hand, at_slot, :cards_seen] = codes[fits]
        if cards_seen < width:  # the cards not seen: unknown up to the slot's last, none past it
            holes[at_hand, at_slot, cards_seen:] = np.where(
                np.arange(cards_seen, width) < dealt[at_hand][:, None], UNKNOWN_CARD, NO_CARD)


def board_codes(board: pa.Array) -> NDArray[np.uint8]:
    """(len(board), 5) uint8: each board's cards (texts, "" for none) as codes, NO_CARD past its last
    card, UNKNOWN_CARD for a board that is not cards."""
    codes = np.full((len(board), 5), NO_CARD, dtype=np.uint8)
    count = (text_lengths(board) + 1) // 3
    for cards in range(1, 6):
        rows = np.flatnonzero(count == cards)
        found, _, known = card_matrix(take(board, rows), cards)
        codes[rows, :cards] = np.where(known[:, None], found, UNKNOWN_CARD)
    return codes
