"""PHH hand histories: real hands in, showdown deals and recorded winners out.

Layer: formats and I/O (:mod:`pipeline.formats`); the package imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.histories`,
:mod:`~pipeline.formats.scan`, the hold'em game's columns, pure evaluation and
the foundation modules, never the runs or the command line.

This package owns the Poker Hand History format (PHH: TOML, one hand per
``.phh`` file, or many per ``.phhs`` file as the tables ``[1]``, ``[2]``, ...;
specification in the uoftcprg/phh-std repository and pokerkit's
docs/notation.rst).  It turns each hand into what the hold'em scoring
reads, a deal row (``board``, ``p1`` ... ``p10``), plus the winners the
recorded chips name (``winners``) and columns that trace the row back to
its hand (``file``, ``hand``, ``players``, ``variant``).

Every hand ends in exactly one of four outcomes: a showdown scored like a
deal row; no showdown (fewer than two players had not folded at the end);
a showdown whose cards are not all known (a live player's ``????``, or a
board of fewer than five cards); or a rejection with its reason (bad TOML,
a variant other than ``NT`` / ``FT``, an unknown card, a card dealt twice,
an action of a player who is not seated, ...).

How a file is read
------------------
A TOML parse per hand in Python costs more than the rest of the run, so
the whole text is cut into lines and read at once, with numpy over its
bytes and a few pyarrow string kernels: every ``key = value`` line must
match a strict one-line subset of TOML (bare keys, basic and literal
strings without escapes in lists, plain numbers, booleans, one-line
arrays).  A hand with any line outside that subset, a duplicate key or a
missing field is parsed by :mod:`tomllib` instead, so the fast path only
ever decides hands it reads exactly as TOML does.

The actions of every hand are then split with numpy over their bytes and
replayed with numpy over all actions at once (:func:`replay`, a sequence of
steps that each take and return whole arrays): the street of each action is
the number of board deals before it; the level a call matches is the
running maximum of the bets on its street (the big blind before the flop);
what a player commits on a street is its largest bet or call there, capped
by what it has behind; the uncalled part of the largest bet goes back to
its owner (antes are dead money: never returned, no side pot).
``received = finishing - starting + contributed`` (or ``winnings``) names
the recorded winners of the showdown.

The modules
-----------
Bottom to top, each importing only those before it:

* :mod:`~pipeline.formats.phh.files`: files and their parts: a file read a part at a time on a
  thread of its own, its hands found (table headers outside multi-line strings), its bytes made
  UTF-8 text, whole hands handed on in groups.

This module holds the rest of the format, puts it together into the
reader (:func:`read_batches`, :func:`read_pending`, :func:`read_hands`)
and offers the names its modules offer, as it did when it was one module.
A size of the reading (:data:`CHUNK_BYTES`, :data:`FIRST_PART_BYTES`,
...) is read where it is defined: it is set on
:mod:`~pipeline.formats.phh.files`, not here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, TypeAlias

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per
from pipeline.formats import scan
from pipeline.formats.histories import EXPECTED, NO_RECORDED_WINNER, complete, reason_key, venue_counts
from pipeline.formats.phh.files import (
    CHUNK_BYTES,
    FIRST_PART_BYTES,
    GROUP_HANDS,
    LONGEST_OPEN_STRING,
    PARTS_WAITING,
    SUFFIXES,
    Group,
    hand_starts,
    hand_texts,
    holds_a_delimiter,
    holds_one_hand,
    is_phh,
)
from pipeline.formats.sources import Batch, PendingBatch, Source
from pipeline.games import holdem
from pipeline.poker import cards, notation
from pipeline.poker.holdem import BEST_OF
from pipeline.ranges import ranges
from pipeline.text import offsets_and_data, shown, spans

__all__ = [
    "CBR", "CC", "CHUNK_BYTES", "DB", "DH", "DISAGREE", "FIRST_PART_BYTES", "FOLD", "GROUP_HANDS",
    "LONGEST_OPEN_STRING", "MAX_RAKE", "MUCK_PAID", "NOBODY_PAID", "NOT_CONSERVED", "OTHER", "PARTS_WAITING",
    "SM", "SUFFIXES", "VARIANTS", "ZERO_WINNINGS", "Actions", "Fields", "Hands", "Rejections", "Replay",
    "board_cards", "call_levels", "card_codes", "cards_known", "check_actions", "check_dealt_twice",
    "check_fields", "check_folded", "contributions", "heads_up_order", "hole_cards", "holds_one_hand",
    "inconsistent_records", "is_phh", "live_players", "mucked_players", "posted_forced_bets",
    "read_batches", "read_hands", "read_pending", "received_chips", "recorded_winners", "replay",
    "return_uncalled", "side_pots", "split_actions", "streets", "to_batch",
]

#: The private names the tests read, under the names they had before the package was split.
_hand_texts, _hand_starts, _holds_a_delimiter = hand_texts, hand_starts, holds_a_delimiter


VARIANTS = ("NT", "FT")  # no-limit and fixed-limit Texas hold'em

_SEATS = holdem.MAX_PLAYERS
_BOARD = BEST_OF
_NUMBER_FIELDS = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings")
_REQUIRED = ("variant", "antes", "starting_stacks", "actions")
_OPTIONAL = ("blinds_or_straddles", "players", "hand", "venue", "finishing_stacks", "winnings")

# The one-line TOML subset of the fast path.  Anything else goes to tomllib.
_CONTROL = r"\x00-\x08\x0a-\x1f\x7f"
_STRING = rf"""'[^'{_CONTROL}]*'|"(?:[^"\\{_CONTROL}]|\\[\\"bfnrt])*\""""
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
_ITEM = rf"(?:{_STRING}|{_NUMBER}|true|false)"
_VALUE = rf"^(?:{_ITEM}|\[ *(?:{_ITEM} *, *)*(?:{_ITEM})? *\])$"
_KEY = r"^[A-Za-z0-9_-]+$"
_NUMBERS = rf"^\[ *(?:{_NUMBER} *, *)*(?:{_NUMBER})? *\]$"
# List items the fast path splits: no quote or backslash inside, not empty.
_PLAIN = r"""'[^'"\\]+'|"[^'"\\]+\""""
_STRINGS = rf"^\[ *(?:(?:{_PLAIN}) *, *)*(?:{_PLAIN})? *\]$"
_CANONICAL = r"""^\['[^'"\\]+'(?:, '[^'"\\]+')*\]$"""
_HEADER = r"^\[ *(?P<table>[A-Za-z0-9_-]+) *\] *$"

# Verbs, as codes.
DH, DB, CBR, CC, FOLD, SM, OTHER = range(7)
_VERBS = {"dh": DH, "db": DB, "cbr": CBR, "cc": CC, "f": FOLD, "sm": SM}
_UNKNOWN_CARD = 254  # '??': a card nobody saw
_NO_CARD = 255
_MAX_STREETS = _BOARD + 1  # at most one street per board card, and the pre-flop


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """Read a PHH source in batches of at most ``batch_rows`` (and :data:`GROUP_HANDS`) hands.

    Each batch's table holds :data:`pipeline.formats.histories.COLUMNS` for the hands scored; its rows
    are the hands' numbers in the file (1-based, every hand counted), its
    lines the line where each hand starts; rejected hands are in
    ``unreadable`` and the hands set apart in ``counts``.

    Raises InputError naming the file when it cannot be read as text.
    """
    for group in hand_texts(source, batch_rows=batch_rows):
        yield _group_batch(group, source.name)


def read_pending(source: Source, *, batch_rows: int) -> Iterator[PendingBatch]:
    """The batches of :func:`read_batches`, each left for the thread that loads it to parse.

    This thread only reads the text and finds where hands start; the
    parsing and the replay, most of the work, run where the batch is
    loaded, so that several cores share one file.
    """
    for group in hand_texts(source, batch_rows=batch_rows):
        yield PendingBatch(partial(_group_batch, group, source.name), last_row=group.last_ordinal)


def _group_batch(group: Group, name: str) -> Batch:
    hands = _parse_group(group)
    if group.members:  # each hand is a file of its own: its rows name it
        members = {group.first_ordinal + index: member for index, member in enumerate(group.members)}
        batch = to_batch(hands, replay(hands), {ordinal: member.name for ordinal, member in members.items()})
        batch.member_of_row = members
    else:
        batch = to_batch(hands, replay(hands), name)
    batch.last_row = group.last_ordinal  # every hand of the group is a row of ``hands``
    return batch


def read_hands(source: Source, *, batch_rows: int = GROUP_HANDS) -> Iterator[Hands]:
    """Read a PHH source into groups of at most ``batch_rows`` (and :data:`GROUP_HANDS`) hands, not replayed.

    A ``.phhs`` file's hands start at its table headers (``[1]``, also
    indented; a line of a multi-line string is text, never a header); the
    keys before the first header, if any, are a hand of their own, and a
    file without any header is one hand, as a ``.phh`` file is.  A hand
    with bytes that are not UTF-8 text is rejected with its line, the
    other hands of the file are read.  A ``.phhs`` file is read
    :data:`CHUNK_BYTES` at a time, cut where a hand starts, so that memory
    does not grow with the file.

    Parameters
    ----------
    source : Source
        A PHH file, ``.phh`` (one hand) or ``.phhs`` (the tables ``[1]``,
        ``[2]``, ...), plain or compressed.
    batch_rows : int
        The most hands in one group.

    Yields
    ------
    Hands
        The fields of every hand of the group, those the parser already
        rejects included (with their ``problem``); ``ordinal`` numbers the
        hands in the file from 1.

    Raises InputError naming the file when it cannot be read (an I/O error,
    a damaged compressed file).
    """
    for group in hand_texts(source, batch_rows=batch_rows):
        yield _parse_group(group)


def _parse_group(group: Group) -> Hands:
    """The fields of a group's hands: its text cut into lines and parsed (:func:`_parse`)."""
    data = np.frombuffer(group.text, dtype=np.uint8)
    newlines = scan.line_ends(data) if group.newlines is None else group.newlines
    text = _Text(group.text, data, np.concatenate([[0], newlines + 1]), np.append(newlines, len(data)))
    parsed = _parse(text, group.starts, ordinal=group.first_ordinal, first_line=group.first_line,
                    multi=group.multi)
    if group.members:
        parsed.line[:] = 1  # each hand starts its own file
    if group.bad:
        _reject_bad_bytes(parsed, group.bad)
    return parsed


def _reject_bad_bytes(hands: Hands, bad: tuple[tuple[int, int], ...]) -> None:
    """Reject the hands that hold a line with bytes that are not UTF-8 text: (ordinal, line from 1)."""
    for ordinal, line in bad:
        rows = np.flatnonzero(hands.ordinal == ordinal)
        # The first bad line of a hand names it; it outranks what the '?' made the parser say.
        if len(rows) and not str(hands.problem[rows[0]]).endswith(_NOT_UTF8):
            hands.problem[rows[0]] = f"line {line}: {_NOT_UTF8}"
            hands.excerpt[rows[0]] = None


_NOT_UTF8 = "bytes that are not UTF-8 text"

#: A list of numbers per hand, flat: (values, float64; lengths, int64, -1 where the field is absent).
_NumberLists: TypeAlias = tuple[np.ndarray, np.ndarray]


@dataclass
class Hands:
    """Fields of a group of hands, before the replay; hand i is row i.

    Attributes
    ----------
    ordinal, line : ndarray of shape (hands,), dtype int64
        The hand's number in its file (from 1) and the line where it starts.
    key, variant, players, venue : list of str or None, length hands
        The table name (``.phhs``) or ``hand`` field, the variant code, the
        player names joined by ", ", and where the hand was played (the
        ``venue`` field: a site, a casino).
    numbers : dict of str to (ndarray, ndarray)
        For each number field (``antes``, ``blinds_or_straddles``,
        ``starting_stacks``, ``finishing_stacks``, ``winnings``): the values
        of every hand, flat, float64, and the length of each hand's list,
        int64, -1 where the hand lacks the field.
    actions : pyarrow.Array of strings
        The actions of every hand, flat, hand after hand.
    action_counts : ndarray of shape (hands,), dtype int64
        Actions per hand.
    problem : ndarray of shape (hands,), dtype object
        The reason the parser already rejects the hand, None when it does not.
    excerpt : list of str or None, length hands
        The text shown with that reason.
    """

    ordinal: NDArray[np.int64]
    line: NDArray[np.int64]
    key: list[str | None]
    variant: list[str | None]
    players: list[str | None]
    venue: list[str | None]
    numbers: dict[str, _NumberLists]
    actions: pa.Array
    action_counts: NDArray[np.int64]
    problem: NDArray[np.object_]
    excerpt: list[str | None]


@dataclass(frozen=True)
class _Text:
    """A group's text cut into lines, read in place.

    Attributes
    ----------
    buffer : pyarrow.Buffer
        The text, UTF-8, line ends \\n.
    data : ndarray of shape (bytes,), dtype uint8
        The same bytes, without a copy.
    start, end : ndarray of shape (lines,), dtype int64
        Where each line starts and ends in ``data`` (its \\n excluded).
    """

    buffer: pa.Buffer
    data: NDArray[np.uint8]
    start: NDArray[np.int64]
    end: NDArray[np.int64]

    def at(self, positions: NDArray[np.int64]) -> NDArray[np.uint8]:
        """The bytes at ``positions``, clipped to the text (0 for an empty text); callers check bounds."""
        if not len(self.data):
            return np.zeros(len(positions), dtype=np.uint8)
        found: NDArray[np.uint8] = self.data.take(positions, mode="clip")
        return found

    def spans(self, start: NDArray[np.int64], end: NDArray[np.int64],
              present: NDArray[np.bool_] | None = None) -> pa.Array:
        """The text from each ``start`` to ``end`` (excluded), large_string, null where not ``present``:
        :func:`pipeline.text.spans` of the text (in order, none overlapping)."""
        return spans(self.buffer, start, end, present)

    @cached_property
    def quotes(self) -> NDArray[np.int64]:
        """Where the text holds a ' (sorted)."""
        return np.flatnonzero(self.data == ord("'"))

    @cached_property
    def escapes(self) -> NDArray[np.int64]:
        """Where the text holds a " or a \\ (sorted): neither is in an item of a list the fast way reads."""
        if not (self.data == ord('"')).any() and not (self.data == ord("\\")).any():
            return np.zeros(0, dtype=np.int64)  # the common case, found without a list of places
        return np.flatnonzero((self.data == ord('"')) | (self.data == ord("\\")))


def _parse(text: _Text, starts: np.ndarray, *, ordinal: int, first_line: int, multi: bool) -> Hands:
    """Read a group of hands: the fast path where it applies, tomllib elsewhere."""
    n_lines, hands = len(text.start), len(starts)
    chunk = np.zeros(n_lines, dtype=np.int64)
    chunk[starts[1:]] += 1
    chunk = np.cumsum(chunk)
    slow = np.zeros(hands, dtype=bool)
    header = np.zeros(n_lines, dtype=bool)
    if multi:
        header[starts] = True
    first = np.where(text.end > text.start, text.at(text.start), 0)
    alpha = ((first >= ord("a")) & (first <= ord("z"))) | ((first >= ord("A")) & (first <= ord("Z"))) \
        | ((first >= ord("0")) & (first <= ord("9"))) | (first == ord("_")) | (first == ord("-"))
    quiet = (first == 0) | (first == ord("#"))
    odd = ~(alpha | quiet | header)
    if odd.any():  # indented lines: fine when blank or a comment, else tomllib decides
        rows = np.flatnonzero(odd)
        trimmed = pc.utf8_trim_whitespace(text.spans(text.start[rows], text.end[rows])).to_pylist()
        fine = np.array([t == "" or t.startswith("#") for t in trimmed], dtype=bool)
        slow[chunk[rows[~fine]]] = True
    # "key = value": when a line's first '=' is not the middle of a " = ", the line has no " = "
    # or its key holds an '=': TOML's rules decide either way.
    candidates = np.flatnonzero(alpha)
    middle = _first_equals(text, text.start[candidates])
    line_end = text.end[candidates]
    two = (middle + 1 < line_end) & (text.at(middle - 1) == ord(" ")) & (text.at(middle + 1) == ord(" "))
    slow[chunk[candidates[~two]]] = True
    keys_at, value_start, value_end = candidates[two], middle[two] + 2, line_end[two]
    # Few distinct keys: each is checked once.
    encoded = text.spans(text.start[keys_at], middle[two] - 1).dictionary_encode()
    names = encoded.dictionary.to_pylist()
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    matched = as_mask(pc.match_substring_regex(encoded.dictionary, _KEY))[codes]
    slow[chunk[keys_at[~matched]]] = True

    def values(rows: NDArray[np.int64]) -> pa.Array:
        return text.spans(value_start[rows], value_end[rows])

    # Lists of strings and numbers are checked by their own stricter patterns below.
    listed = (value_end > value_start) & (text.at(value_start) == ord("["))
    scalar = np.flatnonzero(~listed)
    good = _matches_each(values(scalar), _VALUE)
    slow[chunk[keys_at[scalar[matched[scalar] & ~good]]]] = True
    owner = chunk[keys_at]
    pair_ids = owner * (len(names) + 1) + codes
    if hands * (len(names) + 1) <= 16 * len(pair_ids) + (1 << 16):  # a count per pair: no sort
        counts = np.bincount(pair_ids[matched], minlength=hands * (len(names) + 1))
        unique = np.arange(len(counts))
    else:
        unique, counts = np.unique(pair_ids[matched], return_counts=True)
    slow[unique[counts > 1] // (len(names) + 1)] = True  # a duplicate key: TOML refuses it
    where: dict[str, np.ndarray] = {}
    for name in _REQUIRED + _OPTIONAL:  # the key line of each hand (a key given twice: tomllib's hand)
        rows = np.flatnonzero(matched & (codes == names.index(name))) if name in names else np.zeros(0, int)
        where[name] = first_per(owner[rows], hands, rows)
    for name in _REQUIRED:
        slow |= where[name] < 0
    # A list under any other key (those read as text included): TOML's rules, checked in full.
    own_patterns = [names.index(n) for n in (*_NUMBER_FIELDS, "actions", "players") if n in names]
    other = np.flatnonzero(matched & listed & ~np.isin(codes, own_patterns))
    if len(other):
        fits = as_mask(pc.match_substring_regex(values(other), _VALUE))
        slow[chunk[keys_at[other[~fits]]]] = True
    plain_numbers, unread = _number_fields(text, where, value_start, value_end)
    for name in _NUMBER_FIELDS:  # lists other than plain ones: the pattern decides
        present = np.flatnonzero(unread[name])
        fits = as_mask(pc.match_substring_regex(values(where[name][present]), _NUMBERS))
        slow[present[~fits]] = True
    canonical = np.zeros(hands, dtype=bool)
    for name in ("actions", "players"):
        present = np.flatnonzero(where[name] >= 0)
        rows = where[name][present]
        canonical[present], item_start, item_end = _canonical_lists(text, value_start[rows], value_end[rows])
        present = present[~canonical[present]]  # pokerkit's own layout first: then the general pattern
        fits = as_mask(pc.match_substring_regex(values(where[name][present]), _STRINGS))
        slow[present[~fits]] = True
        if name == "actions":
            actions_canonical, canonical = canonical, np.zeros(hands, dtype=bool)
            action_items = item_start, item_end
    players_canonical = canonical
    present = np.flatnonzero(where["variant"] >= 0)
    quoted = _matches_each(values(where["variant"][present]), r"""^(?:'[^']*'|"[^"\\]*")$""")
    slow[present[~quoted]] = True

    header_keys: list[str | None] = []
    if multi:
        found = pc.extract_regex(text.spans(text.start[starts], text.end[starts]), _HEADER)
        plain = found.is_valid().to_numpy(zero_copy_only=False)
        slow |= ~plain
        header_keys = found.field(0).to_pylist()
    elif (first == ord("[")).any():  # a table in a hand without headers: TOML's rules decide
        slow[np.unique(chunk[first == ord("[")])] = True

    fast = np.flatnonzero(~slow)

    def field(name: str) -> pa.Array:  # taken only where needed: the lists are long
        return _field(text, where[name][fast], value_start, value_end)

    numbers: dict[str, _NumberLists] = {}
    for name in _NUMBER_FIELDS:
        numbers[name] = plain_numbers[name] if len(fast) == hands else _lists_of(plain_numbers[name], fast)
        if unread[name][fast].any():
            left = unread[name][fast]
            numbers[name] = _merged(numbers[name], left, _number_lists(field(name).filter(pa.array(left))))
    if not len(fast):
        actions, action_counts = pa.array([], pa.large_string()), np.zeros(0, dtype=np.int64)
    elif len(fast) == hands and actions_canonical.all():  # the items were found by the check
        actions = text.spans(*action_items)
        action_counts = np.diff(np.searchsorted(action_items[0], value_start[where["actions"]]),
                                append=len(action_items[0])).astype(np.int64)
    elif actions_canonical[fast].all():
        rows = where["actions"][fast]
        actions, action_counts = _canonical_items(text, value_start[rows], value_end[rows])
    else:
        actions, action_counts = _string_lists(field("actions"))
    if players_canonical[fast[where["players"][fast] >= 0]].all():
        # ['a', 'b'] -> a, b: no item holds a quote.
        rows = where["players"][fast]
        names_of = text.spans(value_start[rows] + 2, value_end[rows] - 2, present=rows >= 0)
        players = pc.replace_substring(names_of, "'", "").to_pylist()
    else:
        players = pc.replace_substring_regex(_inner(field("players")), r"""['"] *, *['"]""", ", ").to_pylist()
    venue = _unquoted(field("venue")).to_pylist()
    variant = pc.utf8_slice_codeunits(field("variant"), 1, -1).to_pylist()
    if multi:
        key = [header_keys[i] for i in fast]
    else:
        key = _unquoted(field("hand")).to_pylist()
    fast_hands = Hands(
        ordinal=ordinal + fast, line=first_line + starts[fast], key=key, variant=variant,
        players=players, venue=venue, numbers=numbers, actions=actions, action_counts=action_counts,
        problem=np.full(len(fast), None, dtype=object), excerpt=[None] * len(fast))
    slow_rows = np.flatnonzero(slow)
    if not len(slow_rows):
        return fast_hands
    last = np.append(starts[1:], n_lines) - 1
    records = []
    for index in slow_rows:
        hand = bytes(text.data[text.start[starts[index]]:text.end[last[index]]]).decode("utf-8")
        # The last hand of a group ends with its line end, the others without: TOML's errors
        # place "end of document" by it, and a reason must not depend on the batch size.
        record = _slow_hand(hand if hand.endswith("\n") else hand + "\n", multi)
        if multi and record.get("key") is None:  # TOML refused the hand: name it by its header
            record["key"] = hand.split("\n", 1)[0].split("#")[0].strip().strip("[]").strip()
        records.append(record)
    return _concat(fast_hands, _from_records(records, ordinal + slow_rows, first_line + starts[slow_rows]))


#: Eight '0' bytes as one little-endian 64-bit word.
_ZEROS = np.uint64(0x3030303030303030)
#: By a number's length (0 to 8): the bytes of the word that ends with it that are its own, and their '0's.
_KEPT = np.array([0] + [0xFFFFFFFFFFFFFFFF << (8 * (8 - size)) & 0xFFFFFFFFFFFFFFFF for size in range(1, 9)],
                 dtype=np.uint64)
_KEPT_ZEROS = _KEPT & _ZEROS


def _eight_digits(digits: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """The number eight digits (0 to 9 each) spell, the first one in the lowest byte of each word."""
    value = digits
    value = ((value & np.uint64(0x0F0F0F0F0F0F0F0F)) * np.uint64(10 * 256 + 1)) >> np.uint64(8)
    value = ((value & np.uint64(0x00FF00FF00FF00FF)) * np.uint64(100 * 65536 + 1)) >> np.uint64(16)
    value = ((value & np.uint64(0x0000FFFF0000FFFF)) * np.uint64(10000 * 2**32 + 1)) >> np.uint64(32)
    return value


def _plain_number_lists(text: _Text, start: NDArray[np.int64], end: NDArray[np.int64]
                        ) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.float64]]:
    """Lists of numbers written [1, 20, 300], read from their bytes.

    A plain list holds whole numbers of one to eight digits, without a
    leading zero, ", " between them (or nothing: []).  Every such list
    matches :data:`_NUMBERS` and reads as its integers; any other list is
    left to the pattern and the string kernels (:func:`_number_lists`).

    Parameters
    ----------
    text : _Text
        The group's text.
    start, end : ndarray of shape (lists,), dtype int64
        Where each list's value starts and ends; the lists do not overlap.

    Returns
    -------
    plain : ndarray of shape (lists,), dtype bool
        Whether each list is plain.
    counts : ndarray of shape (lists,), dtype int64
        Numbers in each plain list (0 where not plain).
    values : ndarray of shape (sum of counts,), dtype float64
        The numbers of the plain lists, flat, list after list.
    """
    order = np.argsort(start, kind="stable")
    offsets, data, _ = offsets_and_data(text.spans(start[order], end[order]))
    # The lists' bytes, copied once, after and before eight zero bytes: a run of digits is a number.
    pad = 8
    padded = np.zeros(-(-(len(data) + 3 * pad) // pad) * pad, dtype=np.uint8)
    padded[pad:pad + len(data)] = data
    begin, stop = offsets[:-1].astype(np.int64) + pad, offsets[1:].astype(np.int64) + pad
    digit = (padded - np.uint8(ord("0"))) < 10
    edges = np.flatnonzero(digit[1:] != digit[:-1]) + 1
    # Each number's first byte, and the byte after it; then one past every list, so that none is empty.
    first = np.append(edges[0::2], len(padded) - 1)
    after = np.append(edges[1::2], len(padded) - 1)
    lo, hi = np.searchsorted(first, begin), np.searchsorted(first, stop)
    length = after - first
    # Numbers and gaps that break the rules, counted up to each: a list's own are a difference.
    wrong_number = np.cumsum(np.concatenate([[0], (length > 8)
                                             | ((length > 1) & (padded[first] == ord("0")))]))
    # Between two numbers of a list, exactly ", ".
    gap = first[1:] - after[:-1]
    wrong_gap = np.cumsum(np.concatenate([[0], (gap != 2) | (padded[after[:-1]] != ord(","))
                                          | (padded[after[:-1] + 1] != ord(" "))]))
    last = np.maximum(hi - 1, lo)
    plain = (padded[begin] == ord("[")) & (padded[stop - 1] == ord("]")) & (stop - begin >= 2)
    filled = hi > lo
    plain &= np.where(filled, (first[lo] == begin + 1) & (after[last] == stop - 1)
                      & (wrong_number[hi] == wrong_number[lo]) & (wrong_gap[last] == wrong_gap[lo]),
                      stop - begin == 2)
    counts = np.where(plain, hi - lo, 0)
    # The eight bytes that end with each number (a little-endian word read at any byte), as digits;
    # the bytes before the number count as 0.
    words = np.ndarray(shape=(len(padded) - 7,), dtype="<u8", buffer=padded, strides=(1,))
    numbers = ranges(lo[plain], counts[plain])
    size = np.minimum(length[numbers], 8)
    digits = (words[after[numbers] - 8] & _KEPT[size]) - _KEPT_ZEROS[size]
    values = _eight_digits(digits).astype(np.float64)
    read = np.zeros(len(start), dtype=np.int64)
    read[order] = np.arange(len(start))  # each list's place in the text order
    in_order = counts[read]
    firsts = (np.cumsum(counts) - counts)[read]
    return plain[read], in_order, values[ranges(firsts, in_order)]


def _number_fields(text: _Text, where: dict[str, NDArray[np.int64]], value_start: NDArray[np.int64],
                   value_end: NDArray[np.int64]
                   ) -> tuple[dict[str, _NumberLists], dict[str, NDArray[np.bool_]]]:
    """The number fields of every hand where plain (:func:`_plain_number_lists`), and where not.

    ``where`` gives, per field, the key line of each hand among the key lines
    (-1 where the hand lacks the field).  A list that is not plain reads as
    missing here (length -1), its hand marked in the second dict, for the
    pattern and :func:`_number_lists` to decide.
    """
    rows = np.concatenate([where[name] for name in _NUMBER_FIELDS])
    present = rows >= 0
    plain, counts, values = _plain_number_lists(text, value_start[rows[present]], value_end[rows[present]])
    hands = len(where[_NUMBER_FIELDS[0]])
    every = np.full(len(rows), -1, dtype=np.int64)
    every[present] = counts
    unread = np.zeros(len(rows), dtype=bool)
    unread[present] = ~plain
    every[unread] = -1
    found: dict[str, _NumberLists] = {}
    left: dict[str, NDArray[np.bool_]] = {}
    offset = 0
    for index, name in enumerate(_NUMBER_FIELDS):
        lengths = every[index * hands:(index + 1) * hands]
        size = int(np.maximum(lengths, 0).sum())
        found[name] = (values[offset:offset + size], lengths)
        left[name] = unread[index * hands:(index + 1) * hands]
        offset += size
    return found, left


def _lists_of(lists: _NumberLists, hands: NDArray[np.int64]) -> _NumberLists:
    """The lists of some hands (``hands``: their rows, in order)."""
    values, lengths = lists
    sizes = np.maximum(lengths, 0)
    return values[ranges((np.cumsum(sizes) - sizes)[hands], sizes[hands])], lengths[hands]


def _merged(lists: _NumberLists, rows: NDArray[np.bool_], others: _NumberLists) -> _NumberLists:
    """``lists`` with the lists of the ``rows`` (missing there) read from ``others``, in order."""
    lengths = lists[1].copy()
    lengths[rows] = others[1]
    sizes = np.maximum(lengths, 0)
    starts = np.cumsum(sizes) - sizes
    values = np.empty(int(sizes.sum()), dtype=np.float64)
    values[ranges(starts[~rows], sizes[~rows])] = lists[0]
    values[ranges(starts[rows], sizes[rows])] = others[0]
    return values, lengths


def _first_equals(text: _Text, start: NDArray[np.int64]) -> NDArray[np.int64]:
    """Where the first '=' at or after each of the sorted ``start`` is (the text's length where none is)."""
    equals = np.flatnonzero(text.data == ord("="))
    if len(equals) == len(start) and (equals >= start).all() and (equals[:-1] < start[1:]).all():
        return equals  # one '=' on each key line and none elsewhere: the common case needs no search
    equals = np.append(equals, len(text.data))
    found: NDArray[np.int64] = equals[np.searchsorted(equals, start)]
    return found


def _field(text: _Text, rows: NDArray[np.int64], value_start: NDArray[np.int64],
           value_end: NDArray[np.int64]) -> pa.Array:
    """The value text of a field per hand (``rows``: its key line among the key lines, -1: null)."""
    present = rows >= 0
    return text.spans(value_start[np.maximum(rows, 0)], value_end[np.maximum(rows, 0)], present=present)


def _matches_each(strings: pa.Array, pattern: str) -> NDArray[np.bool_]:
    """Whether each string matches ``pattern``, tried once per distinct string."""
    encoded = strings.dictionary_encode()
    fits = as_mask(pc.match_substring_regex(encoded.dictionary, pattern))
    each: NDArray[np.bool_] = fits[encoded.indices.to_numpy(zero_copy_only=False)]
    return each


def _canonical_lists(text: _Text, start: NDArray[np.int64], end: NDArray[np.int64]
                     ) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.int64]]:
    """Whether each list from ``start`` to ``end`` is written as pokerkit writes it (:data:`_CANONICAL`).

    That is ['a', 'b', ...]: the quotes of the list pair up, items of one
    character or more without a quote or a backslash, ", " between them.
    Also returned: where the items of every list that reads so start and
    end (int64, flat), when all of them do; else two empty arrays.
    """
    lo = np.searchsorted(text.quotes, start)
    count = np.searchsorted(text.quotes, end) - lo
    ok: NDArray[np.bool_] = ((end - start >= 5) & (count >= 2) & (count % 2 == 0)
          & (text.at(start) == ord("[")) & (text.at(start + 1) == ord("'"))
          & (text.at(end - 2) == ord("'")) & (text.at(end - 1) == ord("]"))
          & (np.searchsorted(text.escapes, start) == np.searchsorted(text.escapes, end)))
    lists = np.flatnonzero(ok)
    pairs = count[lists] // 2
    quotes = text.quotes[ranges(lo[lists], count[lists])]
    opening, closing = quotes[0::2], quotes[1::2]
    list_of = np.repeat(np.arange(len(lists)), pairs)
    wrong = closing - opening < 2  # an empty item
    after = closing[:-1]
    wrong[:-1] |= (list_of[1:] == list_of[:-1]) & (
        (opening[1:] - after != 3) | (text.at(after + 1) != ord(",")) | (text.at(after + 2) != ord(" ")))
    ok[lists[list_of[wrong]]] = False
    if not ok.all():
        return ok, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return ok, opening + 1, closing


def _canonical_items(text: _Text, start: NDArray[np.int64],
                     end: NDArray[np.int64]) -> tuple[pa.Array, NDArray[np.int64]]:
    """Items of lists as pokerkit writes them (:func:`_canonical_lists`), flat, and their count per list."""
    lo = np.searchsorted(text.quotes, start)
    count = np.searchsorted(text.quotes, end) - lo
    quotes = text.quotes[ranges(lo, count)]
    return text.spans(quotes[0::2] + 1, quotes[1::2]), (count // 2).astype(np.int64)


def _unquoted(strings: pa.Array) -> pa.Array:
    """One-line TOML strings without their quotes (the fast path reads only those without escapes)."""
    return pc.replace_substring_regex(strings, r"""^['"]|['"]$""", "")


def _inner(lists: pa.Array) -> pa.Array:
    """The text between the brackets and outer quotes of one-line string lists."""
    return pc.replace_substring_regex(lists, r"""^\[ *['"]?|['"]? *,? *\]$""", "")


def _string_lists(lists: pa.Array) -> tuple[pa.Array, np.ndarray]:
    """Items of one-line lists of plain strings, flat, and their count per list."""
    inner = _inner(lists)
    empty = as_mask(pc.equal(inner, ""))
    parts = pc.split_pattern_regex(pc.if_else(pa.array(empty), pa.scalar(None, pa.string()), inner),
                                   r"""['"] *, *['"]""")
    counts = pc.fill_null(pc.list_value_length(parts), 0).to_numpy(zero_copy_only=False).astype(np.int64)
    return pc.list_flatten(parts), counts


def _number_lists(lists: pa.Array | None) -> _NumberLists:
    """Flat float64 values and per-hand lengths (-1 where the field is missing)."""
    if lists is None:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    missing = lists.is_null().to_numpy(zero_copy_only=False)
    inner = pc.utf8_slice_codeunits(pc.replace_substring(lists, " ", ""), 1, -1)  # "[1, 2]" -> "1,2"
    if pc.any(pc.ends_with(inner, ",")).as_py():
        inner = pc.replace_substring_regex(inner, ",$", "")
    empty = as_mask(pc.equal(inner, "")) & ~missing
    parts = pc.split_pattern(pc.if_else(pa.array(empty), pa.scalar(None, pa.string()), inner), ",")
    counts = pc.fill_null(pc.list_value_length(parts), 0).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = pc.list_flatten(parts)
    numbers = pc.cast(flat, pa.float64()).to_numpy(zero_copy_only=False) if len(flat) else np.zeros(0)
    counts[missing] = -1
    return numbers, counts


def _slow_hand(text: str, multi: bool) -> dict[str, Any]:
    """One hand read by tomllib: its fields, or ``problem`` saying why it is rejected."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return {"problem": f"bad TOML: {error}", "excerpt": shown(text.split("\n", 1)[0], 60,
                                                                          quote=False)}
    key = None
    if multi:
        tables = [(k, v) for k, v in document.items() if isinstance(v, dict)]
        if len(document) != 1 or len(tables) != 1:
            return {"problem": "expected one table [N] per hand"}
        key, document = tables[0]
    record: dict[str, Any] = {"key": key if multi else _text(document.get("hand")), "numbers": {}}
    variant = document.get("variant")
    if isinstance(variant, str) and variant not in VARIANTS:
        return {**record, "variant": variant}  # rejected by the replay, with the others
    for name in _REQUIRED:
        if name not in document:
            return {**record, "problem": f"missing field {name}"}
    variant = document["variant"]
    if not isinstance(variant, str):
        return {**record, "problem": f"variant {variant!r} is not a string"}
    record["variant"] = variant
    for name in _NUMBER_FIELDS:
        value = document.get(name)
        if value is None:
            continue
        if not isinstance(value, list) or not all(
                isinstance(x, int | float) and not isinstance(x, bool) for x in value):
            return {**record, "problem": f"{name} is not a list of numbers: {shown(str(value))}"}
        record["numbers"][name] = [float(x) for x in value]
    actions = document["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        return {**record, "problem": "actions is not a list of strings"}
    record["actions"] = actions
    players = document.get("players")
    if players is not None and (not isinstance(players, list)
                                or not all(isinstance(p, str) for p in players)):
        return {**record, "problem": "players is not a list of strings"}
    record["players"] = None if players is None else ", ".join(players)
    venue = document.get("venue")
    record["venue"] = venue if isinstance(venue, str) else None
    return record


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _from_records(records: list[dict[str, Any]], ordinal: np.ndarray, line: np.ndarray) -> Hands:
    numbers: dict[str, _NumberLists] = {}
    for name in _NUMBER_FIELDS:
        lists = [r.get("numbers", {}).get(name) for r in records]
        flat = [x for values in lists if values is not None for x in values]
        numbers[name] = (np.array(flat, dtype=np.float64),
                         np.array([-1 if v is None else len(v) for v in lists], dtype=np.int64))
    actions = [r.get("actions") or [] for r in records]
    return Hands(
        ordinal=np.asarray(ordinal, dtype=np.int64), line=np.asarray(line, dtype=np.int64),
        key=[r.get("key") for r in records], variant=[r.get("variant") for r in records],
        players=[r.get("players") for r in records], venue=[r.get("venue") for r in records],
        numbers=numbers,
        actions=pa.array([a for acts in actions for a in acts], pa.string()),
        action_counts=np.array([len(a) for a in actions], dtype=np.int64),
        problem=np.array([r.get("problem") for r in records], dtype=object),
        excerpt=[r.get("excerpt") for r in records])


def _concat(a: Hands, b: Hands) -> Hands:
    return Hands(
        ordinal=np.concatenate([a.ordinal, b.ordinal]), line=np.concatenate([a.line, b.line]),
        key=a.key + b.key, variant=a.variant + b.variant, players=a.players + b.players,
        venue=a.venue + b.venue,
        numbers={name: (np.concatenate([a.numbers[name][0], b.numbers[name][0]]),
                        np.concatenate([a.numbers[name][1], b.numbers[name][1]])) for name in a.numbers},
        actions=pa.concat_arrays([a.actions.cast(pa.string()), b.actions.cast(pa.string())]),
        action_counts=np.concatenate([a.action_counts, b.action_counts]),
        problem=np.concatenate([a.problem, b.problem]), excerpt=a.excerpt + b.excerpt)


def _padded(values: np.ndarray, lengths: np.ndarray, fill: float = 0.0) -> np.ndarray:
    """(hands, seats) float64 from flat values; extra values beyond the seats are dropped."""
    hands = len(lengths)
    out = np.full((hands, _SEATS), fill)
    counts = np.maximum(lengths, 0)
    if counts.max(initial=0) <= _SEATS:  # every value has a seat: one flat index, row * seats + index
        out.reshape(-1)[ranges(np.arange(hands, dtype=np.int64) * _SEATS, counts)] = values
        return out
    index = ranges(np.zeros(hands, dtype=np.int64), counts)
    rows = np.repeat(np.arange(hands), counts)
    keep = index < _SEATS
    out[rows[keep], index[keep]] = values[keep]
    return out


# --- The replay: steps over every hand of a group at once ---------------------------------------
#
# Each step below takes and returns whole arrays, one row per hand (``hands``)
# or per action (``n``), so that a group of thousands of hands costs a few
# numpy calls per step, and each step can be called on a few hand-built rows.


@dataclass
class Rejections:
    """Why hands of a group are rejected, the first reason given to a hand kept.

    Attributes
    ----------
    problem : ndarray of shape (hands,), dtype object
        The reason (str), None while the hand is not rejected.
    excerpt : list of str or None, length hands
        The text shown with the reason (the action at fault), None for none.
    """

    problem: NDArray[np.object_]
    excerpt: list[str | None]

    @classmethod
    def of(cls, hands: Hands) -> Rejections:
        """The rejections the parser already made, copied, so that the hands stay as read."""
        return cls(hands.problem.copy(), list(hands.excerpt))

    @property
    def rejected(self) -> NDArray[np.bool_]:
        """(hands,) bool: the hand has a reason."""
        rejected: NDArray[np.bool_] = self.problem != None  # noqa: E711 (elementwise)
        return rejected

    def reject(self, rows: NDArray[np.intp], reason: str | Callable[[int, np.intp], str],
               text: str | Callable[[int, np.intp], str] | None = None) -> None:
        """Give the hands ``rows`` a reason and an excerpt, unless they have one already.

        ``reason`` and ``text`` are a string, or a function of the position in
        ``rows`` and the row, called only for a hand not yet rejected (the
        messages are costly and rejections rare).
        """
        for position, row in enumerate(rows):
            if self.problem[row] is None:
                self.problem[row] = reason(position, row) if callable(reason) else reason
                self.excerpt[row] = text(position, row) if callable(text) else text

    def reject_actions(self, actions: Actions, bad: NDArray[np.bool_],
                       why: Callable[[np.intp], str]) -> None:
        """Reject the hands of the actions flagged in ``bad`` ((n,) bool), each named by its first bad action.

        ``why`` gives the reason from the index of that action.
        """
        rows = np.flatnonzero(bad)
        if not len(rows):
            return
        hand_rows, first = np.unique(actions.hand[rows], return_index=True)
        shown_text: list[str] = actions.texts.take(pa.array(rows[first])).to_pylist()
        self.reject(hand_rows, lambda i, _: f"action {shown(shown_text[i])}: {why(rows[first[i]])}",
                    lambda i, _: shown_text[i])


@dataclass
class Fields:
    """The per-seat fields of a group of hands, padded to :data:`holdem.MAX_PLAYERS` seats.

    Attributes
    ----------
    variant : ndarray of shape (hands,), dtype object
        The variant code (str), "" where the hand has none.
    players : ndarray of shape (hands,), dtype int64
        The number of starting stacks (-1 where absent, out of range in a
        rejected hand).
    stack, ante, blind : ndarray of shape (hands, seats), dtype float64
        Starting stacks, antes and blinds or straddles by seat, 0 past the
        last value.
    seated : ndarray of shape (hands, seats), dtype bool
        The seat has a player.
    """

    variant: NDArray[np.object_]
    players: NDArray[np.int64]
    stack: NDArray[np.float64]
    ante: NDArray[np.float64]
    blind: NDArray[np.float64]
    seated: NDArray[np.bool_]


def check_fields(hands: Hands, rejections: Rejections) -> Fields:
    """Reject the hands whose variant or list lengths do not fit, and pad the per-seat fields.

    Parameters
    ----------
    hands : Hands
        A group of hands as read.
    rejections : Rejections
        Gets a reason for a variant other than :data:`VARIANTS`, fewer than
        two or more than ten starting stacks, a list of antes, blinds,
        finishing stacks or winnings of another length than the stacks, a
        starting stack that is negative or NaN, an ante that is negative,
        NaN or infinite, and a blind that is NaN or infinite.  A negative
        blind is a post (see the returned ``blind``).

    Returns
    -------
    Fields
        The variant, number of players and per-seat numbers of every hand;
        a post (a negative entry of ``blinds_or_straddles``) is given as the
        blind of its size: live money, as pokerkit posts it.
    """
    variant = np.array(hands.variant, dtype=object)
    if None in hands.variant:
        variant[variant == None] = ""  # noqa: E711 (elementwise)
    wrong = np.flatnonzero(~np.isin(variant, VARIANTS))
    rejections.reject(wrong, lambda _, row: f"variant {variant[row]!r} is not Texas hold'em "
                                            f"({' or '.join(VARIANTS)})")
    players = hands.numbers["starting_stacks"][1]
    rejections.reject(np.flatnonzero((players < 2) | (players > _SEATS)),
                      lambda _, row: f"{players[row]} starting stacks: expected 2 to {_SEATS} players")
    for name in ("antes", "blinds_or_straddles", "finishing_stacks", "winnings"):
        lengths = hands.numbers[name][1]

        def miscount(_: int, row: np.intp, name: str = name, lengths: np.ndarray = lengths) -> str:
            return f"{name} has {lengths[row]} values for {players[row]} players"

        rejections.reject(np.flatnonzero((lengths >= 0) & (lengths != players)), miscount)
    seated = np.arange(_SEATS) < np.minimum(players, _SEATS)[:, None]
    stack = _padded(*hands.numbers["starting_stacks"])
    ante, blind = _padded(*hands.numbers["antes"]), _padded(*hands.numbers["blinds_or_straddles"])
    # Chips are never negative nor NaN; a stack may be unknown (inf), a forced bet may not.  A
    # negative blind is a post: the chips a player just seated pays to play at once, without
    # waiting for the big blind to reach it (pokerkit's reading); live money, as a blind is.
    for name, values, wrong in (("starting stack", stack, (stack < 0) | np.isnan(stack)),
                                ("ante", ante, ~(ante >= 0) | np.isinf(ante)),
                                ("blind or straddle", blind, ~np.isfinite(blind))):
        rows, seats = np.nonzero(wrong & seated)

        def impossible(i: int, row: np.intp, name: str = name, values: np.ndarray = values,
                       seats: np.ndarray = seats) -> str:
            value = values[row, seats[i]]
            what = "not a number" if np.isnan(value) else "unknown" if np.isinf(value) else "negative"
            return f"{name} of p{seats[i] + 1} is {what} ({value:g})"

        rejections.reject(rows, impossible)
        values[rows, seats] = 0.0  # the hand is out; the group's replay meets no NaN
    np.abs(blind, out=blind)  # a post is posted as a blind of its size
    return Fields(variant=variant, players=players, stack=stack, ante=ante, blind=blind, seated=seated)


@dataclass
class Actions:
    """The actions of a group of hands split into their words; action i is row i, in hand order.

    Attributes
    ----------
    texts : pyarrow.Array of n strings
        The actions as written.
    hand : ndarray of shape (n,), dtype int64
        The row of the action's hand in its group (non-decreasing).
    understood : ndarray of shape (n,), dtype bool
        The action has the shape ``ACTOR VERB [pN] [ARG]``.
    actor, target : ndarray of shape (n,), dtype int8
        Player numbers from 1: the actor (0 for the dealer ``d``), the player
        dealt to by ``d dh pN`` (0 for none); -1 for a word that is no player.
    verb : ndarray of shape (n,), dtype int8
        A verb code, :data:`DH` ... :data:`SM`, or :data:`OTHER`.
    arg_start, arg_length : ndarray of shape (n,), dtype int64
        Where the argument (cards or an amount) lies in ``data``; length 0
        for none.
    amount : ndarray of shape (n,), dtype float64
        The amount of a ``cbr`` (NaN when it is not a number, and for every
        other verb).
    data : ndarray of shape (bytes,), dtype uint8
        The bytes of the texts that ``arg_start`` points into.
    counts : ndarray of shape (hands,), dtype int64
        Actions per hand, the no-op actions (empty, blank, a comment alone)
        left out.
    """

    texts: pa.Array
    hand: NDArray[np.int64]
    understood: NDArray[np.bool_]
    actor: NDArray[np.int8]
    verb: NDArray[np.int8]
    target: NDArray[np.int8]
    arg_start: NDArray[np.int64]
    arg_length: NDArray[np.int64]
    amount: NDArray[np.float64]
    data: NDArray[np.uint8]
    counts: NDArray[np.int64]
    _mine: tuple[NDArray[np.int64], NDArray[np.bool_]] | None = field(default=None, init=False, repr=False,
                                                                     compare=False)

    @property
    def shows_dealt(self) -> NDArray[np.bool_]:
        """(n,) bool: ``pN sm -``, showing the hole cards already dealt face up."""
        face_up: NDArray[np.bool_] = self.understood & (self.verb == SM) & (self.arg_length == 1)
        shows = np.flatnonzero(face_up)  # few: read their argument only
        face_up[shows] = self.data[self.arg_start[shows]] == ord("-")
        return face_up

    @property
    def mucks(self) -> NDArray[np.bool_]:
        """(n,) bool: ``pN sm`` without cards, giving the hand up at the showdown."""
        mucks: NDArray[np.bool_] = self.understood & (self.verb == SM) & (self.arg_length == 0)
        return mucks

    def by_player(self, players: NDArray[np.int64]) -> NDArray[np.bool_]:
        """(n,) bool: an understood action of a player seated in its hand (``players`` per hand).

        Worked out once for the same ``players`` (several steps ask): not to be modified.
        """
        if self._mine is None or self._mine[0] is not players:
            self._mine = (players, self.understood & (self.actor >= 1) & (self.actor <= players[self.hand]))
        return self._mine[1]

    @cached_property
    def seat(self) -> NDArray[np.int8]:
        """(n,) int8: the actor's seat from 0, clipped into the seats so that it can index them."""
        seat: NDArray[np.int8] = np.clip(self.actor - 1, 0, _SEATS - 1)
        return seat

    @cached_property
    def slot(self) -> NDArray[np.int64]:
        """(n,) int64: the actor's place in a flat (hands, seats) array, ``hand * seats + seat``."""
        slot: NDArray[np.int64] = self.hand * _SEATS + self.seat
        return slot


def check_actions(actions: Actions, players: NDArray[np.int64], rejections: Rejections) -> None:
    """Reject the hands with an action that is not a Texas hold'em action of a seated player.

    Parameters
    ----------
    actions : Actions
        The split actions of a group of hands.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    rejections : Rejections
        Gets, for the first bad action of a hand: not understood, a verb
        other than dh, db, cbr, cc, f, sm, a deal by a player or a bet by
        the dealer, ``d dh`` without its player, a player not seated, a
        ``cbr`` without an amount, ``cc`` or ``f`` with an argument.
    """
    understood, actor, verb, target = actions.understood, actions.actor, actions.verb, actions.target
    rejections.reject_actions(actions, ~understood, lambda _: "not understood")
    dealer = actor == 0
    is_deal = (verb == DH) | (verb == DB)
    rejections.reject_actions(actions, understood & (verb == OTHER),
                              lambda a: "not a Texas hold'em action (dh, db, cbr, cc, f, sm)")
    rejections.reject_actions(actions, understood & (verb != OTHER) & (dealer != is_deal),
                              lambda a: "dealing is the dealer's (d), betting the players' (pN)")
    rejections.reject_actions(actions, understood & ((verb == DH) != (target > 0)),
                              lambda a: "d dh names the player dealt to, and only it")
    seats_of = players[actions.hand]
    unseated = understood & ((actor > seats_of) | (target > seats_of) | (actor < 0) | (target < 0))
    rejections.reject_actions(actions, unseated, lambda a: f"player {max(actor[a], target[a])} is not seated "
                                                           f"({seats_of[a]} players)")
    rejections.reject_actions(actions, understood & (verb == CBR) & np.isnan(actions.amount),
                              lambda _: "cbr needs an amount")
    rejections.reject_actions(actions, understood & ((verb == CC) | (verb == FOLD))
                              & (actions.arg_length > 0), lambda _: "cc and f take no argument")


def card_codes(actions: Actions, rejections: Rejections) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The cards of every deal and show, as codes, with the action each comes from.

    Parameters
    ----------
    actions : Actions
        The split actions of a group of hands.
    rejections : Rejections
        Gets, for the first bad action of a hand: cards not of two
        characters each, hole cards that are not two, more than five board
        cards in one deal, an unknown card.

    Returns
    -------
    code : ndarray of shape (cards,), dtype uint8
        The card codes of :mod:`pipeline.cards`, 254 for ``??`` (a card
        nobody saw), :data:`cards.INVALID` for a card that is not one.
    owner : ndarray of shape (cards,), dtype int64
        The action of each card (non-decreasing; its cards in order).
    """
    verb, arg_length, data = actions.verb, actions.arg_length, actions.data
    carded = actions.understood & ((verb == DH) | (verb == DB) | ((verb == SM) & (arg_length > 0)))
    carded &= ~actions.shows_dealt  # 'sm -': the cards are those dealt
    odd = (arg_length & 1).astype(bool)
    rejections.reject_actions(actions, carded & (odd | (arg_length == 0)),
                              lambda _: "cards are two characters each")
    carded &= ~odd & (arg_length > 0)
    rejections.reject_actions(actions, carded & (verb != DB) & (arg_length != 4),
                              lambda _: "hole cards are two cards")
    rejections.reject_actions(actions, carded & (verb == DB) & (arg_length > 2 * _BOARD),
                              lambda _: "more than five board cards")
    carded &= ((verb != DB) & (arg_length == 4)) | ((verb == DB) & (arg_length <= 2 * _BOARD))
    card_actions = np.flatnonzero(carded)
    per = arg_length[card_actions] // 2
    # Card k of an action begins 2k bytes into its argument: k is the card's rank less the action's first.
    first_card = np.cumsum(per) - per
    begin = 2 * np.arange(per.sum()) + np.repeat(actions.arg_start[card_actions] - 2 * first_card, per)
    pair = data[begin].astype(np.uint16) | data[begin + 1].astype(np.uint16) << 8 if len(begin) else \
        np.zeros(0, np.uint16)
    code: NDArray[np.uint8] = cards.CODE_OF_TEXT[pair]
    code[pair == ord("?") | ord("?") << 8] = _UNKNOWN_CARD
    bad_card = code == cards.INVALID
    owner = np.repeat(card_actions, per)
    if bad_card.any():
        words = {int(owner[i]): data[begin[i]:begin[i] + 2].tobytes().decode("utf-8", "replace")
                 for i in np.flatnonzero(bad_card)[::-1]}
        rejections.reject_actions(
            actions, np.isin(np.arange(len(verb)), owner[bad_card]),
            lambda a: f"unknown card {shown(words[int(a)])} (ranks {cards.RANKS}, suits {cards.SUITS}, "
                      f"?? unknown)")
    return code, owner


def board_cards(code: NDArray[np.uint8], owner: NDArray[np.int64], actions: Actions, hands: int,
                rejections: Rejections) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The board of every hand: the cards of its ``d db`` actions in order.

    Parameters
    ----------
    code, owner : ndarray of shape (cards,)
        Card codes (uint8) and their actions (int64), from :func:`card_codes`.
    actions : Actions
        The split actions of the group.
    hands : int
        Hands in the group.
    rejections : Rejections
        Gets "more than five board cards" for a hand dealt more in all.

    Returns
    -------
    board : ndarray of shape (hands, 5), dtype uint8
        The board's card codes, 255 past the cards dealt.
    board_count : ndarray of shape (hands,), dtype int64
        The board cards dealt, all of them (more than five in a rejected hand).
    """
    board = np.full((hands, _BOARD), _NO_CARD, dtype=np.uint8)
    is_board = actions.verb[owner] == DB
    board_hand = actions.hand[owner[is_board]]
    order = np.arange(len(board_hand))
    first_of_hand = np.searchsorted(board_hand, board_hand)  # board_hand is sorted
    slot = order - first_of_hand
    over = slot >= _BOARD
    rejections.reject(np.unique(board_hand[over]), "more than five board cards")
    board[board_hand[~over], slot[~over]] = code[is_board][~over]
    board_count: NDArray[np.int64] = np.bincount(board_hand, minlength=hands)
    return board, board_count


def hole_cards(code: NDArray[np.uint8], owner: NDArray[np.int64], actions: Actions, hands: int,
               rejections: Rejections) -> NDArray[np.uint8]:
    """The hole cards of every seat: those dealt, replaced by those the player shows.

    Parameters
    ----------
    code, owner : ndarray of shape (cards,)
        Card codes (uint8) and their actions (int64), from :func:`card_codes`.
    actions : Actions
        The split actions of the group.
    hands : int
        Hands in the group.
    rejections : Rejections
        Gets a reason for a player who shows other cards than the known
        cards dealt to it.

    Returns
    -------
    ndarray of shape (hands, seats, 2), dtype uint8
        Card codes by hand and seat, 254 for a card nobody saw, 255 where
        none was dealt.
    """
    holes = np.full((hands, _SEATS, 2), _NO_CARD, dtype=np.uint8)
    shown_cards = np.full((hands, _SEATS, 2), _NO_CARD, dtype=np.uint8)
    verb = actions.verb[owner]
    for which, grid, player in ((DH, holes, actions.target), (SM, shown_cards, actions.actor)):
        mine = verb == which
        acts = owner[mine][::2]
        # Seat -1 (a dealer's show) is the last seat of its hand, as a negative index is.
        seat = (np.minimum(player[acts], _SEATS) - 1) % _SEATS
        # A seat's two cards as one uint16: one item a seat, not a row of two.
        grid.view(np.uint16).reshape(-1)[actions.hand[acts] * _SEATS + seat] = code[mine].view(np.uint16)
    (dealt, dealt_too), (shown, shown_too) = np.moveaxis(holes, 2, 0), np.moveaxis(shown_cards, 2, 0)
    shown_known = (shown < _UNKNOWN_CARD) & (shown_too < _UNKNOWN_CARD)
    # Two pairs are the same cards when their lower and their higher codes are.
    differ = shown_known & (dealt < _UNKNOWN_CARD) & (dealt_too < _UNKNOWN_CARD) & (
        (np.minimum(dealt, dealt_too) != np.minimum(shown, shown_too))
        | (np.maximum(dealt, dealt_too) != np.maximum(shown, shown_too)))
    rows, seats = np.nonzero(differ)
    rejections.reject(rows, lambda i, row: f"p{seats[i] + 1} shows {_cards_of(shown_cards[row, seats[i]])}, "
                                           f"dealt {_cards_of(holes[row, seats[i]])}")
    known: NDArray[np.uint8] = np.where(shown_known, shown_cards.view(np.uint16)[:, :, 0],
                                        holes.view(np.uint16)[:, :, 0]).view(np.uint8).reshape(holes.shape)
    return known


def check_dealt_twice(board: NDArray[np.uint8], holes: NDArray[np.uint8], rejections: Rejections) -> None:
    """Reject the hands in which a known card is dealt twice.

    Parameters
    ----------
    board : ndarray of shape (hands, 5), dtype uint8
        From :func:`board_cards`.
    holes : ndarray of shape (hands, seats, 2), dtype uint8
        From :func:`hole_cards`.
    rejections : Rejections
        Gets "card Xx is dealt twice".
    """
    hands = len(board)
    every = np.concatenate([board, holes.reshape(hands, -1)], axis=1)
    # Unknown cards ('??') and cards not dealt take no place in the deck.
    twice = np.flatnonzero(~cards.all_distinct([np.minimum(column, cards.DECK_SIZE) for column in every.T]))
    rejections.reject(twice, lambda _, row: f"card {_twice(every[row])} is dealt twice")


def streets(verb: NDArray[np.int8], hand: NDArray[np.int64], counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """The street of every action: the board deals before it in its hand.

    Parameters
    ----------
    verb : ndarray of shape (n,), dtype int8
        Verb codes of the actions of a group, hand after hand.
    hand : ndarray of shape (n,), dtype int64
        The hand of each action (non-decreasing).
    counts : ndarray of shape (hands,), dtype int64
        Actions per hand.

    Returns
    -------
    ndarray of shape (n,), dtype int64
        0 before the flop, 1 after the first board deal, ..., at most 5: a
        hand dealt more is rejected, and the cap keeps it inside the arrays.
        A board deal counts only for the actions after it.

    Examples
    --------
    >>> streets(np.array([DH, CBR, DB, CC, DB, CC, DH]), np.array([0, 0, 0, 0, 0, 0, 1]),
    ...         np.array([6, 1])).tolist()
    [0, 0, 0, 1, 1, 2, 0]
    """
    is_db = (verb == DB).astype(np.int64)
    before = np.cumsum(is_db) - is_db
    hand_start = np.cumsum(counts) - counts
    street = before - before[np.minimum(hand_start, max(len(before) - 1, 0))][hand] if len(before) \
        else before
    capped: NDArray[np.int64] = np.minimum(street, _MAX_STREETS - 1)
    return capped


def heads_up_order(ante: NDArray[np.float64], blind: NDArray[np.float64],
                   players: NDArray[np.int64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The antes and blinds each seat posts: as listed, but swapped between the two seats of a heads-up hand.

    The specification lists the forced bets from the small blind on, and
    reverses them when two play: the first player is then the button and
    posts the second value (pokerkit does the same).

    Parameters
    ----------
    ante, blind : ndarray of shape (hands, seats), dtype float64
        As the hands list them.
    players : ndarray of shape (hands,), dtype int64

    Returns
    -------
    ante, blind : ndarray of shape (hands, seats), dtype float64
        New arrays.

    Examples
    --------
    >>> ante, blind = heads_up_order(np.zeros((2, 3)), np.array([[1., 2., 0.], [1., 2., 0.]]),
    ...                              np.array([2, 3]))
    >>> blind.tolist()
    [[2.0, 1.0, 0.0], [1.0, 2.0, 0.0]]
    """
    two = np.flatnonzero(players == 2)
    swapped = []
    for values in (ante, blind):
        values = values.copy()
        values[two, 0], values[two, 1] = values[two, 1], values[two, 0].copy()
        swapped.append(values)
    return swapped[0], swapped[1]


def check_folded(actions: Actions, players: NDArray[np.int64], rejections: Rejections) -> None:
    """Reject the hands in which a player acts after folding.

    Parameters
    ----------
    actions : Actions
        The split actions of a group of hands.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    rejections : Rejections
        Gets "pN acts after folding" at the first such action.
    """
    mine = actions.by_player(players) & (actions.verb != OTHER)
    position = np.arange(len(mine))
    first_fold = np.full(len(players) * _SEATS, len(mine), dtype=np.int64)  # by slot
    folds = np.flatnonzero(mine & (actions.verb == FOLD))
    np.minimum.at(first_fold, actions.slot[folds], folds)
    after = mine & (position > first_fold[actions.slot])
    rejections.reject_actions(actions, after, lambda a: f"p{actions.actor[a]} acts after folding")


def posted_forced_bets(stack: NDArray[np.float64], ante: NDArray[np.float64], blind: NDArray[np.float64],
                       seated: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The antes and then the blinds or straddles posted, each capped by what the player has left.

    Parameters
    ----------
    stack, ante, blind : ndarray of shape (hands, seats), dtype float64
        Starting stacks, antes, blinds or straddles.
    seated : ndarray of shape (hands, seats), dtype bool
        The seats that have a player.

    Returns
    -------
    posted_ante, posted_blind : ndarray of shape (hands, seats), dtype float64
        0 at an empty seat.

    Examples
    --------
    >>> posted_ante, posted_blind = posted_forced_bets(
    ...     np.array([[100., 30., 8.]]), np.array([[5., 5., 5.]]), np.array([[10., 20., 0.]]),
    ...     np.array([[True, True, True]]))
    >>> posted_ante.tolist(), posted_blind.tolist()
    ([[5.0, 5.0, 5.0]], [[10.0, 20.0, 0.0]])
    """
    posted_ante = np.minimum(ante, stack) * seated
    posted_blind = np.minimum(blind, stack - posted_ante) * seated
    return posted_ante, posted_blind


def call_levels(verb: NDArray[np.int8], amount: NDArray[np.float64], street: NDArray[np.int64],
                hand: NDArray[np.int64], posted_blind: NDArray[np.float64]) -> NDArray[np.float64]:
    """The level a call matches at every action: the largest bet before it on its street.

    Before the flop the largest blind counts as a bet.

    Parameters
    ----------
    verb : ndarray of shape (n,), dtype int8
        The verb codes of the actions.
    street, hand : ndarray of shape (n,), dtype int64
        The streets (:func:`streets`) and hands of the actions.
    amount : ndarray of shape (n,), dtype float64
        The amount of each ``cbr`` (a bet or raise *to* that total on the street).
    posted_blind : ndarray of shape (hands, seats), dtype float64
        From :func:`posted_forced_bets`.

    Returns
    -------
    ndarray of shape (n,), dtype float64
        -inf where nothing was bet before on the street.
    """
    segment = hand * _MAX_STREETS + street
    is_bet = verb == CBR
    bets = np.flatnonzero(is_bet)
    # The largest bet through each bet, read at every action after it: the last bet before it.
    through = _running_max(amount[bets], segment[bets])
    last = np.cumsum(is_bet) - is_bet - 1
    level = np.full(len(verb), -np.inf)
    after = np.flatnonzero(last >= 0)
    after = after[segment[bets[last[after]]] == segment[after]]
    level[after] = through[last[after]]
    np.maximum(level, _across(np.maximum, posted_blind)[hand], out=level, where=street == 0)
    return level


def contributions(actions: Actions, players: NDArray[np.int64], street: NDArray[np.int64],
                  level: NDArray[np.float64], stack: NDArray[np.float64], posted_ante: NDArray[np.float64],
                  posted_blind: NDArray[np.float64], *,
                  rejections: Rejections | None = None) -> NDArray[np.float64]:
    """The chips every player put in, street by street, before the uncalled bet goes back.

    On a street a player commits the largest of its blind (before the
    flop), its bets (``cbr``, to the amount) and its calls (``cc``, to the
    level of :func:`call_levels`), capped by what it had left when the street
    began: a call for more than the stack is an all-in call.

    Parameters
    ----------
    actions : Actions
        The split actions of a group; only understood ``cbr`` and ``cc`` of
        seated players count.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    street : ndarray of shape (n,), dtype int64
        From :func:`streets`.
    level : ndarray of shape (n,), dtype float64
        From :func:`call_levels`.
    stack, posted_ante, posted_blind : ndarray of shape (hands, seats), dtype float64
        Starting stacks, and the antes and blinds of :func:`posted_forced_bets`.
    rejections : Rejections, optional
        Gets "bet X beyond the stack" for a ``cbr`` to more than the player
        had when the street began: such a hand cannot have been played.

    Returns
    -------
    ndarray of shape (hands, seats), dtype float64
        Antes included.
    """
    verb = actions.verb
    playing = np.flatnonzero(actions.by_player(players) & ((verb == CBR) | (verb == CC)))
    slot, bet, on_street = actions.slot[playing], verb[playing] == CBR, street[playing]
    wanted = np.where(bet, actions.amount[playing], level[playing])
    tolerance = _tolerance(stack)[actions.hand[playing]]
    contributed = posted_ante.copy()
    beyond = np.zeros(len(verb), dtype=bool)
    caps = np.zeros(len(verb))
    # A street at a time: its cap is what the earlier streets left.
    for s in range(int(street.max(initial=0)) + 1):
        committed = posted_blind.copy() if s == 0 else np.zeros_like(contributed)
        acts = np.flatnonzero(on_street == s)  # of the playing actions
        cap = (stack - contributed).reshape(-1)[slot[acts]]
        beyond[playing[acts]] = bet[acts] & (wanted[acts] > cap + tolerance[acts])
        caps[playing[acts]] = cap
        np.maximum.at(committed.reshape(-1), slot[acts], np.minimum(wanted[acts], cap))
        contributed += committed
    if rejections is not None:
        rejections.reject_actions(actions, beyond, lambda a: f"bet {actions.amount[a]:g} beyond the stack "
                                                             f"(p{actions.actor[a]} has {caps[a]:g})")
    return contributed


def return_uncalled(contributed: NDArray[np.float64],
                    posted_ante: NDArray[np.float64]) -> NDArray[np.float64]:
    """The contributions once the part of the largest bet that nobody matched goes back to its owner.

    An ante is dead money, never matched nor returned: only the bets
    (contributions without the antes) are compared, so that a big blind
    ante neither comes back as if uncalled nor hides a raise nobody called.

    Parameters
    ----------
    contributed : ndarray of shape (hands, seats), dtype float64
        From :func:`contributions`, antes included.
    posted_ante : ndarray of shape (hands, seats), dtype float64
        From :func:`posted_forced_bets`.

    Returns
    -------
    ndarray of shape (hands, seats), dtype float64
        A new array: the largest bet of each hand lowered to the second
        largest, antes still included.

    Examples
    --------
    >>> return_uncalled(np.array([[50., 300., 100.]]), np.zeros((1, 3))).tolist()
    [[50.0, 100.0, 100.0]]
    >>> return_uncalled(np.array([[50., 400., 300.]]), np.array([[0., 100., 0.]])).tolist()
    [[50.0, 400.0, 300.0]]
    """
    bets = contributed - posted_ante
    ranked = np.sort(bets, axis=1)
    top = bets.argmax(axis=1)
    returned = contributed.copy()
    returned[np.arange(len(returned)), top] -= ranked[:, -1] - ranked[:, -2]
    return returned


def live_players(actions: Actions, players: NDArray[np.int64],
                 seated: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The players still in every hand at its end: seated and not folded.

    Parameters
    ----------
    actions : Actions
        The split actions of a group.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    seated : ndarray of shape (hands, seats), dtype bool
        The seats that have a player.

    Returns
    -------
    ndarray of shape (hands, seats), dtype bool
        Two or more live players make a showdown.
    """
    folded = np.zeros(seated.shape, dtype=bool)
    folds = np.flatnonzero(actions.by_player(players) & (actions.verb == FOLD))
    folded.reshape(-1)[actions.slot[folds]] = True
    live: NDArray[np.bool_] = seated & ~folded
    return live


def mucked_players(actions: Actions, players: NDArray[np.int64],
                   live: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The live players who give their hand up at the showdown: ``pN sm`` without cards.

    A player who mucks forfeits the pot, as the specification says: its
    seat is left empty, whatever cards it was dealt.

    Parameters
    ----------
    actions : Actions
        The split actions of a group.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.

    Returns
    -------
    ndarray of shape (hands, seats), dtype bool
    """
    mucked = np.zeros(live.shape, dtype=bool)
    mucks = np.flatnonzero(actions.by_player(players) & actions.mucks)
    mucked.reshape(-1)[actions.slot[mucks]] = True
    mucked &= live
    return mucked


def cards_known(board: NDArray[np.uint8], holes: NDArray[np.uint8],
                contesting: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Whether every card a showdown needs is known: five board cards and the contesting players' holes.

    A card written ``??`` is unknown: such a showdown is never scored, as
    if the card were any other.

    Parameters
    ----------
    board : ndarray of shape (hands, 5), dtype uint8
        From :func:`board_cards`.
    holes : ndarray of shape (hands, seats, 2), dtype uint8
        From :func:`hole_cards`.
    contesting : ndarray of shape (hands, seats), dtype bool
        The players who contest the pot at the showdown; at least one.

    Returns
    -------
    ndarray of shape (hands,), dtype bool

    Examples
    --------
    >>> board = np.array([[0, 1, 2, 3, 4], [0, 1, _UNKNOWN_CARD, 3, 4]], dtype=np.uint8)
    >>> holes = np.full((2, _SEATS, 2), _NO_CARD, dtype=np.uint8)
    >>> holes[:, 0] = [8, 9]
    >>> contesting = np.zeros((2, _SEATS), dtype=bool)
    >>> contesting[:, 0] = True
    >>> cards_known(board, holes, contesting).tolist()
    [True, False]
    """
    dealt = (holes[:, :, 0] < cards.DECK_SIZE) & (holes[:, :, 1] < cards.DECK_SIZE)  # not a reduction of 2
    known: NDArray[np.bool_] = (_across(np.logical_and, board < cards.DECK_SIZE)
                                & _across(np.logical_and, dealt | ~contesting)
                                & _across(np.logical_or, contesting))
    return known


def received_chips(stack: NDArray[np.float64], contributed: NDArray[np.float64],
                   finishing: NDArray[np.float64], has_finishing: NDArray[np.bool_],
                   winnings: NDArray[np.float64]) -> NDArray[np.float64]:
    """The chips every player received from the pot, as the recorded result says.

    Parameters
    ----------
    stack, contributed : ndarray of shape (hands, seats), dtype float64
        Starting stacks, and contributions after :func:`return_uncalled`.
    finishing, winnings : ndarray of shape (hands, seats), dtype float64
        The recorded finishing stacks and winnings (0 where absent).
    has_finishing : ndarray of shape (hands,), dtype bool
        The hand records finishing stacks; they win over winnings.

    Returns
    -------
    ndarray of shape (hands, seats), dtype float64
        ``finishing - stack + contributed``, or else ``winnings``.

    Examples
    --------
    >>> received_chips(np.array([[100., 100.]]), np.array([[40., 40.]]), np.array([[180., 20.]]),
    ...                np.array([True]), np.zeros((1, 2))).tolist()
    [[120.0, -40.0]]
    """
    received: NDArray[np.float64] = np.where(has_finishing[:, None], finishing - stack + contributed,
                                             winnings)
    return received


def _across(ufunc: np.ufunc, values: np.ndarray) -> np.ndarray:
    """``ufunc.reduce(values, axis=1)`` a column at a time, for an ufunc blind to order (max, or).

    numpy reduces a short last axis (the seats, the board) row by row, a
    call for each row; a column at a time takes a call for each column.

    >>> _across(np.maximum, np.array([[1., 5., 2.], [7., 3., np.nan]])).tolist()
    [5.0, nan]
    """
    out = values[:, 0].copy()
    for column in range(1, values.shape[1]):
        ufunc(out, values[:, column], out=out)
    return out


def _tolerance(stack: NDArray[np.float64]) -> NDArray[np.float64]:
    """(hands,) float64: differences of chips below this are rounding, not chips."""
    finite = np.where(np.isfinite(stack), np.abs(stack), 0.0)  # an unknown (inf) stack sets no scale
    tolerance: NDArray[np.float64] = 1e-9 * (1 + _across(np.maximum, finite))  # finite >= 0: as initial=0
    return tolerance


def side_pots(live: NDArray[np.bool_], contributed: NDArray[np.float64], posted_ante: NDArray[np.float64],
              stack: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Whether the live players of every hand bet different amounts: a side pot.

    With a side pot the players who received chips need not hold the best
    hand (a short all-in can win the main pot only), so the recorded result
    cannot check the winners.  The antes are dead money in the main pot,
    which every live player can win: they make no side pot.

    Parameters
    ----------
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.
    contributed : ndarray of shape (hands, seats), dtype float64
        After :func:`return_uncalled`.
    posted_ante : ndarray of shape (hands, seats), dtype float64
        From :func:`posted_forced_bets`.
    stack : ndarray of shape (hands, seats), dtype float64
        Starting stacks, which set the rounding tolerance.

    Returns
    -------
    ndarray of shape (hands,), dtype bool
        False where one player or none is live.
    """
    bets = contributed - posted_ante
    spread = (_across(np.maximum, np.where(live, bets, -np.inf))
              - _across(np.minimum, np.where(live, bets, np.inf)))
    side: NDArray[np.bool_] = spread > _tolerance(stack)
    return side


def recorded_winners(received: NDArray[np.float64], live: NDArray[np.bool_],
                     stack: NDArray[np.float64]) -> NDArray[np.object_]:
    """The winners the recorded chips name: the live players who received chips.

    Parameters
    ----------
    received : ndarray of shape (hands, seats), dtype float64
        From :func:`received_chips`.
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.
    stack : ndarray of shape (hands, seats), dtype float64
        Starting stacks, which set the rounding tolerance.

    Returns
    -------
    ndarray of shape (hands,), dtype object
        Seats from 1 as the winners column writes them ("1 3"), or
        :data:`NO_RECORDED_WINNER`.
    """
    received_bits = ((received > _tolerance(stack)[:, None]) & live) << np.arange(_SEATS)
    masks = received_bits.sum(axis=1).astype(np.int64)
    expected: NDArray[np.object_] = np.where(masks > 0, holdem.winners_text(masks), NO_RECORDED_WINNER)
    return expected


#: Why a recorded result is not a result (summary.json ``expected``, ``inconsistent_records``).
ZERO_WINNINGS = "winnings sum to 0 while chips went into the pot"
NOT_CONSERVED = "finishing stacks do not conserve the chips (beyond a rake of 10 % of the pot)"
DISAGREE = "winnings and finishing stacks disagree"
MUCK_PAID = "a player who mucked received chips"
NOBODY_PAID = "no player at the showdown received chips"
#: The rake a record may take from a pot, as a share of it.
MAX_RAKE = 0.10


def inconsistent_records(stack: NDArray[np.float64], seated: NDArray[np.bool_],
                         contributed: NDArray[np.float64], finishing: NDArray[np.float64],
                         has_finishing: NDArray[np.bool_], winnings: NDArray[np.float64],
                         has_winnings: NDArray[np.bool_], contesting: NDArray[np.bool_],
                         mucked: NDArray[np.bool_]) -> tuple[NDArray[np.object_], NDArray[np.bool_],
                                                             NDArray[np.float64]]:
    """Check that each recorded result is a result before it is trusted, and what each player received.

    Records converted from other formats can be wrong: winnings of 0 for
    everybody, finishing stacks that do not add up.  Such a record cannot
    check the evaluator; a mismatch must only ever mean that a consistent
    record and the evaluator disagree.  An unknown (``inf``) starting stack
    makes finishing stacks useless: the record is checked through
    ``winnings`` only.

    Parameters
    ----------
    stack, contributed : ndarray of shape (hands, seats), dtype float64
        Starting stacks, and contributions after :func:`return_uncalled`.
    seated : ndarray of shape (hands, seats), dtype bool
    finishing, winnings : ndarray of shape (hands, seats), dtype float64
        The recorded finishing stacks and winnings (0 where absent).
    has_finishing, has_winnings : ndarray of shape (hands,), dtype bool
        Which of the two each hand records.
    contesting, mucked : ndarray of shape (hands, seats), dtype bool
        The players who contest the pot at the showdown, and those who
        mucked (:func:`mucked_players`).

    Returns
    -------
    reason : ndarray of shape (hands,), dtype object
        Why the record is inconsistent (one of the texts above), None where
        it is consistent or there is none.
    unknown_stacks : ndarray of shape (hands,), dtype bool
        A record that cannot be checked: an unknown stack and no winnings.
    received : ndarray of shape (hands, seats), dtype float64
        What each player received as the record says (:func:`received_chips`
        from the finishing stacks where the stacks are known, else winnings).

    Examples
    --------
    >>> live = np.array([[True, True]])
    >>> def check(finishing, winnings):
    ...     reason, unknown, _ = inconsistent_records(
    ...         np.array([[100., 100.]]), live, np.array([[50., 50.]]), np.array([finishing or [0., 0.]]),
    ...         np.array([finishing is not None]), np.array([winnings or [0., 0.]]),
    ...         np.array([winnings is not None]), live, ~live)
    ...     return reason[0]
    >>> check([150., 50.], [100., 0.]) is None          # the winner took the pot of 100
    True
    >>> check(None, [0., 0.]) == ZERO_WINNINGS, check([170., 50.], None) == NOT_CONSERVED
    (True, True)
    >>> check([140., 50.], None) is None                # a rake of 10 from a pot of 100
    True
    """
    known_stacks = _across(np.logical_and, np.isfinite(np.where(seated, stack, 0.0)))
    tolerance = _tolerance(stack)
    pot = np.where(seated, contributed, 0.0).sum(axis=1)
    chips_in = pot > tolerance
    use_finishing = has_finishing & known_stacks
    from_finishing = received_chips(np.where(seated, stack, 0.0), contributed, finishing,
                                    np.ones(len(stack), dtype=bool), winnings)
    received: NDArray[np.float64] = np.where(use_finishing[:, None], from_finishing, winnings)
    recorded = use_finishing | has_winnings
    rake = np.where(seated, stack, 0.0).sum(axis=1) - np.where(seated, finishing, 0.0).sum(axis=1)
    paid = received > tolerance[:, None]
    checks = (
        (ZERO_WINNINGS, has_winnings & chips_in & (np.abs(np.where(seated, winnings, 0.0)).sum(axis=1)
                                                   <= tolerance)),
        (NOT_CONSERVED, use_finishing & ((rake < -tolerance) | (rake > MAX_RAKE * pot + tolerance))),
        (DISAGREE, use_finishing & has_winnings & (seated & (np.abs(from_finishing - winnings)
                                                             > tolerance[:, None])).any(axis=1)),
        (MUCK_PAID, recorded & _across(np.logical_or, paid & mucked)),
        (NOBODY_PAID, recorded & chips_in & ~_across(np.logical_or, paid & contesting)),
    )
    reason = np.full(len(stack), None, dtype=object)
    for text, found in reversed(checks):  # the first check that fails names the record
        reason[found] = text
    unknown_stacks: NDArray[np.bool_] = has_finishing & ~known_stacks & ~has_winnings
    return reason, unknown_stacks, received


@dataclass
class Replay:
    """What the replay of a group of hands found; hand i is row i of every array.

    Attributes
    ----------
    rejections : Rejections
        Why hands are rejected.
    variant : ndarray of shape (hands,), dtype object
    board : ndarray of shape (hands, 5), dtype uint8
        From :func:`board_cards`.
    holes : ndarray of shape (hands, seats, 2), dtype uint8
        From :func:`hole_cards`.
    live : ndarray of shape (hands, seats), dtype bool
        From :func:`live_players`.
    contributed : ndarray of shape (hands, seats), dtype float64
        The chips each player put in the pot, the uncalled bet returned
        (:func:`return_uncalled`).
    received : ndarray of shape (hands, seats), dtype float64
        The chips each player received from the pot (:func:`received_chips`);
        0 where the hand records no result.
    recorded : ndarray of shape (hands,), dtype bool
        The hand records finishing stacks or winnings.
    side_pot : ndarray of shape (hands,), dtype bool
        From :func:`side_pots`.
    scored : ndarray of shape (hands,), dtype bool
        A showdown with every card known, not rejected: a row of the table.
    expected : ndarray of shape (hands,), dtype object
        The recorded winners of the scored showdowns that the chips check,
        "" elsewhere.
    counts : dict of str to int
        The hands of :data:`~pipeline.formats.histories.SET_APART` and the showdowns of
        :data:`~pipeline.formats.histories.NOT_CHECKED`.
    """

    rejections: Rejections
    variant: NDArray[np.object_]
    board: NDArray[np.uint8]
    holes: NDArray[np.uint8]
    live: NDArray[np.bool_]
    contributed: NDArray[np.float64]
    received: NDArray[np.float64]
    recorded: NDArray[np.bool_]
    side_pot: NDArray[np.bool_]
    scored: NDArray[np.bool_]
    expected: NDArray[np.object_]
    counts: dict[str, int]


def replay(hands: Hands) -> Replay:
    """Replay every hand of a group at once: the steps above, in order.

    The order of the checks is the order of the reasons: a hand keeps the
    first one.
    """
    count = len(hands.ordinal)
    rejections = Rejections.of(hands)
    fields = check_fields(hands, rejections)
    actions = split_actions(hands.actions, hands.action_counts)
    check_actions(actions, fields.players, rejections)
    check_folded(actions, fields.players, rejections)
    code, owner = card_codes(actions, rejections)
    board, _ = board_cards(code, owner, actions, count, rejections)
    holes = hole_cards(code, owner, actions, count, rejections)
    check_dealt_twice(board, holes, rejections)

    street = streets(actions.verb, actions.hand, actions.counts)
    ante, blind = heads_up_order(fields.ante, fields.blind, fields.players)
    posted_ante, posted_blind = posted_forced_bets(fields.stack, ante, blind, fields.seated)
    level = call_levels(actions.verb, actions.amount, street, actions.hand, posted_blind)
    put_in = contributions(actions, fields.players, street, level, fields.stack, posted_ante, posted_blind,
                           rejections=rejections)
    contributed = return_uncalled(put_in, posted_ante)
    live = live_players(actions, fields.players, fields.seated)
    mucked = mucked_players(actions, fields.players, live)
    contesting = live & ~mucked
    showdown = live.sum(axis=1) >= 2
    complete = cards_known(board, holes, contesting)

    rejected = rejections.rejected
    scored = ~rejected & showdown & complete
    counts = {"without_showdown": int((~rejected & ~showdown).sum()),
              "unknown_cards": int((~rejected & showdown & ~complete).sum()),
              "mucked": int(mucked[~rejected & showdown].sum())}
    finishing, winnings = hands.numbers["finishing_stacks"], hands.numbers["winnings"]
    has_finishing, has_winnings = finishing[1] >= 0, winnings[1] >= 0
    problem, unknown_stacks, received = inconsistent_records(
        fields.stack, fields.seated, contributed, _padded(*finishing), has_finishing, _padded(*winnings),
        has_winnings, contesting, mucked)
    recorded = has_finishing | has_winnings
    side_pot = side_pots(live, contributed, posted_ante, fields.stack)
    inconsistent = scored & recorded & (problem != None)  # noqa: E711 (elementwise)
    unknown = scored & recorded & ~inconsistent & unknown_stacks
    checked = scored & recorded & ~inconsistent & ~unknown & ~side_pot
    expected = np.where(checked, recorded_winners(received, contesting, fields.stack), "")
    counts["inconsistent_record"] = int(inconsistent.sum())
    counts["unknown_stacks"] = int(unknown.sum())
    counts["side_pots"] = int((scored & recorded & ~inconsistent & ~unknown & side_pot).sum())
    counts["no_recorded_result"] = int((scored & ~recorded).sum())
    for row in np.flatnonzero(inconsistent):  # few: inconsistent records are counted by reason
        key = reason_key("inconsistent_record", str(problem[row]))
        counts[key] = counts.get(key, 0) + 1
    # The audit by the venue each record names (HandHQ's .phhs files mix six sites).
    counts.update(venue_counts(hands.venue, {
        "checked": checked, "not_checked_inconsistent_record": inconsistent,
        "not_checked_unknown_stacks": unknown,
        "not_checked_side_pots": scored & recorded & ~inconsistent & ~unknown & side_pot}))
    return Replay(rejections=rejections, variant=fields.variant, board=board, holes=holes, live=contesting,
                  contributed=contributed, received=received, recorded=recorded, side_pot=side_pot,
                  scored=scored, expected=expected, counts=counts)


def to_batch(hands: Hands, replayed: Replay, path: str | Mapping[int, str]) -> Batch:
    """The batch of a replayed group: a table row per scored showdown, the rejected hands, the counts.

    Parameters
    ----------
    hands : Hands
        The group as read.
    replayed : Replay
        Its :func:`replay`.
    path : str or mapping of int to str
        The file as the user named it, for the ``file`` column; for a group
        of one-hand files, the file of each hand by its ordinal.

    Returns
    -------
    Batch
        Rows and rejections in the order of the hands in the file.
    """
    order = np.argsort(hands.ordinal, kind="stable")
    keep = order[replayed.scored[order]]
    files = [path] * len(keep) if isinstance(path, str) else [path[int(hands.ordinal[i])] for i in keep]
    table = _table(replayed.board[keep], replayed.holes[keep], replayed.live[keep], replayed.expected[keep],
                   files, [hands.key[i] for i in keep], [hands.players[i] for i in keep],
                   replayed.variant[keep])
    problem, excerpt = replayed.rejections.problem, replayed.rejections.excerpt
    unreadable = []
    for row in order[replayed.rejections.rejected[order]]:
        where = f"hand {hands.key[row]}: " if hands.key[row] is not None else ""
        unreadable.append((int(hands.ordinal[row]), int(hands.line[row]), excerpt[row] or "",
                           where + problem[row]))
    return Batch(table, hands.ordinal[keep], hands.line[keep], unreadable, counts=replayed.counts)


def _running_max(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Maximum of the values of each value's segment so far, itself included; NaN is the largest.

    ``segment`` is non-decreasing.  Each pass doubles the span taken in, so
    that a segment of k values takes log2(k) passes.

    >>> _running_max(np.array([1., 5., 2., 7., 3., np.nan, 4.]), np.array([0, 0, 0, 1, 1, 2, 2])).tolist()
    [1.0, 5.0, 5.0, 7.0, 7.0, nan, nan]
    """
    running = values.copy()
    step = 1
    while step < len(values):
        same = segment[step:] == segment[:-step]
        if not same.any():
            break
        running[step:] = np.where(same, np.maximum(running[step:], running[:-step]), running[step:])
        step *= 2
    return running


_MAX_NUMBER = 24  # characters of an amount


def split_actions(texts: pa.Array, counts: NDArray[np.int64]) -> Actions:
    """Split every action into its words with numpy over the text bytes at once.

    An action is ``ACTOR VERB [pN] [ARG]``: the actor ``d`` or ``pN``, a
    lower-case verb, an optional player (``d dh pN``) and an optional
    argument (cards or an amount).  As the specification allows, words may
    be separated by several spaces, an action may have spaces around it and
    a ``#`` starts a comment; an action that is empty, blank or a comment
    alone is a no-op, left out.

    Parameters
    ----------
    texts : pyarrow.Array of n strings
        The actions of a group of hands, hand after hand.
    counts : ndarray of shape (hands,), dtype int64
        Actions per hand.

    Returns
    -------
    Actions
        Actor, verb, target, argument and amount of each action, with its
        hand and its text as written (comments kept, for the messages).

    Examples
    --------
    >>> actions = split_actions(pa.array(["d dh p1 AcKd", "p2 cbr 250", "p1 cc  # call", "p3 zz"]),
    ...                         np.array([3, 1]))
    >>> actions.hand.tolist(), actions.actor.tolist(), actions.target.tolist()
    ([0, 0, 0, 1], [0, 2, 1, 3], [1, 0, 0, 0])
    >>> actions.verb.tolist() == [DH, CBR, CC, OTHER], actions.amount[1], actions.understood.all()
    (True, np.float64(250.0), np.True_)
    >>> spaced = split_actions(pa.array([" p1  cbr   250 ", "", "# the flop", "p2 f # snap"]), np.array([4]))
    >>> spaced.counts.tolist(), spaced.actor.tolist(), spaced.amount[0], spaced.understood.all()
    ([2], [1, 2], np.float64(250.0), np.True_)
    """
    written = texts
    hand = np.repeat(np.arange(len(counts)), counts)
    if len(texts) and _untidy(texts):
        texts = pc.utf8_trim_whitespace(pc.replace_substring_regex(
            pc.replace_substring_regex(texts, r"#.*$", ""), r"\s+", " "))
        kept = pc.greater(pc.binary_length(texts), 0)
        if not pc.all(kept).as_py():
            written, texts = written.filter(kept), texts.filter(kept)
            hand = hand[as_mask(kept)]
            counts = np.bincount(hand, minlength=len(counts)).astype(np.int64)
    # From here words are parted by single spaces, and no action starts or ends with one.
    offsets, data, _ = offsets_and_data(texts)
    data = np.concatenate([data, np.zeros(_MAX_NUMBER + 4, dtype=np.uint8)])  # reads past an end stay in
    start, end = offsets[:-1].astype(np.int64), offsets[1:].astype(np.int64)
    cuts, words = _spaces(data, start, end)
    starts = [start, cuts[0] + 1, cuts[1] + 1, cuts[2] + 1]
    lengths = [cuts[0] - start, cuts[1] - starts[1], cuts[2] - starts[2], end - starts[3]]  # -1: no such word
    understood = (words <= 4) & (lengths[0] > 0) & (lengths[1] > 0)
    understood &= (lengths[2] != 0) & (lengths[3] != 0)  # no empty word: a double space
    dealer = (lengths[0] == 1) & (data[start] == ord("d"))
    player = _seat(data, starts[0], lengths[0])
    # Masks pick int8 by a product: np.where branches on each item of one byte, slow on mixed masks.
    actor = player * ~dealer
    understood &= dealer | (player > 0)
    verb, letters = _verbs(data, starts[1], lengths[1])
    understood &= letters
    # A third word pN is the player dealt to; the word after it, or else the third, the argument.
    third = _seat(data, starts[2], lengths[2])
    has_target = (lengths[2] > 0) & (data[starts[2]] == ord("p")) & ((lengths[3] > 0) | (verb == DH))
    target = third * has_target
    understood &= ~has_target | (third > 0)
    understood &= has_target | (words <= 3)
    arg_start = np.where(has_target, starts[3], starts[2])
    arg_length = np.maximum(np.where(has_target, lengths[3], lengths[2]), 0)
    amount = np.full(len(start), np.nan)
    bets = np.flatnonzero(verb == CBR)
    amount[bets] = _numbers(data, arg_start[bets], arg_length[bets])
    return Actions(texts=written, hand=hand, understood=understood, actor=actor, verb=verb, target=target,
                   arg_start=arg_start, arg_length=arg_length, amount=amount, data=data, counts=counts)


def _untidy(texts: pa.Array) -> bool:
    """Whether any action needs tidying: a comment, a blank other than one inner space, a no-op.

    Checked on the bytes of all actions at once, so that archives written
    tidily (the common case) skip the regular expressions.
    """
    offsets, data, _ = offsets_and_data(texts)
    body = data[offsets[0]:offsets[-1]]
    lengths = np.diff(offsets)
    if (lengths == 0).any() or (body == ord("#")).any() or (body < ord(" ")).any():
        return True
    space = body == ord(" ")
    if (space[1:] & space[:-1]).any():
        return True
    starts = (offsets[:-1] - offsets[0]).astype(np.int64)
    return bool(space[starts].any() or space[starts + lengths - 1].any())


def _spaces(data: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """The first three spaces of every action (at its end where it has fewer), and its words.

    No action starts with a space; an action may be empty.  The spaces and
    the starts of all actions are found in one pass over the bytes: an
    action's spaces are the positions listed after its start.

    Parameters
    ----------
    data : ndarray of shape (bytes,), dtype uint8
        The bytes of the actions, then at least four bytes that are not spaces.
    start, end : ndarray of shape (n,), dtype int64
        Where each action begins and ends in ``data``.

    Returns
    -------
    cuts : list of three ndarrays of shape (n,), dtype int64
        Positions in ``data``.
    words : ndarray of shape (n,), dtype int64
        The spaces of each action plus one (0 for an empty action but the last).

    Examples
    --------
    >>> data = np.frombuffer(b"p1 ccd db AcKdp2 f\\0\\0\\0\\0", dtype=np.uint8)
    >>> cuts, words = _spaces(data, np.array([0, 5, 5, 14]), np.array([5, 5, 14, 18]))
    >>> [cut.tolist() for cut in cuts], words.tolist()
    ([[2, 5, 6, 16], [5, 5, 9, 18], [5, 5, 14, 18]], [2, 0, 3, 2])
    """
    n = len(start)
    if not n:
        return [np.zeros(0, dtype=np.int64)] * 3, np.zeros(0, dtype=np.int64)
    first, last = int(start[0]), int(end[-1])
    # Three starts past the last action, so that every action is followed by three listed positions.
    marked = data[first:last + 4] == ord(" ")
    marked[start - first] = True
    marked[-3:] = True
    at = np.flatnonzero(marked)
    at += first
    entry = np.flatnonzero(data[at] != ord(" "))  # the starts, in order
    if len(entry) < n + 3:  # an empty action starts where the next one does
        entry = np.concatenate([entry[np.concatenate([[0], np.cumsum(start[1:] != start[:-1])])], entry[-3:]])
    words = np.diff(entry[:n + 1])
    # A position listed after the action's spaces is the start of a later action: at or past its end.
    return [np.minimum(at[entry[:n] + k], end) for k in range(1, 4)], words


def _seat(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """'pN' (N of one or two digits) -> N, anything else -> -1, as int8.

    >>> data = np.frombuffer(b"p3 p12 p0 px p123 d\\0\\0", dtype=np.uint8)
    >>> _seat(data, np.array([0, 3, 7, 10, 13, 18]), np.array([2, 3, 2, 2, 4, 1])).tolist()
    [3, 12, -1, -1, -1, -1]
    """
    first = data[start + 1] - ord("0")  # uint8: a byte below '0' wraps past 9
    second = data[start + 2] - ord("0")
    two = length == 2
    fine = (data[start] == ord("p")) & (first <= 9) & (two | ((length == 3) & (second <= 9)))
    # Picked by products, not np.where nor a mask: those branch on each byte, slow on mixed masks.
    seat = (first + (first * 9 + second) * ~two).view(np.int8)  # <= 99 if fine
    bad = ~fine | (seat == 0)
    picked: NDArray[np.int8] = seat * ~bad - bad
    return picked


def _verbs(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The verb code of every word (:data:`OTHER` for none), and whether it is 1 to 3 lower-case letters.

    >>> data = np.frombuffer(b"cbr cc f Cc sm\\0\\0\\0", dtype=np.uint8)
    >>> verb, letters = _verbs(data, np.array([0, 4, 7, 9, 12]), np.array([3, 2, 1, 2, 2]))
    >>> verb.tolist() == [CBR, CC, FOLD, OTHER, SM], letters.tolist()
    (True, [True, True, True, False, True])
    """
    letters = (length > 0) & (length <= 3)
    key = np.zeros(len(start), dtype=np.int32)
    for i in range(3):
        inside = length > i
        byte = data[start + i]
        letters &= ~inside | (byte - ord("a") <= ord("z") - ord("a"))  # uint8: below 'a' wraps
        key |= (byte * inside).astype(np.int32) << (8 * i)
    verb = np.full(len(start), OTHER, dtype=np.int8)
    for name, code in _VERBS.items():  # the keys differ: at most one term is not 0
        verb += (key == int.from_bytes(name.encode(), "little")) * np.int8(code - OTHER)
    return verb, letters


#: The most digits of a whole amount read as an integer: below 2 ** 53, exact in float64.
_EXACT_DIGITS = 15


def _numbers(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Words of digits with at most one inner '.' read as float64; NaN for anything else.

    The words are checked a column (a character) at a time.  A whole number
    of up to 15 digits is read digit by digit, exact; any other as the sum
    of its digits times powers of ten over a matrix as wide as the longest
    word (the order of that sum follows the width).

    >>> text = np.frombuffer(b"225 12.5 1e3 .5 7", dtype=np.uint8)
    >>> _numbers(np.append(text, np.zeros(32, np.uint8)), np.array([0, 4, 9, 13, 16]),
    ...          np.array([3, 4, 3, 2, 1])).tolist()
    [225.0, 12.5, nan, nan, 7.0]
    """
    n = len(start)
    width = int(min(length.max(initial=0), _MAX_NUMBER))
    values = np.full(n, np.nan)
    if not n or not width:
        return values
    fine = (length > 0) & (length <= _MAX_NUMBER)
    dots = np.zeros(n, dtype=np.int8)
    point = length.copy()  # where the first dot is, the length without one
    whole = np.zeros(n)
    for column in range(width):
        byte = data[start + column]
        inside = column < length
        dot = (byte == ord(".")) & inside
        digit = byte - ord("0")  # uint8: a byte below '0' wraps past 9
        fine &= ~inside | dot | (digit <= 9)
        point[dot & (dots == 0)] = column
        dots += dot
        whole = np.where(inside, whole * 10 + digit, whole)
    fine &= (dots <= 1) & (point > 0) & ~((dots > 0) & (point >= length - 1))
    exact = fine & (dots == 0) & (length <= _EXACT_DIGITS)
    values[exact] = whole[exact]
    other = np.flatnonzero(fine & ~exact)
    if len(other):
        columns = np.arange(width)
        matrix = data[start[other, None] + columns].astype(np.int64)
        digits = np.where((matrix >= ord("0")) & (matrix <= ord("9")) & (columns < length[other, None]),
                          matrix - ord("0"), 0)
        at = point[other, None]
        power = np.where(columns < at, at - 1 - columns, at - columns)
        values[other] = (digits * 10.0 ** power).sum(axis=1)
    return values


def _cards_of(codes: np.ndarray) -> str:
    return "".join("??" if c == _UNKNOWN_CARD else str(cards.CARD_TEXT[c]) for c in codes)


def _twice(codes: np.ndarray) -> str:
    real = codes[codes < cards.DECK_SIZE]
    values, counts = np.unique(real, return_counts=True)
    return str(cards.CARD_TEXT[values[counts > 1][0]])


def _table(board: np.ndarray, holes: np.ndarray, live: np.ndarray, expected: np.ndarray, files: list[str],
           keys: list[str | None], players: list[str | None], variant: np.ndarray) -> pa.Table:
    n = len(board)
    columns = {"board": notation.cards_text(np.minimum(board, cards.DECK_SIZE - 1))}
    for seat, name in enumerate(holdem.SEATS):
        columns[name] = notation.cards_text(np.where(live[:, seat, None], holes[:, seat], 0),
                                            present=live[:, seat])
    columns[EXPECTED] = pa.array(expected.tolist() if n else [], pa.string())
    columns["file"] = pa.array(files, pa.string())
    columns["hand"] = pa.array(keys, pa.string())
    columns["players"] = pa.array(players, pa.string())
    columns["variant"] = pa.array(variant.tolist() if n else [], pa.string())
    return complete(pa.table(columns))
