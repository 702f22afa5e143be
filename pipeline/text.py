"""Text: Arrow string columns as numpy bytes, and input text as messages show it.

Layer: foundation; imports nothing of the package, and every layer may import it.

This module owns the plumbing between pyarrow's string arrays and the
vectorized parsers: the offsets and bytes of a column without a copy
(:func:`offsets_and_data`), each value's length (:func:`text_lengths`), a
column of fixed-width values as a byte matrix (:func:`text_matrix`), a byte matrix
as a column (:func:`string_column`), pieces of one text as a column (:func:`spans`); raw
bytes as UTF-8 text: whether they are (:func:`is_utf8`), where they are not
(:func:`utf8_faults`), and each byte that is not replaced by ``?`` with the lines that held
one (:func:`repair_utf8`); and how a message shows a piece of input: quoted or not, escaped
and cut short (:func:`shown`, :func:`escaped`), and a list of names cut to the first few and
a count (:func:`listed`), so that every message stays one short line.  Card and hand parsers
in the game modules, and the readers of every format, build on these; nothing here knows a
game or a format.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from functools import lru_cache
from typing import overload

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray


def shown(text: str, limit: int | None = 40, *, quote: bool = True) -> str:
    """Input text as a message shows it: quoted, escaped and cut short when long.

    A hostile field can be megabytes long, and a value or a path may hold a
    line break, a terminal's escape sequence or bytes that are not text; a
    message naming it stays one short line that any terminal prints.
    Unquoted (a path, a number), characters that do not print are escaped
    as ``repr`` escapes them (``\\n``, ``\\x1b``, ``\\udcff``); quoted, the
    text is its ``repr``, which escapes the same.  ``limit=None`` never cuts.

    >>> shown("AAQ"), shown("A" * 50, limit=5), shown("A" * 50, limit=5, quote=False)
    ("'AAQ'", "'AAAAA'... (50 characters)", 'AAAAA... (50 characters)')
    >>> shown("new\\nline.csv", quote=False), shown("tab\\there")
    ('new\\\\nline.csv', "'tab\\\\there'")
    """
    if limit is None or len(text) <= limit:
        return repr(text) if quote else escaped(text)
    head = text[:limit]
    return f"{repr(head) if quote else escaped(head)}... ({len(text):,} characters)"


def escaped(text: str) -> str:
    """``text`` with every character that does not print escaped, as ``repr`` would, unquoted.

    Spaces stay; line breaks, tabs, control and format characters, lone
    surrogates (a file name's bytes that are not UTF-8) become escapes, so
    the text is one line and can always be written to a terminal.

    >>> escaped("a\\nb\\x1b[31m c"), escaped("é ok")
    ('a\\\\nb\\\\x1b[31m c', 'é ok')
    """
    if text.isprintable():
        return text
    return "".join(character if character.isprintable() or character == " " else repr(character)[1:-1]
                   for character in text)


def listed(names: Iterable[object], limit: int = 3) -> str:
    """Names joined by commas, the first ``limit`` only and then a count: a list in one short line.

    >>> listed(["a.csv", "b.csv"]), listed(f"f{i}" for i in range(6000))
    ('a.csv, b.csv', 'f0, f1, f2 and 5,997 more')
    """
    items = [shown(str(name), 80, quote=False) for name in names]
    head = ", ".join(items[:limit])
    return head if len(items) <= limit else f"{head} and {len(items) - limit:,} more"


def offsets_and_data(
        strings: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The offsets, data bytes and validity (None: no nulls) of a string array, zero-copy."""
    if isinstance(strings, pa.ChunkedArray):
        strings = strings.combine_chunks()
    offset_type: type[np.int32] | type[np.int64]
    if pa.types.is_string(strings.type) or pa.types.is_binary(strings.type):
        offset_type = np.int32
    elif pa.types.is_large_string(strings.type) or pa.types.is_large_binary(strings.type):
        offset_type = np.int64
    else:
        strings = pc.cast(strings, pa.large_string())
        offset_type = np.int64
    n = len(strings)
    _, offsets_buffer, data_buffer = strings.buffers()[:3]
    offsets = np.frombuffer(offsets_buffer, dtype=offset_type)[strings.offset:strings.offset + n + 1]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    valid = strings.is_valid().to_numpy(zero_copy_only=False) if strings.null_count else None
    return offsets, data, valid


def text_lengths(strings: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """Length in bytes of each string, -1 for a null.

    >>> text_lengths(pa.array(["Ah Kd", "", None])).tolist()
    [5, 0, -1]
    """
    offsets, _, valid = offsets_and_data(strings)
    lengths = np.diff(offsets).astype(np.int64)
    if valid is not None:
        lengths[~valid] = -1
    return lengths


def text_matrix(strings: pa.Array | pa.ChunkedArray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """View a column of short strings as a byte matrix, without a row loop.

    Parameters
    ----------
    strings : pyarrow string array of length n
        Nulls allowed.
    width : int
        The length a valid value has, in bytes.

    Returns
    -------
    matrix : ndarray of shape (n, width), dtype uint8
        The bytes of each value whose length is ``width``; zeros elsewhere.
        May be a read-only view of the array's own buffer.
    fits : ndarray of shape (n,), dtype bool
        True where the value is not null and has exactly ``width`` bytes.
    """
    offsets, data, valid = offsets_and_data(strings)
    n = len(offsets) - 1
    fits = np.diff(offsets) == width
    if valid is not None:
        fits &= valid
    if not fits.any():
        return np.zeros((n, width), dtype=np.uint8), fits
    if n and fits.all() and offsets[-1] - offsets[0] == n * width:
        # Every value has the width and they lie back to back: the buffer
        # already is the matrix.
        return data[offsets[0]:offsets[-1]].reshape(n, width), fits
    starts = np.where(fits, offsets[:-1], offsets[:-1][fits][0])
    matrix = data[starts[:, None] + np.arange(width)]
    matrix[~fits] = 0
    return matrix, fits


@lru_cache(maxsize=8)
def _fixed_offsets(n: int, width: int) -> pa.Buffer:
    return pa.py_buffer(np.arange(0, (n + 1) * width, width, dtype=np.int32))


def string_column(matrix: np.ndarray, *, validity: pa.Buffer | None = None,
                  null_count: int = 0) -> pa.StringArray:
    """A string array of the rows of a fixed-width byte matrix, without copying them.

    Parameters
    ----------
    matrix : ndarray of shape (n, width), dtype uint8
    validity : pyarrow Buffer, optional
        A validity bitmap (bit i clear: row i is null), with ``null_count`` nulls.

    >>> string_column(np.frombuffer(b"AhKd", np.uint8).reshape(2, 2)).to_pylist()
    ['Ah', 'Kd']
    """
    n, width = matrix.shape
    data = np.ascontiguousarray(matrix)
    offsets = _fixed_offsets(n, width) if n else pa.py_buffer(np.zeros(1, np.int32))
    return pa.StringArray.from_buffers(n, offsets, pa.py_buffer(data), validity, null_count)


def spans(text: pa.Buffer, start: NDArray[np.integer], end: NDArray[np.integer],
          present: NDArray[np.bool_] | None = None) -> pa.LargeStringArray:
    """Pieces of one text as strings: the text from each ``start`` to its ``end`` (excluded).

    The pieces come in order and do not overlap, so that they and the text
    between them are one array over the text's own buffer, without a copy
    (piece i its item 2i, the gap after it item 2i + 1); one ``take`` of the
    even items then copies the pieces' bytes, and only theirs.

    Parameters
    ----------
    text : pyarrow Buffer
        UTF-8 text; each piece starts and ends between characters.
    start, end : ndarray of shape (n,), integer dtype
        Byte offsets in ``text``; ``start[i] <= end[i] <= start[i + 1]`` where present.
    present : ndarray of shape (n,), dtype bool, optional
        Where a piece is; its row is null elsewhere (``start`` and ``end`` not read there).

    Returns
    -------
    pieces : pyarrow LargeStringArray of length n

    Examples
    --------
    >>> text = pa.py_buffer(b"Seat 1: Ann (100 in chips)")
    >>> spans(text, np.array([8, 13]), np.array([11, 16])).to_pylist()
    ['Ann', '100']
    >>> present = np.array([True, False, True])
    >>> spans(text, np.array([0, 0, 8]), np.array([4, 0, 11]), present=present).to_pylist()
    ['Seat', None, 'Ann']
    """
    start, end = np.asarray(start, dtype=np.int64), np.asarray(end, dtype=np.int64)
    if present is not None:
        start, end = start[present], end[present]
    count = len(start)
    offsets = np.empty(2 * count + 1, dtype=np.int64)
    offsets[0:2 * count:2], offsets[1::2] = start, end
    offsets[-1] = end[-1] if count else 0
    both = pa.Array.from_buffers(pa.large_string(), 2 * count, [None, pa.py_buffer(offsets), text])
    index = np.arange(0, 2 * count, 2, dtype=np.int64)
    if present is None:
        return both.take(pa.array(index))
    rows = np.zeros(len(present), dtype=np.int64)
    rows[present] = index
    return both.take(pa.array(rows, mask=~present))


def is_utf8(data: bytes | bytearray | memoryview | NDArray[np.uint8]) -> bool:
    """Whether bytes are well-formed UTF-8: one validation in C++ over the whole buffer, no copy.

    Many times faster than decoding them in Python when they are not ASCII.

    Parameters
    ----------
    data : bytes-like of n bytes, or ndarray of shape (n,), dtype uint8, contiguous

    >>> is_utf8("né".encode()), is_utf8(b"n\\xe9"), is_utf8(b"")
    (True, False, True)
    """
    bounds = pa.py_buffer(np.array([0, len(data)], dtype=np.int64))
    whole = pa.Array.from_buffers(pa.large_binary(), 1, [None, bounds, pa.py_buffer(data)])
    try:
        whole.cast(pa.large_string())
    except pa.ArrowInvalid:
        return False
    return True


def _question_marks(error: UnicodeError) -> tuple[str, int]:
    """A decoding error handler: each byte that is not UTF-8 becomes a ``?``."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return "?" * (error.end - error.start), error.end


_QUESTION_MARKS = "pokerpipe.text.question_marks"
codecs.register_error(_QUESTION_MARKS, _question_marks)


@overload
def repair_utf8(data: bytes) -> tuple[bytes, NDArray[np.int64]]: ...
@overload
def repair_utf8(data: bytearray) -> tuple[bytearray | bytes, NDArray[np.int64]]: ...
@overload
def repair_utf8(data: NDArray[np.uint8]) -> tuple[NDArray[np.uint8] | bytes, NDArray[np.int64]]: ...
def repair_utf8(data: bytes | bytearray | NDArray[np.uint8]
                ) -> tuple[bytes | bytearray | NDArray[np.uint8], NDArray[np.int64]]:
    """Text with each byte that is not UTF-8 replaced by ``?``, and the lines that held one.

    A byte is replaced when no well-formed sequence holds it (what Python's
    decoder reports, byte for byte), so the text keeps its length and every
    offset in it, and a ``\\n``, ASCII, is never replaced.  Well-formed text
    is checked once (:func:`is_utf8`) and returned as it is, the same object;
    other text is decoded once, never once per fault.

    Parameters
    ----------
    data : bytes or bytearray of n bytes, or ndarray of shape (n,), dtype uint8, contiguous

    Returns
    -------
    text : the same object, or bytes of n bytes
        Well-formed UTF-8.
    bad_lines : ndarray of shape (lines,), dtype int64
        The lines (from 0, counted by ``\\n``) that held a replaced byte, ascending, each once.

    Examples
    --------
    "né" in UTF-8, then in cp1252 (0xE9 starts a three-byte sequence that never comes):

    >>> repair_utf8(b"n\\xc3\\xa9\\nn\\xe9\\n\\xff\\xfe")
    (b'n\\xc3\\xa9\\nn?\\n??', array([1, 2]))
    """
    if is_utf8(data):
        return data, np.zeros(0, dtype=np.int64)
    raw = data.tobytes() if isinstance(data, np.ndarray) else data
    fixed = raw.decode("utf-8", errors=_QUESTION_MARKS).encode("utf-8")
    replaced = np.flatnonzero(np.frombuffer(fixed, dtype=np.uint8) != np.frombuffer(data, dtype=np.uint8))
    newlines = np.flatnonzero(np.frombuffer(fixed, dtype=np.uint8) == ord("\n"))
    bad_lines: NDArray[np.int64] = np.unique(np.searchsorted(newlines, replaced)).astype(np.int64)
    return fixed, bad_lines


def utf8_faults(data: np.ndarray) -> np.ndarray:
    """Where bytes break UTF-8, found for the whole array at once.

    A byte is flagged when it cannot start or continue a well-formed
    sequence: a byte never used by UTF-8 (``C0``, ``C1``, ``F5``-``FF``), a
    lead byte not followed by its continuation bytes (or followed by a
    second byte that makes an overlong form, a surrogate or a code point
    past U+10FFFF), or a continuation byte that no lead byte before it
    claims.  Line ends are ASCII, so a fault never spills into the next
    line: the flags fall inside the line that holds the ill-formed bytes.
    The array decodes as UTF-8 exactly when nothing is flagged.

    Parameters
    ----------
    data : ndarray of shape (n,), dtype uint8

    Returns
    -------
    faults : ndarray of shape (n,), dtype bool

    Examples
    --------
    "né" in UTF-8, then in cp1252 (0xE9 starts a three-byte sequence that never comes):

    >>> np.flatnonzero(utf8_faults(np.frombuffer(b"n\\xc3\\xa9\\nn\\xe9\\n", np.uint8))).tolist()
    [5]
    """
    n = len(data)

    def ahead(values: np.ndarray, k: int, fill: int | bool) -> np.ndarray:
        shifted = np.full(n, fill, dtype=values.dtype)
        shifted[:max(n - k, 0)] = values[k:]
        return shifted

    def behind(values: np.ndarray, k: int) -> np.ndarray:
        shifted = np.zeros(n, dtype=bool)
        shifted[k:] = values[:max(n - k, 0)]
        return shifted

    cont = (data & 0xC0) == 0x80
    lead2 = (data >= 0xC2) & (data <= 0xDF)
    lead3 = (data & 0xF0) == 0xE0
    lead4 = (data >= 0xF0) & (data <= 0xF4)
    faults = (data == 0xC0) | (data == 0xC1) | (data >= 0xF5)
    cont1, cont2, cont3 = ahead(cont, 1, False), ahead(cont, 2, False), ahead(cont, 3, False)
    faults |= lead2 & ~cont1
    faults |= lead3 & ~(cont1 & cont2)
    faults |= lead4 & ~(cont1 & cont2 & cont3)
    # The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    second = ahead(data, 1, 0)
    faults |= ((data == 0xE0) & (second < 0xA0)) | ((data == 0xED) & (second > 0x9F))
    faults |= ((data == 0xF0) & (second < 0x90)) | ((data == 0xF4) & (second > 0x8F))
    # A continuation byte must be the 2nd, 3rd or 4th byte of a sequence its lead started.
    claimed = behind(lead2 | lead3 | lead4, 1) | (behind(lead3 | lead4, 2) & behind(cont, 1)) \
        | (behind(lead4, 3) & behind(cont, 2) & behind(cont, 1))
    faults |= cont & ~claimed
    flagged: np.ndarray = faults
    return flagged
