"""PokerStars hand histories: the text logs a poker site writes, read as showdown deals.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.histories`,
:mod:`~pipeline.formats.scan`, the hold'em game's columns and the foundation
modules, never the runs or the command line.

This module owns the PokerStars hand-history format (``.txt`` session files,
plain or compressed; one hand after another, each starting with a header line
``PokerStars Hand #ID: ...``, ``PokerStars Zoom Hand #...``, ``PokerStars Game
#...``, tournaments included).  Every hand read ends in exactly one outcome:

* rejected, with its reason: a game other than Texas hold'em (checked before
  anything else), a header that cannot be read, a hand cut short before its
  ``*** SUMMARY ***``, a bad seat line, an action or a collection naming a
  player who is not seated, a summary line naming another player than its seat;
* set apart (valid, but not one board to score): a hand run twice, a cancelled
  hand;
* without showdown: no ``*** SHOW DOWN ***`` line;
* unknown cards: a showdown where a player still in the hand neither shows two
  cards nor mucks, or whose board has fewer than five cards;
* scored: the seats that show two cards at the showdown, numbered as the table
  numbers them (``Seat 3`` is ``p3``), on the five-card board; a player who mucks
  (``mucks hand``, or ``mucked`` in the summary) forfeits and is left empty.

The recorded winners of the main pot (``collected ... from pot`` or ``from main
pot``, and a winner named ``(pot not awarded as player cashed out)`` in the
summary) fill the expected column when the record is consistent: the total pot
less the rake must equal what was collected, cash-outs included; otherwise the
hand is still scored and counted as ``inconsistent_record``.

How a file is read
------------------
A session file is read in chunks of whole hands (:data:`CHUNK_BYTES`, cut where
a hand starts by :func:`pipeline.formats.scan.chunks`), so memory is bounded by
the chunk, not by the file.  One numpy pass over a
chunk's bytes finds its line ends; lines are told apart by their first and
last bytes, read as bytes or 64-bit words and compared in numpy, and numpy
assigns each line to its hand by a cumulative sum of hand starts.  pyarrow's
string kernels (RE2 regular expressions run in C++ over whole arrays) read
only the lines that need them, and as few times as they can: lines that
should all match one pattern (hand starts, seat lines, headers, collections)
are matched at once as one text, line by line only if that fails; texts that
recur (an action's words, a seat's fate in the summary) are read once per
different text; a header's fields are cut where its fixed characters are.
Never a loop or a regular expression per line in Python.  A name is taken
from the line only as the text before the last ``": "`` of an action line
(the site's text after it never holds one) or before the site's fixed words
of a collection, and must then be a seated name of that hand: it is never
guessed.  Names are matched as codes of one dictionary of the chunk's seated
names: a seat line, an action or a collection is a (hand, code) key, looked
up in pyarrow's hash table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per
from pipeline.errors import InputError
from pipeline.formats import scan
from pipeline.formats.histories import EXPECTED, NO_RECORDED_WINNER, reason_key
from pipeline.formats.sources import Batch, Source, format_suffix
from pipeline.games import holdem
from pipeline.text import offsets_and_data, repair_utf8, shown, spans

SUFFIXES = (".txt",)
VENUE = "PokerStars"
#: Bytes read at a time, cut at the last hand start: memory is bounded by a chunk.  Not the PHH
#: reader's part size (phh.CHUNK_BYTES, 16 MiB), a fact of its own: a chunk here is also what one
#: parse holds at once, with arrays over every line of it, so its size bounds the run's memory
#: (100,000 hands: a peak RSS of about 240 MiB at 8 MiB, 320 MiB at 16 MiB); a PHH part is read at
#: once, and parsed :data:`pipeline.formats.phh.GROUP_HANDS` hands at a time.
CHUNK_BYTES = 1 << 23
_SEATS = holdem.MAX_PLAYERS
_BOARD = 5

# Amounts: a currency sign or none (tournament chips), digits with thousands separators.
_AMOUNT = r"[$€£¥]?[0-9][0-9,]*(?:\.[0-9]+)?"
_ALL_IN = rf"(?: and is all-in| and has reached the {_AMOUNT} cap)?"
#: What a line starting a hand looks like: enough to cut a file into hands.
HAND_START = r"^PokerStars [^#]*#[0-9]+: .* - [0-9]{4}/[0-9]{1,2}/[0-9]{1,2} "
_HEADER = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #(?P<id>[0-9]+): +(?:\{[^}]*\} +)?"
           r"(?:Tournament #(?P<tournament>[0-9]+), (?:Freeroll|[^ ]+(?: [A-Z]{3})?) +)?"
           r"(?P<variant>[^(]+?) (?:- )?(?P<stakes>(?:Level [^ ]+ )?\((?:(?P<inner>[^(),]+), )?[^()]*\))"
           r" - (?P<time>.+?) *\n?$")
_TABLE = r"^Table '(?P<table>.*)' "
_SEAT = rf"^Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>{_AMOUNT}) in chips[^()]*\)"
# A seat line whose name holds no parenthesis: cut by plain searches, no captures.
_PLAIN_SEAT = rf"^Seat [0-9]+: [^(]* \({_AMOUNT} in chips[^()]*\)"
# The site's words after "NAME: " in an action line, in full: chat never ends like this.
# (CARDS and TEXT stand for what is inside brackets and parentheses: see the patterns built from it.)
_ACTION_WORDS = (rf"(?:posts [a-z &-]+ {_AMOUNT}{_ALL_IN}|folds(?: \[CARDS\])?|checks"
                 rf"|calls {_AMOUNT}{_ALL_IN}|bets {_AMOUNT}{_ALL_IN}|raises {_AMOUNT} to {_AMOUNT}{_ALL_IN}"
                 r"|shows \[CARDS\](?: \(TEXT\))?|mucks hand|doesn't show hand"
                 r"|discards [0-9]+ cards?(?: \[CARDS\])?|stands pat(?: on \[CARDS\])?) *\n?$")
_ACTION = "^" + _ACTION_WORDS.replace("CARDS", r"[^\]]*").replace("TEXT", ".*")
# The same words holding no ": " (the words after the last ": " never do), after a ": ": that one
# is the line's last.
_NO_COLON_CARDS = r"(?:[^\]:]|:+[^\]: ])*:*"
_NO_COLON_TEXT = r"(?:[^\n:]|:+[^\n: ])*:*"
_ACTION_AFTER = ": " + _ACTION_WORDS.replace("CARDS", _NO_COLON_CARDS).replace("TEXT", _NO_COLON_TEXT)
_COLLECT = (rf"^(?P<name>.+) collected (?P<amount>{_AMOUNT}) from "
            r"(?P<pot>pot|main pot|side pot(?:-[0-9]+)?) *\n?$")
_TOTAL = rf"^Total pot (?P<total>{_AMOUNT})(?: .*)? \| Rake (?P<rake>{_AMOUNT})"
_TAGS = r"^(?: \([a-z ]+\))*"
# A header of the common form: a hold'em hand, whose full pattern (below) needs no captures to tell.
# It reads as :data:`_HEADER` does: no tournament, no braces, the game's words never "-", "Level"
# or a parenthesis (so the game ends there), no comma in the stakes (so no game inside them).
_HEADER_HOLDEM = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +"
                  r"Hold'em (?:(?:No|Pot|Fixed) )?Limit (?:- )?(?:Level [^ ]+ )?\([^(),]*\) - .+? *\n?$")
# A header that :data:`_HEADER` reads as its fixed characters cut it: no tournament, no braces, the
# game "Hold'em ... Limit" then " (" and the stakes, no comma (no game inside them), then " - " and a
# time starting and ending with other than a space.
_HEADER_PLAIN = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +Hold'em (?:(?:No|Pot|Fixed) )?"
                 r"Limit \([^(),]*\) - [^ \n](?:.*[^ \n])?\n?$")
_CASHED_OUT = (rf"{_TAGS} showed \[[^\]]*\] and won \((?P<amount>{_AMOUNT})\)"
               r".*\(pot not awarded as player cashed out\)")
_TWO_CARDS = r"^[^ ]{2} [^ ]{2}$"

_START_BYTES = re.compile(HAND_START.encode())
_START_BYTE = HAND_START.encode()[1]  # after the pattern's "^"


def _lines_of(content: str) -> str:
    """A pattern for a text of lines ("\\n" after each, maybe not after the last) each of whose text
    matches ``content``: what a pattern ``^content\\n?$`` says of each line, said of them all at
    once.  ``content`` never matches a "\\n"."""
    return rf"^(?:{content}\n)*(?:{content})?$"


# Patterns above, for many lines at once (see :func:`_matching`): the same, but that no class of
# characters takes a line end, and that what a pattern leaves open at a line's end is the rest of it.
_HAND_STARTS = _lines_of(r"PokerStars [^#\n]*#[0-9]+: .* - [0-9]{4}/[0-9]{1,2}/[0-9]{1,2} .*")
_PLAIN_SEATS = _lines_of(rf"Seat [0-9]+: [^(\n]* \({_AMOUNT} in chips[^()\n]*\).*")
_COLLECTS = _lines_of(rf".+ collected {_AMOUNT} from (?:pot|main pot|side pot(?:-[0-9]+)?) *")
_HEADERS_HOLDEM = _lines_of(r"PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +Hold'em "
                            r"(?:(?:No|Pot|Fixed) )?Limit (?:- )?(?:Level [^ \n]+ )?\([^(),\n]*\) - .+? *")

# Outcomes of a hand.
SCORED, WITHOUT_SHOWDOWN, UNKNOWN_CARDS, SET_APART, REJECTED = range(5)


def is_pokerstars(path: Path) -> bool:
    """Whether a ``.txt`` file (plain or compressed) starts with a PokerStars header line.

    Reads the first bytes only; a file that cannot be read is not one.
    """
    suffix, compression = format_suffix(path)
    if suffix not in SUFFIXES:
        return False
    try:
        with pa.input_stream(str(path), compression=compression) as stream:
            head: bytes = stream.read(64)
    except (pa.ArrowException, OSError):
        return False
    return head.removeprefix(scan.BOM).startswith(b"PokerStars")


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """Read a PokerStars source in batches of at most ``batch_rows`` hands.

    Each batch's table holds :data:`pipeline.formats.histories.COLUMNS` for
    the hands scored; its rows are the hands' numbers in the file (1-based,
    every hand counted), its lines the line where each hand starts; rejected
    hands are in ``unreadable`` (with the line of the fault) and the others in
    ``counts``.

    Raises InputError naming the file when it cannot be read (a damaged archive).
    """
    hands_before = 0
    for piece, first_line, newlines in _pieces(source):
        parsed = _parse(piece, first_line, hands_before, source.name, newlines)
        for begin in range(0, parsed.hands, batch_rows):
            yield parsed.batch(begin, min(begin + batch_rows, parsed.hands))
        hands_before += parsed.hands


def _pieces(source: Source) -> Iterator[tuple[NDArray[np.uint8], int, NDArray[np.intp]]]:
    """Whole hands of a source, a chunk at a time (:func:`pipeline.formats.scan.chunks`, cut at
    :func:`_last_start`), with line ends ``\\n`` and no byte-order mark (:func:`_tidy`).

    Yields (text, number of its first line, where its ``\\n`` are).
    """
    line = 1
    try:
        with pa.input_stream(str(source.path), compression=source.compression) as stream:
            for chunk in scan.chunks(stream, _last_start, size=CHUNK_BYTES, tidy=_tidy):
                yield chunk.text, line, chunk.newlines
                line += len(chunk.newlines)
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read past line {line} ({error})") from None


def _tidy(text: NDArray[np.uint8], end: bool) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """A block of a log as it is read: line ends ``\\n`` (from ``\\r\\n`` and a lone ``\\r`` too), and
    no byte-order mark after one (sessions pasted together keep their marks); and a ``\\r`` that
    ends a block that is not the file's end, held back for the next block, so that a ``\\r\\n``
    split between the two stays one line end."""
    held = text[len(text):]
    if not end and len(text) and text[-1] == _RETURN:
        text, held = text[:-1], text[-1:]
    if (text == _RETURN).any():
        text = np.frombuffer(text.tobytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n"), dtype=np.uint8)
    if len(text) and text.max() >= scan.BOM[0]:
        raw = text.tobytes()
        if b"\n" + scan.BOM in raw:
            text = np.frombuffer(raw.replace(b"\n" + scan.BOM, b"\n"), dtype=np.uint8)
    return text, held


def _last_start(text: NDArray[np.uint8], newlines: NDArray[np.intp]) -> int:
    """Where the last line that starts a hand begins (0 if only at the start, or none); ``newlines``
    are the offsets of the text's line ends.

    The lines are looked at from the end, a few at a time and then twice as many (the last hand
    starts a few dozen lines before the end), and only those that start as a header does are
    matched.
    """
    stop, window = len(newlines), 64
    while stop > 0:
        begin = max(stop - window, 0)
        starts = newlines[begin:stop] + 1  # the lines after these line ends
        ends = newlines[begin + 1:stop + 1]
        if len(ends) < len(starts):
            ends = np.append(ends, len(text))
        pick = starts < len(text)
        pick[pick] = text[starts[pick]] == _START_BYTE
        for at, end in zip(starts[pick][::-1].tolist(), ends[pick][::-1].tolist()):
            if _START_BYTES.match(text[at:end].tobytes()):
                return int(at)
        stop, window = begin, 2 * window
    return 0


_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_PAD = 32  # zero bytes after a chunk's text: a word can be read at any offset up to 24 bytes past its end
_NEWLINE, _RETURN, _COLON, _SPACE, _ZERO, _NINE = (ord(c) for c in "\n\r: 09")
# Words after "NAME: " that are actions as they stand, without reading an amount.
_PLAIN_ACTIONS = (b"folds", b"checks", b"mucks hand", b"doesn't show hand")
# The last byte of the text of a line that can be an action (before spaces): see :data:`_ACTION`.
_ACTION_ENDS = np.zeros(256, dtype=bool)
_ACTION_ENDS[np.frombuffer(b"0123456789nps])dt ", dtype=np.uint8)] = True


def _word(text: bytes) -> np.uint64:
    """Up to 8 bytes as the little-endian word the chunk's words are compared with."""
    return np.uint64(int.from_bytes(text, "little"))


class _Bytes:
    """A chunk's text as numpy bytes, and as little-endian words starting at every byte offset.

    Words are read without a copy (numpy allows unaligned strides) from a
    copy of the text padded with zeros, so a word may start anywhere in it.
    """

    def __init__(self, piece: NDArray[np.uint8] | bytes) -> None:
        self.size = len(piece)
        padded = np.empty(len(piece) + _PAD, dtype=np.uint8)
        padded[:len(piece)] = np.frombuffer(piece, dtype=np.uint8)
        padded[len(piece):] = 0
        self.bytes = padded
        self.words = np.ndarray(shape=(len(piece) + _PAD - 7,), dtype="<u8", buffer=padded, strides=(1,))
        self.buffer = pa.py_buffer(piece)

    def has(self, at: np.ndarray, text: bytes) -> NDArray[np.bool_]:
        """Whether ``text`` is written at each offset ``at`` (offsets in the text, ``text`` at most 24 bytes).

        ``text`` holds no ``\\n`` and no zero byte, so it is never found across a line end.
        """
        found: NDArray[np.bool_] = (self.words[at] & _MASKS[min(len(text), 8)]) == _word(text[:8])
        for k in range(8, len(text), 8):
            piece = text[k:k + 8]
            found &= (self.words[at + k] & _MASKS[len(piece)]) == _word(piece)
        return found

    def slices(self, begin: np.ndarray, end: np.ndarray) -> pa.Array:
        """The text from ``begin`` to ``end`` of each piece as strings, pieces in order, none
        overlapping: :func:`pipeline.text.spans` of the text."""
        return spans(self.buffer, begin, end)


def _last_colons(lines: pa.Array, start: np.ndarray) -> NDArray[np.int64]:
    """Where the last ``": "`` of each line (starting at ``start`` in the text) is, -1 if none: the
    first ``" :"`` of the line read backwards."""
    backwards = pc.binary_reverse(lines.cast(pa.large_binary()))
    found = pc.find_substring(backwards, b" :").to_numpy(zero_copy_only=False).astype(np.int64)
    length = pc.binary_length(lines).to_numpy(zero_copy_only=False).astype(np.int64)
    return np.where(found >= 0, start + length - 2 - found, -1)


def _bracketed(text: _Bytes, begin: np.ndarray, stop: np.ndarray) -> pa.Array:
    """The text from each ``begin`` (just after a ``[``) to the first ``]`` before ``stop``, null
    when there is none: what ``\\[([^\\]]*)\\]`` captures.  Pieces in order, none overlapping."""
    close = pc.find_substring(text.slices(begin, stop), "]").to_numpy(zero_copy_only=False).astype(np.int64)
    inside = text.slices(begin, begin + np.maximum(close, 0))
    return pc.if_else(pa.array(close >= 0), inside, pa.scalar(None, pa.large_string()))


def _matching(lines: pa.Array, line: str, block: str) -> NDArray[np.bool_]:
    """Which of ``lines`` (each with its "\\n", the last maybe without) match the pattern ``line``.

    Most often all of them do: their whole text is matched by ``block``, the same pattern for all
    the lines at once (:func:`_lines_of`), in one call; else each line is matched alone.
    """
    if len(lines):
        offsets, data, _ = offsets_and_data(lines)
        whole = pa.Array.from_buffers(pa.large_string(), 1, [None, pa.py_buffer(np.array(
            [offsets[0], offsets[-1]], dtype=np.int64)), pa.py_buffer(data)])
        if pc.match_substring_regex(whole, block)[0].as_py():
            return np.ones(len(lines), dtype=bool)
    return as_mask(pc.match_substring_regex(lines, line))


def _digits(values: NDArray[np.uint8]) -> NDArray[np.bool_]:
    found: NDArray[np.bool_] = (values >= _ZERO) & (values <= _NINE)
    return found


def _seat_numbers(text: _Bytes, starts: np.ndarray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For lines (starting at ``starts``) ``Seat N: ...`` with N of one or two digits: N and where the
    text after ``": "`` starts; 0 and -1 for any other line.

    Bytes past a line's end are its ``\\n`` (or the padding), which no test below accepts.
    """
    byte = text.words[starts + 5].view(np.uint8).reshape(-1, 8)  # bytes 5 to 12 of each line
    digit = [byte[:, i].astype(np.int64) - _ZERO for i in range(2)]
    colon = [(byte[:, 1 + i] == _COLON) & (byte[:, 2 + i] == _SPACE) for i in range(2)]
    one = _digits(byte[:, 0]) & colon[0]
    two = _digits(byte[:, 0]) & _digits(byte[:, 1]) & colon[1]
    number = np.where(one, digit[0], np.where(two, 10 * digit[0] + digit[1], 0))
    return number, np.where(one, 8, np.where(two, 9, -1))


def _text(value: str) -> pa.Scalar:
    """A text scalar of the type the lines have (large_string), for kernels that need one type."""
    return pa.scalar(value, pa.large_string())


def _take(array: pa.Array, rows: np.ndarray) -> pa.Array:
    return array.take(pa.array(rows, pa.int64()))


def _amounts(texts: pa.Array) -> NDArray[np.float64]:
    """Amounts as written (``$1,500.25``, ``€0.05``, ``1500``) as float64; NaN where empty or null."""
    plain = pc.replace_substring_regex(texts, "[$€£¥,]", "")
    fine = as_mask(pc.match_substring_regex(plain, r"^[0-9]+(?:\.[0-9]+)?$"))
    values = np.full(len(texts), np.nan)
    if fine.any():
        values[fine] = pc.cast(plain.filter(pa.array(fine)), pa.float64()).to_numpy(zero_copy_only=False)
    return values


@dataclass
class _Parsed:
    """The hands of one chunk, decided; :meth:`batch` cuts them into batches.

    Arrays are per hand, in file order (hand i of the chunk is row i).
    """

    hands: int
    ordinal: NDArray[np.int64]  # the hand's number in its file
    line: NDArray[np.int64]  # the line where the hand starts
    outcome: NDArray[np.int64]  # SCORED ... REJECTED
    problem: list[tuple[int, str, str]]  # per rejected hand, in order: (line, text, reason)
    apart_reason: list[str | None]
    inconsistent: NDArray[np.bool_]
    inconsistent_reason: NDArray[np.str_]
    recorded: NDArray[np.bool_]
    table: pa.Table  # one row per scored hand, in order

    def batch(self, begin: int, stop: int) -> Batch:
        """The batch of hands ``begin`` to ``stop`` (positions in the chunk)."""
        outcome = self.outcome[begin:stop]
        scored_before = int((self.outcome[:begin] == SCORED).sum())
        scored = np.flatnonzero(outcome == SCORED) + begin
        table = self.table.slice(scored_before, len(scored))
        rejected_before = int((self.outcome[:begin] == REJECTED).sum())
        unreadable = []
        for offset, hand in enumerate(np.flatnonzero(outcome == REJECTED) + begin):
            line, text, reason = self.problem[rejected_before + offset]
            unreadable.append((int(self.ordinal[hand]), line, text, reason))
        counts = {"without_showdown": int((outcome == WITHOUT_SHOWDOWN).sum()),
                  "unknown_cards": int((outcome == UNKNOWN_CARDS).sum()),
                  "set_apart": int((outcome == SET_APART).sum())}
        for hand in np.flatnonzero(outcome == SET_APART) + begin:
            key = reason_key("set_apart", str(self.apart_reason[hand]))
            counts[key] = counts.get(key, 0) + 1
        scored_mask = outcome == SCORED
        recorded = self.recorded[begin:stop]
        inconsistent = scored_mask & recorded & self.inconsistent[begin:stop]
        counts["inconsistent_record"] = int(inconsistent.sum())
        for reason in self.inconsistent_reason[begin:stop][inconsistent]:
            key = reason_key("inconsistent_record", str(reason))
            counts[key] = counts.get(key, 0) + 1
        counts["no_recorded_result"] = int((scored_mask & ~recorded).sum())
        batch = Batch(table, self.ordinal[scored], self.line[scored], unreadable, counts=counts)
        batch.last_row = int(self.ordinal[stop - 1]) if stop > begin else 0
        return batch


class _Rejects:
    """The first reason each hand is rejected for, with the line and text of the fault."""

    def __init__(self, hands: int) -> None:
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


def _parse(piece: NDArray[np.uint8] | bytes, first_line: int, hands_before: int, path: str,
           newlines: NDArray[np.intp] | None = None) -> _Parsed:
    """Decide every hand of a chunk of whole hands (text with ``\\n`` line ends, at ``newlines`` if
    known)."""
    piece, bad_lines = repair_utf8(piece)  # bytes replaced are never a "\n"
    text = _Bytes(piece)
    if newlines is None:
        newlines = scan.line_ends(text.bytes[:text.size])
    line_offsets = np.concatenate([[0], newlines + 1, [len(piece)]]).astype(np.int64)
    if line_offsets[-2] == len(piece):  # the text ends with "\n": its last line is empty
        line_offsets = line_offsets[:-1]
    # Lines without a copy: each keeps its "\n" (patterns allow it at the end).
    lines = pa.Array.from_buffers(pa.large_string(), len(line_offsets) - 1,
                                  [None, pa.py_buffer(line_offsets), text.buffer])
    n = len(lines)
    line_start, line_stop = line_offsets[:-1], line_offsets[1:]
    content_end = line_stop - 1  # each line's "\n", but the last's if the text does not end with one
    content_end[-1] += piece[-1] != _NEWLINE
    # The last byte of each line's text (0: none), which tells what its end can be.
    last_byte = np.where(content_end > line_start, text.bytes[content_end - 1], 0)

    # Lines are told apart by their first bytes: the first one narrows, the others are compared as
    # words, in numpy.
    first_byte = text.bytes[line_start]

    def starting(prefix: str) -> NDArray[np.int64]:
        """The lines that start with ``prefix``."""
        wanted = prefix.encode()
        rows = np.flatnonzero(first_byte == wanted[0])
        found: NDArray[np.int64] = rows[text.has(line_start[rows], wanted)]
        return found

    # Hands: a line that starts one, and each line's hand.
    candidates = starting("PokerStars ")
    start = np.zeros(n, dtype=bool)
    start[candidates[_matching(_take(lines, candidates), HAND_START, _HAND_STARTS)]] = True
    start[0] = True  # a chunk starts at a hand (the file's first line is a header)
    hand_of = np.cumsum(start) - 1
    starts = np.flatnonzero(start)
    hands = len(starts)
    rejects = _Rejects(hands)

    def line_texts(rows: np.ndarray) -> list[str]:
        got: list[str] = [line.rstrip("\n") for line in _take(lines, rows).to_pylist()]
        return got

    def reject_lines(rows: np.ndarray, reason: str | list[str]) -> None:
        """Reject the hands of the lines at ``rows`` (first fault of each hand)."""
        if not len(rows):
            return
        hand_rows, first = np.unique(hand_of[rows], return_index=True)
        chosen = rows[first]
        texts = line_texts(chosen)
        reasons = [reason] * len(chosen) if isinstance(reason, str) else [reason[i] for i in first]
        rejects.add(hand_rows, chosen, texts, reasons)

    # Sections: '*** ' markers; the lines before the first are the preamble (seats, blinds).
    markers = starting("*** ")
    marker_word = text.words[line_start[markers] + 4]  # the title's first 8 bytes, read once

    def marked(title: str) -> NDArray[np.int64]:
        """The marker lines "*** TITLE ***..." (``title`` of 8 bytes or more, "*** " included)."""
        wanted = title.encode()
        rows = markers[marker_word == _word(wanted[4:12])]
        found: NDArray[np.int64] = rows[text.has(line_start[rows] + 12, wanted[12:])]
        return found

    is_marker = np.zeros(n, dtype=bool)
    is_marker[markers] = True
    first_marker = first_per(hand_of[markers], hands, markers, fill=n + 1)
    summary_mark = marked("*** SUMMARY ***")
    summary_at = first_per(hand_of[summary_mark], hands, summary_mark, fill=n + 1)
    has_summary = summary_at <= n

    def preamble(rows: np.ndarray, hand: np.ndarray | None = None) -> NDArray[np.bool_]:
        hand = hand_of[rows] if hand is None else hand
        found: NDArray[np.bool_] = (rows > starts[hand]) & (rows < first_marker[hand])
        return found

    def in_summary(rows: np.ndarray, hand: np.ndarray | None = None) -> NDArray[np.bool_]:
        found: NDArray[np.bool_] = rows > summary_at[hand_of[rows] if hand is None else hand]
        return found

    def flag(rows: np.ndarray) -> NDArray[np.bool_]:
        per_hand = np.zeros(hands, dtype=bool)
        per_hand[hand_of[rows]] = True
        return per_hand

    showdown = flag(marked("*** SHOW DOWN ***"))
    twice = flag(np.concatenate([marked("*** FIRST SHOW DOWN ***"), marked("*** FIRST FLOP ***"),
                                 starting("Hand was run twice"), starting("FIRST Board [")]))
    cancelled = flag(starting("Hand cancelled"))

    # Header: a header of the common form is a hold'em hand as it stands (the pattern with
    # captures, slower, runs on the others here, and on the hands scored at the end).
    headers = _take(lines, starts)
    header_ok = _matching(headers, _HEADER_HOLDEM, _HEADERS_HOLDEM)
    holdem_game = header_ok.copy()
    other_headers = np.flatnonzero(~header_ok)
    other_header = pc.extract_regex(headers.take(pa.array(other_headers, pa.int64())), _HEADER)
    header_ok[other_headers] = other_header.is_valid().to_numpy(zero_copy_only=False)
    other_variant = _variant(other_header)
    holdem_game[other_headers] = as_mask(pc.starts_with(other_variant, "Hold'em "))
    reject_lines(starts[~header_ok], "hand header not understood")
    other = np.flatnonzero(header_ok & ~holdem_game)
    variant_text = other_variant.take(pa.array(np.searchsorted(other_headers, other), pa.int64())).to_pylist()
    reject_lines(starts[other], [f"game {shown(str(name))} is not Texas hold'em" for name in variant_text])

    # The bytes were replaced: the hand is not read as if they were fine.
    reject_lines(bad_lines, "bytes that are not UTF-8 text")
    reject_lines(starts[~has_summary], "hand cut short: no *** SUMMARY *** line")

    # Seats: "Seat N: NAME (STACK in chips)" in the preamble.  A name without a parenthesis
    # (nearly all) is cut by plain searches; the others by the full pattern, with captures.
    seat_lines = starting("Seat ")
    seat_line_hand = hand_of[seat_lines]
    seat_numbers, name_at = _seat_numbers(text, line_start[seat_lines])
    in_preamble = preamble(seat_lines, seat_line_hand)
    seat_candidates, candidate_name_at = seat_lines[in_preamble], name_at[in_preamble]
    candidate_numbers = seat_numbers[in_preamble]
    candidate_lines = _take(lines, seat_candidates)
    plain = _matching(candidate_lines, _PLAIN_SEAT, _PLAIN_SEATS) & (candidate_name_at > 0)
    plain_rows = seat_candidates[plain]
    plain_at = candidate_name_at[plain]
    paren = pc.find_substring(candidate_lines.filter(pa.array(plain)), " (").to_numpy(
        zero_copy_only=False).astype(np.int64)
    plain_names = text.slices(line_start[plain_rows] + plain_at, line_start[plain_rows] + paren)
    other_rows = seat_candidates[~plain]
    seat_found = pc.extract_regex(candidate_lines.filter(pa.array(~plain)), _SEAT)
    seat_ok = seat_found.is_valid().to_numpy(zero_copy_only=False)
    seat_fields = seat_found.filter(pa.array(seat_ok))
    seat_text = seat_fields.field("seat")
    # A number of more digits than any seat has may not fit in int64: read as 0, out of range below.
    too_long = pc.greater(pc.utf8_length(seat_text), 3)
    seat_text = pc.if_else(too_long, pa.scalar("0", seat_text.type), seat_text)
    other_numbers = pc.cast(seat_text, pa.int64()).to_numpy(zero_copy_only=False) \
        if seat_ok.any() else np.zeros(0, np.int64)
    other_rows = other_rows[seat_ok]

    def lengths(strings: pa.Array) -> NDArray[np.int64]:
        found: NDArray[np.int64] = pc.binary_length(strings).to_numpy(zero_copy_only=False).astype(np.int64)
        return found

    seat_rows = np.concatenate([plain_rows, other_rows])
    order = np.argsort(seat_rows, kind="stable")
    seat_rows = seat_rows[order]
    seat_no = np.concatenate([candidate_numbers[plain], other_numbers])[order]
    seat_name = pa.concat_arrays([plain_names, seat_fields.field("name").cast(pa.large_string())]).take(
        pa.array(order))
    name_length = np.concatenate([paren - plain_at, lengths(seat_fields.field("name"))])[order]
    seat_hand = hand_of[seat_rows]
    out_of_range = (seat_no < 1) | (seat_no > _SEATS)
    reject_lines(seat_rows[out_of_range], f"seats are numbered 1 to {_SEATS}")
    keep = ~out_of_range
    seat_rows, seat_no, seat_hand = seat_rows[keep], seat_no[keep], seat_hand[keep]
    name_length = name_length[keep]
    seat_name = seat_name.filter(pa.array(keep))
    pair = seat_hand * (_SEATS + 1) + seat_no
    _, first_pair, pair_counts = np.unique(pair, return_index=True, return_counts=True)
    twice_seated = np.isin(pair, pair[first_pair[pair_counts > 1]]) if len(pair) else np.zeros(0, bool)
    reject_lines(seat_rows[twice_seated], "a seat is listed twice")
    # Names are matched as codes: one dictionary of the chunk's seated names, so that equal names
    # have equal codes; a seat line, an action or a collection by (hand, code).
    seat_names = seat_name.dictionary_encode()
    known_names = seat_names.dictionary
    seat_code = seat_names.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    seat_key = seat_hand * len(known_names) + seat_code
    by_key = np.argsort(seat_key, kind="stable")  # nearly sorted already: by hand
    same_key = seat_key[by_key][1:] == seat_key[by_key][:-1]
    doubled = np.zeros(len(seat_rows), dtype=bool)
    doubled[by_key[1:][same_key]] = doubled[by_key[:-1][same_key]] = True
    seat_keys = pa.array(seat_key, pa.int64())
    reject_lines(seat_rows[doubled], "a name is seated twice")
    no_seats = np.bincount(seat_hand, minlength=hands) == 0
    reject_lines(starts[no_seats], "no seat lines")
    seat_of_hand = np.full((hands, _SEATS), -1, dtype=np.int64)  # seat-row index by hand and seat
    seat_of_hand[seat_hand, seat_no - 1] = np.arange(len(seat_rows))

    def seated(rows: np.ndarray, names: pa.Array) -> NDArray[np.int64]:
        """The seat number (1-based) of each name in the hand of its line, 0 when not seated there."""
        code = pc.index_in(names, value_set=known_names).fill_null(-1).to_numpy(
            zero_copy_only=False).astype(np.int64)
        keys = pa.array(np.where(code >= 0, hand_of[rows] * len(known_names) + code, -1), pa.int64())
        found = pc.index_in(keys, value_set=seat_keys).fill_null(-1).to_numpy(zero_copy_only=False)
        return np.where(found >= 0, seat_no[np.maximum(found, 0)] if len(seat_no) else 0, 0)

    # Actions: "NAME: WORDS", the name before the last ": ", the words the site's own.  Words
    # of a fixed form are found at the end of the line (they hold no ": ").  In the other lines
    # that can end as an action (by their last byte), the words after the first ": " are read by
    # the full pattern, once per different text; a line whose words hold another ": " (its name
    # holds one) is searched for its last.
    body_lines = ~start & ~is_marker & (np.arange(n) <= summary_at[hand_of])
    in_body = body_lines.copy()
    in_body[seat_rows] = False
    colon = np.full(n, -1, dtype=np.int64)  # where the last ": " of each action line is
    for end in {words[-1] for words in _PLAIN_ACTIONS}:
        rows = np.flatnonzero(last_byte == end)
        rows = rows[in_body[rows]]
        for words in _PLAIN_ACTIONS:
            if words[-1] == end:
                form = b": " + words
                found = rows[(content_end[rows] - line_start[rows] >= len(form)) & text.has(
                    content_end[rows] - len(form), form)]
                colon[found] = content_end[found] - len(form)
    candidates = np.flatnonzero(in_body & (colon < 0) & _ACTION_ENDS[last_byte])
    candidate_lines = _take(lines, candidates)
    first_colon = pc.find_substring(candidate_lines, ": ").to_numpy(zero_copy_only=False).astype(np.int64)
    rows = candidates[first_colon >= 0]
    first_at = line_start[rows] + first_colon[first_colon >= 0]
    # The words after the first ": ", read once per different text (the same words recur).
    words = text.slices(first_at + 2, line_stop[rows]).dictionary_encode()
    texts = words.dictionary
    word_code = words.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    colon_again = as_mask(pc.match_substring(texts, ": "))[word_code]
    read = as_mask(pc.match_substring_regex(texts, _ACTION))[word_code] & ~colon_again
    colon[rows[read]] = first_at[read]
    # Another ": " after the first: the name holds one, and the last one is sought.
    rows = rows[colon_again]
    rows = rows[as_mask(pc.match_substring_regex(_take(lines, rows), _ACTION_AFTER))]
    colon[rows] = _last_colons(_take(lines, rows), line_start[rows])
    action_rows = np.flatnonzero(colon >= 0)
    action_at = colon[action_rows]
    words_at = action_at + 2
    actor_names = text.slices(line_start[action_rows], action_at)

    # Collections: "NAME collected AMOUNT from pot | main pot | side pot[-N]", read in the body's
    # lines whose end may be that: " pot", "pot-" and digits, or a space.  An action never ends so.
    open_end = np.where(body_lines & (colon < 0), last_byte, 0)
    pot = np.flatnonzero(open_end == ord("t"))
    pot = pot[(content_end[pot] - line_start[pot] >= 4) & text.has(content_end[pot] - 4, b" pot")]
    numbered = np.flatnonzero(_digits(open_end))
    numbered_pot = []
    for count in range(1, 13):  # "pot-" before the last digits, as many as there are
        before = content_end[numbered] - count
        numbered_pot.append(numbered[(before - 4 >= line_start[numbered]) & text.has(
            np.maximum(before - 4, 0), b"pot-")])
        more = (before - 1 >= line_start[numbered]) & _digits(text.bytes[np.maximum(before - 1, 0)])
        numbered = numbered[more]
    # Also more digits than counted, and spaces at the end: the pattern reads them all.
    collect_candidates = np.unique(np.concatenate([pot, *numbered_pot, numbered,
                                                   np.flatnonzero(open_end == _SPACE)]))
    collect_lines = _take(lines, collect_candidates)
    collect_ok = _matching(collect_lines, _COLLECT, _COLLECTS)
    collect_rows = collect_candidates[collect_ok]
    # The line matched the pattern: the name is before the last " collected ", the amount (no
    # space in it) after it, then " from " and the pot, until the spaces and the line end.
    name_and_rest = pc.split_pattern(collect_lines.filter(pa.array(collect_ok)), " collected ",
                                     max_splits=1, reverse=True)
    collector_name = pc.list_element(name_and_rest, 0)
    amount_and_pot = pc.split_pattern(pc.list_element(name_and_rest, 1), " from ", max_splits=1)

    # Names of actions and collections, looked up at once: each in the seat lines of its hand.
    seat_found = seated(np.concatenate([action_rows, collect_rows]), pa.concat_arrays(
        [actor_names, collector_name.cast(pa.large_string())]))
    actor, collector = seat_found[:len(action_rows)], seat_found[len(action_rows):]
    unseated = np.flatnonzero(actor == 0)
    names_shown = actor_names.take(pa.array(unseated)).to_pylist()
    reject_lines(action_rows[unseated], [f"action of {shown(str(name))}, who is not seated"
                                         for name in names_shown])
    unseated = np.flatnonzero(collector == 0)
    names_shown = collector_name.take(pa.array(unseated)).to_pylist()
    reject_lines(collect_rows[unseated], [f"{shown(str(name))} collects, but is not seated"
                                          for name in names_shown])

    # Cards shown, and hands mucked: only a showdown needs them.
    at_showdown = np.flatnonzero(showdown[hand_of[action_rows]] & (actor > 0))
    shows = at_showdown[text.has(words_at[at_showdown], b"shows [")]
    shown_cards = _bracketed(text, words_at[shows] + len("shows ["), line_stop[action_rows[shows]])
    two = as_mask(pc.match_substring_regex(shown_cards, _TWO_CARDS))
    revealed = np.full((hands, _SEATS), -1, dtype=np.int64)  # index into shown_cards, -1: none
    # The last show of a seat counts (a player may show again at the showdown).
    shows_hand, shows_seat = hand_of[action_rows[shows]], actor[shows] - 1
    if len(shows):
        order = np.arange(len(shows))
        last = np.unique((shows_hand * _SEATS + shows_seat)[::-1], return_index=True)[1]
        chosen = order[::-1][last]
        revealed[shows_hand[chosen], shows_seat[chosen]] = np.where(two[chosen], chosen, -1)
    mucked = np.zeros((hands, _SEATS), dtype=bool)
    mucks = at_showdown[text.has(words_at[at_showdown], b"mucks hand")]
    mucked[hand_of[action_rows[mucks]], actor[mucks] - 1] = True

    # What was collected, and by whom: only a showdown scored needs it.
    collected = np.zeros(hands)
    counted = np.flatnonzero(showdown[hand_of[collect_rows]])
    counted_parts = amount_and_pot.take(pa.array(counted, pa.int64()))
    amounts = _amounts(pc.list_element(counted_parts, 0))
    np.add.at(collected, hand_of[collect_rows[counted]], np.nan_to_num(amounts))
    pots = pc.utf8_rtrim(pc.list_element(counted_parts, 1), characters=" \n")
    main_pot = as_mask(pc.is_in(pots, value_set=pa.array(["pot", "main pot"])))
    main = counted[main_pot & (collector[counted] > 0)]
    winners = np.zeros(hands, dtype=np.int64)
    np.bitwise_or.at(winners, hand_of[collect_rows[main]], np.left_shift(1, collector[main] - 1))

    # Summary: each seat's fate, after "Seat N: " and that seat's name, exactly.
    summary = in_summary(seat_lines, seat_line_hand) & (name_at > 0)
    summary_rows, summary_seat, summary_at_name = seat_lines[summary], seat_numbers[summary], name_at[summary]
    in_range = (summary_seat >= 1) & (summary_seat <= _SEATS)
    seat_row = np.where(in_range, seat_of_hand[hand_of[summary_rows],
                                               np.clip(summary_seat, 1, _SEATS) - 1], -1)
    known = seat_row >= 0
    # "Seat 3: ", never "Seat 03: ": the number as written, then the name, byte for byte.
    named = known & ((summary_at_name == 8) | (text.bytes[line_start[summary_rows] + 5] != _ZERO))
    row_of = np.maximum(seat_row, 0)
    expected_length = name_length[row_of] if len(seat_rows) else np.zeros(len(summary_rows), np.int64)
    named &= line_stop[summary_rows] - line_start[summary_rows] - summary_at_name >= expected_length
    fate_at = line_start[summary_rows] + summary_at_name
    check = np.flatnonzero(named)
    if len(check):
        code = pc.index_in(text.slices(fate_at[check], fate_at[check] + expected_length[check]),
                           value_set=known_names).fill_null(-1).to_numpy(zero_copy_only=False)
        named[check] = code == seat_code[row_of[check]]
    fate_at += expected_length
    wrong = np.flatnonzero(~named)
    reject_lines(summary_rows[wrong], [f"summary line of seat {summary_seat[i]} does not name its player"
                                       for i in wrong])
    read = np.flatnonzero(named & showdown[hand_of[summary_rows]])  # a fate counts at a showdown only
    fates = text.slices(fate_at[read], line_stop[summary_rows[read]])
    summary_hand, summary_index = hand_of[summary_rows[read]], summary_seat[read] - 1
    # Each different fate is read once (the same ones recur).
    fate = fates.dictionary_encode()
    fate_texts, fate_code = fate.dictionary, fate.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    live = np.zeros((hands, _SEATS), dtype=bool)
    live[summary_hand, summary_index] = ~as_mask(pc.match_substring_regex(fate_texts, _TAGS + " folded"))[
        fate_code]
    mucks_late = as_mask(pc.match_substring_regex(fate_texts, _TAGS + " mucked"))[fate_code]
    mucked[summary_hand[mucks_late], summary_index[mucks_late]] = True
    cashed_out = as_mask(pc.match_substring(fate_texts, "(pot not awarded as player cashed out)"))
    cash = np.flatnonzero(cashed_out[fate_code])
    cash_found = pc.extract_regex(fates.take(pa.array(cash)), _CASHED_OUT)
    cash_ok = cash_found.is_valid().to_numpy(zero_copy_only=False)
    cash, cash_amount = cash[cash_ok], _amounts(cash_found.field("amount").filter(pa.array(cash_ok)))
    np.add.at(collected, summary_hand[cash], np.nan_to_num(cash_amount))
    np.bitwise_or.at(winners, summary_hand[cash], np.left_shift(1, summary_index[cash]))
    recorded = (np.bincount(hand_of[collect_rows], minlength=hands) + np.bincount(
        summary_hand[cash], minlength=hands)) > 0

    # Total pot and rake; the board: the first line of each in the summary, read at a showdown.
    def first_in_summary(prefix: str) -> NDArray[np.int64]:
        rows = starting(prefix)
        rows = rows[in_summary(rows)]
        found = first_per(hand_of[rows], hands, rows)
        found[~showdown] = -1
        return found

    total_row = first_in_summary("Total pot ")
    has_total = total_row >= 0
    total_found = pc.extract_regex(_take(lines, total_row[has_total]), _TOTAL)
    pot = np.full(hands, np.nan)
    rake = np.full(hands, np.nan)
    pot[has_total] = _amounts(total_found.field("total"))
    rake[has_total] = _amounts(total_found.field("rake"))
    inconsistent = ~(np.abs(pot - rake - collected) <= 1e-9 * (1 + np.abs(pot)))
    inconsistent_reason = np.where(has_total, "total pot less rake is not what was collected",
                                   "no total pot and rake line")
    board_row = first_in_summary("Board [")
    has_board = board_row >= 0
    board_rows = board_row[has_board]
    board_found = _bracketed(text, line_start[board_rows] + len("Board ["), line_stop[board_rows])
    board_text = pc.if_else(pa.array(has_board), _take(board_found, np.maximum(
        np.cumsum(has_board) - 1, 0)) if has_board.any() else pa.nulls(hands, pa.large_string()), "")
    board_cards = (pc.utf8_length(board_text).to_numpy(zero_copy_only=False) + 1) // 3

    # Outcomes, in the order of the rules.
    rejected = rejects.mask
    apart = ~rejected & (twice | cancelled)
    apart_reason: list[str | None] = [None] * hands
    for hand in np.flatnonzero(apart):
        apart_reason[hand] = "cancelled" if cancelled[hand] else "run twice"
    without = ~rejected & ~apart & ~showdown
    scored_seats = live & ~mucked & (revealed >= 0)
    unknown = ~rejected & ~apart & showdown & (
        (live & ~mucked & (revealed < 0)).any(axis=1) | (board_cards != _BOARD) | ~scored_seats.any(axis=1))
    outcome = np.full(hands, SCORED, dtype=np.int64)
    outcome[without] = WITHOUT_SHOWDOWN
    outcome[unknown] = UNKNOWN_CARDS
    outcome[apart] = SET_APART
    outcome[rejected] = REJECTED

    scored = np.flatnonzero(outcome == SCORED)
    checked = recorded & ~inconsistent
    expected = np.where(checked, np.where(winners > 0, holdem.winners_text(winners), NO_RECORDED_WINNER), "")
    columns: dict[str, pa.Array] = {holdem.BOARD_COLUMN: _take(board_text, scored)}
    held = scored_seats[scored]
    names_by_seat = []
    for seat in range(_SEATS):
        cards_at = revealed[scored, seat]
        cards = _take(shown_cards, np.maximum(cards_at, 0)) if len(shows) else \
            pa.nulls(len(scored), pa.large_string())
        columns[holdem.SEATS[seat]] = pc.if_else(pa.array(held[:, seat]), cards,
                                                 pa.scalar(None, pa.large_string()))
        row = seat_of_hand[scored, seat]
        name = _take(seat_name, np.maximum(row, 0)) if len(seat_rows) else \
            pa.nulls(len(scored), pa.large_string())
        names_by_seat.append(pc.if_else(pa.array(row >= 0), name, pa.scalar(None, pa.large_string())))
    # The header and the table name of the hands scored.
    header = _header_fields(text, lines, starts[scored], line_start, content_end)
    tables = starting("Table '")
    tables = tables[preamble(tables)]
    first_table = first_per(hand_of[tables], hands, tables)[scored]
    has_table = first_table >= 0
    table_found = pc.extract_regex(_take(lines, first_table[has_table]), _TABLE).field("table")
    table_name = pc.if_else(pa.array(has_table), _take(table_found, np.maximum(np.cumsum(has_table) - 1, 0))
                            if has_table.any() else pa.nulls(len(scored), pa.large_string()),
                            pa.scalar(None, pa.large_string()))
    columns[EXPECTED] = pa.array(expected[scored].tolist(), pa.string())
    columns["file"] = pa.array([path] * len(scored), pa.string())
    columns["hand"] = header["hand"]
    for column, names in zip(holdem.SEATS, names_by_seat):
        columns[f"{column}_player"] = names
    columns["variant"] = header["variant"]
    columns["table"] = table_name
    columns["stakes"] = header["stakes"]
    columns["time"] = header["time"]
    table = pa.table({name: pc.cast(array, pa.string()) for name, array in columns.items()})

    problems = [(first_line + int(rejects.line[h]), rejects.text[h], str(rejects.reason[h]))
                for h in np.flatnonzero(rejected)]
    return _Parsed(hands=hands, ordinal=hands_before + 1 + np.arange(hands, dtype=np.int64),
                   line=first_line + starts, outcome=outcome, problem=problems,
                   apart_reason=apart_reason, inconsistent=inconsistent,
                   inconsistent_reason=inconsistent_reason, recorded=recorded, table=table)


def _header_fields(text: _Bytes, lines: pa.Array, rows: np.ndarray, line_start: np.ndarray,
                   content_end: np.ndarray) -> dict[str, pa.Array]:
    """The hand id, game, stakes (without their parenthesis) and time of the header lines at ``rows``
    (in order), as :data:`_HEADER` reads them: a header of the plain form (:data:`_HEADER_PLAIN`)
    is cut where its fixed characters are, the others by the pattern's captures."""
    headers = _take(lines, rows)
    plain = as_mask(pc.match_substring_regex(headers, _HEADER_PLAIN))
    cut, other = np.flatnonzero(plain), np.flatnonzero(~plain)
    cut_headers, start = headers.take(pa.array(cut, pa.int64())), line_start[rows[cut]]

    def at(what: str) -> NDArray[np.int64]:  # the first one in each plain header, none before its place
        found: NDArray[np.int64] = start + pc.find_substring(cut_headers, what).to_numpy(
            zero_copy_only=False).astype(np.int64)
        return found

    number, colon, game, opening, closing = at("#"), at(":"), at("Hold'em"), at("("), at(")")
    fields = {"hand": text.slices(number + 1, colon), "variant": text.slices(game, opening - 1),
              "stakes": text.slices(opening + 1, closing),
              "time": text.slices(closing + len(") - "), content_end[rows[cut]])}
    found = pc.extract_regex(headers.take(pa.array(other, pa.int64())), _HEADER)
    others = {"hand": found.field("id"), "variant": _variant(found),
              "stakes": pc.replace_substring_regex(found.field("stakes"), r"^\((.*)\)$", r"\1"),
              "time": found.field("time")}
    order = pa.array(np.argsort(np.concatenate([cut, other]), kind="stable"), pa.int64())
    return {name: pa.concat_arrays([field, others[name]]).take(order) for name, field in fields.items()}


def _variant(header: pa.StructArray) -> pa.Array:
    """The game of each header read by :data:`_HEADER`: the name inside the stakes' parenthesis
    (``(Omaha, $1/$2)``) or the one before it."""
    inner = header.field("inner")
    return pc.if_else(pc.not_equal(inner, ""), inner, pc.utf8_trim_whitespace(header.field("variant")))
