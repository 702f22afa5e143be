"""PokerStars text: a chunk's bytes, its lines, hands and sections, and where each field of a line is.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.scan`, the hands' card codes
(:mod:`pipeline.hands.record`), the card notation and the foundation modules
(:mod:`pipeline.text`, :mod:`pipeline.arrays`), numpy and pyarrow.

This module owns the reading of PokerStars text without the rules of the
format (what is rejected, what an action is, who is dealt in, the outcomes:
:mod:`~pipeline.formats.pokerstars`'): a block of a log tidied
(:func:`tidy`) and cut where its last hand starts (:func:`last_start`); the
chunk's text as bytes and as 64-bit little-endian words at every offset
(:class:`Bytes`, to test many lines for a fixed text at once in numpy); the
text cut into lines, hands and sections (:class:`Lines`) and the first fault
of each hand (:class:`Rejects`); a pattern said of many lines at once
(:func:`lines_of`, :func:`matching`); where the fields of the site's lines
are (seat lines, action lines, collections, cash-outs, uncalled bets,
``Dealt to``, totals, headers, tables), read in the bytes where their form
is fixed and by a pattern, given by the caller, where it is not; and values
as the site writes them: amounts (:func:`amounts`, :func:`amounts_at`), times
with their zones (:func:`utc_times`), tournament levels, buy-ins, cards.

How a chunk is read
-------------------
A session file is read in chunks of whole hands (cut where a hand starts by
:func:`pipeline.formats.scan.chunks` and :func:`last_start`), so memory is
bounded by the chunk, not by the file.  One numpy pass over a chunk's bytes
finds its line ends (:class:`Lines`); lines are told apart by their first
and last bytes, read as bytes or 64-bit words and compared in numpy, and
numpy assigns each line to its hand by a cumulative sum of hand starts.
pyarrow's string kernels (RE2 regular expressions run in C++ over whole
arrays) read only the lines that need them, and as few times as they can:
lines that should all match one pattern (hand starts, seat lines, headers,
collections) are matched at once as one text, line by line only if that
fails; texts that recur (an action's words, a seat's fate in the summary,
the stakes) are read once per different text; a header's fields are cut
where its fixed characters are, an amount where its word ends or in the
bytes.  Never a loop or a regular expression per line in Python.  Names are
matched as codes of one dictionary of the chunk's seated names: a seat
line, an action or a collection is a (hand, code) key, looked up in
pyarrow's hash table (or, for a few names, searched among the sorted keys).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per
from pipeline.formats import scan
from pipeline.hands import times
from pipeline.hands.record import NO_CARD, UNKNOWN_CARD
from pipeline.poker.notation import card_matrix
from pipeline.text import offsets_and_data, spans, text_lengths

_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
PAD = 32  # zero bytes after a chunk's text: a word can be read at any offset up to 24 bytes past its end
NEWLINE, RETURN, COLON, SPACE, ZERO, NINE = (ord(c) for c in "\n\r: 09")
#: The streets' markers, and the street each opens (a hand run twice has its first and second ones).
STREETS = tuple((f"*** {run}{name} ***", street) for street, name in enumerate(("FLOP", "TURN", "RIVER"), 1)
                for run in ("", "FIRST ", "SECOND "))
# The bytes of the currency signs an amount may open with.
_SIGNS = [sign.encode() for sign in "$€£¥"]


def tidy(text: NDArray[np.uint8], end: bool) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """A block of a log as it is read: line ends ``\\n`` (from ``\\r\\n`` and a lone ``\\r`` too), and
    no byte-order mark after one (sessions pasted together keep their marks); and a ``\\r`` that
    ends a block that is not the file's end, held back for the next block, so that a ``\\r\\n``
    split between the two stays one line end."""
    held = text[len(text):]
    if not end and len(text) and text[-1] == RETURN:
        text, held = text[:-1], text[-1:]
    if (text == RETURN).any():
        text = np.frombuffer(text.tobytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n"), dtype=np.uint8)
    if len(text) and text.max() >= scan.BOM[0]:
        raw = text.tobytes()
        if b"\n" + scan.BOM in raw:
            text = np.frombuffer(raw.replace(b"\n" + scan.BOM, b"\n"), dtype=np.uint8)
    return text, held


def last_start(text: NDArray[np.uint8], newlines: NDArray[np.intp], *, start: re.Pattern[bytes]) -> int:
    """Where the last line that ``start`` matches (the start of a hand) begins, 0 if only at the
    text's start, or none; ``newlines`` are the offsets of the text's line ends.

    The lines are looked at from the end, a few at a time and then twice as many (the last hand
    starts a few dozen lines before the end), and only those whose first byte is the one that
    ``start`` (a pattern starting with ``^`` and a plain byte) asks for are matched.
    """
    first = start.pattern[1]
    stop, window = len(newlines), 64
    while stop > 0:
        begin = max(stop - window, 0)
        starts = newlines[begin:stop] + 1  # the lines after these line ends
        ends = newlines[begin + 1:stop + 1]
        if len(ends) < len(starts):
            ends = np.append(ends, len(text))
        pick = starts < len(text)
        pick[pick] = text[starts[pick]] == first
        for at, end in zip(starts[pick][::-1].tolist(), ends[pick][::-1].tolist()):
            if start.match(text[at:end].tobytes()):
                return int(at)
        stop, window = begin, 2 * window
    return 0


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


@dataclass
class SeatLines:
    """The lines ``Seat N: NAME (STACK in chips)`` of a chunk, cut into their fields.

    Every ``Seat `` line (the summaries' too), shape (lines,): ``all_rows``, its
    N (``all_number``, 0 for none) and where the text after ``": "`` starts
    (``all_name_at``, -1).  Those of the preambles that read as seat lines,
    shape (seats,), in line order: ``rows``, ``number`` (as written, maybe out
    of range), ``name`` (pyarrow strings) and its bytes ``name_length``,
    ``stack`` (float64) and ``said_more`` (the line says more than
    ``in chips)`` after the stack: it may mark a player out).
    """

    all_rows: NDArray[np.int64]
    all_number: NDArray[np.int64]
    all_name_at: NDArray[np.int64]
    rows: NDArray[np.int64]
    number: NDArray[np.int64]
    name: pa.Array
    name_length: NDArray[np.int64]
    stack: NDArray[np.float64]
    said_more: NDArray[np.bool_]


def seat_lines(lines: Lines, plain: tuple[str, str], pattern: str) -> SeatLines:
    """The seat lines of the preambles: a name without a parenthesis (``plain``: the pattern of such a
    line, and of many at once; nearly all) cut by plain searches, the others by ``pattern``'s captures
    ``seat``, ``name``, ``stack``."""
    text, start = lines.text, lines.line_start
    all_rows = lines.starting("Seat ")
    all_number, all_name_at = seat_numbers(text, start[all_rows])
    in_preamble = lines.preamble(all_rows)
    candidates, candidate_name_at = all_rows[in_preamble], all_name_at[in_preamble]
    candidate_lines = lines.take(candidates)
    cut = matching(candidate_lines, *plain) & (candidate_name_at > 0)
    cut_rows, cut_at = candidates[cut], candidate_name_at[cut]
    paren = found_in(candidate_lines.filter(pa.array(cut)), " (")
    # The stack: the word after " (", nearly always the line's end but " in chips)" (and a space).
    stack_at, ends = start[cut_rows] + paren + 2, lines.content_end[cut_rows]
    stack_end = np.maximum(ends - len(" in chips)") - (lines.last_byte[cut_rows] == SPACE), stack_at)
    stacks = amounts(text.slices(stack_at, stack_end))
    if np.isnan(stacks).any():  # a word that is more than the stack: each cut at its space
        stack_end = token_ends(text, stack_at, ends)
        stacks = amounts(text.slices(stack_at, stack_end))
    found = pc.extract_regex(candidate_lines.filter(pa.array(~cut)), pattern)
    ok = found.is_valid().to_numpy(zero_copy_only=False)
    fields = found.filter(pa.array(ok))
    # A number of more digits than any seat has may not fit in int64: read as 0.
    number = fields.field("seat")
    number = pc.if_else(pc.greater(pc.utf8_length(number), 3), pa.scalar("0", number.type), number)
    rows = np.concatenate([cut_rows, candidates[~cut][ok]])
    order = np.argsort(rows, kind="stable")
    return SeatLines(
        all_rows=all_rows, all_number=all_number, all_name_at=all_name_at, rows=rows[order],
        number=np.concatenate([all_number[in_preamble][cut], pc.cast(number, pa.int64()).to_numpy(
            zero_copy_only=False) if ok.any() else np.zeros(0, np.int64)])[order],
        name=take(pa.concat_arrays([text.slices(start[cut_rows] + cut_at, start[cut_rows] + paren),
                                    fields.field("name").cast(pa.large_string())]), order),
        name_length=np.concatenate([paren - cut_at, lengths(fields.field("name"))])[order],
        stack=np.concatenate([stacks, amounts(fields.field("stack"))])[order],
        said_more=np.concatenate([ends - stack_end > len(" in chips) "),
                                  np.ones(int(ok.sum()), bool)])[order])


@dataclass
class ActionLines:
    """The lines ``NAME: WORDS`` of the hands' bodies, in line order (shape (actions,) each, but
    ``words``): ``rows``; ``colon``, where the line's last ``": "`` is (the name before it, the
    words after); ``names`` (pyarrow strings); ``word``, the index of its words in ``words``, the
    different words of the chunk's actions (each once: they recur).  ``open_end``, shape (lines,):
    the last byte of a body line that is no action (0 elsewhere), what a collection ends with."""

    rows: NDArray[np.int64]
    colon: NDArray[np.int64]
    names: pa.Array
    word: NDArray[np.int64]
    words: pa.Array
    open_end: NDArray[np.uint8]


def action_lines(lines: Lines, seat_rows: NDArray[np.int64], plain: tuple[bytes, ...],
                 ends: NDArray[np.bool_], words: tuple[str, str]) -> ActionLines:
    """The action lines: words ``plain`` (of a fixed form, holding no ``": "``) found at a line's end;
    in the other lines that can end as an action (``ends``: by their last byte), the words after the
    first ``": "`` matched by ``words[0]``, once per different text; a line whose words hold another
    ``": "`` (its name holds one) matched by ``words[1]`` (the words after a ``": "`` that is the
    line's last), and searched for its last."""
    text, start, end, last_byte = lines.text, lines.line_start, lines.content_end, lines.last_byte
    body = ~lines.start & ~lines.is_marker & (np.arange(lines.n) <= lines.summary_at[lines.hand_of])
    in_body = body.copy()
    in_body[seat_rows] = False
    colon = np.full(lines.n, -1, dtype=np.int64)  # where the last ": " of each action line is
    code = np.full(lines.n, -1, dtype=np.int64)  # and its words, as an index in the words
    for ending in {form[-1] for form in plain}:
        rows = np.flatnonzero(last_byte == ending)
        rows = rows[in_body[rows]]
        for index, form in enumerate(plain):
            if form[-1] == ending:
                form = b": " + form
                found = rows[(end[rows] - start[rows] >= len(form)) & text.has(end[rows] - len(form), form)]
                colon[found], code[found] = end[found] - len(form), index
    candidates = np.flatnonzero(in_body & (colon < 0) & ends[last_byte])
    first_colon = found_in(lines.take(candidates), ": ")
    rows = candidates[first_colon >= 0]
    first_at = start[rows] + first_colon[first_colon >= 0]
    after = text.slices(first_at + 2, lines.line_stop[rows]).dictionary_encode()
    texts, word_code = after.dictionary, after.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    colon_again = as_mask(pc.match_substring(texts, ": "))[word_code]
    read = as_mask(pc.match_substring_regex(texts, words[0]))[word_code] & ~colon_again
    colon[rows[read]], code[rows[read]] = first_at[read], len(plain) + word_code[read]
    rows = rows[colon_again]
    rows = rows[as_mask(pc.match_substring_regex(lines.take(rows), words[1]))]
    colon[rows] = last_found(lines.take(rows), start[rows], b": ")
    later = text.slices(colon[rows] + 2, lines.line_stop[rows]).dictionary_encode()
    code[rows] = len(plain) + len(texts) + later.indices.to_numpy(zero_copy_only=False)
    action_rows = np.flatnonzero(colon >= 0)
    at = colon[action_rows]
    return ActionLines(rows=action_rows, colon=at, names=text.slices(start[action_rows], at),
                       word=code[action_rows],
                       open_end=np.where(body & (colon < 0), last_byte, 0).astype(np.uint8),
                       words=pa.concat_arrays([pa.array([form.decode() for form in plain], pa.large_string()),
                                               texts, later.dictionary]))


def collection_lines(lines: Lines, open_end: NDArray[np.uint8], pattern: tuple[str, str]
                     ) -> tuple[NDArray[np.int64], pa.Array, NDArray[np.float64], pa.Array]:
    """The lines ``NAME collected AMOUNT from pot | main pot | side pot[-N]`` (``pattern``: of one such
    line, and of many at once), read in the body's lines that are no action and whose end
    (``open_end``) may be one: " pot", "pot-" and digits, or a space.

    Returns their rows, names, amounts and pots (with what ends the line).
    """
    text, start, end = lines.text, lines.line_start, lines.content_end
    pot = np.flatnonzero(open_end == ord("t"))
    pot = pot[(end[pot] - start[pot] >= 4) & text.has(end[pot] - 4, b" pot")]
    numbered = np.flatnonzero(digits(open_end))
    numbered_pot = []
    for count in range(1, 13):  # "pot-" before the last digits, as many as there are
        before = end[numbered] - count
        numbered_pot.append(numbered[(before - 4 >= start[numbered]) & text.has(
            np.maximum(before - 4, 0), b"pot-")])
        more = (before - 1 >= start[numbered]) & digits(text.bytes[np.maximum(before - 1, 0)])
        numbered = numbered[more]
    # Also more digits than counted, and spaces at the end: the pattern reads them all.
    candidates = np.unique(np.concatenate([pot, *numbered_pot, numbered, np.flatnonzero(open_end == SPACE)]))
    candidate_lines = lines.take(candidates)
    ok = matching(candidate_lines, *pattern)
    # The line matched the pattern: the name is before the last " collected ", the amount (no
    # space in it) after it, then " from " and the pot, until the spaces and the line end.
    name_and_rest = pc.split_pattern(candidate_lines.filter(pa.array(ok)), " collected ",
                                     max_splits=1, reverse=True)
    amount_and_pot = pc.split_pattern(pc.list_element(name_and_rest, 1), " from ", max_splits=1)
    return (candidates[ok], pc.list_element(name_and_rest, 0).cast(pa.large_string()),
            amounts(pc.list_element(amount_and_pot, 0)), pc.list_element(amount_and_pot, 1))


def paid_lines(lines: Lines, open_end: NDArray[np.uint8]) -> tuple[
        NDArray[np.int64], pa.Array, NDArray[np.float64], NDArray[np.int64], pa.Array, NDArray[np.float64]]:
    """The lines ``NAME cashed out the hand for X[ | Cash Out Fee Y]`` (no action, ending as an amount
    does, or with spaces: ``open_end``) and ``Uncalled bet (X) returned to NAME`` of the hands'
    bodies: the rows, names and amounts X of each kind."""
    text, start, end, hand_of = lines.text, lines.line_start, lines.content_end, lines.hand_of
    candidates = np.flatnonzero(digits(open_end) | (open_end == SPACE))
    found = found_in(lines.take(candidates), " cashed out the hand for ")
    cash_rows = candidates[found > 0]
    at = start[cash_rows] + found[found > 0]
    rows = lines.starting("Uncalled bet (")
    rows = rows[rows < lines.summary_at[hand_of[rows]]]
    back, close = amounts_at(text, start[rows] + len("Uncalled bet ("))
    said = text.has(close, b") returned to ")
    rows, back, close = rows[said], back[said], close[said]
    cashed = amounts_at(text, at + len(" cashed out the hand for "))[0]
    return (cash_rows, text.slices(start[cash_rows], at), cashed,
            rows, pc.utf8_rtrim(text.slices(close + len(") returned to "), end[rows]), characters=" "), back)


def summary_lines(lines: Lines, found: SeatLines, of_hand: NDArray[np.int64], name_length: NDArray[np.int64],
                  names: tuple[NDArray[np.int64], pa.Array]) -> tuple[NDArray[np.int64], NDArray[np.int64],
                                                                     NDArray[np.bool_], NDArray[np.int64]]:
    """The summaries' lines ``Seat N: NAME FATE`` (of :class:`SeatLines` ``found``): rows, N, whether
    the line names its seat's player (a seat of ``of_hand``, (hands, 10), whose name's bytes and
    code in the chunk's seated names are ``name_length`` and ``names``) and where its fate starts.

    ``Seat 3: ``, never ``Seat 03: ``: the number as written, then the name, byte for byte.
    """
    text, start = lines.text, lines.line_start
    summary = lines.in_summary(found.all_rows) & (found.all_name_at > 0)
    rows, number, at_name = found.all_rows[summary], found.all_number[summary], found.all_name_at[summary]
    slots = of_hand.shape[1]
    seat = np.where((number >= 1) & (number <= slots),
                    of_hand[lines.hand_of[rows], np.clip(number, 1, slots) - 1], -1)
    named = (seat >= 0) & ((at_name == 8) | (text.bytes[start[rows] + 5] != ZERO))
    seat = np.maximum(seat, 0)
    length = name_length[seat] if len(name_length) else np.zeros(len(rows), np.int64)
    named &= lines.line_stop[rows] - start[rows] - at_name >= length
    fate_at = start[rows] + at_name
    check = np.flatnonzero(named)
    if len(check):
        code = pc.index_in(text.slices(fate_at[check], fate_at[check] + length[check]),
                           value_set=names[1]).fill_null(-1).to_numpy(zero_copy_only=False)
        named[check] = code == names[0][seat[check]]
    return rows, number, named, fate_at + length


def dealt_lines(lines: Lines) -> tuple[NDArray[np.int64], pa.Array, pa.Array]:
    """The lines ``Dealt to NAME [CARDS]`` of the hands' bodies: rows, names and cards.  A name may hold
    a ``[``: the cards are after the line's last `` [``, as nearly always two of them at its end."""
    text, start, end = lines.text, lines.line_start, lines.content_end
    rows = lines.starting("Dealt to ")
    rows = rows[rows < lines.summary_at[lines.hand_of[rows]]]
    bracket = end[rows] - len(" [Ah Kd]")
    other = np.flatnonzero(~text.has(bracket, b" [") | (text.bytes[end[rows] - 1] != ord("]")))
    bracket[other] = last_found(lines.take(rows[other]), start[rows[other]], b" [")
    named = bracket > start[rows] + len("Dealt to ")
    rows, bracket = rows[named], bracket[named]
    return (rows, text.slices(start[rows] + len("Dealt to "), bracket),
            bracketed(text, bracket + 2, lines.line_stop[rows]))


def totals(lines: Lines, rows: NDArray[np.int64],
           pattern: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The total pot and the rake of the lines ``Total pot X ... | Rake Y`` at ``rows``, as ``pattern``'s
    ``total`` and ``rake`` read them: a line ``Total pot X | Rake Y`` and nothing after but spaces
    (nearly all) read in bytes, the others (side pots) by the pattern."""
    text = lines.text
    pot, after = amounts_at(text, lines.line_start[rows] + len("Total pot "))
    rake, end = amounts_at(text, after + len(" | Rake "))
    tail = lines.content_end[rows] - end
    spaces = (tail == 0) | ((tail == 1) & (text.bytes[end] == SPACE)) | (
        (tail == 2) & (text.bytes[end] == SPACE) & (text.bytes[end + 1] == SPACE))
    other = np.flatnonzero(~(text.has(after, b" | Rake ") & ~np.isnan(pot) & ~np.isnan(rake) & spaces))
    found = pc.extract_regex(lines.take(rows[other]), pattern)
    pot[other], rake[other] = amounts(found.field("total")), amounts(found.field("rake"))
    return pot, rake


def board_texts(lines: Lines) -> pa.Array:
    """(hands,) strings: the cards of each hand's first summary line ``Board [CARDS]``, "" for none."""
    board_row = lines.first_in_summary("Board [")
    has_board = board_row >= 0
    rows = board_row[has_board]
    found = bracketed(lines.text, lines.line_start[rows] + len("Board ["), lines.line_stop[rows])
    return pc.if_else(pa.array(has_board), take(found, np.maximum(np.cumsum(has_board) - 1, 0))
                      if has_board.any() else pa.nulls(lines.hands, pa.large_string()), "")


#: The currency each sign stands for, where the stakes write no code.
SIGNS = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "CNY"}


def stakes(texts: pa.Array,
           pattern: str) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.object_]]:
    """The small and big blinds of each stakes text (``$0.01/$0.02 USD``, ``Level V (40/80)``) as
    ``pattern``'s captures ``small`` and ``big`` read them (NaN where it does not), and the code of
    its currency (``iso``, or the sign's: :data:`SIGNS`; None for none), read once per different text."""
    written, at = distinct(texts)
    found = pc.extract_regex(pa.array(written, pa.string()), pattern)
    small, big = (np.append(amounts(found.field(name)), np.nan)[at] for name in ("small", "big"))
    signs = [SIGNS.get(text[:1]) for text in found.field("small").fill_null("").to_pylist()]
    codes = [code or sign for code, sign in zip(found.field("iso").fill_null("").to_pylist(), signs)]
    return small, big, np.array([*codes, None], dtype=object)[at]


def header_fields(lines: Lines, plain: str, pattern: str) -> dict[str, pa.Array]:
    """The hand id, game, stakes (without their parenthesis), time, tournament, buy-in and level of
    each hand's header (pyarrow strings, shape (hands,)), as ``pattern``'s captures ``id``,
    ``variant`` (:func:`variant`), ``stakes``, ``time``, ``tournament``, ``buy_in``, ``level`` read
    them, null where it does not or the header does not say: a header of the form ``plain`` (a
    hold'em game, "Hold'em ... Limit (STAKES) - TIME", no tournament) is cut where its fixed
    characters are."""
    rows = lines.starts
    headers = lines.take(rows)
    cut = as_mask(pc.match_substring_regex(headers, plain))
    at_cut, other = np.flatnonzero(cut), np.flatnonzero(~cut)
    text, start, none = lines.text, lines.line_start[rows[at_cut]], pa.nulls(len(at_cut), pa.large_string())
    # "PokerStars [Zoom |Home Game ]Hand #ID: +Hold'em [No |Pot |Fixed ]Limit (STAKES) - TIME", read
    # in the bytes: the "#", the digits, the spaces, the game's words, then the stakes to their ")".
    number = start + len("PokerStars Hand ") + 5 * text.has(start + 11, b"Zoom ") + 10 * text.has(
        start + 11, b"Home Game ")
    colon = number + 1
    while (more := digits(text.bytes[colon])).any():
        colon += more
    game = colon + 1
    while (more := text.bytes[game] == SPACE).any():
        game += more
    opening = game + len("Hold'em Limit ") + sum(len(word) * text.has(game + 8, word)
                                                  for word in (b"No ", b"Pot ", b"Fixed "))
    closing = opening + found_in(text.slices(opening, lines.content_end[rows[at_cut]]), ")")
    fields = {"hand": text.slices(number + 1, colon), "variant": text.slices(game, opening - 1),
              "stakes": text.slices(opening + 1, closing),
              "time": text.slices(closing + len(") - "), lines.content_end[rows[at_cut]]),
              "tournament": none, "buy_in": none, "level": none}
    if not len(other):  # as nearly always
        return fields
    found = pc.extract_regex(headers.take(pa.array(other, pa.int64())), pattern)
    others = {"hand": found.field("id"), "variant": variant(found),
              "stakes": pc.replace_substring_regex(found.field("stakes"), r"^\((.*)\)$", r"\1"),
              "time": found.field("time")}
    for name in ("tournament", "buy_in", "level"):  # a group the header does not hold captures ""
        others[name] = pc.if_else(pc.equal(found.field(name), ""), pa.scalar(None, pa.large_string()),
                                  found.field(name))
    order = pa.array(np.argsort(np.concatenate([at_cut, other]), kind="stable"), pa.int64())
    return {name: pa.concat_arrays([field, others[name]]).take(order) for name, field in fields.items()}


def variant(header: pa.StructArray) -> pa.Array:
    """The game of each header a pattern with captures ``inner`` and ``variant`` read: the name inside
    the stakes' parenthesis (``(Omaha, $1/$2)``) or the one before it."""
    inner = header.field("inner")
    return pc.if_else(pc.not_equal(inner, ""), inner, pc.utf8_trim_whitespace(header.field("variant")))


def table_lines(lines: Lines) -> tuple[pa.Array, NDArray[np.int64], NDArray[np.int64]]:
    """Per hand, from the first line "Table 'NAME' 9-max Seat #N is the button" of its preamble: the
    table's name (null without one), its seats and the button's seat (0 where not written).

    The name ends at the line's last "' ", as ``^Table '(.*)' `` reads it; the rest is read in bytes.
    """
    text, hands = lines.text, lines.hands
    rows = lines.starting("Table '")
    rows = rows[lines.preamble(rows)]
    first = first_per(lines.hand_of[rows], hands, rows)
    has = np.flatnonzero(first >= 0)
    rows = first[has]
    start, end = lines.line_start[rows], lines.content_end[rows]
    # As nearly always "' 9-max Seat #8 is the button" ends the line: its last "' " is where they say.
    byte, button_at = text.bytes, end - len(" is the button")
    hash_at = np.where(byte[button_at - 2] == ord("#"), button_at - 2, button_at - 3)
    max_at = hash_at - len(" N-max Seat ")
    name_end = np.where(byte[max_at] == SPACE, max_at - 1, max_at - 2)
    plain = text.has(button_at, b" is the button") & text.has(hash_at - 5, b"Seat #") & text.has(
        max_at + 2, b"-max ") & text.has(name_end, b"' ") & (number_at(text, name_end + 2, b"-max") > 0) & (
        number_at(text, hash_at + 1, b" is the button") > 0)
    other = np.flatnonzero(~plain)
    name_end[other] = last_found(lines.take(rows[other]), start[other], b"' ")
    named = name_end >= start + len("Table '")
    name_end = np.where(named, name_end, end)
    begin, stop, present = np.zeros(hands, np.int64), np.zeros(hands, np.int64), np.zeros(hands, bool)
    begin[has], stop[has], present[has] = start + len("Table '"), name_end, named
    max_seats, button = np.zeros(hands, np.int64), np.zeros(hands, np.int64)
    max_seats[has] = np.where(named, number_at(text, name_end + 2, b"-max"), 0)
    seat_at = found_in(text.slices(name_end, end), "Seat #")
    button[has] = np.where(named & (seat_at >= 0), number_at(text, name_end + seat_at + len("Seat #"),
                                                             b" is the button"), 0)
    return text.slices(begin, stop, present), max_seats, button


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


def seat_numbers(text: Bytes, starts: np.ndarray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For lines (starting at ``starts``) ``Seat N: ...`` with N of one or two digits: N and where the
    text after ``": "`` starts; 0 and -1 for any other line.

    Bytes past a line's end are its ``\\n`` (or the padding), which no test below accepts.
    """
    byte = text.words[starts + 5].view(np.uint8).reshape(-1, 8)  # bytes 5 to 12 of each line
    digit = [byte[:, i].astype(np.int64) - ZERO for i in range(2)]
    colon = [(byte[:, 1 + i] == COLON) & (byte[:, 2 + i] == SPACE) for i in range(2)]
    one = digits(byte[:, 0]) & colon[0]
    two = digits(byte[:, 0]) & digits(byte[:, 1]) & colon[1]
    number = np.where(one, digit[0], np.where(two, 10 * digit[0] + digit[1], 0))
    return number, np.where(one, 8, np.where(two, 9, -1))


def number_at(text: Bytes, at: np.ndarray, after: bytes) -> NDArray[np.int64]:
    """The number of one or two digits at each offset ``at`` that ``after`` follows, 0 where none."""
    first, second = text.bytes[at].astype(np.int64) - ZERO, text.bytes[at + 1].astype(np.int64) - ZERO
    one = (first >= 0) & (first <= 9) & text.has(at + 1, after)
    two = (first >= 0) & (first <= 9) & (second >= 0) & (second <= 9) & text.has(at + 2, after)
    found: NDArray[np.int64] = np.where(one, first, np.where(two, 10 * first + second, 0))
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


def token_ends(text: Bytes, begin: NDArray[np.int64], end: NDArray[np.int64]) -> NDArray[np.int64]:
    """Where the word starting at each ``begin`` ends: the first space before ``end``, else ``end``.
    Pieces in order, none overlapping."""
    space = found_in(text.slices(begin, end), " ")
    found: NDArray[np.int64] = np.where(space >= 0, begin + space, end)
    return found


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
              cards: pa.Array) -> None:
    """Write the hole cards ``cards`` (texts: two cards, or one) at each (hand, slot) of ``holes``, a
    (hands, slots, 2) uint8 array of card codes; one card is the first, the other unknown.

    Texts of two cards and of one as the site writes them are read apart, so that neither meets
    the other's layout (which would send a whole column to :func:`card_matrix`'s slow path)."""
    length = text_lengths(cards)
    other = np.flatnonzero((length > 0) & (length != 2) & (length != 5))
    for count, rows in ((2, np.flatnonzero(length == 5)), (1, np.flatnonzero(length == 2)), (2, other),
                        (1, other)):
        if not len(rows):
            continue
        codes, _, known = card_matrix(take(cards, rows), count)
        at = (hand[rows[known]], slot[rows[known]])
        holes[at] = np.column_stack([codes[known, 0], codes[known, -1] if count == 2 else
                                     np.full(int(known.sum()), UNKNOWN_CARD, np.uint8)])


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
