"""PHH hand histories: real hands in, showdown deals and recorded winners out.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.sources`, the hold'em game's columns and pure
evaluation, never the runs or the command line.

This module owns the Poker Hand History format (PHH: TOML, one hand per
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
the whole text is split into lines and read with a handful of pyarrow
string kernels over all lines at once: every ``key = value`` line must
match a strict one-line subset of TOML (bare keys, basic and literal
strings without escapes in lists, plain numbers, booleans, one-line
arrays).  A hand with any line outside that subset, a duplicate key or a
missing field is parsed by :mod:`tomllib` instead, so the fast path only
ever decides hands it reads exactly as TOML does.

The actions of every hand are then split with one regular expression and
replayed with numpy over all actions at once: the street of each action is
the number of board deals before it; the level a call matches is the
running maximum of the bets on its street (the big blind before the flop);
what a player commits on a street is its last bet or call there, capped
by what it has behind; the uncalled part of the largest contribution goes
back to its owner.  ``received = finishing - starting + contributed`` (or
``winnings``) names the recorded winners of the showdown.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.errors import InputError
from pipeline.formats.histories import EXPECTED, NO_RECORDED_WINNER
from pipeline.formats.sources import Batch, Source, format_suffix
from pipeline.games import holdem
from pipeline.poker import cards
from pipeline.poker.holdem import BEST_OF
from pipeline.text import offsets_and_data, shown

SUFFIXES = (".phh", ".phhs")
VARIANTS = ("NT", "FT")  # no-limit and fixed-limit Texas hold'em

#: Hands replayed at a time: small groups keep the arrays small enough that
#: the allocator reuses their memory instead of faulting in fresh pages.
GROUP_HANDS = 1 << 12
_SEATS = holdem.MAX_PLAYERS
_BOARD = BEST_OF
_NUMBER_FIELDS = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings")
_REQUIRED = ("variant", "antes", "starting_stacks", "actions")

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


def is_phh(path: Path) -> bool:
    """Whether a path names a PHH file, plain or compressed.

    >>> is_phh(Path("a/1.phh")), is_phh(Path("b.phhs.zst")), is_phh(Path("c.csv"))
    (True, True, False)
    """
    return format_suffix(path)[0] in SUFFIXES


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """Read a PHH source in batches of at most ``batch_rows`` (and :data:`GROUP_HANDS`) hands.

    Each batch's table holds :data:`pipeline.formats.histories.COLUMNS` for the hands scored; its rows
    are the hands' numbers in the file (1-based, every hand counted), its
    lines the line where each hand starts; rejected hands are in
    ``unreadable`` and the hands set apart in ``counts``.

    Raises InputError naming the file when it cannot be read as text.
    """
    blob = _read_text(source)
    multi = ".phhs" in [s.lower() for s in source.path.suffixes]
    raw_bytes = np.frombuffer(blob, dtype=np.uint8)
    newlines = np.flatnonzero(raw_bytes == ord("\n"))
    if multi:  # a hand starts at each line that starts with '['
        line_starts = np.concatenate([[0], newlines + 1])
        line_starts = line_starts[line_starts < len(blob)]
        starts_at = line_starts[raw_bytes[line_starts] == ord("[")]
    else:
        starts_at = np.zeros(1, dtype=np.int64)
    start_lines = np.searchsorted(newlines, starts_at)  # lines before each hand
    hands = len(starts_at)
    buffer = pa.py_buffer(blob)
    group = min(batch_rows, GROUP_HANDS)
    for begin in range(0, hands, group):
        stop = min(begin + group, hands)
        low = int(starts_at[begin])
        high = int(starts_at[stop]) if stop < hands else len(blob)
        # One string of the group's bytes, without a copy, split into lines.
        text = pa.Array.from_buffers(pa.large_string(), 1, [None, pa.py_buffer(
            np.array([0, high - low], dtype=np.int64)), buffer.slice(low, high - low)])
        lines = pc.list_flatten(pc.split_pattern(text, "\n"))
        offsets, data, _ = offsets_and_data(lines)
        lengths = np.diff(offsets)
        first = np.where(lengths > 0, data[np.minimum(offsets[:-1], max(len(data) - 1, 0))], 0)
        raw = _parse(lines, first, start_lines[begin:stop] - start_lines[begin],
                     ordinal=begin + 1, first_line=int(start_lines[begin]) + 1, multi=multi)
        batch = _replay(raw, source.name)
        batch.last_row = stop
        yield batch


def _read_text(source: Source) -> bytes:
    """The bytes of a source, checked to be UTF-8 text, with line ends \\n."""
    try:
        with pa.input_stream(str(source.path), compression=source.compression) as stream:
            blob: bytes = stream.read()
    except (pa.ArrowException, OSError) as error:
        raise InputError(f"{source.path}: cannot read ({error})") from None
    try:
        blob.decode("utf-8")
    except UnicodeDecodeError as error:
        line = blob.count(b"\n", 0, error.start) + 1
        raise InputError(f"{source.path}: line {line}: bytes that are not UTF-8 text") from None
    return blob.replace(b"\r\n", b"\n") if b"\r" in blob else blob


#: A list of numbers per hand, flat: (values, float64; lengths, int64, -1 where the field is absent).
_NumberLists: TypeAlias = tuple[np.ndarray, np.ndarray]


@dataclass
class _Hands:
    """Fields of a group of hands, before the replay; hand i is row i.

    ``numbers[name]`` is (flat float64 values, lengths) with length -1 for
    a field the hand lacks; ``actions`` the flat action texts with
    ``action_counts`` per hand; ``problem`` the reason a hand is already
    rejected (None when it is not).
    """

    ordinal: NDArray[np.int64]
    line: NDArray[np.int64]
    key: list[str | None]
    variant: list[str | None]
    players: list[str | None]
    numbers: dict[str, _NumberLists]
    actions: pa.Array
    action_counts: NDArray[np.int64]
    problem: NDArray[np.object_]
    excerpt: list[str | None]


def _parse(lines: pa.Array, first: np.ndarray, starts: np.ndarray, *, ordinal: int, first_line: int,
           multi: bool) -> _Hands:
    """Read a group of hands: the fast path where it applies, tomllib elsewhere."""
    n_lines, hands = len(lines), len(starts)
    chunk = np.zeros(n_lines, dtype=np.int64)
    chunk[starts[1:]] += 1
    chunk = np.cumsum(chunk)
    slow = np.zeros(hands, dtype=bool)
    header = np.zeros(n_lines, dtype=bool)
    if multi:
        header[starts] = True
    alpha = ((first >= ord("a")) & (first <= ord("z"))) | ((first >= ord("A")) & (first <= ord("Z"))) \
        | ((first >= ord("0")) & (first <= ord("9"))) | (first == ord("_")) | (first == ord("-"))
    quiet = (first == 0) | (first == ord("#"))
    odd = ~(alpha | quiet | header)
    if odd.any():  # indented lines: fine when blank or a comment, else tomllib decides
        rows = np.flatnonzero(odd)
        trimmed = pc.utf8_trim_whitespace(lines.take(pa.array(rows))).to_pylist()
        fine = np.array([t == "" or t.startswith("#") for t in trimmed], dtype=bool)
        slow[chunk[rows[~fine]]] = True
    # "key = value": a split is far cheaper than a regular expression here.
    candidates = np.flatnonzero(alpha)
    split = pc.split_pattern(lines.take(pa.array(candidates)), " = ", max_splits=1)
    two = pc.list_value_length(split).to_numpy(zero_copy_only=False) == 2
    slow[chunk[candidates[~two]]] = True
    keys_at = candidates[two]
    split = split.filter(pa.array(two))
    key_text, values = pc.list_element(split, 0), pc.list_element(split, 1)
    matched = _mask(pc.match_substring_regex(key_text, _KEY))
    slow[chunk[keys_at[~matched]]] = True
    # Lists of strings and numbers are checked by their own stricter patterns below.
    listed = _mask(pc.starts_with(values, "["))
    scalar = np.flatnonzero(~listed)
    good = _mask(pc.match_substring_regex(values.take(pa.array(scalar)), _VALUE))
    slow[chunk[keys_at[scalar[matched[scalar] & ~good]]]] = True
    encoded = key_text.dictionary_encode()
    names = encoded.dictionary.to_pylist()
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    owner = chunk[keys_at]
    pair_ids = owner * (len(names) + 1) + codes
    unique, counts = np.unique(pair_ids[matched], return_counts=True)
    slow[unique[counts > 1] // (len(names) + 1)] = True  # a duplicate key: TOML refuses it
    where: dict[str, np.ndarray] = {}
    for name in _REQUIRED + ("blinds_or_straddles", "players", "hand", "finishing_stacks", "winnings"):
        at = np.full(hands, -1, dtype=np.int64)
        if name in names:
            rows = np.flatnonzero(matched & (codes == names.index(name)))
            at[owner[rows]] = rows
        where[name] = at
    for name in _REQUIRED:
        slow |= where[name] < 0
    # A list under any other key: TOML's rules, checked in full (short lines).
    other = np.flatnonzero(matched & listed & ~np.isin(codes, [names.index(n) for n in where if n in names]))
    if len(other):
        fits = _mask(pc.match_substring_regex(values.take(pa.array(other)), _VALUE))
        slow[chunk[keys_at[other[~fits]]]] = True
    checks = {name: _NUMBERS for name in _NUMBER_FIELDS} | {"actions": _STRINGS, "players": _STRINGS}
    canonical = np.zeros(hands, dtype=bool)
    for name, pattern in checks.items():
        present = np.flatnonzero(where[name] >= 0)
        text = values.take(pa.array(where[name][present]))
        if name == "actions":  # pokerkit's own layout first: a cheaper pattern, a cheaper split
            canonical[present] = _mask(pc.match_substring_regex(text, _CANONICAL))
            present = present[~canonical[present]]
            text = values.take(pa.array(where[name][present]))
        fits = pc.match_substring_regex(text, pattern)
        slow[present[~fits.to_numpy(zero_copy_only=False)]] = True
    present = np.flatnonzero(where["variant"] >= 0)
    variant_text = values.take(pa.array(where["variant"][present]))
    quoted = pc.match_substring_regex(variant_text, r"""^(?:'[^']*'|"[^"\\]*")$""")
    slow[present[~quoted.to_numpy(zero_copy_only=False)]] = True

    header_keys: list[str | None] = []
    if multi:
        found = pc.extract_regex(lines.take(pa.array(starts)), _HEADER)
        plain = found.is_valid().to_numpy(zero_copy_only=False)
        slow |= ~plain
        header_keys = found.field(0).to_pylist()
    elif header.any() or (first == ord("[")).any():
        slow[:] = True

    fast = np.flatnonzero(~slow)
    take = {name: pa.array(where[name][fast]) for name in where}
    got = {name: values.take(take[name]) for name in where if (where[name][fast] >= 0).all()}
    optional = {name: _optional(values, where[name][fast])
                for name in ("blinds_or_straddles", "players", "hand", "finishing_stacks", "winnings")}
    numbers: dict[str, _NumberLists] = {}
    for name in _NUMBER_FIELDS:
        source = got.get(name) if name in got else optional.get(name)
        numbers[name] = _number_lists(source)
    if len(fast):
        actions, action_counts = _string_lists(got["actions"], canonical=bool(canonical[fast].all()))
    else:
        actions, action_counts = pa.array([], pa.string()), np.zeros(0, dtype=np.int64)
    players = pc.replace_substring_regex(
        _inner(optional["players"]), r"""['"] *, *['"]""", ", ").to_pylist()
    hand_text = pc.replace_substring_regex(optional["hand"], r"""^['"]|['"]$""", "").to_pylist()
    variant = pc.utf8_slice_codeunits(got["variant"], 1, -1).to_pylist() if len(fast) else []
    key = [header_keys[i] for i in fast] if multi else hand_text
    fast_hands = _Hands(
        ordinal=ordinal + fast, line=first_line + starts[fast], key=key, variant=variant,
        players=players, numbers=numbers, actions=actions, action_counts=action_counts,
        problem=np.full(len(fast), None, dtype=object), excerpt=[None] * len(fast))
    slow_rows = np.flatnonzero(slow)
    if not len(slow_rows):
        return fast_hands
    ends = np.append(starts[1:], n_lines)
    records = []
    for index in slow_rows:
        text = "\n".join(lines.slice(int(starts[index]), int(ends[index] - starts[index])).to_pylist())
        record = _slow_hand(text, multi)
        if multi and record.get("key") is None:  # TOML refused the hand: name it by its header
            record["key"] = text.split("\n", 1)[0].split("#")[0].strip().strip("[]").strip()
        records.append(record)
    return _concat(fast_hands, _from_records(records, ordinal + slow_rows, first_line + starts[slow_rows]))


def _mask(flags: pa.Array | pa.ChunkedArray) -> NDArray[np.bool_]:
    """A boolean pyarrow array as numpy, null read as False."""
    mask: NDArray[np.bool_] = pc.fill_null(flags, False).to_numpy(zero_copy_only=False).astype(bool)
    return mask


def _optional(values: pa.Array, at: np.ndarray) -> pa.Array:
    """The values at ``at``, null where ``at`` is -1."""
    taken = values.take(pa.array(np.maximum(at, 0))) if len(values) else pa.nulls(len(at), pa.string())
    return pc.if_else(pa.array(at >= 0), taken, pa.scalar(None, pa.string()))


def _inner(lists: pa.Array) -> pa.Array:
    """The text between the brackets and outer quotes of one-line string lists."""
    return pc.replace_substring_regex(lists, r"""^\[ *['"]?|['"]? *,? *\]$""", "")


def _string_lists(lists: pa.Array, *, canonical: bool = False) -> tuple[pa.Array, np.ndarray]:
    """Items of one-line lists of plain strings, flat, and their count per list."""
    if canonical:
        # As pokerkit writes them: ['a', 'b']; plain slicing and splitting.
        parts = pc.split_pattern(pc.utf8_slice_codeunits(lists, 2, -2), "', '")
        counts = pc.list_value_length(parts).to_numpy(zero_copy_only=False).astype(np.int64)
        return pc.list_flatten(parts), counts
    inner = _inner(lists)
    empty = _mask(pc.equal(inner, ""))
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
    empty = _mask(pc.equal(inner, "")) & ~missing
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
    return record


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _from_records(records: list[dict[str, Any]], ordinal: np.ndarray, line: np.ndarray) -> _Hands:
    numbers: dict[str, _NumberLists] = {}
    for name in _NUMBER_FIELDS:
        lists = [r.get("numbers", {}).get(name) for r in records]
        flat = [x for values in lists if values is not None for x in values]
        numbers[name] = (np.array(flat, dtype=np.float64),
                         np.array([-1 if v is None else len(v) for v in lists], dtype=np.int64))
    actions = [r.get("actions") or [] for r in records]
    return _Hands(
        ordinal=np.asarray(ordinal, dtype=np.int64), line=np.asarray(line, dtype=np.int64),
        key=[r.get("key") for r in records], variant=[r.get("variant") for r in records],
        players=[r.get("players") for r in records], numbers=numbers,
        actions=pa.array([a for acts in actions for a in acts], pa.string()),
        action_counts=np.array([len(a) for a in actions], dtype=np.int64),
        problem=np.array([r.get("problem") for r in records], dtype=object),
        excerpt=[r.get("excerpt") for r in records])


def _concat(a: _Hands, b: _Hands) -> _Hands:
    return _Hands(
        ordinal=np.concatenate([a.ordinal, b.ordinal]), line=np.concatenate([a.line, b.line]),
        key=a.key + b.key, variant=a.variant + b.variant, players=a.players + b.players,
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
    starts = np.cumsum(counts) - counts
    index = np.arange(counts.sum()) - np.repeat(starts, counts)
    rows = np.repeat(np.arange(hands), counts)
    keep = index < _SEATS
    out[rows[keep], index[keep]] = values[keep]
    return out


def _replay(raw: _Hands, path: str) -> Batch:
    """Replay every hand of a group at once; the batch of its outcomes."""
    hands = len(raw.ordinal)
    problem = raw.problem.copy()
    excerpt = list(raw.excerpt)

    def reject(rows: NDArray[np.intp], reason: str | Callable[[int, np.intp], str],
               text: str | Callable[[int, np.intp], str] | None = None) -> None:
        for position, row in enumerate(rows):
            if problem[row] is None:
                problem[row] = reason(position, row) if callable(reason) else reason
                excerpt[row] = text(position, row) if callable(text) else text

    variant = np.array([v if v is not None else "" for v in raw.variant], dtype=object)
    wrong = np.flatnonzero(~np.isin(variant, VARIANTS))
    reject(wrong, lambda _, row: f"variant {variant[row]!r} is not Texas hold'em ({' or '.join(VARIANTS)})")
    players = raw.numbers["starting_stacks"][1]
    reject(np.flatnonzero((players < 2) | (players > _SEATS)),
           lambda _, row: f"{players[row]} starting stacks: expected 2 to {_SEATS} players")
    for name in ("antes", "blinds_or_straddles", "finishing_stacks", "winnings"):
        lengths = raw.numbers[name][1]

        def miscount(_: int, row: np.intp, name: str = name, lengths: np.ndarray = lengths) -> str:
            return f"{name} has {lengths[row]} values for {players[row]} players"

        reject(np.flatnonzero((lengths >= 0) & (lengths != players)), miscount)
    stack = _padded(*raw.numbers["starting_stacks"])
    ante = _padded(*raw.numbers["antes"])
    blind = _padded(*raw.numbers["blinds_or_straddles"])
    seated = np.arange(_SEATS) < np.minimum(players, _SEATS)[:, None]

    # Actions: actor, verb, target and argument of each, with their hand.
    counts = raw.action_counts
    hand_of = np.repeat(np.arange(hands), counts)
    texts = raw.actions
    understood, actor, verb, target, arg_start, arg_length, amount, data = _split_actions(texts)

    def action_text(rows: np.ndarray) -> list[str]:
        listed: list[str] = texts.take(pa.array(rows)).to_pylist()
        return listed

    def reject_actions(bad: np.ndarray, why: Callable[[np.intp], str]) -> None:
        bad = np.flatnonzero(bad)
        if not len(bad):
            return
        # The first bad action of each hand names the reason.
        hand_rows, first = np.unique(hand_of[bad], return_index=True)
        shown_text = action_text(bad[first])
        reject(hand_rows, lambda i, _: f"action {shown(shown_text[i])}: {why(bad[first[i]])}",
               lambda i, _: shown_text[i])

    reject_actions(~understood, lambda _: "not understood")
    dealer = actor == 0
    is_deal = (verb == DH) | (verb == DB)
    reject_actions(understood & (verb == OTHER),
                   lambda a: "not a Texas hold'em action (dh, db, cbr, cc, f, sm)")
    reject_actions(understood & (verb != OTHER) & (dealer != is_deal),
                   lambda a: "dealing is the dealer's (d), betting the players' (pN)")
    reject_actions(understood & ((verb == DH) != (target > 0)),
                   lambda a: "d dh names the player dealt to, and only it")
    seats_of = players[hand_of]
    unseated = understood & ((actor > seats_of) | (target > seats_of) | (actor < 0) | (target < 0))
    reject_actions(unseated, lambda a: f"player {max(actor[a], target[a])} is not seated "
                                       f"({seats_of[a]} players)")
    amount = np.where(verb == CBR, amount, np.nan)
    reject_actions(understood & (verb == CBR) & np.isnan(amount), lambda _: "cbr needs an amount")
    reject_actions(understood & ((verb == CC) | (verb == FOLD)) & (arg_length > 0),
                   lambda _: "cc and f take no argument")

    # Cards: two bytes each, '??' for a card nobody saw.
    carded = understood & ((verb == DH) | (verb == DB) | ((verb == SM) & (arg_length > 0)))
    reject_actions(carded & ((arg_length % 2 == 1) | (arg_length == 0)), lambda _: "cards are two "
                                                                              "characters each")
    carded &= (arg_length % 2 == 0) & (arg_length > 0)
    reject_actions(carded & (verb != DB) & (arg_length != 4), lambda _: "hole cards are two cards")
    reject_actions(carded & (verb == DB) & (arg_length > 2 * _BOARD), lambda _: "more than five board cards")
    carded &= ((verb != DB) & (arg_length == 4)) | ((verb == DB) & (arg_length <= 2 * _BOARD))
    card_actions = np.flatnonzero(carded)
    per = arg_length[card_actions] // 2
    begin = np.repeat(arg_start[card_actions], per) + 2 * (
        np.arange(per.sum()) - np.repeat(np.cumsum(per) - per, per))
    pair = data[begin].astype(np.uint16) | data[begin + 1].astype(np.uint16) << 8 if len(begin) else \
        np.zeros(0, np.uint16)
    code = cards.CODE_OF_TEXT[pair]
    code[pair == ord("?") | ord("?") << 8] = _UNKNOWN_CARD
    bad_card = code == cards.INVALID
    owner = np.repeat(card_actions, per)
    if bad_card.any():
        words = {int(owner[i]): data[begin[i]:begin[i] + 2].tobytes().decode("utf-8", "replace")
                 for i in np.flatnonzero(bad_card)[::-1]}
        reject_actions(np.isin(np.arange(len(verb)), owner[bad_card]),
                       lambda a: f"unknown card {shown(words[int(a)])} (ranks {cards.RANKS}, suits "
                                 f"{cards.SUITS}, ?? unknown)")

    # Board: the cards of d db in order.
    board = np.full((hands, _BOARD), _NO_CARD, dtype=np.uint8)
    is_board = verb[owner] == DB
    board_hand = hand_of[owner[is_board]]
    order = np.arange(len(board_hand))
    first_of_hand = np.searchsorted(board_hand, board_hand)  # board_hand is sorted
    slot = order - first_of_hand
    over = slot >= _BOARD
    reject(np.unique(board_hand[over]), "more than five board cards")
    board[board_hand[~over], slot[~over]] = code[is_board][~over]
    board_count = np.bincount(board_hand, minlength=hands)

    # Hole cards: the deal, replaced by what the player shows.
    holes = np.full((hands, _SEATS, 2), _NO_CARD, dtype=np.uint8)
    shown_cards = np.full((hands, _SEATS, 2), _NO_CARD, dtype=np.uint8)
    for which, grid, seat in ((DH, holes, target), (SM, shown_cards, actor)):
        mine = verb[owner] == which
        acts = owner[mine][::2]
        grid[hand_of[acts], np.minimum(seat[acts], _SEATS) - 1] = code[mine].reshape(-1, 2)
    dealt_known: NDArray[np.bool_] = np.all(holes < _UNKNOWN_CARD, axis=2)
    shown_known: NDArray[np.bool_] = np.all(shown_cards < _UNKNOWN_CARD, axis=2)
    differ = dealt_known & shown_known & (np.sort(holes, axis=2) != np.sort(shown_cards, axis=2)).any(axis=2)
    rows, seats = np.nonzero(differ)
    reject(rows, lambda i, row: f"p{seats[i] + 1} shows {_cards_of(shown_cards[row, seats[i]])}, dealt "
                                f"{_cards_of(holes[row, seats[i]])}")
    holes = np.where(shown_known[:, :, None], shown_cards, holes)

    # A card dealt twice leaves fewer card bits than known cards.
    every = np.concatenate([board, holes.reshape(hands, -1)], axis=1)
    bits = np.zeros(hands, dtype=np.uint64)
    known_cards = np.zeros(hands, dtype=np.int64)
    for column in every.T:
        real = column < 52
        bits |= np.where(real, np.left_shift(np.uint64(1), column.astype(np.uint64) % np.uint64(52)),
                         np.uint64(0))
        known_cards += real
    twice = np.flatnonzero(np.bitwise_count(bits) != known_cards)
    reject(twice, lambda _, row: f"card {_twice(every[row])} is dealt twice")

    # Chips.  The street of an action is the number of board deals before it.
    is_db = (verb == DB).astype(np.int64)
    before = np.cumsum(is_db) - is_db
    hand_start = np.cumsum(counts) - counts
    street = before - before[np.minimum(hand_start, max(len(before) - 1, 0))][hand_of] if len(before) \
        else before
    street = np.minimum(street, _MAX_STREETS - 1)
    posted_ante = np.minimum(ante, stack) * seated
    posted_blind = np.minimum(blind, stack - posted_ante) * seated
    segment = hand_of * _MAX_STREETS + street
    bet = np.where(verb == CBR, amount, -np.inf)
    level = _running_max_before(bet, segment)
    level = np.where(street == 0, np.maximum(level, posted_blind.max(axis=1)[hand_of]), level)
    contributed = posted_ante.copy()
    playing = understood & ((verb == CBR) | (verb == CC)) & (actor >= 1) & (actor <= seats_of)
    seat = np.clip(actor - 1, 0, _SEATS - 1)
    for s in range(int(street.max(initial=0)) + 1):
        committed = posted_blind.copy() if s == 0 else np.zeros_like(contributed)
        behind = stack - contributed
        acts = np.flatnonzero(playing & (street == s))
        cap = behind[hand_of[acts], seat[acts]]
        value = np.minimum(np.where(verb[acts] == CBR, amount[acts], level[acts]), cap)
        np.maximum.at(committed, (hand_of[acts], seat[acts]), value)
        contributed += committed
    # The uncalled part of the largest contribution goes back to its owner.
    ranked = np.sort(contributed, axis=1)
    top = contributed.argmax(axis=1)
    contributed[np.arange(hands), top] -= ranked[:, -1] - ranked[:, -2]

    folded = np.zeros((hands, _SEATS), dtype=bool)
    folds = np.flatnonzero(understood & (verb == FOLD) & (actor >= 1) & (actor <= seats_of))
    folded[hand_of[folds], seat[folds]] = True
    live = seated & ~folded
    showdown = live.sum(axis=1) >= 2
    complete = (board_count == _BOARD) & ((holes < 52).all(axis=2) | ~live).all(axis=1)

    rejected = problem != None  # noqa: E711 (elementwise)
    scored = ~rejected & showdown & complete
    counts_out = {"without_showdown": int((~rejected & ~showdown).sum()),
                  "unknown_cards": int((~rejected & showdown & ~complete).sum())}

    # Recorded winners: the showdown players who received chips.
    finishing, has_finishing = _padded(*raw.numbers["finishing_stacks"]), \
        raw.numbers["finishing_stacks"][1] >= 0
    winnings, has_winnings = _padded(*raw.numbers["winnings"]), raw.numbers["winnings"][1] >= 0
    received = np.where(has_finishing[:, None], finishing - stack + contributed, winnings)
    recorded = has_finishing | has_winnings
    tolerance = 1e-9 * (1 + np.abs(stack).max(axis=1, initial=0))
    spread = np.where(live, contributed, -np.inf).max(axis=1) - \
        np.where(live, contributed, np.inf).min(axis=1)
    side_pot = spread > tolerance
    received_bits = ((received > tolerance[:, None]) & live) << np.arange(_SEATS)
    masks = received_bits.sum(axis=1).astype(np.int64)
    expected = np.where(masks > 0, holdem.winners_text(masks), NO_RECORDED_WINNER)
    checked = scored & recorded & ~side_pot
    expected = np.where(checked, expected, "")
    counts_out["side_pots"] = int((scored & recorded & side_pot).sum())
    counts_out["no_recorded_result"] = int((scored & ~recorded).sum())

    order = np.argsort(raw.ordinal, kind="stable")
    keep = order[scored[order]]
    table = _table(board[keep], holes[keep], live[keep], expected[keep], path,
                   [raw.key[i] for i in keep], [raw.players[i] for i in keep], variant[keep])
    unreadable = []
    for row in order[rejected[order]]:
        where = f"hand {raw.key[row]}: " if raw.key[row] is not None else ""
        unreadable.append((int(raw.ordinal[row]), int(raw.line[row]), excerpt[row] or "",
                           where + problem[row]))
    return Batch(table, raw.ordinal[keep], raw.line[keep], unreadable, counts=counts_out)


def _running_max_before(values: np.ndarray, segment: np.ndarray) -> np.ndarray:
    """Maximum of the earlier values of each value's segment, -inf for the first.

    ``segment`` is non-decreasing.  Values are replaced by their rank so that
    one accumulate over ``segment * ranks + rank`` never mixes segments.

    >>> _running_max_before(np.array([1., 5., 2., 7., 3.]), np.array([0, 0, 0, 1, 1])).tolist()
    [-inf, 1.0, 5.0, -inf, 7.0]
    """
    if not len(values):
        return values.copy()
    unique, rank = np.unique(values, return_inverse=True)
    width = len(unique)
    running = np.maximum.accumulate(segment.astype(np.int64) * width + rank) - segment * width
    before = np.full(len(values), -np.inf)
    same = segment[1:] == segment[:-1]
    before[1:][same] = unique[running[:-1][same]]
    return before


_MAX_NUMBER = 24  # characters of an amount


def _split_actions(texts: pa.Array) -> tuple[np.ndarray, ...]:
    """Split every action into its words with numpy over the text bytes at once.

    An action is ``ACTOR VERB [pN] [ARG]`` with single spaces: the actor
    ``d`` or ``pN``, a lower-case verb, an optional player (``d dh pN``) and
    an optional argument (cards or an amount); a ``#`` starts a comment.

    Returns
    -------
    understood : (n,) bool, the action has that shape
    actor, target : (n,) int64, player numbers (0 for the dealer or none; -1 invalid)
    verb : (n,) int64, a verb code (:data:`OTHER` for a verb not read here)
    arg_start, arg_length : (n,) int64, where the argument lies in ``data`` (length 0: none)
    amount : (n,) float64, the argument of cbr read as a number (NaN when it is not one or no cbr)
    data : (bytes,) uint8, the text bytes ``arg_start`` points into
    """
    if len(texts) and pc.any(pc.match_substring(texts, "#")).as_py():
        texts = pc.replace_substring_regex(texts, r" *#.*$", "")
    offsets, data, _ = offsets_and_data(texts)
    data = np.concatenate([data, np.zeros(_MAX_NUMBER + 4, dtype=np.uint8)])  # reads past an end stay in
    n = len(offsets) - 1
    start, end = offsets[:-1].astype(np.int64), offsets[1:].astype(np.int64)
    spaces = np.flatnonzero(data[offsets[0]:offsets[-1]] == ord(" ")) + offsets[0] if n else \
        np.zeros(0, dtype=np.int64)
    owner = np.searchsorted(offsets, spaces, side="right") - 1
    words = np.bincount(owner, minlength=n) + 1
    rank = np.arange(len(spaces)) - (np.cumsum(words - 1) - (words - 1))[owner]
    cuts = np.repeat(end[:, None], 3, axis=1)
    early = rank < 3
    cuts[owner[early], rank[early]] = spaces[early]
    starts = [start, cuts[:, 0] + 1, cuts[:, 1] + 1, cuts[:, 2] + 1]
    lengths = [cuts[:, 0] - start, cuts[:, 1] - starts[1], cuts[:, 2] - starts[2], end - starts[3]]
    lengths = [np.where(words > i, length, -1) for i, length in enumerate(lengths)]
    understood = (words <= 4) & (lengths[0] > 0) & (lengths[1] > 0)
    for i in range(2, 4):
        understood &= lengths[i] != 0  # no empty word: a double space
    dealer = (lengths[0] == 1) & (data[start] == ord("d"))
    player = _seat(data, starts[0], lengths[0])
    actor = np.where(dealer, 0, player)
    understood &= dealer | (player > 0)
    verb_length = lengths[1]
    key = np.zeros(n, dtype=np.int64)
    letters = verb_length > 0
    for i in range(3):
        byte = data[starts[1] + i].astype(np.int64)
        inside = verb_length > i
        letters &= ~inside | ((byte >= ord("a")) & (byte <= ord("z")))
        key |= np.where(inside, byte, 0) << (8 * i)
    understood &= letters & (verb_length <= 3)
    verb = np.full(n, OTHER, dtype=np.int64)
    for name, code in _VERBS.items():
        verb[key == int.from_bytes(name.encode(), "little")] = code
    # A third word pN is the player dealt to; the word after it, or else the third, the argument.
    third = _seat(data, starts[2], lengths[2])
    has_target = (lengths[2] > 0) & (data[starts[2]] == ord("p")) & ((lengths[3] > 0) | (verb == DH))
    target = np.where(has_target, third, 0)
    understood &= ~has_target | (third > 0)
    understood &= has_target | (words <= 3)
    arg_start = np.where(has_target, starts[3], starts[2])
    arg_length = np.maximum(np.where(has_target, lengths[3], lengths[2]), 0)
    amount = np.full(n, np.nan)
    bets = np.flatnonzero(verb == CBR)
    amount[bets] = _numbers(data, arg_start[bets], arg_length[bets])
    return understood, actor, verb, target, arg_start, arg_length, amount, data


def _seat(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """'pN' (N of one or two digits) -> N, anything else -> -1."""
    first = data[start + 1].astype(np.int64) - ord("0")
    second = data[start + 2].astype(np.int64) - ord("0")
    digit1 = (first >= 0) & (first <= 9)
    digit2 = (second >= 0) & (second <= 9)
    seat = np.where(length == 2, first, first * 10 + second)
    fine = (data[start] == ord("p")) & digit1 & ((length == 2) | ((length == 3) & digit2))
    return np.where(fine & (seat > 0), seat, -1)


def _numbers(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Words of digits with at most one inner '.' read as float64; NaN for anything else.

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
    columns = np.arange(width)
    matrix = data[start[:, None] + columns].astype(np.int64)
    inside = columns < length[:, None]
    digit = matrix - ord("0")
    is_digit = (digit >= 0) & (digit <= 9) & inside
    is_dot = (matrix == ord(".")) & inside
    dots = is_dot.sum(axis=1)
    point = np.where(dots > 0, is_dot.argmax(axis=1), length)
    fine = (length > 0) & (length <= _MAX_NUMBER) & ((is_digit | is_dot) == inside).all(axis=1) \
        & (dots <= 1) & (point > 0) & ~((dots > 0) & (point >= length - 1))
    power = np.where(columns < point[:, None], point[:, None] - 1 - columns, point[:, None] - columns)
    value = (np.where(is_digit, digit, 0) * 10.0 ** power).sum(axis=1)
    values[fine] = value[fine]
    return values


def _cards_of(codes: np.ndarray) -> str:
    return "".join("??" if c == _UNKNOWN_CARD else str(cards.CARD_TEXT[c]) for c in codes)


def _twice(codes: np.ndarray) -> str:
    real = codes[codes < 52]
    values, counts = np.unique(real, return_counts=True)
    return str(cards.CARD_TEXT[values[counts > 1][0]])


_RANK_BYTE = np.frombuffer(cards.RANKS.encode(), dtype=np.uint8)
_SUIT_BYTE = np.frombuffer(cards.SUITS.encode(), dtype=np.uint8)


def _card_text(codes: np.ndarray, present: np.ndarray | None = None) -> pa.Array:
    """Cards as text separated by spaces, ``(n, k)`` codes -> n strings; null where not present."""
    n, k = codes.shape
    width = 3 * k - 1
    matrix = np.full((n, width), ord(" "), dtype=np.uint8)
    matrix[:, 0::3] = _RANK_BYTE[codes // 4]
    matrix[:, 1::3] = _SUIT_BYTE[codes % 4]
    offsets = (np.arange(n + 1) * width).astype(np.int32)
    array = pa.Array.from_buffers(pa.string(), n,
                                  [None, pa.py_buffer(offsets), pa.py_buffer(matrix.tobytes())])
    if present is None:
        return array
    return pc.if_else(pa.array(present), array, pa.scalar(None, pa.string()))


def _table(board: np.ndarray, holes: np.ndarray, live: np.ndarray, expected: np.ndarray, path: str,
           keys: list[str | None], players: list[str | None], variant: np.ndarray) -> pa.Table:
    n = len(board)
    columns = {"board": _card_text(np.minimum(board, 51))}
    for seat, name in enumerate(holdem.SEATS):
        columns[name] = _card_text(np.where(live[:, seat, None], holes[:, seat], 0), live[:, seat])
    columns[EXPECTED] = pa.array(expected.tolist() if n else [], pa.string())
    columns["file"] = pa.array([path] * n, pa.string())
    columns["hand"] = pa.array(keys, pa.string())
    columns["players"] = pa.array(players, pa.string())
    columns["variant"] = pa.array(variant.tolist() if n else [], pa.string())
    return pa.table(columns)
