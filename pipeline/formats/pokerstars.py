"""PokerStars hand histories: the text logs a poker site writes, read as showdown deals.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.histories`, the
hold'em game's columns and the foundation modules, never the runs or the
command line.

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
A session file is read in chunks of whole hands (:data:`CHUNK_BYTES`), so
memory is bounded by the chunk, not by the file.  One numpy pass over a
chunk's bytes finds its line ends and its colons; lines are told apart by
their first bytes, read as 64-bit words and compared in numpy, and numpy
assigns each line to its hand by a cumulative sum of hand starts.  pyarrow's
string kernels (RE2 regular expressions run in C++ over whole arrays) read
only the lines that need them: seat lines, action words with an amount or
cards, collections, the summary of a showdown, a header of an uncommon form;
never a regular expression per line in Python.  A name is taken from the line
only as the text before the last ``": "`` of an action line (the site's text
after it never holds one) or before the site's fixed words of a collection,
and must then be a seated name of that hand: it is never guessed.  Names are
matched against the seat list of their own hand by a hash of the hand and the
name's first 24 bytes in pyarrow's hash table, then compared in full (a
longer name, or a hash two names share, as text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.errors import InputError
from pipeline.formats.histories import EXPECTED, NO_RECORDED_WINNER, reason_key
from pipeline.formats.sources import Batch, Source, format_suffix
from pipeline.games import holdem
from pipeline.text import offsets_and_data, shown

SUFFIXES = (".txt",)
VENUE = "PokerStars"
#: Bytes read at a time, cut at the last hand start: memory is bounded by a chunk.
CHUNK_BYTES = 1 << 23
_BOM = b"\xef\xbb\xbf"
_SEATS = holdem.MAX_PLAYERS
_BOARD = 5
_HEAD_BYTES = 24  # bytes of each line compared with the prefixes that tell lines apart

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
_ACTION = (rf"^(?:posts [a-z &-]+ {_AMOUNT}{_ALL_IN}|folds(?: \[[^\]]*\])?|checks|calls {_AMOUNT}{_ALL_IN}"
           rf"|bets {_AMOUNT}{_ALL_IN}|raises {_AMOUNT} to {_AMOUNT}{_ALL_IN}|shows \[[^\]]*\](?: \(.*\))?"
           r"|mucks hand|doesn't show hand|discards [0-9]+ cards?(?: \[[^\]]*\])?"
           r"|stands pat(?: on \[[^\]]*\])?) *\n?$")
_SHOWS = r"^shows \[(?P<cards>[^\]]*)\]"
_COLLECT = (rf"^(?P<name>.+) collected (?P<amount>{_AMOUNT}) from "
            r"(?P<pot>pot|main pot|side pot(?:-[0-9]+)?) *\n?$")
_TOTAL = rf"^Total pot (?P<total>{_AMOUNT})(?: .*)? \| Rake (?P<rake>{_AMOUNT})"
_BOARD_LINE = r"^Board \[(?P<cards>[^\]]*)\]"
_TAGS = r"^(?: \([a-z ]+\))*"
# A header of the common form: a hold'em hand, whose full pattern (below) needs no captures to tell.
# It reads as :data:`_HEADER` does: no tournament, no braces, the game's words never "-", "Level"
# or a parenthesis (so the game ends there), no comma in the stakes (so no game inside them).
_HEADER_HOLDEM = (r"^PokerStars (?:Zoom |Home Game )?(?:Hand|Game) #[0-9]+: +"
                  r"Hold'em (?:(?:No|Pot|Fixed) )?Limit (?:- )?(?:Level [^ ]+ )?\([^(),]*\) - .+? *\n?$")
_CASHED_OUT = (rf"{_TAGS} showed \[[^\]]*\] and won \((?P<amount>{_AMOUNT})\)"
               r".*\(pot not awarded as player cashed out\)")
_TWO_CARDS = r"^[^ ]{2} [^ ]{2}$"

_START_BYTES = re.compile(HAND_START.encode())

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
    return head.removeprefix(_BOM).startswith(b"PokerStars")


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
    for piece, first_line in _chunks(source):
        parsed = _parse(piece, first_line, hands_before, source.name)
        for begin in range(0, parsed.hands, batch_rows):
            yield parsed.batch(begin, min(begin + batch_rows, parsed.hands))
        hands_before += parsed.hands


def _chunks(source: Source) -> Iterator[tuple[bytes, int]]:
    """Whole hands of a source, a chunk at a time, with line ends ``\\n`` and no byte-order mark.

    Yields (text, number of its first line).  A ``\\r`` at the end of a block
    waits for the next one, so that a ``\\r\\n`` split between blocks stays one
    line end.
    """
    line = 1
    carry = b""
    first = True
    try:
        with pa.input_stream(str(source.path), compression=source.compression) as stream:
            while True:
                block: bytes = stream.read(CHUNK_BYTES)
                at_end = not block
                data = carry + block
                if first and (len(data) >= len(_BOM) or at_end):
                    data, first = data.removeprefix(_BOM), False
                hold = b""
                if not at_end and data.endswith(b"\r"):
                    data, hold = data[:-1], b"\r"
                if b"\r" in data:
                    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
                if _BOM[:1] in data and b"\n" + _BOM in data:  # sessions pasted together keep their marks
                    data = data.replace(b"\n" + _BOM, b"\n")
                cut = len(data) if at_end else _last_start(data)
                if cut <= 0:
                    carry = data + hold
                    continue
                piece, carry = data[:cut], data[cut:] + hold
                if piece:
                    yield piece, line
                    line += int(np.count_nonzero(np.frombuffer(piece, dtype=np.uint8) == _NEWLINE))
                if at_end:
                    return
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read past line {line} ({error})") from None


def _last_start(data: bytes) -> int:
    """Where the last line that starts a hand begins (0 if only at the start, or none)."""
    end = len(data)
    while (found := data.rfind(b"\nPokerStars ", 0, end)) >= 0:
        stop = data.find(b"\n", found + 1)
        line = data[found + 1:stop if stop >= 0 else len(data)]
        if _START_BYTES.match(line):
            return found + 1
        end = found
    return 0


def _utf8(piece: bytes) -> tuple[bytes, list[int]]:
    """``piece`` with bytes that are not UTF-8 replaced by ``?``, and the 0-based lines they were on."""
    bad_lines: list[int] = []
    bounds = pa.py_buffer(np.array([0, len(piece)], dtype=np.int64))
    whole = pa.Array.from_buffers(pa.large_binary(), 1, [None, bounds, pa.py_buffer(piece)])
    try:
        whole.cast(pa.large_string())  # checks the UTF-8 in C++, many times faster than decoding it
        return piece, bad_lines
    except pa.ArrowInvalid:
        pass
    fixed = bytearray(piece)
    position = 0
    while True:
        try:
            bytes(fixed[position:]).decode("utf-8")
            return bytes(fixed), bad_lines
        except UnicodeDecodeError as error:
            start, end = position + error.start, position + error.end
            fixed[start:end] = b"?" * (end - start)
            line = fixed.count(b"\n", 0, start)
            if not bad_lines or bad_lines[-1] != line:
                bad_lines.append(line)
            position = end


def _mask(flags: pa.Array | pa.ChunkedArray) -> NDArray[np.bool_]:
    """A boolean pyarrow array as numpy, null read as False."""
    if isinstance(flags, pa.ChunkedArray):
        flags = flags.combine_chunks()
    if flags.null_count:  # filling costs as much as the test itself: only when needed
        flags = pc.fill_null(flags, False)
    mask: NDArray[np.bool_] = flags.to_numpy(zero_copy_only=False).astype(bool)
    return mask


_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_PAD = 32  # zero bytes after a chunk's text: a word can be read at any offset up to 24 bytes past its end
_NAME_WORDS = 3  # names of up to 24 bytes are compared as three words; longer ones as text
_NEWLINE, _COLON, _SPACE, _ZERO, _NINE = (ord(c) for c in "\n: 09")
# Words after "NAME: " that are actions as they stand, without reading an amount.
_PLAIN_ACTIONS = (b"folds", b"checks", b"mucks hand", b"doesn't show hand")
# Multipliers of the name hash (odd 64-bit constants); equal hashes are always compared in full.
_HASH = [np.uint64(m) for m in (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                                  0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD)]


def _word(text: bytes) -> np.uint64:
    """Up to 8 bytes as the little-endian word the chunk's words are compared with."""
    return np.uint64(int.from_bytes(text, "little"))


class _Bytes:
    """A chunk's text as numpy bytes, and as little-endian words starting at every byte offset.

    Words are read without a copy (numpy allows unaligned strides) from a
    copy of the text padded with zeros, so a word may start anywhere in it.
    """

    def __init__(self, piece: bytes) -> None:
        self.size = len(piece)
        padded = np.zeros(len(piece) + _PAD, dtype=np.uint8)
        padded[:len(piece)] = np.frombuffer(piece, dtype=np.uint8)
        self.bytes = padded
        self.words = np.ndarray(shape=(len(piece) + _PAD - 7,), dtype="<u8", buffer=padded, strides=(1,))
        self.buffer = pa.py_buffer(piece)

    def has(self, at: np.ndarray, text: bytes) -> NDArray[np.bool_]:
        """Whether ``text`` is written at each offset ``at`` (offsets in the text, ``text`` at most 24 bytes).

        ``text`` holds no ``\\n`` and no zero byte, so it is never found across a line end.
        """
        found = np.ones(len(at), dtype=bool)
        for k in range(0, len(text), 8):
            piece = text[k:k + 8]
            found &= (self.words[at + k] & _MASKS[len(piece)]) == _word(piece)
        return found

    def name_words(self, at: np.ndarray, length: np.ndarray) -> list[NDArray[np.uint64]]:
        """The first 24 bytes of each name (``length`` bytes from ``at``) as three words, zero past it."""
        words = [self.words[at] & _MASKS[np.minimum(length, 8)]]
        for k in range(1, _NAME_WORDS):
            word = np.zeros(len(at), dtype=np.uint64)
            longer = np.flatnonzero(length > 8 * k)
            word[longer] = self.words[at[longer] + 8 * k] & _MASKS[np.minimum(length[longer] - 8 * k, 8)]
            words.append(word)
        return words

    def slices(self, begin: np.ndarray, end: np.ndarray) -> pa.Array:
        """The text from ``begin`` to ``end`` of each piece as strings; pieces in order, none overlapping.

        The pieces and the gaps between them are one array over the text (no copy of it), the
        pieces taken from it.
        """
        if not len(begin):
            return pa.array([], pa.large_string())
        both = np.empty(2 * len(begin), dtype=np.int64)
        both[0::2], both[1::2] = begin, end
        pieces = pa.Array.from_buffers(pa.large_string(), 2 * len(begin) - 1,
                                       [None, pa.py_buffer(both), self.buffer])
        return _take(pieces, 2 * np.arange(len(begin), dtype=np.int64))


def _digits(values: NDArray[np.uint8]) -> NDArray[np.bool_]:
    found: NDArray[np.bool_] = (values >= _ZERO) & (values <= _NINE)
    return found


def _seat_numbers(text: _Bytes, starts: np.ndarray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For lines (starting at ``starts``) ``Seat N: ...`` with N of one or two digits: N and where the
    text after ``": "`` starts; 0 and -1 for any other line.

    Bytes past a line's end are its ``\\n`` (or the padding), which no test below accepts.
    """
    word = text.words[starts + 5]
    byte = [((word >> np.uint64(8 * i)) & np.uint64(0xFF)).astype(np.int64) for i in range(4)]
    digit = [byte[i] - _ZERO for i in range(2)]
    colon = [(byte[1 + i] == _COLON) & (byte[2 + i] == _SPACE) for i in range(2)]
    one = (digit[0] >= 0) & (digit[0] <= 9) & colon[0]
    two = (digit[0] >= 0) & (digit[0] <= 9) & (digit[1] >= 0) & (digit[1] <= 9) & colon[1]
    number = np.where(one, digit[0], np.where(two, 10 * digit[0] + digit[1], 0))
    return number, np.where(one, 8, np.where(two, 9, -1))


def _hash(hands: np.ndarray, length: np.ndarray, words: list[NDArray[np.uint64]]) -> NDArray[np.uint64]:
    """A 64-bit hash of each (hand, name): it only narrows a search, equal hashes are compared in full."""
    key: NDArray[np.uint64] = hands.astype(np.uint64) * _HASH[0] + length.astype(np.uint64) * _HASH[1]
    for word, multiplier in zip(words, _HASH[2:]):
        key += (word ^ (word >> np.uint64(31))) * multiplier
    return key


class _Seated:
    """The seat lines of a chunk, searched by hand and name.

    A name of up to 24 bytes is found by a hash of (hand, its words) in a
    hash table (pyarrow's), then compared in full; a longer name, or the rare
    hash shared by two names, is looked up as text (``hand\x1fname`` keys).
    Either way the answer is the first seat line (in file order) of that hand
    with exactly that name.
    """

    def __init__(self, text: _Bytes, hands: np.ndarray, begin: np.ndarray, length: np.ndarray,
                 names: pa.Array) -> None:
        self.text, self.hands, self.length, self.names = text, hands, length, names
        self.words = text.name_words(begin, length)
        self.hashes = pa.array(_hash(hands, length, self.words), pa.uint64())
        self._keys: pa.Array | None = None

    @staticmethod
    def keys(hands: np.ndarray, names: pa.Array) -> pa.Array:
        return pc.binary_join_element_wise(pc.cast(pa.array(hands, pa.int64()), pa.large_string()),
                                           names, _text("\x1f"))

    def first(self) -> NDArray[np.int64]:
        """For each seat line, the first one of its hand with the same name (itself if none before)."""
        codes = self.hashes.dictionary_encode().indices.to_numpy(zero_copy_only=False).astype(np.int64)
        first_of = np.zeros(codes.max(initial=-1) + 1, dtype=np.int64)
        first_of[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)  # the last write wins: the first line
        found = first_of[codes]
        return self._confirm(found, np.arange(len(codes)), self.hands, self.length, self.words,
                             lambda which: self.names.take(pa.array(which)))

    def find(self, hands: np.ndarray, begin: np.ndarray, length: np.ndarray,
             names: Callable[[np.ndarray], pa.Array]) -> NDArray[np.int64]:
        """The seat line (index) of each name, -1 if none; ``names(which)`` gives names as text."""
        words = self.text.name_words(begin, length)
        found = pc.index_in(pa.array(_hash(hands, length, words), pa.uint64()), value_set=self.hashes)
        return self._confirm(found.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64),
                             np.arange(len(hands)), hands, length, words, names)

    def _confirm(self, found: NDArray[np.int64], rows: NDArray[np.int64], hands: np.ndarray,
                 length: np.ndarray, words: list[NDArray[np.uint64]],
                 names: Callable[[np.ndarray], pa.Array]) -> NDArray[np.int64]:
        """Seat lines found by hash, each compared in full: those that differ, and long names, are
        looked up as text."""
        seat = np.maximum(found, 0)
        same = (found >= 0) & (length <= 8 * _NAME_WORDS)
        if len(self.hands):
            same &= (self.hands[seat] == hands) & (self.length[seat] == length)
            for mine, theirs in zip(words, self.words):
                same &= mine == theirs[seat]
        slow = np.flatnonzero(~same & ((found >= 0) | (length > 8 * _NAME_WORDS)))
        found = np.where(same, found, -1)
        if len(slow) and len(self.hands):
            if self._keys is None:
                self._keys = self.keys(self.hands, self.names)
            index = pc.index_in(self.keys(hands[slow], names(rows[slow])), value_set=self._keys)
            found[slow] = index.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
        return found


def _text(value: str) -> pa.Scalar:
    """A text scalar of the type the lines have (large_string), for kernels that need one type."""
    return pa.scalar(value, pa.large_string())


def _take(array: pa.Array, rows: np.ndarray) -> pa.Array:
    return array.take(pa.array(rows, pa.int64()))


def _amounts(texts: pa.Array) -> NDArray[np.float64]:
    """Amounts as written (``$1,500.25``, ``€0.05``, ``1500``) as float64; NaN where empty or null."""
    plain = pc.replace_substring_regex(texts, "[$€£¥,]", "")
    fine = _mask(pc.match_substring_regex(plain, r"^[0-9]+(?:\.[0-9]+)?$"))
    values = np.full(len(texts), np.nan)
    if fine.any():
        values[fine] = pc.cast(plain.filter(pa.array(fine)), pa.float64()).to_numpy(zero_copy_only=False)
    return values


def _between(strings: pa.Array, begin: np.ndarray, end: np.ndarray) -> pa.Array:
    """Bytes ``begin`` to ``end`` of each string (positions within it, ``begin <= end <= length``),
    without a copy of the text: the pieces and the gaps between them as one array, pieces taken."""
    offsets, data, _ = offsets_and_data(strings)
    offsets = offsets.astype(np.int64)
    both = np.empty(2 * len(begin), dtype=np.int64)
    both[0::2], both[1::2] = offsets[:-1] + begin, offsets[:-1] + end
    if not len(begin):
        return pa.array([], pa.large_string())
    pieces = pa.Array.from_buffers(pa.large_string(), 2 * len(begin) - 1,
                                   [None, pa.py_buffer(both), pa.py_buffer(data)])
    return _take(pieces, 2 * np.arange(len(begin), dtype=np.int64))


def _first_per(groups: np.ndarray, count: int, values: np.ndarray, fill: int = -1) -> NDArray[np.int64]:
    """For each group 0..count-1, the value of its first member (``groups`` ascending); ``fill`` if none."""
    out = np.full(count, fill, dtype=np.int64)
    if len(groups):
        first = np.flatnonzero(np.concatenate([[True], groups[1:] != groups[:-1]]))
        out[groups[first]] = values[first]
    return out



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


def _parse(piece: bytes, first_line: int, hands_before: int, path: str) -> _Parsed:
    """Decide every hand of a chunk of whole hands (text with ``\\n`` line ends)."""
    piece, bad_lines = _utf8(piece)
    text = _Bytes(piece)
    raw = text.bytes[:text.size]
    # Line ends and colons in one pass over the bytes: the lines, and where each one's last ": " is.
    found = raw == _NEWLINE
    np.logical_or(found, raw == _COLON, out=found)
    marks = np.flatnonzero(found)
    del found
    is_end = raw[marks] == _NEWLINE
    newlines = marks[is_end]
    line_offsets = np.concatenate([[0], newlines + 1, [len(piece)]]).astype(np.int64)
    if line_offsets[-2] == len(piece):  # the text ends with "\n": its last line is empty
        line_offsets = line_offsets[:-1]
    # Lines without a copy: each keeps its "\n" (patterns allow it at the end).
    lines = pa.Array.from_buffers(pa.large_string(), len(line_offsets) - 1,
                                  [None, pa.py_buffer(line_offsets), text.buffer])
    n = len(lines)
    line_start, line_stop = line_offsets[:-1], line_offsets[1:]
    content_end = line_stop - (text.bytes[line_stop - 1] == _NEWLINE)  # every line holds a byte
    colon_line = (np.cumsum(is_end) - is_end)[~is_end]  # the line of each colon: line ends before it
    colon_at = marks[~is_end]
    spaced = text.bytes[colon_at + 1] == _SPACE
    colon_at, colon_line = colon_at[spaced], colon_line[spaced]
    last_colon = np.concatenate([colon_line[1:] != colon_line[:-1], [True]]) if len(colon_line) else \
        np.zeros(0, dtype=bool)
    colon_at, colon_line = colon_at[last_colon], colon_line[last_colon]

    # Lines are told apart by their first bytes, read as words and compared in numpy.
    first_word = text.words[line_start]

    def starting(prefix: str) -> NDArray[np.int64]:
        """The lines that start with ``prefix``."""
        wanted = prefix.encode()
        rows = np.flatnonzero((first_word & _MASKS[min(len(wanted), 8)]) == _word(wanted[:8]))
        if len(wanted) > 8:
            rows = rows[text.has(line_start[rows] + 8, wanted[8:])]
        return rows

    def starting_among(rows: np.ndarray, prefix: str) -> NDArray[np.int64]:
        """Those of ``rows`` that start with ``prefix``."""
        found: NDArray[np.int64] = rows[text.has(line_start[rows], prefix.encode())]
        return found

    # Hands: a line that starts one, and each line's hand.
    candidates = starting("PokerStars ")
    start = np.zeros(n, dtype=bool)
    start[candidates[_mask(pc.match_substring_regex(_take(lines, candidates), HAND_START))]] = True
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
    is_marker = np.zeros(n, dtype=bool)
    is_marker[markers] = True
    first_marker = _first_per(hand_of[markers], hands, markers, fill=n + 1)
    summary_mark = starting_among(markers, "*** SUMMARY ***")
    summary_at = _first_per(hand_of[summary_mark], hands, summary_mark, fill=n + 1)
    has_summary = summary_at <= n

    def preamble(rows: np.ndarray) -> NDArray[np.bool_]:
        found: NDArray[np.bool_] = (rows > starts[hand_of[rows]]) & (rows < first_marker[hand_of[rows]])
        return found

    def in_summary(rows: np.ndarray) -> NDArray[np.bool_]:
        found: NDArray[np.bool_] = rows > summary_at[hand_of[rows]]
        return found

    def body(rows: np.ndarray) -> NDArray[np.bool_]:
        found: NDArray[np.bool_] = ~start[rows] & ~is_marker[rows] & ~in_summary(rows)
        return found

    def flag(rows: np.ndarray) -> NDArray[np.bool_]:
        per_hand = np.zeros(hands, dtype=bool)
        per_hand[hand_of[rows]] = True
        return per_hand

    showdown = flag(starting_among(markers, "*** SHOW DOWN ***"))
    twice = flag(np.concatenate([starting_among(markers, "*** FIRST SHOW DOWN ***"),
                                 starting_among(markers, "*** FIRST FLOP ***"),
                                 starting("Hand was run twice"), starting("FIRST Board [")]))
    cancelled = flag(starting("Hand cancelled"))

    # Header: a header of the common form is a hold'em hand as it stands (the pattern with
    # captures, slower, runs on the others here, and on the hands scored at the end).
    headers = _take(lines, starts)
    header_ok = _mask(pc.match_substring_regex(headers, _HEADER_HOLDEM))
    holdem_game = header_ok.copy()
    other_headers = np.flatnonzero(~header_ok)
    other_header = pc.extract_regex(headers.take(pa.array(other_headers, pa.int64())), _HEADER)
    header_ok[other_headers] = other_header.is_valid().to_numpy(zero_copy_only=False)
    other_variant = _variant(other_header)
    holdem_game[other_headers] = _mask(pc.starts_with(other_variant, "Hold'em "))
    reject_lines(starts[~header_ok], "hand header not understood")
    other = np.flatnonzero(header_ok & ~holdem_game)
    variant_text = other_variant.take(pa.array(np.searchsorted(other_headers, other), pa.int64())).to_pylist()
    reject_lines(starts[other], [f"game {shown(str(name))} is not Texas hold'em" for name in variant_text])

    for at in bad_lines:  # the bytes were replaced: the hand is not read as if they were fine
        reject_lines(np.array([at]), "bytes that are not UTF-8 text")
    reject_lines(starts[~has_summary], "hand cut short: no *** SUMMARY *** line")

    # Seats: "Seat N: NAME (STACK in chips)" in the preamble.  A name without a parenthesis
    # (nearly all) is cut by plain searches; the others by the full pattern, with captures.
    seat_lines = starting("Seat ")
    seat_numbers, name_at = _seat_numbers(text, line_start[seat_lines])
    in_preamble = preamble(seat_lines)
    seat_candidates, candidate_name_at = seat_lines[in_preamble], name_at[in_preamble]
    candidate_numbers = seat_numbers[in_preamble]
    candidate_lines = _take(lines, seat_candidates)
    plain = _mask(pc.match_substring_regex(candidate_lines, _PLAIN_SEAT)) & (candidate_name_at > 0)
    plain_rows = seat_candidates[plain]
    plain_lines = candidate_lines.filter(pa.array(plain))
    plain_at = candidate_name_at[plain]
    paren = pc.find_substring(plain_lines, " (").to_numpy(zero_copy_only=False).astype(np.int64)
    plain_names = _between(plain_lines, plain_at, paren)
    other_rows = seat_candidates[~plain]
    seat_found = pc.extract_regex(candidate_lines.filter(pa.array(~plain)), _SEAT)
    seat_ok = seat_found.is_valid().to_numpy(zero_copy_only=False)
    seat_fields = seat_found.filter(pa.array(seat_ok))
    other_numbers = pc.cast(seat_fields.field("seat"), pa.int64()).to_numpy(zero_copy_only=False) \
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
    # Where each name is in the text: after "Seat N: ".
    name_begin = np.concatenate([line_start[plain_rows] + plain_at, line_start[other_rows] + len("Seat : ")
                                 + lengths(seat_fields.field("seat"))])[order]
    name_length = np.concatenate([paren - plain_at, lengths(seat_fields.field("name"))])[order]
    seat_hand = hand_of[seat_rows]
    out_of_range = (seat_no < 1) | (seat_no > _SEATS)
    reject_lines(seat_rows[out_of_range], f"seats are numbered 1 to {_SEATS}")
    keep = ~out_of_range
    seat_rows, seat_no, seat_hand = seat_rows[keep], seat_no[keep], seat_hand[keep]
    name_begin, name_length = name_begin[keep], name_length[keep]
    seat_name = seat_name.filter(pa.array(keep))
    pair = seat_hand * (_SEATS + 1) + seat_no
    _, first_pair, pair_counts = np.unique(pair, return_index=True, return_counts=True)
    twice_seated = np.isin(pair, pair[first_pair[pair_counts > 1]]) if len(pair) else np.zeros(0, bool)
    reject_lines(seat_rows[twice_seated], "a seat is listed twice")
    seats = _Seated(text, seat_hand, name_begin, name_length, seat_name)
    same_name = seats.first()
    doubled = np.bincount(same_name, minlength=len(seat_rows))[same_name] > 1
    reject_lines(seat_rows[doubled], "a name is seated twice")
    no_seats = np.bincount(seat_hand, minlength=hands) == 0
    reject_lines(starts[no_seats], "no seat lines")
    seat_of_hand = np.full((hands, _SEATS), -1, dtype=np.int64)  # seat-row index by hand and seat
    seat_of_hand[seat_hand, seat_no - 1] = np.arange(len(seat_rows))

    def seated(rows: np.ndarray, length: np.ndarray) -> NDArray[np.int64]:
        """The seat number (1-based) of the name that starts each line, ``length`` bytes long, in that
        line's hand; 0 when not seated there."""
        begin = line_start[rows]
        found = seats.find(hand_of[rows], begin, length, lambda which: text.slices(
            begin[which], begin[which] + length[which]))
        return np.where(found >= 0, seat_no[np.maximum(found, 0)] if len(seat_no) else 0, 0)

    # Actions: "NAME: WORDS", the name before the last ": ", the words the site's own.
    is_seat = np.zeros(n, dtype=bool)
    is_seat[seat_rows] = True
    colon_body = body(colon_line) & ~is_seat[colon_line]
    colon_rows, colon_at = colon_line[colon_body], colon_at[colon_body]
    words_at = colon_at + 2
    words_length = content_end[colon_rows] - words_at
    action = np.zeros(len(colon_rows), dtype=bool)
    for words in _PLAIN_ACTIONS:
        sized = np.flatnonzero(words_length == len(words))
        action[sized[text.has(words_at[sized], words)]] = True
    spelled = np.flatnonzero(~action)  # the words with amounts or cards: read by the full pattern
    action[spelled] = _mask(pc.match_substring_regex(
        text.slices(words_at[spelled], line_stop[colon_rows[spelled]]), _ACTION))
    action_rows, action_at, words_at = colon_rows[action], colon_at[action], words_at[action]
    actor = seated(action_rows, action_at - line_start[action_rows])
    unseated = np.flatnonzero(actor == 0)
    names_shown = text.slices(line_start[action_rows[unseated]], action_at[unseated]).to_pylist()
    reject_lines(action_rows[unseated], [f"action of {shown(str(name))}, who is not seated"
                                         for name in names_shown])

    # Cards shown, and hands mucked: only a showdown needs them.
    at_showdown = np.flatnonzero(showdown[hand_of[action_rows]] & (actor > 0))
    shows = at_showdown[text.has(words_at[at_showdown], b"shows [")]
    shown_cards = pc.extract_regex(text.slices(words_at[shows], line_stop[action_rows[shows]]),
                                   _SHOWS).field("cards")
    two = _mask(pc.match_substring_regex(shown_cards, _TWO_CARDS))
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

    # Collections: "NAME collected AMOUNT from pot | main pot | side pot[-N]", read in the lines
    # whose end may be that: " pot", "pot-" and digits, or a space.
    length_of = content_end - line_start
    last_byte = text.bytes[np.maximum(content_end - 1, 0)]
    ends_pot = (length_of >= 4) & text.has(np.maximum(content_end - 4, 0), b" pot")
    ends_pot |= (length_of >= 1) & (last_byte == _SPACE)
    numbered = np.flatnonzero((length_of >= 1) & _digits(last_byte))
    for count in range(1, 13):  # "pot-" before the last digits, as many as there are
        before = content_end[numbered] - count
        at = np.maximum(before - 4, 0)
        ends_pot[numbered[(before - 4 >= line_start[numbered]) & text.has(at, b"pot-")]] = True
        more = (before - 1 >= line_start[numbered]) & _digits(text.bytes[np.maximum(before - 1, 0)])
        numbered = numbered[more]
    ends_pot[numbered] = True  # more digits than counted: read by the pattern
    collect_candidates = np.flatnonzero(ends_pot)
    collect_candidates = collect_candidates[body(collect_candidates)]
    collect_lines = _take(lines, collect_candidates)
    collect_ok = _mask(pc.match_substring_regex(collect_lines, _COLLECT))
    collect_rows = collect_candidates[collect_ok]
    # The line matched the pattern: the name is before the last " collected ", the amount (no
    # space in it) after it, then " from " and the pot, until the spaces and the line end.
    name_and_rest = pc.split_pattern(collect_lines.filter(pa.array(collect_ok)), " collected ", max_splits=1,
                                     reverse=True)
    collector_name = pc.list_element(name_and_rest, 0)
    amount_and_pot = pc.split_pattern(pc.list_element(name_and_rest, 1), " from ", max_splits=1)
    collector = seated(collect_rows, lengths(collector_name))
    unseated = np.flatnonzero(collector == 0)
    names_shown = collector_name.take(pa.array(unseated)).to_pylist()
    reject_lines(collect_rows[unseated], [f"{shown(str(name))} collects, but is not seated"
                                          for name in names_shown])
    # What was collected, and by whom: only a showdown scored needs it.
    collected = np.zeros(hands)
    counted = np.flatnonzero(showdown[hand_of[collect_rows]])
    counted_parts = amount_and_pot.take(pa.array(counted, pa.int64()))
    amounts = _amounts(pc.list_element(counted_parts, 0))
    np.add.at(collected, hand_of[collect_rows[counted]], np.nan_to_num(amounts))
    pots = pc.utf8_rtrim(pc.list_element(counted_parts, 1), characters=" \n")
    main_pot = _mask(pc.is_in(pots, value_set=pa.array(["pot", "main pot"])))
    main = counted[main_pot & (collector[counted] > 0)]
    winners = np.zeros(hands, dtype=np.int64)
    np.bitwise_or.at(winners, hand_of[collect_rows[main]], np.left_shift(1, collector[main] - 1))

    # Summary: each seat's fate, after "Seat N: " and that seat's name, exactly.
    summary = in_summary(seat_lines) & (name_at > 0)
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
    long_name = expected_length > 8 * _NAME_WORDS
    if len(seat_rows):
        for mine, theirs in zip(text.name_words(fate_at, expected_length), seats.words):
            named &= long_name | (mine == theirs[row_of])
        check = np.flatnonzero(named & long_name)
        named[check] = _mask(pc.equal(text.slices(fate_at[check], fate_at[check] + expected_length[check]),
                                      seat_name.take(pa.array(row_of[check]))))
    fate_at += expected_length
    wrong = np.flatnonzero(~named)
    reject_lines(summary_rows[wrong], [f"summary line of seat {summary_seat[i]} does not name its player"
                                       for i in wrong])
    read = np.flatnonzero(named & showdown[hand_of[summary_rows]])  # a fate counts at a showdown only
    fates = text.slices(fate_at[read], line_stop[summary_rows[read]])
    summary_hand, summary_index = hand_of[summary_rows[read]], summary_seat[read] - 1
    live = np.zeros((hands, _SEATS), dtype=bool)
    live[summary_hand, summary_index] = ~_mask(pc.match_substring_regex(fates, _TAGS + " folded"))
    mucks_late = _mask(pc.match_substring_regex(fates, _TAGS + " mucked"))
    mucked[summary_hand[mucks_late], summary_index[mucks_late]] = True
    cash = np.flatnonzero(_mask(pc.match_substring(fates, "(pot not awarded as player cashed out)")))
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
        found = _first_per(hand_of[rows], hands, rows)
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
    board_found = pc.extract_regex(_take(lines, board_row[has_board]), _BOARD_LINE).field("cards")
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
    highest = np.where(seat_of_hand[scored] >= 0, np.arange(1, _SEATS + 1), 0).max(axis=1, initial=0) \
        if len(scored) else np.zeros(0, np.int64)
    for seat in range(_SEATS):
        cards_at = revealed[scored, seat]
        cards = _take(shown_cards, np.maximum(cards_at, 0)) if len(shows) else \
            pa.nulls(len(scored), pa.large_string())
        columns[holdem.SEATS[seat]] = pc.if_else(pa.array(held[:, seat]), cards,
                                                 pa.scalar(None, pa.large_string()))
        row = seat_of_hand[scored, seat]
        name = _take(seat_name, np.maximum(row, 0)) if len(seat_rows) else \
            pa.nulls(len(scored), pa.large_string())
        name = pc.if_else(pa.array(row >= 0), name, _text(""))
        names_by_seat.append(pc.if_else(pa.array(seat < highest), name, pa.scalar(None, pa.large_string())))
    # The header and the table name of the hands scored.
    header = pc.extract_regex(_take(lines, starts[scored]), _HEADER)
    tables = starting("Table '")
    tables = tables[preamble(tables)]
    first_table = _first_per(hand_of[tables], hands, tables)[scored]
    has_table = first_table >= 0
    table_found = pc.extract_regex(_take(lines, first_table[has_table]), _TABLE).field("table")
    table_name = pc.if_else(pa.array(has_table), _take(table_found, np.maximum(np.cumsum(has_table) - 1, 0))
                            if has_table.any() else pa.nulls(len(scored), pa.large_string()),
                            pa.scalar(None, pa.large_string()))
    columns[EXPECTED] = pa.array(expected[scored].tolist(), pa.string())
    columns["file"] = pa.array([path] * len(scored), pa.string())
    columns["hand"] = header.field("id")
    columns["players"] = pc.binary_join_element_wise(*names_by_seat, _text(", "), null_handling="skip")
    columns["variant"] = _variant(header)
    columns["table"] = table_name
    columns["stakes"] = pc.replace_substring_regex(header.field("stakes"), r"^\((.*)\)$", r"\1")
    columns["time"] = header.field("time")
    table = pa.table({name: pc.cast(array, pa.string()) for name, array in columns.items()})

    number_of_line = first_line + np.arange(n)
    problems = [(int(number_of_line[rejects.line[h]]), rejects.text[h], str(rejects.reason[h]))
                for h in np.flatnonzero(rejected)]
    return _Parsed(hands=hands, ordinal=hands_before + 1 + np.arange(hands, dtype=np.int64),
                   line=number_of_line[starts].astype(np.int64), outcome=outcome, problem=problems,
                   apart_reason=apart_reason, inconsistent=inconsistent,
                   inconsistent_reason=inconsistent_reason, recorded=recorded, table=table)


def _variant(header: pa.StructArray) -> pa.Array:
    """The game of each header read by :data:`_HEADER`: the name inside the stakes' parenthesis
    (``(Omaha, $1/$2)``) or the one before it."""
    inner = header.field("inner")
    return pc.if_else(pc.not_equal(inner, ""), inner, pc.utf8_trim_whitespace(header.field("variant")))
