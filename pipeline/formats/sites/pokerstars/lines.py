"""PokerStars text: a chunk's bytes, its lines, hands and sections, and the helpers that read them.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.scan` and the
foundation modules (:mod:`pipeline.text`, :mod:`pipeline.arrays`), numpy and pyarrow, nothing else
of the package.

This module owns the reading of PokerStars text without the rules of the
format (what is rejected, what an action is, who is dealt in, the outcomes:
:mod:`~pipeline.formats.sites.pokerstars.record`), and without what any one line of
the site says (:mod:`~pipeline.formats.sites.pokerstars.fields`): a block of a log
tidied (:func:`pipeline.formats.scan.tidy`) and cut where its last hand starts
(:func:`pipeline.formats.scan.last_start`);
the chunk's text as bytes and as 64-bit little-endian words at every offset
(:class:`Bytes`, to test many lines for a fixed text at once in numpy); the
text cut into lines, hands and sections (:class:`Lines`) and the first fault
of each hand (:class:`Rejects`); a pattern said of many lines at once
(:func:`lines_of`, :func:`matching`); the street of each line
(:func:`streets`); and small helpers over arrays of lines and strings
(:func:`take`, :func:`found_in`, :func:`last_found`, :func:`bracketed`,
:func:`token_ends`, :func:`lengths`, :func:`digits`).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per
from pipeline.formats import scan
from pipeline.text import offsets_and_data, spans

_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
PAD = 32  # zero bytes after a chunk's text: a word can be read at any offset up to 24 bytes past its end
NEWLINE, RETURN, COLON, SPACE, ZERO, NINE = (ord(c) for c in "\n\r: 09")
#: The streets' markers, and the street each opens (a hand run twice has its first and second ones).
STREETS = tuple((f"*** {run}{name} ***", street) for street, name in enumerate(("FLOP", "TURN", "RIVER"), 1)
                for run in ("", "FIRST ", "SECOND "))


def word(text: bytes) -> np.uint64:
    """Up to 8 bytes as the little-endian word the chunk's words are compared with."""
    return np.uint64(int.from_bytes(text, "little"))


class Bytes:
    """A chunk's text as numpy bytes, and as little-endian words starting at every byte offset.

    Words are read without a copy (numpy allows unaligned strides) from a
    copy of the text padded with zeros, so a word may start anywhere in it.

    Attributes
    ----------
    size : int
        Bytes of the text.
    bytes : ndarray of shape (size + PAD,), dtype uint8
        The text, then zeros.
    words : ndarray of shape (size + PAD - 7,), dtype <u8
        The 8 bytes from each offset, as one little-endian word.
    buffer : pyarrow Buffer
        The text, for strings cut from it (:meth:`slices`).
    """

    def __init__(self, piece: NDArray[np.uint8] | bytes) -> None:
        self.size = len(piece)
        padded = np.empty(len(piece) + PAD, dtype=np.uint8)
        padded[:len(piece)] = np.frombuffer(piece, dtype=np.uint8)
        padded[len(piece):] = 0
        self.bytes = padded
        self.words = np.ndarray(shape=(len(piece) + PAD - 7,), dtype="<u8", buffer=padded, strides=(1,))
        self.buffer = pa.py_buffer(piece)

    def has(self, at: np.ndarray, text: bytes) -> NDArray[np.bool_]:
        """Whether ``text`` is written at each offset ``at`` (offsets in the text, ``text`` at most 24 bytes).

        ``text`` holds no ``\\n`` and no zero byte, so it is never found across a line end.
        """
        found: NDArray[np.bool_] = (self.words[at] & _MASKS[min(len(text), 8)]) == word(text[:8])
        for k in range(8, len(text), 8):
            piece = text[k:k + 8]
            found &= (self.words[at + k] & _MASKS[len(piece)]) == word(piece)
        return found

    def slices(self, begin: np.ndarray, end: np.ndarray,
               present: NDArray[np.bool_] | None = None) -> pa.Array:
        """The text from ``begin`` to ``end`` of each piece as strings, pieces in order, none
        overlapping, null where not ``present``: :func:`pipeline.text.spans` of the text."""
        return spans(self.buffer, begin, end, present)


def lines_of(content: str) -> str:
    """A pattern for a text of lines ("\\n" after each, maybe not after the last) each of whose text
    matches ``content``: what a pattern ``^content\\n?$`` says of each line, said of them all at
    once.  ``content`` never matches a "\\n"."""
    return rf"^(?:{content}\n)*(?:{content})?$"


def matching(lines: pa.Array, line: str, block: str) -> NDArray[np.bool_]:
    """Which of ``lines`` (each with its "\\n", the last maybe without) match the pattern ``line``.

    Most often all of them do: their whole text is matched by ``block``, the same pattern for all
    the lines at once (:func:`lines_of`), in one call; else each line is matched alone.
    """
    if len(lines):
        offsets, data, _ = offsets_and_data(lines)
        whole = pa.Array.from_buffers(pa.large_string(), 1, [None, pa.py_buffer(np.array(
            [offsets[0], offsets[-1]], dtype=np.int64)), pa.py_buffer(data)])
        if pc.match_substring_regex(whole, block)[0].as_py():
            return np.ones(len(lines), dtype=bool)
    return as_mask(pc.match_substring_regex(lines, line))


class Lines:
    """A chunk's text cut into lines, the lines into hands, and each hand into its sections.

    What every part of the parse looks up: per line (shape (lines,)) where it
    starts and stops in the text, its last byte and its hand; per hand
    (shape (hands,)) the line it starts at, its first ``*** `` marker and its
    ``*** SUMMARY ***``.  Lines are told apart by their first bytes: the
    first one narrows, the others are compared as words, in numpy.

    Attributes (per line, shape (lines,))
    -------------------------------------
    lines : pyarrow LargeStringArray
        Each line with its "\\n", over the text's own buffer.
    line_start, line_stop, content_end : int64
        Where the line starts, where the next starts, where its "\\n" is.
    last_byte, first_byte : uint8
        Its text's last byte (0 for none) and its first.
    start, is_marker : bool
        It starts a hand; it is a ``*** `` marker.
    hand_of : int64
        Its hand.

    Per hand (shape (hands,)): ``starts`` (its first line), ``first_marker``
    and ``summary_at`` (its first ``*** `` and ``*** SUMMARY ***`` lines,
    lines + 1 for none), ``has_summary``.
    """

    def __init__(self, piece: NDArray[np.uint8] | bytes, newlines: NDArray[np.intp] | None,
                 start: tuple[str, str, str]) -> None:
        text = self.text = Bytes(piece)
        if newlines is None:
            newlines = scan.line_ends(text.bytes[:text.size])
        offsets = np.concatenate([[0], newlines + 1, [len(piece)]]).astype(np.int64)
        if offsets[-2] == len(piece):  # the text ends with "\n": its last line is empty
            offsets = offsets[:-1]
        # Lines without a copy: each keeps its "\n" (patterns allow it at the end).
        self.lines = pa.Array.from_buffers(pa.large_string(), len(offsets) - 1,
                                           [None, pa.py_buffer(offsets), text.buffer])
        self.n = n = len(self.lines)
        self.line_start, self.line_stop = offsets[:-1], offsets[1:]
        # Each line's "\n", but the last's if the text does not end with one.
        self.content_end = self.line_stop - 1
        self.content_end[-1] += piece[-1] != NEWLINE
        # The last byte of each line's text (0: none), which tells what its end can be.
        self.last_byte = np.where(self.content_end > self.line_start, text.bytes[self.content_end - 1], 0)
        self.first_byte = text.bytes[self.line_start]
        # The lines by their first byte (a stable sort of bytes: a radix sort), so that the lines
        # starting with a byte are a slice, found without a pass over every line.
        self.by_first = np.argsort(self.first_byte, kind="stable")
        self.first_at = np.searchsorted(self.first_byte[self.by_first], np.arange(257))

        # Hands: a line that starts one (``start``: its first bytes, its pattern, the pattern of many
        # such lines at once), and each line's hand.
        first, line, block = start
        candidates = self.starting(first)
        self.start = np.zeros(n, dtype=bool)
        self.start[candidates[matching(self.take(candidates), line, block)]] = True
        self.start[0] = True  # a chunk starts at a hand (the file's first line is a header)
        self.hand_of = np.cumsum(self.start) - 1
        self.starts = np.flatnonzero(self.start)
        self.hands = len(self.starts)

        # Sections: '*** ' markers; the lines before the first are the preamble (seats, blinds).
        self.markers = self.starting("*** ")
        self.marker_word = text.words[self.line_start[self.markers] + 4]  # the title's first 8 bytes
        self.is_marker = np.zeros(n, dtype=bool)
        self.is_marker[self.markers] = True
        self.first_marker = first_per(self.hand_of[self.markers], self.hands, self.markers, fill=n + 1)
        summary_mark = self.marked("*** SUMMARY ***")
        self.summary_at = first_per(self.hand_of[summary_mark], self.hands, summary_mark, fill=n + 1)
        self.has_summary = self.summary_at <= n
        self._contents: pa.Array | None = None  # see :meth:`contents`

    def starting(self, prefix: str) -> NDArray[np.int64]:
        """The lines that start with ``prefix``, ascending."""
        wanted = prefix.encode()
        rows = self.by_first[self.first_at[wanted[0]]:self.first_at[wanted[0] + 1]]
        found: NDArray[np.int64] = rows[self.text.has(self.line_start[rows], wanted)]
        return found

    def marked(self, title: str) -> NDArray[np.int64]:
        """The marker lines "*** TITLE ***..." (``title`` of 8 bytes or more, "*** " included)."""
        wanted = title.encode()
        rows = self.markers[self.marker_word == word(wanted[4:12])]
        found: NDArray[np.int64] = rows[self.text.has(self.line_start[rows] + 12, wanted[12:])]
        return found

    def preamble(self, rows: np.ndarray, hand: np.ndarray | None = None) -> NDArray[np.bool_]:
        """Which lines at ``rows`` are in their hand's preamble (``hand``: their hands, if known)."""
        hand = self.hand_of[rows] if hand is None else hand
        found: NDArray[np.bool_] = (rows > self.starts[hand]) & (rows < self.first_marker[hand])
        return found

    def in_summary(self, rows: np.ndarray, hand: np.ndarray | None = None) -> NDArray[np.bool_]:
        """Which lines at ``rows`` are after their hand's ``*** SUMMARY ***``."""
        found: NDArray[np.bool_] = rows > self.summary_at[self.hand_of[rows] if hand is None else hand]
        return found

    def first_in_summary(self, prefix: str) -> NDArray[np.int64]:
        """(hands,): the first line of each hand's summary that starts with ``prefix``, -1 for none."""
        rows = self.starting(prefix)
        rows = rows[self.in_summary(rows)]
        return first_per(self.hand_of[rows], self.hands, rows)

    def flag(self, rows: np.ndarray) -> NDArray[np.bool_]:
        """(hands,) bool: the hand holds one of the lines at ``rows``."""
        per_hand = np.zeros(self.hands, dtype=bool)
        per_hand[self.hand_of[rows]] = True
        return per_hand

    def take(self, rows: np.ndarray) -> pa.Array:
        """The lines at ``rows``, each with its "\\n"."""
        return take(self.lines, rows)

    def contents(self, rows: np.ndarray) -> pa.DictionaryArray:
        """The lines at ``rows`` without their "\\n", as a dictionary array over the text's own buffer:
        no copy (line i's text is item 2i of the dictionary, the "\\n" after it item 2i + 1)."""
        if self._contents is None:
            offsets = np.empty(2 * self.n + 1, dtype=np.int64)
            offsets[0:-1:2], offsets[1::2], offsets[-1] = self.line_start, self.content_end, self.text.size
            self._contents = pa.Array.from_buffers(pa.large_string(), 2 * self.n,
                                                   [None, pa.py_buffer(offsets), self.text.buffer])
        return pa.DictionaryArray.from_arrays(pa.array(2 * np.asarray(rows), pa.int32()), self._contents)

    def texts(self, rows: np.ndarray) -> list[str]:
        """The lines at ``rows`` as Python strings, without their "\\n" (for messages)."""
        got: list[str] = [line.rstrip("\n") for line in self.take(rows).to_pylist()]
        return got


class Rejects:
    """The first reason each hand is rejected for, with the line and text of the fault."""

    def __init__(self, lines: Lines) -> None:
        hands = lines.hands
        self.lines = lines
        self.reason: list[str | None] = [None] * hands
        self.line = np.zeros(hands, dtype=np.int64)
        self.text: list[str] = [""] * hands
        self.mask = np.zeros(hands, dtype=bool)

    def add(self, hands: np.ndarray, lines: np.ndarray, texts: list[str], reasons: list[str]) -> None:
        """Reject ``hands`` (with the line index and text of each fault) unless already rejected."""
        for hand, line, text, reason in zip(hands.tolist(), lines.tolist(), texts, reasons):
            if not self.mask[hand]:
                self.reason[hand], self.line[hand], self.text[hand] = reason, line, text
                self.mask[hand] = True

    def at(self, rows: np.ndarray, reason: str | list[str]) -> None:
        """Reject the hands of the lines at ``rows`` (the first fault of each hand; ``reason`` one for
        all or one per line)."""
        if not len(rows):
            return
        hand_rows, first = np.unique(self.lines.hand_of[rows], return_index=True)
        chosen = rows[first]
        reasons = [reason] * len(chosen) if isinstance(reason, str) else [reason[i] for i in first]
        self.add(hand_rows, chosen, self.lines.texts(chosen), reasons)


def streets(lines: Lines, rows: NDArray[np.int64]) -> NDArray[np.int8]:
    """The street of each line at ``rows``: the last street its hand's markers opened before it, 0
    (before the flop) without one."""
    opened = np.zeros(len(lines.markers) + 1, dtype=np.int64)  # per marker, then none
    for title, street in STREETS:
        opened[np.searchsorted(lines.markers, lines.marked(title))] = street
    # Streets open in order: the street so far is the most opened, hand by hand.
    hand = np.append(lines.hand_of[lines.markers], -1)
    so_far = np.maximum.accumulate(hand * 4 + opened) - hand * 4
    before = np.cumsum(lines.is_marker)[rows] - 1  # the last marker at or before the line, -1 none
    found: NDArray[np.int8] = np.where(hand[before] == lines.hand_of[rows], so_far[before], 0).astype(np.int8)
    return found


def last_found(lines: pa.Array, start: np.ndarray, what: bytes) -> NDArray[np.int64]:
    """Where the last ``what`` of each line (starting at ``start`` in the text) is, -1 if none: the
    first ``what`` reversed in the line read backwards."""
    backwards = pc.binary_reverse(lines.cast(pa.large_binary()))
    found = pc.find_substring(backwards, what[::-1]).to_numpy(zero_copy_only=False).astype(np.int64)
    return np.where(found >= 0, start + lengths(lines) - len(what) - found, -1)


def bracketed(text: Bytes, begin: np.ndarray, stop: np.ndarray) -> pa.Array:
    """The text from each ``begin`` (just after a ``[``) to the first ``]`` before ``stop``, null
    when there is none: what ``\\[([^\\]]*)\\]`` captures.  Pieces in order, none overlapping."""
    close = found_in(text.slices(begin, stop), "]")
    inside = text.slices(begin, begin + np.maximum(close, 0))
    return pc.if_else(pa.array(close >= 0), inside, pa.scalar(None, pa.large_string()))


def found_in(strings: pa.Array, what: str) -> NDArray[np.int64]:
    """Where ``what`` first is in each string (bytes from its start), -1 where it is not."""
    found: NDArray[np.int64] = pc.find_substring(strings, what).to_numpy(zero_copy_only=False).astype(
        np.int64)
    return found


def lengths(strings: pa.Array) -> NDArray[np.int64]:
    """The bytes of each string."""
    found: NDArray[np.int64] = pc.binary_length(strings).to_numpy(zero_copy_only=False).astype(np.int64)
    return found


def digits(values: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Which bytes are ASCII digits."""
    found: NDArray[np.bool_] = (values >= ZERO) & (values <= NINE)
    return found


def large_text(value: str) -> pa.Scalar:
    """A text scalar of the type the lines have (large_string), for kernels that need one type."""
    return pa.scalar(value, pa.large_string())


def take(array: pa.Array, rows: np.ndarray) -> pa.Array:
    """The items of ``array`` at ``rows`` (numpy integers): ``array`` itself where they are all of
    it, in order (as they often are), without a copy."""
    if len(rows) == len(array) and (not len(rows) or (rows[0] == 0 and (np.diff(rows) == 1).all())):
        return array
    return array.take(pa.array(rows, pa.int64()))


def token_ends(text: Bytes, begin: NDArray[np.int64], end: NDArray[np.int64]) -> NDArray[np.int64]:
    """Where the word starting at each ``begin`` ends: the first space before ``end``, else ``end``.
    Pieces in order, none overlapping."""
    space = found_in(text.slices(begin, end), " ")
    found: NDArray[np.int64] = np.where(space >= 0, begin + space, end)
    return found
