"""PHH hands read from their TOML text: a strict one-line subset read at once, tomllib for the rest.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.phh.files`,
:mod:`~pipeline.formats.phh.variants`, :mod:`~pipeline.formats.scan`, the board games' seats and
the foundation modules.

This module owns the parsing of a group of hands (:func:`parse_group`, a
:class:`~pipeline.formats.phh.files.Group` in, :class:`Hands` out).  A TOML
parse per hand in Python costs more than the rest of the run, so the
group's text is cut into lines and read at once, with numpy over its bytes
and a few pyarrow string kernels: every ``key = value`` line must match a
strict one-line subset of TOML (bare keys, basic and literal strings
without escapes in lists, plain numbers, booleans, one-line arrays).  A
hand with any line outside that subset, a duplicate key or a missing field
is parsed by :mod:`tomllib` instead (:func:`slow_hand`), so the fast path
only ever decides hands it reads exactly as TOML does.  The hands whose
text held bytes that are not UTF-8 are rejected here, with their line.
The number lists of :class:`Hands` are flat; :func:`padded` lays them out
by seat.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeAlias

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, first_per
from pipeline.formats import scan
from pipeline.formats.phh.files import Group
from pipeline.formats.phh.variants import VARIANTS
from pipeline.games import deals
from pipeline.ranges import ranges
from pipeline.text import offsets_and_data, shown, spans

_SEATS = deals.MAX_PLAYERS

_NUMBER_FIELDS = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings", "seats")
_REQUIRED = ("variant", "antes", "starting_stacks", "actions")
#: Fields read as their text (a string unquoted, a number or a time as written) into ``Hands.fields``.
TEXT_FIELDS = ("hand", "table", "seat_count", "currency", "currency_symbol", "year", "month", "day", "time",
               "time_zone", "time_zone_abbreviation")
_OPTIONAL = ("blinds_or_straddles", "players", "venue", "finishing_stacks", "winnings", "seats", *TEXT_FIELDS)

# The one-line TOML subset of the fast path.  Anything else goes to tomllib.
_CONTROL = r"\x00-\x08\x0a-\x1f\x7f"
_STRING = rf"""'[^'{_CONTROL}]*'|"(?:[^"\\{_CONTROL}]|\\[\\"bfnrt])*\""""
_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
# TOML's local time, as HandHQ's ``time`` fields are written.
_LOCAL_TIME = r"(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?"
_ITEM = rf"(?:{_STRING}|{_NUMBER}|{_LOCAL_TIME}|true|false)"
_VALUE = rf"^(?:{_ITEM}|\[ *(?:{_ITEM} *, *)*(?:{_ITEM})? *\])$"
_KEY = r"^[A-Za-z0-9_-]+$"
_NUMBERS = rf"^\[ *(?:{_NUMBER} *, *)*(?:{_NUMBER})? *\]$"
# List items the fast path splits: no quote or backslash inside, not empty.
_PLAIN = r"""'[^'"\\]+'|"[^'"\\]+\""""
_STRINGS = rf"^\[ *(?:(?:{_PLAIN}) *, *)*(?:{_PLAIN})? *\]$"
_CANONICAL = r"""^\['[^'"\\]+'(?:, '[^'"\\]+')*\]$"""
_HEADER = r"^\[ *(?P<table>[A-Za-z0-9_-]+) *\] *$"


def parse_group(group: Group) -> Hands:
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
    key, variant, venue : pyarrow.Array of hands strings
        The table name (``.phhs``) or ``hand`` field, the variant code, and
        where the hand was played (the ``venue`` field: a site, a casino);
        null where a hand has none.  Arrow arrays, not lists: the fast path
        finds them as Arrow arrays and the Record takes them as such, and a
        list of every hand's would be made and read in Python, holding the
        interpreter's lock that the other threads wait for.
    players : pyarrow.Array of hands lists of strings
        The ``players`` field, null where absent.
    table_key : pyarrow.Array of hands strings
        A ``.phhs`` hand's table name (``[3]``), null for a ``.phh`` hand.
    fields : dict of str to pyarrow.Array of hands strings
        The fields of :data:`TEXT_FIELDS` as written (a string without its
        quotes), null where a hand lacks one.
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
    key: pa.Array
    variant: pa.Array
    players: pa.Array
    venue: pa.Array
    numbers: dict[str, _NumberLists]
    actions: pa.Array
    action_counts: NDArray[np.int64]
    problem: NDArray[np.object_]
    excerpt: list[str | None]
    table_key: pa.Array
    fields: dict[str, pa.Array]


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
    for name in TEXT_FIELDS:  # the fast path unquotes, it does not unescape: tomllib does
        present = np.flatnonzero(where[name] >= 0)
        if len(present):
            slow[present[as_mask(pc.match_substring(values(where[name][present]), "\\"))]] = True

    header_keys = pa.nulls(0, pa.string())
    if multi:
        found = pc.extract_regex(text.spans(text.start[starts], text.end[starts]), _HEADER)
        plain = found.is_valid().to_numpy(zero_copy_only=False)
        slow |= ~plain
        header_keys = found.field(0).cast(pa.string())
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
        players = pc.split_pattern(names_of.cast(pa.string()), "', '")
    else:
        players = pc.split_pattern_regex(_inner(field("players")).cast(pa.string()), r"""['"] *, *['"]""")
    venue = _unquoted(field("venue")).cast(pa.string())
    # Most files hold few of these fields: one absent from every hand is read as nulls, at no cost.
    fields = {name: _unquoted(field(name)).cast(pa.string()) if (where[name][fast] >= 0).any()
              else pa.nulls(len(fast), pa.string()) for name in TEXT_FIELDS}
    variant = pc.utf8_slice_codeunits(field("variant"), 1, -1).cast(pa.string())
    if multi:
        key = header_keys if len(fast) == hands else header_keys.take(pa.array(fast, pa.int64()))
    else:
        key = _unquoted(field("hand")).cast(pa.string())
    fast_hands = Hands(
        ordinal=ordinal + fast, line=first_line + starts[fast], key=key, variant=variant,
        players=players, venue=venue, numbers=numbers, actions=actions, action_counts=action_counts,
        problem=np.full(len(fast), None, dtype=object), excerpt=[None] * len(fast),
        table_key=key if multi else pa.nulls(len(fast), pa.string()), fields=fields)
    slow_rows = np.flatnonzero(slow)
    if not len(slow_rows):
        return fast_hands
    last = np.append(starts[1:], n_lines) - 1
    records = []
    for index in slow_rows:
        hand = bytes(text.data[text.start[starts[index]]:text.end[last[index]]]).decode("utf-8")
        # The last hand of a group ends with its line end, the others without: TOML's errors
        # place "end of document" by it, and a reason must not depend on the batch size.
        record = slow_hand(hand if hand.endswith("\n") else hand + "\n", multi)
        if multi and record.get("key") is None:  # TOML refused the hand: name it by its header
            record["key"] = hand.split("\n", 1)[0].split("#")[0].strip().strip("[]").strip()
            record["table_key"] = record["key"]
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


def slow_hand(text: str, multi: bool) -> dict[str, Any]:
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
    record: dict[str, Any] = {"key": key if multi else _text(document.get("hand")), "numbers": {},
                              "table_key": key if multi else None,
                              "fields": {name: _scalar(document.get(name)) for name in TEXT_FIELDS}}
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
    record["players"] = players
    venue = document.get("venue")
    record["venue"] = venue if isinstance(venue, str) else None
    return record


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _scalar(value: object) -> str | None:
    """A field's value as its text would be read: a time as TOML writes it, a list or table as none."""
    if value is None or isinstance(value, list | dict):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.time):
        return value.isoformat()
    return str(value)


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
        key=pa.array([r.get("key") for r in records], pa.string()),
        variant=pa.array([r.get("variant") for r in records], pa.string()),
        players=pa.array([r.get("players") for r in records], pa.list_(pa.string())),
        venue=pa.array([r.get("venue") for r in records], pa.string()), numbers=numbers,
        actions=pa.array([a for acts in actions for a in acts], pa.string()),
        action_counts=np.array([len(a) for a in actions], dtype=np.int64),
        problem=np.array([r.get("problem") for r in records], dtype=object),
        excerpt=[r.get("excerpt") for r in records],
        table_key=pa.array([r.get("table_key") for r in records], pa.string()),
        fields={name: pa.array([r.get("fields", {}).get(name) for r in records], pa.string())
                for name in TEXT_FIELDS})


def _concat(a: Hands, b: Hands) -> Hands:
    return Hands(
        ordinal=np.concatenate([a.ordinal, b.ordinal]), line=np.concatenate([a.line, b.line]),
        key=pa.concat_arrays([a.key, b.key]), variant=pa.concat_arrays([a.variant, b.variant]),
        players=pa.concat_arrays([names.cast(pa.list_(pa.string())) for names in (a.players, b.players)]),
        venue=pa.concat_arrays([a.venue, b.venue]), table_key=pa.concat_arrays([a.table_key, b.table_key]),
        fields={name: pa.concat_arrays([a.fields[name], b.fields[name]]) for name in a.fields},
        numbers={name: (np.concatenate([a.numbers[name][0], b.numbers[name][0]]),
                        np.concatenate([a.numbers[name][1], b.numbers[name][1]])) for name in a.numbers},
        actions=pa.concat_arrays([a.actions.cast(pa.string()), b.actions.cast(pa.string())]),
        action_counts=np.concatenate([a.action_counts, b.action_counts]),
        problem=np.concatenate([a.problem, b.problem]), excerpt=a.excerpt + b.excerpt)


def padded(values: np.ndarray, lengths: np.ndarray, fill: float = 0.0) -> np.ndarray:
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
