"""Scanning hand-history text: a file read a chunk of whole hands at a time, cut where a hand starts.

Layer: formats and I/O (:mod:`pipeline.formats`); imports numpy and pyarrow only, nothing of the
package.

This module owns what every text format of hand histories does before it parses anything:
reading a file a block at a time into one buffer, after the bytes the last block left over;
leaving out the byte-order mark (:data:`BOM`) that may open the file; finding the line ends
(:func:`line_ends`); line ends made ``\n`` and the marks of sessions pasted together left
out (:func:`tidy`); and cutting the text where its last hand starts, so that no hand is cut and
memory is bounded by a chunk, not by the file (:func:`chunks`).  A format says where its hands
start (a table header, a header line) and, if it must, how a block is tidied before it is cut
(its line ends); where its last hand starts is found by :func:`last_start`; it parses the
chunks, this module never does.  The pure helpers it builds on
(UTF-8, pieces of a text, masks) are the foundation's: :mod:`pipeline.text`,
:mod:`pipeline.arrays`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

#: The byte-order mark some editors and sites write before UTF-8 text; left out where a file opens.
BOM = b"\xef\xbb\xbf"
_RETURN = ord("\r")

#: Where the last hand of a text starts, given the text and its line ends (:func:`line_ends`);
#: 0 when no hand starts after its first byte (the text is read on).
LastStart = Callable[[NDArray[np.uint8], NDArray[np.intp]], int]
#: A block's text as the format reads it, given whether the file ends with it, and the bytes held
#: back from its end for the next block.
Tidy = Callable[[NDArray[np.uint8], bool], tuple[NDArray[np.uint8], NDArray[np.uint8]]]


@dataclass(frozen=True)
class Chunk:
    """Whole hands of a file, as :func:`chunks` cuts them.

    Attributes
    ----------
    text : ndarray of shape (bytes,), dtype uint8
        The hands' bytes, in file order.
    newlines : ndarray of shape (lines,), dtype intp
        The offsets of the line ends (``\\n``) of ``text``, ascending.
    end : bool
        The file ends with this chunk.
    """

    text: NDArray[np.uint8]
    newlines: NDArray[np.intp]
    end: bool


def line_ends(text: NDArray[np.uint8]) -> NDArray[np.intp]:
    """The offsets of the line ends (``\\n``) of a text, ascending.

    >>> line_ends(np.frombuffer(b"[1]\\na = 1\\n\\n", dtype=np.uint8)).tolist()
    [3, 9, 10]
    """
    return np.flatnonzero(text == ord("\n"))


def chunks(stream: pa.NativeFile, last_start: LastStart, *, size: int, first_size: int | None = None,
           tidy: Tidy | None = None) -> Iterator[Chunk]:
    """The text of a stream in chunks of whole hands, each cut where the last hand of its text starts.

    Each block of ``size`` bytes is read straight into the buffer of the chunk, after the bytes the
    last chunk left over (the start of its next hand), so that the text is copied once.  A text
    in which no hand starts after its first byte (a hand longer than a block) is read on, and the
    chunk grows to hold it.  A read shorter than asked for is the end of the file: the rest of
    the text is the last chunk, whatever it holds.  An empty text holds no chunk.

    Parameters
    ----------
    stream : pyarrow NativeFile
        Open for reading, at the start of the file.
    last_start : callable (text, newlines) -> int
        Where the last hand of a text that is not the file's end starts (:data:`LastStart`).
    size : int
        Bytes read at a time.
    first_size : int, optional
        Bytes of the first read, if not ``size`` (a small first chunk, that parsing starts on at
        once); at most ``size``.
    tidy : callable (text, end) -> (text, held), optional
        Applied to each block before it is cut (:data:`Tidy`): a format's own line ends.

    Yields
    ------
    Chunk
        Whole hands, in file order, with their line ends; the byte-order mark opening the file left out.
    """
    carry = np.zeros(0, dtype=np.uint8)
    head = True
    block = size if first_size is None else min(first_size, size)
    while True:
        text = _read_after(carry, stream, block)
        end = len(text) < len(carry) + block
        block = size
        if head:  # whether a mark opens the file is known before anything is cut
            if len(text) < len(BOM) and not end:
                carry = text
                continue
            head = False  # no line end in the mark: line numbers stay
            if text[:len(BOM)].tobytes() == BOM:
                text = text[len(BOM):]
        held = text[:0]
        if tidy is not None:
            text, held = tidy(text, end)
        newlines = line_ends(text)
        cut = len(text) if end else last_start(text, newlines)
        if cut <= 0:
            if end:  # no text (an empty file, or a byte-order mark alone): no hand
                return
            # No hand starts after the first byte: read on.
            carry = np.concatenate([text, held]) if len(held) else text
            continue
        yield Chunk(text[:cut], newlines[:int(np.searchsorted(newlines, cut))], end)
        if end:
            return
        # The carry is copied out: the chunk need not wait for the next one to be freed.
        carry = np.concatenate([text[cut:], held]) if len(held) else text[cut:].copy()

def tidy(text: NDArray[np.uint8], end: bool) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """A block of a log as it is read: line ends ``\\n`` (from ``\\r\\n`` and a lone ``\\r`` too), and
    no byte-order mark after one (sessions pasted together keep their marks); and a ``\\r`` that
    ends a block that is not the file's end, held back for the next block, so that a ``\\r\\n``
    split between the two stays one line end."""
    held = text[len(text):]
    if not end and len(text) and text[-1] == _RETURN:
        text, held = text[:-1], text[-1:]
    if (text == _RETURN).any():
        text = np.frombuffer(text.tobytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n"), dtype=np.uint8)
    if len(text) and text.max() >= BOM[0]:
        raw = text.tobytes()
        if b"\n" + BOM in raw:
            text = np.frombuffer(raw.replace(b"\n" + BOM, b"\n"), dtype=np.uint8)
    return text, held


def last_start(text: NDArray[np.uint8], newlines: NDArray[np.intp], *, start: re.Pattern[bytes]) -> int:
    """Where the last line that ``start`` matches (the start of a hand) begins, 0 if only at the
    text's start, or none; ``newlines`` are the offsets of the text's line ends: a format's
    :data:`LastStart`, given its pattern.

    The lines are looked at from the end, a few at a time and then twice as many (the last hand
    starts a few dozen lines before the end); where ``start`` opens with ``^`` and a plain byte,
    only the lines starting with that byte are matched.

    >>> text = np.frombuffer(b"Hand 1\\nfold\\nHand 2\\nfold\\n", dtype=np.uint8)
    >>> last_start(text, line_ends(text), start=re.compile(b"^Hand [0-9]"))
    12
    """
    opening = start.pattern[1:2]
    plain = start.pattern[:1] == b"^" and len(opening) == 1 and opening not in b"\\()[]{}.*+?|^$"
    stop, window = len(newlines), 64
    while stop > 0:
        begin = max(stop - window, 0)
        starts = newlines[begin:stop] + 1  # the lines after these line ends
        ends = newlines[begin + 1:stop + 1]
        if len(ends) < len(starts):
            ends = np.append(ends, len(text))
        pick = starts < len(text)
        if plain:
            pick[pick] = text[starts[pick]] == opening[0]
        for at, end in zip(starts[pick][::-1].tolist(), ends[pick][::-1].tolist()):
            if start.match(text[at:end].tobytes()):
                return int(at)
        stop, window = begin, 2 * window
    return 0


def _read_after(carry: NDArray[np.uint8], stream: pa.NativeFile, size: int) -> NDArray[np.uint8]:
    """``carry`` and then up to ``size`` more bytes of the stream, in one new array.

    The bytes are read straight into the array that holds the chunk, not into bytes of their own
    that would then be copied after the carry: each copy of 16 MiB into fresh memory costs ~13 ms.
    """
    text = np.empty(len(carry) + size, dtype=np.uint8)
    text[:len(carry)] = carry
    read: int = stream.readinto(text[len(carry):])
    return text[:len(carry) + read]
