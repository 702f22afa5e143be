"""Card notation: whole columns of cards read from text and written as text.

Layer: pure evaluation (:mod:`pipeline.poker`); imports
:mod:`pipeline.poker.cards` and the foundation module :mod:`pipeline.text`.

This module owns cards written as words separated by spaces ("Ah Kd 2c"),
in bulk and without a loop over rows: reading a column of such text into
card codes (:func:`card_matrix`; :func:`spaced_cards` for one hand a user types),
writing codes into a byte matrix
(:func:`put_cards`) and into an Arrow string column (:func:`cards_text`).
One card alone, and the tables of rank and suit symbols, are
:mod:`pipeline.poker.cards`'.  Ten is written ``T`` (``CARD_BYTES``) or,
in contest files, ``X`` (``CONTEST_CARD_BYTES``); both are read.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.poker import cards
from pipeline.text import string_column, text_matrix

#: Whitespace as ``str.split()`` knows it (RE2's ``\s`` is ASCII only), so that
#: the vectorized parse and a per-row explanation agree on where the cards are.
WHITESPACE = r"[\s\x0b\x1c-\x1f\x85\p{Z}]+"
SEPARATOR = ord(" ")

#: Card code -> its two bytes, ten written T (archives) or X (contest files).
CARD_BYTES = np.frombuffer("".join(cards.CARD_TEXT).encode("ascii"), np.uint8).reshape(cards.DECK_SIZE, 2)
CONTEST_CARD_BYTES = np.frombuffer("".join(cards.CARD_TEXT).replace("T", "X").encode("ascii"),
                                   np.uint8).reshape(cards.DECK_SIZE, 2)


def text_width(count: int) -> int:
    """Bytes of ``count`` cards written with one space between them.

    >>> text_width(2), text_width(5)
    (5, 14)
    """
    return 3 * count - 1


def spaced_cards(text: str) -> str:
    """Cards written with or without spaces, as the readers take them.

    >>> spaced_cards("AhAs"), spaced_cards(" Qs Jh  2c "), spaced_cards("")
    ('Ah As', 'Qs Jh 2c', '')
    """
    packed = "".join(text.split())
    if len(packed) % 2 or "10" in packed:  # not cards of two characters: as written, for the message
        return " ".join(text.split())
    return " ".join(packed[i:i + 2] for i in range(0, len(packed), 2))


def card_matrix(strings: pa.Array | pa.ChunkedArray,
                count: int) -> tuple[NDArray[np.uint8], NDArray[np.bool_], NDArray[np.bool_]]:
    """Parse ``count`` cards separated by single spaces, other whitespace tolerated.

    Parameters
    ----------
    strings : pyarrow string array of length n
    count : int
        Cards each value must hold.

    Returns
    -------
    codes : ndarray of shape (n, count), dtype uint8
        Card codes; 0 where the value is not ``count`` known cards.
    fits : ndarray of shape (n,), dtype bool
        The text has the layout of ``count`` cards.
    known : ndarray of shape (n,), dtype bool
        The text is ``count`` known cards.

    Examples
    --------
    >>> codes, fits, known = card_matrix(pa.array(["Ah Kd", " 2c\\tXs ", "Ah", "Zz Kd"]), 2)
    >>> codes.tolist(), known.tolist()
    ([[50, 45], [0, 35], [0, 0], [0, 0]], [True, True, False, False])
    """
    width = text_width(count)
    matrix, fits = text_matrix(strings, width)
    spaced = _spaced(matrix, fits, count)
    if not spaced.all():
        # Rare slow path: tidy stray, doubled or other whitespace (a tab
        # between cards too), then look again.
        tidy = pc.replace_substring_regex(pc.utf8_trim_whitespace(strings), WHITESPACE, " ")
        matrix, fits = text_matrix(tidy, width)
        spaced = _spaced(matrix, fits, count)
    matrix = np.ascontiguousarray(matrix)
    # Card-major storage: each card's codes are contiguous; returned transposed.
    codes = np.zeros((count, len(fits)), dtype=np.uint8)
    known = spaced
    if not len(fits):
        return codes.T, fits, known
    # Column by column: reductions across a 2-5 wide axis are slow in numpy.
    for card in range(count):
        # A card's two bytes read as one little-endian uint16: one look-up.
        text = np.ndarray((len(fits),), dtype="<u2", buffer=matrix, offset=3 * card, strides=(width,))
        code = cards.CODE_OF_TEXT[text]
        known &= code != cards.INVALID
        codes[card] = code
    codes[:, ~known] = 0
    return codes.T, fits, known


def _spaced(matrix: np.ndarray, fits: np.ndarray, count: int) -> np.ndarray:
    """True where a fitting text has one space between each pair of cards."""
    spaced = fits.copy()
    for card in range(1, count):
        spaced &= matrix[:, 3 * card - 1] == SEPARATOR
    return spaced


def put_cards(matrix: np.ndarray, column: int, codes: np.ndarray, table: np.ndarray,
              end: int | None) -> None:
    """Write cards as text into ``matrix`` from ``column``, separated by spaces.

    Parameters
    ----------
    matrix : ndarray of shape (n, width), dtype uint8
        Written in place.
    column : int
        Where the first card starts.
    codes : ndarray of shape (k, n), integer
        Card-major: ``codes[c]`` is every row's c-th card.
    table : ndarray of shape (52, 2), dtype uint8
        :data:`CARD_BYTES` or :data:`CONTEST_CARD_BYTES`.
    end : int or None
        A byte written after the last card (k cards take 3k - 1 bytes, plus this).
    """
    # Gathering one uint16 per card is three times faster than a (52, 2) row.
    pairs = np.ascontiguousarray(table).view(np.uint16).ravel()
    for c, row in enumerate(codes):
        at = column + 3 * c
        matrix[:, at:at + 2] = pairs[row].view(np.uint8).reshape(-1, 2)
        if c < len(codes) - 1:
            matrix[:, at + 2] = SEPARATOR
        elif end is not None:
            matrix[:, at + 2] = end


def cards_text(codes: np.ndarray, *, present: np.ndarray | None = None) -> pa.StringArray:
    """Rows of card codes as text, ``"Kh Kd Kc 7s 7h"``, without a loop over rows.

    Parameters
    ----------
    codes : ndarray of shape (n, k), integer
        Card codes 0..51.
    present : ndarray of shape (n,), dtype bool, optional
        False where the value is null.

    Examples
    --------
    >>> cards_text(np.array([[51, 50, 0, 1, 2]]), present=np.array([True])).to_pylist()
    ['As Ah 2c 2d 2h']
    >>> cards_text(np.array([[8, 50], [0, 1]]), present=np.array([True, False])).to_pylist()
    ['4c Ah', None]
    """
    codes = np.asarray(codes)
    n, k = codes.shape
    validity = None
    null_count = 0
    if present is not None and not np.all(present):
        validity = pa.py_buffer(np.packbits(present, bitorder="little"))
        null_count = int((~np.asarray(present)).sum())
    if k != _WORD_CARDS:
        matrix = np.empty((n, text_width(k)), dtype=np.uint8)
        put_cards(matrix, 0, np.ascontiguousarray(codes.T), CARD_BYTES, None)
        return string_column(matrix, validity=validity, null_count=null_count)
    # Five cards (a best five, a board) are the common case: a row's 14 bytes
    # are written as three little-endian words, 8 + 4 + 2 bytes ("Kh Kd Kc",
    # " 7s ", "7h"), each looked up by card code.
    words = np.empty(n, dtype=np.dtype([("head", "<u8"), ("middle", "<u4"), ("tail", "<u2")]))
    head, middle, tail = _text_words()
    columns = [np.ascontiguousarray(codes[:, place]) for place in range(k)]
    first = head[0][columns[0]]
    first |= head[1][columns[1]]
    first |= head[2][columns[2]]
    words["head"] = first
    words["middle"] = middle[columns[3]]
    words["tail"] = tail[columns[4]]
    offsets = np.arange(n + 1, dtype=np.int32) * text_width(k)
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(words), validity, null_count)


_WORD_CARDS = 5


@cache
def _text_words() -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Per card code: its share of a row's first 8 bytes in each of three
    places, and the middle (4 bytes) and last (2 bytes) words."""
    text = CARD_BYTES[:, 0].astype(np.uint64) | CARD_BYTES[:, 1].astype(np.uint64) << np.uint64(8)
    space = np.uint64(SEPARATOR)
    head = [text | space << np.uint64(16), (text | space << np.uint64(16)) << np.uint64(24),
            text << np.uint64(48)]
    middle = (space | text << np.uint64(8) | space << np.uint64(24)).astype(np.uint32)
    return head, middle, text.astype(np.uint16)
