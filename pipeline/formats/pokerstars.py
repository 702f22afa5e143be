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
memory is bounded by the chunk, not by the file.  A chunk is split into lines
once; a handful of pyarrow string kernels classify every line at once (RE2
regular expressions run in C++ over whole arrays, never one per line in
Python), numpy assigns each line to its hand by a cumulative sum of hand
starts, and names are matched against the seat list of their own hand with
one hash lookup of ``hand, name`` keys.  A name is taken from the line only as
the text before the last ``": "`` of an action line (the site's text after it
never holds one) or before the site's fixed words of a collection, and must
then be a seated name of that hand: it is never guessed.
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
                if b"\n" + _BOM in data:  # sessions pasted together keep their marks
                    data = data.replace(b"\n" + _BOM, b"\n")
                cut = len(data) if at_end else _last_start(data)
                if cut <= 0:
                    carry = data + hold
                    continue
                piece, carry = data[:cut], data[cut:] + hold
                if piece:
                    yield piece, line
                    line += piece.count(b"\n")
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
    try:
        piece.decode("utf-8")
        return piece, bad_lines
    except UnicodeDecodeError:
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


_WORD_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _heads(offsets: np.ndarray, data: np.ndarray) -> NDArray[np.uint64]:
    """The first :data:`_HEAD_BYTES` bytes of each line as little-endian words, (n, words) uint64,
    zero past the line's end: three gathers instead of one per byte."""
    starts, lengths = offsets[:-1].astype(np.int64), np.diff(offsets).astype(np.int64)
    padded = np.concatenate([data, np.zeros(_HEAD_BYTES + 16, dtype=np.uint8)])
    # Every byte offset read as the start of a word (numpy allows unaligned strides).
    words = np.ndarray(shape=(len(data) + _HEAD_BYTES + 1,), dtype="<u8", buffer=padded, strides=(1,))
    heads = np.empty((len(starts), _HEAD_BYTES // 8), dtype=np.uint64)
    for k in range(_HEAD_BYTES // 8):
        heads[:, k] = words[starts + 8 * k] & _WORD_MASKS[np.clip(lengths - 8 * k, 0, 8)]
    return heads


def _starting(heads: NDArray[np.uint64], prefix: str) -> NDArray[np.bool_]:
    """Which lines start with ``prefix`` (at most :data:`_HEAD_BYTES` bytes), from :func:`_heads`."""
    wanted = prefix.encode()
    found = np.ones(len(heads), dtype=bool)
    for k in range(0, len(wanted), 8):
        piece = wanted[k:k + 8]
        word = np.uint64(int.from_bytes(piece, "little"))
        found &= (heads[:, k // 8] & _WORD_MASKS[len(piece)]) == word
    return found


def _head_byte(heads: NDArray[np.uint64], at: int) -> NDArray[np.int64]:
    """Byte ``at`` of each line (0 past its end), from :func:`_heads`."""
    return ((heads[:, at // 8] >> np.uint64(8 * (at % 8))) & np.uint64(0xFF)).astype(np.int64)


def _seat_numbers(heads: NDArray[np.uint64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For lines ``Seat N: ...`` (N of one or two digits): N and where the text after ``": "``
    starts; 0 and -1 for any other line."""
    digit = [_head_byte(heads, 5 + i) - ord("0") for i in range(2)]
    colon = [(_head_byte(heads, 6 + i) == ord(":")) & (_head_byte(heads, 7 + i) == ord(" "))
             for i in range(2)]
    one = (digit[0] >= 0) & (digit[0] <= 9) & colon[0]
    two = (digit[0] >= 0) & (digit[0] <= 9) & (digit[1] >= 0) & (digit[1] <= 9) & colon[1]
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
    fine = _mask(pc.match_substring_regex(plain, r"^[0-9]+(?:\.[0-9]+)?$"))
    values = np.full(len(texts), np.nan)
    if fine.any():
        values[fine] = pc.cast(plain.filter(pa.array(fine)), pa.float64()).to_numpy(zero_copy_only=False)
    return values


def _split_at(strings: pa.Array, positions: np.ndarray) -> tuple[pa.Array, pa.Array]:
    """Each string cut at a byte position (clipped to its length): heads and tails, as binary.

    Zero-copy of the text: one array of 2n values whose offsets interleave
    each string's start and its cut.
    """
    offsets, data, _ = offsets_and_data(strings)
    offsets = offsets.astype(np.int64)
    starts, ends = offsets[:-1], offsets[1:]
    cuts = starts + np.clip(positions, 0, ends - starts)
    both = np.empty(2 * len(starts) + 1, dtype=np.int64)
    both[0:-1:2], both[1::2], both[-1] = starts, cuts, offsets[-1] if len(offsets) else 0
    halves = pa.Array.from_buffers(pa.large_binary(), 2 * len(starts),
                                   [None, pa.py_buffer(both), pa.py_buffer(data)])
    index = np.arange(len(starts), dtype=np.int64)
    return _take(halves, 2 * index), _take(halves, 2 * index + 1)


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
        unique, first = np.unique(groups, return_index=True)
        out[unique] = values[first]
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

    def add(self, hands: np.ndarray, lines: np.ndarray, texts: list[str], reasons: list[str]) -> None:
        """Reject ``hands`` (with the line index and text of each fault) unless already rejected."""
        for hand, line, text, reason in zip(hands.tolist(), lines.tolist(), texts, reasons):
            if self.reason[hand] is None:
                self.reason[hand], self.line[hand], self.text[hand] = reason, line, text

    @property
    def mask(self) -> NDArray[np.bool_]:
        return np.array([r is not None for r in self.reason], dtype=bool)


def _parse(piece: bytes, first_line: int, hands_before: int, path: str) -> _Parsed:
    """Decide every hand of a chunk of whole hands (text with ``\\n`` line ends)."""
    piece, bad_lines = _utf8(piece)
    buffer = pa.py_buffer(piece)
    # Lines without a copy: each keeps its "\n" (patterns allow it at the end).
    newlines = np.flatnonzero(np.frombuffer(piece, dtype=np.uint8) == ord("\n"))
    line_offsets = np.concatenate([[0], newlines + 1, [len(piece)]]).astype(np.int64)
    if line_offsets[-2] == len(piece):  # the text ends with "\n": its last line is empty
        line_offsets = line_offsets[:-1]
    lines = pa.Array.from_buffers(pa.large_string(), len(line_offsets) - 1,
                                  [None, pa.py_buffer(line_offsets), buffer])
    n = len(lines)

    # Lines are told apart by their first bytes: one byte matrix, compared in numpy.
    heads = _heads(line_offsets, np.frombuffer(piece, dtype=np.uint8))

    def starting(prefix: str) -> NDArray[np.bool_]:
        return _starting(heads, prefix[:_HEAD_BYTES])

    # Hands: a line that starts one, and each line's hand.
    candidates = np.flatnonzero(starting("PokerStars "))
    start = np.zeros(n, dtype=bool)
    start[candidates[_mask(pc.match_substring_regex(_take(lines, candidates), HAND_START))]] = True
    start[0] = True  # a chunk starts at a hand (the file's first line is a header)
    hand_of = np.cumsum(start) - 1
    starts = np.flatnonzero(start)
    hands = len(starts)
    index = np.arange(n)
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
    marker = starting("*** ")
    markers_before: NDArray[np.int64] = np.cumsum(marker) - marker
    markers_before -= markers_before[starts][hand_of]
    preamble = (markers_before == 0) & ~marker & ~start
    summary_mark = np.flatnonzero(starting("*** SUMMARY ***"))
    summary_at = _first_per(hand_of[summary_mark], hands, summary_mark, fill=n + 1)
    in_summary = index > summary_at[hand_of]
    has_summary = summary_at <= n
    body = ~start & ~marker & ~in_summary

    def flag(rows: NDArray[np.bool_]) -> NDArray[np.bool_]:
        per_hand = np.zeros(hands, dtype=bool)
        per_hand[hand_of[rows]] = True
        return per_hand

    showdown = flag(starting("*** SHOW DOWN ***"))
    twice = flag(starting("*** FIRST SHOW DOWN ***") | starting("*** FIRST FLOP ***")
                 | starting("Hand was run twice") | starting("FIRST Board ["))
    cancelled = flag(starting("Hand cancelled"))

    # Header: the hand id, the game, the stakes and the time as written.
    header = pc.extract_regex(_take(lines, starts), _HEADER)
    header_ok = header.is_valid().to_numpy(zero_copy_only=False)
    hand_id = header.field("id")
    inner = header.field("inner")
    variant = pc.if_else(pc.not_equal(inner, ""), inner, pc.utf8_trim_whitespace(header.field("variant")))
    stakes = pc.replace_substring_regex(header.field("stakes"), r"^\((.*)\)$", r"\1")
    when = header.field("time")
    reject_lines(starts[~header_ok], "hand header not understood")
    holdem_game = _mask(pc.starts_with(variant, "Hold'em "))
    other = np.flatnonzero(header_ok & ~holdem_game)
    variant_text = variant.to_pylist()
    reject_lines(starts[other], [f"game {shown(str(variant_text[h]))} is not Texas hold'em" for h in other])

    for at in bad_lines:  # the bytes were replaced: the hand is not read as if they were fine
        reject_lines(np.array([at]), "bytes that are not UTF-8 text")
    reject_lines(starts[~has_summary], "hand cut short: no *** SUMMARY *** line")

    # Table name: the preamble's line "Table 'NAME' ...".
    table_rows = np.flatnonzero(preamble & starting("Table '"))
    table_found = pc.extract_regex(_take(lines, table_rows), _TABLE)
    table_name = pa.nulls(hands, pa.large_string())
    if len(table_rows):
        first_table = _first_per(hand_of[table_rows], hands, np.arange(len(table_rows)))
        table_name = pc.if_else(pa.array(first_table >= 0), _take(table_found.field("table"),
                                                                   np.maximum(first_table, 0)),
                                pa.scalar(None, pa.large_string()))

    # Seats: "Seat N: NAME (STACK in chips)" in the preamble.  A name without a parenthesis
    # (nearly all) is cut by plain searches; the others by the full pattern, with captures.
    seat_numbers, name_at = _seat_numbers(heads)
    seat_candidates = np.flatnonzero(preamble & starting("Seat "))
    candidate_lines = _take(lines, seat_candidates)
    plain = _mask(pc.match_substring_regex(candidate_lines, _PLAIN_SEAT)) & (name_at[seat_candidates] > 0)
    plain_rows = seat_candidates[plain]
    plain_lines = candidate_lines.filter(pa.array(plain))
    paren = pc.find_substring(plain_lines, " (").to_numpy(zero_copy_only=False).astype(np.int64)
    plain_names = _between(plain_lines, name_at[plain_rows], paren)
    other_rows = seat_candidates[~plain]
    seat_found = pc.extract_regex(candidate_lines.filter(pa.array(~plain)), _SEAT)
    seat_ok = seat_found.is_valid().to_numpy(zero_copy_only=False)
    seat_fields = seat_found.filter(pa.array(seat_ok))
    other_numbers = pc.cast(seat_fields.field("seat"), pa.int64()).to_numpy(zero_copy_only=False) \
        if seat_ok.any() else np.zeros(0, np.int64)
    seat_rows = np.concatenate([plain_rows, other_rows[seat_ok]])
    order = np.argsort(seat_rows, kind="stable")
    seat_rows = seat_rows[order]
    seat_no = np.concatenate([seat_numbers[plain_rows], other_numbers])[order]
    seat_name = pa.concat_arrays([plain_names, seat_fields.field("name").cast(pa.large_string())]).take(
        pa.array(order))
    seat_hand = hand_of[seat_rows]
    out_of_range = (seat_no < 1) | (seat_no > _SEATS)
    reject_lines(seat_rows[out_of_range], f"seats are numbered 1 to {_SEATS}")
    keep = ~out_of_range
    seat_rows, seat_no, seat_hand = seat_rows[keep], seat_no[keep], seat_hand[keep]
    seat_name = seat_name.filter(pa.array(keep))
    pair = seat_hand * (_SEATS + 1) + seat_no
    _, first_pair, pair_counts = np.unique(pair, return_index=True, return_counts=True)
    twice_seated = np.isin(pair, pair[first_pair[pair_counts > 1]]) if len(pair) else np.zeros(0, bool)
    reject_lines(seat_rows[twice_seated], "a seat is listed twice")
    hand_text = pc.cast(pa.array(seat_hand, pa.int64()), pa.large_string())
    seat_key = pc.binary_join_element_wise(hand_text, seat_name, _text("\x1f"))
    encoded = seat_key.dictionary_encode()
    if len(encoded.dictionary) < len(seat_key):
        codes = encoded.indices.to_numpy(zero_copy_only=False)
        doubled = np.bincount(codes, minlength=len(encoded.dictionary))[codes] > 1
        reject_lines(seat_rows[doubled], "a name is seated twice")
    no_seats = np.bincount(seat_hand, minlength=hands) == 0
    reject_lines(starts[no_seats], "no seat lines")
    seat_of_hand = np.full((hands, _SEATS), -1, dtype=np.int64)  # seat-row index by hand and seat
    seat_of_hand[seat_hand, seat_no - 1] = np.arange(len(seat_rows))

    def seated(hands_of: np.ndarray, names: pa.Array) -> NDArray[np.int64]:
        """The seat number (1-based) of each name in its hand's seat list, 0 when not seated."""
        keys = pc.binary_join_element_wise(pc.cast(pa.array(hands_of, pa.int64()), pa.large_string()),
                                           names, _text("\x1f"))
        found = pc.index_in(keys, value_set=seat_key).to_numpy(zero_copy_only=False)
        found = np.where(np.isnan(found.astype(np.float64)), -1, found).astype(np.int64) \
            if len(found) else np.zeros(0, np.int64)
        return np.where(found >= 0, seat_no[np.maximum(found, 0)] if len(seat_no) else 0, 0)

    # Actions: "NAME: WORDS", the name before the last ": ", the words the site's own.
    colon = np.flatnonzero(body & ~start & ~np.isin(index, seat_rows) & _mask(
        pc.match_substring(lines, ": ")))
    split = pc.split_pattern(_take(lines, colon), ": ", max_splits=1, reverse=True)
    words = pc.list_element(split, 1)
    action = _mask(pc.match_substring_regex(words, _ACTION))
    action_rows = colon[action]
    actor_names = pc.list_element(split, 0).filter(pa.array(action))
    action_words = words.filter(pa.array(action))
    actor = seated(hand_of[action_rows], actor_names)
    unseated = np.flatnonzero(actor == 0)
    names_shown = actor_names.take(pa.array(unseated)).to_pylist()
    reject_lines(action_rows[unseated], [f"action of {shown(str(name))}, who is not seated"
                                         for name in names_shown])

    # Cards shown, and hands mucked.
    shows = np.flatnonzero(_mask(pc.starts_with(action_words, "shows [")) & (actor > 0))
    shown_cards = pc.extract_regex(action_words.take(pa.array(shows)), _SHOWS).field("cards")
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
    mucks = np.flatnonzero(_mask(pc.starts_with(action_words, "mucks hand")) & (actor > 0))
    mucked[hand_of[action_rows[mucks]], actor[mucks] - 1] = True

    # Collections: "NAME collected AMOUNT from pot | main pot | side pot[-N]".
    collect_candidates = np.flatnonzero(body & _mask(pc.match_substring(lines, " collected ")))
    collect_found = pc.extract_regex(_take(lines, collect_candidates), _COLLECT)
    collect_ok = collect_found.is_valid().to_numpy(zero_copy_only=False)
    collect_rows = collect_candidates[collect_ok]
    collect_fields = collect_found.filter(pa.array(collect_ok))
    collector = seated(hand_of[collect_rows], collect_fields.field("name"))
    unseated = np.flatnonzero(collector == 0)
    names_shown = collect_fields.field("name").take(pa.array(unseated)).to_pylist()
    reject_lines(collect_rows[unseated], [f"{shown(str(name))} collects, but is not seated"
                                          for name in names_shown])
    collected = np.zeros(hands)
    amounts = _amounts(collect_fields.field("amount"))
    np.add.at(collected, hand_of[collect_rows], np.nan_to_num(amounts))
    main = _mask(pc.is_in(collect_fields.field("pot"), value_set=pa.array(["pot", "main pot"])))
    main &= collector > 0
    winners = np.zeros(hands, dtype=np.int64)
    np.bitwise_or.at(winners, hand_of[collect_rows[main]], np.left_shift(1, collector[main] - 1))

    # Summary: each seat's fate, after "Seat N: " and that seat's name, exactly.
    summary_rows = np.flatnonzero(in_summary & starting("Seat ") & (name_at > 0))
    summary_seat = seat_numbers[summary_rows]
    in_range = (summary_seat >= 1) & (summary_seat <= _SEATS)
    seat_row = np.where(in_range, seat_of_hand[hand_of[summary_rows],
                                               np.clip(summary_seat, 1, _SEATS) - 1], -1)
    known = seat_row >= 0
    prefix = pc.binary_join_element_wise(
        _text("Seat "), pc.cast(pa.array(summary_seat, pa.int64()), pa.large_string()), _text(": "),
        pc.if_else(pa.array(known), _take(seat_name, np.maximum(seat_row, 0)) if len(seat_rows) else
                   pa.nulls(len(summary_rows), pa.large_string()), _text("")), _text(""))
    prefix_bytes = pc.binary_length(prefix).to_numpy(zero_copy_only=False).astype(np.int64)
    named_heads, fates = _split_at(_take(lines, summary_rows), prefix_bytes)
    named = known & _mask(pc.equal(named_heads, pc.cast(prefix, pa.large_binary())))
    # Only a tail after an exact name is cut at a character boundary: the others stay binary.
    fates = pc.cast(fates.filter(pa.array(named)), pa.large_string())
    wrong = np.flatnonzero(~named)
    reject_lines(summary_rows[wrong], [f"summary line of seat {summary_seat[i]} does not name its player"
                                       for i in wrong])
    summary_hand, summary_index = hand_of[summary_rows[named]], summary_seat[named] - 1
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

    # Total pot and rake; the board.
    total_rows = np.flatnonzero(in_summary & starting("Total pot "))
    total_found = pc.extract_regex(_take(lines, total_rows), _TOTAL)
    pot = np.full(hands, np.nan)
    rake = np.full(hands, np.nan)
    first_total = _first_per(hand_of[total_rows], hands, np.arange(len(total_rows)))
    has_total = first_total >= 0
    pot[has_total] = _amounts(total_found.field("total"))[first_total[has_total]]
    rake[has_total] = _amounts(total_found.field("rake"))[first_total[has_total]]
    inconsistent = ~(np.abs(pot - rake - collected) <= 1e-9 * (1 + np.abs(pot)))
    inconsistent_reason = np.where(has_total, "total pot less rake is not what was collected",
                                   "no total pot and rake line")
    board_rows = np.flatnonzero(in_summary & starting("Board ["))
    board_found = pc.extract_regex(_take(lines, board_rows), _BOARD_LINE).field("cards")
    first_board = _first_per(hand_of[board_rows], hands, np.arange(len(board_rows)))
    board_text = pc.if_else(pa.array(first_board >= 0), _take(board_found, np.maximum(first_board, 0))
                            if len(board_rows) else pa.nulls(hands, pa.large_string()), "")
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
    columns[EXPECTED] = pa.array(expected[scored].tolist(), pa.string())
    columns["file"] = pa.array([path] * len(scored), pa.string())
    columns["hand"] = _take(hand_id, scored)
    columns["players"] = pc.binary_join_element_wise(*names_by_seat, _text(", "), null_handling="skip")
    columns["variant"] = _take(variant, scored)
    columns["table"] = _take(table_name, scored)
    columns["stakes"] = _take(stakes, scored)
    columns["time"] = _take(when, scored)
    table = pa.table({name: pc.cast(array, pa.string()) for name, array in columns.items()})

    number_of_line = first_line + np.arange(n)
    problems = [(int(number_of_line[rejects.line[h]]), rejects.text[h], str(rejects.reason[h]))
                for h in np.flatnonzero(rejected)]
    return _Parsed(hands=hands, ordinal=hands_before + 1 + np.arange(hands, dtype=np.int64),
                   line=number_of_line[starts].astype(np.int64), outcome=outcome, problem=problems,
                   apart_reason=apart_reason, inconsistent=inconsistent,
                   inconsistent_reason=inconsistent_reason, recorded=recorded, table=table)
