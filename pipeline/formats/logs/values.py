"""Values as the sites write them: amounts in any locale, currencies, cards, times, levels.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the hands' zones (:mod:`pipeline.hands.times`)
and card codes (:mod:`pipeline.hands.record`), the card notation and the foundation modules, numpy and
pyarrow.

This module owns the reading of a field's text once a site's pattern has found it, the same for every
site: amounts however written (:func:`amounts`: ``$1,500.25``, ``0.50€``, ``1 500 $``, ``0,50€``,
``$0.10 USD``), the currency an amount or stakes text names (:func:`currencies`, :data:`SIGNS`), times
in UTC by their zone (:func:`utc_times`), tournament levels (:func:`level_number`) and buy-ins
(:func:`buy_ins`), texts that recur read once (:func:`distinct`), chips as a column (:func:`floats`),
and hole cards and boards as card codes (:func:`tidy_cards`, :func:`put_cards`, :func:`board_codes`).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask
from pipeline.hands import times
from pipeline.hands.record import NO_CARD, UNKNOWN_CARD
from pipeline.poker.notation import card_matrix
from pipeline.text import text_lengths

#: The currency each sign stands for, where a text writes no code.
SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY", "₹": "INR"}
# What an amount's text may hold besides its digits and separators: signs, codes, spaces (a
# no-break space or a narrow one among them, as localised thousands separators are).
_NOT_NUMBER = r"[^0-9.,]+"
_ENDS = "$€£¥₹ \u00a0\u202f"
_CODE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # of a currency's code written after an amount ("0.10 USD")
# Separators: "1,500.25" (commas for thousands), "1.500,25" or "0,50" (a decimal comma: one or two
# digits after the last comma), "1 500" (spaces, gone with the signs).
_THOUSANDS_COMMAS = r"^[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?$"
_DECIMAL_COMMA = r"^(?:[0-9]{1,3}(?:\.[0-9]{3})+|[0-9]+),[0-9]{1,2}$"
_NUMBER = r"^[0-9]+(?:\.[0-9]+)?$"


def amounts(texts: pa.Array) -> NDArray[np.float64]:
    """Amounts as a site writes them, as float64: NaN where a text is null, empty or no amount.

    A sign or code before or after the digits, spaces and no-break spaces among them, commas for
    thousands, or a decimal comma (one or two digits after the last comma: ``0,50``, ``1.500,5``;
    three are thousands: ``1,500``).  All are cast at once as they stand when they can be (nearly
    always), else each by its separators.

    >>> texts = ["$1,500.25", "0.50€", "1 500 $", "0,50€", "$0.10 USD", "", None, "1.500,5"]
    >>> amounts(pa.array(texts)).tolist()
    [1500.25, 0.5, 1500.0, 0.5, 0.1, nan, nan, 1500.5]
    """
    # Nearly always a sign, a currency's code or spaces at the ends alone: trimmed, then cast at once.
    trimmed = pc.utf8_trim(texts, characters=_ENDS + _CODE_LETTERS)
    found = _floats_of(trimmed)
    if found is not None:
        return found
    # Else most are still: those cast at once, the others (a comma, a space inside) read apart.
    number = as_mask(pc.match_substring_regex(trimmed, _NUMBER))
    other = ~number & as_mask(pc.greater(pc.binary_length(trimmed), 0))
    values = np.full(len(texts), np.nan)
    if number.any():
        cast = pc.cast(trimmed.filter(pa.array(number)), pa.float64())
        values[number] = cast.to_numpy(zero_copy_only=False)
    if other.any():
        values[other] = _separated(texts.filter(pa.array(other)))
    return values


def _separated(texts: pa.Array) -> NDArray[np.float64]:
    """:func:`amounts` of texts whose digits are separated (by commas, points, spaces), each by its
    separators."""
    plain = pc.replace_substring_regex(texts.cast(pa.large_string()), _NOT_NUMBER, "")
    found = _floats_of(plain)
    if found is not None:
        return found
    commas = pc.match_substring_regex(plain, _THOUSANDS_COMMAS)
    decimal = pc.match_substring_regex(plain, _DECIMAL_COMMA)
    pointed = pc.replace_substring(pc.replace_substring(plain, ".", ""), ",", ".")
    plain = pc.if_else(commas, pc.replace_substring(plain, ",", ""), pc.if_else(decimal, pointed, plain))
    fine = as_mask(pc.match_substring_regex(plain, _NUMBER))
    values = np.full(len(texts), np.nan)
    if fine.any():
        values[fine] = pc.cast(plain.filter(pa.array(fine)), pa.float64()).to_numpy(zero_copy_only=False)
    return values


def _floats_of(texts: pa.Array) -> NDArray[np.float64] | None:
    """``texts`` cast to float64 (NaN for a null or an empty text), None when one is not a number."""
    try:
        present = pc.if_else(pc.equal(texts, ""), pa.scalar(None, texts.type), texts)
        found: NDArray[np.float64] = pc.cast(present, pa.float64()).to_numpy(zero_copy_only=False)
    except pa.ArrowInvalid:
        return None
    return found


def currencies(texts: pa.Array) -> pa.Array:
    """The currency code each text names (``USD`` of ``$0.10 USD``, ``EUR`` of ``0.50€``): a code of
    three capitals as written, else the sign's (:data:`SIGNS`); null for none (tournament chips).
    Read once per different text.

    >>> currencies(pa.array(["$0.10 USD", "0.50€", "1500", None])).to_pylist()
    ['USD', 'EUR', None, None]
    """
    written, at = distinct(texts)
    codes = []
    for text in written:
        code = next((word for word in str(text).replace("(", " ").replace(")", " ").split()
                     if len(word) == 3 and word.isalpha() and word.isupper()), None)
        codes.append(code or next((name for sign, name in SIGNS.items() if sign in str(text)), None))
    return pa.array([*codes, None], pa.string()).take(pa.array(at))


def utc_times(texts: pa.Array, zones: pa.Array, formats: tuple[str, ...]) -> pa.Array:
    """Times as a site writes them (``texts``, read by the first of the strptime ``formats`` that
    reads each), in UTC by the zone written (``zones``, :data:`pipeline.hands.times.ZONES`); null
    where the text is no such time or the zone is none or not known (a local time without its zone
    is not a moment)."""
    local = pa.nulls(len(texts), pa.timestamp("us"))
    for form in formats:
        if local.null_count == 0:
            break
        read = pc.strptime(texts.cast(pa.string()), format=form, unit="us", error_is_null=True)
        local = pc.coalesce(local, read)
    return times.utc(local, zones.cast(pa.string()))


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


def buy_ins(texts: pa.Array) -> NDArray[np.float64]:
    """Tournament buy-ins as written, their parts added (``$0.91+$0.09`` is 1.0, ``4.50€ + 0.50€``
    5.0; ``Freeroll`` 0), NaN where none is written; read once per different text."""
    written, at = distinct(texts)
    total = []
    for text in written:
        if str(text).strip().lower() == "freeroll":
            total.append(0.0)
            continue
        parts = amounts(pa.array(str(text).split("+"), pa.string()))
        total.append(float(parts.sum()) if len(parts) and not np.isnan(parts).any() else np.nan)
    return np.array([*total, np.nan])[at]


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


def tidy_cards(cards: pa.Array) -> pa.Array:
    """Cards as sites write them (``Ah Kd``, `` Tc, Kh ``, ``10d``; ``AhKd`` is not one) as ``Ah Kd``:
    commas and runs of spaces one space, none at the ends, a ten ``T``.

    >>> tidy_cards(pa.array([" Tc, Kh ", "Ah Kd", None, "10d 9s"])).to_pylist()
    ['Tc Kh', 'Ah Kd', None, 'Td 9s']
    """
    spaced = pc.replace_substring_regex(cards.cast(pa.large_string()), r"[ ,]+", " ")
    if pc.any(pc.match_substring(spaced, "10")).as_py():
        spaced = pc.replace_substring_regex(spaced, r"\b10([cdhs])\b", r"T\1")
    return pc.utf8_trim(spaced, characters=" ")


def _take(array: pa.Array, rows: np.ndarray) -> pa.Array:
    """The items of ``array`` at ``rows`` (numpy integers)."""
    return array.take(pa.array(rows, pa.int64()))


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
        codes, _, known = card_matrix(_take(cards, rows), cards_seen)
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
        found, _, known = card_matrix(_take(board, rows), cards)
        codes[rows, :cards] = np.where(known[:, None], found, UNKNOWN_CARD)
    return codes


#: An amount as a site's text writes it, for the sites' patterns: a sign before or after it, digits
#: in groups a separator apart ("1,500.25", "1 500", "0,50").  A code after it ("USD") is the
#: site's pattern's to allow.
AMOUNT = r"(?:[$€£¥₹] ?)?[0-9]+(?:[.,\x{a0}\x{202f} ][0-9]+)*(?: ?[$€£¥₹])?"
