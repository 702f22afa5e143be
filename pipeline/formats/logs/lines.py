"""A chunk of a site's log as lines and hands, each line classified by the first rule that matches it.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the foundation modules
(:mod:`pipeline.text`, :mod:`pipeline.arrays`), numpy and pyarrow, nothing else of the package.

This module owns the reading of a log's text without any site's words: the chunk cut into lines
(:class:`LogLines`: each line's text without its line end and trailing spaces, and its hand, a
hand starting at each line the site's start pattern matches), and the classification of its lines
(:func:`classify`): patterns tried in order, each over the lines no pattern before it took, as one
pyarrow kernel call over a column of lines (RE2, in C++), so that the cost is per pattern, not per
line.  What a pattern captures is kept as columns of strings, per kind of line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask
from pipeline.text import spans

SPACE, NEWLINE = ord(" "), ord("\n")
_PAD = 64  # zero bytes after a chunk's text: the longest prefix a rule may ask for, and one


class LogLines:
    """A chunk of whole hands cut into lines, and the lines into hands.

    Attributes
    ----------
    lines : pyarrow LargeStringArray of shape (n,)
        Each line's text, without its line end and the spaces before it.
    line_start : ndarray of shape (n,), dtype int64
        Where each line starts in the chunk's text.
    hand_of : ndarray of shape (n,), dtype int64
        The hand of each line, -1 for lines before the first hand starts.
    starts : ndarray of shape (hands,), dtype int64
        The line each hand starts at.
    blank : ndarray of shape (n,), dtype bool
        The line holds nothing but spaces.
    """

    def __init__(self, piece: NDArray[np.uint8] | bytes, newlines: NDArray[np.intp], hand_start: str) -> None:
        data = np.frombuffer(piece, dtype=np.uint8) if isinstance(piece, bytes) else piece
        size = len(data)
        starts = np.concatenate([[0], newlines + 1]).astype(np.int64)
        ends = np.concatenate([newlines, [size]]).astype(np.int64)
        if len(starts) > 1 and starts[-1] >= size:  # the text ends with "\n": no line after it
            starts, ends = starts[:-1], ends[:-1]
        # Trailing spaces are no part of what a line says ("Dealt to Hero " and "Dealt to Hero").
        trimmed = ends.copy()
        while True:
            has = (trimmed > starts) & (data[np.maximum(trimmed - 1, 0)] == SPACE)
            if not has.any():
                break
            trimmed -= has
        self.line_start, self.line_end, self.n = starts, trimmed, len(starts)
        self.blank = trimmed == starts
        self.lines = spans(pa.py_buffer(data), starts, trimmed)
        # The text padded with zeros, so that any prefix can be compared at any line's start; and the
        # lines by their first byte (a stable sort of bytes), so that those starting with a byte are
        # a slice, found without a pass over every line.
        self._padded = np.concatenate([data, np.zeros(_PAD, dtype=np.uint8)])
        # Each line's first 8 bytes as one little-endian word (numpy reads words at any offset of
        # the padded text without a copy): a prefix of up to 8 bytes is one comparison a line.
        words = np.ndarray(shape=(len(self._padded) - 7,), dtype="<u8", buffer=self._padded, strides=(1,))
        self._head = words[starts]
        first = self._padded[starts]
        self._by_first = np.argsort(first, kind="stable")
        self._first_at = np.searchsorted(first[self._by_first], np.arange(257))
        started = as_mask(pc.match_substring_regex(self.lines, f"^(?:{hand_start})"))
        self.hand_of = np.cumsum(started) - 1
        self.starts = np.flatnonzero(started)
        self.hands = len(self.starts)

    def starting(self, prefix: str) -> NDArray[np.int64]:
        """The lines that start with ``prefix``, ascending (compared in the bytes, in numpy)."""
        wanted = np.frombuffer(prefix.encode(), dtype=np.uint8)
        if len(wanted) >= _PAD:
            raise ValueError(f"a rule's prefix is at most {_PAD - 1} bytes: {prefix!r}")
        # (a stable sort: the rows of one first byte are in line order)
        rows = self._by_first[self._first_at[wanted[0]]:self._first_at[wanted[0] + 1]]
        head = min(len(wanted), 8)
        mask = np.uint64((1 << (8 * head)) - 1)
        word = np.uint64(int.from_bytes(wanted[:head].tobytes(), "little"))
        long_enough = self.line_end[rows] - self.line_start[rows] >= len(wanted)
        rows = rows[((self._head[rows] & mask) == word) & long_enough]
        for offset in range(8, len(wanted)):  # the bytes past the first 8, on the lines left
            rows = rows[self._padded[self.line_start[rows] + offset] == wanted[offset]]
        found: NDArray[np.int64] = rows
        return found

    def take(self, rows: NDArray[np.int64]) -> pa.Array:
        """The lines at ``rows``."""
        return self.lines.take(pa.array(rows, pa.int64()))

    def texts(self, rows: NDArray[np.int64]) -> list[str]:
        """The lines at ``rows`` as Python strings (for messages)."""
        found: list[str] = self.take(rows).to_pylist()
        return found


@dataclass(frozen=True)
class Rule:
    """One pattern a line may match: the kind of line it makes, its RE2 text (the whole line, named
    groups for its fields), and the lines it is tried on: those starting with ``prefix`` and holding
    ``contains`` ("" for any), in the part of the hand ``where`` says (``"any"``, ``"body"``: before
    the summary, ``"summary"``: after the line that opens it)."""

    kind: str
    pattern: str
    prefix: str = ""
    contains: str = ""
    where: str = "any"


@dataclass
class Found:
    """The lines of one kind, in line order: their rows (shape (k,)) and what their patterns captured,
    a column of k strings per group name (null where the line's pattern has no such group)."""

    rows: NDArray[np.int64]
    fields: dict[str, pa.Array]

    def field(self, name: str) -> pa.Array:
        """The column of group ``name``, all null where no pattern of the kind has it."""
        return self.fields.get(name, pa.nulls(len(self.rows), pa.large_string()))

    def has(self, name: str) -> NDArray[np.bool_]:
        """(k,) bool: group ``name`` captured a text that is not empty."""
        column = self.field(name)
        return as_mask(pc.and_(column.is_valid(), pc.not_equal(column, "")))


def classify(lines: LogLines, rules: Sequence[Rule], summary_kind: str
             ) -> tuple[dict[str, Found], NDArray[np.bool_], NDArray[np.int64]]:
    """Classify the lines of every hand by the first of ``rules`` that matches each.

    Blank lines are nothing.  ``summary_kind`` is the kind of the line that opens a hand's summary:
    its rules are tried first, then the others in order; the rules ``where="summary"`` are tried only
    on the lines after it, ``"body"`` only on those before.

    Returns
    -------
    found : dict of str to Found
        The lines of each kind, with their captures.
    understood : ndarray of shape (n,), dtype bool
        A pattern took the line (blank lines and those before the first hand count as taken).
    summary_at : ndarray of shape (hands,), dtype int64
        The line that opens each hand's summary, ``n`` for none.
    """
    n = lines.n
    taken = lines.blank | (lines.hand_of < 0)
    summary_at = np.full(lines.hands, n, dtype=np.int64)
    captured: dict[str, list[tuple[NDArray[np.int64], dict[str, pa.Array]]]] = {}
    rest = _Remaining(lines, taken)
    # The summary's opening line is found first: where each rule may be tried depends on it.
    ordered = sorted(range(len(rules)), key=lambda i: rules[i].kind != summary_kind)
    for index in ordered:
        rule = rules[index]
        if rule.prefix:  # the lines starting so, found in the bytes
            rows = lines.starting(rule.prefix)
            rows = rows[~taken[rows]]
            rows = rows[_where(lines, rule.where, rows, summary_at)]
            if not len(rows):
                continue
            candidates = lines.take(rows)
            if rule.contains:
                holds = as_mask(pc.match_substring(candidates, rule.contains))
                rows, candidates = rows[holds], candidates.filter(pa.array(holds))
        else:  # the lines no rule took yet, as one array that shrinks as rules take them
            rows, candidates = rest.holding(rule.contains)
            keep = _where(lines, rule.where, rows, summary_at)
            if not keep.all():
                rows, candidates = rows[keep], candidates.filter(pa.array(keep))
        if not len(rows):
            continue
        matched, fields = _matched(rule.pattern, candidates)
        if not matched.any():
            continue
        hit = rows[matched]
        taken[hit] = True
        rest.taken(len(hit))
        captured.setdefault(rule.kind, []).append((hit, fields))
        if rule.kind == summary_kind:
            np.minimum.at(summary_at, lines.hand_of[hit], hit)
    return {kind: _merged(parts) for kind, parts in captured.items()}, taken, summary_at


def _where(lines: LogLines, where: str, rows: NDArray[np.int64], summary_at: NDArray[np.int64]
           ) -> NDArray[np.bool_]:
    """(len(rows),) bool: which lines at ``rows`` are in the part of their hand ``where`` says."""
    if where == "any":
        return np.ones(len(rows), dtype=bool)
    after: NDArray[np.bool_] = rows > summary_at[lines.hand_of[rows]]
    return after if where == "summary" else ~after


class _Remaining:
    """The lines no rule has taken yet: their rows and texts, made again once rules took a tenth
    of them, so that a rule without a prefix is tried on them alone, not on every line."""

    def __init__(self, lines: LogLines, taken: NDArray[np.bool_]) -> None:
        self._lines, self._taken = lines, taken
        self._since = 0
        # Every line to begin with (no copy): those taken are left out as they are asked for.
        self.rows = np.arange(lines.n, dtype=np.int64)
        self.texts = lines.lines
        self._holding: dict[str, NDArray[np.bool_]] = {}

    def taken(self, count: int) -> None:
        """Count ``count`` more lines taken since the rows were made."""
        self._since += count

    def holding(self, text: str) -> tuple[NDArray[np.int64], pa.Array]:
        """The rows and texts of the lines left that hold ``text`` (all of them for "")."""
        if self._since * 10 > len(self.rows):
            keep = ~self._taken[self.rows]
            self.rows, self.texts = self.rows[keep], self.texts.filter(pa.array(keep))
            self._since, self._holding = 0, {}
        keep = ~self._taken[self.rows]
        if text:
            if text not in self._holding:
                self._holding[text] = as_mask(pc.match_substring(self.texts, text))
            keep &= self._holding[text]
        if keep.all():
            return self.rows, self.texts
        return self.rows[keep], self.texts.filter(pa.array(keep))


def _matched(pattern: str, candidates: pa.Array) -> tuple[NDArray[np.bool_], dict[str, pa.Array]]:
    """Which ``candidates`` the whole-line ``pattern`` matches, and its groups' captures of those.

    A match without captures runs as a DFA, fast; the captures are read from the lines matched only.
    A pattern holding a name, ``(?P<name>.+)``, then a fixed text (``: ``, `` collected ``, `` (``),
    is read faster as RE2 would read it: the line is cut at the last such fixed text (the greedy
    ``.+`` takes the longest name for which the rest matches), and each side matched on its own;
    the lines where either side does not match are matched whole.
    """
    split = _split_at_name(pattern)
    if split is None:
        tail = _name_first(pattern)
        if tail is not None:
            return _matched_tail(pattern, tail, candidates)
        return _matched_whole(pattern, candidates)
    head, literal, rest = split
    parts = pc.split_pattern(candidates, literal, max_splits=1, reverse=True)
    two = np.flatnonzero(as_mask(pc.equal(pc.list_value_length(parts), 2)))
    picked = parts.take(pa.array(two, pa.int64()))
    sides = [pc.list_element(picked, 0), pc.list_element(picked, 1)]
    side_patterns = [f"{head}(?P<name>.+)", rest]
    fits = np.ones(len(two), dtype=bool)
    for side, side_pattern in zip(sides, side_patterns):
        fits &= as_mask(pc.match_substring_regex(side, f"^(?:{side_pattern})$"))
    at = two[fits]
    matched = np.zeros(len(candidates), dtype=bool)
    matched[at] = True
    columns: dict[str, list[tuple[NDArray[np.int64], pa.Array]]] = {}
    if len(at):
        for side, side_pattern in zip(sides, side_patterns):
            if head or side_pattern == rest:
                if _has_groups(side_pattern):
                    got = pc.extract_regex(side.filter(pa.array(fits)), f"^(?:{side_pattern})$")
                    for position in range(got.type.num_fields):
                        name = got.type.field(position).name
                        columns.setdefault(name, []).append((at, got.field(position)))
            else:  # nothing before the name: the side is the name
                columns["name"] = [(at, side.filter(pa.array(fits)))]
    others = np.flatnonzero(~matched)
    if len(others):
        matched[_read_whole(pattern, candidates, others, columns)] = True
    order = np.flatnonzero(matched)
    return matched, {name: _in_order(pieces, order) for name, pieces in columns.items()}


def _matched_tail(pattern: str, tail: str, candidates: pa.Array
                  ) -> tuple[NDArray[np.bool_], dict[str, pa.Array]]:
    """:func:`_matched` of a line that opens with a name, ``(?P<name>.+)``, then ``tail``.

    The lines the whole pattern matches (a DFA, fast) are read from their end: the tail is found as
    the leftmost place it matches to the line's end (RE2's reverse DFA finds it, and captures over
    the tail alone), the name is what comes before it.  The greedy ``.+`` takes the longest name,
    so the tail found is RE2's wherever no later place matches too; the lines where one does, or
    where the name would be empty, are read whole.
    """
    matched = as_mask(pc.match_substring_regex(candidates, f"^(?:{pattern})$"))
    at = np.flatnonzero(matched)
    if not len(at):
        return matched, {}
    texts = candidates.take(pa.array(at, pa.int64())).cast(pa.large_string())
    got = pc.extract_regex(texts, f"(?P<{_TAIL}>{tail})$")
    size = pc.binary_length(texts).to_numpy(zero_copy_only=False).astype(np.int64)
    name_size = size - pc.binary_length(got.field(_TAIL)).to_numpy(zero_copy_only=False).astype(np.int64)
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset:texts.offset + len(texts) + 1]
    data = texts.buffers()[2]
    begin = offsets[:-1]
    # A later place the tail matches from: after the first character of the one found (an ASCII
    # byte; a tail that opens with another is read whole).
    first = np.frombuffer(data, dtype=np.uint8)[np.minimum(begin + name_size, len(data) - 1)] \
        if len(data) else np.zeros(len(at), dtype=np.uint8)
    plain = (name_size > 0) & (first < 0x80)
    later = np.zeros(len(at), dtype=bool)
    if plain.any():
        rest = spans(data, begin[plain] + name_size[plain] + 1, begin[plain] + size[plain])
        later[plain] = as_mask(pc.match_substring_regex(rest, f"(?:{tail})$"))
    good = plain & ~later
    columns: dict[str, list[tuple[NDArray[np.int64], pa.Array]]] = {}
    if good.any():
        chosen = pa.array(good)
        columns["name"] = [(at[good], spans(data, begin[good], begin[good] + name_size[good]))]
        for position in range(got.type.num_fields):
            field = got.type.field(position).name
            if field != _TAIL:
                columns[field] = [(at[good], got.field(position).filter(chosen))]
    if not good.all():
        _read_whole(pattern, candidates, at[~good], columns)
    return matched, {group: _in_order(pieces, at) for group, pieces in columns.items()}


_TAIL = "pokerpipe_tail"  # the group of a tail found from a line's end


def _name_first(pattern: str) -> str | None:
    r"""For a pattern of ``(?P<name>.+)`` then a tail (whole groups, no ``|`` outside them), the tail;
    None for another pattern.

    >>> _name_first("(?P<name>.+) (?P<verb>folds)"), _name_first("Seat (?P<name>.+) x")
    (' (?P<verb>folds)', None)
    >>> _name_first("(?P<name>.+)x|y") is None, _name_first("(?P<name>.+)+x") is None
    (True, True)
    """
    if not pattern.startswith(_NAME):
        return None
    tail = pattern[len(_NAME):]
    if not tail or tail[0] in "*+?{" or not _top_level(tail):
        return None
    return tail


def _read_whole(pattern: str, candidates: pa.Array, rows: NDArray[np.int64],
                columns: dict[str, list[tuple[NDArray[np.int64], pa.Array]]]) -> NDArray[np.int64]:
    """The ``candidates`` at ``rows`` the pattern matches, matched against the whole of each line;
    their captures added to ``columns`` as a piece of each group."""
    hit, found = _matched_whole(pattern, candidates.take(pa.array(rows, pa.int64())))
    for group, column in found.items():
        columns.setdefault(group, []).append((rows[hit], column))
    matched: NDArray[np.int64] = rows[hit]
    return matched


def _matched_whole(pattern: str, candidates: pa.Array) -> tuple[NDArray[np.bool_], dict[str, pa.Array]]:
    """:func:`_matched`, the pattern matched against the whole of each line."""
    whole = f"^(?:{pattern})$"
    matched = as_mask(pc.match_substring_regex(candidates, whole))
    fields: dict[str, pa.Array] = {}
    if matched.any() and _has_groups(pattern):
        got = pc.extract_regex(candidates.filter(pa.array(matched)), whole)
        for position in range(got.type.num_fields):
            fields[got.type.field(position).name] = got.field(position)
    return matched, fields


def _in_order(pieces: list[tuple[NDArray[np.int64], pa.Array]], order: NDArray[np.int64]) -> pa.Array:
    """One column from pieces (the candidates' rows each holds, and their values), in the order of
    ``order`` (every row matched, ascending), null where no piece holds a row."""
    if len(pieces) == 1 and np.array_equal(pieces[0][0], order):  # nearly always: one piece, in order
        return pieces[0][1].cast(pa.large_string())
    rows = np.concatenate([at for at, _ in pieces])
    values = pa.concat_arrays([column.cast(pa.large_string()) for _, column in pieces])
    where = np.full(int(order[-1]) + 1 if len(order) else 0, -1, dtype=np.int64)
    where[rows] = np.arange(len(rows))
    picked = where[order]
    return values.take(pa.array(np.maximum(picked, 0), pa.int64(), mask=picked < 0))


_NAME = "(?P<name>.+)"


def _split_at_name(pattern: str) -> tuple[str, str, str] | None:
    r"""For a pattern of a head, ``(?P<name>.+)``, a fixed text of two characters or more and the
    rest, head and rest whole groups (no ``|`` outside them): the head, the fixed text (unescaped)
    and the rest; None for another pattern.

    >>> _split_at_name("(?P<name>.+): (?P<verb>folds|checks)")
    ('', ': ', '(?P<verb>folds|checks)')
    >>> _split_at_name(r"Seat (?P<seat>[0-9]+): (?P<name>.+) \((?P<stack>[^()]+)\)")
    ('Seat (?P<seat>[0-9]+): ', ' (', '(?P<stack>[^()]+)\\)')
    >>> _split_at_name("(?P<name>.+) is all-In  +(?P<amount>.+)")
    ('', ' is all-In ', '\\ +(?P<amount>.+)')
    >>> _split_at_name("(?P<name>.+)x|y") is None, _split_at_name("(?P<name>.+?) shows") is None
    (True, True)
    """
    at = pattern.find(_NAME)
    if at < 0:
        return None
    head, after = pattern[:at], pattern[at + len(_NAME):]
    literal, used = "", 0
    while used < len(after):
        char = after[used]
        if char == "\\" and used + 1 < len(after) and not after[used + 1].isalnum():
            literal, used = literal + after[used + 1], used + 2
        elif char in "\\()[]{}.*+?|^$":
            break
        else:
            literal, used = literal + char, used + 1
    rest = after[used:]
    if rest[:1] in ("*", "+", "?", "{") and literal:  # the fixed text's last character is repeated
        literal, rest = literal[:-1], re.escape(literal[-1]) + rest
    if len(literal) < 2 or not (_top_level(head) and _top_level(rest)):
        return None
    return head, literal, rest


def _top_level(part: str) -> bool:
    """Whether a piece of a pattern is whole groups and classes, with no ``|`` outside them.

    >>> _top_level("a(b|c)[|)]"), _top_level("a|b"), _top_level("(a")
    (True, False, False)
    """
    depth, escaped, in_class = 0, False, False
    for char in part:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "|" and depth == 0:
            return False
        elif char in "()":
            depth += 1 if char == "(" else -1
            if depth < 0:
                return False
    return depth == 0 and not in_class


def _has_groups(pattern: str) -> bool:
    """Whether an RE2 pattern names a group (extract_regex needs one)."""
    return "(?P<" in pattern


def _merged(parts: list[tuple[NDArray[np.int64], dict[str, pa.Array]]]) -> Found:
    """The lines of one kind found by several patterns, in line order, their groups side by side."""
    if len(parts) == 1:  # one pattern: its rows in line order already
        hit, fields = parts[0]
        return Found(rows=hit, fields={name: value.cast(pa.large_string()) for name, value in fields.items()})
    names = sorted({name for _, fields in parts for name in fields})
    rows = np.concatenate([hit for hit, _ in parts])
    columns = {name: pa.concat_arrays([fields[name].cast(pa.large_string()) if name in fields
                                       else pa.nulls(len(hit), pa.large_string()) for hit, fields in parts])
               for name in names}
    order = np.argsort(rows, kind="stable")
    taken = pa.array(order, pa.int64())
    return Found(rows=rows[order], fields={name: column.take(taken) for name, column in columns.items()})
