"""PHH hand histories: real hands in, showdown deals and recorded winners out.

Layer: formats and I/O (:mod:`pipeline.formats`); the package imports
:mod:`~pipeline.formats.sources`, :mod:`~pipeline.formats.histories`,
:mod:`~pipeline.formats.scan`, the board games (:mod:`pipeline.games`), the
hands layer (:mod:`pipeline.hands`), pure evaluation and the foundation
modules, never the runs or the command line.

This package owns the Poker Hand History format (PHH: TOML, one hand per
``.phh`` file, or many per ``.phhs`` file as the tables ``[1]``, ``[2]``, ...;
specification in the uoftcprg/phh-std repository and pokerkit's
docs/notation.rst).  It reads the variants of the board games pokerpipe
scores (:mod:`~pipeline.formats.phh.variants`: ``NT`` and ``FT`` Texas
hold'em, ``NS`` short-deck, ``PO`` Omaha, ``FO/8`` Omaha eight-or-better)
and turns each hand into a deal row (``board``, ``p1`` ... ``p10``), plus
the winners the recorded chips name (``winners``) and columns that trace
the row back to its hand (``file``, ``hand``, ``players``, ``variant``).

Every hand ends in exactly one of four outcomes: a showdown scored like a
deal row; no showdown (fewer than two players had not folded at the end);
a showdown whose cards are not all known (a live player's ``????``, or a
board of fewer than five cards); or a rejection with its reason (bad TOML,
a variant pokerpipe does not read (stud, razz, draw, badugi), hole cards
of another count than the variant deals, an unknown card, a card not in
the variant's deck, a card dealt twice, an action of a player who is not
seated, ...).

How a file is read
------------------
A TOML parse per hand in Python costs more than the rest of the run, so
the whole text is cut into lines and read at once, with numpy over its
bytes and a few pyarrow string kernels: every ``key = value`` line must
match a strict one-line subset of TOML (bare keys, basic and literal
strings without escapes in lists, plain numbers, booleans, one-line
arrays).  A hand with any line outside that subset, a duplicate key or a
missing field is parsed by :mod:`tomllib` instead, so the fast path only
ever decides hands it reads exactly as TOML does
(:mod:`~pipeline.formats.phh.toml`).

The actions of every hand are then split with numpy over their bytes and
replayed with numpy over all actions at once (:func:`replay`, a sequence of
steps that each take and return whole arrays): the street of each action is
the number of board deals before it; the level a call matches is the
running maximum of the bets on its street (the big blind before the flop);
what a player commits on a street is its largest bet or call there, capped
by what it has behind; the uncalled part of the largest bet goes back to
its owner (antes are dead money: never returned, no side pot).
``received = finishing - starting + contributed`` (or ``winnings``) names
the recorded winners of the showdown (:mod:`~pipeline.formats.phh.actions`,
:mod:`~pipeline.formats.phh.checks`, :mod:`~pipeline.formats.phh.chips`).

The modules
-----------
Bottom to top, each importing only those before it:

* :mod:`~pipeline.formats.phh.files`: files and their parts: a file read a part at a time on a
  thread of its own, its hands found (table headers outside multi-line strings), its bytes made
  UTF-8 text, whole hands handed on in groups;
* :mod:`~pipeline.formats.phh.variants`: the variant codes read (:data:`VARIANTS`), each one's
  game, betting, hole cards and deck, and the reason a hand of another is rejected;
* :mod:`~pipeline.formats.phh.toml`: a group's text parsed into :class:`Hands`, the fast TOML
  subset and the :mod:`tomllib` fallback;
* :mod:`~pipeline.formats.phh.actions`: the actions split into their words (:class:`Actions`,
  :func:`split_actions`), the verb codes;
* :mod:`~pipeline.formats.phh.checks`: the reasons a hand is rejected (:class:`Rejections`), the
  checks of its fields and actions, the cards it deals;
* :mod:`~pipeline.formats.phh.record`: the checked hands as the shared
  :class:`~pipeline.hands.record.Record` (:func:`record_of`);
* :mod:`~pipeline.formats.phh.chips`: the replay of the chips and the audit of the recorded
  results (:func:`replay`), the batch of the showdowns (:func:`to_batch`).

This module puts them together into the reader (:func:`read_batches`,
:func:`read_pending`, :func:`read_hands`) and offers the names the format
offered when it was one module, as ``phh.replay``, ``phh.Hands``,
``phh.split_actions``, ....  A size of the reading (:data:`CHUNK_BYTES`, :data:`FIRST_PART_BYTES`, ...)
is read where it is defined: it is set on
:mod:`~pipeline.formats.phh.files`, not here.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from pipeline.formats.phh.actions import CBR, CC, DB, DH, FOLD, OTHER, SM, Actions, split_actions
from pipeline.formats.phh.checks import (
    Fields,
    Rejections,
    board_cards,
    card_codes,
    check_actions,
    check_dealt_twice,
    check_fields,
    check_folded,
    hole_cards,
)
from pipeline.formats.phh.chips import Replay, replay, to_batch
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
from pipeline.formats.phh.record import record_of, streets
from pipeline.formats.phh.toml import Hands, parse_group, slow_hand
from pipeline.formats.phh.variants import VARIANTS
from pipeline.formats.sources import Batch, PendingBatch, Source

__all__ = [
    "CBR", "CC", "CHUNK_BYTES", "DB", "DH", "FIRST_PART_BYTES", "FOLD", "GROUP_HANDS",
    "LONGEST_OPEN_STRING", "OTHER", "PARTS_WAITING", "SM", "SUFFIXES", "VARIANTS", "Actions", "Fields",
    "Hands", "Rejections", "Replay", "board_cards", "card_codes", "check_actions", "check_dealt_twice",
    "check_fields", "check_folded", "hole_cards", "holds_one_hand", "is_phh", "read_batches", "read_hands",
    "read_pending", "record_of", "replay", "split_actions", "streets", "to_batch",
]

#: The private names the tests read, under the names they had before the package was split.
_hand_texts, _hand_starts, _holds_a_delimiter = hand_texts, hand_starts, holds_a_delimiter
_slow_hand = slow_hand


def read_batches(source: Source, *, batch_rows: int) -> Iterator[Batch]:
    """Read a PHH source in batches of at most ``batch_rows`` (and :data:`GROUP_HANDS`) hands.

    Each batch's table holds :data:`pipeline.formats.histories.COLUMNS` for the hands scored; its rows
    are the hands' numbers in the file (1-based, every hand counted), its
    lines the line where each hand starts; rejected hands are in
    ``unreadable`` and the hands set apart in ``counts``.

    Raises InputError naming the file when it cannot be read as text.
    """
    for group in hand_texts(source, batch_rows=batch_rows):
        yield _group_batch(group, source)


def read_pending(source: Source, *, batch_rows: int) -> Iterator[PendingBatch]:
    """The batches of :func:`read_batches`, each left for the thread that loads it to parse.

    This thread only reads the text and finds where hands start; the
    parsing and the replay, most of the work, run where the batch is
    loaded, so that several cores share one file.
    """
    for group in hand_texts(source, batch_rows=batch_rows):
        yield PendingBatch(partial(_group_batch, group, source), last_row=group.last_ordinal)


def _group_batch(group: Group, source: Source) -> Batch:
    hands = parse_group(group)
    if group.members:  # each hand is a file of its own: its rows name it
        members = {group.first_ordinal + index: member for index, member in enumerate(group.members)}
        batch = to_batch(hands, replay(hands), {ordinal: member.name for ordinal, member in members.items()},
                         place={ordinal: member.place for ordinal, member in members.items()},
                         duplicates=source.duplicates)
        batch.member_of_row = members
    else:
        batch = to_batch(hands, replay(hands), source.name, place=source.place, duplicates=source.duplicates)
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
        yield parse_group(group)
